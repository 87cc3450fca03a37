"""Every backend: nothing lost, nothing duplicated, validated answers, clean stops."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from csolve.backends import all_backends
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import shared_file

PARALLEL = [pytest.param(n, marks=pytest.mark.slow) if n == "ray" else n  # tests/test_ray.py
            for n in sorted(n for n, b in all_backends().items() if b.parallel)]
#: 9182 solutions; ~0.02 s serial, a tree of ~19,000 nodes
MANY = "...8.....43...9.87....2..1.2...........91......8....9.....51.....4...1.5.65.4..2."
#: far more solutions than any worker counts in a second: for stop and time-out tests
HEAVY = "53.148.92...29....9.....84." + "." * 54
NO_PROBE = {"probe": 0.0}  # fan out at once, even on small trees


def shared(backend: str, **options) -> SolveOptions:
    """Options that make ``backend`` search from the first node (no probe that could end a
    small tree before the workers see it)."""
    own = {} if backend == "conflict-lock" else NO_PROBE
    return SolveOptions(backend=backend, probe_nodes=0,
                        backend_options={**own, **options.pop("backend_options", {})}, **options)


def one(sudoku, text):
    (p,) = sudoku.parse(text + "\n", "<test>")
    return p


def csolve_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("csolve-")]


@pytest.fixture(scope="module")
def serial_count(sudoku):
    r = solve_one(sudoku, one(sudoku, MANY), SolveOptions(limit=0))
    assert r.exact
    return r.count


def test_every_parallel_backend_is_registered():
    names = {n for n in PARALLEL if isinstance(n, str)}
    assert {"locked-pool", "coarse-lock", "message-passing", "work-stealing",
            "static-partition", "path-stack", "conflict-lock", "process-pool"} <= names
    for b in all_backends().values():
        assert b.name and b.origin and b.description


@pytest.mark.parametrize("backend", PARALLEL)
@pytest.mark.parametrize("workers", [1, 2, pytest.param(3, marks=pytest.mark.slow),
                                     pytest.param(4, marks=pytest.mark.slow)])
def test_exact_counts_on_every_backend(sudoku, backend, workers, serial_count):
    empty = one(sudoku, "." * 16)
    r = solve_one(sudoku, empty, shared(backend, limit=0, workers=workers))
    assert (r.count, r.exact) == (288, True)
    r = solve_one(sudoku, one(sudoku, MANY),
                     shared(backend, limit=0, workers=workers))
    assert (r.count, r.exact) == (serial_count, True)
    assert sum(w["nodes"] for w in r.stats.workers) == r.stats.nodes
    assert not csolve_threads()


def test_an_idle_work_stealer_looks_again_only_when_a_chunk_is_published(monkeypatch):
    """An idle worker that found nothing to steal waits until a chunk is published (or the
    search ends) before it looks again: with hundreds of workers on two cores, workers
    that looked again on every wake kept the idle count short of all, and a count never
    ended. Each worker going back to looking is recorded with the chunks waiting then
    (read under the team's lock): never none."""
    from importlib import import_module

    import csolve

    team_class = import_module("csolve.backends.threads").Team
    go_busy = team_class.go_busy
    waiting: list[int] = []

    def recorded(team, w):
        waiting.append(team.pending)
        go_busy(team, w)

    monkeypatch.setattr(team_class, "go_busy", recorded)
    r = csolve.count("str8ts", "." * 25, backend="work-stealing", workers=64, probe=0)
    assert (r.count, r.exact) == (161280, True)
    assert waiting and min(waiting) > 0


@pytest.mark.parametrize("backend", ["work-stealing", "locked-pool", "path-stack",
                                     "static-partition"])
def test_hundreds_of_workers_on_few_cores_end_with_the_exact_count(backend):
    """Idle workers wait for work instead of looking again on every wake: with 1,024
    workers on two cores, work-stealing's lookers kept the idle count short of all and the
    search never ended (the time limit only stops a search that would not end)."""
    import csolve

    empty = "." * 25  # a 5x5 Str8ts grid with no black cells: 161,280 solutions
    serial = csolve.count("str8ts", empty)
    assert serial.exact and serial.count == 161280
    r = csolve.count("str8ts", empty, backend=backend, workers=1024, timeout=300, probe=0)
    assert (r.count, r.exact, r.end.value) == (serial.count, True, "exhausted")
    assert not csolve_threads()


@pytest.mark.parametrize("wait", ["spin", "yield", "condvar"])
def test_message_passing_waits_count_exactly(sudoku, wait, serial_count):
    r = solve_one(sudoku, one(sudoku, MANY),
                     SolveOptions(limit=0, backend="message-passing", workers=3,
                                  backend_options={"wait": wait, "probe": 0.0}))
    assert (r.count, r.exact) == (serial_count, True)


@pytest.mark.parametrize("backend", PARALLEL)
def test_all_mode_streams_each_solution_once(sudoku, backend):
    p = one(sudoku, "." * 16)
    seen = []
    caller = threading.current_thread()

    def on_solution(s):
        assert threading.current_thread() is caller
        assert sudoku.validate(p, s) == []
        seen.append(tuple(np.asarray(s).ravel().tolist()))

    r = solve_one(sudoku, p, shared(backend, limit=0, workers=2),
                     on_solution=on_solution)
    assert r.count == 288 and len(seen) == 288 and len(set(seen)) == 288


@pytest.mark.parametrize("backend", PARALLEL)
def test_first_solution_is_validated(sudoku, backend):
    for text in (MANY, HEAVY):
        p = one(sudoku, text)
        r = solve_one(sudoku, p, shared(backend, limit=1, workers=2))
        assert r.status is Status.SOLVED and r.count == 1 and len(r.solutions) == 1
        assert sudoku.validate(p, r.solutions[0]) == []
    assert not csolve_threads()


@pytest.mark.parametrize("backend", PARALLEL)
def test_limit_counts_exactly_that_many(sudoku, backend):
    r = solve_one(sudoku, one(sudoku, MANY),
                     shared(backend, limit=1000, workers=2, keep=3))
    assert r.count == 1000 and not r.exact and len(r.solutions) == 3


def clock_runs_out(monkeypatch, then=None) -> None:
    """Replace the jobs' clock with one that reads "time is up" from its second look on (no
    wall clock: a backend that stops looking searches on, and the test sees it). With
    ``then``, the second look calls ``then()`` and time never runs out instead."""
    from csolve.backends import SearchJob

    looks: list[int] = []

    def timed_out(self: SearchJob) -> bool:
        looks.append(1)
        if len(looks) < 2:
            return False
        if then is None:
            return True
        then()
        return False

    monkeypatch.setattr(SearchJob, "timed_out", timed_out)


@pytest.mark.parametrize("backend", PARALLEL)
def test_timeout_stops_every_worker(sudoku, backend, monkeypatch):
    clock_runs_out(monkeypatch)
    r = solve_one(sudoku, one(sudoku, HEAVY),
                  shared(backend, limit=0, workers=2, timeout=3600.0))
    assert r.status is Status.TIMEOUT and not r.exact
    assert not csolve_threads()


def test_interleave_grows_a_turns_step_only_on_calls_that_used_it_all(sudoku, monkeypatch):
    """A call that returns early (work asked for, a stop) says nothing about how long a
    step takes: doubling on those grew a turn's step to seconds a call, and a time-out
    waited for the call to end (--timeout 2 ended after 2.9 s)."""
    from importlib import import_module

    from csolve.kernels import abi

    interleave = import_module("csolve.backends.interleave").Interleave
    calls = []
    run = interleave._run

    def recorded(job, t, turns, count, kept):
        before = t.step
        out = run(job, t, turns, count, kept)
        calls.append((out[2], before, t.step))
        return out

    monkeypatch.setattr(interleave, "_run", staticmethod(recorded))
    r = solve_one(sudoku, one(sudoku, MANY), shared("interleave", limit=0, workers=3))
    assert r.exact and any(code != abi.BUDGET for code, _, _ in calls)
    assert all(after <= before for code, before, after in calls if code != abi.BUDGET)


@pytest.mark.parametrize("backend", ["work-stealing", "locked-pool", "message-passing",
                                     "static-partition"])
def test_a_stop_while_solutions_stream_ends_the_search(backend):
    """Streaming solutions (``--all``, ``on_solution``), the calling thread delivered them
    until the queue was empty and only then looked at the stop flag and the clock: with
    millions streaming, Ctrl-C and --timeout did nothing. Here the callback raises the stop
    flag after 2,000 solutions of an empty grid (more than any run could count); run in a
    child process, so that a search that does not stop fails the test instead of hanging it.
    The callback is slow, as a slow reader of ``--all`` is: the workers found solutions
    without bound ahead of it (gigabytes), and the count took in those never delivered."""
    script = f"""
import time
import csolve
from csolve.backends.threads import STREAM_AHEAD
ctrl = csolve.new_ctrl()
seen = [0]
def on_solution(puzzle, solution):
    seen[0] += 1
    time.sleep(0.0002)
    if seen[0] == 2000:
        ctrl[0] = 1
(r,) = csolve.Solver("sudoku", count=True, backend="{backend}", workers=2, probe=0).iter_solve(
    ["." * 81], on_solution=on_solution, ctrl=ctrl)
ahead = r.stats.solutions - seen[0]  # found and never delivered
print(r.end.value, r.exact, seen[0] >= 2000, r.count == seen[0],
      ahead <= STREAM_AHEAD + 2 * (64 + 1))
"""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["stopped", "False", "True", "True", "True"], r.stdout


def thread_backends() -> list[str]:
    from importlib import import_module

    threaded = import_module("csolve.backends.threads").ThreadedBackend
    return sorted(n for n, b in all_backends().items() if isinstance(b, threaded))


@pytest.mark.parametrize("backend", thread_backends())
def test_no_worker_searches_before_every_worker_is_started(sudoku, backend, monkeypatch):
    """A thread's start waits for it to run, which behind workers already searching (more
    of them than cores) took longer with each one: 128 workers on two cores took 10 s to
    start, their time limit long past."""
    from csolve.search import SearchState

    started, searched, early = [], [], []
    real_start, real_run = threading.Thread.start, SearchState.run

    def start(self):
        if self.name.startswith("csolve-"):
            started.append(self.name)
        real_start(self)

    def run(self, *args, **kwargs):
        if threading.current_thread().name.startswith("csolve-"):  # a worker's search
            searched.append(1)
            if len(started) < 6:
                early.append(threading.current_thread().name)
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(threading.Thread, "start", start)
    monkeypatch.setattr(SearchState, "run", run)
    r = solve_one(sudoku, one(sudoku, MANY), shared(backend, limit=0, workers=6))
    assert r.exact and len(started) == 6 and searched and early == []


def test_process_pool_refuses_more_processes_than_the_machine_can_hold(sudoku):
    """Said before any work: an easy first puzzle gets no answer before the refusal."""
    from csolve.backends import get_backend
    from csolve.backends.processes import PROCESSES_PER_CORE
    from csolve.defaults import MAX_WORKERS, cores
    from csolve.errors import OptionError

    most = PROCESSES_PER_CORE * cores()
    pool = get_backend("process-pool")
    pool.check_workers(most)
    with pytest.raises(OptionError, match=f"{most + 1} workers is more than"):
        pool.check_workers(most + 1)
    if most + 1 <= MAX_WORKERS:
        easy_then_heavy = [one(sudoku, MANY), one(sudoku, HEAVY)]
        answers = []
        with pytest.raises(OptionError):
            for block in solve_puzzles(sudoku, easy_then_heavy,
                                       shared("process-pool", limit=0, workers=most + 1)):
                answers.append(block)
        assert answers == []


def test_a_ctrl_c_while_the_workers_start_stops_those_started(sudoku, monkeypatch):
    real_start = threading.Thread.start
    started = []

    def start(self):
        if self.name.startswith("csolve-") and len(started) == 3:
            raise KeyboardInterrupt
        started.append(self.name)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    with pytest.raises(KeyboardInterrupt):
        solve_one(sudoku, one(sudoku, HEAVY), shared("locked-pool", limit=0, workers=6))
    assert len(started) == 3 and not csolve_threads()


@pytest.mark.parametrize("backend", ["locked-pool", "message-passing"])
def test_external_stop_flag_stops_every_worker(sudoku, backend, monkeypatch):
    from csolve.kernels import abi
    from csolve.search import new_ctrl

    ctrl = new_ctrl()
    clock_runs_out(monkeypatch, then=lambda: ctrl.__setitem__(abi.CTRL_STOP, 1))
    r = solve_one(sudoku, one(sudoku, HEAVY),
                  shared(backend, limit=0, workers=2, timeout=3600.0), ctrl=ctrl)
    assert r.status is Status.INTERRUPTED and not r.exact
    assert not csolve_threads()


def test_batch_on_threads_matches_serial_in_input_order(sudoku):
    path = shared_file("sudoku-9x9", "kaggle-2000.txt")
    puzzles = sudoku.parse(path.read_text(), str(path))[:300]
    serial = list(solve_puzzles(sudoku, puzzles))
    threaded = list(solve_puzzles(sudoku, puzzles, SolveOptions(backend="locked-pool", workers=2)))
    assert [r.puzzle.where for r in threaded] == [p.where for p in puzzles]
    for a, b in zip(serial, threaded, strict=True):
        assert a.status == b.status and a.count == b.count
        assert sudoku.validate(b.puzzle, b.solutions[0]) == []
    assert not csolve_threads()


def test_batch_count_on_threads(sudoku):
    puzzles = sudoku.parse(("." * 16 + "\n") * 5 + MANY + "\n", "<test>")
    results = list(solve_puzzles(sudoku, puzzles,
                                 SolveOptions(limit=0, backend="locked-pool", workers=3)))
    assert [r.count for r in results] == [288] * 5 + [9182]


@pytest.mark.slow
@pytest.mark.parametrize("backend", PARALLEL)
def test_stress_counts_many_times(sudoku, backend, serial_count):
    p = one(sudoku, MANY)
    for i in range(40):
        workers = 2 + i % 3
        r = solve_one(sudoku, p, shared(backend, limit=0, workers=workers))
        assert (r.count, r.exact) == (serial_count, True), (backend, workers, i)
    assert not csolve_threads()


@pytest.mark.parametrize("backend", ["serial", "conflict-lock"])
def test_a_puzzle_propagation_solves_takes_one_node(sudoku, backend):
    """The root is a node on every backend: a puzzle its propagation solves took one."""
    puzzle = one(sudoku, "1234341221434.21")
    options = (SolveOptions(backend="serial", probe_nodes=0) if backend == "serial"
               else shared(backend, workers=1))
    r = solve_one(sudoku, puzzle, options)
    assert r.count == 1 and sudoku.validate(puzzle, r.solutions[0]) == []
    assert (r.stats.nodes, r.stats.guesses) == (1, 0)
    if backend == "conflict-lock":
        assert sum(w["nodes"] for w in r.stats.workers) == 1


@pytest.mark.parametrize("backend", ["conflict-lock", "path-stack"])
def test_loading_a_backends_own_kernel_is_not_charged_to_the_time_limit(sudoku, backend,
                                                                         monkeypatch):
    # conflict-lock and path-stack call the propagation kernel themselves; on a first run
    # it compiled inside the puzzle's time limit, and a 2 s limit searched a third as much
    import importlib

    module = importlib.import_module("csolve.backends." + (
        "conflict" if backend == "conflict-lock" else "sharing"))
    loaded = threading.Event()
    real = module.root_propagated

    def slow_first_load(*args):
        if not loaded.is_set():
            loaded.set()
            threading.Event().wait(2.0)  # a compile
        return real(*args)

    monkeypatch.setattr(module, "root_propagated", slow_first_load)
    puzzle = one(sudoku, MANY)
    limit = 1 if backend == "conflict-lock" else 0  # (the stack is set up past the probe)
    r = solve_one(sudoku, puzzle, shared(backend, limit=limit, workers=2, timeout=1.5))
    assert loaded.is_set()
    assert r.exact or r.count == 1, r.end
    assert r.solutions and sudoku.validate(puzzle, r.solutions[0]) == []
    assert r.stats.seconds < 2.0  # the load is not the search's time


def test_the_pool_managers_error_on_a_cancelled_future_is_not_printed(monkeypatch):
    """Python 3.11's pool manager thread raises InvalidStateError when a worker dies after
    futures were cancelled (a stop, then SIGTERM to the job): it printed a traceback after
    "csolve: terminated". That one error of that thread is dropped; others still go to the
    hook before (which prints them)."""
    from concurrent.futures import InvalidStateError

    from csolve.backends.processes import _drop_the_cancelled_future_race

    seen = []
    monkeypatch.setattr(threading, "excepthook",
                        lambda args: seen.append((type(args.thread).__name__, args.exc_type)))
    _drop_the_cancelled_future_race()

    def raising(name: str, error: type) -> None:
        def run(self) -> None:
            raise error("CANCELLED: <Future state=cancelled>")

        thread = type(name, (threading.Thread,), {"run": run})()
        thread.start()
        thread.join()

    raising("_ExecutorManagerThread", InvalidStateError)
    raising("_ExecutorManagerThread", RuntimeError)
    raising("AnotherThread", InvalidStateError)
    assert seen == [("_ExecutorManagerThread", RuntimeError),
                    ("AnotherThread", InvalidStateError)]
