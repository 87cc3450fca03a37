"""Errors users see as one line, and the exit codes the CLI returns."""

from __future__ import annotations

import re
from contextvars import ContextVar
from enum import IntEnum

#: characters of one word (a run without spaces) an error line quotes whole: a 200,000-character
#: token in a file made an error line of 200 KB, while a file's path (a word too, at the
#: start of the line) must stay whole
LONGEST_WORD = 300
_LONG_WORD = re.compile(r"\S{" + str(LONGEST_WORD + 1) + ",}")


def clip_words(message: str) -> str:
    """``message`` with every word longer than :data:`LONGEST_WORD` cut short, saying how
    long it was."""
    return _LONG_WORD.sub(lambda m: f"{m.group()[:60]}... ({len(m.group()):,} characters)",
                          message)


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is one ("1 row", "3 rows", "2 guesses",
    "6,253 tries": thousands separated, for people to read)."""
    if n == 1:
        return f"{n} {noun}"
    if noun.endswith(("s", "x", "ch", "sh")):
        return f"{n:,} {noun}es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return f"{n:,} {noun[:-1]}ies"
    return f"{n:,} {noun}s"


#: who reads the messages: "python" (the API's callers, whose errors name its keywords,
#: ``tries=N``) or "command" (set while the command runs: ``--tries N``)
AUDIENCE: ContextVar[str] = ContextVar("csolve_audience", default="python")


class ExitCode(IntEnum):
    OK = 0  # every puzzle solved (or counted)
    NO_SOLUTION = 1  # some puzzle has no solution (or a validated grid is wrong)
    BAD_INPUT = 2  # unreadable file, bad puzzle, bad option
    TIMEOUT = 3  # some puzzle hit --timeout
    INTERNAL = 4  # a bug: a solution failed validation, a kernel does not compile, ...
    CANNOT_WRITE = 5  # the output (or the kernel cache) could not be written: a full disk
    INTERRUPTED = 130  # Ctrl-C


class CsolveError(Exception):
    """An error with a message fit for one line on stderr."""

    exit_code = ExitCode.BAD_INPUT


class PuzzleInputError(CsolveError):
    """Bad input, located in a file: ``file:line:column: message``."""

    def __init__(self, source: str, line: int | None, column: int | None, message: str):
        self.source = source
        self.line = line
        self.column = column
        self.message = clip_words(message)
        super().__init__(str(self))

    @property
    def where(self) -> str:
        """``file``, ``file:line`` or ``file:line:column``: as far as the problem is known."""
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class OptionError(CsolveError):
    """An option or argument out of range, of the wrong kind, or that does not go with
    another: a usage slip, said in one line before any work."""


class UnknownNameError(OptionError):
    """An unknown puzzle type, backend, rule or format name."""


class KeywordError(OptionError, TypeError):
    """A keyword of the Python API that is neither a parameter nor a backend option but is
    close to a parameter (``timout=5``): a slip, said with the near name. A TypeError too,
    as Python's own unexpected keyword is."""

    def __init__(self, key: str, near: str) -> None:
        super().__init__(f"unexpected keyword argument {key!r}; did you mean {near!r}?")
        self.key, self.near = key, near


class NoSolutionError(CsolveError):
    """Asked for what only a solvable puzzle has (its steps, say) of one that has none."""

    exit_code = ExitCode.NO_SOLUTION


class RuleError(CsolveError):
    """A rule broke its contract with the search (it kept saying it changed something and
    never reached a fixpoint): a bug in that rule, named so its author can find it."""

    exit_code = ExitCode.INTERNAL


class UnsoundStepError(CsolveError):
    """A tactic's step contradicts the puzzle's only solution: a bug in that tactic's
    finder, named so its author can find it, and never shown as an explanation."""

    exit_code = ExitCode.INTERNAL


class SearchTimeoutError(CsolveError):
    """A puzzle ran past its time limit before an answer came."""

    exit_code = ExitCode.TIMEOUT
