"""The Python side of one worker's search: its arrays, and running the kernel in slices.

A :class:`SearchState` owns everything a search kernel touches (workspace, node stack,
solution buffer, counters), allocated once. :meth:`SearchState.run` calls the kernel for a
bounded number of nodes and grows the stack when the kernel asks; backends call it in a loop,
check their clocks and flags between calls, and move nodes between workers' stacks.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from csolve.engines import engine_path, workspace_for
from csolve.kernels import abi
from csolve.kernels.compose import kernels_for
from csolve.kernels.fastload import preload
from csolve.kernels.workspace import UNSETTLED
from csolve.model import Model
from csolve.rules import kernel_paths

_kernels_by_rules: dict[tuple[tuple[str, ...], str], ModuleType] = {}


def kernels_for_model(model: Model) -> ModuleType:
    """The compiled kernel module for the rules and engine ``model`` names (compiled once,
    cached on disk)."""
    key = (model.rules, model.engine)
    mod = _kernels_by_rules.get(key)
    if mod is None:
        mod = kernels_for(_model_kernel_paths(model), engine_path(model.engine))
        _kernels_by_rules[key] = mod
    return mod


def _model_kernel_paths(model: Model) -> tuple[str, ...]:
    """The kernel paths of the model's rules. The rules a caller names are checked before
    any model is built, so an unknown one here came from the puzzle type's own model: the
    error says so, where it read as a mistyped ``--rules``."""
    from csolve.errors import UnknownNameError

    try:
        return kernel_paths(model.rules)
    except UnknownNameError as e:
        raise UnknownNameError(f"the puzzle type builds its model with an {e}") from None


def check_settled(ws: Any, model: Model) -> None:
    """Raise :class:`~csolve.errors.RuleError` naming the rule that kept saying CHANGED
    without reaching a fixpoint in the kernel call that filled ``ws`` (the kernel stopped
    it, reading it as a contradiction: its answer cannot stand)."""
    bad = int(ws.counters[UNSETTLED])
    if bad:
        from csolve.errors import RuleError

        if bad <= len(model.rules):
            rule = model.rules[bad - 1]
            named = f"rule {rule!r} ({kernel_paths((rule,))[0]})"
        else:
            named = "a rule"
        raise RuleError(f"{named} kept returning CHANGED without taking a candidate away, so "
                        "propagation never settles: a rule returns NO_CHANGE when it removes "
                        "nothing (docs/plugin-api.md)")


def root_propagated(kernels: ModuleType, cand: np.ndarray, model: Model, ws: Any) -> bool:
    """``cand`` propagated to a fixpoint in place (False: a contradiction), for a backend
    that calls the kernel's ``propagate_root`` itself; a rule that never settles raises
    RuleError rather than read as a contradiction."""
    ok = bool(kernels.propagate_root(cand, model.kernel, ws))
    check_settled(ws, model)
    return ok


def new_ctrl() -> np.ndarray:
    """A fresh control array (stop / want-work / skip flags) shared with running kernels."""
    return np.zeros(abi.CTRL_SIZE, dtype=np.int64)


class SearchState:
    """One worker's search: a stack of unexplored states and its counters."""

    def __init__(self, model: Model, kernels: ModuleType | None = None,
                 solution_capacity: int = 2, stack_capacity: int | None = None) -> None:
        self.model = model
        self.kernels = kernels or kernels_for_model(model)
        n = model.n_cells
        cap = stack_capacity or n + 16
        self.ws = workspace_for(model)
        self.stack = np.zeros((cap, n), dtype=np.uint64)
        self.dirty = np.zeros(cap, dtype=np.int64)
        self.sp = np.zeros(1, dtype=np.int64)
        self.sols = np.zeros((max(1, solution_capacity), n), dtype=np.uint64)
        self.nsol = np.zeros(1, dtype=np.int64)
        self.stats = np.zeros(abi.STAT_SIZE, dtype=np.int64)

    @property
    def size(self) -> int:
        """Unexplored states on the stack."""
        return int(self.sp[0])

    def push(self, state: np.ndarray, dirty: int = -1) -> None:
        """Add a state to explore; ``dirty`` -1 propagates all its singles first."""
        if self.sp[0] >= self.stack.shape[0]:
            self._grow()
        i = int(self.sp[0])
        self.stack[i] = state
        self.dirty[i] = dirty
        self.sp[0] = i + 1

    def preload(self, ctrl: np.ndarray, limit: int, stream: bool, max_nodes: int) -> None:
        """Load the search kernel's cached code for :meth:`run` with these arguments, the
        fast way (see :mod:`csolve.kernels.fastload`)."""
        preload(self.kernels.search, (self.model.kernel, self.ws, self.stack, self.dirty,
                                      self.sp, ctrl, limit, stream, max_nodes, self.sols,
                                      self.nsol, self.stats))

    def push_root(self) -> None:
        self.push(self.model.init, -1)

    def take_bottom(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Remove and return the ``k`` states nearest the root (for another worker)."""
        n = int(self.sp[0])
        k = min(k, n)
        nodes = self.stack[:k].copy()
        dirty = self.dirty[:k].copy()
        self.stack[: n - k] = self.stack[k:n]
        self.dirty[: n - k] = self.dirty[k:n]
        self.sp[0] = n - k
        return nodes, dirty

    def take_alternate(self) -> tuple[np.ndarray, np.ndarray]:
        """Remove and return every other state from the bottom (the bottom one first), for
        another worker.

        In a depth-first stack each state roots a subtree about twice the size of the one
        above it, so the bottom half holds nearly all the work left and its giver soon runs
        dry and asks for work back. Every other state from the bottom is still half of the
        states but about two thirds of the work, and leaves the giver the rest: workers
        trade nodes a few times per search instead of thousands.
        """
        n = int(self.sp[0])
        if n <= 1:
            return self.take_bottom(n)
        nodes = self.stack[0:n:2].copy()
        dirty = self.dirty[0:n:2].copy()
        kept = n // 2
        self.stack[:kept] = self.stack[1:n:2]
        self.dirty[:kept] = self.dirty[1:n:2]
        self.sp[0] = kept
        return nodes, dirty

    def push_many(self, nodes: np.ndarray, dirty: np.ndarray) -> None:
        """Add states below everything on the stack (they are nearer the root)."""
        n = int(self.sp[0])
        k = len(nodes)
        while n + k > self.stack.shape[0]:
            self._grow()
        self.stack[k : n + k] = self.stack[:n].copy()
        self.dirty[k : n + k] = self.dirty[:n].copy()
        self.stack[:k] = nodes
        self.dirty[:k] = dirty
        self.sp[0] = n + k

    def _grow(self) -> None:
        cap = self.stack.shape[0] * 2
        stack = np.zeros((cap, self.stack.shape[1]), dtype=np.uint64)
        stack[: self.stack.shape[0]] = self.stack
        dirty = np.zeros(cap, dtype=np.int64)
        dirty[: self.dirty.shape[0]] = self.dirty
        self.stack, self.dirty = stack, dirty

    def run(self, ctrl: np.ndarray, limit: int, stream: bool, max_nodes: int) -> int:
        """Run the kernel for at most ``max_nodes`` states; returns an ``abi`` reason code.

        ``limit`` > 0 stops once that many solutions were found in this call; the found
        solutions are ``self.sols[:min(self.found, len(self.sols))]``, ``self.found`` many.
        """
        self.nsol[0] = 0
        while True:
            r = self.kernels.search(self.model.kernel, self.ws, self.stack, self.dirty, self.sp,
                                    ctrl, limit, stream, max_nodes, self.sols, self.nsol,
                                    self.stats)
            check_settled(self.ws, self.model)
            if r != abi.STACK_FULL:
                return int(r)
            self._grow()
            if self.nsol[0]:
                return abi.BUDGET  # let the caller collect what was found first

    @property
    def found(self) -> int:
        return int(self.nsol[0])

    def found_solutions(self) -> list[np.ndarray]:
        return [self.sols[i].copy() for i in range(min(self.found, len(self.sols)))]


def stats_dict(stats: np.ndarray) -> dict[str, int]:
    return {name: int(stats[i]) for i, name in enumerate(abi.STAT_NAMES) if name != "cycles"}


class BatchScratch:
    """What one caller of the batch kernel owns: a workspace, a node stack grown on demand,
    and the kernel's small buffers - allocated once, reused for every puzzle."""

    def __init__(self, model: Model) -> None:
        n_cells = model.n_cells
        cap = n_cells + 16
        self.ws = workspace_for(model)
        self.stack = np.zeros((cap, n_cells), dtype=np.uint64)
        self.dirty = np.zeros(cap, dtype=np.int64)
        self.sp = np.zeros(1, dtype=np.int64)
        self.nsol = np.zeros(1, dtype=np.int64)
        self.first = np.zeros((1, n_cells), dtype=np.uint64)

    def _call(self, kernels, model, inits, start, limit, ctrl, reason, sols, counts, stats):
        r = int(kernels.solve_batch(model.kernel, self.ws, inits, start, limit, ctrl,
                                    self.stack, self.dirty, self.sp, self.nsol, self.first,
                                    reason, sols, counts, stats))
        check_settled(self.ws, model)
        return r

    def warm_up(self, kernels, model, inits, limit, ctrl, reason, sols, counts, stats) -> None:
        """Load (or compile) the kernel before any clock starts: a call that solves nothing."""
        preload(kernels.solve_batch, (model.kernel, self.ws, inits, inits.shape[0], limit, ctrl,
                                      self.stack, self.dirty, self.sp, self.nsol, self.first,
                                      reason, sols, counts, stats))
        self._call(kernels, model, inits, inits.shape[0], limit, ctrl, reason, sols, counts,
                   stats)

    def solve(self, kernels, model, inits, limit, ctrl, reason, sols, counts, stats) -> None:
        """Solve every row of ``inits``, growing the stack when the kernel asks; rows a stop
        left unfinished are marked STOPPED."""
        n_rows = inits.shape[0]
        start = 0
        while start < n_rows:
            stop_at = self._call(kernels, model, inits, start, limit, ctrl, reason, sols,
                                 counts, stats)
            if stop_at < n_rows and reason[stop_at] == abi.STACK_FULL:
                cap = self.stack.shape[0] * 2
                self.stack = np.zeros((cap, self.stack.shape[1]), dtype=np.uint64)
                self.dirty = np.zeros(cap, dtype=np.int64)
                start = stop_at  # that puzzle starts over with the bigger stack
                continue
            if stop_at < n_rows:
                reason[stop_at:] = abi.STOPPED
            return
