"""Shared fixtures: the shared public data sets (skipped when absent) and helpers."""

from __future__ import annotations

import pytest

from .helpers import PUZZLES, ROOT  # noqa: F401


@pytest.fixture(scope="session")
def sudoku():
    from csolve.puzzle import get_puzzle_type

    return get_puzzle_type("sudoku")
