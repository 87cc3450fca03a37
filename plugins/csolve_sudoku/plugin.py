"""The Sudoku plugin's hooks and its PuzzleType.

Loaded through the ``csolve`` entry point ``sudoku``, exactly as a third-party plugin is.
Heavy imports stay inside methods so ``csolve --help`` does not pay for them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from csolve.errors import PuzzleInputError
from csolve.hookspecs import hookimpl
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType

from . import formats
from .grid import has_repeats, unit_arrays, unit_problems, units

DEFAULT_RULES = ("elimination", "hidden-single")


@lru_cache(maxsize=32)
def sudoku_model(n: int, rules: tuple[str, ...]) -> Model:
    """The structure of an n×n Sudoku (rows, columns, boxes must each hold 1..n)."""
    b = ModelBuilder(n * n, n)
    values = range(1, n + 1)
    # rows are family 1 and columns family 2 (parallel groups, for fish); boxes have none
    for family, group in zip((1, 2, 0), units(n), strict=True):
        for cells in group:
            b.add_group(cells, required=values, family=family)
    return b.build(rules, key=f"sudoku-{n}-{'/'.join(rules)}", meta={"n": n})


def _units_complete(grid: np.ndarray, n: int) -> bool:
    """Every row, column and box holds 1..n exactly once."""
    want = np.arange(1, n + 1)
    return all((np.sort(u, axis=1) == want).all() for u in unit_arrays(grid, n))


class Sudoku(PuzzleType):
    name = "sudoku"
    description = "Sudoku n×n (4x4 to 64x64): rows, columns and boxes hold every value once"
    formats = formats.FORMATS
    default_rules = DEFAULT_RULES

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        return [
            Puzzle(self.name, source, line, i, grid, meta["format"], meta)
            for i, (line, grid, meta) in enumerate(formats.parse(text, source, fmt))
        ]

    def check(self, puzzle: Puzzle) -> None:
        if not has_repeats(puzzle.data, puzzle.meta["n"]):
            return
        problems = unit_problems(puzzle.data, puzzle.meta["n"], complete=False)
        if problems:
            raise PuzzleInputError(puzzle.source, puzzle.line, None,
                                   f"conflicting givens: {problems[0]}")

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        n = puzzle.meta["n"]
        base = sudoku_model(n, tuple(rules or self.default_rules))
        init = np.full(n * n, (1 << n) - 1, dtype=np.uint64)
        givens = puzzle.data > 0
        init[givens] = np.left_shift(np.uint64(1), (puzzle.data[givens] - 1).astype(np.uint64))
        return base.with_init(init)

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=np.uint64)
        single = (masks != 0) & ((masks & (masks - np.uint64(1))) == 0)
        # log2 of a power of two is exact in float64 for every bit of a uint64
        values = np.log2(np.where(single, masks, 1).astype(np.float64)).astype(np.int64) + 1
        return np.where(single, values, 0)

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        n = puzzle.meta["n"]
        if solution.shape != (n * n,):
            return [f"expected {n * n} cells, got {solution.shape}"]
        givens = puzzle.data > 0
        if _units_complete(solution, n) and (solution[givens] == puzzle.data[givens]).all():
            return []  # the common case, checked with whole-array operations
        problems = []
        if (solution < 1).any() or (solution > n).any():
            problems.append(f"cells must hold values 1..{n}")
        lost = np.flatnonzero(givens & (solution != puzzle.data))
        for c in lost[:3]:
            problems.append(f"given r{c // n + 1}c{c % n + 1}={puzzle.data[c]} was changed "
                            f"to {solution[c]}")
        return problems + unit_problems(solution, n, complete=True)

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        return formats.format_line(puzzle.data if solution is None else solution, puzzle.meta)

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        n = puzzle.meta["n"]
        return solution.reshape(n, n).tolist()

    def render(self, puzzle: Puzzle, solution: np.ndarray | None):
        from .render import render_grid

        return render_grid(puzzle.data, solution, puzzle.meta["n"])

    def is_complete(self, puzzle: Puzzle) -> bool:
        return bool((puzzle.data > 0).all())

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        return puzzle.data.copy()

    tactics = (*PuzzleType.tactics, "xy-wing")

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        n = puzzle.meta["n"]
        return f"r{cell // n + 1}c{cell % n + 1}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        # groups are added as rows, then columns, then boxes (see sudoku_model)
        n = puzzle.meta["n"]
        kind, i = divmod(group, n)
        return f"{('row', 'column', 'box')[kind]} {i + 1}"

    def step_finders(self) -> dict:
        from .steps import xy_wing

        return {"xy-wing": xy_wing}

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(options, rng, ctrl)


@hookimpl
def csolve_register_puzzles(register):
    register(Sudoku())


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("xy-wing", "csolve_sudoku.kernels:xy_wing",
                  "pivot {a,b} sees pincers {a,c}, {b,c}: c leaves cells seeing both pincers"))
