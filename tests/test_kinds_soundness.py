"""Kakuro's and Str8ts' step-by-step tactics are sound: no step removes the known solution's
value or places another, over the bundled puzzles (always) and the shared janko.at sets
(when present); and the step finders of their constraint rules reach the kernels' fixpoint."""

from __future__ import annotations

import random

import numpy as np
import pytest

from csolve.grading import find_solution, model_values, namer_for, stepper
from csolve.logic import Board, naked_single
from csolve.puzzle import get_puzzle_type

from .helpers import PUZZLES, shared_file
from .test_tactics_soundness import kernel_fixpoint

SHARED = {"kakuro": ("kakuro", "janko-kakuro-500.jsonl"),
          "str8ts": ("str8ts", "janko-str8ts-280.jsonl")}


def bundled(kind):
    ptype = get_puzzle_type(kind)
    path = PUZZLES / kind / "small.txt"
    return ptype, ptype.parse(path.read_text(), str(path))


def shared(kind, k=None, seed=5):
    ptype = get_puzzle_type(kind)
    path = shared_file(*SHARED[kind])
    puzzles = ptype.parse(path.read_text(), str(path))
    return ptype, (puzzles if k is None else random.Random(seed).sample(puzzles, k))


def check_steps_keep_the_solution(ptype, puzzles):
    """Every step's placements and removals agree with the (unique) solution; returns how
    many steps each tactic took, so a test can see the tactics were exercised."""
    used: dict[str, int] = {}
    for p in puzzles:
        count, solution = find_solution(ptype, p)
        if count != 1:  # no known solution to hold the steps to (janko_kakuro_257 has two)
            used["several solutions"] = used.get("several solutions", 0) + 1
            continue
        assert ptype.validate(p, solution) == []
        st = stepper(ptype, p, None, solution)
        want = model_values(ptype, p, st.board.model, solution)
        for step in st.steps():
            used[step.tactic] = used.get(step.tactic, 0) + 1
            for c, v in step.removed:
                assert v != want[c], f"{p.where}: {step.text} removes the solution's value"
            for c, v in step.placed:
                assert v == want[c], f"{p.where}: {step.text} places a wrong value"
        assert st.board.solved()
        got = ptype.decode(p, st.masks())
        assert ptype.validate(p, got) == [] and (got == solution).all()
    return used


@pytest.mark.parametrize("kind", sorted(SHARED))
def test_bundled_puzzles_steps_are_sound(kind):
    ptype, puzzles = bundled(kind)
    used = check_steps_keep_the_solution(ptype, puzzles)
    assert used.get(ptype.constraint_rules[0], 0) > 0


@pytest.mark.parametrize("kind,k", [("kakuro", 15), ("str8ts", 40)])
def test_shared_sample_steps_are_sound(kind, k):
    ptype, puzzles = shared(kind, k)
    used = check_steps_keep_the_solution(ptype, puzzles)
    assert used.get(ptype.constraint_rules[0], 0) > 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(SHARED))
def test_every_shared_puzzle_steps_are_sound(kind):
    ptype, puzzles = shared(kind)
    used = check_steps_keep_the_solution(ptype, puzzles)
    assert used.get("several solutions", 0) <= 1


def finder_fixpoint(ptype, p, model, rule):
    """Naked singles and the rule's finder, applied until neither finds a step."""
    b = Board(model, namer_for(ptype, p))
    for c, x in enumerate(b.cand):
        if x and not x & (x - 1):
            b.settle(c)
    finders = (naked_single, ptype.step_finders()[rule])
    while True:
        for f in finders:
            step = next(f(b), None)
            if step is not None:
                b.apply(step)
                break
        else:
            return np.array(b.cand, dtype=np.uint64)


@pytest.mark.parametrize("kind", sorted(SHARED))
def test_constraint_finders_agree_with_their_kernels(kind):
    ptype, puzzles = bundled(kind)
    try:
        puzzles = puzzles + shared(kind, 10, seed=9)[1]
    except pytest.skip.Exception:
        pass  # the bundled puzzles alone
    (rule,) = ptype.constraint_rules
    for p in puzzles:
        model = ptype.model(p)
        _count, solution = find_solution(ptype, p)
        values = model_values(ptype, p, model, solution)
        rng = random.Random(p.line)
        states = [model.init.copy()]
        for _ in range(2):  # states with a few of the solution's values revealed
            cand = model.init.copy()
            for c in rng.sample(range(model.n_cells), min(3, model.n_cells)):
                cand[c] = np.uint64(1 << (values[c] - 1))
            states.append(cand)
        for cand in states:
            want = kernel_fixpoint(("elimination", rule), cand.copy(), model)
            got = finder_fixpoint(ptype, p, model.with_init(cand), rule)
            assert (got == want).all(), p.where
