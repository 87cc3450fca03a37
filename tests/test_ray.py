"""The ray backend on a real two-node Ray cluster on this machine: exact counts, files of
puzzles, lost workers, stops, generation, and the CLI (also without Ray installed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from csolve.backends import all_backends, get_backend
from csolve.backends.base import GroupJob
from csolve.errors import UnknownNameError
from csolve.kernels import abi
from csolve.search import kernels_for_model, new_ctrl
from csolve.solver import SolveOptions, Status, solve_one

from .helpers import ctrl_c_reaches_it
from .helpers import run_cli as run_program

ray = pytest.importorskip("ray")  # CI installs the extra; without it only these skip

ROOT = Path(__file__).resolve().parent.parent
#: under-constrained 9x9 puzzles (blanked cells of solved grids): 7,174 to 69,281 solutions
UNDER = (
    ".7.52.3...9..1.8..2.8.6..7.......63.................4..........3.9..756.4..6.5.1.",
    "..5........381......1....731....5..........12..8....5.....4.5....45.23..2...6..8.",
    "7...9.42.6.....1....8.......7..6.....6...4...3248......5.9........15.....32.87...",
    "3..8......4562.9.....5.7..6...4...62...9..1.45.42....9.81.........3.......3......",
)
#: 1,503,078 solutions: long enough (over half a second of one core's search) to lose a
#: worker in the middle
LONG = "....4...........7..2.1.......7..4........7..4...........3791......4.52..485.6..91"
#: more solutions than any search here finishes: for time limits and stops
HEAVY = "53.148.92...29....9.....84." + "." * 54
FAST = {"probe": 0.0, "slice_ms": 5}  # fan out at once, many short tasks


def one(sudoku, text):
    (p,) = sudoku.parse(text + "\n", "<test>")
    return p


@pytest.fixture(scope="module")
def cluster():
    """Two Ray nodes on this machine (2 CPUs each); csolve joins the connection."""
    from ray.cluster_utils import Cluster

    from csolve.backends.ray_cluster import shutdown

    shutdown()  # a local cluster an earlier test module may have started
    small = {"num_cpus": 2, "object_store_memory": 100 * 1024 * 1024}
    c = Cluster(initialize_head=True, head_node_args={**small, "include_dashboard": False})
    c.add_node(**small)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture(scope="module")
def serial_counts(sudoku):
    out = {}
    for text in (*UNDER, LONG):
        r = solve_one(sudoku, one(sudoku, text), SolveOptions(limit=0))
        assert r.exact
        out[text] = r.count
    return out


def ray_options(workers: int, **kw) -> SolveOptions:
    return SolveOptions(limit=0, backend="ray", workers=workers,
                        backend_options=kw.pop("backend_options", FAST), **kw)


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_exact_counts_equal_serial(sudoku, cluster, serial_counts, workers):
    for text in UNDER:
        p = one(sudoku, text)
        r = solve_one(sudoku, p, ray_options(workers, keep=3))
        assert (r.count, r.exact) == (serial_counts[text], True)
        assert len(r.solutions) == 3
        for s in r.solutions:
            assert sudoku.validate(p, s) == []
        assert sum(w["nodes"] for w in r.stats.workers) == r.stats.nodes
        assert sum(w["calls"] for w in r.stats.workers) >= 1  # it did go out as tasks


def test_every_streamed_solution_once_and_valid(sudoku, cluster, serial_counts):
    text = UNDER[0]
    p = one(sudoku, text)
    seen = set()
    caller = threading.current_thread()

    def on_solution(s):
        assert threading.current_thread() is caller
        assert sudoku.validate(p, s) == []
        seen.add(tuple(np.asarray(s).ravel().tolist()))

    r = solve_one(sudoku, p, ray_options(3), on_solution=on_solution)
    assert r.count == len(seen) == serial_counts[text] and r.exact


def test_limit_and_first_solution(sudoku, cluster):
    p = one(sudoku, UNDER[2])
    r = solve_one(sudoku, p, SolveOptions(limit=1000, backend="ray", workers=2, keep=2,
                                             backend_options=FAST, escalate_after=0))
    assert (r.count, r.exact, len(r.solutions)) == (1000, False, 2)
    r = solve_one(sudoku, one(sudoku, HEAVY),
                     SolveOptions(limit=1, backend="ray", workers=2, backend_options=FAST))
    assert r.status is Status.SOLVED
    assert sudoku.validate(r.puzzle, r.solutions[0]) == []


def test_tasks_run_on_both_nodes(sudoku, cluster, serial_counts):
    """Four tasks of 200 ms each, two CPUs a node: the head node cannot hold them all, so Ray
    sends some to the second (with 5 ms tasks, the head's own CPUs were free again before a
    fast machine spilled any). Its first worker process may take seconds to start: searches
    go on until one has had a task on each node, a few minutes without it is a failure."""
    nodes: set[str] = set()
    give_up = time.monotonic() + 300
    while len(nodes) < 2 and time.monotonic() < give_up:
        r = solve_one(sudoku, one(sudoku, LONG),
                      ray_options(4, backend_options={"probe": 0.0, "slice_ms": 200}))
        assert (r.count, r.exact) == (serial_counts[LONG], True)
        nodes |= {w["node"] for w in r.stats.workers if w["worker"] != "driver" and w["calls"]}
    assert len(nodes) == 2, r.stats.workers


def _ray_workers_running(task: str) -> list[int]:
    """Processes of this test's cluster (our descendants) running ``task`` now."""
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if not cmd.startswith(f"ray::{task}".encode()):
            continue
        pid = int(entry)
        while pid > 1:  # walk up to this process
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                break
            pid = int(stat.rsplit(")", 1)[1].split()[1])
            if pid == me:
                out.append(int(entry))
                break
    return out


