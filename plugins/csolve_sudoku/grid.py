"""Sudoku geometry: rows, columns and boxes of an n×n grid.

Boxes are ``r`` rows by ``c`` columns with ``r * c = n``: square (3×3 in a 9x9) or rectangular
(2×3 in a 6x6, 3×4 in a 12x12). A size's default shape is its most square factorisation with
``r <= c``; another one (a 6x6 with 3×2 boxes) is asked for by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from math import isqrt

import numpy as np

from csolve.inputs import is_number

Box = tuple[int, int]  # (rows, columns) of one box

MAX_SIZE = 64  # a candidate set is one uint64
#: the type of a grid's cells (values 0..64, 0 blank): one byte keeps a file of a million
#: puzzles, and their solutions, small
VALUE = np.int8


def as_cells(solution: np.ndarray, n: int) -> np.ndarray:
    """A solution as its n·n cells, the form results hold: the n rows of n that
    ``--output json`` writes are the same grid."""
    return np.asarray(solution).reshape(n * n) if np.shape(solution) == (n, n) else solution


def box_shapes(n: int) -> list[Box]:
    """Every box shape (r, c) with r * c = n and both sides at least 2."""
    return [(r, n // r) for r in range(2, n // 2 + 1) if n % r == 0]


#: sizes with a box shape: 4, 6, 8, 9, 10, 12, ..., 64 (primes have none)
SIZES = tuple(n for n in range(4, MAX_SIZE + 1) if box_shapes(n))


@cache
def default_box(n: int) -> Box:
    """The most square box shape of size n, rows <= columns (3×3 for 9, 2×3 for 6)."""
    if n not in SIZES:
        raise ValueError(f"size {n} has no box shape (sizes: 4, 6, 8, 9, 10, 12, ... 64)")
    r = max(r for r, c in box_shapes(n) if r <= c)
    return r, n // r


def check_box(n: int, box: Box | None) -> Box:
    """``box`` checked against size n (None: the default shape)."""
    if box is None:
        return default_box(n)
    r, c = box
    if r < 2 or c < 2 or r * c != n:
        shapes = ", ".join(f"{a}x{b}" for a, b in box_shapes(n))
        raise ValueError(f"a {n}x{n} grid takes boxes of {n} cells, at least 2 a side "
                         f"({shapes or 'none'}), not {r}x{c}")
    return r, c


def parse_box(text: str) -> Box:
    """``"RxC"`` (``2x3``: boxes of 2 rows and 3 columns) as a shape."""
    r, sep, c = text.lower().partition("x")
    if not sep or not is_number(r.strip()) or not is_number(c.strip()) or \
            max(len(r.strip()), len(c.strip())) > 6:  # no box is a million cells a side
        raise ValueError(f"a box shape is RxC (rows x columns, e.g. 2x3), got {text!r}")
    return int(r), int(c)


def box_side(n: int) -> int:
    """The side of a square box (n = k²)."""
    k = isqrt(n)
    if k * k != n or n not in SIZES:
        raise ValueError(f"size {n} is not a square of 2..8")
    return k


@cache
def units(n: int, box: Box | None = None) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """(rows, columns, boxes), each a tuple of cell-index tuples; boxes row-major."""
    r, c = check_box(n, box)
    rows = tuple(tuple(i * n + j for j in range(n)) for i in range(n))
    cols = tuple(tuple(i * n + j for i in range(n)) for j in range(n))
    boxes = tuple(
        tuple((br * r + i) * n + bc * c + j for i in range(r) for j in range(c))
        for br in range(n // r) for bc in range(n // c)
    )
    return rows, cols, boxes


def box_of(n: int, box: Box | None, cell: int) -> int:
    """The index of the box holding ``cell``."""
    r, c = check_box(n, box)
    return (cell // n) // r * (n // c) + (cell % n) // c


def unit_stacks(grids: np.ndarray, n: int, box: Box | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, columns and boxes of many flat grids (one per row) as (grids, n, n) arrays."""
    r, c = check_box(n, box)
    g = grids.reshape(-1, n, n)
    boxes = g.reshape(-1, n // r, r, n // c, c).transpose(0, 1, 3, 2, 4).reshape(-1, n, n)
    return g, g.transpose(0, 2, 1), boxes


@cache
def _powers(n: int) -> np.ndarray:
    """2**(v-1) for each value v, 0 for the blank."""
    return np.array([0] + [1 << v for v in range(n)], dtype=np.uint64)


def _powers_of(cells: np.ndarray, n: int) -> np.ndarray:
    """2**(v-1) for each value v of ``cells`` (bytes), 0 for a blank, in the narrowest type
    that holds them: a 9x9 batch's scratch is then a quarter of 64-bit words' (sums are
    taken in 64 bits whatever the type)."""
    if n >= 32:
        return np.take(_powers(n), cells)
    kind = np.uint16 if n < 16 else np.uint32
    return np.left_shift(kind(1), cells, dtype=kind) >> kind(1)


#: largest size whose unit sums of 2**(v-1) cannot overflow 64 bits (n * 2**(n-1) < 2**64)
_EXACT_SIZE = 58


def _unit_sums(cells: np.ndarray, n: int, box: Box) -> np.ndarray:
    """(3n, grids): per row, column and box of each grid, the sum of ``cells``' values.
    ``cells`` is cell-major, (n*n, grids), so that every sum adds whole contiguous rows."""
    r, c = box
    g = cells.reshape(n, n, -1)
    boxes = g.reshape(n // r, r, n // c, c, -1).sum(axis=(1, 3)).reshape(n, -1)
    return np.concatenate([g.sum(axis=1), g.sum(axis=0), boxes])


def _cell_major(grids: np.ndarray) -> np.ndarray:
    """Flat grids (one per row) as (cells, grids), values as bytes (n <= 64)."""
    return grids.T.astype(np.uint8, order="C")


def repeats_many(grids: np.ndarray, n: int, box: Box | None = None) -> np.ndarray:
    """Per grid: True if a value (0 = blank excepted) repeats in a row, column or box.

    k distinct values add up to a sum of 2**(v-1) with k bits set; a repeat carries and
    leaves fewer bits."""
    box = check_box(n, box)
    if n > _EXACT_SIZE:
        out = np.zeros(grids.shape[0], dtype=bool)
        for u in unit_stacks(grids, n, box):
            s = np.sort(u, axis=2)
            out |= ((s[..., 1:] == s[..., :-1]) & (s[..., 1:] != 0)).any(axis=(1, 2))
        return out
    cells = _cell_major(grids)
    bits = np.bitwise_count(_unit_sums(_powers_of(cells, n), n, box))
    filled = _unit_sums((cells > 0).astype(np.uint8), n, box)
    return (bits != filled).any(axis=0)


def complete_many(grids: np.ndarray, n: int, box: Box | None = None) -> np.ndarray:
    """Per grid: True if every row, column and box holds 1..n exactly once.

    A unit's n cells add up to 2**n - 1 in powers 2**(v-1) only if no two are the same."""
    box = check_box(n, box)
    if grids.size and (grids.min() < 1 or grids.max() > n):
        return ((grids >= 1) & (grids <= n)).all(axis=1) & _complete_sorted(
            np.clip(grids, 0, n), n, box)
    if n > _EXACT_SIZE:
        return _complete_sorted(grids, n, box)
    sums = _unit_sums(_powers_of(_cell_major(grids), n), n, box)
    return (sums == np.uint64((1 << n) - 1)).all(axis=0)


def _complete_sorted(grids: np.ndarray, n: int, box: Box) -> np.ndarray:
    want = np.arange(1, n + 1)
    out = np.ones(grids.shape[0], dtype=bool)
    for u in unit_stacks(grids, n, box):
        out &= (np.sort(u, axis=2) == want).all(axis=(1, 2))
    return out


def has_repeats(grid: np.ndarray, n: int, box: Box | None = None) -> bool:
    """True if a value (0 = blank excepted) repeats in a row, column or box."""
    return bool(repeats_many(grid[None], n, box)[0])


def unit_breaks(grid: np.ndarray, n: int, complete: bool, box: Box | None = None,
                name_of: Callable[[int], str] = str) -> Iterator[tuple[str, int]]:
    """Rule breaks in ``grid`` (0 = blank), each with the cell that shows it: a repeated
    value with its later cell, and, when complete, a missing one with the unit's first
    cell; values written by ``name_of`` (the puzzle's own symbols)."""
    names = ("row", "column", "box")
    for name, group in zip(names, units(n, box), strict=True):
        for u, cells in enumerate(group, 1):
            seen: dict[int, int] = {}
            for c in cells:
                v = int(grid[c])
                if v == 0:
                    continue
                if v in seen:
                    a, b = seen[v], c
                    yield (f"value {name_of(v)} twice in {name} {u} "
                           f"(r{a // n + 1}c{a % n + 1} and r{b // n + 1}c{b % n + 1})", int(b))
                    continue
                seen[v] = c
            if complete and len(seen) != n:
                yield (f"{name} {u} does not hold every value {name_of(1)}..{name_of(n)}",
                       int(cells[0]))


def out_of_range(solution: np.ndarray, n: int) -> str | None:
    """A solution's values outside 1..n, said once with the first of them (a grid of such
    values breaks every row, column and box: listing those says nothing more); None when
    there are none."""
    outside = np.flatnonzero((solution < 1) | (solution > n))
    if not len(outside):
        return None
    c = outside[0]
    more = f", and {len(outside) - 1} more" if len(outside) > 1 else ""
    return f"cells must hold values 1..{n} (r{c // n + 1}c{c % n + 1} holds {solution[c]}{more})"


def unit_problems(grid: np.ndarray, n: int, complete: bool, box: Box | None = None,
                  name_of: Callable[[int], str] = str) -> list[str]:
    """Rule breaks in ``grid`` (0 = blank): repeated values, and missing ones when complete;
    values written by ``name_of`` (the puzzle's own symbols)."""
    return [message for message, _ in unit_breaks(grid, n, complete, box, name_of)]
