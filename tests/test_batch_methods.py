"""Sudoku's whole-batch check / model / decode / validate, on batches of mixed sizes.

That every plugin's batch methods agree with its one-puzzle methods and with the base class's
loops is the contract kit's ``check_batch_methods`` (tests/test_contract_kit.py); these tests
add what is Sudoku's own: runs split by size, a conflict anywhere in a batch, a corrupted
solution caught by the whole-array validator."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from csolve.errors import PuzzleInputError
from csolve.solver import InvalidSolutionError, Status, _checked_many, solve_puzzles

from .helpers import line_of, pattern_grid

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "sudoku"


def mixed_sizes(sudoku):
    """Puzzles of three sizes, interleaved so runs of one size are short."""
    rng = random.Random(7)
    lines = []
    for n in (4, 9, 9, 16, 4, 9):
        grid = pattern_grid(n, rng)
        grid[rng.sample(range(n * n), n * n // 2)] = 0
        lines.append(line_of(grid))
    return sudoku.parse("\n".join(lines) + "\n", "<mixed>")


def test_batch_methods_equal_the_one_puzzle_methods(sudoku):
    puzzles = mixed_sizes(sudoku)
    runs = list(sudoku.model_runs(puzzles))
    assert [(a, b) for a, b, _, _ in runs] == [(0, 1), (1, 3), (3, 4), (4, 5), (5, 6)]
    for start, stop, model, inits in runs:
        for i in range(start, stop):
            one = sudoku.model(puzzles[i])
            assert one.key == model.key
            assert (inits[i - start] == one.init).all()
    results = list(solve_puzzles(sudoku, puzzles))
    for p, r in zip(puzzles, results, strict=True):
        assert r.status is Status.SOLVED
        assert sudoku.validate(p, r.solutions[0]) == []


def test_conflicting_givens_anywhere_in_a_batch_are_refused(sudoku):
    text = (PUZZLES / "9x9-hard.txt").read_text().splitlines()
    good = [t for t in text if t and not t.startswith("#")][0]
    bad = "11" + good[2:]
    puzzles = sudoku.parse("\n".join([good, good, bad, good]) + "\n", "batch.txt")
    with pytest.raises(PuzzleInputError, match="batch.txt:3.*conflicting givens"):
        sudoku.check_many(puzzles)
    with pytest.raises(PuzzleInputError):
        list(solve_puzzles(sudoku, puzzles))


def test_a_corrupted_solution_is_caught_by_the_batch_validator(sudoku):
    puzzles = mixed_sizes(sudoku)[1:3]  # two 9x9 puzzles
    results = list(solve_puzzles(sudoku, puzzles))
    masks = np.stack([sudoku.model(p).init for p in puzzles])
    for k, r in enumerate(results):
        masks[k] = np.left_shift(np.uint64(1), (r.solutions[0] - 1).astype(np.uint64))
    assert len(_checked_many(sudoku, puzzles, masks)) == 2
    masks[1, [0, 1]] = masks[1, [1, 0]]  # swap two cells: a row still complete, columns not
    with pytest.raises(InvalidSolutionError, match="<mixed>"):
        _checked_many(sudoku, puzzles, masks)
    problems = sudoku.validate_many(puzzles, sudoku.decode_many(puzzles, masks))
    assert problems[0] == [] and problems[1]
