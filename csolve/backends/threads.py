"""The thread scheduler every work-sharing backend is built on.

N worker threads each own a :class:`~csolve.search.SearchState` and a control array, and
call the search kernel (GIL released) in a loop. A backend is a *policy*: where an idle
worker gets work (:meth:`ThreadedBackend.acquire`) and what a busy worker does when asked
to share (:meth:`ThreadedBackend.share`). The scheduler does the rest, the same way for all:

* a small-puzzle guard: the calling thread searches alone first; only a tree that is still
  open after ``probe`` seconds is fanned out (threads cost more than an easy puzzle);
* exact termination: a policy reports idle workers through :meth:`Team.go_idle`, which ends
  the search when every worker is idle and the policy holds no queued work;
* first-solution / limit stop, exact count summing, streaming each solution once in the
  calling thread, time-outs and Ctrl-C: ``finish`` sets ``CTRL_STOP`` in every worker's
  control array, so each kernel returns within one node;
* per-worker statistics: nodes, kernel calls, nodes handed over / taken, idle and lock time;
* a node budget (``SearchJob.node_budget``): the search is given up (reason ``gave-up``)
  once the workers together have spent it.
"""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from typing import Any

import numpy as np

from csolve.backends.base import PROBE_OPTION, Backend, SearchJob, SearchOutcome
from csolve.backends.serial import job_state, probe_alone
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl, stats_dict

#: nodes per kernel call: stop and share requests reach the kernel through ``ctrl``, so a
#: call only needs to return now and then to report its statistics
SLICE_NODES = 1 << 16
_POLL = 0.01  # seconds between the calling thread's checks of time-outs and Ctrl-C
_LAST_DRAIN = 0.2  # seconds of queued solutions still delivered after a stop or time-out
#: solutions found and not yet delivered, at most: past it workers wait for the output, so a
#: slow reader (``--all | less``) holds the search back instead of filling memory
STREAM_AHEAD = 1024


class Worker:
    """One worker's private search, its control array and its counters."""

    def __init__(self, index: int, state: SearchState) -> None:
        self.index = index
        self.state = state
        self.ctrl = new_ctrl()
        self.calls = 0
        self.handed = 0  # nodes this worker gave away
        self.taken = 0  # nodes this worker received / stole
        self.idle_s = 0.0
        self.lock_s = 0.0
        self.busy = True

    @contextmanager
    def locked(self, lock: Any):
        """Hold ``lock``, counting the time spent waiting for it."""
        t0 = time.perf_counter()
        with lock:
            self.lock_s += time.perf_counter() - t0
            yield

    def row(self) -> dict:
        s = stats_dict(self.state.stats)
        return {"worker": self.index, "nodes": s["nodes"], "calls": self.calls,
                "handed": self.handed, "taken": self.taken,
                "idle_s": round(self.idle_s, 4), "lock_s": round(self.lock_s, 4),
                "solutions": s["solutions"]}


