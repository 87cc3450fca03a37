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
from .grid import unit_problems, units

DEFAULT_RULES = ("elimination", "hidden-single")


@lru_cache(maxsize=32)
def sudoku_model(n: int, rules: tuple[str, ...]) -> Model:
    """The structure of an n×n Sudoku (rows, columns, boxes must each hold 1..n)."""
    b = ModelBuilder(n * n, n)
    values = range(1, n + 1)
    for group in units(n):
        for cells in group:
            b.add_group(cells, required=values)
    return b.build(rules, key=f"sudoku-{n}-{'/'.join(rules)}", meta={"n": n})


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
        out = np.zeros(masks.shape[0], dtype=np.int64)
        for i, m in enumerate(masks):
            m = int(m)
            out[i] = m.bit_length() if m and m & (m - 1) == 0 else 0
        return out

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        n = puzzle.meta["n"]
        problems = []
        if solution.shape != (n * n,):
            return [f"expected {n * n} cells, got {solution.shape}"]
        if (solution < 1).any() or (solution > n).any():
            problems.append(f"cells must hold values 1..{n}")
        givens = puzzle.data > 0
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

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(options, rng, ctrl)


@hookimpl
def csolve_register_puzzles(register):
    register(Sudoku())
