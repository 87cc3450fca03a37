"""Generating Killer Sudoku: a random solved grid, random cages, then splits until unique.

The cages grow from random cells over orthogonal neighbours whose digits the cage does not
hold yet. While the puzzle has a second solution, a cell where the two solutions differ
leaves its cage as a cage of its own (the rest of the cage splits into its connected parts),
which removes that second solution; a puzzle of single-cell cages is a solved grid, so this
ends.
"""

from __future__ import annotations

import numpy as np
from csolve_sudoku.generate import solved_grid

from csolve.generate import GenerateOptions, GenerationError
from csolve.puzzle import Puzzle

from .cages import LABELS, SIZES, KillerGrid, components, neighbours

#: cage sizes drawn for each new cage
CAGE_SIZES = (1, 2, 2, 3, 3, 3, 4, 4, 5)


def random_cages(grid: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """A cage index per cell: connected cages of distinct digits."""
    cage = np.full(n * n, -1, dtype=np.int64)
    k = 0
    for start in rng.permutation(n * n):
        if cage[start] >= 0:
            continue
        want = int(rng.choice(CAGE_SIZES))
        cells = [int(start)]
        cage[start] = k
        digits = {int(grid[start])}
        while len(cells) < want:
            options = [q for c in cells for q in neighbours(n, c)
                       if cage[q] < 0 and int(grid[q]) not in digits]
            if not options:
                break
            q = options[int(rng.integers(len(options)))]
            cage[q] = k
            cells.append(q)
            digits.add(int(grid[q]))
        k += 1
    return cage


def split_at(cage: np.ndarray, n: int, cell: int) -> np.ndarray:
    """``cell`` becomes a cage of its own; the rest of its cage splits into connected parts."""
    out = cage.copy()
    old = int(cage[cell])
    rest = [int(c) for c in np.flatnonzero(cage == old) if c != cell]
    nxt = int(cage.max()) + 1
    out[cell] = nxt
    for part in components(n, rest)[1:]:
        nxt += 1
        out[part] = nxt
    return out


def killer_grid(grid: np.ndarray, cage: np.ndarray, n: int, box) -> KillerGrid:
    """The puzzle of these cages (renumbered in order of their first cell), no givens."""
    order: dict[int, int] = {}
    for c in range(n * n):
        order.setdefault(int(cage[c]), len(order))
    cage_of = np.array([order[int(x)] for x in cage], dtype=np.int64)
    cells = [[] for _ in order]
    for c in range(n * n):
        cells[cage_of[c]].append(c)
    labels = tuple(LABELS[k] if k < len(LABELS) else str(k + 1) for k in range(len(cells)))
    return KillerGrid(n=n, box=box, cage_of=cage_of, cages=tuple(tuple(c) for c in cells),
                      sums=tuple(int(grid[c].sum()) for c in cells),
                      givens=np.zeros(n * n, dtype=np.int64), labels=labels,
                      anchors=tuple(c[0] for c in cells))


def _solutions(model, ctrl) -> list[np.ndarray]:
    """Up to two solutions of ``model``."""
    from csolve.kernels import abi
    from csolve.search import SearchState, kernels_for_model, new_ctrl

    ctrl = ctrl if ctrl is not None else new_ctrl()
    state = SearchState(model, kernels_for_model(model), solution_capacity=2)
    state.push_root()
    found: list[np.ndarray] = []
    while True:
        r = state.run(ctrl, 2 - len(found), False, 1 << 40)
        found += state.found_solutions()
        if r == abi.STOPPED:
            raise KeyboardInterrupt
        if r in (abi.EXHAUSTED, abi.LIMIT) or len(found) >= 2:
            return found


def check_options(options: GenerateOptions) -> None:
    """Refuse what a Killer cannot be made with, before any work."""
    n = options.size
    if n not in SIZES:
        raise GenerationError(f"Killer size must be one of {', '.join(map(str, SIZES))}, got {n}")
    if options.symmetry != "none" or options.clues is not None:
        raise GenerationError("Killer puzzles have no clues to remove, so --symmetry and "
                              "--clues do not apply (cages are split until one solution "
                              "is left)")
    from csolve_sudoku.generate import generate_box

    generate_box(options)  # the box shape, checked


def generate(ptype, options: GenerateOptions, rng: np.random.Generator,
             ctrl: np.ndarray | None = None) -> tuple[Puzzle, np.ndarray]:
    """A Killer puzzle with exactly one solution (no givens), and that solution."""
    from csolve_sudoku.generate import generate_box

    from .plugin import killer_model

    check_options(options)
    n = options.size
    box = generate_box(options)
    rules = tuple(options.rules or ptype.default_rules)
    rules += tuple(r for r in ptype.constraint_rules if r not in rules)
    grid = solved_grid(n, rng, None, ctrl, box)
    cage = random_cages(grid, n, rng)
    masks = np.left_shift(np.uint64(1), (grid - 1).astype(np.uint64))
    while True:
        g = killer_grid(grid, cage, n, box)
        model = killer_model(g.structure(), rules)
        others = [s for s in _solutions(model, ctrl) if not (s == masks).all()]
        if not others:
            break
        differ = np.flatnonzero(others[0] != masks)
        cage = split_at(cage, n, int(differ[int(rng.integers(len(differ)))]))
    return Puzzle(ptype.name, "<generated>", 0, 0, g, "text", {"n": n}), grid
