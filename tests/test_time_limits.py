"""A time limit is a promise on every backend, with the learning engine too.

No wall clock is read here: the job's clock is replaced by one that reads "time is up" from
its second look on (the first lets the small-puzzle probe run a single step), so a backend
that stops looking at the clock anywhere - in its set-up, in its workers - searches on and
solves the puzzle, which the test sees as a wrong status.
"""

from __future__ import annotations

import itertools
import json
import threading

import pytest

import csolve.batch
from csolve.backends import SearchJob, all_backends
from csolve.solver import SolveOptions, Status, solve_one

from .helpers import PUZZLES, shared_file
from .helpers import run_cli as run_program

BACKENDS = [pytest.param(n, marks=pytest.mark.slow) if n == "ray" else n  # tests/test_ray.py
            for n in sorted(all_backends())]


@pytest.fixture(scope="module")
def frisch(sudoku):
    """Frisch's fourth minimal 25x25: seconds of clause learning, never a handful of steps."""
    path = shared_file("sudoku-nxn", "25x25-frisch-minimal-9.txt")
    return sudoku.parse(path.read_text(), str(path))[3]


def csolve_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("csolve-")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_is_up_stops_every_backend_with_the_learning_engine(sudoku, frisch, backend,
                                                                   monkeypatch):
    looks: list[int] = []

    def timed_out(self: SearchJob) -> bool:
        looks.append(1)
        return len(looks) >= 2

    monkeypatch.setattr(SearchJob, "timed_out", timed_out)
    # the batch kernel's watcher (the serial backend's path) reads this clock: two hours a look
    ticks = itertools.count(0.0, 7200.0)
    monkeypatch.setattr(csolve.batch, "_now", lambda: next(ticks))
    own = {"probe": 0.0} if "probe" in all_backends()[backend].options else {}
    r = solve_one(sudoku, frisch, SolveOptions(
        backend=backend, workers=2, engine="learning", timeout=3600.0, backend_options=own))
    assert r.status is Status.TIMEOUT and not r.solutions and r.count == 0
    assert len(looks) >= 2 or backend == "serial"  # the clock was looked at after the start
    assert not csolve_threads()


def test_a_takeover_by_the_learning_engine_keeps_the_time_limit(sudoku, frisch, monkeypatch):
    """The puzzle moves from depth-first search to the learning engine after 200 nodes; the
    engine's search is stopped when time is up, on a parallel backend with set-up work."""
    looks: list[int] = []

    def timed_out(self: SearchJob) -> bool:
        looks.append(1)
        return self.model.engine == "learning" and len(looks) >= 3

    monkeypatch.setattr(SearchJob, "timed_out", timed_out)
    r = solve_one(sudoku, frisch, SolveOptions(
        backend="static-partition", workers=2, timeout=3600.0, escalate_after=200,
        backend_options={"probe": 0.0}))
    assert r.status is Status.TIMEOUT and r.took_over_from == "dfs" and r.engine == "learning"
    assert not csolve_threads()


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_program(*args)


def _time_is_up_at_once(monkeypatch) -> None:
    """The search's clocks say "time is up" at once (the batch kernel's watcher: two hours
    a look)."""
    monkeypatch.setattr(SearchJob, "timed_out", lambda self: True)
    ticks = itertools.count(0.0, 7200.0)
    monkeypatch.setattr(csolve.batch, "_now", lambda: next(ticks))


@pytest.mark.parametrize("command,output,done", [
    ("explain", "json", "explained"), ("rate", "json", "rated"), ("hint", "json", "given a hint"),
    ("explain", "svg", "explained"), ("explain", "html", "explained")])
def test_explain_and_rate_keep_the_time_limit_while_searching(tmp_path, frisch, monkeypatch,
                                                             command, output, done):
    """Frisch's puzzle: its search (batch kernel, then the learning engine) looks at the
    replaced clocks, which say "time is up" at once. stderr says so too: the output may be
    a file."""
    _time_is_up_at_once(monkeypatch)
    path = tmp_path / "frisch.txt"
    path.write_text(" ".join(str(int(v)) for v in frisch.data) + "\n")
    code, out, err = run_program(command, "sudoku", str(path), "--timeout", "60",
                                 "--output", output)
    assert code == 3, err
    if output in ("svg", "html"):  # the puzzle named, as render names one (after a note that
        # the kernels compile, where the cache is cold)
        assert err.endswith(f"{path}:1: timeout: no answer within 60 s, drawn as given\n")
        assert err.count("drawn as given") == 1
    else:
        assert f"csolve: 1 of 1 puzzle not {done} within --timeout 60 s" in err
    if output == "json":
        objs = [json.loads(line) for line in out.splitlines()]
        assert objs == [{"puzzle": 1, "line": 1, "status": "timeout"}]
    elif output == "svg":  # the puzzle drawn as given, inside the one document
        assert out.count("<svg") == 2
    else:  # and on a page, under a heading that says why
        assert out.count("<svg") == 1 and f"<h2>{path}:1: timeout</h2>" in out


