"""Shared fixtures: the shared public data sets (skipped when absent) and helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
PUZZLES = ROOT / "puzzles"


def shared_file(*parts: str) -> Path:
    """A file under ../shared/data, or skip the test when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


@pytest.fixture(scope="session")
def sudoku():
    from csolve.puzzle import get_puzzle_type

    return get_puzzle_type("sudoku")
