"""Generating Sudoku: random solved grids of any size and box shape, then clue removal.

A solved grid comes from a randomized search (a random first row and n random cells,
completed by the solver), shuffled by a random validity-preserving transformation; the
puzzle-agnostic clue removal of :mod:`csolve.generate` then takes clues away in symmetric
groups while the solution stays unique.
"""

from __future__ import annotations

import numpy as np

from csolve.generate import (
    GenerateOptions,
    GenerationError,
    random_solution,
    reduce_clues,
    symmetry_groups,
)
from csolve.puzzle import Puzzle

from . import formats
from .grid import SIZES, Box, check_box, parse_box
from .transform import random_transform

GENERATE_RULES = ("elimination", "hidden-single")
#: from 16x16 up, locked candidates pay for themselves in the uniqueness tests (measured:
#: a 25x25 down to 300 clues in 9 s instead of 31 s)
GENERATE_RULES_LARGE = ("elimination", "hidden-single", "locked-candidates")


def default_rules(n: int) -> tuple[str, ...]:
    return GENERATE_RULES_LARGE if n >= 16 else GENERATE_RULES


def masks_of(grid: np.ndarray) -> np.ndarray:
    """uint64 singles for a grid of values 1..n (0 = no value: empty mask)."""
    out = np.zeros(grid.shape[0], dtype=np.uint64)
    filled = grid > 0
    out[filled] = np.left_shift(np.uint64(1), (grid[filled] - 1).astype(np.uint64))
    return out


def values_of(masks: np.ndarray) -> np.ndarray:
    """Values 1..n of a solved state of singles."""
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i, m in enumerate(masks):
        out[i] = int(m).bit_length()
    return out


def solved_grid(n: int, rng: np.random.Generator, rules: tuple[str, ...] | None = None,
                ctrl: np.ndarray | None = None, box: Box | None = None) -> np.ndarray:
    """A random solved n×n grid (flat, values 1..n) from a randomized search."""
    from .plugin import sudoku_model

    box = check_box(n, box)
    model = sudoku_model(n, tuple(rules or default_rules(n)), "", box)
    fixed = model.init.copy()
    fixed[:n] = masks_of(rng.permutation(n) + 1)  # any first row can be completed
    sol = random_solution(model, rng, fixed=fixed, extra=n, ctrl=ctrl,
                          max_nodes=20_000 + 50 * n * n)
    grid = values_of(sol).reshape(n, n)
    return random_transform(grid, rng, box).reshape(-1)


def generate_box(options: GenerateOptions) -> Box:
    """The box shape asked for (``options.box``, default: the size's own), checked."""
    n = options.size
    if n not in SIZES:
        raise GenerationError(f"Sudoku size must be one of {', '.join(map(str, SIZES))}, "
                              f"got {n}")
    try:
        return check_box(n, parse_box(options.box) if options.box else None)
    except ValueError as e:
        raise GenerationError(str(e)) from None


def generate(options: GenerateOptions, rng: np.random.Generator,
             ctrl: np.ndarray | None = None) -> tuple[Puzzle, np.ndarray]:
    """A puzzle with exactly one solution, and that solution."""
    from .plugin import _engine, sudoku_model

    n = options.size
    box = generate_box(options)
    rules = tuple(options.rules or default_rules(n))
    grid = solved_grid(n, rng, rules, ctrl, box)
    model = sudoku_model(n, rules, _engine(n, options.rules), box)  # uniqueness checks
    groups = symmetry_groups(n, n, options.symmetry)
    order = [groups[i] for i in rng.permutation(len(groups))]
    clue = reduce_clues(model, masks_of(grid), order, options.clues, ctrl=ctrl)
    givens = np.where(clue, grid, 0)
    meta = {"n": n, "format": "line" if n <= len(formats.DIGITS_FIRST) else "numbers",
            "alphabet": formats.default_alphabet(n), "box": box}
    return Puzzle("sudoku", "<generated>", 0, 0, givens, meta["format"], meta), grid
