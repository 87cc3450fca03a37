"""The Python API: what ``import csolve`` offers, over the same solve path as the CLI.

    >>> import csolve
    >>> hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> r = csolve.solve("sudoku", hard)[0]
    >>> r.status, r.solution_line[:9]
    (<Status.SOLVED: 'solved'>, '417369825')

Puzzles are given as text (one puzzle or many, in any format the puzzle type reads), as a
path to a file, as :class:`~csolve.puzzle.Puzzle` objects, or as a sequence of those.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from csolve.defaults import cores
from csolve.errors import PuzzleInputError, UnknownNameError

if TYPE_CHECKING:
    import numpy as np

    from csolve.backends.base import Backend
    from csolve.grading import Rating
    from csolve.logic import Step
    from csolve.outcome import Result, ResultBlock
    from csolve.puzzle import Puzzle, PuzzleType
    from csolve.solver import SolveOptions

def puzzle_types() -> dict[str, PuzzleType]:
    """Every installed puzzle type by name (built-in and from plugins)."""
    from csolve.puzzle import all_puzzle_types

    return all_puzzle_types()


def backends() -> dict[str, Backend]:
    """Every installed search backend by name."""
    from csolve.backends import all_backends

    return all_backends()


def puzzle_type(kind: str | PuzzleType) -> PuzzleType:
    """A puzzle type by name (an unknown name is a one-line error naming those installed)."""
    from csolve.puzzle import PuzzleType, get_puzzle_type

    return kind if isinstance(kind, PuzzleType) else get_puzzle_type(kind)


def read(kind: str | PuzzleType, puzzles: Any, format: str | None = None,
         box: str | None = None) -> Sequence[Puzzle]:
    """The puzzles in ``puzzles``, in order: puzzle text (one or many puzzles), a path, a
    Puzzle, or a sequence of those. ``box`` ("RxC") gives Sudoku-like puzzles a box shape
    other than their size's default. Many puzzles of one shape may come back as a
    :class:`~csolve.puzzle.PuzzleBatch` (a sequence that makes each Puzzle when asked)."""
    from csolve.puzzle import Puzzle, PuzzleBatch

    ptype = puzzle_type(kind)
    check_format(ptype, format)
    if isinstance(puzzles, bytes) or not isinstance(puzzles, str | os.PathLike | Puzzle | list
                                                    | tuple | PuzzleBatch):
        raise TypeError(f"puzzles are text, a path, Puzzle objects or a list of those, not "
                        f"{type(puzzles).__name__}")
    if isinstance(puzzles, PuzzleBatch):
        parts: list[Sequence[Puzzle]] = [puzzles]
    else:
        items = [puzzles] if isinstance(puzzles, str | os.PathLike | Puzzle) else puzzles
        parts = []
        for item in items:
            if isinstance(item, Puzzle):
                parts.append((item,))
            elif isinstance(item, str | os.PathLike):
                parts.append(read_argument(ptype, item, format))
            else:
                raise TypeError(f"a puzzle is text, a path or a Puzzle, not "
                                f"{type(item).__name__}")
    out: Sequence[Puzzle]
    if len(parts) == 1 and isinstance(parts[0], PuzzleBatch) and parts[0].start == 0:
        out = parts[0]  # numbered from 0 already
    else:
        out = [p for part in parts for p in part]
        for i, p in enumerate(out):
            p.index = i
    if not out:
        raise PuzzleInputError("<input>", None, None, "no puzzle found")
    return ptype.with_box(out, box) if box else out


def read_argument(ptype: PuzzleType, item: str | os.PathLike, fmt: str | None
                  ) -> Sequence[Puzzle]:
    """The puzzles of one argument: a file (``-``: standard input), or puzzle text. A line
    that is neither an existing file nor a puzzle is "no such file"."""
    from csolve.io import read_file

    if isinstance(item, os.PathLike) or item == "-" or os.path.exists(item):
        text, name = read_file(os.fspath(item))
        return parse_text(ptype, text, name, fmt)
    if "\n" in item.strip():
        return parse_text(ptype, item, "<text>", fmt)
    try:
        return parse_text(ptype, item, "<text>", fmt)
    except PuzzleInputError as e:
        shown = item if len(item) <= 80 else item[:77] + "..."
        raise PuzzleInputError(shown, None, None,
                               f"no such file, nor a {ptype.name} puzzle ({e.message})") from None


def check_format(ptype: PuzzleType, fmt: str | None) -> None:
    """An input format the puzzle type does not read is a one-line error."""
    if fmt is not None and fmt not in ptype.formats:
        known = ", ".join(ptype.formats) or "none to choose from"
        raise UnknownNameError(f"unknown format {fmt!r} for {ptype.name} (known: {known})")


def parse_text(ptype: PuzzleType, text: str, source: str, fmt: str | None
               ) -> Sequence[Puzzle]:
    """``ptype.parse`` with a plugin's slips turned into one-line input errors."""
    try:
        return ptype.parse(text, source, fmt)
    except PuzzleInputError:
        raise
    except (ValueError, IndexError, KeyError) as e:
        raise PuzzleInputError(source, None, None, f"cannot parse: {e}") from None


