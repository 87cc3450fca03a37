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

import functools
import numbers
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from csolve.defaults import MAX_COUNT, MAX_KEPT, MAX_PUZZLES, MAX_WORKERS, cores
from csolve.errors import (
    AUDIENCE,
    CsolveError,
    NoSolutionError,
    OptionError,
    PuzzleInputError,
    UnknownNameError,
)

if TYPE_CHECKING:
    import numpy as np

    from csolve.backends.base import Backend
    from csolve.grading import Rating
    from csolve.logic import Step
    from csolve.outcome import Result, ResultBlock
    from csolve.puzzle import Puzzle, PuzzleType
    from csolve.solver import SolveOptions

#: the command's options that are keywords of the API too, as messages shared with the
#: command name them (``--tries N``); quoted words (what the caller wrote) are matched
#: first, to be left as they are
_OPTION = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|--(tries|clues|symmetry|box|timeout|workers"
                     r"|limit|backend|format|seed|size|difficulty|engine|rules|tactics)\b"
                     r"(?: (N)\b)?")


#: Python's own words for a keyword a function does not take
_UNEXPECTED = re.compile(r"got an unexpected keyword argument '(\w+)'")


def _in_python_words(fn: Callable) -> Callable:
    """Errors the caller sees name the API's keywords (``tries=N``), not the command's
    options (``--tries N``): the messages are the command's too. A keyword the function
    does not take but that is close to one it does (``timout=5``) is a
    :class:`~csolve.errors.KeywordError` naming it, as :class:`Solver` says it."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except CsolveError as e:
            _reword(e)
            raise
        except TypeError as e:
            m = _UNEXPECTED.search(str(e))
            if m is None or e.__traceback__ is None or e.__traceback__.tb_next is not None:
                raise  # (raised inside the function, not by the call's keywords)
            import difflib
            import inspect

            from csolve.errors import KeywordError

            own = [name for name, p in inspect.signature(fn).parameters.items()
                   if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and name != "self"]
            near = difflib.get_close_matches(m.group(1), own, n=1)
            if near:
                raise KeywordError(m.group(1), near[0]) from None
            raise
    return wrapper


def _reworded(items: Iterator) -> Iterator:
    """``items``, with the errors raised while they are made reworded as above."""
    try:
        yield from items
    except CsolveError as e:
        _reword(e)
        raise


def _reword(e: CsolveError) -> None:
    """``e``'s message in the API's words, unless the command is the one running."""
    if AUDIENCE.get() != "python":
        return

    def keyword(m: re.Match) -> str:
        if m.group(1) is None:  # a quoted word
            return m.group(0)
        return f"{m.group(1)}={m.group(2) or ''}"

    if isinstance(e, PuzzleInputError):
        e.message = _OPTION.sub(keyword, e.message)
        e.args = (str(e),)
    elif e.args and isinstance(e.args[0], str):
        e.args = (_OPTION.sub(keyword, e.args[0]), *e.args[1:])


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

    if not isinstance(kind, str | PuzzleType):
        raise TypeError(f"a puzzle type is a name (see csolve.puzzle_types()) or a "
                        f"PuzzleType, not {type(kind).__name__}")
    return kind if isinstance(kind, PuzzleType) else get_puzzle_type(kind)


@_in_python_words
def read(kind: str | PuzzleType, puzzles: Any, format: str | None = None,
         box: str | None = None) -> Sequence[Puzzle]:
    """The puzzles in ``puzzles``, in order: puzzle text (one or many puzzles), a path, a
    Puzzle, or a sequence of those. ``box`` ("RxC") gives Sudoku-like puzzles a box shape
    other than their size's default. Many puzzles of one shape may come back as a
    :class:`~csolve.puzzle.PuzzleBatch` (a sequence that makes each Puzzle when asked)."""
    from csolve.puzzle import Puzzle, PuzzleBatch

    ptype = puzzle_type(kind)
    _check_text(format=format, box=box)
    check_format(ptype, format)
    if isinstance(puzzles, bytes) or not isinstance(puzzles, str | os.PathLike | Puzzle | list
                                                    | tuple | PuzzleBatch):
        raise TypeError(f"puzzles are text, a path, Puzzle objects or a list of those, not "
                        f"{type(puzzles).__name__}")
    items = [puzzles] if isinstance(puzzles, str | os.PathLike | Puzzle | PuzzleBatch) \
        else puzzles
    # with a box to set, the caller's own puzzles are copied first (all but one text or path)
    theirs = box is not None and not (len(items) == 1 and isinstance(items[0], str | os.PathLike))
    if isinstance(puzzles, PuzzleBatch):
        parts: list[Sequence[Puzzle]] = [_of_kind(ptype, puzzles)]
    else:
        parts = []
        for item in items:
            if isinstance(item, Puzzle):
                parts.append((_of_kind(ptype, item),))
            elif isinstance(item, str | os.PathLike):
                parts.append(read_argument(ptype, item, format))
            else:
                raise TypeError(f"a puzzle is text, a path or a Puzzle, not "
                                f"{type(item).__name__}")
    out: Sequence[Puzzle]
    if len(parts) == 1 and isinstance(parts[0], PuzzleBatch) and parts[0].start == 0 \
            and not theirs:
        out = parts[0]  # numbered from 0 already
    else:
        # numbered in this input's order; the caller's own Puzzle objects stay as they are
        out = [_own_copy(p, i) if theirs else p if p.index == i else replace(p, index=i)
               for i, p in enumerate(p for part in parts for p in part)]
    if not out:
        raise PuzzleInputError("<input>", None, None, "no puzzle found")
    return ptype.with_box(out, box) if box else out


def _own_copy(puzzle: Puzzle, index: int) -> Puzzle:
    """``puzzle`` numbered ``index``, sharing nothing a box shape is written into."""
    import copy

    return replace(puzzle, index=index, meta=dict(puzzle.meta), data=copy.copy(puzzle.data))


def _of_kind(ptype: PuzzleType, puzzles: Any) -> Any:
    """``puzzles`` (a Puzzle or a PuzzleBatch) if they are ``ptype``'s; else a one-line
    error (another type's data would reach this type's code)."""
    if puzzles.kind != ptype.name:
        where = puzzles.where if hasattr(puzzles, "where") else puzzles.source
        raise PuzzleInputError(where, None, None, f"a {puzzles.kind} puzzle, not {ptype.name}")
    return puzzles


def read_argument(ptype: PuzzleType, item: str | os.PathLike, fmt: str | None
                  ) -> Sequence[Puzzle]:
    """The puzzles of one argument: a file (``-``: standard input), or puzzle text. A line
    that is neither an existing file nor a puzzle is "no such file"."""
    from csolve.inputs import no_puzzle_found
    from csolve.io import check_text, read_file

    if isinstance(item, str) and item.startswith("~") and os.path.exists(
            os.path.expanduser(item)):  # a path from Python, where no shell expanded it
        item = os.path.expanduser(item)
    if isinstance(item, os.PathLike) or item == "-" or os.path.exists(item):
        text, name = read_file(os.fspath(item))
        try:
            puzzles = parse_text(ptype, text, name, fmt)
        except PuzzleInputError as e:
            other = None if fmt else _reads_as_another_type(ptype, text, name)
            if other is None:
                raise
            raise PuzzleInputError(e.source, e.line, e.column, f"{e.message} (it reads as "
                                   f"{other} puzzles: is the puzzle type right?)") from None
        if not puzzles:  # a type's reader that says nothing of it: the file is named here
            raise no_puzzle_found(name, text)
        return puzzles
    if not item.strip():
        raise PuzzleInputError("<text>", None, None, "no puzzle given (the text is empty)")
    check_text(item, "<text>")  # as a file's text is checked
    if "\n" in item.strip():
        return parse_text(ptype, item, "<text>", fmt)
    try:
        return parse_text(ptype, item, "<text>", fmt)
    except PuzzleInputError as e:
        if _looks_like_path(item):
            raise PuzzleInputError(item, None, None, "no such file") from None
        if "=" in item and any(ch.isspace() for ch in item.strip()):
            raise  # puzzle text (a Killer line), not a file name: its own error, at <text>
        shown = item if len(item) <= 80 else item[:77] + "..."
        raise PuzzleInputError(shown, e.line, e.column,
                               f"no such file, nor a {ptype.name} puzzle ({e.message})") from None


def _looks_like_path(text: str) -> bool:
    """A name in an existing folder or with a file extension (``puzzles/a.txt``,
    ``hard.sdk``), with no space or ``=`` (puzzle text such as a Killer line has them):
    what failed was finding the file, not reading a puzzle."""
    import re

    name = text.strip()
    if len(name) > 60 or "=" in name or any(ch.isspace() for ch in name):
        return False
    folder = os.path.dirname(name)
    return (bool(folder) and os.path.isdir(folder)) or re.fullmatch(
        r"[\w./\\-]*\.[A-Za-z][A-Za-z0-9]{1,4}", name) is not None


def check_format(ptype: PuzzleType, fmt: str | None) -> None:
    """An input format the puzzle type does not read is a one-line error."""
    if fmt is not None and fmt not in ptype.formats:
        known = ", ".join(ptype.formats) or "none to choose from"
        raise UnknownNameError(f"unknown format {fmt!r} for {ptype.name} (known: {known})")


#: the most text a failed read is tried as another type's (a reader's error path, not a pass
#: over a file of millions)
OTHER_TYPE_TEXT = 1 << 18


def _reads_as_another_type(ptype: PuzzleType, text: str, source: str) -> str | None:
    """The names of the other installed puzzle types that read all of ``text`` ("kakuro",
    "futoshiki or sudoku"): a file given with the wrong type reads as what it is, and the
    error can say so. Every type that reads it is named, so that a lenient reader does not
    hide the type the file was written for."""
    import contextlib
    import io

    from csolve.puzzle import all_puzzle_types

    if len(text) > OTHER_TYPE_TEXT:
        return None
    # quiet: a plugin that fails to load, or a reader that talks, is not this error's news
    readers = []
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        for name, other in sorted(all_puzzle_types().items()):
            if name == ptype.name:
                continue
            try:
                puzzles = parse_text(other, text, source, None)
                if puzzles:
                    other.check_many(puzzles)
                    readers.append(name)
            except Exception:  # any reader's failure: not that type
                continue
    if not readers:
        return None
    *others, last = readers
    return f"{', '.join(others)} or {last}" if others else last


def parse_text(ptype: PuzzleType, text: str, source: str, fmt: str | None
               ) -> Sequence[Puzzle]:
    """``ptype.parse`` with a plugin's slips turned into one-line input errors; the JSON
    records ``csolve generate`` writes are read as the puzzle text they carry."""
    from csolve.inputs import generated_text

    records = generated_text(text, source, ptype.name, "json" in ptype.formats, ptype.comment)
    box = None
    if records is not None:  # generate's records: the text they carry, in its own format
        (text, box), fmt = records, None if fmt == "json" else fmt
    try:
        puzzles = ptype.parse(text, source, fmt)
    except PuzzleInputError:
        raise
    except (ValueError, IndexError, KeyError) as e:  # what a parser lets out on bad text
        from csolve.plugins import blamed_plugin

        where = blamed_plugin(e)  # a third party's: say whose, as a bug would be
        whose = f" ({type(e).__name__} in {where}, not a PuzzleInputError)" if where else ""
        raise PuzzleInputError(source, None, None, f"cannot parse: {e}{whose}") from None
    if not isinstance(puzzles, Sequence):  # a plugin's bug, not the input's
        raise TypeError(f"puzzle type {ptype.name!r}: parse returned {puzzles!r}, not a list "
                        "of puzzles")
    if box is not None and puzzles:  # the shape the records were made with
        puzzles = ptype.with_box(puzzles, box)
    return puzzles


class Solver:
    """Solves puzzles of one type with fixed options; reuse it (kernels load once).

    ``backend`` and ``workers`` (0: one per core for a parallel backend) say how searches
    are shared; ``limit`` is how many solutions to find (default 1; 0: all, at most 1,000
    kept) or, with ``count``, the number to count up to (default: all); ``timeout`` is
    seconds per puzzle; ``engine``, ``rules`` and ``tactics`` choose the search (see
    ``csolve list-engines``, ``list-rules``, ``list-tactics``); ``format`` forces an input
    format and ``box`` a box shape ("2x3"); ``escalate_after`` is the depth-first nodes
    before the learning engine takes a hard puzzle over (None: by the grid's size, as
    ``csolve solve`` does; 0: never);
    other keyword arguments are the backend's options (``csolve list-backends``).
    """

    @_in_python_words
    def __init__(self, kind: str | PuzzleType, *, backend: str = "serial", workers: int = 0,
                 limit: int | None = None, count: bool = False, timeout: float | None = None,
                 engine: str | None = None, rules: Sequence[str] | str | None = None,
                 tactics: Sequence[str] | str | None = None,
                 escalate_after: int | None = None, format: str | None = None,
                 box: str | None = None, **backend_options: Any) -> None:
        from csolve.backends import get_backend
        from csolve.solver import SolveOptions

        misplaced = sorted(set(backend_options) & {"on_solution", "progress", "ctrl"})
        if misplaced:  # else "backend 'serial' has no option 'on_solution'"
            raise TypeError(f"{', '.join(misplaced)}: arguments of Solver.iter_solve "
                            "(csolve.Solver(kind, ...).iter_solve(puzzles, on_solution=...)), "
                            "not of a solve")
        self.puzzle_type = puzzle_type(kind)
        self.format = format
        self.box = box
        _check_numbers(workers=workers, limit=limit, escalate_after=escalate_after)
        if not isinstance(count, bool):
            raise TypeError(f"count is True or False, not {type(count).__name__}")
        self.backend = be = get_backend(backend)
        _check_keywords(backend_options, be.options)
        _check_workers(workers)
        if limit is not None and not 0 <= limit <= MAX_COUNT:
            raise OptionError(f"limit must be 0 to {MAX_COUNT:,} (2**62), got {limit}")
        _check_timeout(timeout)
        if escalate_after is not None and not 0 <= escalate_after <= MAX_COUNT:
            raise OptionError(f"escalate_after must be 0 (never) to {MAX_COUNT:,} (2**62) "
                              f"nodes, got {escalate_after}")
        rule_names = self._rules(_names(rules), _names(tactics, "tactics"), engine)
        # 0 is "no limit" as on the command line (--limit 0, --all): every solution, of
        # which solve keeps MAX_KEPT
        mode_limit = (limit or 0) if count else (1 if limit is None else limit)
        self.options: SolveOptions = SolveOptions(
            limit=mode_limit, backend=be.name,
            workers=workers or (cores() if be.parallel else 1),
            timeout=timeout or None, rules=rule_names, engine=engine,
            keep=1 if count else min(mode_limit or MAX_KEPT, MAX_KEPT),  # handed back
            backend_options=be.check_options(backend_options),
            escalate_after=escalate_after)
        be.check_workers(self.options.workers)
        if AUDIENCE.get() == "python":  # (the CLI has notes of its own)
            if workers > 1 and not be.parallel:
                _note(f"backend {be.name!r} searches on one worker; workers={workers} changes "
                      "nothing (a parallel one shares the work: backend='locked-pool'; see "
                      "csolve.backends())")
            if workers == 1 and be.workers_in:
                _note(f"with workers=1 backend {be.name!r} searches alone in this process, as "
                      f"serial does: no {be.workers_in} are started")
        self.counting = count

    def _rules(self, rules: tuple[str, ...] | None, tactics: tuple[str, ...] | None,
               engine: str | None) -> tuple[str, ...] | None:
        if rules and tactics:
            raise OptionError("rules and tactics do not go together")
        if engine not in (None, "dfs") and (rules or tactics):
            raise OptionError(f"engine {engine} searches with its own deductions; rules "
                              "and tactics go with the generic search (dfs)")
        if tactics:
            from csolve.cli.tactics import tactics_as_rules

            return tactics_as_rules(self.puzzle_type, tactics)
        if rules:
            from csolve.puzzle import check_own_constraints
            from csolve.rules import kernel_paths

            kernel_paths(rules)  # an unknown rule fails before any work, naming those known
            check_own_constraints(self.puzzle_type, rules)
        return rules

    def _note_unused(self, puzzles: Sequence[Puzzle], streaming: bool = False) -> None:
        """A warning when ``escalate_after`` changes nothing for these puzzles (the command
        line says it in its own words); ``streaming``: an ``on_solution`` is given."""
        if AUDIENCE.get() == "python":
            from csolve.solver import escalation_unused

            unused = escalation_unused(self.puzzle_type, puzzles, self.options, streaming)
            if unused:
                _note(f"escalate_after={self.options.escalate_after} changes nothing: {unused}")

    @_in_python_words
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

    @_in_python_words
    def iter_solve(self, puzzles: Any, *,
                   on_solution: Callable[[Puzzle, Any], None] | None = None,
                   progress: Callable[[int], None] | None = None,
                   ctrl: np.ndarray | None = None) -> Iterator[Result]:
        """Results in input order as they are final (a batch's puzzles when the batch
        ends, a puzzle searched alone when it is done). ``on_solution(puzzle, solution)`` is
        called with every solution as it is found (then each puzzle is searched alone);
        ``progress(k)`` is told how many puzzles are done; setting ``ctrl[0]`` (a stop
        flag) from another thread stops every worker."""
        _check_callbacks(on_solution, progress, ctrl)  # said by the call, not a next()

        def results() -> Iterator[Result]:  # reading the puzzles waits for the first next()
            for block in self.iter_blocks(puzzles, on_solution=on_solution,
                                          progress=progress, ctrl=ctrl):
                yield from block

        return results()

    @_in_python_words
    def iter_blocks(self, puzzles: Any, *,
                    on_solution: Callable[[Puzzle, Any], None] | None = None,
                    progress: Callable[[int], None] | None = None,
                    ctrl: np.ndarray | None = None) -> Iterator[ResultBlock]:
        """:meth:`iter_solve`'s results a part of a run of same-shaped puzzles at a time,
        each a :class:`~csolve.outcome.ResultBlock`: a sequence of results kept as columns,
        for output written in bulk (a run splits where a puzzle goes on to a backend or the
        learning engine)."""
        from csolve.puzzle import PuzzleBatch
        from csolve.solver import solve_blocks

        _check_callbacks(on_solution, progress, ctrl)
        if _is_puzzle_list(puzzles) and not self.box:
            items = puzzles
            for p in [puzzles] if isinstance(puzzles, PuzzleBatch) else puzzles:
                _of_kind(self.puzzle_type, p)
        else:
            items = self.read(puzzles)
        self._note_unused(items, streaming=on_solution is not None)
        return _reworded(solve_blocks(self.puzzle_type, items, self.options,
                                      on_solution=on_solution, progress=progress, ctrl=ctrl))


def _check_callbacks(on_solution: Any, progress: Any, ctrl: Any) -> None:
    """What :meth:`Solver.iter_solve` is handed besides the puzzles, checked before any
    work (a function that is not one would fail only at the first solution)."""
    from csolve.kernels.abi import CTRL_SIZE

    if ctrl is not None and (getattr(ctrl, "shape", None) != (CTRL_SIZE,)
                             or getattr(ctrl, "dtype", None) != "int64"):
        raise TypeError("ctrl is an array from csolve.new_ctrl()")
    for name, fn in (("on_solution", on_solution), ("progress", progress)):
        if fn is not None and not callable(fn):
            raise TypeError(f"{name} is a function (or None), not {type(fn).__name__}")


def _check_keywords(backend_options: dict[str, Any], known: Any) -> None:
    """A keyword that no installed backend takes but that is close to one of
    :class:`Solver`'s own parameters is a slip (``timout=5``): a :class:`KeywordError`
    naming the near parameter, not the backend's "no such option"."""
    if not backend_options:
        return
    import inspect

    from csolve.backends import all_backends

    taken = set(known).union(*(b.options for b in all_backends().values()))
    own = [name for name in inspect.signature(Solver.__init__).parameters
           if name not in ("self", "kind", "backend_options")]
    _check_near([key for key in backend_options if key not in taken], own)


