"""Generating Kakuro: a random layout, a random filling, its sums as clues, then uniqueness.

1. A layout: the first row and column are black; inner cells turn black at random (in the
   orbits of ``--symmetry``), then every white cell alone in its row or column run turns
   black, and runs longer than nine get a black cell, until every run has 2..9 cells; a
   layout whose white cells are too few or not connected is drawn again.
2. A filling: distinct digits in every run, found by the generic random solution over the
   runs as all-different groups (no sums yet), with the digits relabelled at random.
3. The clues: each run's sum. Sums alone rarely leave one solution, so the generic clue
   removal starts from every white cell given and takes digits away while the solution
   stays unique; what remains are the given digits the puzzle needs (often none). Of a few
   fillings, the one needing fewest given digits is kept.
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
from csolve.model import ModelBuilder
from csolve.puzzle import Puzzle

from . import grid as kgrid
from .grid import KakuroGrid

SIZES = range(4, 32)
DENSITY = 0.22  # share of inner cells drawn black before the runs are repaired
FILLINGS = 4  # fillings tried per puzzle; the one needing fewest given digits wins
LAYOUT_TRIES = 200


def _runs_of(white: np.ndarray) -> list[list[tuple[int, int]]]:
    """Maximal runs of white cells in rows and columns (single cells included)."""
    runs = []
    for t in (False, True):
        w = white.T if t else white
        for i in range(w.shape[0]):
            run: list[tuple[int, int]] = []
            for j in range(w.shape[1] + 1):
                if j < w.shape[1] and w[i, j]:
                    run.append((j, i) if t else (i, j))
                elif run:
                    runs.append(run)
                    run = []
    return runs


def _connected(white: np.ndarray) -> bool:
    cells = list(zip(*np.nonzero(white), strict=True))
    if not cells:
        return False
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        r, c = todo.pop()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if (0 <= nr < white.shape[0] and 0 <= nc < white.shape[1] and white[nr, nc]
                    and (nr, nc) not in seen):
                seen.add((nr, nc))
                todo.append((nr, nc))
    return len(seen) == len(cells)


def layout(n: int, rng: np.random.Generator, symmetry: str = "none") -> np.ndarray | None:
    """White cells (bool n×n) with every run 2..9 long, or None when this draw fails."""
    from csolve.generate import symmetry_groups

    m = n - 1
    black = random_pattern(m, m, rng, DENSITY, symmetry)
    orbit_of = {}
    for orbit in symmetry_groups(m, m, symmetry):
        for i in orbit:
            orbit_of[i] = orbit
    white = np.zeros((n, n), dtype=bool)
    white[1:, 1:] = ~black
    changed = True
    while changed:
        changed = False
        for run in _runs_of(white[1:, 1:]):
            if len(run) == 1 or len(run) > 9:
                r, c = run[0] if len(run) == 1 else run[int(rng.integers(2, len(run) - 2))]
                for i in orbit_of[r * m + c]:
                    white[1 + i // m, 1 + i % m] = False
                changed = True
                break
    if white.sum() < 0.4 * m * m or not _connected(white):
        return None
    return white


def _grid(white: np.ndarray, digits: np.ndarray) -> KakuroGrid:
    """The Kakuro of a layout whose white cells hold ``digits``: sums as clues, no digit."""
    n = white.shape[0]
    rows = []
    for r in range(n):
        toks = []
        for c in range(n):
            if white[r, c]:
                toks.append("0")
                continue
            down = right = 0
            if r + 1 < n and white[r + 1, c]:
                k = r + 1
                while k < n and white[k, c]:
                    down += int(digits[k, c])
                    k += 1
            if c + 1 < n and white[r, c + 1]:
                k = c + 1
                while k < n and white[r, k]:
                    right += int(digits[r, k])
                    k += 1
            toks.append(f"{down or ''},{right or ''}" if down or right else "-")
        rows.append(toks)
    return kgrid.build(rows)


def filling(white: np.ndarray, rng: np.random.Generator, ctrl=None) -> np.ndarray:
    """Distinct random digits in every run of the layout (0 on black cells)."""
    whites = [tuple(rc) for rc in zip(*np.nonzero(white), strict=True)]
    index = {rc: i for i, rc in enumerate(whites)}
    b = ModelBuilder(len(whites), 9)
    for run in _runs_of(white):
        b.add_group([index[rc] for rc in run])
    model = b.build(("elimination",))
    sol = random_solution(model, rng, extra=len(whites) // 3, tries=20, max_nodes=20_000,
                          ctrl=ctrl)
    relabel = rng.permutation(9) + 1
    out = np.zeros(white.shape, dtype=np.int64)
    for (r, c), v in zip(whites, values_of_masks(sol), strict=True):
        out[r, c] = relabel[v - 1]
    return out


def check_options(options: GenerateOptions) -> None:
    """Refuse a size Kakuro has no puzzles of, before any work."""
    n = options.size
    if n not in SIZES:
        raise GenerationError(f"Kakuro size must be {SIZES.start}..{SIZES.stop - 1} (the grid "
                              f"with its clue row and column), got {n}")


def generate(options: GenerateOptions, rng: np.random.Generator, ctrl=None
             ) -> tuple[Puzzle, np.ndarray]:
    """A Kakuro with exactly one solution, and that solution (see the module's docstring)."""
    from .plugin import Kakuro

    check_options(options)
    n = options.size
    ptype = Kakuro()
    best = None
    for _ in range(FILLINGS):
        for _try in range(LAYOUT_TRIES):
            white = layout(n, rng, options.symmetry)
            if white is not None:
                break
        else:
            raise GenerationError(f"no {n}x{n} Kakuro layout found in {LAYOUT_TRIES} draws")
        digits = filling(white, rng, ctrl)
        g = _grid(white, digits)
        puzzle = Puzzle("kakuro", "<generated>", 0, 0, g, "text", {"format": "text"})
        model = ptype.model(puzzle, options.rules)
        cell_of = {r * n + c: i for i, (r, c) in enumerate(g.whites)}
        groups = removal_groups(n, n, options.symmetry, cell_of, rng)
        solution = masks_of_values([digits[rc] for rc in g.whites])
        clue = reduce_clues(model, solution, groups, options.clues, ctrl=ctrl)
        if best is None or clue.sum() < best[0].sum():
            best = (clue, g, digits)
        if not clue.any():
            break
    clue, g, digits = best
    for i, (r, c) in enumerate(g.whites):
        if clue[i]:
            g.values[r, c] = digits[r, c]
    return Puzzle("kakuro", "<generated>", 0, 0, g, "text", {"format": "text"}), digits
