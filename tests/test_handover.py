"""A puzzle the model's own search gives up on moves to the clause-learning engine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csolve.backends import all_backends
from csolve.defaults import ESCALATE_AFTER, ESCALATE_AFTER_LARGE
from csolve.solver import TAKEOVER_ONE_CORE, SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES

BUDGET = 3  # nodes: some of the generated 9x9 puzzles need more, some fewer
#: a 9x9 with 5,925,253 solutions
UNDER = "5..........2.95.....8....6........2.....53..1....2........3.2.4......6.5.4.2....."
#: the parallel backends that search with the model's engine (conflict-lock does not)
SHARING = [pytest.param(n, marks=pytest.mark.slow) if n == "ray" else n  # tests/test_ray.py
           for n in sorted(n for n, b in all_backends().items()
                           if b.parallel and n != "conflict-lock")]


@pytest.fixture(scope="module")
def evil(sudoku):
    path = PUZZLES / "sudoku" / "9x9-generated-minimal.txt"
    return sudoku.parse(path.read_text(), str(path))


@pytest.fixture(scope="module")
def own(sudoku, evil):
    """Every puzzle searched by the model's own engine alone."""
    return list(solve_puzzles(sudoku, evil, SolveOptions(escalate_after=0)))


def assert_handed_over_past_the_budget(sudoku, own, results):
    moved = 0
    for alone, r in zip(own, results, strict=True):
        assert r.status is Status.SOLVED
        assert sudoku.validate(r.puzzle, r.solutions[0]) == []
        assert (r.solutions[0] == alone.solutions[0]).all()  # each puzzle has one solution
        if alone.stats.nodes > BUDGET:
            assert (r.engine, r.took_over_from) == ("learning", "sudoku9-bands")
            moved += 1
        else:
            assert (r.engine, r.took_over_from) == ("sudoku9-bands", "")
    assert 0 < moved < len(results)


def test_own_engine_alone(own):
    assert {(r.engine, r.took_over_from) for r in own} == {("sudoku9-bands", "")}
    assert max(r.stats.nodes for r in own) > BUDGET >= min(r.stats.nodes for r in own)


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_hands_over_the_puzzles_past_the_budget(sudoku, evil, own, workers):
    done = []
    options = SolveOptions(escalate_after=BUDGET, workers=workers,
                           backend="locked-pool" if workers > 1 else "serial")
    # the puzzles the batch settles first: they go out before the first hand-over ends
    settled_first = sorted(range(len(evil)), key=lambda k: own[k].stats.nodes > BUDGET)
    puzzles = [evil[k] for k in settled_first]
    results = []
    for r in solve_puzzles(sudoku, puzzles, options, progress=done.append):
        results.append(r)  # a result goes out once the count says it is done: the progress
        assert done and done[-1] >= len(results)  # bar never shows fewer than are printed
    assert_handed_over_past_the_budget(sudoku, [own[k] for k in settled_first], results)
    assert done[-1] == len(evil) and done == sorted(set(done))


def test_one_puzzle_is_handed_over_on_the_serial_backend(sudoku, evil, own):
    results = [solve_one(sudoku, p, SolveOptions(escalate_after=BUDGET)) for p in evil]
    assert_handed_over_past_the_budget(sudoku, own, results)


@pytest.mark.parametrize("backend", SHARING)
def test_a_parallel_search_is_handed_over_once_the_workers_spent_the_budget(
        sudoku, evil, own, backend):
    """The probe is off: the search fans out after its first slice (the budget's 3 nodes),
    so the workers, not the probe, see the budget spent."""
    options = SolveOptions(backend=backend, workers=2, escalate_after=BUDGET,
                           backend_options={"probe": 0.0})
    results = [solve_one(sudoku, p, options) for p in evil]
    assert_handed_over_past_the_budget(sudoku, own, results)


def test_on_one_core_the_learning_engine_takes_over_as_one_search(sudoku):
    """Three of the bundled evil 16x16 puzzles need more than the default budget of
    depth-first nodes; on one worker one learning search takes each over, the same search
    as the engine's alone."""
    backend, searches, options = TAKEOVER_ONE_CORE
    assert (backend, searches, options) == ("serial", 1, {})
    path = PUZZLES / "sudoku" / "16x16-generated-minimal.txt"
    puzzles = sudoku.parse(path.read_text(), str(path))
    moved = 0
    for p in puzzles:
        alone = solve_one(sudoku, p, SolveOptions(engine="learning"))
        for name in ("serial", "interleave"):  # one worker on a sharing backend too
            r = solve_one(sudoku, p, SolveOptions(backend=name, workers=1,
                                                  backend_options={"probe": 0.0}
                                                  if name != "serial" else {}))
            assert (r.status, r.count) == (Status.SOLVED, 1)
            assert sudoku.validate(p, r.solutions[0]) == []
            if r.took_over_from:
                moved += 1
                assert r.engine == "learning" and r.backend == "serial"
                assert len(r.stats.workers) == 1
                # the learning search from the root, as the engine searches alone
                assert (r.stats.nodes, r.stats.backtracks) == (alone.stats.nodes,
                                                               alone.stats.backtracks)
    assert moved == 6  # three puzzles, two backends


