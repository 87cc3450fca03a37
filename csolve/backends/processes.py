"""``process-pool``: the same search spread over processes, to compare with threads.

Processes cannot share a stack, so the calling process keeps the frontier: it hands chunks
of nodes to a pool of ``spawn``-started processes (never ``fork``: numba's OpenMP layer
kills forked children), each task searches its chunk for a time slice and sends back what it
found plus the nodes it did not reach, which go back into the frontier. Slices of ~50 ms
amortise the pickling (measured here: process pools need >= 1-10 ms tasks).
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from csolve.backends.base import PROBE_OPTION, Backend, SearchJob, SearchOutcome, number
from csolve.backends.serial import probe_alone
from csolve.errors import CsolveError, ExitCode
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl, stats_dict

if TYPE_CHECKING:  # imported when a pool starts: a run on threads never needs them
    import concurrent.futures as cf

SLICE_SECONDS = 0.05
_pools: dict[int, cf.ProcessPoolExecutor] = {}
_lock = threading.Lock()
#: the models (by rules and engine) whose kernels a pool's processes have loaded; it goes
#: with its pool
_ready_for: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: the most worker processes per core a pool starts: each is a whole interpreter with numba
#: and the kernels loaded (hundreds of MB), and past the cores they only take turns
PROCESSES_PER_CORE = 4


def _check_processes(n: int) -> None:
    """Refuse a pool of more than :data:`PROCESSES_PER_CORE` processes per core: hundreds
    of them take minutes to start (a time the limit leaves out) and gigabytes of memory."""
    from csolve.defaults import cores

    most = PROCESSES_PER_CORE * cores()
    if n > most:
        from csolve.errors import OptionError

        raise OptionError(f"process-pool starts a process per worker: {n} workers is more "
                          f"than {PROCESSES_PER_CORE} per core here ({cores()} cores); at "
                          f"most {most}")


def _pool(n: int) -> cf.ProcessPoolExecutor:
    import concurrent.futures as cf
    import multiprocessing

    _check_processes(n)

    with _lock:
        pool = _pools.get(n)
        if pool is None:
            pool = cf.ProcessPoolExecutor(max_workers=n,
                                          mp_context=multiprocessing.get_context("spawn"),
                                          initializer=_leave_interrupts_to_the_parent)
            if not _pools:
                atexit.register(shutdown_all)
            _drop_the_cancelled_future_race()
            _pools[n] = pool
        return pool


def _drop_the_cancelled_future_race() -> None:
    """Python 3.11's pool manager thread, when a worker dies after futures were cancelled
    (a stop, then SIGTERM to the whole job, or the pool ended on Ctrl-C), sets an exception
    on those cancelled futures too and prints the ``InvalidStateError`` that raises (later
    Pythons skip futures already done). The stop is csolve's to say, so that one error of
    that one thread is dropped; every other thread's errors go on as before."""
    import threading
    from concurrent.futures import InvalidStateError

    if getattr(threading.excepthook, "csolve_pool_race", False):
        return
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if (args.exc_type is InvalidStateError
                and type(args.thread).__name__ == "_ExecutorManagerThread"):
            return
        previous(args)

    hook.csolve_pool_race = True  # type: ignore[attr-defined]
    threading.excepthook = hook


