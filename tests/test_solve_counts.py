"""Solving and counting: known counts, brute-force agreement, every solution validated."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csolve.solver import End, SolveOptions, Status, solve_one

from .helpers import brute_force_count, line_of, pattern_grid


def parse_one(sudoku, text: str):
    (p,) = sudoku.parse(text + "\n", "<test>")
    return p


def count(sudoku, text: str, limit: int = 0):
    p = parse_one(sudoku, text)
    r = solve_one(sudoku, p, SolveOptions(limit=limit, keep=5))
    for s in r.solutions:
        assert sudoku.validate(p, s) == []
    return r


def test_empty_4x4_has_288_solutions(sudoku):
    r = count(sudoku, "." * 16)
    assert r.count == 288 and r.exact and r.status is Status.MULTIPLE


def test_limit_caps_the_count(sudoku):
    r = count(sudoku, "." * 16, limit=2)
    assert r.count == 2 and not r.exact


def test_unique_puzzle_is_solved_and_validated(sudoku):
    grid = pattern_grid(9, random.Random(1))
    puzzle = grid.copy()
    puzzle[::3] = 0
    r = count(sudoku, line_of(puzzle))
    assert r.count == brute_force_count(puzzle, 9)
    assert r.status is (Status.SOLVED if r.count == 1 else Status.MULTIPLE)


@pytest.mark.parametrize("wanted", [2, 3, 4])
def test_puzzles_with_few_solutions_count_exactly(sudoku, wanted):
    # remove clues from a solved grid until the (brute-force) count is exactly ``wanted``
    rng = random.Random(wanted)
    for _attempt in range(50):
        puzzle = pattern_grid(9, rng)
        for cell in rng.sample(range(81), 40):
            puzzle[cell] = 0
            c = count(sudoku, line_of(puzzle))
            if c.count == wanted:
                assert c.exact and c.status is Status.MULTIPLE
                assert brute_force_count(puzzle, 9) == wanted
                return
            if c.count > wanted:
                break
    pytest.fail(f"no puzzle with {wanted} solutions found")


def test_unsolvable_puzzle_says_so(sudoku):
    # givens do not conflict, yet no completion exists (checked by brute force)
    text = "1..4..2..3..4..1"
    assert brute_force_count(np.array([0 if c == "." else int(c) for c in text]), 4) == 0
    r = count(sudoku, text, limit=1)
    assert r.status is Status.NO_SOLUTION and r.count == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.sampled_from([4, 9]), holes=st.integers(0, 40))
def test_random_holes_agree_with_brute_force(sudoku, seed, n, holes):
    rng = random.Random(seed)
    grid = pattern_grid(n, rng)
    puzzle = grid.copy()
    cells = rng.sample(range(n * n), min(holes, n * n if n == 4 else 14))
    puzzle[cells] = 0
    r = count(sudoku, line_of(puzzle))
    assert r.exact
    assert r.count == brute_force_count(puzzle, n)
    assert r.count >= 1  # the grid we started from is a completion


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.sampled_from([4, 9, 16, 25]),
       keep=st.floats(0.6, 0.95))
def test_random_puzzles_solve_to_a_grid_keeping_the_givens(sudoku, seed, n, keep):
    rng = random.Random(seed)
    grid = pattern_grid(n, rng)
    puzzle = np.where(np.array([rng.random() < keep for _ in grid]), grid, 0)
    p = parse_one(sudoku, " ".join(map(str, puzzle)))
    r = solve_one(sudoku, p, SolveOptions(limit=1, timeout=30))
    assert r.status is Status.SOLVED
    (s,) = r.solutions
    assert sudoku.validate(p, s) == []
    assert (s[puzzle > 0] == puzzle[puzzle > 0]).all()


def test_all_sizes_from_4_to_64_solve(sudoku):
    rng = random.Random(3)
    for n in (4, 9, 16, 25, 36, 49, 64):
        grid = pattern_grid(n, rng)
        puzzle = np.where(np.array([rng.random() < 0.7 for _ in grid]), grid, 0)
        p = parse_one(sudoku, " ".join(map(str, puzzle)))
        r = solve_one(sudoku, p, SolveOptions(limit=1, timeout=30))
        assert r.status is Status.SOLVED, n
        assert sudoku.validate(p, r.solutions[0]) == []


def test_streaming_all_solutions_yields_each_once(sudoku):
    p = parse_one(sudoku, "." * 16)
    seen = set()

    def on_solution(s):
        assert sudoku.validate(p, s) == []
        seen.add(tuple(s))

    r = solve_one(sudoku, p, SolveOptions(limit=0), on_solution=on_solution)
    assert r.count == 288 and len(seen) == 288


def test_timeout_stops_the_search(sudoku, monkeypatch):
    """The batch kernel's watcher gives a puzzle up once its time is spent; the clock is
    replaced so that the time runs out once the first solution was found (no wall-clock
    bound)."""
    import csolve.batch
    from csolve.kernels import abi

    seen = {"now": 0.0}

    def clock() -> float:  # stands still until a solution is found, then an hour a look
        stats = seen.get("stats")
        if stats is not None and stats[0, abi.STAT_SOLUTIONS] > 0:
            seen["now"] += 3600.0
        return seen["now"]

    real = csolve.batch.BatchScratch.solve

    def solve(self, kernels, model, inits, limit, ctrl, reason, sols, counts, stats):
        seen["stats"] = stats  # the kernel counts each puzzle's solutions here as it goes
        return real(self, kernels, model, inits, limit, ctrl, reason, sols, counts, stats)

    monkeypatch.setattr(csolve.batch, "_now", clock)
    monkeypatch.setattr(csolve.batch.BatchScratch, "solve", solve)
    p = parse_one(sudoku, " ".join(["0"] * 625))
    r = solve_one(sudoku, p, SolveOptions(limit=0, timeout=3600.0))
    assert r.status is Status.TIMEOUT and r.end is End.TIMEOUT and not r.exact
    assert r.count > 0  # found some before the time ran out