def test_a_handed_over_uniqueness_check_is_exact(sudoku, evil, own):
    hard = next(p for p, r in zip(evil, own, strict=True) if r.stats.nodes > BUDGET)
    r = solve_one(sudoku, hard, SolveOptions(limit=2, escalate_after=BUDGET))
    assert (r.engine, r.status, r.count, r.exact) == ("learning", Status.SOLVED, 1, True)


@pytest.mark.parametrize("options", [
    SolveOptions(engine="sudoku9-bands", escalate_after=BUDGET),  # an engine was named
    SolveOptions(engine="dfs", escalate_after=BUDGET),
    SolveOptions(limit=0, escalate_after=BUDGET),  # count them all: depth-first stays
    SolveOptions(limit=3, escalate_after=BUDGET),  # count up to three: depth-first stays
    SolveOptions(backend="conflict-lock", workers=2, escalate_after=BUDGET),  # no engine
])
def test_no_hand_over_when_not_asked_for(sudoku, evil, own, options):
    for p, alone in zip(evil, own, strict=True):
        r = solve_one(sudoku, p, options)
        assert not r.took_over_from and r.engine != "learning"
        assert r.count == 1 and (r.solutions[0] == alone.solutions[0]).all()


def test_cli_json_names_the_engine():
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku",
                        str(PUZZLES / "sudoku" / "9x9-hard.txt"), "--output", "json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows and {row["engine"] for row in rows} == {"sudoku9-bands"}
    assert not any("took_over_from" in row for row in rows)


def test_a_count_of_many_solutions_stays_with_depth_first_search(sudoku):
    """Past the node budget a puzzle with many solutions is still no hard one: a count
    beyond two solutions is not handed to the learning engine."""
    (p,) = sudoku.parse(UNDER + "\n", "<under>")
    r = solve_one(sudoku, p, SolveOptions(limit=50_000, escalate_after=1_000))
    assert (r.engine, r.backend, r.count, r.took_over_from) == ("sudoku9-bands", "serial",
                                                                50_000, "")
    assert sudoku.validate(p, r.solutions[0]) == []


@pytest.mark.parametrize("name, given, budget", [
    ("9x9-hard.txt", None, ESCALATE_AFTER),
    ("16x16.txt", None, ESCALATE_AFTER),
    ("25x25.txt", None, ESCALATE_AFTER_LARGE),  # a node costs far more there
    ("25x25.txt", ESCALATE_AFTER, ESCALATE_AFTER),  # a budget given is the budget
    ("25x25.txt", 0, 0),  # never
])
def test_the_depth_first_budget_goes_by_the_grid_s_size(sudoku, monkeypatch, name, given,
                                                         budget):
    from csolve.backends.serial import SerialBackend

    budgets = []
    solve_group = SerialBackend.solve_group

    def spy(self, job):
        budgets.append(job.node_budget)
        return solve_group(self, job)

    monkeypatch.setattr(SerialBackend, "solve_group", spy)
    path = PUZZLES / "sudoku" / name
    puzzles = sudoku.parse(path.read_text(), str(path))
    for r in solve_puzzles(sudoku, puzzles, SolveOptions(escalate_after=given)):
        assert r.status is Status.SOLVED
        assert sudoku.validate(r.puzzle, r.solutions[0]) == []
    assert budgets == [budget]


def test_a_negative_depth_first_budget_is_refused():
    """0 means "never hand over"; below that is a mistake, said as for limit and timeout."""
    import csolve
    from csolve.errors import OptionError

    with pytest.raises(OptionError, match="escalate_after must be 0"):
        csolve.Solver("sudoku", escalate_after=-1)


def test_the_one_core_take_over_can_be_chosen(sudoku):
    """``SolveOptions.takeover`` names another way to take a puzzle over on one core (what
    benchmarks/bench_heavy_tail.py --takeovers compares): here two interleaved searches."""
    path = PUZZLES / "sudoku" / "16x16-generated-minimal.txt"
    moved = 0
    for p in sudoku.parse(path.read_text(), str(path)):
        r = solve_one(sudoku, p, SolveOptions(takeover=("interleave", 2, {"probe": "0"})))
        assert (r.status, r.count) == (Status.SOLVED, 1)
        assert sudoku.validate(p, r.solutions[0]) == []
        if r.took_over_from:
            moved += 1
            assert (r.engine, r.backend, len(r.stats.workers)) == ("learning", "interleave", 2)
    assert moved == 3
