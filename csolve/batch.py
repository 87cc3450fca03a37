"""Many same-shaped puzzles on several threads: the batch kernel split into chunks.

Parallelism across puzzles (seed 000's future work) needs no sharing inside a search: each
thread pulls the next chunk of puzzles, solves it with one ``solve_batch`` kernel call (GIL
released) into its rows of the shared result arrays, and asks for another. Small chunks
balance the load; each thread has its own control array, so a per-puzzle time-out gives up
only the puzzle that thread is on, and a stop reaches every thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import ModuleType

import numpy as np

from csolve.kernels import abi
from csolve.model import Model
from csolve.search import BatchScratch, new_ctrl


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
                now = time.monotonic()
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