def test_render_solve_keeps_the_time_limit(tmp_path, frisch, monkeypatch):
    _time_is_up_at_once(monkeypatch)
    path = tmp_path / "frisch.txt"
    path.write_text(" ".join(str(int(v)) for v in frisch.data) + "\n")
    code, out, err = run_program("render", "sudoku", str(path), "--solve", "--timeout", "60")
    assert code == 3, err
    assert f"{path}:1: not solved: timeout, drawn as given" in err and "<svg" in out
    code, _, err = run_program("render", "sudoku", str(path), "--timeout", "60")
    assert code == 2 and "--timeout goes with --solve" in err


@pytest.mark.parametrize("command", ["explain", "rate"])
def test_compiling_kernels_is_not_counted_against_the_steps(capsys, monkeypatch, command):
    """The same hour at each look, all of it spent compiling kernels (as a first run's
    tactic kernels are): the steps' clock leaves it out, as a search's does."""
    import csolve.grading as grading
    from csolve.kernels import diskcache

    class Clock:
        now = 0.0

        def monotonic(self) -> float:
            self.now += 3600.0
            diskcache.compile_seconds += 3600.0
            return self.now

    monkeypatch.setattr(diskcache, "compile_seconds", diskcache.compile_seconds)
    monkeypatch.setattr(grading, "time", Clock())
    hard = str(PUZZLES / "sudoku" / "9x9-hard.txt")
    code, out, err = run_cli(capsys, command, "sudoku", hard, "--timeout", "60",
                             "--output", "line")
    assert code == 0, err
    assert "timeout" not in out and len(out.splitlines()) >= 5


@pytest.mark.parametrize("command", ["explain", "rate", "explain-html"])
def test_explain_and_rate_keep_the_time_limit_while_stepping(capsys, monkeypatch, command):
    """The clock the steps are timed by jumps an hour at each look: the first puzzle's
    search is done (no time limit reached there), its steps are not."""
    import csolve.grading as grading

    class Clock:
        now = 0.0

        def monotonic(self) -> float:
            self.now += 3600.0
            return self.now

    monkeypatch.setattr(grading, "time", Clock())
    hard = str(PUZZLES / "sudoku" / "9x9-hard.txt")
    command, output = (command, "line") if command != "explain-html" else ("explain", "html")
    code, out, err = run_cli(capsys, command, "sudoku", hard, "--timeout", "60",
                             "--output", output)
    assert code == 3, err
    done = "rated" if command == "rate" else "explained"
    if output == "html":  # each puzzle drawn as given, none of its steps, and named
        assert out.count(": timeout</h2>") == 5 and " step 1: " not in out
        assert err.count(", drawn as given\n") == 5
    else:
        assert f"csolve: 5 of 5 puzzles not {done} within --timeout 60 s" in err
        lines = out.splitlines()
        assert len(lines) == 5 and all("timeout" in line for line in lines)
    code, out, _ = run_cli(capsys, command, "sudoku", hard, "--output", output)
    assert code == 0 and "timeout" not in out  # no --timeout: no clock



def test_starting_worker_processes_is_not_charged_to_the_time_limit():
    """A fresh process pool spends a good part of a second starting its processes and
    loading the kernels in them; like compiling, that is not the search a time limit is
    for: the job's deadline moves on by the time the start took, once per pool and model
    (a pool here whose processes take 0.2 s to be ready)."""
    import importlib
    from concurrent.futures import Future

    from csolve.puzzle import get_puzzle_type

    pp = importlib.import_module("csolve.backends.processes")  # csolve.backends: a function

    class SlowToStart:
        def submit(self, fn, *args):
            ready: Future = Future()
            threading.Timer(0.2, ready.set_result, [None]).start()
            return ready

    sudoku = get_puzzle_type("sudoku")
    (p,) = sudoku.parse("." * 16 + "\n", "<t>")
    job = SearchJob(model=sudoku.model(p), kernels=None, deadline=100.0)
    pool = SlowToStart()
    pp._start(pool, 2, job)
    assert job.deadline >= 100.2 and job.setup_s >= 0.2  # left out of the result's seconds
    moved = job.deadline
    pp._start(pool, 2, job)  # the same pool and model again: nothing to wait for
    assert job.deadline == moved
    pp._start(SlowToStart(), 2, job)  # a new pool (the old one shut down) starts again
    assert job.deadline >= moved + 0.2


