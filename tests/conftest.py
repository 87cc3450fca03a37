"""Shared fixtures: the shared public data sets (skipped when absent) and helpers."""

from __future__ import annotations

import pytest

from .helpers import PUZZLES, ROOT  # noqa: F401


@pytest.fixture(scope="session")
def sudoku():
    from csolve.puzzle import get_puzzle_type

    return get_puzzle_type("sudoku")


@pytest.fixture(scope="session", autouse=True)
def _numba_imported_before_any_test():
    """Kernels import numba only when one must compile, and numba raises the recursion limit
    as it loads; hypothesis warns when that happens inside one of its tests."""
    import numba  # noqa: F401
