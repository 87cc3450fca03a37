"""The Sudoku plugin's PuzzleType: parsing, the model, checks, rendering.

Its hooks (``hooks.py``, the ``csolve`` entry point ``sudoku``, found exactly as a third-party
plugin is) import this module when they are first called. Heavier parts (the generator, the
human-style steps) are imported inside the methods that use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache

import numpy as np

from csolve.errors import PuzzleInputError, UnknownNameError
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleBatch, PuzzleType, shape_words
from csolve.rowgrid import row_line

from . import formats
from .bulk import as_rows, json_grids, read_lines, write_lines
from .grid import (
    VALUE,
    Box,
    as_cells,
    check_box,
    complete_many,
    default_box,
    has_repeats,
    out_of_range,
    parse_box,
    repeats_many,
    unit_breaks,
    unit_problems,
    units,
)

DEFAULT_RULES = ("elimination", "hidden-single")
#: The engine that searches 9x9 puzzles unless rules are chosen (see bands.py).
BANDS_ENGINE = "sudoku9-bands"


def is_9x9(model: Model) -> bool:
    """The models the bitboard engine fits: 9x9 Sudoku."""
    return model.key.startswith("sudoku-9-") and model.n_cells == 81


def _engine(n: int, rules: tuple[str, ...] | None) -> str:
    """9x9 puzzles get the bitboard engine; chosen rules get the generic search they name."""
    return BANDS_ENGINE if n == 9 and rules is None else ""


def add_units(b: ModelBuilder, n: int, box: Box | None = None) -> None:
    """Rows, columns and boxes of an n×n grid as groups that hold 1..n, in that order (group
    ``i`` is row i + 1, group ``n + i`` column i + 1, group ``2n + i`` box i + 1)."""
    values = range(1, n + 1)
    # rows are family 1 and columns family 2 (parallel groups, for fish); boxes have none
    for family, group in zip((1, 2, 0), units(n, box), strict=True):
        for cells in group:
            b.add_group(cells, required=values, family=family)


def shape_key(n: int, box: Box | None) -> str:
    """The box shape's part of a model key: empty for square boxes, ``2x3-`` otherwise."""
    r, c = check_box(n, box)
    return "" if r == c else f"{r}x{c}-"


@lru_cache(maxsize=32)
def sudoku_model(n: int, rules: tuple[str, ...], engine: str = "", box: Box | None = None
                 ) -> Model:
    """The structure of an n×n Sudoku (rows, columns, boxes must each hold 1..n)."""
    box = check_box(n, box)
    b = ModelBuilder(n * n, n)
    add_units(b, n, box)
    return b.build(rules, key=f"sudoku-{n}-{shape_key(n, box)}{'/'.join(rules)}-{engine}",
                   meta={"n": n, "box": box}, engine=engine)


def _initial_masks(givens: np.ndarray, n: int) -> np.ndarray:
    """Candidate masks of grids of givens (0 = blank: every value), any leading shape."""
    return np.take(_given_masks(n), givens)


@cache
def _given_masks(n: int) -> np.ndarray:
    """The candidate mask of each value a cell may be given: 0 (blank) is every value."""
    return np.array([(1 << n) - 1] + [1 << v for v in range(n)], dtype=np.uint64)


#: puzzles handled at once by the whole-batch methods: their scratch arrays stay small (a
#: fresh page of memory costs more to touch than the work done on it)
_CHUNK = 512