def test_a_worker_killed_mid_count_loses_nothing(sudoku, cluster, serial_counts):
    result = {}
    t = threading.Thread(target=lambda: result.update(r=solve_one(
        sudoku, one(sudoku, LONG), ray_options(2, backend_options={"probe": 0.0,
                                                                  "slice_ms": 200}))))
    t.start()
    victims: list[int] = []
    while t.is_alive() and not victims:
        victims = _ray_workers_running("search_slice")
        time.sleep(0.01)
    assert victims, "no task was seen running"
    os.kill(victims[0], signal.SIGKILL)  # its task is lost with it; Ray runs it again
    t.join()
    r = result["r"]
    assert (r.count, r.exact) == (serial_counts[LONG], True)
    with pytest.raises(ProcessLookupError):
        os.kill(victims[0], 0)


def test_time_limit_ends_the_search(sudoku, cluster):
    r = solve_one(sudoku, one(sudoku, HEAVY), ray_options(2, timeout=0.5))
    assert r.status is Status.TIMEOUT and not r.exact


def test_a_limit_or_time_limit_cancels_no_task(sudoku, cluster, monkeypatch):
    """Ray can abort the driver when a cancel crosses the reply of a task that has just
    finished, so ends other than a stop leave the tasks to end their slices."""
    cancelled = []
    monkeypatch.setattr(ray, "cancel", lambda ref, **kw: cancelled.append(ref))
    r = solve_one(sudoku, one(sudoku, HEAVY), ray_options(2, timeout=0.5))
    assert r.status is Status.TIMEOUT
    r = solve_one(sudoku, one(sudoku, UNDER[2]), SolveOptions(
        limit=1000, backend="ray", workers=2, backend_options=FAST, escalate_after=0))
    assert (r.count, r.exact) == (1000, False)
    assert cancelled == []


def test_stop_flag_ends_the_search(sudoku, cluster):
    ctrl = new_ctrl()
    from_tasks = threading.Event()

    def on_solution(_s):
        from_tasks.set()

    result = {}
    t = threading.Thread(target=lambda: result.update(r=solve_one(
        sudoku, one(sudoku, HEAVY), ray_options(2), on_solution=on_solution, ctrl=ctrl)))
    t.start()
    assert from_tasks.wait(120)
    ctrl[abi.CTRL_STOP] = 1  # what Ctrl-C does
    t.join()
    assert result["r"].status is Status.INTERRUPTED and not result["r"].exact


