"""``conflict-lock``: Tarhini & Hajj's cell-level parallelism, reproduced faithfully (it loses).

Work items are cells. Each worker gets an equal share of the open cells, sorted by fewest
candidates; to set a cell it takes, without waiting, a lock over the cell's whole conflict
boundary (every group holding the cell - row, column, box for Sudoku); if another worker
holds part of it the item goes to the back of the queue. Setting a cell records a choice
point (the state, the cell, the value) on one shared trail and removes the value from the
cell's peers. A worker that empties a cell broadcasts: every worker stops at the end of its
item, the coordinator restores the latest choice point with the value excluded, propagates,
and deals the open cells out again. A full grid is checked by the model's propagation.

Each step is a few Python operations under the GIL, so this cannot beat the compiled
depth-first search - the point of keeping it is to measure that.
"""

from __future__ import annotations

import threading
import time
from collections import deque

import numpy as np

from csolve.backends.base import Backend, SearchJob, SearchOutcome
from csolve.kernels.workspace import new_workspace
from csolve.search import root_propagated

_ONE = np.uint64(1)


class ConflictLock(Backend):
    name = "conflict-lock"
    parallel = True
    origin = ("Tarhini & Hajj, AUB (cell work items, conflict-boundary locks, "
              "backtrack by broadcast)")
    description = ("work items are cells sorted by fewest candidates; a worker locks the "
                   "cell's row, column and box to set it; a dead end is broadcast to all")

    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        m = job.model.kernel
        kern = job.kernels
        ws = new_workspace(job.model.n_cells)
        since = time.monotonic()  # load (or compile) the propagation kernel before the clock
        root_propagated(kern, job.model.init.copy(), job.model, ws)
        job.loaded_kernels(since)
        ncell = job.model.n_cells
        groups_of = [m.cell_groups[m.cell_group_ptr[c]:m.cell_group_ptr[c + 1]].tolist()
                     for c in range(ncell)]
        peers_of = [m.peers[m.peer_ptr[c]:m.peer_ptr[c + 1]].tolist() for c in range(ncell)]
        glocks = [threading.Lock() for _ in range(len(m.group_ptr) - 1)]
        mu = threading.Lock()
        S = job.model.init.copy()
        trail: list[tuple[np.ndarray, int, np.uint64]] = []
        dead = threading.Event()  # the broadcast
        start, end = threading.Barrier(n + 1), threading.Barrier(n + 1)
        queues: list[deque] = [deque() for _ in range(n)]
        rows = [{"worker": i, "nodes": 0, "calls": 0, "handed": 0, "taken": 0,
                 "idle_s": 0.0, "lock_s": 0.0, "solutions": 0} for i in range(n)]
        quit_ = [False]

        def work(i: int) -> None:
            q, row = queues[i], rows[i]
            while True:
                t0 = time.perf_counter()
                try:
                    start.wait()
                except threading.BrokenBarrierError:
                    return
                row["idle_s"] += time.perf_counter() - t0
                if quit_[0]:
                    return
                while q and not dead.is_set() and not job.ctrl[0]:
                    c = q.popleft()
                    got = []
                    for g in groups_of[c]:  # sorted: no two workers wait on each other
                        if glocks[g].acquire(blocking=False):
                            got.append(g)
                        else:
                            break
                    if len(got) < len(groups_of[c]):
                        for g in got:
                            glocks[g].release()
                        q.append(c)
                        row["lock_s"] += 1e-6  # a failed try, counted as contention
                        continue
                    try:
                        with mu:
                            x = S[c]
                            if x == 0:
                                dead.set()
                                continue
                            if x & (x - _ONE) == 0:
                                continue  # already fixed by a peer's elimination
                            v = x & (~x + _ONE)
                            trail.append((S.copy(), c, v))
                            S[c] = v
                        row["nodes"] += 1
                        for p in peers_of[c]:
                            with mu:
                                S[p] &= ~v
                                if S[p] == 0:
                                    dead.set()
                    finally:
                        for g in got:
                            glocks[g].release()
                try:
                    end.wait()
                except threading.BrokenBarrierError:
                    return

        def deal() -> None:
            open_cells = [c for c in range(ncell) if S[c] & (S[c] - _ONE)]
            open_cells.sort(key=lambda c: bin(int(S[c])).count("1"))
            for q in queues:
                q.clear()
            for k, c in enumerate(open_cells):  # equal shares, fewest candidates first
                queues[k % n].append(c)

        def propagated() -> bool:
            return root_propagated(kern, S, job.model, ws)

        restored = [0]  # states gone back to after a dead end: nodes, as in the kernels

        def backtrack() -> bool:
            while trail:
                snap, c, v = trail.pop()
                S[:] = snap
                S[c] &= ~v
                if S[c] != 0 and propagated():
                    restored[0] += 1
                    return True
            return False

        threads = [threading.Thread(target=work, args=(i,), daemon=True,
                                    name=f"csolve-conflict-lock-{i}") for i in range(n)]
        for t in threads:
            t.start()
        count, kept, reason = 0, [], "exhausted"
        epochs = 0
        try:
            alive = propagated()
            while alive:
                if job.ctrl[0]:
                    reason = "stopped"
                    break
                if job.timed_out():
                    reason = "timeout"
                    break
                deal()
                dead.clear()
                start.wait()
                end.wait()
                epochs += 1
                if not dead.is_set() and propagated() and all(
                        S[c] & (S[c] - _ONE) == 0 for c in range(ncell)):
                    count += 1
                    rows[0]["solutions"] += 1
                    if job.on_solution is not None:
                        job.on_solution(S.copy())
                    elif len(kept) < job.keep:
                        kept.append(S.copy())
                    if job.limit > 0 and count >= job.limit:
                        reason = "limit"
                        break
                alive = backtrack()
        finally:
            quit_[0] = True
            dead.set()
            start.abort()  # wakes every worker, wherever it waits
            end.abort()
            for t in threads:
                t.join()
        guesses = sum(r["nodes"] for r in rows)
        # the root and the states gone back to are nodes too, as the compiled searches count
        # them (a puzzle its propagation solves took one node, not none); worker 0's row
        # carries them, as it does the solutions
        rows[0]["nodes"] += 1 + restored[0]
        stats = {"nodes": sum(r["nodes"] for r in rows), "guesses": guesses,
                 "backtracks": epochs - count,
                 "passes": epochs, "solutions": count}
        for r in rows:
            r["lock_s"] = round(r["lock_s"], 4)
            r["idle_s"] = round(r["idle_s"], 4)
        return SearchOutcome(reason, count, kept, stats, workers=rows)