def _check_near(keys: Sequence[str], own: Sequence[str]) -> None:
    """Raise :class:`KeywordError` for the first of ``keys`` close to a name in ``own``."""
    import difflib

    from csolve.errors import KeywordError

    for key in sorted(keys):
        near = difflib.get_close_matches(key, own, n=1)
        if near:
            raise KeywordError(key, near[0])


def _check_workers(workers: int) -> None:
    """0 (one per core) up to :data:`~csolve.defaults.MAX_WORKERS`."""
    if not 0 <= workers <= MAX_WORKERS:
        raise OptionError(f"workers must be 0 (one per core) to {MAX_WORKERS}, got {workers}")


def _check_timeout(timeout: float | None) -> None:
    """A time limit is a number of seconds, 0 or None for none."""
    _check_numbers(whole=False, timeout=timeout)
    if timeout is not None and not timeout >= 0:  # NaN too
        raise OptionError(f"timeout must be 0 (none) or more seconds, got {timeout}")


def _check_text(**values: Any) -> None:
    """A TypeError naming the argument when text was expected (None is "not given"):
    ``box="2x3"``, not ``box=(2, 3)``."""
    for name, value in values.items():
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} is text (like {'2x3' if name == 'box' else 'line'!r}), "
                            f"not {type(value).__name__}")


