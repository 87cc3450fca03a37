"""Transformations that map a solved Sudoku grid to another solved grid.

Chiu, Nasiri & Rashid 2012 (§3.1) use four (flips about the middle row and column,
reflections in both diagonals); these add digit relabelling, rotations, row swaps within a
band, column swaps within a stack, and band and stack swaps. With rectangular boxes (2×3 in a
6x6) a band is ``r`` rows and a stack ``c`` columns, and only the turns that keep the box
shape (half turns, flips) apply. Each takes and returns an n×n array of values 1..n; the
rows, columns and boxes of the result are those of the input, permuted, so validity holds.
"""

from __future__ import annotations

import numpy as np

from .grid import Box, check_box


def flip_rows(g: np.ndarray) -> np.ndarray:
    """Mirror about the middle row: the first row swaps with the last, and so on."""
    return g[::-1, :].copy()


def flip_cols(g: np.ndarray) -> np.ndarray:
    """Mirror about the middle column."""
    return g[:, ::-1].copy()


def transpose(g: np.ndarray) -> np.ndarray:
    """Reflect in the main diagonal."""
    return g.T.copy()


def anti_transpose(g: np.ndarray) -> np.ndarray:
    """Reflect in the minor diagonal."""
    return g[::-1, ::-1].T.copy()


def rotate(g: np.ndarray, quarter_turns: int = 1) -> np.ndarray:
    """Rotate by ``quarter_turns`` × 90° counter-clockwise."""
    return np.rot90(g, quarter_turns).copy()


def relabel(g: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Replace each value v by ``perm[v - 1]`` (``perm`` a permutation of 1..n)."""
    table = np.concatenate(([0], np.asarray(perm, dtype=g.dtype)))
    return table[g]


def swap_rows(g: np.ndarray, a: int, b: int, k: int | None = None) -> np.ndarray:
    """Swap rows ``a`` and ``b`` of one band (of ``k`` rows; default: the box height)."""
    k = k or check_box(g.shape[0], None)[0]
    if a // k != b // k:
        raise ValueError(f"rows {a} and {b} are in different bands")
    out = g.copy()
    out[[a, b]] = out[[b, a]]
    return out


def swap_cols(g: np.ndarray, a: int, b: int, k: int | None = None) -> np.ndarray:
    """Swap columns ``a`` and ``b`` of one stack (of ``k`` columns; default: the box width)."""
    return swap_rows(g.T, a, b, k or check_box(g.shape[0], None)[1]).T.copy()


def swap_bands(g: np.ndarray, a: int, b: int, k: int | None = None) -> np.ndarray:
    """Swap bands (rows of boxes, ``k`` rows each; default: the box height) ``a`` and ``b``."""
    k = k or check_box(g.shape[0], None)[0]
    order = np.arange(g.shape[0])
    order[a * k:(a + 1) * k], order[b * k:(b + 1) * k] = (
        np.arange(b * k, (b + 1) * k), np.arange(a * k, (a + 1) * k))
    return g[order].copy()


def swap_stacks(g: np.ndarray, a: int, b: int, k: int | None = None) -> np.ndarray:
    """Swap stacks (columns of boxes, ``k`` columns each; default: the box width)."""
    return swap_bands(g.T, a, b, k or check_box(g.shape[0], None)[1]).T.copy()


def _line_order(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """A random order of lines that keeps blocks of ``k`` together: blocks shuffled, lines
    in each too."""
    return np.concatenate([b * k + rng.permutation(k) for b in rng.permutation(n // k)])


def random_transform(g: np.ndarray, rng: np.random.Generator, box: Box | None = None
                     ) -> np.ndarray:
    """Apply a random member of the whole group: relabel, shuffle rows and columns within
    bands and stacks, shuffle bands and stacks, then one of the 8 flips and rotations (with
    rectangular boxes: one of the 4 that keep the shape)."""
    n = g.shape[0]
    r, c = check_box(n, box)
    g = relabel(g, rng.permutation(n) + 1)
    g = g[_line_order(n, r, rng)][:, _line_order(n, c, rng)]
    if r == c:
        g = rotate(g, int(rng.integers(4)))
        if rng.integers(2):
            g = transpose(g)
    else:
        g = rotate(g, 2 * int(rng.integers(2)))
        if rng.integers(2):
            g = flip_rows(g)
    return np.ascontiguousarray(g)
