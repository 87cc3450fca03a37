"""What a solve returns: why a search ended (:class:`End`), the answer (:class:`Status`),
the search's counters (:class:`Stats`), one puzzle's :class:`Result`, and a run of them kept
as columns (:class:`ResultBlock`).

One vocabulary from the kernels up to the exit code: a kernel's ``abi`` return code becomes
an :class:`End` (``End.from_code``), a backend reports an :class:`End`, the solver turns it
and the solutions counted into a :class:`Status`, and the CLI's exit code is the worst
status's ``exit_code``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, overload

import numpy as np

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
        return cls.decide(end, min(count, 2), limit > 0 and count >= limit)

    @classmethod
    def decide(cls, end: End, found: int, answered: bool) -> Status:
        """:meth:`of` from the only facts it reads: ``found`` solutions (0, 1, or 2 for
        two or more) and whether they are the answer asked for."""
        if end in (End.TIMEOUT, End.GAVE_UP) and not answered:
            return cls.TIMEOUT
        if end is End.STOPPED and not answered:
            return cls.INTERRUPTED
        if found == 0:
            return cls.NO_SOLUTION
        return cls.MULTIPLE if found >= 2 else cls.SOLVED


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


@dataclass(frozen=True, slots=True, eq=False)
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


#: the columns of a batch's counters that :class:`Stats` holds, in its field order
STATS_FIELDS = abi.STAT_NAMES[:abi.STAT_CYCLES]


class ResultBlock(Sequence[Result]):
    """The results of a run of puzzles, kept as columns; a :class:`Result` is made only
    when one is asked for, so writing a file of a million easy puzzles costs their search
    rather than a million objects.

    Built from a batch's arrays (:meth:`from_batch`) or from ready results (:meth:`of`);
    :meth:`put` replaces one puzzle's answer (a puzzle searched again after the batch).
    Writers read the columns: ``puzzles``, ``statuses``, ``counts``, ``exact``,
    ``first_solutions`` (None where none), ``engine``, ``backend``; :meth:`answered`
    holds the puzzles whose :class:`Result` was put.
    """

    __slots__ = ("puzzle_type", "puzzles", "statuses", "counts", "exact", "_first", "ends",
                 "engine", "backend", "_counters", "_seconds", "_results", "_decoded")

    def __init__(self, puzzle_type: PuzzleType | None, puzzles: Sequence[Puzzle], *,
                 statuses: list[Status], counts: list[int], exact: list[bool],
                 first_solutions: list[Any] | None, ends: list[End], engine: str, backend: str,
                 counters: np.ndarray, seconds: np.ndarray) -> None:
        self.puzzle_type = puzzle_type
        self.puzzles = puzzles
        self.statuses = statuses
        self.counts = counts
        self.exact = exact
        self._first: list[Any] | None = first_solutions
        self.ends = ends
        self.engine = engine
        self.backend = backend
        self._counters = counters
        self._seconds = seconds
        self._results: dict[int, Result] = {}
        #: every puzzle's solution as the plugin decoded them, when all have one
        self._decoded: Sequence[Any] | None = None

    @classmethod
    def from_batch(cls, puzzle_type: PuzzleType | None, puzzles: Sequence[Puzzle], *,
                   codes: np.ndarray, counts: np.ndarray, counters: np.ndarray,
                   seconds: np.ndarray, first_solutions: Sequence[Any], limit: int,
                   engine: str, backend: str, all_solved: bool = False) -> ResultBlock:
        """A batch kernel's rows: ``codes`` its ``abi`` reasons, ``counters`` a column per
        :data:`STATS_FIELDS`, ``first_solutions`` None where none; with ``all_solved``,
        ``first_solutions`` is the plugin's ``decode_many`` of every puzzle (kept for
        :meth:`solved`)."""
        count_list = counts.tolist()
        # one Status.decide per distinct (code, solutions found, answered), not per puzzle
        answered = counts >= limit if limit > 0 else np.zeros(len(counts), dtype=bool)
        keys, which = np.unique(codes * 8 + np.minimum(counts, 2) * 2 + answered,
                                return_inverse=True)
        rows = []  # (end, status, exact) per distinct key
        for key in keys.tolist():
            code, facts = divmod(key, 8)
            end = End.from_code(code)
            rows.append((end, Status.decide(end, facts // 2, bool(facts % 2)),
                         end is End.EXHAUSTED))
        which_list = which.tolist() if len(rows) > 1 else []

        def column(j: int) -> list:
            if len(rows) == 1:  # the common case: every puzzle ended alike
                return [rows[0][j]] * len(count_list)
            return [rows[i][j] for i in which_list]

        block = cls(puzzle_type, puzzles, statuses=column(1), counts=count_list,
                    exact=column(2), first_solutions=None if all_solved else list(first_solutions),
                    ends=column(0), engine=engine, backend=backend, counters=counters,
                    seconds=seconds)
        if all_solved:
            block._decoded = first_solutions
        return block

    @classmethod
    def of(cls, results: Sequence[Result]) -> ResultBlock:
        """A block of ready results."""
        n = len(results)
        block = cls(results[0].puzzle_type if n else None, [r.puzzle for r in results],
                    statuses=[r.status for r in results], counts=[r.count for r in results],
                    exact=[r.exact for r in results],
                    first_solutions=[r.solution for r in results],
                    ends=[r.end for r in results], engine="", backend="",
                    counters=np.zeros((n, len(STATS_FIELDS)), dtype=np.int64),
                    seconds=np.zeros(n))
        block._results = dict(enumerate(results))
        return block

    @property
    def first_solutions(self) -> list[Any]:
        """Each puzzle's first solution, None where none."""
        if self._first is None:
            self._first = list(self._decoded) if self._decoded is not None else []
        return self._first

    def put(self, k: int, result: Result) -> None:
        """Puzzle ``k``'s answer is ``result``."""
        self.first_solutions[k] = result.solution
        self._results[k] = result
        self._decoded = None
        self.statuses[k] = result.status
        self.counts[k] = result.count
        self.exact[k] = result.exact
        self.ends[k] = result.end

    def part(self, start: int, stop: int) -> ResultBlock:
        """Puzzles ``start:stop`` as a block of their own, its columns sliced (no
        :class:`Result` made): what a run hands out before its later puzzles are done."""
        block = ResultBlock(
            self.puzzle_type, self.puzzles[start:stop], statuses=self.statuses[start:stop],
            counts=self.counts[start:stop], exact=self.exact[start:stop],
            first_solutions=None if self._first is None else self._first[start:stop],
            ends=self.ends[start:stop], engine=self.engine, backend=self.backend,
            counters=self._counters[start:stop], seconds=self._seconds[start:stop])
        block._results = {k - start: r for k, r in self._results.items() if start <= k < stop}
        if self._decoded is not None:
            block._decoded = self._decoded[start:stop]
        return block

    def answered(self, k: int) -> Result | None:
        """The :class:`Result` put for puzzle ``k``, if one was."""
        return self._results.get(k)

    def solved(self) -> tuple[list[int], Sequence[Any]]:
        """The puzzles that have a solution, and their first solutions, for writers that
        write many at once (as one array where the plugin decoded them as one)."""
        if self._decoded is not None:
            return list(range(len(self))), self._decoded
        keep = [k for k, s in enumerate(self.first_solutions) if s is not None]
        return keep, [self.first_solutions[k] for k in keep]

    def stats_rows(self) -> list[tuple[list[int], float]]:
        """Per puzzle of the batch: its counters (in :data:`STATS_FIELDS` order) and
        seconds."""
        return list(zip(self._counters.tolist(), self._seconds.tolist(), strict=True))

    def __len__(self) -> int:
        return len(self.puzzles)

    @overload
    def __getitem__(self, k: int) -> Result: ...
    @overload
    def __getitem__(self, k: slice) -> list[Result]: ...

    def __getitem__(self, k: int | slice) -> Result | list[Result]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        result = self._results.get(k)
        if result is None:
            solution = self._decoded[k] if self._first is None else self._first[k]
            result = Result(
                self.puzzles[k], self.statuses[k], () if solution is None else (solution,),
                self.counts[k], self.exact[k], self.engine, self.backend,
                Stats(*self._counters[k].tolist(), float(self._seconds[k])), "",
                self.ends[k], self.puzzle_type)
        return result
