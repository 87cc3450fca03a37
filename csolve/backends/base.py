"""What a backend receives (a :class:`SearchJob`) and returns (a :class:`SearchOutcome`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from csolve.kernels import abi
from csolve.model import Model


@dataclass
class SearchJob:
    """One puzzle's search, as handed to a backend.

    ``limit``: stop after that many solutions (0: find all). ``on_solution``: called with
    each solution's masks, in the thread that called ``Backend.solve``, when streaming.
    ``ctrl[CTRL_STOP]`` set by anyone (Ctrl-C, a time-out) stops every worker.
    ``node_budget`` > 0: the backend gives the search up after that many nodes (all its
    workers together), with reason ``gave-up``, so the caller can move it to another engine.
    ``conflict-lock``, which does not search with the engine, ignores it.
    """

    model: Model
    kernels: ModuleType
    limit: int = 1
    keep: int = 2  # solutions to keep in the outcome when not streaming
    on_solution: Callable[[np.ndarray], None] | None = None
    workers: int = 1
    deadline: float | None = None  # time.monotonic() value
    ctrl: np.ndarray = field(default_factory=lambda: np.zeros(abi.CTRL_SIZE, dtype=np.int64))
    options: dict = field(default_factory=dict)
    node_budget: int = 0

    def timed_out(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def stopped(self) -> bool:
        return bool(self.ctrl[abi.CTRL_STOP])


@dataclass
class SearchOutcome:
    """How a search ended: ``reason`` is exhausted, limit, timeout, stopped or gave-up."""

    reason: str
    count: int
    solutions: list[np.ndarray]
    stats: dict[str, int]
    workers: list[dict] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when ``count`` is exact (the whole tree was searched)."""
        return self.reason == "exhausted"


class Backend:
    """A work-sharing policy. Subclass, set the class attributes, implement :meth:`solve`."""

    name: str = ""
    description: str = ""
    origin: str = ""
    #: True when ``workers`` > 1 means something to this backend
    parallel: bool = False

    def solve(self, job: SearchJob) -> SearchOutcome:
        raise NotImplementedError
