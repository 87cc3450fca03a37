"""The Kakuro plugin's PuzzleType (registered, with its sum rule, by hooks.py).

The model: one cell per white square (values 1..9) and one all-different group per run,
tagged ``KAKURO_SUM`` with the run's sum as ``param``; the ``kakuro-sum`` rule (rules.py)
reads those tags and its digit-set tables from the model's free arrays. Nothing here is
known to the core.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

import numpy as np

from csolve.errors import PuzzleInputError, counted
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType, shape_words
from csolve.rowgrid import first_repeat, in_format, row_line

from . import grid as kgrid
from .grid import WHITE, KakuroGrid

DEFAULT_RULES = ("elimination", "kakuro-sum")


@lru_cache(maxsize=64)
def _model(structure: tuple, rules: tuple[str, ...]) -> Model:
    from .rules import KAKURO_SUM, combo_tables

    _rows, _cols, runs, whites = structure
    index = {rc: i for i, rc in enumerate(whites)}
    b = ModelBuilder(len(whites), 9)
    for total, cells in runs:
        b.add_group([index[rc] for rc in cells], required=None, tag=KAKURO_SUM, param=total)
    b.aux_i64, b.aux_u64 = combo_tables()
    key = hashlib.sha1(repr((structure, rules)).encode()).hexdigest()
    return b.build(rules, key=f"kakuro-{key}")


def _digits(g: KakuroGrid, solution: np.ndarray, cells) -> list[int]:
    return [int(solution[r, c]) for r, c in cells]


def _run_name(run) -> str:
    """A run as messages and explanations name it: its first and last cells."""
    (r0, c0), (r1, c1) = run.cells[0], run.cells[-1]
    end = f"-r{r1 + 1}c{c1 + 1}" if len(run.cells) > 1 else ""
    return f"run r{r0 + 1}c{c0 + 1}{end}"


def _repeat(run, values: np.ndarray, cells: Sequence[tuple[int, int]]
            ) -> tuple[str, tuple[int, int]] | None:
    """The first digit that ``cells`` of ``run`` hold twice, in words with both cells, and
    the later cell; None when none repeats."""
    found = first_repeat((int(values[r, c]), (r, c)) for r, c in cells)
    if found is None:
        return None
    d, (r0, c0), (r, c) = found
    return (f"value {d} twice in {_run_name(run)} (r{r0 + 1}c{c0 + 1} and r{r + 1}c{c + 1})",
            (r, c))


class Kakuro(PuzzleType):
    name = "kakuro"
    description = "Kakuro: runs of white cells hold distinct digits 1-9 adding up to their clue"
    formats = ("text", "json")
    comment = ";"  # "#" is no comment here
    default_rules = DEFAULT_RULES
    constraint_rules = ("kakuro-sum",)

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        return [Puzzle(self.name, source, line, i, g, meta["format"], meta)
                for i, (line, g, meta) in enumerate(
                    in_format(kgrid.parse(text, source), fmt, source))]

    def check(self, puzzle: Puzzle) -> None:
        from .rules import combo_tables

        g: KakuroGrid = puzzle.data
        offsets, masks = combo_tables()
        for run in g.runs:
            n = len(run.cells)
            idx = n * (kgrid.MAX_SUM + 1) + run.total
            line = row_line(puzzle, run.clue[0])
            if n > 9 or offsets[idx] == offsets[idx + 1]:
                raise PuzzleInputError(
                    puzzle.source, line, None,
                    f"clue {run.total} at r{run.clue[0] + 1}c{run.clue[1] + 1} cannot be made "
                    f"from {counted(n, 'distinct digit')}")
            placed = [(int(g.values[r, c]), (r, c)) for r, c in run.cells if g.values[r, c]]
            repeat = _repeat(run, g.values, [cell for _, cell in placed])
            if repeat is not None:  # said at the later cell's row
                raise PuzzleInputError(puzzle.source, row_line(puzzle, repeat[1][0]), None,
                                       f"conflicting givens: {repeat[0]}")
            given = [d for d, _ in placed]
            held = sum(1 << (d - 1) for d in given)
            if given and not any(int(m) & held == held
                                 for m in masks[offsets[idx]:offsets[idx + 1]]):
                raise PuzzleInputError(  # as Killer says it of a cage, at its last given
                    puzzle.source, row_line(puzzle, placed[-1][1][0]), None,
                    f"conflicting givens: {_run_name(run)} (sum {run.total} in {n}) cannot "
                    f"hold {', '.join(map(str, sorted(given)))}")

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        g: KakuroGrid = puzzle.data
        base = _model(g.structure(), tuple(rules or self.default_rules))
        init = np.full(len(g.whites), 0x1FF, dtype=np.uint64)
        for i, (r, c) in enumerate(g.whites):
            if g.values[r, c]:
                init[i] = np.uint64(1 << (int(g.values[r, c]) - 1))
        return base.with_init(init)

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        g: KakuroGrid = puzzle.data
        out = np.zeros((g.rows, g.cols), dtype=np.int64)
        for i, (r, c) in enumerate(g.whites):
            m = int(masks[i])
            out[r, c] = m.bit_length() if m and m & (m - 1) == 0 else 0
        return out

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        g: KakuroGrid = puzzle.data
        if solution.shape != (g.rows, g.cols):
            return [f"expected a {g.rows}x{g.cols} grid, got {shape_words(solution)}"]
        problems = []
        for r, c in np.argwhere((g.kind != WHITE) & (solution != 0)).tolist():  # off the grid
            problems.append(f"black cell r{r + 1}c{c + 1} must hold nothing, "
                            f"not {int(solution[r, c])}")
        for r, c in g.whites:
            v = int(solution[r, c])
            if not 1 <= v <= 9:
                problems.append(f"white cell r{r + 1}c{c + 1} holds {v}, not a digit 1-9")
            elif g.values[r, c] and v != g.values[r, c]:
                problems.append(f"given r{r + 1}c{c + 1}={g.values[r, c]} was changed to {v}")
        for run in g.runs:
            ds = _digits(g, solution, run.cells)
            repeat = _repeat(run, solution, run.cells)
            if repeat is not None:
                problems.append(repeat[0])
            if sum(ds) != run.total:  # (named as the repeat and the givens' checks name it)
                problems.append(f"{_run_name(run)} adds up to {sum(ds)}, not {run.total}")
        return problems

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: KakuroGrid = puzzle.data
        return kgrid.format_line(g, g.values if solution is None else solution)

    def format_grid(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: KakuroGrid = puzzle.data
        return kgrid.format_grid(g, g.values if solution is None else solution)

    def to_svg(self, puzzle: Puzzle, solution: np.ndarray | None, step=None, *,
               candidates=None, placed=None) -> str:
        from .pictures import kakuro_svg

        return kakuro_svg(puzzle, solution, step, candidates, placed)

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        return solution.tolist()

    def render(self, puzzle: Puzzle, solution: np.ndarray | None):
        from .render import render_grid

        return render_grid(puzzle.data, solution)

    def is_complete(self, puzzle: Puzzle) -> bool:
        g: KakuroGrid = puzzle.data
        return all(g.values[r, c] for r, c in g.whites)

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        g: KakuroGrid = puzzle.data
        return np.where(g.kind == WHITE, g.values, 0)

    # --- explanations and grading (docs/tactics.md) ---------------------------------------
    #: all-different tactics that work on runs (no run must hold given values, so hidden
    #: subsets and fish never apply), with the sum rule second
    tactics = ("elimination", "kakuro-sum", "naked-pair", "naked-triple", "naked-quad")
    #: the sum rule's own steps are easy or medium (steps.py); subsets in a run are harder
    tactic_levels: ClassVar[dict[str, str]] = {
        "kakuro-sum": "medium", "naked-pair": "hard", "naked-triple": "expert",
        "naked-quad": "expert"}

    def cell_values(self, puzzle: Puzzle, solution: np.ndarray) -> list[int]:
        return [int(solution[rc]) for rc in puzzle.data.whites]

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        r, c = puzzle.data.whites[cell]
        return f"r{r + 1}c{c + 1}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        return _run_name(puzzle.data.runs[group])  # one group per run, in order (_model)

    def step_finders(self) -> dict:
        from .steps import kakuro_sum

        return {"kakuro-sum": kakuro_sum}

    def check_generate(self, options):
        from .generate import check_options

        check_options(options)

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(options, rng, ctrl)

    def clue_count(self, puzzle: Puzzle) -> int:
        """Given digits (the sums are the layout's own clues)."""
        g: KakuroGrid = puzzle.data
        return sum(1 for rc in g.whites if g.values[rc])
