"""What the commands share: reading puzzle files, choosing the output style."""

from __future__ import annotations

import codecs
import io
import os
import select
import sys
from enum import StrEnum
from typing import Annotated

import typer


class Output(StrEnum):
    pretty = "pretty"  # rich grids (a terminal's default)
    line = "line"  # one line per puzzle in its input format (a pipe's default)
    json = "json"  # one JSON object per puzzle per line
    grid = "grid"  # plain-text grids that csolve reads back
    svg = "svg"  # one SVG picture of every puzzle


# Arguments and options several commands share, declared once.
PuzzleArg = Annotated[str, typer.Argument(metavar="PUZZLE",
                                           help="Puzzle type, e.g. sudoku (see list-types).")]
FileArg = Annotated[str, typer.Argument(
    metavar="FILE",
    help="Puzzle file; '-' reads stdin; or the puzzle itself, e.g. one 81-symbol line.")]
FormatOpt = Annotated[str | None, typer.Option("--format", help=(
    "Input format (default: detected): sudoku line, numbers, grid or sdk; kakuro, killer and "
    "str8ts text or json (csolve list-types, docs/formats.md)."))]

BoxOpt = Annotated[str | None, typer.Option("--box", help=(
    "Box shape RxC (rows x columns, e.g. 3x2) for puzzle types with boxes, where a size allows "
    "several; default: the most square one (docs/sudoku-boxes.md)."))]


def default_output() -> Output:
    return Output.pretty if sys.stdout.isatty() else Output.line


def load_puzzles(kind: str, path: str, fmt: str | None, box: str | None = None,
                 check: bool = False):
    """The puzzle type and every puzzle in ``path``: a file, ``-`` for standard input, or
    puzzle text given as the argument itself; with ``box`` (``--box RxC``), in that box
    shape. With ``check``, every puzzle's givens are checked first, so that a bad puzzle
    anywhere in the file stops the command before any output, as ``solve`` does."""
    from csolve.api import puzzle_type, read

    ptype = puzzle_type(kind)
    puzzles = read(ptype, path, fmt, box)
    if check:
        ptype.check_many(puzzles)
    return ptype, puzzles


def write_whole(text: str) -> None:
    """Write ``text`` whole. Unbuffered (``python -u``, ``PYTHONUNBUFFERED``) stdout hands
    a big text to one ``write`` call, which a pipe may take only in part (its reader gone,
    a signal) and the rest would be lost without a word: written in a loop here instead,
    so a reader that goes away is seen. (UTF-8 only, where no newline is translated.)"""
    if not text:
        return
    raw = getattr(sys.stdout, "buffer", None)
    if (not isinstance(raw, io.FileIO) or os.linesep != "\n"
            or codecs.lookup(sys.stdout.encoding or "ascii").name != "utf-8"):
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    view = memoryview(text.encode("utf-8", sys.stdout.errors or "strict"))
    while view:
        n = raw.write(view)
        if n is None:  # a non-blocking stdout, full for now
            select.select([], [raw], [])
            continue
        view = view[n:]