def _check_numbers(whole: bool = True, **values: Any) -> None:
    """A TypeError naming the argument when a number was expected (None is "not given")."""
    from numbers import Integral, Real

    kind = Integral if whole else Real
    for name, value in values.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, kind)):
            what = "a whole number" if whole else "a number"
            raise TypeError(f"{name} is {what}, not {type(value).__name__}")


def _is_puzzle_list(puzzles: Any) -> bool:
    from csolve.puzzle import Puzzle, PuzzleBatch

    if isinstance(puzzles, PuzzleBatch):
        return bool(puzzles)
    return isinstance(puzzles, list) and bool(puzzles) and all(
        isinstance(p, Puzzle) for p in puzzles)


def _names(value: Sequence[str] | str | None, what: str = "rules"
           ) -> tuple[str, ...] | None:
    """Names given as a comma-separated string or a sequence; None when there are none. A
    TypeError names ``what`` when they are not text."""
    if value is None:
        return None
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list | tuple) and all(isinstance(n, str) for n in value):
        items = list(value)
    else:
        raise TypeError(f"{what} are names, as text ('a,b') or a list of text, not "
                        f"{type(value).__name__}" + (" of other things" if isinstance(
                            value, list | tuple) else ""))
    names = tuple(n.strip() for n in items if n.strip())
    return names or None


