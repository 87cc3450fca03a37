"""``serial``: one worker, the reference every other backend is measured against."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from csolve.backends.base import Backend, SearchJob, SearchOutcome
from csolve.kernels import abi
from csolve.search import SearchState, stats_dict

#: default seconds the calling thread searches alone before a sharing backend fans out
PROBE_SECONDS = 0.003


class SerialBackend(Backend):
    name = "serial"
    description = "One worker, depth-first on one stack: the reference (Norvig's search)"
    origin = "Chiu, Nasiri & Rashid 2012, §3.2 (serial solver)"

    def map_ordered(self, fn: Callable[[Any, np.ndarray], Any], items: Sequence[Any],
                    workers: int, ctrl: np.ndarray, options: dict | None = None
                    ) -> Iterator[Any]:
        """One item at a time, whatever ``workers`` says: the reference does one thing at
        a time, in generating too."""
        from csolve.generate import generate_in_order

        return generate_in_order(fn, items, 1, ctrl)

    def solve(self, job: SearchJob) -> SearchOutcome:
        state = job_state(job)
        state.push_root()
        outcome, _count, _kept = search_alone(job, state, float("inf"), job.node_budget)
        assert outcome is not None  # with no time cap the search runs to its end
        return outcome


def job_state(job: SearchJob) -> SearchState:
    """A search state for ``job``, with room for the solutions it streams or keeps."""
    capacity = 64 if job.on_solution else max(1, job.keep)
    return SearchState(job.model, job.kernels, solution_capacity=capacity)


def probe_alone(job: SearchJob, workers: int
                ) -> tuple[SearchState, SearchOutcome | None, int, list[np.ndarray]]:
    """The small-puzzle guard of the sharing backends: the calling thread searches the root
    alone for the ``probe`` option's seconds (to the end with one worker). Returns its
    state, the outcome if that was enough, and the solutions counted and kept so far."""
    first = job_state(job)
    first.push_root()
    probe = float(job.options.get("probe", PROBE_SECONDS))
    early, count, kept = search_alone(job, first, probe if workers > 1 else float("inf"),
                                      job.node_budget)
    return first, early, count, kept


def search_alone(job: SearchJob, state: SearchState, seconds: float, node_budget: int = 0
                 ) -> tuple[SearchOutcome | None, int, list[np.ndarray]]:
    """Search alone in the calling thread for up to ``seconds``: (outcome if that was
    enough, solutions counted, solutions kept). ``node_budget`` > 0 ends the search after
    that many nodes (reason ``gave-up``).

    This is the small-puzzle guard (and the whole search with one worker): most puzzles need
    a handful of nodes, and starting threads would cost more than solving them.
    """
    t_end = time.perf_counter() + seconds
    count = 0
    kept: list[np.ndarray] = []
    budget = 64
    reason = None
    while True:
        end = job.must_end()
        if end is not None:
            reason = end
            break
        remaining = job.limit - count if job.limit > 0 else 0
        step = budget
        if node_budget > 0:
            left = node_budget - int(state.stats[abi.STAT_NODES])
            if left <= 0:
                reason = "gave-up"
                break
            step = min(step, left)
        t0 = time.perf_counter()
        r = state.run(job.ctrl, remaining, job.on_solution is not None, step)
        elapsed = time.perf_counter() - t0
        count = job.collect(count, kept, state.found, state.found_solutions())
        if r == abi.EXHAUSTED:
            reason = "exhausted"
            break
        if r == abi.LIMIT:
            reason = "limit"
            break
        if r == abi.STOPPED:
            reason = "stopped"
            break
        if time.perf_counter() >= t_end and state.size >= 1:
            break  # fan out: even one node can be shared (an engine may split it)
        if elapsed < 0.01 and budget < 1 << 22:
            budget *= 2
        elif elapsed > 0.04 and budget > 16:
            budget //= 2
    if reason is None:
        return None, count, kept
    stats = stats_dict(state.stats)
    row = {"worker": 0, "nodes": stats["nodes"], "calls": 0, "handed": 0, "taken": 0,
           "idle_s": 0.0, "lock_s": 0.0, "solutions": stats["solutions"]}
    return SearchOutcome(reason, count, kept, stats, workers=[row]), count, kept