def _leave_interrupts_to_the_parent() -> None:
    """A worker process ignores Ctrl-C (a terminal sends it to every process of the
    job): the parent stops the search and ends the pool; a worker that died of it would
    only turn the stop into a broken pool. It started with Ctrl-C blocked
    (:func:`_spawning`), so one sent while it was still starting is dropped here."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: submits under way that may start workers, and signals held until they are done
_spawns = [0]
_held: list[int] = []


def hold_while_spawning(signum: int) -> bool:
    """For a signal handler that would end the program: True when workers are being
    started, and the signal is held and raised again once they are (a worker whose parent
    is gone halfway through sending its start-up data prints a traceback of it)."""
    if _spawns[0]:
        _held.append(signum)
        return True
    return False


@contextmanager
def _spawning() -> Iterator[None]:
    """Around a submit that may start workers: Ctrl-C blocked in this thread, so workers
    started now begin with it blocked (a signal mask survives fork and exec) until their
    initializer ignores it. This process loses nothing: another of its threads takes the
    signal, or it waits until the mask is restored. A signal held meanwhile
    (:func:`hold_while_spawning`) is raised again at the end."""
    import signal

    _spawns[0] += 1
    old = (signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
           if hasattr(signal, "pthread_sigmask") else None)
    try:
        yield
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        _spawns[0] -= 1
        if not _spawns[0] and _held:
            held = _held[0]
            _held.clear()
            signal.raise_signal(held)


def shutdown_all() -> None:
    """Stop the pools (their workers, their manager threads) before the interpreter tears
    its modules down, or before the program's quick exit."""
    for n in list(_pools):
        with _lock:
            pool = _pools.pop(n, None)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _drop(n: int) -> None:
    with _lock:
        pool = _pools.pop(n, None)
    if pool is not None:
        # Ctrl-C / an error: the children are mid-task and would be waited for; end them
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        queue = getattr(pool, "_call_queue", None)
        if queue is not None:  # tasks queued for workers now gone: do not wait to send them
            queue.cancel_join_thread()
        pool.shutdown(wait=False, cancel_futures=True)
        # its manager thread closes the pool's wake-up pipe as it ends; at exit Python writes
        # to that pipe, and a write racing the close prints a "Bad file descriptor"
        # traceback: with the workers ended, the thread is done within moments
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=5)


class WorkerProcessError(CsolveError):
    """A worker process ended abruptly: the search cannot go on without its part."""

    exit_code = ExitCode.INTERNAL


def _pool_broke() -> WorkerProcessError:
    """The error for a pool whose worker died. From a script, the likeliest cause is the
    entry point's missing guard: ``multiprocessing``'s spawn runs the script again in every
    worker, which then tries to start workers of its own, so the API says so."""
    from csolve.errors import AUDIENCE

    why = "killed, or out of memory"
    if AUDIENCE.get() == "python":
        why += ("; or a script without the `if __name__ == \"__main__\":` guard that "
                "multiprocessing's spawn requires")
    return WorkerProcessError(f"process-pool: a worker process ended abruptly ({why})")


def _load(model) -> None:
    """In a worker process: import csolve and load (or compile) the model's kernels."""
    from csolve.search import kernels_for_model
    from csolve.solver import warm_up

    warm_up(model, kernels_for_model(model))


def _start(pool: cf.ProcessPoolExecutor, n: int, job: SearchJob) -> None:
    """Start the pool's processes and load the job's kernels in each (once per pool and
    model), and leave that time out of the job's time limit (:meth:`SearchJob.started_workers`):
    like compiling, starting workers is not the search the limit is for. A stop asked
    meanwhile ends the wait."""
    import concurrent.futures as cf

    key = (job.model.rules, job.model.engine)
    with _lock:
        ready = _ready_for.setdefault(pool, set())
        if key in ready:
            return
    t0 = time.monotonic()
    with _spawning():
        pending = {pool.submit(_load, job.model) for _ in range(n)}
    while pending and not job.stopped():
        done, pending = cf.wait(pending, timeout=0.02)
        for f in done:
            f.result()
    if not pending:
        with _lock:
            ready.add(key)
    job.started_workers(t0)