def _chunks(count: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive chunks of ``count`` rows."""
    for a in range(0, count, _CHUNK):
        yield a, min(count, a + _CHUNK)


def _givens(puzzles: Sequence[Puzzle], n: int) -> np.ndarray:
    """The puzzles' grids of givens (each n*n values, as parse makes them) as one array."""
    if isinstance(puzzles, PuzzleBatch):
        return puzzles.data
    flat = np.concatenate([p.data for p in puzzles])
    if flat.shape != (len(puzzles) * n * n,):
        return np.stack([p.data for p in puzzles])  # raises for a grid of the wrong shape
    return flat.reshape(len(puzzles), n * n)


#: the largest size decoded through a table of every mask (2**16 bytes)
_TABLE_SIZE = 16


@cache
def _single_values(n: int) -> np.ndarray:
    """Per candidate mask of an n-value cell: its value when it holds one, else 0."""
    table = np.zeros(1 << n, dtype=VALUE)
    for v in range(1, n + 1):
        table[1 << (v - 1)] = v
    return table


def _one_size(puzzles: Sequence[Puzzle]) -> int | None:
    """The size every puzzle has; None when they differ (or there are none)."""
    if isinstance(puzzles, PuzzleBatch):
        return puzzles.meta["n"] if len(puzzles) else None
    sizes = {p.meta["n"] for p in puzzles}
    return sizes.pop() if len(sizes) == 1 else None


def box_of_puzzle(puzzle: Puzzle) -> Box:
    """The puzzle's box shape (the size's default unless one was chosen)."""
    return puzzle.meta.get("box") or default_box(puzzle.meta["n"])


def _runs_by_size(puzzles: Sequence[Puzzle]) -> Iterator[tuple[int, int, int, Box]]:
    """(start, stop, n, box) for each run of consecutive puzzles of one size and box shape.
    One pass over the puzzles' shapes (a file's puzzles usually share one)."""
    if isinstance(puzzles, PuzzleBatch):
        if len(puzzles):
            n = puzzles.meta["n"]
            yield 0, len(puzzles), n, puzzles.meta.get("box") or default_box(n)
        return
    shapes = [(p.meta["n"], p.meta.get("box")) for p in puzzles]
    start = 0
    for i in range(1, len(shapes) + 1):
        if i == len(shapes) or shapes[i] != shapes[start]:
            n, box = shapes[start]
            yield start, i, n, box or default_box(n)
            start = i


def checked_box(puzzles: Sequence[Puzzle], box: str, size: Callable[[Puzzle], int]) -> Box:
    """``box`` (``"RxC"``) as a shape that tiles every puzzle's grid (``size(puzzle)`` its
    side); a one-line error naming the puzzle otherwise."""
    try:
        shape = parse_box(box)
    except ValueError as e:
        raise UnknownNameError(str(e)) from None
    for p in puzzles[:1] if isinstance(puzzles, PuzzleBatch) else puzzles:  # one size
        try:
            check_box(size(p), shape)
        except ValueError as e:
            raise PuzzleInputError(p.source, p.line, None, str(e)) from None
    return shape


def with_box(puzzles: Sequence[Puzzle], box: str) -> Sequence[Puzzle]:
    """The puzzles with boxes of shape ``box`` (``"RxC"``)."""
    shape = checked_box(puzzles, box, lambda p: p.meta["n"])
    if isinstance(puzzles, PuzzleBatch):
        return puzzles.with_meta(box=shape)
    for p in puzzles:
        p.meta["box"] = shape
    return list(puzzles)


#: what validate_many reports for a valid solution (one shared list, never changed)
_NO_PROBLEMS: list[str] = []


class Sudoku(PuzzleType):
    name = "sudoku"
    description = ("Sudoku n×n (4x4 to 64x64, square or rectangular boxes): rows, columns and "
                   "boxes hold every value once")
    formats = formats.FORMATS
    default_rules = DEFAULT_RULES

    def parse(self, text: str, source: str, fmt: str | None = None) -> Sequence[Puzzle]:
        if fmt in (None, "line"):
            simple = read_lines(text)
            if simple is not None:
                numbers, grids, meta = simple
                meta["box"] = default_box(meta["n"])
                return PuzzleBatch(self.name, source, numbers, grids, "line", meta)
        out = []
        for i, (line, grid, meta) in enumerate(formats.parse(text, source, fmt)):
            meta.setdefault("box", default_box(meta["n"]))  # (a drawn grid may show its own)
            out.append(Puzzle(self.name, source, line, i, grid, meta["format"], meta))
        return out

    def with_box(self, puzzles: Sequence[Puzzle], box: str) -> Sequence[Puzzle]:
        return with_box(puzzles, box)

    def check(self, puzzle: Puzzle) -> None:
        box = box_of_puzzle(puzzle)
        if not has_repeats(puzzle.data, puzzle.meta["n"], box):
            return
        n = puzzle.meta["n"]
        message, cell = next(unit_breaks(puzzle.data, n, complete=False, box=box,
                                         name_of=self._value_namer(puzzle)))
        raise PuzzleInputError(puzzle.source, row_line(puzzle, cell // n), None,
                               f"conflicting givens: {message}")

    def check_many(self, puzzles: Sequence[Puzzle]) -> None:
        for start, stop, n, box in _runs_by_size(puzzles):
            grids = _givens(puzzles[start:stop], n)
            for k in np.flatnonzero(repeats_many(grids, n, box)):
                self.check(puzzles[start + k])

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        n = puzzle.meta["n"]
        base = sudoku_model(n, tuple(rules or self.default_rules), _engine(n, rules),
                            box_of_puzzle(puzzle))
        return base.with_init(_initial_masks(puzzle.data, n))

    def model_runs(self, puzzles: Sequence[Puzzle], rules: tuple[str, ...] | None = None
                   ) -> Iterator[tuple[int, int, Model, np.ndarray]]:
        for start, stop, n, box in _runs_by_size(puzzles):
            base = sudoku_model(n, tuple(rules or self.default_rules), _engine(n, rules), box)
            inits = np.empty((stop - start, n * n), dtype=np.uint64)
            masks = _given_masks(n)
            for a, b in _chunks(stop - start):
                # values are 0..n (parse checks them), so "clip" changes none; the default
                # "raise" would fill a scratch copy of the output first
                np.take(masks, _givens(puzzles[start + a:start + b], n), out=inits[a:b],
                        mode="clip")
            yield start, stop, base, inits

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        masks = np.ascontiguousarray(masks, dtype=np.uint64)
        n = puzzle.meta["n"]
        if n <= _TABLE_SIZE:  # one lookup per cell: masks of n values are below 2**n
            return np.take(_single_values(n), masks.view(np.int64))
        out = np.empty(masks.shape, dtype=VALUE)
        flat, values = masks.reshape(-1), out.reshape(-1)
        step = _CHUNK * (masks.shape[-1] if masks.ndim else 1)
        for a in range(0, flat.size, step):
            m = flat[a:a + step]
            # a single value v is the mask 2**(v-1): one bit set, v - 1 bits below it
            np.multiply(np.bitwise_count(m - np.uint64(1)) + np.uint8(1),
                        np.bitwise_count(m) == 1, out=values[a:a + step])
        return out

    def decode_many(self, puzzles: Sequence[Puzzle], masks: np.ndarray) -> Sequence[np.ndarray]:
        # one array whose rows are the solutions: validate_many checks it without a copy
        return self.decode(puzzles[0], masks) if len(puzzles) else []

    def validate_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[np.ndarray]
                      ) -> list[list[str]]:
        """Whole-array checks for the batch; the one-puzzle validator words any problem."""
        out: list[list[str]] = [_NO_PROBLEMS] * len(puzzles)
        for start, stop, n, box in _runs_by_size(puzzles):
            sols = solutions[start:stop]
            try:
                grids = as_rows(sols)
            except ValueError:  # solutions of different shapes
                grids = None
            if grids is None or grids.shape != (stop - start, n * n):
                bad: Sequence[int] = range(stop - start)
            else:
                bad = []
                for a, b in _chunks(stop - start):
                    givens, some = _givens(puzzles[start + a:start + b], n), grids[a:b]
                    kept = ((givens == 0) | (some == givens)).all(axis=1)
                    bad.extend((a + np.flatnonzero(~(complete_many(some, n, box) & kept)))
                               .tolist())
            for k in bad:
                out[start + k] = self.validate(puzzles[start + k], sols[k])
        return out

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        n = puzzle.meta["n"]
        solution = as_cells(solution, n)
        if solution.shape != (n * n,):
            return [f"expected {n * n} cells, got {shape_words(solution)}"]
        box = box_of_puzzle(puzzle)
        givens = puzzle.data > 0
        kept = (solution[givens] == puzzle.data[givens]).all()
        if complete_many(solution[None], n, box)[0] and kept:
            return []  # the common case, checked with whole-array operations
        outside = out_of_range(solution, n)
        if outside is not None:
            return [outside]
        problems = []
        lost = np.flatnonzero(givens & (solution != puzzle.data))
        name = self._value_namer(puzzle)
        for c in lost[:3]:
            problems.append(f"given r{c // n + 1}c{c % n + 1}={name(puzzle.data[c])} was "
                            f"changed to {name(solution[c])}")
        return problems + unit_problems(solution, n, complete=True, box=box, name_of=name)

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        return formats.format_line(puzzle.data if solution is None else solution, puzzle.meta)

    def format_line_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[np.ndarray]
                         ) -> Sequence[str]:
        meta = None  # one alphabet for all, written at once
        if isinstance(puzzles, PuzzleBatch):
            meta = puzzles.meta
        elif puzzles and all(p.meta.get("alphabet") == puzzles[0].meta.get("alphabet")
                             for p in puzzles):
            meta = puzzles[0].meta
        lines = None if meta is None else write_lines(solutions, meta)
        return lines if lines is not None else super().format_line_many(puzzles, solutions)

    def format_grid(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        return formats.format_grid(puzzle.data if solution is None else solution,
                                   puzzle.meta["n"], box_of_puzzle(puzzle),
                                   formats.own_symbols(puzzle.meta))

    def to_svg(self, puzzle: Puzzle, solution: np.ndarray | None, step=None, *,
               candidates=None, placed=None) -> str:
        from .pictures import sudoku_svg

        return sudoku_svg(puzzle, solution, step, candidates, placed)

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        n = puzzle.meta["n"]
        return solution.reshape(n, n).tolist()

    def to_json_text_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[np.ndarray]
                          ) -> list[str]:
        n = _one_size(puzzles)
        if n is not None:
            text = json_grids(solutions, n)
            if text is not None:
                return text
        return super().to_json_text_many(puzzles, solutions)

    def render(self, puzzle: Puzzle, solution: np.ndarray | None):
        from .render import render_grid

        return render_grid(puzzle.data, solution, puzzle.meta["n"], box_of_puzzle(puzzle),
                           formats.own_symbols(puzzle.meta))

    def is_complete(self, puzzle: Puzzle) -> bool:
        return bool((puzzle.data > 0).all())

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        return puzzle.data.copy()

    tactics = (*PuzzleType.tactics, "xy-wing")

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        n = puzzle.meta["n"]
        return f"r{cell // n + 1}c{cell % n + 1}"

    def _value_namer(self, puzzle: Puzzle) -> Callable[[int], str]:
        """Values as the puzzle writes them; a value out of range as its number."""
        n = puzzle.meta["n"]
        return lambda v: self.value_name(puzzle, int(v)) if 1 <= v <= n else str(int(v))

    def value_name(self, puzzle: Puzzle, value: int) -> str:
        # the symbol the puzzle is written in (16x16: C for 12); numbers as numbers
        alphabet = puzzle.meta.get("alphabet")
        if alphabet is not None:
            return alphabet.symbols[value - 1]
        return str(value)

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        # groups are added as rows, then columns, then boxes (see sudoku_model)
        n = puzzle.meta["n"]
        kind, i = divmod(group, n)
        return f"{('row', 'column', 'box')[kind]} {i + 1}"

    def step_finders(self) -> dict:
        from .steps import xy_wing

        return {"xy-wing": xy_wing}

    def check_generate(self, options):
        from .generate import generate_box

        generate_box(options)  # the size and box shape, checked

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(options, rng, ctrl)
