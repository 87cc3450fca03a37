"""What runs inside Ray's worker processes: pure tasks, nodes (or puzzles) in, results out.

Every task is a plain function of its arguments: it never blocks on other tasks, keeps no
result of its own, and can be run again from scratch when its worker is lost (Ray's retries),
which is what keeps counts exact. What a worker process keeps between tasks is only a cache:
the model (fetched once per worker from the object store, by the reference the task carries
in a list so Ray does not resolve it per task), made writable (the store's arrays are
read-only, which numba would type - and compile - differently), its compiled kernels (loaded
from numba's on-disk cache, so they compile once per machine) and its search arrays.

This module imports no Ray at module level: the calling process imports it to name the tasks.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from csolve.errors import CsolveError
from csolve.kernels import abi

_CACHED = 8  # models (or functions) a worker process keeps ready
_cache: OrderedDict[str, Any] = OrderedDict()
_identity: list[tuple[str, str]] = []


def identity() -> tuple[str, str]:
    """(this worker's process id, its node's id)."""
    if not _identity:
        import ray

        node = ray.get_runtime_context().get_node_id()
        _identity.append((str(os.getpid()), node))
    return _identity[0]


def _cached(box: list, build: Callable[[Any], Any]) -> Any:
    """``build(value)`` of the object ``box[0]`` refers to, once per worker process."""
    ref = box[0]
    key = ref.hex()
    hit = _cache.get(key)
    if hit is None:
        import ray

        hit = build(ray.get(ref))
        _cache[key] = hit
        while len(_cache) > _CACHED:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return hit


class _Prepared:
    """A model ready to search in this process: writable arrays, kernels, reusable states."""

    def __init__(self, model) -> None:
        from csolve.search import kernels_for_model

        kernel = model.kernel
        kernel = type(kernel)(*(np.array(a) if isinstance(a, np.ndarray) else a
                                for a in kernel))
        self.model = replace(model, kernel=kernel, init=np.array(model.init))
        self.kernels = kernels_for_model(self.model)
        self.states: dict[int, Any] = {}
        self.scratch = None

    def state(self, capacity: int):
        """A search state with room for ``capacity`` solutions, emptied; its kernel loaded."""
        from csolve.search import SearchState, new_ctrl

        state = self.states.get(capacity)
        if state is None:
            state = SearchState(self.model, self.kernels, solution_capacity=capacity)
            ctrl = new_ctrl()
            state.preload(ctrl, 1, False, 0)
            state.push_root()
            state.run(ctrl, 1, False, 0)  # loads (or compiles) the kernel: searches nothing
            self.states[capacity] = state
        state.sp[0] = 0
        state.nsol[0] = 0
        state.stats[:] = 0
        return state


def search_slice(box: list, nodes: np.ndarray, dirty: np.ndarray, limit: int, stream: bool,
                 keep: int, seconds: float, max_nodes: int, split: bool = False) -> tuple:
    """Search below ``nodes`` for about ``seconds`` (at most ``max_nodes`` nodes when > 0);
    with ``split``, return as soon as the search has cut its node in two for idle workers
    (the learning engine does so on request), or search the slice if it cannot.

    Returns (solutions counted, solutions [k, n_cells], unexplored nodes, their dirty marks,
    stats, abi reason, worker name, node id, seconds searched). Every solution below
    ``nodes`` is either counted here or lies below a returned node, never both.
    """
    prepared = _cached(box, _Prepared)
    state = prepared.state(64 if stream else max(1, keep))
    state.push_many(nodes, dirty)
    from csolve.search import new_ctrl

    ctrl = new_ctrl()
    t0 = time.perf_counter()
    t_end = t0 + seconds
    count, sols, budget, reason = 0, [], 256, abi.BUDGET
    while True:
        step = budget
        if max_nodes > 0:
            step = min(step, max_nodes - int(state.stats[abi.STAT_NODES]))
            if step <= 0:
                break
        t_call = time.perf_counter()
        ctrl[abi.CTRL_WANT_WORK] = 1 if split else 0
        r = state.run(ctrl, max(1, limit - count) if limit > 0 else 0, stream, step)
        found = state.found_solutions()
        count += state.found
        if stream:
            sols.extend(found)
        elif len(sols) < keep:
            sols.extend(found[: keep - len(sols)])
        if r in (abi.EXHAUSTED, abi.LIMIT):
            reason = r
            break
        if r == abi.WORK_REQUESTED:
            if state.size >= 2:
                break  # cut in two: the halves go back to the driver
            split = False  # nothing left to cut: search the slice
            continue
        now = time.perf_counter()
        if now >= t_end:
            break
        took = now - t_call
        if took < seconds / 8 and budget < 1 << 22:
            budget *= 2
        elif took > seconds / 2 and budget > 16:
            budget //= 2
    busy = time.perf_counter() - t0
    rest, rest_dirty = state.take_bottom(state.size)
    n_cells = prepared.model.n_cells
    found_arr = np.stack(sols) if sols else np.zeros((0, n_cells), dtype=np.uint64)
    name, node = identity()
    return (count, found_arr, rest, rest_dirty, state.stats.copy(), int(reason), name, node,
            busy)


def solve_chunk(box: list, inits_box: list, lo: int, hi: int, limit: int,
                timeout: float | None, node_budget: int) -> tuple:
    """Rows ``lo:hi`` of a file's puzzles, each searched alone by the batch kernel.

    ``timeout`` gives a puzzle up (abi SKIPPED) after that many seconds on it; with
    ``node_budget`` > 0 a puzzle is given up (abi GAVE_UP) after that many nodes. Returns
    (reason, first solution, count, stats per row; puzzles given up for their budget,
    worker name, node id, seconds).
    """
    import ray

    from csolve.batch import run_in_thread
    from csolve.search import BatchScratch, new_ctrl

    prepared = _cached(box, _Prepared)
    model, kernels = prepared.model, prepared.kernels
    inits = np.array(ray.get(inits_box[0])[lo:hi], dtype=np.uint64)
    m, n_cells = inits.shape
    reason = np.full(m, abi.STOPPED, dtype=np.int64)
    sols = np.zeros((m, n_cells), dtype=np.uint64)
    counts = np.zeros(m, dtype=np.int64)
    stats = np.zeros((m, abi.STAT_SIZE), dtype=np.int64)
    ctrl = new_ctrl()
    if prepared.scratch is None:
        prepared.scratch = BatchScratch(model)
        prepared.scratch.warm_up(kernels, model, inits, limit, ctrl, reason, sols, counts,
                                 stats)
    scratch = prepared.scratch
    ctrl[abi.CTRL_NODE_BUDGET] = node_budget
    t0 = time.perf_counter()

    def solve() -> None:
        scratch.solve(kernels, model, inits, limit, ctrl, reason, sols, counts, stats)

    if timeout:
        watch = {"current": -1, "since": time.monotonic()}

        def poll() -> None:
            cur = int(ctrl[abi.CTRL_CURRENT])
            now = time.monotonic()
            if cur != watch["current"]:
                watch["current"], watch["since"] = cur, now
            elif now - watch["since"] > timeout:
                ctrl[abi.CTRL_SKIP] = cur + 1

        run_in_thread(solve, ctrl, poll)
    else:
        solve()
    name, node = identity()
    return (reason, sols, counts, stats, int(ctrl[abi.CTRL_GAVE_UP]), name, node,
            time.perf_counter() - t0)


def call_item(box: list, item: Any) -> tuple[str, Any]:
    """``fn(item, ctrl)`` for the function ``box[0]`` refers to: ("ok", result), or
    ("error", e) for a :class:`CsolveError` (re-raised as itself by the caller)."""
    from csolve.search import new_ctrl

    fn = _cached(box, lambda f: f)
    try:
        return "ok", fn(item, new_ctrl())
    except CsolveError as e:
        return "error", e
