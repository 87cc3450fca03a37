"""``ray``: the search spread over a Ray cluster - one machine or many.

The design of ``process-pool``, on Ray: the calling process (the driver) keeps the frontier
of unexplored nodes and hands a batch of them to each Ray task; a task searches for a time
slice with the same kernels and returns its counts, solutions and the nodes it did not reach,
which go back into the frontier. Tasks are pure and never wait on each other; the driver
waits on whichever finishes first (``ray.wait``) and hands out more work. Results count only
when a task completes, and a task lost with its worker is run again by Ray from the same
nodes, so counts stay exact. The model goes to the object store once per search.

A file of puzzles goes out as chunks of puzzles, each solved by the batch kernel in a task;
independent items (generated puzzles) go out one per task, results kept in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from csolve.backends.base import (
    PROBE_OPTION,
    Backend,
    GroupJob,
    SearchJob,
    SearchOutcome,
    number,
)
from csolve.backends.ray_cluster import INSTALL_HINT, connect, ray_installed
from csolve.backends.serial import PROBE_SECONDS, probe_alone
from csolve.engines import LEARNING
from csolve.kernels import abi
from csolve.search import stats_dict

#: default seconds a task searches before it returns its unexplored nodes
SLICE_SECONDS = 0.05
#: the shortest slice: what a task gets when it takes the driver's last nodes
MIN_SLICE = 0.003
#: the longest slice ``slice_ms`` may ask for: a Ctrl-C waits for the slices under way (a
#: task cancelled mid-reply can abort the caller, see :func:`end_tasks`), so a slice bounds
#: how long a stop takes
MAX_SLICE_MS = 2000
#: how often the driver looks at the clock and the stop flag while tasks run
POLL_SECONDS = 0.02
#: a task lost with its worker (a node gone, a process killed) is run again this many times
RETRIES = 5
#: a chunk of a file's puzzles is sized to take about this long
GROUP_TASK_SECONDS = 0.1

_remote: dict[str, Any] = {}


def remote(name: str):
    """The Ray task for :mod:`csolve.backends.ray_tasks`'s function ``name`` (made once)."""
    fn = _remote.get(name)
    if fn is None:
        import ray

        from csolve.backends import ray_tasks

        fn = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(
            getattr(ray_tasks, name))
        _remote[name] = fn
    return fn


#: the most seconds the calling process spends on a file's first puzzles before Ray starts
GROUP_PROBE_LIMIT = 1.0


def solve_first_here(job: GroupJob) -> tuple[int, int]:
    """The small-file guard, as the probe is for one puzzle: the calling process solves a
    file's puzzles in order with the batch kernel for the ``probe`` option's seconds times
    the number of puzzles (at most :data:`GROUP_PROBE_LIMIT`), so that a file of easy
    puzzles never waits seconds for a cluster to start; a puzzle still open then starts
    again on the cluster. Returns (puzzles settled here, from the first on; those of them
    given up for their node budget)."""
    from csolve.batch import run_in_thread
    from csolve.search import BatchScratch, new_ctrl

    n_puzzles = job.inits.shape[0]
    window = min(GROUP_PROBE_LIMIT, float(job.options.get("probe", PROBE_SECONDS)) * n_puzzles)
    if job.timeout:
        window = min(window, job.timeout)
    if window <= 0:
        return 0, 0
    local = new_ctrl()  # its stop ends the first pass only, not the job
    local[abi.CTRL_NODE_BUDGET] = job.node_budget
    scratch = BatchScratch(job.model)
    t_end = time.monotonic() + window

    def poll() -> None:
        if job.ctrl[abi.CTRL_STOP] or time.monotonic() >= t_end:
            local[abi.CTRL_STOP] = 1
        if job.progress is not None:
            job.progress(int(local[abi.CTRL_DONE]) - int(local[abi.CTRL_GAVE_UP]))

    run_in_thread(lambda: scratch.solve(job.kernels, job.model, job.inits, job.limit, local,
                                        job.reason, job.sols, job.counts, job.stats),
                  local, poll, every=min(0.05, window / 4))
    unsettled = np.flatnonzero(job.reason == abi.STOPPED)
    here = int(unsettled[0]) if unsettled.size else n_puzzles
    gave_up = int(np.count_nonzero(job.reason[:here] == abi.GAVE_UP))
    job.reason[here:] = abi.STOPPED  # (the one stopped midway starts again on the cluster)
    return here, gave_up


