"""``interleave``: several searches take turns on one thread, sharing work as the locked pool does.

A clause-learning search's run time on a hard puzzle is heavy-tailed: one unlucky start can
take minutes where another takes a second. Two workers that split the puzzle between them
cut that tail, and not only because they use two cores (``benchmarks/bench_heavy_tail.py``
pinned to one core: of 64 runs of Frisch's 25x25 puzzles within 10 s, two interleaved
searches solve 53-55 at a median of 1.68-1.95 s, one search 48-53 at 1.82-1.92 s; with the
engine's earlier decisions by activity, 51-54 against 45). This backend gets that on one
core without threads: N searches, each with its own stack (and the learning engine's own
clauses), run in turn for short slices in the calling thread; a search that runs out of
nodes gets the bottom half of a busy one's stack, which the learning engine first cuts in
two when it holds a single node. Counting, ``--all``, limits, time-outs, Ctrl-C and node
budgets behave as on every backend.

Two options make the searches differ rather than only split the puzzle: ``differ=1`` starts
every second search of the learning engine in its stable mode (the others in focused mode),
and ``share=0`` gives every search the whole puzzle instead of a part of it (a portfolio:
the first answer wins; a solution two searches both find is counted once, and the search is
complete as soon as one of them has seen every node).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from csolve.backends.base import PROBE_OPTION, Backend, SearchJob, SearchOutcome, choice
from csolve.backends.serial import job_state, probe_alone
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl, stats_dict

#: seconds a search runs before the next one takes its turn
TURN_SECONDS = 0.02


class _Turn:
    """One of the interleaved searches: its state, control array, slice size and counters."""

    def __init__(self, index: int, state: SearchState, stable_first: bool = False) -> None:
        self.index = index
        self.state = state
        self.ctrl = new_ctrl()
        self.ctrl[abi.CTRL_FIRST_MODE] = int(stable_first)
        self.step = 64  # nodes per call, adapted so that a call lasts about a turn
        self.calls = 0
        self.handed = 0
        self.taken = 0

    def row(self) -> dict:
        s = stats_dict(self.state.stats)
        return {"worker": self.index, "nodes": s["nodes"], "calls": self.calls,
                "handed": self.handed, "taken": self.taken, "idle_s": 0.0, "lock_s": 0.0,
                "solutions": s["solutions"]}


def _probe(job: SearchJob, n: int, share: bool
           ) -> tuple[SearchState, SearchOutcome | None, int, list[np.ndarray], list[np.ndarray]]:
    """:func:`probe_alone`, and with ``share`` off every solution the probe found (the
    searches that start from the root after it must not count them again)."""
    if share:
        return (*probe_alone(job, n), [])
    found: list[np.ndarray] = []

    def collect(s: np.ndarray) -> None:
        found.append(s.copy())
        if job.on_solution is not None:
            job.on_solution(s)

    first, early, count, _ = probe_alone(replace(job, on_solution=collect), n)
    kept = [] if job.on_solution is not None else found[:job.keep]
    if early is not None:
        early = replace(early, solutions=kept)
    return first, early, count, kept, found


class _Seen:
    """The solutions searches that do not share have found, so that each counts once."""

    def __init__(self, found: list[np.ndarray]) -> None:
        self.keys = {s.tobytes() for s in found}

    def new(self, found: list[np.ndarray]) -> list[np.ndarray]:
        """Those of ``found`` no search found before (now remembered)."""
        fresh = []
        for s in found:
            key = s.tobytes()
            if key not in self.keys:
                self.keys.add(key)
                fresh.append(s)
        return fresh


def _nodes(turns: list[_Turn]) -> int:
    """Nodes the searches have spent together (what a node budget counts)."""
    return sum(int(t.state.stats[abi.STAT_NODES]) for t in turns)


class Interleave(Backend):
    name = "interleave"
    parallel = True  # ``workers`` is the number of searches, all on the calling thread
    options = {
        **PROBE_OPTION,
        "differ": (choice("0", "1"), "1: every second search of the learning engine starts "
                                     "in stable mode, the others in focused mode"),
        "share": (choice("0", "1"), "0: every search searches the whole puzzle (a "
                                    "portfolio) instead of splitting it with the others"),
    }
    origin = "time-sliced splitting on one core (cube and conquer without threads)"
    description = ("N searches take turns on one thread in ~20 ms slices; one that runs out "
                   "of nodes gets the bottom half of a busy one's stack (the learning engine "
                   "cuts a lone node in two)")

    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        differ = job.options.get("differ") == "1"
        share = job.options.get("share", "1") == "1"
        first, early, count, kept, probed = _probe(job, n, share)
        if early is not None:
            return early
        turns = [_Turn(0, first)]
        for i in range(1, n):
            turns.append(_Turn(i, job_state(job), stable_first=differ and i % 2 == 1))
            if not share:
                turns[-1].state.push_root()
        seen = _Seen(probed) if not share else None
        reason = "exhausted"
        while True:
            busy = [t for t in turns if t.state.size > 0]
            if not busy or len(busy) < len(turns) and not share:
                break  # every node seen (without sharing: all of them by one search)
            end = self._end(job, turns)
            if end:
                reason = end
                break
            idle = [t for t in turns if t.state.size == 0] if share else []
            for t in busy:
                if idle:
                    t.ctrl[abi.CTRL_WANT_WORK] = 1
                count, kept, r = self._run(job, t, turns, count, kept, seen)
                t.ctrl[abi.CTRL_WANT_WORK] = 0
                if r == abi.WORK_REQUESTED:
                    if idle and t.state.size >= 2:
                        nodes, dirty = t.state.take_bottom(max(1, t.state.size // 2))
                        taker = idle.pop(0)
                        taker.state.push_many(nodes, dirty)
                        t.handed += len(nodes)
                        taker.taken += len(nodes)
                if (r == abi.STOPPED or (job.limit > 0 and count >= job.limit)
                        or (not share and t.state.size == 0)):
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
             kept: list[np.ndarray], seen: _Seen | None
             ) -> tuple[int, list[np.ndarray], int]:
        """One slice of search ``t``: (solutions counted, solutions kept, kernel's reason).
        With ``seen`` (searches that do not share) the kernel returns at each solution,
        and only those no search found before count."""
        step = t.step
        if job.node_budget > 0:
            step = max(1, min(step, job.node_budget - _nodes(turns)))
        if seen is not None:
            remaining = 1
        else:
            remaining = max(1, job.limit - count) if job.limit > 0 else 0
        t.ctrl[abi.CTRL_STOP] = job.ctrl[abi.CTRL_STOP]
        t0 = time.perf_counter()
        r = t.state.run(t.ctrl, remaining, job.on_solution is not None, step)
        elapsed = time.perf_counter() - t0
        t.calls += 1
        found = t.state.found_solutions()
        if seen is not None:
            found = seen.new(found)
            take = len(found) if job.limit <= 0 else max(0, min(len(found), job.limit - count))
        else:
            take = (t.state.found if job.limit <= 0
                    else max(0, min(t.state.found, job.limit - count)))
        count += take
        if job.on_solution is not None:
            for s in found[:take]:
                job.on_solution(s)
        elif len(kept) < job.keep:
            kept.extend(found[: min(take, job.keep - len(kept))])
        if elapsed < TURN_SECONDS / 2 and t.step < 1 << 22:
            t.step *= 2
        elif elapsed > 2 * TURN_SECONDS and t.step > 16:
            t.step //= 2
        return count, kept, int(r)