def _group(sudoku, texts, limit, timeout=None, node_budget=0, workers=2, probe=0.0):
    """A file's puzzles as a group job; ``probe`` 0: every one goes to the cluster."""
    puzzles = sudoku.parse("\n".join(texts) + "\n", "<test>")
    ((_a, _b, model, inits),) = list(sudoku.model_runs(puzzles))
    n = len(puzzles)
    job = GroupJob(model=model, kernels=kernels_for_model(model), inits=inits,
                   reason=np.zeros(n, dtype=np.int64), sols=np.zeros((n, model.n_cells),
                                                                     dtype=np.uint64),
                   counts=np.zeros(n, dtype=np.int64),
                   stats=np.zeros((n, abi.STAT_SIZE), dtype=np.int64), limit=limit,
                   workers=workers, timeout=timeout, node_budget=node_budget,
                   options={} if probe is None else {"probe": probe})
    return puzzles, job


def test_a_file_of_easy_puzzles_never_starts_ray(sudoku, monkeypatch):
    # five puzzles of 1-3 nodes each waited seconds for a local cluster to start
    import importlib

    rb = importlib.import_module("csolve.backends.ray_backend")

    def no_cluster(*_a, **_k):
        raise AssertionError("Ray was started for puzzles the calling process settles")

    monkeypatch.setattr(rb, "connect", no_cluster)
    texts = [line for line in (ROOT / "puzzles/sudoku/9x9-hard.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    puzzles, job = _group(sudoku, texts, 1, probe=None)  # the default probe
    from csolve.search import BatchScratch, new_ctrl

    BatchScratch(job.model).warm_up(job.kernels, job.model, job.inits, 1, new_ctrl(),
                                    job.reason, job.sols, job.counts, job.stats)  # as solve
    done = []
    job.progress = done.append
    get_backend("ray").solve_group(job)
    _, ref = _group(sudoku, texts, 1, workers=1)
    get_backend("serial").solve_group(ref)
    assert job.reason.tolist() == ref.reason.tolist() == [abi.LIMIT] * len(texts)
    assert (job.sols == ref.sols).all() and done[-1] == len(texts)
    for p, masks in zip(puzzles, job.sols, strict=True):
        assert sudoku.validate(p, sudoku.decode(p, masks)) == []


def test_a_file_goes_to_the_cluster_from_its_first_puzzle_not_settled_here(sudoku, cluster,
                                                                          monkeypatch):
    import importlib

    rb = importlib.import_module("csolve.backends.ray_backend")
    real, split = rb.solve_first_here, []
    monkeypatch.setattr(rb, "solve_first_here", lambda job: split.append(real(job)) or split[-1])
    texts = [UNDER[0], HEAVY, UNDER[1]]  # HEAVY's count takes far longer than the probe
    _, job = _group(sudoku, texts, 0, probe=0.1, node_budget=20_000_000)
    get_backend("ray").solve_group(job)
    assert split == [(1, 0)]  # the first settled here; HEAVY and the rest on the cluster
    assert job.reason.tolist() == [abi.EXHAUSTED, abi.GAVE_UP, abi.EXHAUSTED]
    assert job.ctrl[abi.CTRL_GAVE_UP] == 1
    _, ref = _group(sudoku, [UNDER[0], UNDER[1]], 0, workers=1)
    get_backend("serial").solve_group(ref)
    assert job.counts[[0, 2]].tolist() == ref.counts.tolist()


def test_solve_group_equals_serial(sudoku, cluster):
    texts = [line for line in (ROOT / "puzzles/sudoku/9x9-hard.txt").read_text().splitlines()
             if line and not line.startswith("#")] + list(UNDER)
    for limit in (1, 0):
        puzzles, job = _group(sudoku, texts, limit)
        _, ref = _group(sudoku, texts, limit, workers=1)
        done = []
        job.progress = done.append
        get_backend("ray").solve_group(job)
        get_backend("serial").solve_group(ref)
        assert job.reason.tolist() == ref.reason.tolist()
        assert job.counts.tolist() == ref.counts.tolist()
        assert (job.sols == ref.sols).all()
        assert done[-1] == len(puzzles)
        for p, masks in zip(puzzles, job.sols, strict=True):
            assert sudoku.validate(p, sudoku.decode(p, masks)) == []


def test_solve_group_time_out_and_node_budget_per_puzzle(sudoku, cluster):
    texts = [UNDER[0], HEAVY, UNDER[1]]
    _, job = _group(sudoku, texts, 0, timeout=0.3)
    get_backend("ray").solve_group(job)
    assert job.reason.tolist() == [abi.EXHAUSTED, abi.SKIPPED, abi.EXHAUSTED]
    _, ref = _group(sudoku, [UNDER[0], UNDER[1]], 0, workers=1)
    get_backend("serial").solve_group(ref)
    assert job.counts[[0, 2]].tolist() == ref.counts.tolist()
    _, job = _group(sudoku, texts, 0, node_budget=100_000)
    get_backend("ray").solve_group(job)
    assert job.reason.tolist() == [abi.EXHAUSTED, abi.GAVE_UP, abi.EXHAUSTED]
    assert job.ctrl[abi.CTRL_GAVE_UP] == 1


def test_generation_equals_threads(sudoku, cluster):
    from csolve.generate import GenerateOptions, generate_puzzles

    opts = GenerateOptions(size=9, symmetry="rot180")
    threads = list(generate_puzzles(sudoku, opts, 5, seed=2024, workers=2))
    on_ray = list(generate_puzzles(sudoku, opts, 5, seed=2024, workers=2, mapper=partial(
        get_backend("ray").map_ordered, options={})))
    assert [g.seed for g in on_ray] == [g.seed for g in threads]
    assert [sudoku.format_line(g.puzzle, None) for g in on_ray] == \
        [sudoku.format_line(g.puzzle, None) for g in threads]
    for g in on_ray:
        assert sudoku.validate(g.puzzle, g.solution) == []


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The CLI in this process (so it uses the test cluster): exit code, stdout, stderr."""
    return run_program(*args)


def test_cli_count_and_generate(cluster, tmp_path, capsys, serial_counts):
    f = tmp_path / "one.txt"
    f.write_text(UNDER[3] + "\n")
    args = ["solve", "sudoku", str(f), "--count", "--workers", "2"]
    on_ray = run(capsys, *args, "--backend", "ray", "-O", "slice_ms=20")
    serial = run(capsys, "solve", "sudoku", str(f), "--count", "--backend", "serial")
    assert on_ray == serial == (0, f"{serial_counts[UNDER[3]]}\n", "")
    gen = ["generate", "sudoku", "--count", "3", "--seed", "7", "--workers", "2"]
    on_ray = run(capsys, *gen, "--backend", "ray")
    threads = run(capsys, *gen)
    assert on_ray[:2] == threads[:2] and on_ray[0] == 0
    assert len(on_ray[1].splitlines()) == 3
    code, listed, _ = run(capsys, "list-backends")
    assert code == 0 and "ray" in listed
    f.write_text(HEAVY + "\n")
    assert run(capsys, *args, "--backend", "ray", "-O", "slice_ms=0") == (
        2, "", "csolve: error: backend 'ray': option slice_ms wants a number > 0 and <= 2000, "
        "got '0'\n")
    # a Ctrl-C waits for the slices under way: a slice longer than that bound is refused
    assert run(capsys, *args, "--backend", "ray", "-O", "slice_ms=2001")[0] == 2


def test_without_ray_one_line_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert "ray" not in all_backends()
    with pytest.raises(UnknownNameError, match=r"pip install 'csolve\[ray\]'"):
        get_backend("ray")
    code, out, err = run(capsys, "solve", "sudoku", str(ROOT / "puzzles/sudoku/4x4.txt"),
                         "--backend", "ray")
    assert code == 2 and out == ""
    assert err == "csolve: error: backend 'ray' is not installed: pip install 'csolve[ray]'\n"
    code, listed, _ = run(capsys, "list-backends")
    assert code == 0 and "ray" not in listed.split()


def _processes_with(text: str, title: str = "") -> list[int]:
    """Processes whose command line or environment mentions ``text`` (Ray's workers rename
    themselves, but keep the environment they were started with)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
                env = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if (text.encode() in cmd or text.encode() in env) and cmd.startswith(
                    title.encode()):
                out.append(int(entry))
    return out


@pytest.mark.slow
def test_cli_starts_and_stops_its_own_cluster(tmp_path, serial_counts):
    """A local cluster csolve starts leaves no process behind, after a count and after
    Ctrl-C in the middle of a search."""
    tmp = Path(f"/tmp/csr{os.getpid()}")  # Ray's socket paths must stay short
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "RAY_TMPDIR": str(tmp)}
    env.pop("RAY_ADDRESS", None)
    f = tmp_path / "one.txt"
    f.write_text(UNDER[3] + "\n")
    csolve = [sys.executable, "-m", "csolve"]
    done = subprocess.run([*csolve, "solve", "sudoku", str(f), "--backend", "ray",
                           "--workers", "2", "--count", "-O", "probe=0"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{serial_counts[UNDER[3]]}\n"
    assert _processes_with(str(tmp)) == []
    f.write_text(HEAVY + "\n")
    proc = subprocess.Popen([*csolve, "solve", "sudoku", str(f), "--backend", "ray",
                             "--workers", "2", "--count"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_reaches_it)
    while proc.poll() is None and not _processes_with(str(tmp), "ray::search_slice"):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert _processes_with(str(tmp)) == []


@pytest.mark.slow
def test_sigterm_while_the_cluster_starts_stops_as_ctrl_c_does(tmp_path):
    """A SIGTERM in the seconds ``ray.init`` takes went to Ray's own handler, which exited
    halfway through the start with a page of C++ stack dump and exit code 1; now the count
    stops once the cluster is up, writes what it reached and exits 143, leaving nothing."""
    tmp = Path(f"/tmp/cst{os.getpid()}")  # Ray's socket paths must stay short
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "RAY_TMPDIR": str(tmp)}
    env.pop("RAY_ADDRESS", None)
    f = tmp_path / "heavy.txt"
    f.write_text(HEAVY + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "csolve", "solve", "sudoku", str(f),
                             "--backend", "ray", "--workers", "2", "--count"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while proc.poll() is None and not _processes_with(str(tmp), "ray::"):
        time.sleep(0.05)  # the cluster is starting: its first processes are up
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.endswith("csolve: terminated\n") and "Traceback" not in err, err
    assert out.endswith("+\n")  # the count reached, marked as not the whole count
    assert _processes_with(str(tmp)) == []


def test_listing_backends_does_not_import_ray():
    code = ("import sys; from csolve.backends import all_backends, get_backend; "
            "assert 'ray' in all_backends(); get_backend('ray'); "
            "import csolve.cli.app; assert 'ray' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_node_budget_gives_the_search_up(sudoku, cluster):
    from csolve.backends import SearchJob

    model = sudoku.model(one(sudoku, HEAVY))
    job = SearchJob(model=model, kernels=kernels_for_model(model), limit=0, workers=2,
                    options=dict(FAST), node_budget=50_000)
    out = get_backend("ray").solve(job)
    assert out.reason == "gave-up" and not out.complete
    assert 50_000 <= out.stats["nodes"] <= 2 * 50_000  # each task gets a share of what is left


def test_learning_engine_searches_on_ray(sudoku, cluster, serial_counts):
    p = one(sudoku, UNDER[1])
    r = solve_one(sudoku, p, SolveOptions(limit=0, backend="ray", workers=2, keep=2,
                                             engine="learning", backend_options=FAST))
    assert (r.count, r.exact, r.engine) == (serial_counts[UNDER[1]], True, "learning")
    assert sum(w["calls"] for w in r.stats.workers) >= 1
    for s in r.solutions:
        assert sudoku.validate(p, s) == []


def test_unreachable_cluster_is_a_one_line_error(tmp_path):
    f = tmp_path / "one.txt"
    f.write_text(HEAVY + "\n")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    done = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku", str(f), "--count",
                           "--backend", "ray", "-O", "address=127.0.0.1:1"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("csolve: error: cannot start or reach a Ray cluster at "
                                  "127.0.0.1:1")
    assert len(done.stderr.splitlines()) == 1



@pytest.mark.parametrize("split", [True, False])
def test_a_learning_task_asked_to_split_gives_back_two_halves(sudoku, cluster, split):
    """The learning engine hands its one node back whole; asked to share (an idle worker
    waits), the task cuts it in two at once instead and returns both."""
    from csolve.backends.ray_backend import remote
    from csolve.engines import with_engine
    from csolve.search import SearchState

    model = with_engine(sudoku.model(one(sudoku, UNDER[0])), "learning")
    state = SearchState(model)
    state.push_root()
    nodes, dirty = state.take_bottom(state.size)
    assert len(nodes) == 1
    out = ray.get(remote("search_slice").remote([ray.put(model)], nodes, dirty, 1, False, 1,
                                                60.0, 0, split))
    count, _sols, rest = out[0], out[1], out[2]
    if split:  # at once: no solution yet, the node in two
        assert (count, len(rest)) == (0, 2)
    else:  # a 60 s slice: searched until its first solution
        assert count == 1