class Frontier:
    """The driver's unexplored nodes, in chunks as tasks returned them (nearest the root
    first within a chunk), handed out from the latest chunk (depth first keeps it small).

    A share is dealt round-robin over the chunk's depths, as every ``k``-th node: nodes near
    the root hold big subtrees and deep ones small, so each share (and what stays for the
    next task) gets some of both - a task given only deep nodes would run dry early.
    """

    def __init__(self) -> None:
        self.chunks: list[tuple[np.ndarray, np.ndarray]] = []
        self.size = 0

    def add(self, nodes: np.ndarray, dirty: np.ndarray) -> None:
        if len(nodes):
            self.chunks.append((nodes, dirty))
            self.size += len(nodes)

    def take(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``k`` nodes (at least one when any is left)."""
        parts, dparts, got = [], [], 0
        while self.chunks and got < k:
            nodes, dirty = self.chunks.pop()
            want = k - got
            if len(nodes) > want:
                pick = np.zeros(len(nodes), dtype=bool)
                pick[np.linspace(0, len(nodes) - 1, want).round().astype(np.int64)] = True
                self.chunks.append((nodes[~pick], dirty[~pick]))
                nodes, dirty = nodes[pick], dirty[pick]
            parts.append(nodes)
            dparts.append(dirty)
            got += len(nodes)
        self.size -= got
        if len(parts) == 1:
            return np.ascontiguousarray(parts[0]), np.ascontiguousarray(dparts[0])
        return np.concatenate(parts), np.concatenate(dparts)

    def __bool__(self) -> bool:
        return self.size > 0


def slice_seconds(options: dict, default: float) -> float:
    """The ``slice_ms`` option (checked positive by :meth:`Backend.check_options`) in
    seconds."""
    return float(options.get("slice_ms", default * 1000)) / 1000


def end_tasks(ray, refs, grace: float) -> None:
    """Stop outstanding tasks: those that end by themselves within ``grace`` seconds (a
    slice, a chunk) are left to, the rest have their worker processes ended.

    Ray can abort the calling process when a cancel crosses the reply of a task that has
    just finished ("Check failed: ... Tried to complete task that was not pending", seen
    with Ray 2.60 when a time limit cancelled a search's tasks), so a task is cancelled only
    once it has run past what it was sized to take, when no reply is on its way."""
    pending = list(refs)
    if pending and grace > 0:
        _, pending = ray.wait(pending, num_returns=len(pending), timeout=grace)
    for ref in pending:
        try:
            ray.cancel(ref, force=True)
        except Exception:  # already finished, or its owner is gone: nothing to stop
            pass


class RayBackend(Backend):
    name = "ray"
    parallel = True
    origin = "Ray tasks on a local or multi-machine cluster (optional extra)"
    description = ("the frontier stays in the calling process; batches of nodes go to Ray "
                   "tasks (local or a cluster) for time slices and unexplored nodes come back")
    requires = INSTALL_HINT
    options = {
        "address": (str, "Ray cluster to join: auto (one started with 'ray start') or "
                         "HOST:PORT; default: RAY_ADDRESS, else a local cluster started and "
                         "stopped by csolve"),
        "slice_ms": (number(float, 0, above=True, high=MAX_SLICE_MS),
                     f"milliseconds a task searches before returning its nodes "
                     f"(default {SLICE_SECONDS * 1000:g}); for a file's puzzles, what a "
                     f"chunk of them is sized to take (default "
                     f"{GROUP_TASK_SECONDS * 1000:g}); at most {MAX_SLICE_MS:g}: a Ctrl-C "
                     f"waits for the slices under way"),
        **PROBE_OPTION,
    }

    def __init__(self) -> None:
        #: the driver's figures for the last search: tasks, seconds, bytes each way
        self.metrics: dict[str, float] = {}

    def available(self) -> bool:
        return ray_installed()

    # -- one puzzle ---------------------------------------------------------------------
    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        seconds = slice_seconds(job.options, SLICE_SECONDS)
        # even one task in flight searches on the cluster: the driver only probes
        first, early, count, kept = probe_alone(job, max(2, n))
        if early is not None:
            return early
        t_connect = time.monotonic()
        ray = connect(job.options.get("address"))
        job.started_workers(t_connect)  # starting or joining the cluster is not the search
        task = remote("search_slice")
        stream = job.on_solution is not None
        # the learning engine searches one node at a time and hands it back whole: it
        # shares by cutting that node in two on request, as with the thread backends
        one_node_search = job.model.engine == LEARNING
        box = [ray.put(job.model)]
        frontier = Frontier()
        frontier.add(*first.take_bottom(first.size))
        stats = first.stats.copy()
        probe = stats_dict(first.stats)
        rows: dict[str, dict] = {"driver": self._row("driver", "", probe["nodes"],
                                                     probe["solutions"])}
        running: dict[Any, int] = {}
        m = {"tasks": 0, "absorbed": 0, "bytes_out": 0, "bytes_in": 0, "nodes_out": 0,
             "nodes_in": 0, "driver_s": 0.0, "seconds": 0.0, "busy_s": 0.0}
        reason = "exhausted"
        t_start = time.perf_counter()
        try:
            while True:
                spent = int(stats[abi.STAT_NODES])
                end = job.must_end(spent)
                if end is not None:
                    reason = end
                    break
                t_busy = time.perf_counter()
                while frontier and len(running) < n:
                    nodes, dirty = frontier.take(-(-frontier.size // n))
                    left = max(1, job.limit - count) if job.limit > 0 else 0
                    cap = max(1, (job.node_budget - spent) // n) if job.node_budget > 0 else 0
                    idle = not frontier and len(running) + 1 < n  # workers left with nothing
                    if one_node_search:  # its one node is cut in two at once for the idle
                        sl, split = seconds, idle
                    else:  # nothing kept back for the other tasks: this one returns soon
                        sl = seconds if frontier or n == 1 else max(MIN_SLICE, seconds / 8)
                        split = False
                    ref = task.remote(box, nodes, dirty, left, stream, job.keep, sl, cap,
                                      split)
                    running[ref] = len(nodes)
                    m["tasks"] += 1
                    m["nodes_out"] += len(nodes)
                    m["bytes_out"] += nodes.nbytes + dirty.nbytes
                m["driver_s"] += time.perf_counter() - t_busy
                if not running:
                    break  # nothing left anywhere: the whole tree was searched
                wait = POLL_SECONDS
                if job.deadline is not None:
                    wait = max(0.0, min(wait, job.deadline - time.monotonic()))
                ready, _ = ray.wait(list(running), num_returns=1, timeout=wait)
                if ready:
                    ready, _ = ray.wait(list(running), num_returns=len(running), timeout=0)
                t_busy = time.perf_counter()
                for ref in ready:
                    handed = running.pop(ref)
                    c, sols, rest, rest_dirty, st, _r, name, node, busy = ray.get(ref)
                    stats += st
                    count = job.collect(count, kept, c, sols)
                    frontier.add(rest, rest_dirty)
                    row = rows.setdefault(f"{node}:{name}", self._row(name, node, 0, 0))
                    row["nodes"] += int(st[abi.STAT_NODES])
                    row["solutions"] += int(st[abi.STAT_SOLUTIONS])
                    row["calls"] += 1
                    row["handed"] += handed
                    row["taken"] += len(rest)
                    row["busy_s"] = round(row["busy_s"] + busy, 4)
                    m["absorbed"] += 1
                    m["busy_s"] += busy
                    m["nodes_in"] += len(rest)
                    m["bytes_in"] += rest.nbytes + rest_dirty.nbytes + sols.nbytes
                m["driver_s"] += time.perf_counter() - t_busy
                if job.limit > 0 and count >= job.limit:
                    reason = "limit"
                    break
        except BaseException:
            end_tasks(ray, running, 2 * seconds)
            raise
        # a stop (Ctrl-C) ends the tasks that outlive their slice; after other ends the
        # tasks are left to end their slices (within ``slice_ms``, their results unread)
        # in workers kept warm for what follows: no cancel that could cross their replies
        if reason == "stopped":
            end_tasks(ray, running, 2 * seconds)
        m["seconds"] = time.perf_counter() - t_start
        self.metrics = m
        total = stats_dict(stats)
        return SearchOutcome(reason, count, kept, total, workers=list(rows.values()))

    @staticmethod
    def _row(name: str, node: str, nodes: int, solutions: int) -> dict:
        return {"worker": name, "node": node[:8], "nodes": nodes, "calls": 0, "handed": 0,
                "taken": 0, "busy_s": 0.0, "solutions": solutions}

    # -- a file of puzzles --------------------------------------------------------------
    def solve_group(self, job: GroupJob) -> None:
        """Chunks of the puzzles as tasks (sized to ~0.1 s from the first results), each
        solved by the batch kernel; rows are filled as chunks complete."""
        n_puzzles = job.inits.shape[0]
        n = max(1, int(job.workers))
        ctrl = job.ctrl
        ctrl[abi.CTRL_GAVE_UP] = 0
        job.reason[:] = abi.STOPPED  # rows no completed chunk reaches stay "stopped"
        if n_puzzles == 0:
            return
        here, gave_up = solve_first_here(job)
        if here == n_puzzles or ctrl[abi.CTRL_STOP]:
            ctrl[abi.CTRL_GAVE_UP] = gave_up
            return
        t_connect = time.monotonic()
        ray = connect(job.options.get("address"))
        job.started_workers(t_connect)  # starting or joining the cluster is not the puzzles'
        task = remote("solve_chunk")
        box = [ray.put(job.model)]
        inits_box = [ray.put(np.ascontiguousarray(job.inits, dtype=np.uint64))]
        target = slice_seconds(job.options, GROUP_TASK_SECONDS)
        chunk = max(1, min(8, (n_puzzles - here) // (2 * n)))
        per_puzzle: float | None = None
        nxt, done = here, here
        running: dict[Any, tuple[int, int]] = {}
        try:
            while nxt < n_puzzles or running:
                if ctrl[abi.CTRL_STOP]:
                    break
                while nxt < n_puzzles and len(running) < n:
                    if per_puzzle is not None:  # ~target seconds, yet enough chunks for all
                        fair = -(-(n_puzzles - nxt) // (2 * n))
                        chunk = max(1, min(int(target / max(per_puzzle, 1e-7)), fair))
                    hi = min(n_puzzles, nxt + chunk)
                    ref = task.remote(box, inits_box, nxt, hi, job.limit, job.timeout,
                                      job.node_budget)
                    running[ref] = (nxt, hi)
                    nxt = hi
                ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL_SECONDS)
                for ref in ready:
                    lo, hi = running.pop(ref)
                    reason, sols, counts, stats, g, _name, _node, secs = ray.get(ref)
                    job.reason[lo:hi] = reason
                    job.sols[lo:hi] = sols
                    job.counts[lo:hi] = counts
                    job.stats[lo:hi] = stats
                    done += hi - lo
                    gave_up += g
                    per_puzzle = secs / (hi - lo)
                    if job.progress is not None:
                        job.progress(done - gave_up)
        except BaseException:
            end_tasks(ray, running, 2 * target)
            raise
        end_tasks(ray, running, 2 * target)  # a stop: chunks sized to ``target`` seconds
        ctrl[abi.CTRL_GAVE_UP] = gave_up

    # -- independent items (generation) -------------------------------------------------
    def map_ordered(self, fn: Callable[[Any, np.ndarray], Any], items: Sequence[Any],
                    workers: int, ctrl: np.ndarray, options: dict | None = None
                    ) -> Iterator[Any]:
        """``fn(item, ctrl)`` for every item as Ray tasks (``workers`` running at once),
        results in item order. ``fn`` must pickle (Ray sends it once, by the object store);
        a :class:`csolve.errors.CsolveError` it raises is raised here as itself."""
        ray = connect((options or {}).get("address"))
        task = remote("call_item")
        box = [ray.put(fn)]
        n = max(1, int(workers))
        running: dict[Any, int] = {}
        ready_results: dict[int, Any] = {}
        nxt = 0
        try:
            for i in range(len(items)):
                while i not in ready_results:
                    while nxt < len(items) and len(running) < n:
                        running[task.remote(box, items[nxt])] = nxt
                        nxt += 1
                    if ctrl[abi.CTRL_STOP]:
                        raise KeyboardInterrupt
                    ready, _ = ray.wait(list(running), num_returns=1, timeout=POLL_SECONDS)
                    for ref in ready:
                        ready_results[running.pop(ref)] = ray.get(ref)
                status, value = ready_results.pop(i)
                if status == "error":
                    raise value
                yield value
        finally:
            end_tasks(ray, running, 2 * SLICE_SECONDS)  # a stop, an error, a consumer gone
