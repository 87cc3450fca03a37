"""The thread backends of the seeds, and work stealing: one policy class each.

Every worker searches depth-first on a private stack (the search kernel); the policies differ
in where idle workers find nodes and how busy workers give them away. A busy worker is asked
to share by setting ``CTRL_WANT_WORK`` in its control array; its kernel returns at the next
node and the policy moves the nodes nearest the root (the largest subtrees) out of its stack.
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque

import numpy as np

from csolve.backends.base import PROBE_OPTION, choice, number
from csolve.backends.threads import Team, ThreadedBackend, Worker
from csolve.kernels import abi
from csolve.search import root_propagated

_WAIT = 0.05  # seconds: upper bound on a condition wait (every event also notifies)


def _half(w: Worker) -> tuple[np.ndarray, np.ndarray]:
    """Half of ``w``'s stack, removed from it: every other node from the bottom (at least
    one), so the giver keeps about a third of its work instead of almost none
    (:meth:`~csolve.search.SearchState.take_alternate`)."""
    nodes, dirty = w.state.take_alternate()
    w.handed += len(nodes)
    return nodes, dirty


def _receive(w: Worker, chunk: tuple[np.ndarray, np.ndarray]) -> None:
    nodes, dirty = chunk
    w.state.push_many(nodes, dirty)
    w.taken += len(nodes)


def _ask_busy(team: Team, w: Worker) -> None:
    for o in team.workers:
        if o is not w and o.busy:
            o.ctrl[abi.CTRL_WANT_WORK] = 1


class LockedPool(ThreadedBackend):
    """One global pool of nodes; its lock is held only to push or pop."""

    name = "locked-pool"
    origin = "Chiu, Nasiri & Rashid 2012, §3.3.4 (fine-grained lock)"
    description = ("one global pool of subtrees, lock held only to push/pop; an idle worker "
                   "asks busy ones to push half of their stacks (every other node from the bottom)")

    def setup(self, team: Team) -> None:
        team.pool = deque()

    def acquire(self, team: Team, w: Worker) -> bool:
        with w.locked(team.lock):
            while True:
                if team.over.is_set():
                    return False
                if team.pool:
                    _receive(w, team.pool.popleft())
                    team.go_busy(w)
                    return True
                if team.go_idle(w, pending=len(team.pool)):
                    return False
                _ask_busy(team, w)
                team.cond.wait(_WAIT)

    def share(self, team: Team, w: Worker) -> None:
        w.ctrl[abi.CTRL_WANT_WORK] = 0
        with w.locked(team.lock):
            if team.idle > len(team.pool) and w.state.size >= 2:
                team.pool.append(_half(w))
                team.cond.notify()


class CoarseLock(LockedPool):
    """The same pool, but one lock is held across each whole search step: serial again."""

    name = "coarse-lock"
    origin = "Chiu, Nasiri & Rashid 2012, §3.3.4 (coarse-grained lock)"
    description = ("the locked pool with the lock held across every expand step - shows why "
                   "a coarse lock is slower than serial")
    SLICE = 64  # nodes per step under the lock, so workers take turns

    def setup(self, team: Team) -> None:
        super().setup(team)
        team.big = threading.Lock()

    def run_slice(self, team: Team, w: Worker) -> int:
        with w.locked(team.big):
            return w.state.run(w.ctrl, team.remaining(), team.stream is not None,
                               min(self.SLICE, team.slice_nodes()))


class MessagePassing(ThreadedBackend):
    """Private lists; an idle worker raises a flag to its ring neighbour, who hands it half."""

    name = "message-passing"
    origin = ("Chiu, Nasiri & Rashid 2012, §3.3.1-3.3.3 (message passing; "
              "-O wait=spin|yield|condvar)")
    description = ("private stacks; an idle worker flags its ring neighbour, which hands over "
                   "half of its list; waits by spin, yield or condition variable")
    WAITS = ("spin", "yield", "condvar")
    options = {**PROBE_OPTION,
               "wait": (choice(*WAITS), "how an idle worker waits: spin, yield or condvar")}

    def setup(self, team: Team) -> None:
        wait = team.job.options.get("wait") or "yield"
        if wait not in self.WAITS:
            from csolve.errors import UnknownNameError

            raise UnknownNameError(f"unknown wait {wait!r} (known: {', '.join(self.WAITS)})")
        team.wait = wait
        team.given = np.zeros(team.n, dtype=np.int64)  # 1: work (or the end) delivered
        team.mail = [None] * team.n
        team.asking = [False] * team.n
        team.conds = [threading.Condition() for _ in range(team.n)]
        if wait == "spin":
            from csolve.kernels.wait import spin_until_set

            team.spin = spin_until_set
            spin_until_set(team.given, 0, 0)  # load (or compile) before the clock matters

    def on_finish(self, team: Team) -> None:
        given = getattr(team, "given", None)
        if given is None:
            return
        given[:] = 1
        for c in team.conds:
            with c:
                c.notify_all()

    def acquire(self, team: Team, w: Worker) -> bool:
        i = w.index
        with w.locked(team.lock):
            if team.over.is_set():
                return False
            if team.mail[i] is not None:
                _receive(w, team.mail[i])
                team.mail[i] = None
                return True
            if team.go_idle(w):
                return False
            team.given[i] = 0
            team.asking[i] = True
            team.workers[(i + 1) % team.n].ctrl[abi.CTRL_WANT_WORK] = 1
        self._wait(team, i)
        with w.locked(team.lock):
            if team.mail[i] is not None:
                _receive(w, team.mail[i])
                team.mail[i] = None
                return True
        return not team.over.is_set()

    def _wait(self, team: Team, i: int) -> None:
        given = team.given
        if team.wait == "spin":
            while not given[i] and not team.over.is_set():
                team.spin(given, i, 2_000_000)  # ~1 ms, then look at the clock again
        elif team.wait == "yield":
            while not given[i] and not team.over.is_set():
                time.sleep(0)
        else:
            c = team.conds[i]
            with c:
                while not given[i] and not team.over.is_set():
                    c.wait(_WAIT)

    def share(self, team: Team, w: Worker) -> None:
        w.ctrl[abi.CTRL_WANT_WORK] = 0
        req = (w.index - 1) % team.n
        with w.locked(team.lock):
            if not team.asking[req] or w.state.size < 2:
                return
            team.mail[req] = _half(w)
            team.asking[req] = False
            team.go_busy(team.workers[req])
            team.given[req] = 1
        c = team.conds[req]
        with c:
            c.notify()


class WorkStealing(ThreadedBackend):
    """Per-worker deques; an idle worker steals the oldest subtree of a random victim."""

    name = "work-stealing"
    origin = ("Chiu, Nasiri & Rashid 2012, §7 (future work); Blumofe & Leiserson 1999 "
              "(work stealing, as in Cilk)")
    description = ("per-worker deques; an idle worker steals the oldest subtrees from a random "
                   "victim, asking a busy one to publish when every deque is empty")

    def setup(self, team: Team) -> None:
        team.deques = [deque() for _ in range(team.n)]
        team.dlocks = [threading.Lock() for _ in range(team.n)]
        team.rng = [random.Random(i) for i in range(team.n)]
        # chunks in the deques that no thief has claimed yet (under team.lock): counted
        # once a chunk is in its deque, and claimed before it is taken out, so it is never
        # more than the deques hold and a claim always finds a chunk
        team.pending = 0

    def _steal(self, team: Team, w: Worker) -> bool:
        with w.locked(team.lock):
            if team.pending <= 0:
                return False
            team.pending -= 1  # one chunk in the deques is this worker's now
        i = w.index
        while True:  # (another thief may take the chunk seen first: look again)
            with w.locked(team.dlocks[i]):
                chunk = team.deques[i].pop() if team.deques[i] else None
            if chunk is None:
                order = [v for v in range(team.n) if v != i]
                team.rng[i].shuffle(order)
                for v in order:
                    if not team.deques[v]:
                        continue
                    with w.locked(team.dlocks[v]):
                        chunk = team.deques[v].popleft() if team.deques[v] else None
                    if chunk is not None:
                        break
            if chunk is not None:
                _receive(w, chunk)
                return True

    def acquire(self, team: Team, w: Worker) -> bool:
        # A worker counts as busy while it looks for work, so termination cannot be declared
        # between a steal and its push. Finding nothing, it stays idle until a chunk is
        # published or the search ends: with hundreds of workers on a few cores, workers
        # that looked again on every wake kept the idle count short of all, and the search
        # never ended.
        rng = team.rng[w.index]
        while not team.over.is_set():
            if self._steal(team, w):
                return True
            with w.locked(team.lock):
                if team.go_idle(w, pending=team.pending):
                    return False
                while team.pending <= 0 and not team.over.is_set():
                    for _ in range(8):  # ask a busy worker to publish (a few random tries)
                        other = team.workers[rng.randrange(team.n)]
                        if other.busy:
                            other.ctrl[abi.CTRL_WANT_WORK] = 1
                            break
                    team.cond.wait(_WAIT)
                if team.over.is_set():
                    return False
                team.go_busy(w)
        return False

    def share(self, team: Team, w: Worker) -> None:
        w.ctrl[abi.CTRL_WANT_WORK] = 0
        if w.state.size < 2:
            return
        nodes, dirty = _half(w)
        with w.locked(team.dlocks[w.index]):
            team.deques[w.index].append((nodes, dirty))
        with team.lock:
            team.pending += 1
            team.cond.notify()  # one idle worker for the one chunk


class StaticPartition(ThreadedBackend):
    """BFS to a frontier of >= k x workers nodes, dealt round-robin; no sharing afterwards."""

    name = "static-partition"
    origin = ("Mishra, Goel & Nikhitha 2021, §4.1-4.2 (BFS frontier, static round-robin); "
              "Régin, Rezgui & Malapert 2013 (embarrassingly parallel search)")
    description = ("breadth-first until the frontier holds k x workers nodes (--option k, "
                   "default 8), dealt round-robin; each worker searches its share alone")
    options = {**PROBE_OPTION,
               "k": (number(int, 1), "frontier nodes per worker before the search is dealt out")}

    def setup(self, team: Team) -> None:
        k = int(team.job.options.get("k", 8))
        first = team.workers[0].state
        frontier = deque(zip(*first.take_bottom(first.size), strict=True))
        target = max(1, k) * team.n
        scratch = self.new_state(team.job)
        budget = team.job.node_budget

        def budget_spent() -> bool:
            return 0 < budget <= int(first.stats[abi.STAT_NODES] + scratch.stats[abi.STAT_NODES])

        # The breadth-first steps run in the calling thread before the watcher does, so they
        # watch the clock and the stop flag themselves. An engine that hands a node back whole
        # (the learning engine resumes it) does not widen the frontier: after as many steps
        # again as the frontier should hold without growing, the workers take what there is.
        stalled = 0
        while (frontier and len(frontier) < target and not team.over.is_set()
               and not budget_spent() and stalled < target):
            if team.job.stopped():
                team.finish("stopped")
                break
            if team.job.timed_out():
                team.finish("timeout")
                break
            before = len(frontier)
            node, d = frontier.popleft()
            scratch.push(node, int(d))
            scratch.run(team.workers[0].ctrl, team.remaining(), team.stream is not None, 1)
            team.add(scratch)
            if scratch.size:
                frontier.extend(zip(*scratch.take_bottom(scratch.size), strict=True))
            stalled = stalled + 1 if len(frontier) <= before else 0
        nodes = list(frontier)
        for j, w in enumerate(team.workers):
            mine = nodes[j::team.n]
            if mine:
                w.state.push_many(np.stack([m[0] for m in mine]),
                                  np.array([m[1] for m in mine], dtype=np.int64))
                w.taken += len(mine)
        team.workers[0].state.stats += scratch.stats

    def acquire(self, team: Team, w: Worker) -> bool:
        with w.locked(team.lock):
            if team.go_idle(w):
                return False
            while not team.over.is_set():
                team.cond.wait(_WAIT)
        return False


class PathStack(ThreadedBackend):
    """A shared stack of guess paths, replayed on a private copy of the root (Vandecasteele &
    Trappett 2021)."""

    name = "path-stack"
    origin = ("Vandecasteele & Trappett 2021, §4.3.3-4.3.5 (shared stack of guess paths, "
              "cancellation points)")
    description = ("a shared stack of paths (cells narrowed since the root, not whole grids); "
                   "a worker replays a path on its own copy and propagates")

    def setup(self, team: Team) -> None:
        first = team.workers[0].state
        root = team.job.model.init.copy()
        if not root_propagated(first.kernels, root, team.job.model, first.ws):
            root = team.job.model.init.copy()
        team.root = root
        team.paths = []

    def acquire(self, team: Team, w: Worker) -> bool:
        with w.locked(team.lock):
            while True:
                if team.over.is_set():
                    return False
                if team.paths:
                    cells, masks = team.paths.pop()
                    team.go_busy(w)
                    break
                if team.go_idle(w, pending=len(team.paths)):
                    return False
                _ask_busy(team, w)
                team.cond.wait(_WAIT)
        node = team.root.copy()
        node[cells] = masks
        w.state.push(node, -1)  # -1: the kernel propagates every single: the replay
        w.taken += 1
        return True

    def share(self, team: Team, w: Worker) -> None:
        w.ctrl[abi.CTRL_WANT_WORK] = 0
        if w.state.size < 2:
            return
        with w.locked(team.lock):
            if team.idle <= len(team.paths):
                return
        nodes, _ = _half(w)
        root = team.root
        paths = []
        for node in nodes:
            cells = np.flatnonzero(node != root).astype(np.int32)
            paths.append((cells, node[cells].copy()))
        with w.locked(team.lock):
            team.paths.extend(reversed(paths))  # nearest the root on top
            team.cond.notify_all()


BACKENDS = (LockedPool, CoarseLock, MessagePassing, WorkStealing, StaticPartition, PathStack)