class Team:
    """State shared by one search's workers: results, the idle count, the end."""

    def __init__(self, job: SearchJob, workers: list[Worker],
                 backend: ThreadedBackend | None = None) -> None:
        self.job = job
        self.backend = backend
        self.workers = workers
        self.n = len(workers)
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)  # policies may wait on it
        self.over = threading.Event()
        self.reason = "exhausted"
        self.count = 0
        self.kept: list[np.ndarray] = []
        self.stream: queue.SimpleQueue | None = (
            queue.SimpleQueue() if job.on_solution is not None else None)
        self.idle = 0
        self.errors: list[BaseException] = []

    # -- the end ------------------------------------------------------------------
    def finish(self, reason: str) -> None:
        """End the search (first reason wins) and stop every kernel."""
        with self.lock:
            if not self.over.is_set():
                self.reason = reason
                self.over.set()
            self.cond.notify_all()
        for w in self.workers:
            w.ctrl[abi.CTRL_STOP] = 1
        self.wake()

    def wake(self) -> None:
        """Wake waiters the backend keeps outside ``self.cond``."""
        if self.backend is not None:
            self.backend.on_finish(self)

    def go_idle(self, w: Worker, pending: int = 0) -> bool:
        """Mark ``w`` idle (call with ``self.lock`` held). True when that ended the search:
        every worker idle and ``pending`` (work the policy still queues) zero."""
        if w.busy:
            w.busy = False
            self.idle += 1
        if self.idle == self.n and pending == 0 and not self.over.is_set():
            self.reason = "exhausted"
            self.over.set()
            self.cond.notify_all()
            self.wake()
            return True
        return False

    def go_busy(self, w: Worker) -> None:
        """Mark ``w`` busy again (with ``self.lock`` held) - done by whoever gives it work,
        before the giver can go idle itself, so the idle count never reads "all" too early."""
        if not w.busy:
            w.busy = True
            self.idle -= 1

    # -- results ------------------------------------------------------------------
    def budget_left(self) -> int | None:
        """Nodes left of the job's node budget (None: no budget). The workers' counts are
        read while they run, so it may be a slice behind."""
        budget = self.job.node_budget
        if budget <= 0:
            return None
        return budget - sum(int(w.state.stats[abi.STAT_NODES]) for w in self.workers)

    def over_budget(self) -> bool:
        left = self.budget_left()
        return left is not None and left <= 0

    def slice_nodes(self) -> int:
        """Nodes per kernel call: no more than the budget has left."""
        left = self.budget_left()
        return SLICE_NODES if left is None else max(1, min(SLICE_NODES, left))

    def remaining(self) -> int:
        limit = self.job.limit
        return max(1, limit - self.count) if limit > 0 else 0

    def add(self, state: SearchState) -> None:
        found = state.found
        if not found:
            return
        sols = state.found_solutions()
        with self.lock:
            limit = self.job.limit
            take = found if limit <= 0 else max(0, min(found, limit - self.count))
            self.count += take
            if self.stream is None and len(self.kept) < self.job.keep:
                self.kept.extend(sols[: min(take, self.job.keep - len(self.kept))])
            reached = limit > 0 and self.count >= limit
        if self.stream is not None:
            self._queue(sols[:take])
        if reached:
            self.finish("limit")

    def _queue(self, sols) -> None:
        """Queue solutions for the calling thread, waiting while the queue is full (never
        under ``self.lock``: the calling thread may need it to end the search). Once the
        search is over nothing waits: the calling thread delivers what is queued (all of it
        when the search ended by itself) and takes the rest off the count."""
        for s in sols:
            while self.stream.qsize() >= STREAM_AHEAD and not self.over.is_set():
                self.over.wait(_POLL)
            self.stream.put(s)