def _task(model, nodes, dirty, limit, stream, keep, seconds):
    """In a worker process: search ``nodes`` for about ``seconds``."""
    state = SearchState(model, solution_capacity=64 if stream else max(1, keep))
    state.push_many(nodes, dirty)
    ctrl = new_ctrl()
    t_end = time.perf_counter() + seconds
    count, sols, budget, reason = 0, [], 256, abi.BUDGET
    while True:
        r = state.run(ctrl, max(1, limit - count) if limit > 0 else 0, stream, budget)
        found = state.found_solutions()
        count += state.found
        if stream or len(sols) < keep:
            sols.extend(found if stream else found[: keep - len(sols)])
        if r in (abi.EXHAUSTED, abi.LIMIT):
            reason = r
            break
        if time.perf_counter() >= t_end:
            break
        budget = min(budget * 2, 1 << 20)
    rest = state.take_bottom(state.size)
    return count, sols, rest, state.stats.copy(), reason


class ProcessPool(Backend):
    name = "process-pool"
    parallel = True
    workers_in = "worker processes"
    options = {**PROBE_OPTION,
               "slice": (number(float, 0, above=True),
                         "seconds a process searches its nodes before it sends back what it "
                         "did not reach")}
    origin = "comparison with threads (processes, spawn)"
    description = ("the frontier stays in the calling process; chunks of nodes go to spawned "
                   "processes for ~50 ms slices and unexplored nodes come back")

    def check_workers(self, workers: int) -> None:
        _check_processes(workers)

    def solve(self, job: SearchJob) -> SearchOutcome:
        n = max(1, int(job.workers))
        first, early, count, kept = probe_alone(job, n)
        if early is not None:
            return early
        seconds = float(job.options.get("slice", SLICE_SECONDS))
        stream = job.on_solution is not None
        frontier: deque = deque()
        nodes, dirty = first.take_bottom(first.size)
        self._split(frontier, nodes, dirty, 2 * n)
        stats = first.stats.copy()
        pool = _pool(n)
        import concurrent.futures as cf
        from concurrent.futures.process import BrokenProcessPool

        running: set = set()
        tasks = 0
        reason = "exhausted"
        try:
            _start(pool, n, job)
            while frontier or running:
                if 0 < job.node_budget <= stats[abi.STAT_NODES]:
                    reason = "gave-up"
                    break
                while frontier and len(running) < 2 * n:
                    nd, dt = frontier.popleft()
                    remaining = max(1, job.limit - count) if job.limit > 0 else 0
                    with _spawning():
                        running.add(pool.submit(_task, job.model, nd, dt, remaining, stream,
                                                job.keep, seconds))
                    tasks += 1
                done, running = cf.wait(running, timeout=0.02,
                                        return_when=cf.FIRST_COMPLETED)
                for f in done:
                    c, sols, (nd, dt), st, _r = f.result()
                    stats += st
                    count = job.collect(count, kept, c, sols)
                    if len(nd):
                        self._split(frontier, nd, dt, 2 * n)
                if job.limit > 0 and count >= job.limit:
                    reason = "limit"
                    break
                end = job.must_end()
                if end is not None:
                    reason = end
                    break
        except BrokenProcessPool:
            _drop(n)
            if not job.stopped():
                raise _pool_broke() from None
            # Ctrl-C reached a worker still starting, before it could ignore it: the stop
            # was asked for all the same
            reason, running = "stopped", set()
        except BaseException:
            _drop(n)
            raise
        for f in running:
            f.cancel()
        total = stats_dict(stats)
        row = {"worker": "pool", "nodes": total["nodes"], "calls": tasks, "handed": 0,
               "taken": 0, "idle_s": 0.0, "lock_s": 0.0, "solutions": total["solutions"]}
        return SearchOutcome(reason, count, kept, total, workers=[row])

    @staticmethod
    def _split(frontier: deque, nodes: np.ndarray, dirty: np.ndarray, parts: int) -> None:
        """Chunks of the nodes, those nearest the root (the first) in the first chunks."""
        k = max(1, -(-len(nodes) // parts))
        for i in range(0, len(nodes), k):
            frontier.append((nodes[i:i + k].copy(), dirty[i:i + k].copy()))