@_in_python_words
def solve(kind: str | PuzzleType, puzzles: Any, *, backend: str = "serial", workers: int = 0,
          limit: int | None = None, count: bool = False, timeout: float | None = None,
          engine: str | None = None, rules: Sequence[str] | str | None = None,
          **options: Any) -> list[Result]:
    """Solve puzzles (text, a path, Puzzle objects, or a sequence of those): one
    :class:`~csolve.outcome.Result` per puzzle, in input order. See :class:`Solver`."""
    return Solver(kind, backend=backend, workers=workers, limit=limit, count=count,
                  timeout=timeout, engine=engine, rules=rules, **options).solve(puzzles)


@_in_python_words
def count(kind: str | PuzzleType, puzzle: Any, limit: int | None = None,
          **options: Any) -> Result:
    """Count one puzzle's solutions (all of them, or up to ``limit``): the result's
    ``count``, exact when ``exact`` is True."""
    from csolve.solver import solve_blocks

    solver = Solver(kind, count=True, limit=limit, **options)
    p = _one(solver.read(puzzle), "count")  # read once: standard input cannot be read twice
    solver._note_unused([p])
    (block,) = solve_blocks(solver.puzzle_type, [p], solver.options)
    return block[0]


@_in_python_words
def validate(kind: str | PuzzleType, solution: Any, against: Any = None) -> list[str]:
    """Problems with a complete grid (empty when it is valid): the puzzle type's rules, and
    the givens of ``against`` when given. Both are puzzle text, a path or a Puzzle; the
    solution may also be a solution as a :class:`~csolve.outcome.Result` holds it (an
    array of whole numbers, or the same as lists), checked against the puzzle ``against``."""
    import numpy as np

    from csolve.solver import listed

    ptype = puzzle_type(kind)
    if isinstance(solution, list | tuple) and len(solution) > 1 and all(
            isinstance(s, str) and len(s) == 1 for s in solution):  # list("4.....8.5...")
        raise TypeError("a solution as a list holds whole numbers; as text it is one string "
                        "(''.join(...))")
    if isinstance(solution, list | tuple) and solution and isinstance(
            solution[0], numbers.Number | list | tuple | np.generic | np.ndarray):  # values
        try:
            solution = np.asarray(solution)
        except ValueError:  # rows of different lengths
            raise TypeError("a solution given as lists is a grid of whole numbers, as "
                            "Result.solution holds it; these rows differ in length") from None
    if isinstance(solution, np.ndarray):
        if solution.dtype.kind not in "iu":
            raise TypeError(f"a solution array holds whole numbers, as Result.solution does, "
                            f"not {solution.dtype} values")
        if against is None:
            raise OptionError("a solution array is checked against its puzzle: pass against=")
        return listed(ptype, "validate",
                      ptype.validate(_one(read(ptype, against), "validate"), solution))
    grid = _one(read(ptype, solution), "validate")
    reference = grid if against is None else _one(read(ptype, against), "validate")
    if not ptype.is_complete(grid):
        return ["not complete"]
    return listed(ptype, "validate", ptype.validate(reference, ptype.as_solution(grid)))


