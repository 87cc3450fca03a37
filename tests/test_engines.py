"""Search engines: the 9x9 bitboard engine finds exactly what the generic search finds.

Counts of under-constrained puzzles must agree solution for solution (nothing lost, nothing
duplicated) whatever the engine, node budget, stack size or backend; every solution is
validated against the givens.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csolve.engines import all_engines, with_engine
from csolve.errors import OptionError, UnknownNameError
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, shared_file

#: a solved grid; puzzles below blank parts of it
GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
MANY = "...8.....43...9.87....2..1.2...........91......8....9.....51.....4...1.5.65.4..2."


def parse(sudoku, *texts):
    return sudoku.parse("".join(t + "\n" for t in texts), "<test>")


def blanked(rng: np.random.Generator, keep: int) -> str:
    cells = list(GRID)
    for i in rng.permutation(81)[keep:]:
        cells[i] = "."
    return "".join(cells)


def test_the_sudoku_plugin_registers_its_engine_and_9x9_uses_it(sudoku):
    assert "sudoku9-bands" in all_engines()
    nine, sixteen = (sudoku.parse(p.read_text(), str(p))[0]
                     for p in (PUZZLES / "sudoku" / "9x9-hard.txt",
                               PUZZLES / "sudoku" / "16x16.txt"))
    assert sudoku.model(nine).engine == "sudoku9-bands"
    assert sudoku.model(nine, ("elimination", "hidden-single")).engine == ""  # rules chosen
    assert sudoku.model(sixteen).engine == ""
    with pytest.raises(OptionError, match="cannot search") as e:  # known, but not for this
        with_engine(sudoku.model(sixteen), "sudoku9-bands")
    assert not isinstance(e.value, UnknownNameError)
    with pytest.raises(UnknownNameError, match="unknown engine"):
        with_engine(sudoku.model(nine), "no-such-engine")


@pytest.mark.parametrize("keep", [30, 26, pytest.param(24, marks=pytest.mark.slow)])
def test_counts_equal_the_generic_search(sudoku, keep):
    rng = np.random.default_rng(keep)
    for text in [blanked(rng, keep) for _ in range(4)] + [MANY]:
        (p,) = parse(sudoku, text)
        counts = {}
        for engine in ("dfs", "sudoku9-bands"):
            seen: set[bytes] = set()

            def on_solution(sol, seen=seen, p=p):
                assert sudoku.validate(p, sol) == []
                seen.add(np.asarray(sol).tobytes())

            r = solve_one(sudoku, p, SolveOptions(limit=0, engine=engine),
                             on_solution=on_solution)
            assert r.exact and len(seen) == r.count
            counts[engine] = (r.count, seen)
        assert counts["dfs"] == counts["sudoku9-bands"]


def _count_in_slices(model, max_nodes: int, stack_capacity: int) -> int:
    state = SearchState(model, solution_capacity=4, stack_capacity=stack_capacity)
    state.push_root()
    ctrl = new_ctrl()
    total = 0
    while True:
        r = state.run(ctrl, 0, False, max_nodes)
        total += state.found
        if r == abi.EXHAUSTED:
            return total
        assert r == abi.BUDGET
        # every node the engine left on the stack is back in cell-mask form
        assert (state.dirty[: state.size] >= -1).all()


@pytest.mark.parametrize("max_nodes,stack_capacity", [(1, 2), (3, 4), (50, 90)])
def test_budgets_and_small_stacks_lose_nothing(sudoku, max_nodes, stack_capacity):
    (p,) = parse(sudoku, MANY)
    whole = solve_one(sudoku, p, SolveOptions(limit=0)).count
    model = sudoku.model(p)
    assert model.engine == "sudoku9-bands"
    assert _count_in_slices(model, max_nodes, stack_capacity) == whole == 9182


@pytest.mark.parametrize("backend", ["locked-pool", "work-stealing", "message-passing"])
def test_parallel_backends_share_engine_nodes(sudoku, backend):
    (p,) = parse(sudoku, MANY)
    r = solve_one(sudoku, p, SolveOptions(limit=0, backend=backend, workers=2,
                                             backend_options={"probe": 0.0}))
    assert r.count == 9182 and r.exact


def test_unsolvable_and_limit_two(sudoku):
    dead = "12345678." + "........9" + "." * 63  # cell 8 has no value left
    (p,) = parse(sudoku, dead)
    assert solve_one(sudoku, p, SolveOptions(limit=1)).status is Status.NO_SOLUTION
    (q,) = parse(sudoku, MANY)
    r = solve_one(sudoku, q, SolveOptions(limit=2))
    assert r.status is Status.MULTIPLE and r.count == 2 and not r.exact


def assert_same_unique_answers(sudoku, puzzles, engine: str | None) -> None:
    """``engine`` (None: the puzzle's own choice) proves each puzzle unique with the same
    solution as the generic search."""
    fast = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, engine=engine)))
    slow = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, engine="dfs")))
    for a, b in zip(fast, slow, strict=True):
        assert a.status is b.status is Status.SOLVED and a.count == b.count == 1
        assert np.array_equal(a.solutions[0], b.solutions[0])


def test_shared_hard_sets_match_the_generic_search(sudoku):
    path = shared_file("sudoku-9x9", "top1465.txt")
    assert_same_unique_answers(sudoku, sudoku.parse(path.read_text(), str(path))[:150], None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(17, 40))
def test_random_puzzles_count_the_same(sudoku, seed, keep):
    rng = np.random.default_rng(seed)
    (p,) = parse(sudoku, blanked(rng, keep))
    a = solve_one(sudoku, p, SolveOptions(limit=50))
    b = solve_one(sudoku, p, SolveOptions(limit=50, engine="dfs"))
    assert a.count == b.count and a.status is b.status
    assert all(sudoku.validate(p, s) == [] for s in a.solutions)
