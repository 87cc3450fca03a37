"""Generating Kakuro: a random layout, a random filling, its sums as clues, then uniqueness.

1. A layout: the first row and column are black; inner cells turn black at random (in the
   orbits of ``--symmetry``), then every white cell alone in its row or column run turns
   black, runs longer than nine get a black cell, and white cells cut off from the largest
   connected part turn black, until every run has 2..9 cells; a layout whose white cells
   are too few, or that leaves an inner row or column all black, is drawn again.
2. A filling: distinct digits in every run, found by the generic random solution over the
   runs as all-different groups (no sums yet), with the digits relabelled at random.
3. The clues: each run's sum. Sums alone rarely leave one solution, so the generic clue
   removal starts from every white cell given and takes digits away while the solution
   stays unique; what remains are the given digits the puzzle needs (often none). A check
   the search cannot settle within ``CHECK_NODES`` keeps its digit, so a large grid may
   keep a digit it could lose rather than take minutes. Of a few fillings, the one needing
   fewest given digits is kept.
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
CHECK_NODES = 2_000  # search nodes a removal's uniqueness check may take; over it, the digit stays


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


def _parts(white: np.ndarray) -> list[list[tuple[int, int]]]:
    """The white cells in connected parts (through shared sides), largest first."""
    seen = np.zeros(white.shape, dtype=bool)
    parts = []
    for start in zip(*np.nonzero(white), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        part = [start]
        todo = [start]
        while todo:
            r, c = todo.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (0 <= nr < white.shape[0] and 0 <= nc < white.shape[1] and white[nr, nc]
                        and not seen[nr, nc]):
                    seen[nr, nc] = True
                    part.append((nr, nc))
                    todo.append((nr, nc))
        parts.append(part)
    return sorted(parts, key=len, reverse=True)


def _blacken(inner: np.ndarray, cell: tuple[int, int], orbit_of: dict) -> None:
    """Turn ``cell`` black with its orbit, so the layout keeps its symmetry."""
    m = inner.shape[1]
    for i in orbit_of[cell[0] * m + cell[1]]:
        inner[i // m, i % m] = False


def _repair_runs(inner: np.ndarray, orbit_of: dict, rng: np.random.Generator) -> bool:
    """One pass over the runs: a lone white cell turns black, a run over nine cells gets a
    black cell that leaves two or more on each side. True when anything turned black."""
    changed = False
    for run in _runs_of(inner):
        if 2 <= len(run) <= 9 or not all(inner[rc] for rc in run):
            continue  # a good run, or one this pass has cut already (seen again next pass)
        _blacken(inner, run[0] if len(run) == 1 else run[int(rng.integers(2, len(run) - 2))],
                 orbit_of)
        changed = True
    return changed


def _keep_largest_part(inner: np.ndarray, orbit_of: dict) -> bool:
    """Turn black every white cell outside the largest connected part. True when any did."""
    parts = _parts(inner)
    for part in parts[1:]:
        for rc in part:
            _blacken(inner, rc, orbit_of)
    return len(parts) > 1


def layout(n: int, rng: np.random.Generator, symmetry: str = "none") -> np.ndarray | None:
    """White cells (bool n×n) with every run 2..9 long, all connected, and a white cell in
    every inner row and column; or None when this draw fails."""
    from csolve.generate import symmetry_groups

    m = n - 1
    inner = ~random_pattern(m, m, rng, DENSITY, symmetry)
    orbit_of = {}
    for orbit in symmetry_groups(m, m, symmetry):
        for i in orbit:
            orbit_of[i] = orbit
    while _repair_runs(inner, orbit_of, rng) | _keep_largest_part(inner, orbit_of):
        pass
    if inner.sum() < 0.4 * m * m or not (inner.any(axis=0).all() and inner.any(axis=1).all()):
        return None
    white = np.zeros((n, n), dtype=bool)
    white[1:, 1:] = inner
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
        # the orbits of the inner grid, as the layout's: the givens keep its symmetry
        cell_of = {(r - 1) * (n - 1) + c - 1: i for i, (r, c) in enumerate(g.whites)}
        groups = removal_groups(n - 1, n - 1, options.symmetry, cell_of, rng)
        solution = masks_of_values([digits[rc] for rc in g.whites])
        clue = reduce_clues(model, solution, groups, options.clues, ctrl=ctrl,
                            max_nodes=CHECK_NODES)
        if best is None or clue.sum() < best[0].sum():
            best = (clue, g, digits)
        if not clue.any():
            break
    clue, g, digits = best
    for i, (r, c) in enumerate(g.whites):
        if clue[i]:
            g.values[r, c] = digits[r, c]
    return Puzzle("kakuro", "<generated>", 0, 0, g, "text", {"format": "text"}), digits