@_in_python_words
def rate(kind: str | PuzzleType, puzzle: Any, tactics: Sequence[str] | str | None = None, *,
         timeout: float | None = None, format: str | None = None, box: str | None = None
         ) -> Rating:
    """How hard a puzzle is for a person: the level of the hardest tactic its step-by-step
    solve needs (see ``csolve list-tactics``); ``level`` "invalid" when it has no solution,
    "not unique" when it has several. Past ``timeout`` seconds (search and steps):
    :class:`~csolve.errors.SearchTimeoutError`."""
    from csolve.grading import rate as rate_puzzle

    ptype = puzzle_type(kind)
    _check_timeout(timeout)
    p = _one(read(ptype, puzzle, format, box), "rate")
    return rate_puzzle(ptype, p, _names(tactics, "tactics"), timeout)


@_in_python_words
def explain(kind: str | PuzzleType, puzzle: Any, tactics: Sequence[str] | str | None = None,
            limit: int | None = None, *, timeout: float | None = None,
            format: str | None = None, box: str | None = None) -> list[Step]:
    """The solve as a person's steps (``step.text`` says each in words, ``step.level`` its
    level as ``csolve rate`` grades it); ``limit`` stops
    after that many (1: a hint; none left: the puzzle is solved). A puzzle with no solution
    raises :class:`~csolve.errors.NoSolutionError`; past ``timeout`` seconds (search and
    steps), :class:`~csolve.errors.SearchTimeoutError`."""
    from dataclasses import replace

    from csolve.grading import explain as explain_puzzle
    from csolve.grading import step_level

    ptype = puzzle_type(kind)
    _check_numbers(limit=limit)
    _check_timeout(timeout)
    if limit is not None and limit < 1:
        raise OptionError(f"limit must be 1 or more steps, got {limit}")
    p = _one(read(ptype, puzzle, format, box), "explain")
    e = explain_puzzle(ptype, p, _names(tactics, "tactics"), limit, timeout)
    if e.solutions == 0:
        raise NoSolutionError(f"{p.where}: no solution: {e.why_no_solution()}")
    return [s if s.level else replace(s, level=step_level(ptype, s)) for s in e.steps]