class Solver:
    """Solves puzzles of one type with fixed options; reuse it (kernels load once).

    ``backend`` and ``workers`` (0: one per core for a parallel backend) say how searches
    are shared; ``limit`` is how many solutions to find (default 1) or, with ``count``, the
    number to count up to (default: all); ``timeout`` is seconds per puzzle; ``engine``,
    ``rules`` and ``tactics`` choose the search (see ``csolve list-engines``,
    ``list-rules``, ``list-tactics``); ``format`` forces an input format and ``box`` a box
    shape ("2x3"); ``escalate_after`` is the depth-first nodes before the learning engine
    takes a hard puzzle over (None: by the grid's size, as ``csolve solve`` does; 0: never);
    other keyword arguments are the backend's options (``csolve list-backends``).
    """

    def __init__(self, kind: str | PuzzleType, *, backend: str = "serial", workers: int = 0,
                 limit: int | None = None, count: bool = False, timeout: float | None = None,
                 engine: str | None = None, rules: Sequence[str] | str | None = None,
                 tactics: Sequence[str] | str | None = None,
                 escalate_after: int | None = None, format: str | None = None,
                 box: str | None = None, **backend_options: Any) -> None:
        from csolve.backends import get_backend
        from csolve.solver import SolveOptions

        self.puzzle_type = puzzle_type(kind)
        self.format = format
        self.box = box
        if not isinstance(workers, int) or isinstance(workers, bool):
            raise TypeError(f"workers is a whole number, not {type(workers).__name__}")
        self.backend = be = get_backend(backend)
        if workers < 0:
            raise UnknownNameError(f"workers must be 0 (one per core) or more, got {workers}")
        if limit is not None and limit < 0:
            raise UnknownNameError(f"limit must be 0 or more, got {limit}")
        if timeout is not None and timeout < 0:
            raise UnknownNameError(f"timeout must be 0 (none) or more seconds, got {timeout}")
        if escalate_after is not None and escalate_after < 0:
            raise UnknownNameError("escalate_after must be 0 (never) or more nodes, got "
                                   f"{escalate_after}")
        rule_names = self._rules(_names(rules), _names(tactics), engine)
        mode_limit = (limit or 0) if count else (limit or 1)
        self.options: SolveOptions = SolveOptions(
            limit=mode_limit, backend=be.name,
            workers=workers or (cores() if be.parallel else 1),
            timeout=timeout or None, rules=rule_names, engine=engine,
            backend_options=be.check_options(backend_options),
            escalate_after=escalate_after)
        self.counting = count

    def _rules(self, rules: tuple[str, ...] | None, tactics: tuple[str, ...] | None,
               engine: str | None) -> tuple[str, ...] | None:
        if rules and tactics:
            raise UnknownNameError("rules and tactics do not go together")
        if engine not in (None, "dfs") and (rules or tactics):
            raise UnknownNameError(f"engine {engine} searches with its own deductions; rules "
                                   "and tactics go with the generic search (dfs)")
        if tactics:
            from csolve.cli.tactics import tactics_as_rules

            return tactics_as_rules(self.puzzle_type, tactics)
        if rules:
            from csolve.rules import kernel_paths

            kernel_paths(rules)  # an unknown rule fails before any work, naming those known
        return rules

    def read(self, puzzles: Any) -> Sequence[Puzzle]:
        """The puzzles in ``puzzles`` (text, paths, Puzzle objects), checked for an engine
        that cannot search them before any work."""
        puzzles = read(self.puzzle_type, puzzles, self.format, self.box)
        if self.options.engine is not None:
            from csolve.engines import with_engine

            for _start, _stop, model, _inits in self.puzzle_type.model_runs(
                    puzzles, self.options.rules):
                with_engine(model, self.options.engine)
        return puzzles

    def solve(self, puzzles: Any) -> list[Result]:
        """Every puzzle's :class:`~csolve.outcome.Result`, in input order."""
        return list(self.iter_solve(puzzles))

    def iter_solve(self, puzzles: Any, *,
                   on_solution: Callable[[Puzzle, Any], None] | None = None,
                   progress: Callable[[int], None] | None = None,
                   ctrl: np.ndarray | None = None) -> Iterator[Result]:
        """Results in input order as they finish. ``on_solution(puzzle, solution)`` is
        called with every solution as it is found (then each puzzle is searched alone);
        ``progress(k)`` is told how many puzzles are done; setting ``ctrl[0]`` (a stop
        flag) from another thread stops every worker."""
        for block in self.iter_blocks(puzzles, on_solution=on_solution, progress=progress,
                                      ctrl=ctrl):
            yield from block

    def iter_blocks(self, puzzles: Any, *,
                    on_solution: Callable[[Puzzle, Any], None] | None = None,
                    progress: Callable[[int], None] | None = None,
                    ctrl: np.ndarray | None = None) -> Iterator[ResultBlock]:
        """:meth:`iter_solve`'s results a run of same-shaped puzzles at a time, each a
        :class:`~csolve.outcome.ResultBlock`: a sequence of results kept as columns, for
        output written in bulk."""
        from csolve.solver import solve_blocks

        items = puzzles if _is_puzzle_list(puzzles) and not self.box else self.read(puzzles)
        return solve_blocks(self.puzzle_type, items, self.options, on_solution=on_solution,
                            progress=progress, ctrl=ctrl)


