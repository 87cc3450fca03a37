"""Sudoku geometry: rows, columns and boxes of an n×n grid (n = k²)."""

from __future__ import annotations

from functools import cache
from math import isqrt

import numpy as np

SIZES = tuple(k * k for k in range(2, 9))  # 4, 9, ..., 64


def box_side(n: int) -> int:
    k = isqrt(n)
    if k * k != n or n not in SIZES:
        raise ValueError(f"size {n} is not a square of 2..8")
    return k


@cache
def units(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """(rows, columns, boxes), each a tuple of cell-index tuples."""
    k = box_side(n)
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes = tuple(
        tuple((br * k + i) * n + bc * k + j for i in range(k) for j in range(k))
        for br in range(k) for bc in range(k)
    )
    return rows, cols, boxes


def unit_stacks(grids: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, columns and boxes of many flat grids (one per row) as (grids, n, n) arrays."""
    k = box_side(n)
    g = grids.reshape(-1, n, n)
    return g, g.transpose(0, 2, 1), g.reshape(-1, k, k, k, k).transpose(0, 1, 3, 2, 4).reshape(
        -1, n, n)


def repeats_many(grids: np.ndarray, n: int) -> np.ndarray:
    """Per grid: True if a value (0 = blank excepted) repeats in a row, column or box."""
    out = np.zeros(grids.shape[0], dtype=bool)
    for u in unit_stacks(grids, n):
        s = np.sort(u, axis=2)
        out |= ((s[..., 1:] == s[..., :-1]) & (s[..., 1:] != 0)).any(axis=(1, 2))
    return out


def complete_many(grids: np.ndarray, n: int) -> np.ndarray:
    """Per grid: True if every row, column and box holds 1..n exactly once."""
    want = np.arange(1, n + 1)
    out = np.ones(grids.shape[0], dtype=bool)
    for u in unit_stacks(grids, n):
        out &= (np.sort(u, axis=2) == want).all(axis=(1, 2))
    return out


def has_repeats(grid: np.ndarray, n: int) -> bool:
    """True if a value (0 = blank excepted) repeats in a row, column or box."""
    return bool(repeats_many(grid[None], n)[0])


def unit_problems(grid: np.ndarray, n: int, complete: bool) -> list[str]:
    """Rule breaks in ``grid`` (0 = blank): repeated values, and missing ones when complete."""
    problems = []
    names = ("row", "column", "box")
    for name, group in zip(names, units(n), strict=True):
        for u, cells in enumerate(group, 1):
            seen: dict[int, int] = {}
            for c in cells:
                v = int(grid[c])
                if v == 0:
                    continue
                if v in seen:
                    a, b = seen[v], c
                    problems.append(
                        f"value {v} twice in {name} {u} "
                        f"(r{a // n + 1}c{a % n + 1} and r{b // n + 1}c{b % n + 1})")
                    continue
                seen[v] = c
            if complete and len(seen) != n:
                problems.append(f"{name} {u} does not hold every value 1..{n}")
    return problems
