"""The Killer Sudoku PuzzleType (registered by hooks.py).

The model is a Sudoku's (rows, columns and boxes of ``csolve_sudoku``, rectangular boxes
included) plus one all-different group per cage carrying Kakuro's sum tag with the cage's
sum as ``param``. Kakuro's ``kakuro-sum`` rule, found by name in the rule registry, reads
those tags and its digit-set tables from the model's free arrays: the same kernel proves
Kakuro runs and Killer cages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from itertools import combinations
from typing import ClassVar

import numpy as np
from csolve_sudoku.grid import (
    as_cells,
    complete_many,
    default_box,
    has_repeats,
    out_of_range,
    unit_breaks,
    unit_problems,
)
from csolve_sudoku.plugin import add_units, checked_box

from csolve.errors import OptionError, PuzzleInputError, counted
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType, shape_words
from csolve.rowgrid import first_repeat, row_line

from . import cages
from .cages import KillerGrid

#: the rule that carries the cages' sums (Kakuro's, by name)
SUM_RULE = "kakuro-sum"
DEFAULT_RULES = ("elimination", "hidden-single", SUM_RULE)


def with_constraint_rules(rules: tuple[str, ...], constraint_rules: tuple[str, ...]
                          ) -> tuple[str, ...]:
    """``rules`` with the puzzle's own constraint rules added where missing: a cage's sum is
    part of the puzzle, whatever propagation rules were chosen."""
    return rules + tuple(r for r in constraint_rules if r not in rules)


@lru_cache(maxsize=256)
def killer_model(structure: tuple, rules: tuple[str, ...]) -> Model:
    """The structure of a Killer puzzle: Sudoku units, then one group per cage."""
    from csolve_kakuro.rules import KAKURO_SUM, combo_tables

    n, box, cage_cells, sums = structure
    b = ModelBuilder(n * n, n)
    add_units(b, n, box)
    for cells, total in zip(cage_cells, sums, strict=True):
        b.add_group(cells, alldiff=True, tag=KAKURO_SUM, param=total)
    b.aux_i64, b.aux_u64 = combo_tables()
    key = hashlib.sha1(repr((structure, rules)).encode()).hexdigest()
    return b.build(rules, key=f"killer-{n}-{key}", meta={"n": n, "box": box})


@cache
def cage_sets(n: int, length: int, total: int) -> tuple[frozenset[int], ...]:
    """The sets of ``length`` distinct digits 1..n adding up to ``total``."""
    return tuple(frozenset(c) for c in combinations(range(1, n + 1), length)
                 if sum(c) == total)


def initial_masks(g: KillerGrid) -> np.ndarray:
    shift = np.where(g.givens > 0, g.givens - 1, 0).astype(np.uint64)
    return np.where(g.givens > 0, np.left_shift(np.uint64(1), shift),
                    np.uint64((1 << g.n) - 1)).astype(np.uint64)


@contextmanager
def _said_of(puzzle: Puzzle) -> Iterator[None]:
    """A puzzle that has no text form says which puzzle it is."""
    try:
        yield
    except OptionError as e:
        raise OptionError(f"{puzzle.where}: {e}") from None


def _repeat(g: KillerGrid, k: int, values: np.ndarray, cells: Sequence[int]
            ) -> tuple[str, int] | None:
    """The first value that ``cells`` of cage ``k`` hold twice, in words with both cells,
    and the later cell; None when none repeats."""
    found = first_repeat((int(values[c]), c) for c in cells)
    if found is None:
        return None
    v, a, c = found
    return (f"value {v} twice in {g.cage_name(k)} (r{a // g.n + 1}c{a % g.n + 1} and "
            f"r{c // g.n + 1}c{c % g.n + 1})", c)


class Killer(PuzzleType):
    name = "killer"
    description = ("Killer Sudoku (4x4, 6x6, 8x8, 9x9): Sudoku rules, and each cage's digits "
                   "differ and add up to its sum")
    formats = ("text", "json")
    default_rules = DEFAULT_RULES
    #: the puzzle's own constraints beyond all-different: kept whatever rules are chosen
    constraint_rules = (SUM_RULE,)
    #: explain and rate: Sudoku's tactics with the cages' sums right after the singles (the
    #: sum rule's step finder is Kakuro's: a cage is a run that need not be in a line)
    tactics = (*PuzzleType.tactics[:2], SUM_RULE, *PuzzleType.tactics[2:])
    tactic_levels: ClassVar[dict[str, str]] = {SUM_RULE: "medium"}

    def step_finders(self) -> dict:
        from csolve_kakuro.steps import kakuro_sum

        return {SUM_RULE: kakuro_sum}

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        out = []
        for i, (line, g, meta) in enumerate(cages.parse(text, source)):
            found = meta.pop("format")
            if fmt is not None and fmt != found:
                raise PuzzleInputError(source, line, None,
                                       f"a puzzle in the {found} format, not {fmt}")
            out.append(Puzzle(self.name, source, line, i, g, found, {"n": g.n, **meta}))
        return out

    def with_box(self, puzzles: Sequence[Puzzle], box: str) -> list[Puzzle]:
        shape = checked_box(puzzles, box, lambda p: p.data.n)
        for p in puzzles:
            own = p.data.box
            if own != shape and own != default_box(p.data.n):  # the puzzle's box= says so
                raise PuzzleInputError(p.source, p.line, None,
                                       f"the puzzle says box={own[0]}x{own[1]}, but --box asks for "
                                       f"{shape[0]}x{shape[1]}")
            p.data.box = shape
        return list(puzzles)

    def check(self, puzzle: Puzzle) -> None:
        g: KillerGrid = puzzle.data

        def bad(msg: str, cell: int | None = None) -> None:
            """The error, at the line of ``cell``'s row where one is named."""
            line = puzzle.line if cell is None else row_line(puzzle, cell // g.n)
            raise PuzzleInputError(puzzle.source, line, None, msg)

        if has_repeats(g.givens, g.n, g.box):
            message, cell = next(unit_breaks(g.givens, g.n, False, g.box))
            bad(f"conflicting givens: {message}", cell)
        for k, cells in enumerate(g.cages):
            sets = cage_sets(g.n, len(cells), g.sums[k])
            if not sets:
                bad(f"{g.cage_name(k)}: its sum {g.sums[k]} cannot be made from "
                    f"{counted(len(cells), 'distinct digit')} 1..{g.n}")
            placed = [c for c in cells if g.givens[c]]
            repeat = _repeat(g, k, g.givens, placed)
            if repeat is not None:  # said at the later cell's row
                bad(f"conflicting givens: {repeat[0]}", repeat[1])
            given = [int(g.givens[c]) for c in placed]
            if not any(s.issuperset(given) for s in sets):  # at the row of its last given
                bad(f"conflicting givens: {g.cage_name(k)} (sum {g.sums[k]}) cannot hold "
                    f"{', '.join(map(str, sorted(given)))}", placed[-1])

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        g: KillerGrid = puzzle.data
        chosen = with_constraint_rules(tuple(rules or self.default_rules),
                                       self.constraint_rules)
        return killer_model(g.structure(), chosen).with_init(initial_masks(g))

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=np.uint64)
        single = (masks != 0) & ((masks & (masks - np.uint64(1))) == 0)
        values = np.log2(np.where(single, masks, 1).astype(np.float64)).astype(np.int64) + 1
        return np.where(single, values, 0)

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        g: KillerGrid = puzzle.data
        n = g.n
        solution = as_cells(solution, n)
        if np.shape(solution) != (n * n,):
            return [f"expected {n * n} cells, got {shape_words(solution)}"]
        outside = out_of_range(solution, n)
        if outside is not None:
            return [outside]
        problems = []
        for c in np.flatnonzero((g.givens > 0) & (solution != g.givens))[:3]:
            problems.append(f"given r{c // n + 1}c{c % n + 1}={g.givens[c]} was changed "
                            f"to {solution[c]}")
        if not complete_many(solution[None], n, g.box)[0]:
            problems += unit_problems(solution, n, True, g.box)
        for k, cells in enumerate(g.cages):
            ds = [int(solution[c]) for c in cells]
            repeat = _repeat(g, k, solution, cells)
            if repeat is not None:
                problems.append(repeat[0])
            if sum(ds) != g.sums[k]:
                problems.append(f"{g.cage_name(k)} adds up to {sum(ds)}, not {g.sums[k]}")
        return problems

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: KillerGrid = puzzle.data
        if puzzle.fmt == "json":
            return cages.format_json(g, solution)
        with _said_of(puzzle):
            return cages.format_text(g, solution)

    def format_grid(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        """The block form (docs/killer.md), a solution written as its givens."""
        with _said_of(puzzle):
            return cages.format_block(puzzle.data, solution)

    def to_svg(self, puzzle: Puzzle, solution: np.ndarray | None, step=None, *,
               candidates=None, placed=None) -> str:
        from .pictures import killer_svg

        return killer_svg(puzzle, solution, step, candidates, placed)

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        n = puzzle.data.n
        return np.asarray(solution).reshape(n, n).tolist()

    def render(self, puzzle: Puzzle, solution: np.ndarray | None):
        from .render import render_grid

        return render_grid(puzzle.data, solution)

    def is_complete(self, puzzle: Puzzle) -> bool:
        g: KillerGrid = puzzle.data
        return bool((g.givens > 0).all()) or g.solution is not None

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        """The filled grid, or the solution a JSON line came with."""
        g: KillerGrid = puzzle.data
        return g.givens.copy() if (g.givens > 0).all() or g.solution is None \
            else g.solution.copy()

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        n = puzzle.data.n
        return f"r{cell // n + 1}c{cell % n + 1}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        # rows, columns and boxes (add_units), then the cages in order
        g: KillerGrid = puzzle.data
        kind, i = divmod(group, g.n)
        if kind < 3:
            return f"{('row', 'column', 'box')[kind]} {i + 1}"
        return g.cage_name(group - 3 * g.n)

    def clue_count(self, puzzle: Puzzle) -> int:
        """Given digits (the cages and their sums are the layout's own clues)."""
        return int(np.count_nonzero(puzzle.data.givens))

    def check_generate(self, options):
        from .generate import check_options

        check_options(options)

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(self, options, rng, ctrl)