@_in_python_words
def generate(kind: str | PuzzleType, count: int = 1, *, size: int = 9, seed: int | None = None,
             symmetry: str = "none", clues: int | None = None, difficulty: str | None = None,
             tries: int | None = None, workers: int = 1,
             rules: Sequence[str] | str | None = None, box: str | None = None,
             backend: str | None = None, timeout: float | None = None,
             **backend_options: Any) -> list[Puzzle]:
    """New puzzles with exactly one solution each (``puzzle.meta["seed"]``, with the same
    other arguments and ``count=1``, makes one again;
    the same ``seed`` gives the same puzzles whatever ``workers`` or ``backend``).
    ``difficulty`` is a level of ``csolve rate`` (easy ... evil), tried for at most
    ``tries`` tries a puzzle (None: as many as fit in ``csolve.defaults.DIFFICULTY_SECONDS``
    of CPU time a puzzle); ``box`` a box shape ("2x3");
    ``backend`` (e.g. "ray") and its options say where puzzles are made (default: threads
    of this process). ``timeout``: wall seconds a puzzle may take (compiling kernels left
    out); the first one not made in time raises
    :class:`~csolve.generate.GenerationTimeoutError`, whose ``made`` holds the puzzles made
    before it."""
    import secrets

    from csolve.generate import (
        SYMMETRIES,
        GenerateOptions,
        GenerationError,
        backend_mapper,
        check_tries,
        generate_puzzles,
    )
    from csolve.grading import LEVELS

    _check_numbers(count=count, size=size, seed=seed, clues=clues, tries=tries,
                   workers=workers)
    for name, value, low in (("size", size, 1), ("seed", seed, 0), ("clues", clues, 1),
                             ("tries", tries, 1)):
        if value is not None and value < low:
            raise OptionError(f"{name} must be {low} or more, got {value}")
    if not 1 <= count <= MAX_PUZZLES:
        raise OptionError(f"count must be 1 to {MAX_PUZZLES:,}, got {count}")
    _check_workers(workers)
    if symmetry not in SYMMETRIES:
        raise UnknownNameError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")
    if difficulty is not None and difficulty not in LEVELS:
        raise UnknownNameError(f"unknown difficulty {difficulty!r} (known: {', '.join(LEVELS)})")
    check_tries(tries, difficulty)
    _check_timeout(timeout)
    ptype = puzzle_type(kind)
    _check_text(box=box)
    options = GenerateOptions(size=size, symmetry=symmetry, clues=clues, rules=_names(rules),
                              box=box)
    mapper = None
    if backend is not None:
        from csolve.backends import Backend, get_backend

        mapper = backend_mapper(backend, backend_options)
        be = get_backend(backend)
        if be.workers_in and type(be).map_ordered is Backend.map_ordered:
            _note(f"backend {backend!r} makes puzzles on threads of this process, as the "
                  f"default does: no {be.workers_in} are started")
        elif workers > 1 and not be.parallel:
            _note(f"backend {backend!r} makes one puzzle at a time; workers={workers} "
                  "changes nothing")
    elif backend_options:
        own = ("count", "size", "seed", "symmetry", "clues", "difficulty", "tries", "workers",
               "rules", "box", "timeout")
        _check_near(backend_options, own)
        names = ", ".join(sorted(backend_options))
        raise OptionError(f"generate has no argument {names}: without backend= it takes its "
                          f"own only ({', '.join(own)}); other keywords are options of a "
                          "backend")
    seed = secrets.randbits(63) if seed is None else seed
    made: list[Puzzle] = []
    try:
        for g in generate_puzzles(ptype, options, count, seed, workers=workers or cores(),
                                  difficulty=difficulty, tries=tries, mapper=mapper,
                                  timeout=timeout or None):
            made.append(g.puzzle)
    except GenerationError as e:
        e.made = made
        raise
    return made


def _note(message: str) -> None:
    """What the command line says as a note (an option that changes nothing), as a
    :class:`UserWarning` pointing at the caller's line."""
    import sys
    import warnings

    # the first frame outside csolve, however deep the call into it
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(0), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


def _one(puzzles: Sequence[Puzzle], what: str) -> Puzzle:
    if len(puzzles) != 1:
        first = puzzles[0]
        raise PuzzleInputError(first.source, None, None,
                               f"{what} takes one puzzle; this holds {len(puzzles)} (pass "
                               "one, e.g. csolve.read(...)[i], or loop over them)")
    return puzzles[0]


__all__ = ["Solver", "backends", "cores", "count", "explain", "generate", "puzzle_type",
           "puzzle_types", "rate", "read", "solve", "validate"]
