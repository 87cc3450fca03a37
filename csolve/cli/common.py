"""What the commands share: reading puzzle files, choosing the output style."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from csolve.errors import PuzzleInputError


class Output(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"


# Arguments and options several commands share, declared once.
PuzzleArg = Annotated[str, typer.Argument(help="Puzzle type, e.g. sudoku (see list-plugins).")]
FileArg = Annotated[str, typer.Argument(help="Puzzle file; '-' reads stdin.")]
FormatOpt = Annotated[str | None, typer.Option("--format", help="Force an input format.")]


def read_text(path: str) -> tuple[str, str]:
    """(text, display name) of a file, or of stdin for ``-``; one-line errors otherwise."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        name = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise PuzzleInputError(name, None, None, "no such file") from None
        except IsADirectoryError:
            raise PuzzleInputError(name, None, None, "is a directory, not a file") from None
        except OSError as e:
            raise PuzzleInputError(name, None, None, f"cannot read: {e.strerror}") from None
    try:
        return data.decode("utf-8-sig"), name  # a byte-order mark is not part of the text
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise PuzzleInputError(name, line, None, "not UTF-8 text") from None


def default_output() -> Output:
    return Output.pretty if sys.stdout.isatty() else Output.line


def load_puzzles(kind: str, path: str, fmt: str | None):
    """The puzzle type and every puzzle in ``path``."""
    from csolve.puzzle import get_puzzle_type

    ptype = get_puzzle_type(kind)
    if fmt is not None and ptype.formats and fmt not in ptype.formats:
        from csolve.errors import UnknownNameError

        raise UnknownNameError(
            f"unknown format {fmt!r} for {kind} (known: {', '.join(ptype.formats)})")
    text, name = read_text(path)
    try:
        puzzles = ptype.parse(text, name, fmt)
    except PuzzleInputError:
        raise
    except (ValueError, IndexError, KeyError) as e:  # a plugin's parser slipped
        raise PuzzleInputError(name, None, None, f"cannot parse: {e}") from None
    if not puzzles:
        raise PuzzleInputError(name, None, None, "no puzzle found")
    return ptype, puzzles
