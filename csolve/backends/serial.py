"""``serial``: one worker, the reference every other backend is measured against."""

from __future__ import annotations

import time

from csolve.backends.base import Backend, SearchJob, SearchOutcome
from csolve.kernels import abi
from csolve.search import SearchState, stats_dict

#: target wall time of one kernel call: short enough to notice a time-out or Ctrl-C quickly
SLICE_SECONDS = 0.02


class SerialBackend(Backend):
    name = "serial"
    description = "One worker, depth-first on one stack: the reference (Norvig's search)"
    origin = "seed 000 §3.2 (serial solver)"

    def solve(self, job: SearchJob) -> SearchOutcome:
        capacity = 64 if job.on_solution else max(1, job.keep)
        state = SearchState(job.model, job.kernels, solution_capacity=capacity)
        state.push_root()
        count = 0
        kept = []
        budget = 256
        reason = "exhausted"
        while True:
            if job.stopped():
                reason = "stopped"
                break
            if job.timed_out():
                reason = "timeout"
                break
            remaining = job.limit - count if job.limit > 0 else 0
            t0 = time.perf_counter()
            r = state.run(job.ctrl, remaining, job.on_solution is not None, budget)
            elapsed = time.perf_counter() - t0
            found = state.found_solutions()
            count += state.found
            if job.on_solution is not None:
                for s in found:
                    job.on_solution(s)
            elif len(kept) < job.keep:
                kept.extend(found[: job.keep - len(kept)])
            if r == abi.EXHAUSTED:
                break
            if r == abi.LIMIT:
                reason = "limit"
                break
            if r == abi.STOPPED:
                reason = "stopped"
                break
            # adapt the slice so one call takes about SLICE_SECONDS
            if elapsed < SLICE_SECONDS / 2 and budget < 1 << 22:
                budget *= 2
            elif elapsed > SLICE_SECONDS * 2 and budget > 16:
                budget //= 2
        stats = stats_dict(state.stats)
        return SearchOutcome(reason, count, kept, stats, workers=[dict(stats, worker=0)])
