"""Many same-shaped puzzles on several threads: the batch kernel split into chunks.

Parallelism across puzzles (future work in Chiu, Nasiri & Rashid 2012, §7) needs no sharing
inside a search: each thread pulls the next chunk of puzzles, solves it with one
``solve_batch`` kernel call (GIL released) into its rows of the shared result arrays, and asks
for another. Small chunks balance the load; each thread has its own control array, so a
per-puzzle time-out gives up only the puzzle that thread is on, and a stop reaches every thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import ModuleType

import numpy as np

from csolve.backends.base import GroupJob
from csolve.kernels import abi
from csolve.model import Model
from csolve.search import BatchScratch, new_ctrl


def _now() -> float:
    """The clock per-puzzle time limits are read from (tests replace it)."""
    return time.monotonic()


def solve_chunks(model: Model, kernels: ModuleType, inits: np.ndarray, limit: int,
                 timeout: float | None, ctrl: np.ndarray, workers: int,
                 progress: Callable[[int], None] | None,
                 reason: np.ndarray, sols: np.ndarray, counts: np.ndarray,
                 stats: np.ndarray) -> None:
    """Fill ``reason/sols/counts/stats`` for every row of ``inits`` using ``workers`` threads."""
    n_puzzles, n = inits.shape
    chunk = max(1, min(64, n_puzzles // (workers * 8) or 1))
    starts = list(range(0, n_puzzles, chunk))
    nxt = [0]
    lock = threading.Lock()
    ctrls = [new_ctrl() for _ in range(workers)]
    done = np.zeros(workers, dtype=np.int64)  # puzzles finished by each thread's past chunks
    los = [0] * workers  # first row of each thread's current chunk
    errors: list[BaseException] = []

    def body(k: int) -> None:
        c = ctrls[k]
        scratch = BatchScratch(model)
        try:
            while not c[abi.CTRL_STOP]:
                with lock:
                    if nxt[0] >= len(starts):
                        return
                    lo = starts[nxt[0]]
                    nxt[0] += 1
                hi = min(n_puzzles, lo + chunk)
                c[abi.CTRL_SKIP] = 0
                c[abi.CTRL_DONE] = 0
                c[abi.CTRL_CURRENT] = 0
                c[abi.CTRL_NODE_BUDGET] = ctrl[abi.CTRL_NODE_BUDGET]
                los[k] = lo
                scratch.solve(kernels, model, inits[lo:hi], limit, c, reason[lo:hi],
                              sols[lo:hi], counts[lo:hi], stats[lo:hi])
                c[abi.CTRL_DONE] = 0
                done[k] += hi - lo
        except BaseException as e:  # surfaced in the calling thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(k,), name=f"csolve-batch-{k}", daemon=True)
               for k in range(workers)]
    watch = [(-1, 0.0)] * workers
    for t in threads:
        t.start()
    try:
        while True:
            alive = [t for t in threads if t.is_alive()]
            if not alive:
                break
            alive[0].join(0.02)  # returns as soon as that thread ends
            if ctrl[abi.CTRL_STOP]:
                for c in ctrls:
                    c[abi.CTRL_STOP] = 1
            if progress is not None:  # puzzles given up for their node budget are not done
                progress(int(done.sum() + sum(int(c[abi.CTRL_DONE]) - int(c[abi.CTRL_GAVE_UP])
                                              for c in ctrls)))
            if timeout:
                now = _now()
                for k, c in enumerate(ctrls):
                    cur = int(c[abi.CTRL_CURRENT])
                    if los[k] + cur != watch[k][0]:
                        watch[k] = (los[k] + cur, now)
                    elif now - watch[k][1] > timeout:
                        c[abi.CTRL_SKIP] = cur + 1
    except BaseException:
        for c in ctrls:
            c[abi.CTRL_STOP] = 1
        for t in threads:
            t.join()
        raise
    if errors:
        raise errors[0]
    ctrl[abi.CTRL_GAVE_UP] = sum(int(c[abi.CTRL_GAVE_UP]) for c in ctrls)
    if progress is not None:
        progress(n_puzzles - int(ctrl[abi.CTRL_GAVE_UP]))


def solve_group_on_threads(job: GroupJob) -> None:
    """The default :meth:`Backend.solve_group`: one batch kernel call on a helper thread
    (the calling thread watches time-outs and Ctrl-C), or chunks on ``job.workers``
    threads."""
    n_puzzles = job.inits.shape[0]
    ctrl = job.ctrl
    ctrl[abi.CTRL_DONE] = 0
    ctrl[abi.CTRL_SKIP] = 0
    ctrl[abi.CTRL_GAVE_UP] = 0
    ctrl[abi.CTRL_NODE_BUDGET] = job.node_budget
    try:
        if job.workers > 1 and n_puzzles > 1:
            solve_chunks(job.model, job.kernels, job.inits, job.limit, job.timeout, ctrl,
                         min(job.workers, n_puzzles), job.progress, job.reason, job.sols,
                         job.counts, job.stats)
            return
        scratch = BatchScratch(job.model)
        watch = {"current": -1, "since": _now()}

        def poll() -> None:
            if job.progress is not None:  # puzzles given up for their budget are not done
                job.progress(int(ctrl[abi.CTRL_DONE]) - int(ctrl[abi.CTRL_GAVE_UP]))
            if job.timeout:
                cur = int(ctrl[abi.CTRL_CURRENT])
                now = _now()
                if cur != watch["current"]:
                    watch["current"], watch["since"] = cur, now
                elif now - watch["since"] > job.timeout:
                    ctrl[abi.CTRL_SKIP] = cur + 1

        run_in_thread(lambda: scratch.solve(job.kernels, job.model, job.inits, job.limit, ctrl,
                                            job.reason, job.sols, job.counts, job.stats),
                      ctrl, poll)
    finally:
        ctrl[abi.CTRL_NODE_BUDGET] = 0


def run_in_thread(target: Callable[[], None], ctrl: np.ndarray,
                  poll: Callable[[], None] = lambda: None, name: str = "csolve-batch",
                  every: float = 0.05) -> None:
    """Run a GIL-free kernel call in a thread, so that Ctrl-C reaches the calling thread
    (which then stops the kernels through ``ctrl``) and ``poll`` runs while it waits, every
    ``every`` seconds."""
    errors: list[BaseException] = []

    def body() -> None:
        try:
            target()
        except BaseException as e:  # surfaced in the calling thread
            errors.append(e)

    t = threading.Thread(target=body, name=name, daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(every)
            poll()
    except BaseException:
        ctrl[abi.CTRL_STOP] = 1
        t.join()
        raise
    poll()
    if errors:
        raise errors[0]
