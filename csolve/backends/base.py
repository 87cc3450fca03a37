"""What a backend receives (a :class:`SearchJob`) and returns (a :class:`SearchOutcome`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from csolve.kernels import abi
from csolve.model import Model
from csolve.outcome import End

#: seconds spent starting workers (processes, a cluster) in this process so far: a command's
#: summary leaves them out of the time it reports, as results' seconds do
_starting = [0.0]


def seconds_starting_workers() -> float:
    """The seconds this process has spent starting workers (see :data:`_starting`)."""
    return _starting[0]


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
    #: seconds the backend spent starting workers (processes, a cluster) before searching;
    #: it moves ``deadline`` on by as much, and the result's seconds leave them out
    setup_s: float = 0.0

    def started_workers(self, since: float) -> None:
        """Leave the time since ``since`` (a ``time.monotonic()`` value), spent starting
        workers, out of the time limit and the search's seconds, as compiling is."""
        _starting[0] += self.loaded_kernels(since)

    def loaded_kernels(self, since: float) -> float:
        """Leave the time since ``since``, spent loading (or compiling) a kernel of the
        backend's own, out of the time limit and the search's seconds; returns it."""
        spent = time.monotonic() - since
        self.setup_s += spent
        if self.deadline is not None:
            self.deadline += spent
        return spent

    def timed_out(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def stopped(self) -> bool:
        return bool(self.ctrl[abi.CTRL_STOP])

    def must_end(self, nodes: int = 0) -> End | None:
        """Why the search must end now, or None to go on: a stop, the time limit, or (with
        the ``nodes`` spent so far) the node budget."""
        if self.stopped():
            return End.STOPPED
        if self.timed_out():
            return End.TIMEOUT
        if 0 < self.node_budget <= nodes:
            return End.GAVE_UP
        return None

    def collect(self, count: int, kept: list[np.ndarray], found: int,
                solutions: Sequence[np.ndarray]) -> int:
        """Take ``found`` more solutions from a worker (``solutions`` holds them, or the
        first of them) up to the limit: stream them, or keep copies of up to ``keep``.
        Returns the count with them."""
        take = found if self.limit <= 0 else max(0, min(found, self.limit - count))
        if self.on_solution is not None:
            for s in solutions[:take]:
                self.on_solution(s)
        elif len(kept) < self.keep:
            kept.extend(s.copy() for s in solutions[: min(take, self.keep - len(kept))])
        return count + take


@dataclass
class SearchOutcome:
    """How a search ended: ``reason`` is an :class:`~csolve.outcome.End` (a backend may
    give its string value: exhausted, limit, timeout, stopped or gave-up)."""

    reason: End
    count: int
    solutions: list[np.ndarray]
    stats: dict[str, int]
    workers: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reason = End(self.reason)

    @property
    def complete(self) -> bool:
        """True when ``count`` is exact (the whole tree was searched)."""
        return self.reason is End.EXHAUSTED


@dataclass
class GroupJob:
    """Many same-shaped puzzles, each searched alone by the batch kernel, as handed to
    :meth:`Backend.solve_group`.

    Row ``i`` of ``inits`` holds puzzle ``i``'s initial candidates; the backend fills row
    ``i`` of the caller's ``reason`` (an ``abi`` code: EXHAUSTED, LIMIT, SKIPPED for a
    time-out, GAVE_UP after ``node_budget`` nodes, STOPPED), ``sols`` (the first solution),
    ``counts`` and ``stats``. ``timeout`` applies to each puzzle; ``progress(k)`` is told
    how many puzzles are done (never those given up for their node budget).
    """

    model: Model
    kernels: ModuleType
    inits: np.ndarray
    reason: np.ndarray
    sols: np.ndarray
    counts: np.ndarray
    stats: np.ndarray
    limit: int = 1
    workers: int = 1
    timeout: float | None = None
    ctrl: np.ndarray = field(default_factory=lambda: np.zeros(abi.CTRL_SIZE, dtype=np.int64))
    options: dict = field(default_factory=dict)
    node_budget: int = 0
    progress: Callable[[int], None] | None = None
    #: seconds spent starting workers (a cluster) before the first chunk: not the puzzles'
    setup_s: float = 0.0

    def started_workers(self, since: float) -> None:
        """Leave the time since ``since`` (a ``time.monotonic()`` value), spent starting
        workers, out of the puzzles' seconds and so out of their time limits."""
        spent = time.monotonic() - since
        self.setup_s += spent
        _starting[0] += spent


_TYPE_WORDS = {int: "a whole number", float: "a number", str: "a word"}

def number(kind: type, low: float, above: bool = False, high: float | None = None) -> type:
    """An option type: a finite ``kind`` (int or float) at least ``low`` (above it when
    ``above``) and at most ``high``, so that ``-O probe=-1`` is refused rather than quietly
    taken."""

    class Number(kind):  # type: ignore[misc, valid-type]
        def __new__(cls, value: object) -> Any:
            if isinstance(value, bool) or (kind is int and isinstance(value, float)
                                           and not value.is_integer()):
                raise ValueError(value)  # True is not 1, nor 1.9 a whole number
            if isinstance(value, str) and not value.isascii():
                raise ValueError(value)  # Python reads '٣' as 3; csolve reads digits 0-9
            out = kind(value)
            if (not math.isfinite(out) or out < low or (above and out == low)
                    or (high is not None and out > high)):
                raise ValueError(value)
            return out

    bound = f"{'>' if above else '>='} {low:g}" + (f" and <= {high:g}" if high is not None
                                                    else "")
    Number.__name__ = f"{kind.__name__} {bound}"
    _TYPE_WORDS[Number] = f"{_TYPE_WORDS[kind]} {bound}"
    return Number


#: the option every backend that starts with a lone search reads
PROBE_OPTION = {"probe": (number(float, 0), "seconds the calling thread searches alone before "
                                            "it shares the search")}


def choice(*words: str) -> type:
    """An option type that accepts one of ``words``."""

    class Choice(str):
        def __new__(cls, value: object) -> str:
            if str(value) not in words:
                raise ValueError(value)
            return str(value)

    Choice.__name__ = " | ".join(words)
    _TYPE_WORDS[Choice] = "one of " + ", ".join(words)
    return Choice


class Backend:
    """A work-sharing policy. Subclass, set the class attributes, implement :meth:`solve`.

    :meth:`solve` searches one puzzle on ``job.workers`` workers. :meth:`solve_group` solves
    a file's same-shaped puzzles; the default runs the batch kernel on threads, one chunk of
    puzzles per thread at a time, which suits every backend on one machine.
    """

    name: str = ""
    description: str = ""
    origin: str = ""
    #: True when ``workers`` > 1 means something to this backend
    parallel: bool = False
    #: where its workers run, in a few words, when not on threads of this process (what
    #: ``--workers 1`` and generation, which run here, do not start)
    workers_in: str = ""
    #: the ``-O KEY=VALUE`` options this backend reads: ``{key: (type, description)}``
    options: dict[str, tuple[type, str]] = {}

    def check_workers(self, workers: int) -> None:
        """Refuse, in one line (:class:`~csolve.errors.OptionError`), a worker count this
        backend cannot run; called before any work. Any count is fine by default."""

    def read_options(self, values: dict[str, object]) -> dict[str, object]:
        """Of ``values`` (options meant for several backends), those this backend reads."""
        return {k: v for k, v in values.items() if k in self.options}

    def check_options(self, values: dict[str, object]) -> dict[str, object]:
        """``values`` converted to the types this backend declares; an unknown key or a
        value of the wrong type is a one-line error naming what it knows."""
        from csolve.errors import OptionError, UnknownNameError

        out: dict[str, object] = {}
        for key, value in values.items():
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise UnknownNameError(f"backend {self.name!r} has no option {key!r} "
                                       f"(its options: {known})")
            kind = self.options[key][0]
            try:
                out[key] = kind(value)
            except (TypeError, ValueError):
                raise OptionError(f"backend {self.name!r}: option {key} wants "
                                  f"{_TYPE_WORDS.get(kind, kind.__name__)}, got {value!r}"
                                  ) from None
        return out
    #: how to install what the backend needs when :meth:`available` is False
    requires: str = ""

    def available(self) -> bool:
        """False when an optional dependency is missing: the backend is then not listed,
        and asking for it is a one-line error naming :attr:`requires`."""
        return True

    def solve(self, job: SearchJob) -> SearchOutcome:
        raise NotImplementedError

    def solve_group(self, job: GroupJob) -> None:
        from csolve.batch import solve_group_on_threads

        solve_group_on_threads(job)

    def map_ordered(self, fn: Callable[[Any, np.ndarray], Any], items: Sequence[Any],
                    workers: int, ctrl: np.ndarray, options: dict | None = None
                    ) -> Iterator[Any]:
        """``fn(item, ctrl)`` for every item, results in item order: independent work such
        as generating puzzles. The default runs ``workers`` threads of this process."""
        from csolve.generate import generate_in_order

        return generate_in_order(fn, items, workers, ctrl)
