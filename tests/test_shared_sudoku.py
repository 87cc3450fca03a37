"""Puzzles nobody on this team wrote: the shared public sets (skipped when absent)."""

from __future__ import annotations

import numpy as np
import pytest

from csolve.solver import SolveOptions, Status, solve_puzzles

from .helpers import shared_file

SAMPLE = 400  # puzzles per 9x9 set in the normal run (an even stride through the file)


@pytest.mark.parametrize("name", ["kaggle-2000.txt", "17clue-5000.txt", "top1465.txt",
                                  "forum-hardest-5000.txt"])
def test_9x9_sets_are_solved_unique_and_valid(sudoku, name):
    path = shared_file("sudoku-9x9", name)
    puzzles = sudoku.parse(path.read_text(), name)
    sample = puzzles[:: max(1, len(puzzles) // SAMPLE)]
    results = list(solve_puzzles(sudoku, sample, SolveOptions(limit=2, timeout=10)))
    assert len(results) == len(sample)
    for r in results:  # every one has exactly one solution, already validated by the solver
        assert r.status is Status.SOLVED and r.count == 1 and r.exact, r.puzzle.where
        assert sudoku.validate(r.puzzle, r.solutions[0]) == []


@pytest.mark.parametrize("name", ["16x16-maatec-30.txt", "16x16-janko-62.txt",
                                  "25x25-maatec-20.txt", "36x36-maatec-15.txt"])
def test_nxn_sets_are_solved_and_valid(sudoku, name):
    path = shared_file("sudoku-nxn", name)
    puzzles = sudoku.parse(path.read_text(), name)
    results = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, timeout=10)))
    for r in results:
        assert r.status is Status.SOLVED and r.count == 1, r.puzzle.where
        assert sudoku.validate(r.puzzle, r.solutions[0]) == []
    if name == "16x16-janko-62.txt":
        shipped = sudoku.parse(path.with_name("16x16-janko-62.solutions.txt").read_text(), name)
        for r, s in zip(results, shipped, strict=True):
            assert np.array_equal(r.solutions[0], s.data)


@pytest.mark.slow
def test_frisch_minimal_25x25(sudoku):
    """Alain Frisch's minimal 25x25 puzzles: hard for any depth-first solver (see README)."""
    path = shared_file("sudoku-nxn", "25x25-frisch-minimal-9.txt")
    puzzles = sudoku.parse(path.read_text(), path.name)
    for r in solve_puzzles(sudoku, puzzles, SolveOptions(limit=1, timeout=120)):
        if r.status is Status.SOLVED:
            assert sudoku.validate(r.puzzle, r.solutions[0]) == []
        else:
            assert r.status is Status.TIMEOUT