class ThreadedBackend(Backend):
    """Base class of the thread backends: subclasses implement the sharing policy."""

    parallel = True
    options = PROBE_OPTION

    # -- policy hooks ---------------------------------------------------------------
    def setup(self, team: Team) -> None:
        """Prepare shared structures; worker 0 holds every node found by the probe."""

    def acquire(self, team: Team, w: Worker) -> bool:
        """``w`` has no node: get some (True) or return False when the search is over."""
        raise NotImplementedError

    def share(self, team: Team, w: Worker) -> None:
        """``w``'s kernel returned because ``w.ctrl[CTRL_WANT_WORK]`` was set."""
        w.ctrl[abi.CTRL_WANT_WORK] = 0

    def run_slice(self, team: Team, w: Worker) -> int:
        return w.state.run(w.ctrl, team.remaining(), team.stream is not None,
                           team.slice_nodes())

    def on_finish(self, team: Team) -> None:
        """Wake anything a policy waits on outside ``team.cond``."""

    # -- the scheduler ------------------------------------------------------------
    def new_state(self, job: SearchJob) -> SearchState:
        return job_state(job)

    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        first, early, count, kept = probe_alone(job, n)
        if early is not None:
            return early
        workers = [Worker(0, first)] + [Worker(i, self.new_state(job)) for i in range(1, n)]
        team = Team(job, workers, self)
        team.count, team.kept = count, kept
        for w in workers:
            w.ctrl[abi.CTRL_STOP] = job.ctrl[abi.CTRL_STOP]
        since = time.monotonic()
        self.setup(team)  # may load (or compile) a kernel of its own: not the search's time
        job.loaded_kernels(since)
        go = threading.Event()
        threads = [threading.Thread(target=self._worker_main, args=(team, w, go),
                                    name=f"csolve-{self.name}-{w.index}", daemon=True)
                   for w in workers]
        try:
            # every thread is started before any searches: a start waits for its thread to
            # run, which behind busy workers (more of them than cores) takes longer each time
            try:
                for t in threads:
                    t.start()
            finally:
                go.set()
            self._watch(team, threads)
        except BaseException:
            team.finish("stopped")
            for t in threads:
                if t.ident is not None:  # (a Ctrl-C may have struck before all started)
                    t.join()
            raise
        if team.errors:
            raise team.errors[0]
        rows = [w.row() for w in workers]
        total: dict[str, int] = {}
        for w in workers:
            for k, v in stats_dict(w.state.stats).items():
                total[k] = total.get(k, 0) + v
        return SearchOutcome(team.reason, team.count, team.kept, total, workers=rows)

    def _watch(self, team: Team, threads: list[threading.Thread]) -> None:
        """The calling thread: deliver streamed solutions, enforce time-outs and stops."""
        job = team.job
        while True:
            if team.stream is not None:
                # at most a poll's worth of solutions between looks at the clock and the
                # stop flag: with millions streaming the queue never empties, and a drain
                # to empty never looked at them (Ctrl-C and --timeout did nothing)
                try:
                    job.on_solution(team.stream.get(timeout=_POLL))
                except queue.Empty:
                    pass
                else:
                    _deliver(job, team.stream, time.monotonic() + _POLL)
            else:
                team.over.wait(_POLL)
            if not team.over.is_set():
                if job.ctrl[abi.CTRL_STOP]:
                    team.finish("stopped")
                elif job.timed_out():
                    team.finish("timeout")
            if team.over.is_set():
                for w in team.workers:
                    w.ctrl[abi.CTRL_STOP] = 1
                team.wake()
                for t in threads:
                    t.join()
                if team.stream is not None:
                    # every solution found, when the search ended by itself; after a stop or
                    # a time-out, what is left for a moment only (a slow reader may hold up
                    # each one), and the count is what was delivered
                    whole = team.reason in ("exhausted", "limit")
                    _deliver(job, team.stream,
                             None if whole else time.monotonic() + _LAST_DRAIN)
                    team.count -= team.stream.qsize()
                return

    def _worker_main(self, team: Team, w: Worker, go: threading.Event) -> None:
        go.wait()
        try:
            self._worker_loop(team, w)
        except BaseException as e:  # surfaced in the calling thread
            team.errors.append(e)
            team.finish("stopped")

    def _worker_loop(self, team: Team, w: Worker) -> None:
        while not team.over.is_set():
            if w.state.size == 0:
                t0 = time.perf_counter()
                got = self.acquire(team, w)
                w.idle_s += time.perf_counter() - t0
                if not got:
                    break
                continue
            if team.over_budget():
                team.finish("gave-up")
                break
            r = self.run_slice(team, w)
            w.calls += 1
            team.add(w.state)
            if r == abi.STOPPED or r == abi.LIMIT:
                if r == abi.LIMIT and team.job.limit > 0 and team.count >= team.job.limit:
                    team.finish("limit")
                if r == abi.STOPPED:
                    break
            elif r == abi.WORK_REQUESTED:
                self.share(team, w)


def _deliver(job: SearchJob, stream: queue.SimpleQueue, until: float | None) -> None:
    """Hand the queued solutions to ``job.on_solution`` until the queue is empty, or until
    ``until`` (a ``time.monotonic()`` value; None: no end)."""
    while until is None or time.monotonic() < until:
        try:
            job.on_solution(stream.get_nowait())
        except queue.Empty:
            return
