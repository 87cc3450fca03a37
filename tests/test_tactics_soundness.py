"""Every tactic is sound (never removes a solution's value) and the stepper agrees with the
kernels: for each tactic, both reach the same fixpoint from the same state."""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest

from csolve.grading import namer_for
from csolve.kernels.state import CONTRADICTION, NO_CHANGE, clear_queue, enqueue_all_singles
from csolve.kernels.workspace import new_workspace
from csolve.logic import FINDERS, Board
from csolve.rules import all_rules
from csolve.solver import SolveOptions, solve_one

from .helpers import pattern_grid, shared_file

SINGLES = ("elimination", "hidden-single")
TACTICS = ("elimination", "hidden-single", "locked-candidates", "naked-pair", "naked-triple",
           "naked-quad", "hidden-pair", "hidden-triple", "hidden-quad", "x-wing", "swordfish",
           "jellyfish", "xy-wing")


def rule_kernel(name):
    module, _, func = all_rules()[name].kernel.partition(":")
    return getattr(importlib.import_module(module), func)


def kernel_fixpoint(names, cand, model):
    """Run the rules alone (in order, restart after a change) to their fixpoint."""
    ws = new_workspace(cand.shape[0])
    kernels = [rule_kernel(n) for n in names]
    enqueue_all_singles(cand, ws)
    while True:
        for k in kernels:
            r = k(cand, model.kernel, ws)
            assert r != CONTRADICTION
            if r != NO_CHANGE:
                break
        else:
            break
    clear_queue(ws)
    return cand


def solution_bits(solution) -> np.ndarray:
    return np.left_shift(np.uint64(1), (np.asarray(solution) - 1).astype(np.uint64))


def states(sudoku, puzzles, rng, per_puzzle=2):
    """(puzzle, model, solution, state) with singles propagated: where tactics have work."""
    out = []
    for p in puzzles:
        r = solve_one(sudoku, p, SolveOptions(limit=1))
        sol = r.solutions[0]
        model = sudoku.model(p)
        for k in range(per_puzzle):
            cand = model.init.copy()
            # reveal a few solution values so states differ from the puzzle's own
            for c in rng.sample(range(cand.shape[0]), k * 2):
                cand[c] = solution_bits(sol)[c]
            out.append((p, model, sol, kernel_fixpoint(SINGLES, cand, model)))
    return out


def sample_9x9(sudoku, name, k, rng):
    path = shared_file("sudoku-9x9", name)
    return rng.sample(sudoku.parse(path.read_text(), str(path)), k)


def generated_16x16(sudoku, k, rng):
    out = []
    for _ in range(k):
        grid = pattern_grid(16, rng)
        holes = rng.sample(range(256), rng.randint(120, 150))
        grid[holes] = 0
        text = " ".join(map(str, grid)) + "\n"
        out.extend(sudoku.parse(text, "<generated>"))
    return out


@pytest.fixture(scope="module")
def hard_states(sudoku):
    rng = random.Random(4)
    puzzles = (sample_9x9(sudoku, "top1465.txt", 25, rng)
               + sample_9x9(sudoku, "forum-hardest-5000.txt", 25, rng)
               + sample_9x9(sudoku, "17clue-5000.txt", 10, rng))
    return states(sudoku, puzzles, rng)


@pytest.fixture(scope="module")
def big_states(sudoku):
    rng = random.Random(16)
    return states(sudoku, generated_16x16(sudoku, 6, rng), rng, per_puzzle=1)


def check_sound(all_states, tactic):
    fired = 0
    for _p, model, sol, state in all_states:
        cand = kernel_fixpoint((tactic,), state.copy(), model)
        want = solution_bits(sol)
        lost = np.flatnonzero((cand & want) == 0)
        assert lost.size == 0, f"{tactic} removed the solution's value of cell {lost[0]}"
        fired += int((cand != state).any())
    return fired


@pytest.mark.parametrize("tactic", TACTICS)
def test_kernels_never_remove_a_solution_value_9x9(hard_states, tactic):
    fired = check_sound(hard_states, tactic)
    if tactic not in (*SINGLES, "jellyfish", "naked-quad", "hidden-quad"):
        assert fired > 0, f"{tactic} never fired: the test would prove nothing"


@pytest.mark.parametrize("tactic", TACTICS)
def test_kernels_never_remove_a_solution_value_16x16(big_states, tactic):
    check_sound(big_states, tactic)


def stepper_fixpoint(sudoku, puzzle, model, tactic, state):
    b = Board(model, namer_for(sudoku, puzzle))
    b.cand = [int(x) for x in state]
    finder = {**FINDERS, **sudoku.step_finders()}[tactic]
    while True:
        step = next(finder(b), None)
        if step is None:
            return np.array(b.cand, dtype=np.uint64)
        assert step.placed or step.removed
        b.apply(step, settle=tactic == "elimination")


@pytest.mark.parametrize("tactic", TACTICS)
def test_stepper_agrees_with_kernel(sudoku, hard_states, big_states, tactic):
    for p, model, _sol, state in hard_states[::3] + big_states[:3]:
        want = kernel_fixpoint((tactic,), state.copy(), model)
        got = stepper_fixpoint(sudoku, p, model, tactic, state)
        assert (got == want).all(), f"{tactic} on {p.where}"


def test_all_tactics_solve_hard_puzzles_uniquely(sudoku):
    """Full propagation with every tactic: solutions are validated and stay unique."""
    from csolve.solver import SolveOptions, solve_puzzles

    rng = random.Random(7)
    puzzles = sample_9x9(sudoku, "forum-hardest-5000.txt", 40, rng)
    results = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, rules=TACTICS)))
    assert all(r.status.value == "solved" and r.count == 1 for r in results)