STUCK = """
import threading, time
import numpy as np, numba
from csolve.cli import _InterruptWatch, _stop_on_sigterm

@numba.njit(nogil=True)
def spin(flags):  # a compiled loop that never returns while flags[1] == 0
    flags[2] = 1
    while flags[1] == 0:
        flags[0] += 1
    return flags[0]

spin(np.array([0, 1, 0]))  # compiled
watch = _InterruptWatch()
watch.start()
_stop_on_sigterm()  # as the command line's main does
flags = np.array([0, 0, 0])

def say_when_stuck():  # (a Ctrl-C before the loop would be Python's to handle)
    while flags[2] == 0:
        time.sleep(0.01)
    print("ready", flush=True)

threading.Thread(target=say_when_stuck, daemon=True).start()
spin(flags)
"""


def test_a_second_ctrl_c_or_sigterm_ends_a_program_stuck_in_a_compiled_loop():
    # a plugin's rule that never returned kept the program from Ctrl-C and --timeout alike:
    # Python runs signal handlers only between bytecodes; only SIGKILL ended it
    import signal
    import subprocess
    import sys
    import time

    from csolve.cli import SAME_INTERRUPT_S

    proc = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGINT)  # the first is the program's to deal with: it cannot
        time.sleep(SAME_INTERRUPT_S * 1.5)  # (a person's second Ctrl-C comes later)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 130
    finally:
        proc.kill()
    assert "csolve: interrupted (the command did not stop within 2 s" in proc.stderr.read()
    proc = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:  # SIGTERM too, once
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 143
    finally:
        proc.kill()
    assert "csolve: terminated (the command did not stop within 10 s" in proc.stderr.read()


def test_a_files_summary_says_the_workers_start_apart(tmp_path, monkeypatch):
    # a file on Ray reported "in 13.22 s" for a 5 s limit: the cluster's start was in it
    from csolve.backends import get_backend
    from csolve.batch import solve_group_on_threads
    from csolve.cli.report import Reporter

    def slow_to_start(self, job):
        import time

        t0 = time.monotonic()
        threading.Event().wait(1.0)  # a cluster starting
        job.started_workers(t0)
        solve_group_on_threads(job)

    said = []
    real = Reporter.summary
    monkeypatch.setattr(type(get_backend("locked-pool")), "solve_group", slow_to_start)
    monkeypatch.setattr(Reporter, "summary", lambda self, *a: said.append(a) or real(self, *a))
    f = tmp_path / "four.txt"
    f.write_text("2.....3.........\n" * 4)
    code, out, err = run_program("solve", "sudoku", str(f), "--backend", "locked-pool",
                                 "--workers", "2", "--count", "--output", "line")
    assert code == 0 and out.split() == ["12"] * 4, err
    ((_seconds, _compiling, starting),) = said
    assert starting >= 1.0  # the start, said apart from the puzzles' time
    assert " starting workers)" in err.splitlines()[-1], err


def test_starting_a_cluster_for_a_files_puzzles_is_not_charged_to_them(monkeypatch):
    # Ray's start (seconds) was apportioned to a file's puzzles as their search time, so a
    # puzzle handed on after the batch had no time left and came back a time-out at once
    from csolve.backends import get_backend
    from csolve.batch import solve_group_on_threads
    from csolve.puzzle import get_puzzle_type
    from csolve.solver import SolveOptions, solve_puzzles

    def slow_to_start(self, job):
        import time

        t0 = time.monotonic()
        time.sleep(1.0)  # a cluster starting
        job.started_workers(t0)
        solve_group_on_threads(job)

    backend = get_backend("locked-pool")
    monkeypatch.setattr(type(backend), "solve_group", slow_to_start)
    sudoku = get_puzzle_type("sudoku")
    many = "2.....3........." + "\n"  # 12 solutions, counted in the batch
    puzzles = sudoku.parse(many * 4, "<t>")
    results = list(solve_puzzles(sudoku, puzzles, SolveOptions(
        limit=0, backend="locked-pool", workers=2, timeout=30.0)))
    assert [r.count for r in results] == [12] * 4 and all(r.exact for r in results)
    assert sum(r.seconds for r in results) < 0.5  # no share of the second the start took
