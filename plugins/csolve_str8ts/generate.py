"""Generating Str8ts: random black cells, a random solution, black clue digits, clue removal.

1. Black cells: each orbit of ``--symmetry`` turns black at random.
2. A solution: the generic random solution of that layout's model (rows and columns all
   different, compartments straight), mirrored (v -> n+1-v keeps straights) half the time;
   a layout with no solution within a small search budget is drawn again.
3. Black clue digits: about half the black cells get a digit that neither their row nor
   their column holds, as the published puzzles have.
4. Clue removal: the generic removal starts from every white cell given and takes digits
   away (in symmetric groups) while the solution stays unique.
"""

from __future__ import annotations

import numpy as np

from csolve.generate import (
    GenerateOptions,
    GenerationError,
    masks_of_values,
    random_pattern,
    random_solution,
    reduce_clues,
    removal_groups,
    values_of_masks,
)
from csolve.puzzle import Puzzle

from .grid import BLACK, SIZES, WHITE, Str8tsGrid

DENSITY = 0.2  # share of cells drawn black
LAYOUT_TRIES = 100


def _puzzle(g: Str8tsGrid) -> Puzzle:
    return Puzzle("str8ts", "<generated>", 0, 0, g, "text", {"format": "text"})


def _solved_layout(n: int, rng: np.random.Generator, options: GenerateOptions, ctrl
                   ) -> tuple[Str8tsGrid, np.ndarray]:
    """A random layout and a random solution of it (n×n values, 0 on black cells)."""
    from .plugin import Str8ts

    ptype = Str8ts()
    for _ in range(LAYOUT_TRIES):
        kind = random_pattern(n, n, rng, DENSITY, options.symmetry).astype(np.int8)
        if (kind == WHITE).sum() < n * n // 2:
            continue
        g = Str8tsGrid(n, kind, np.zeros((n, n), dtype=np.int64))
        model = ptype.model(_puzzle(g), options.rules)
        try:
            sol = random_solution(model, rng, extra=n, tries=4, max_nodes=5_000, ctrl=ctrl)
        except GenerationError:
            continue
        grid = np.zeros((n, n), dtype=np.int64)
        for (r, c), v in zip(g.cells(), values_of_masks(sol), strict=True):
            grid[r, c] = v
        if rng.random() < 0.5:
            grid = np.where(kind == WHITE, n + 1 - grid, 0)
        return g, grid
    raise GenerationError(f"no {n}x{n} Str8ts layout with a solution in {LAYOUT_TRIES} draws")


def _black_digits(g: Str8tsGrid, grid: np.ndarray, rng: np.random.Generator) -> None:
    """Give about half the black cells a digit their row and column lack (in place)."""
    n = g.n
    for r, c in zip(*np.nonzero(g.kind == BLACK), strict=True):
        if rng.random() < 0.5:
            continue
        used = set(grid[r, :].tolist()) | set(grid[:, c].tolist())
        used |= set(g.values[r, :].tolist()) | set(g.values[:, c].tolist())
        free = [v for v in range(1, n + 1) if v not in used]
        if free:
            g.values[r, c] = free[int(rng.integers(len(free)))]


def check_options(options: GenerateOptions) -> None:
    """Refuse a size Str8ts has no puzzles of, before any work."""
    n = options.size
    if n not in SIZES:
        raise GenerationError(f"Str8ts size must be {SIZES.start}..{SIZES.stop - 1}, got {n}")


def generate(options: GenerateOptions, rng: np.random.Generator, ctrl=None
             ) -> tuple[Puzzle, np.ndarray]:
    """A Str8ts with exactly one solution, and that solution (see the module's docstring)."""
    from .plugin import Str8ts

    check_options(options)
    n = options.size
    g, grid = _solved_layout(n, rng, options, ctrl)
    _black_digits(g, grid, rng)
    solution = np.where(g.kind == WHITE, grid, g.values)
    puzzle = _puzzle(g)
    model = Str8ts().model(puzzle, options.rules)
    cells = g.cells()
    cell_of = {r * n + c: i for i, (r, c) in enumerate(cells) if g.kind[r, c] == WHITE}
    groups = removal_groups(n, n, options.symmetry, cell_of, rng)
    clue = reduce_clues(model, masks_of_values([solution[rc] for rc in cells]), groups,
                        options.clues, ctrl=ctrl)
    for i, rc in enumerate(cells):
        if clue[i] and g.kind[rc] == WHITE:
            g.values[rc] = solution[rc]
    return _puzzle(g), solution
