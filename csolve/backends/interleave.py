"""``interleave``: several searches take turns on one thread, sharing work as the locked pool does.

A clause-learning search's run time on a hard puzzle is heavy-tailed: one unlucky start can
take minutes where another takes a second. Two workers that split the puzzle between them
cut that tail. This backend splits on one core without threads (whether that beats one
search there depends on the engine and the puzzles - on Frisch's 25x25 puzzles it does not:
``benchmarks/bench_heavy_tail.py --takeovers`` measures it): N searches, each with its own
stack (and the learning engine's own clauses), run in turn for short slices in the calling
thread; a search that runs out of nodes gets the bottom half of a busy one's stack, which
the learning engine first cuts in two when it holds a single node. Counting, ``--all``,
limits, time-outs, Ctrl-C and node budgets behave as on every backend.
"""

from __future__ import annotations

import time

import numpy as np

from csolve.backends.base import PROBE_OPTION, Backend, SearchJob, SearchOutcome
from csolve.backends.serial import job_state, probe_alone
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl, stats_dict

#: seconds a search runs before the next one takes its turn
TURN_SECONDS = 0.02


class _Turn:
    """One of the interleaved searches: its state, control array, slice size and counters."""

    def __init__(self, index: int, state: SearchState) -> None:
        self.index = index
        self.state = state
        self.ctrl = new_ctrl()
        self.step = 64  # nodes per call, adapted so that a call lasts about a turn
        self.calls = 0
        self.handed = 0
        self.taken = 0

    def row(self) -> dict:
        s = stats_dict(self.state.stats)
        return {"worker": self.index, "nodes": s["nodes"], "calls": self.calls,
                "handed": self.handed, "taken": self.taken, "idle_s": 0.0, "lock_s": 0.0,
                "solutions": s["solutions"]}


def _nodes(turns: list[_Turn]) -> int:
    """Nodes the searches have spent together (what a node budget counts)."""
    return sum(int(t.state.stats[abi.STAT_NODES]) for t in turns)


class Interleave(Backend):
    name = "interleave"
    parallel = True  # ``workers`` is the number of searches, all on the calling thread
    options = PROBE_OPTION
    origin = "time-sliced splitting on one core (cube and conquer without threads)"
    description = ("N searches take turns on one thread in ~20 ms slices; one that runs out "
                   "of nodes gets the bottom half of a busy one's stack (the learning engine "
                   "cuts a lone node in two)")

    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        first, early, count, kept = probe_alone(job, n)
        if early is not None:
            return early
        turns = [_Turn(0, first)] + [_Turn(i, job_state(job)) for i in range(1, n)]
        reason = "exhausted"
        while True:
            busy = [t for t in turns if t.state.size > 0]
            if not busy:
                break
            end = self._end(job, turns)
            if end:
                reason = end
                break
            idle = [t for t in turns if t.state.size == 0]
            for t in busy:
                if idle:
                    t.ctrl[abi.CTRL_WANT_WORK] = 1
                count, kept, r = self._run(job, t, turns, count, kept)
                t.ctrl[abi.CTRL_WANT_WORK] = 0
                if r == abi.WORK_REQUESTED:
                    if idle and t.state.size >= 2:
                        nodes, dirty = t.state.take_bottom(max(1, t.state.size // 2))
                        taker = idle.pop(0)
                        taker.state.push_many(nodes, dirty)
                        t.handed += len(nodes)
                        taker.taken += len(nodes)
                if r == abi.STOPPED or (job.limit > 0 and count >= job.limit):
                    break
            if job.limit > 0 and count >= job.limit:
                reason = "limit"
                break
            if job.stopped():
                reason = "stopped"
                break
        total: dict[str, int] = {}
        for t in turns:
            for k, v in stats_dict(t.state.stats).items():
                total[k] = total.get(k, 0) + v
        return SearchOutcome(reason, count, kept, total, workers=[t.row() for t in turns])

    @staticmethod
    def _end(job: SearchJob, turns: list[_Turn]) -> str:
        """Why the search must end now ("" to go on): a stop, a time-out or a spent budget."""
        return job.must_end(_nodes(turns)) or ""

    @staticmethod
    def _run(job: SearchJob, t: _Turn, turns: list[_Turn], count: int,
             kept: list[np.ndarray]) -> tuple[int, list[np.ndarray], int]:
        """One slice of search ``t``: (solutions counted, solutions kept, kernel's reason)."""
        step = t.step
        if job.node_budget > 0:
            step = max(1, min(step, job.node_budget - _nodes(turns)))
        remaining = max(1, job.limit - count) if job.limit > 0 else 0
        t.ctrl[abi.CTRL_STOP] = job.ctrl[abi.CTRL_STOP]
        t0 = time.perf_counter()
        r = t.state.run(t.ctrl, remaining, job.on_solution is not None, step)
        elapsed = time.perf_counter() - t0
        t.calls += 1
        found = t.state.found_solutions()
        take = t.state.found if job.limit <= 0 else max(0, min(t.state.found, job.limit - count))
        count += take
        if job.on_solution is not None:
            for s in found[:take]:
                job.on_solution(s)
        elif len(kept) < job.keep:
            kept.extend(found[: min(take, job.keep - len(kept))])
        # a call that used its whole step tells how long a step takes; one that returned
        # early (work asked for, a stop) does not: doubling on those grew the step to
        # seconds a call, and a time-out waited for the call to end
        if r == abi.BUDGET and elapsed < TURN_SECONDS / 2 and t.step < 1 << 22:
            t.step *= 2
        elif elapsed > 2 * TURN_SECONDS and t.step > 16:
            t.step //= 2
        return count, kept, int(r)
