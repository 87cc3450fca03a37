"""The learning (CDCL) engine: the same solutions as the generic search, nothing lost or
repeated across budgets, stacks, backends and worker counts; every solution validated."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csolve.engines import all_engines, with_engine
from csolve.errors import OptionError
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, shared_file
from .test_engines import MANY, _count_in_slices, assert_same_unique_answers, blanked, parse

LEARNING = "learning"


def _count(sudoku, p, **options):
    seen: set[bytes] = set()

    def on_solution(sol):
        assert sudoku.validate(p, sol) == []
        seen.add(np.asarray(sol).tobytes())

    r = solve_one(sudoku, p, SolveOptions(limit=0, **options), on_solution=on_solution)
    assert r.exact and r.count == len(seen)
    return seen


def test_registered_by_the_core_and_refused_where_it_cannot_search(sudoku):
    engine = all_engines()[LEARNING]
    assert engine.origin == "core" and engine.scratch
    from csolve.puzzle import get_puzzle_type

    kakuro = get_puzzle_type("kakuro")
    path = PUZZLES / "kakuro"
    k = kakuro.parse(next(path.iterdir()).read_text(), "k")[0]
    with pytest.raises(OptionError, match="cannot search"):
        with_engine(kakuro.model(k), LEARNING)


def test_counts_equal_the_generic_search(sudoku):
    rng = np.random.default_rng(7)
    for text in [blanked(rng, keep) for keep in (30, 26, 24)] + [MANY]:
        (p,) = parse(sudoku, text)
        assert _count(sudoku, p, engine=LEARNING) == _count(sudoku, p, engine="dfs")


def test_shrunk_clauses_lose_no_solution(sudoku):
    """Shrinking takes literals out of learned clauses here, and the count stays exact:
    a clause shrunk wrongly would cut solutions off."""
    from csolve.kernels.learning import SHRUNK
    from csolve.search import SearchState, new_ctrl

    (p,) = parse(sudoku, MANY)
    state = SearchState(with_engine(sudoku.model(p), LEARNING))
    state.push_root()
    ctrl, count = new_ctrl(), 0
    while state.size:
        state.run(ctrl, 0, True, 1 << 20)
        count += state.found
        assert all(sudoku.validate(p, sudoku.decode(p, s)) == [] for s in state.found_solutions())
    assert count == 9182
    assert state.ws.scratch_i64[SHRUNK] > 0


def test_subsumed_clauses_are_retired_and_lose_no_solution(sudoku):
    """A 25x25 with four givens fewer (482 solutions, thousands of conflicts): newer learned
    clauses retire older ones they subsume, reductions drop them, and the count stays
    exact (the depth-first search's): a clause retired while it was still a reason would
    cut solutions off or repeat them."""
    from csolve.kernels.learning import REDUCES, SUBSUMED, _views
    from csolve.search import SearchState, new_ctrl

    path = PUZZLES / "sudoku" / "25x25-generated.txt"
    p = sudoku.parse(path.read_text(), str(path))[0]
    data = p.data.copy()
    data[np.random.default_rng(1).permutation(np.flatnonzero(data))[:4]] = 0
    (p,) = parse(sudoku, " ".join(str(int(v)) for v in data))
    state = SearchState(with_engine(sudoku.model(p), LEARNING))
    state.push_root()
    ctrl, found = new_ctrl(), set()
    while state.size:
        state.run(ctrl, 0, True, 1 << 16)
        for s in state.found_solutions():
            solution = sudoku.decode(p, s)
            assert sudoku.validate(p, solution) == []
            found.add(np.asarray(solution).tobytes())
    scratch = state.ws.scratch_i64
    assert scratch[SUBSUMED] > 0 and scratch[REDUCES] > 0
    assert len(found) == 482  # as the depth-first search counts them
    listed, due = _watched(_views.py_func(state.ws, state.model.kernel))
    assert listed == due  # every clause left watched by its first two literals, once each


def _watched(s):
    """Each live learned clause's watches as (literal, clause start) pairs, read from the
    watch lists (but those of retired clauses, which the watch loop drops when it meets
    them), and as its first two literals say they should be."""
    from csolve.kernels.learning import H_NUM, NCLAUSES, W_SHIFT

    listed = sorted((lit, st) for lit in range(s.w_beg.shape[0])
                    for st in (int(e) >> W_SHIFT
                               for e in s.w_pool[s.w_span[2 * lit]:s.w_span[2 * lit + 1]])
                    if s.arena[st - H_NUM] >= 0)
    due = sorted((int(s.arena[st + k]), int(st)) for st in s.cl_start[:s.sc[NCLAUSES]]
                 if st >= 0 for k in (0, 1))
    return listed, due


def test_watch_lists_packed_afresh_when_their_pool_fills_propagate_the_same(sudoku):
    """Watch lists grow in one pool and are packed afresh from the clauses when it fills,
    even in the middle of a list's visit. Two copies of the engine's state learn the same
    clauses and take the same decisions, one with a pool so small that it fills again and
    again: unit propagation reaches the same fixpoint in both (the same values, or a
    conflict in both), and every clause stays watched by its first two literals."""
    from csolve.kernels import learning as lk
    from csolve.search import SearchState

    (p,) = parse(sudoku, MANY)
    model = with_engine(sudoku.model(p), LEARNING)
    m, V = model.kernel, model.kernel.n_values
    root = SearchState(model)
    root.push_root()
    n_clauses = 300
    states = []
    # packed afresh, the lists take 1.5 words a watch and 2 a list at most: 7 words a clause,
    # so this pool is packed afresh whenever a list outgrows its room
    for pool in (None, 7 * n_clauses):
        s = lk._views.py_func(SearchState(model).ws, m)
        if pool:
            s = s._replace(w_pool=np.zeros(pool, np.int64))
        assert lk._fresh(s, m, V, root.stack[0].copy())
        states.append(s)
    rng = np.random.default_rng(5)
    free = np.flatnonzero(states[0].assign == 0)
    for _ in range(n_clauses):
        lits = 2 * rng.choice(free, size=rng.integers(3, 9), replace=False)
        lits += rng.integers(0, 2, size=lits.size)
        for s in states:
            s.toclear[:lits.size] = lits
            lk._add_clause(s, lits.size, 3)
    conflicts = 0
    for _ in range(200):
        for _ in range(20):
            open_ = np.flatnonzero(states[0].assign == 0)
            if open_.size == 0:
                break
            x, val = rng.choice(open_), (1 if rng.random() < 0.2 else -1)
            results = []
            for s in states:
                lk._new_level(s)
                lk._assign(s, m, V, x, val, lk.NONE, 0)
                results.append(lk._propagate(s, m, V) >= 0)
            assert results[0] == results[1]
            if results[0]:
                conflicts += 1
                break
            assert (states[0].assign == states[1].assign).all()
        for s in states:
            lk._backtrack(s, m, V, 0)
    big, small = states
    assert conflicts > 0 and big.sc[lk.PACKED] == 0 and small.sc[lk.PACKED] > 0
    for s in states:
        listed, due = _watched(s)
        assert listed == due


@pytest.mark.parametrize("max_nodes,stack_capacity", [(1, 2), (3, 4), (200, 90)])
def test_budgets_and_small_stacks_lose_nothing(sudoku, max_nodes, stack_capacity):
    (p,) = parse(sudoku, MANY)
    model = with_engine(sudoku.model(p), LEARNING)
    assert _count_in_slices(model, max_nodes, stack_capacity) == 9182


def test_a_lone_node_asked_to_share_is_cut_in_two_halves_that_hold_all_its_solutions(sudoku):
    from csolve.kernels import abi
    from csolve.search import SearchState, new_ctrl

    (p,) = parse(sudoku, MANY)
    model = with_engine(sudoku.model(p), LEARNING)
    state = SearchState(model)
    state.push_root()
    ctrl = new_ctrl()
    ctrl[abi.CTRL_WANT_WORK] = 1
    assert state.run(ctrl, 0, False, 1000) == abi.WORK_REQUESTED
    assert state.size == 2 and state.found == 0
    halves = state.stack[:2].copy()
    cut = np.flatnonzero(halves[0] != halves[1])
    assert len(cut) == 1  # one cell split, every other cell as in the node
    c = cut[0]
    assert halves[0][c] & halves[1][c] == 0
    assert halves[0][c] | halves[1][c] == model.init[c]
    others = np.arange(len(model.init)) != c
    assert (halves[:, others] == model.init[others]).all()
    counts = [_count_in_slices(model.with_init(h), 100, 90) for h in halves]
    assert min(counts) > 0 and sum(counts) == 9182


@pytest.mark.parametrize("backend,workers", [("serial", 1), ("locked-pool", 2),
                                             ("work-stealing", 3), ("message-passing", 2),
                                             ("interleave", 3)])
def test_every_backend_counts_the_empty_4x4_and_a_9x9(sudoku, backend, workers):
    (empty,) = parse(sudoku, "." * 16)
    (p,) = parse(sudoku, MANY)
    for puzzle, expected in ((empty, 288), (p, 9182)):
        r = solve_one(sudoku, puzzle, SolveOptions(
            limit=0, engine=LEARNING, backend=backend, workers=workers,
            backend_options={"probe": 0.0} if backend != "serial" else {}))
        assert r.count == expected and r.exact


def test_interleaved_searches_cut_a_lone_node_on_one_thread(sudoku):
    """On ``interleave`` the idle search asks the busy one, which holds the single node it
    is searching, to cut it in two; the answers are those of one search alone."""
    path = PUZZLES / "sudoku" / "16x16-generated-minimal.txt"
    puzzles = sudoku.parse(path.read_text(), str(path))
    alone = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, engine=LEARNING)))
    handed = 0
    for p, a in zip(puzzles, alone, strict=True):
        r = solve_one(sudoku, p, SolveOptions(limit=2, engine=LEARNING, backend="interleave",
                                                 workers=2, backend_options={"probe": 0.0}))
        assert (r.status, r.count, r.exact) == (Status.SOLVED, 1, True)
        assert sudoku.validate(p, r.solutions[0]) == []
        assert (r.solutions[0] == a.solutions[0]).all()
        handed += sum(w["handed"] for w in r.stats.workers)
    assert handed > 0


def test_unsolvable_and_limit_two(sudoku):
    dead = "12345678." + "........9" + "." * 63  # cell 8 has no value left
    (p,) = parse(sudoku, dead)
    r = solve_one(sudoku, p, SolveOptions(limit=1, engine=LEARNING))
    assert r.status is Status.NO_SOLUTION
    (q,) = parse(sudoku, MANY)
    r = solve_one(sudoku, q, SolveOptions(limit=2, engine=LEARNING))
    assert r.status is Status.MULTIPLE and r.count == 2 and not r.exact
    assert all(sudoku.validate(q, s) == [] for s in r.solutions)


@pytest.mark.parametrize("name", ["16x16.txt", "16x16-generated-minimal.txt", "25x25.txt",
                                  "25x25-generated.txt"])
def test_bundled_large_puzzles_are_unique_and_valid(sudoku, name):
    path = PUZZLES / "sudoku" / name
    puzzles = sudoku.parse(path.read_text(), str(path))
    for r, p in zip(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, engine=LEARNING)), puzzles,
                    strict=True):
        assert r.status is Status.SOLVED and r.count == 1
        assert sudoku.validate(p, r.solutions[0]) == []


def test_shared_9x9_hard_puzzles_match_the_generic_search(sudoku):
    path = shared_file("sudoku-9x9", "forum-hardest-5000.txt")
    assert_same_unique_answers(sudoku, sudoku.parse(path.read_text(), str(path))[:60], LEARNING)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(17, 40))
def test_random_puzzles_count_the_same(sudoku, seed, keep):
    rng = np.random.default_rng(seed)
    (p,) = parse(sudoku, blanked(rng, keep))
    a = solve_one(sudoku, p, SolveOptions(limit=30, engine=LEARNING))
    b = solve_one(sudoku, p, SolveOptions(limit=30, engine="dfs"))
    assert a.count == b.count and a.status is b.status
    assert all(sudoku.validate(p, s) == [] for s in a.solutions)