def _is_puzzle_list(puzzles: Any) -> bool:
    from csolve.puzzle import Puzzle, PuzzleBatch

    if isinstance(puzzles, PuzzleBatch):
        return bool(puzzles)
    return isinstance(puzzles, list) and bool(puzzles) and all(
        isinstance(p, Puzzle) for p in puzzles)


def _names(value: Sequence[str] | str | None) -> tuple[str, ...] | None:
    """Names given as a comma-separated string or a sequence; None when there are none."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    names = tuple(n.strip() for n in items if n.strip())
    return names or None


def solve(kind: str | PuzzleType, puzzles: Any, *, backend: str = "serial", workers: int = 0,
          limit: int | None = None, count: bool = False, timeout: float | None = None,
          engine: str | None = None, rules: Sequence[str] | str | None = None,
          **options: Any) -> list[Result]:
    """Solve puzzles (text, a path, Puzzle objects, or a sequence of those): one
    :class:`~csolve.outcome.Result` per puzzle, in input order. See :class:`Solver`."""
    return Solver(kind, backend=backend, workers=workers, limit=limit, count=count,
                  timeout=timeout, engine=engine, rules=rules, **options).solve(puzzles)


def count(kind: str | PuzzleType, puzzle: Any, limit: int | None = None,
          **options: Any) -> Result:
    """Count one puzzle's solutions (all of them, or up to ``limit``): the result's
    ``count``, exact when ``exact`` is True."""
    results = Solver(kind, count=True, limit=limit, **options).solve(puzzle)
    if len(results) != 1:
        raise UnknownNameError(f"count takes one puzzle, got {len(results)}")
    return results[0]


def validate(kind: str | PuzzleType, solution: Any, against: Any = None) -> list[str]:
    """Problems with a complete grid (empty when it is valid): the puzzle type's rules, and
    the givens of ``against`` when given. Both are puzzle text, a path or a Puzzle."""
    ptype = puzzle_type(kind)
    grid = _one(read(ptype, solution))
    reference = grid if against is None else _one(read(ptype, against))
    if not ptype.is_complete(grid):
        return ["not complete"]
    return ptype.validate(reference, ptype.as_solution(grid))


def rate(kind: str | PuzzleType, puzzle: Any, tactics: Sequence[str] | str | None = None
         ) -> Rating:
    """How hard a puzzle is for a person: the level of the hardest tactic its step-by-step
    solve needs (see ``csolve list-tactics``)."""
    from csolve.grading import rate as rate_puzzle

    ptype = puzzle_type(kind)
    return rate_puzzle(ptype, _one(read(ptype, puzzle)), _names(tactics))


def explain(kind: str | PuzzleType, puzzle: Any, tactics: Sequence[str] | str | None = None,
            limit: int | None = None) -> list[Step]:
    """The solve as a person's steps (``step.text`` says each in words); ``limit`` stops
    after that many (1: a hint)."""
    from csolve.grading import find_solution, stepper

    ptype = puzzle_type(kind)
    p = _one(read(ptype, puzzle))
    _count, solution = find_solution(ptype, p)
    return list(stepper(ptype, p, _names(tactics), solution).steps(limit))


def generate(kind: str | PuzzleType, count: int = 1, *, size: int = 9, seed: int | None = None,
             symmetry: str = "none", clues: int | None = None, difficulty: str | None = None,
             tries: int = 100, workers: int = 1,
             rules: Sequence[str] | str | None = None) -> list[Puzzle]:
    """New puzzles with exactly one solution each (``puzzle.meta["seed"]`` reproduces one;
    the same ``seed`` gives the same puzzles whatever ``workers``)."""
    import secrets

    from csolve.generate import SYMMETRIES, GenerateOptions, generate_puzzles

    if symmetry not in SYMMETRIES:
        raise UnknownNameError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")
    ptype = puzzle_type(kind)
    options = GenerateOptions(size=size, symmetry=symmetry, clues=clues, rules=_names(rules))
    seed = secrets.randbits(63) if seed is None else seed
    made = generate_puzzles(ptype, options, count, seed, workers=workers or cores(),
                            difficulty=difficulty, tries=tries)
    return [g.puzzle for g in made]


def _one(puzzles: Sequence[Puzzle]) -> Puzzle:
    if len(puzzles) != 1:
        raise UnknownNameError(f"expected one puzzle, got {len(puzzles)}")
    return puzzles[0]


__all__ = ["Solver", "backends", "cores", "count", "explain", "generate", "puzzle_type",
           "puzzle_types", "rate", "read", "solve", "validate"]
