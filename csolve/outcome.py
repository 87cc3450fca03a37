"""What a solve returns: why a search ended (:class:`End`), the answer (:class:`Status`),
the search's counters (:class:`Stats`) and one puzzle's :class:`Result`.

One vocabulary from the kernels up to the exit code: a kernel's ``abi`` return code becomes
an :class:`End` (``End.from_code``), a backend reports an :class:`End`, the solver turns it
and the solutions counted into a :class:`Status`, and the CLI's exit code is the worst
status's ``exit_code``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from csolve.errors import ExitCode
from csolve.kernels import abi

if TYPE_CHECKING:
    from csolve.puzzle import Puzzle, PuzzleType


class End(StrEnum):
    """Why a search ended."""

    EXHAUSTED = "exhausted"  # the whole tree was searched: the count is exact
    LIMIT = "limit"  # the solutions asked for were found
    TIMEOUT = "timeout"  # the time limit came first
    STOPPED = "stopped"  # someone asked it to stop (Ctrl-C)
    GAVE_UP = "gave-up"  # its node budget was spent: another engine may take over

    @classmethod
    def from_code(cls, code: int) -> End:
        """The end a kernel's ``abi`` return code (or a batch row's reason) stands for."""
        return _FROM_CODE.get(int(code), cls.STOPPED)


_FROM_CODE = {abi.EXHAUSTED: End.EXHAUSTED, abi.LIMIT: End.LIMIT, abi.SKIPPED: End.TIMEOUT,
              abi.GAVE_UP: End.GAVE_UP, abi.STOPPED: End.STOPPED}


class Status(StrEnum):
    """A puzzle's answer, as users read it."""

    SOLVED = "solved"  # exactly one solution (or the one asked for)
    MULTIPLE = "multiple"  # two or more solutions
    NO_SOLUTION = "no-solution"
    TIMEOUT = "timeout"  # the time limit came before the answer
    INTERRUPTED = "interrupted"

    @property
    def exit_code(self) -> ExitCode:
        return _EXIT[self]

    @property
    def severity(self) -> int:
        """How bad it is: the CLI exits with the worst status's code."""
        return _SEVERITY[self]

    @classmethod
    def of(cls, count: int, end: End, limit: int) -> Status:
        """The answer of a search that found ``count`` solutions and ended with ``end``:
        a search cut short is a time-out (or interruption) unless it already has its answer
        (``limit`` > 0 solutions found)."""
        answered = limit > 0 and count >= limit
        if end in (End.TIMEOUT, End.GAVE_UP) and not answered:
            return cls.TIMEOUT
        if end is End.STOPPED and not answered:
            return cls.INTERRUPTED
        if count == 0:
            return cls.NO_SOLUTION
        return cls.MULTIPLE if count >= 2 else cls.SOLVED


_EXIT = {Status.SOLVED: ExitCode.OK, Status.MULTIPLE: ExitCode.OK,
         Status.NO_SOLUTION: ExitCode.NO_SOLUTION, Status.TIMEOUT: ExitCode.TIMEOUT,
         Status.INTERRUPTED: ExitCode.INTERRUPTED}
_SEVERITY = {Status.SOLVED: 0, Status.MULTIPLE: 0, Status.NO_SOLUTION: 1, Status.TIMEOUT: 2,
             Status.INTERRUPTED: 3}


@dataclass(frozen=True, slots=True)
class Stats:
    """What a search did: states propagated, branches, dead ends, rule sweeps, solutions
    seen, and the seconds it took (kernel loading excluded)."""

    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    passes: int = 0
    solutions: int = 0
    seconds: float = 0.0
    #: per-worker rows (nodes, calls, handed, taken, idle_s, lock_s, solutions) when the
    #: search ran on several workers
    workers: tuple[dict, ...] = ()

    @classmethod
    def from_counters(cls, counters: dict[str, int], seconds: float,
                      workers: tuple[dict, ...] | list[dict] = ()) -> Stats:
        return cls(counters.get("nodes", 0), counters.get("guesses", 0),
                   counters.get("backtracks", 0), counters.get("passes", 0),
                   counters.get("solutions", 0), seconds, tuple(workers))

    def as_dict(self) -> dict[str, Any]:
        """The counters and seconds as JSON output shows them (workers apart)."""
        return {"nodes": self.nodes, "guesses": self.guesses, "backtracks": self.backtracks,
                "passes": self.passes, "solutions": self.solutions,
                "seconds": round(self.seconds, 6)}


@dataclass(frozen=True, slots=True)
class Result:
    """One puzzle's answer.

    ``solutions`` are in the puzzle type's natural form (a grid of values for grid puzzles);
    every one of them passed the puzzle type's validator against the givens. ``count`` is
    the number of solutions found: all of them when ``exact``. ``engine`` and ``backend``
    name what searched; ``took_over_from`` the engine that gave the puzzle up first.
    """

    puzzle: Puzzle
    status: Status
    solutions: tuple[Any, ...] = ()
    count: int = 0
    exact: bool = False
    engine: str = ""
    backend: str = ""
    stats: Stats = field(default_factory=Stats)
    took_over_from: str = ""
    end: End = End.EXHAUSTED
    puzzle_type: PuzzleType | None = field(default=None, repr=False, compare=False)

    @property
    def solution(self) -> Any | None:
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    @property
    def solution_line(self) -> str | None:
        """The first solution written as one line in the puzzle's own input format."""
        if not self.solutions or self.puzzle_type is None:
            return None
        return self.puzzle_type.format_line(self.puzzle, self.solutions[0])

    @property
    def seconds(self) -> float:
        return self.stats.seconds
