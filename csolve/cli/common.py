"""What the commands share: reading puzzle files, choosing the output style."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from csolve.errors import PuzzleInputError


class Output(StrEnum):
    pretty = "pretty"  # rich grids (a terminal's default)
    line = "line"  # one line per puzzle in its input format (a pipe's default)
    json = "json"  # one JSON object per puzzle per line
    grid = "grid"  # plain-text grids that csolve reads back
    svg = "svg"  # one SVG picture of every puzzle


# Arguments and options several commands share, declared once.
PuzzleArg = Annotated[str, typer.Argument(help="Puzzle type, e.g. sudoku (see list-plugins).")]
FileArg = Annotated[str, typer.Argument(
    help="Puzzle file; '-' reads stdin; or the puzzle itself, e.g. one 81-symbol line.")]
FormatOpt = Annotated[str | None, typer.Option("--format", help=(
    "Input format (default: detected): sudoku line, numbers, grid or sdk; kakuro and str8ts "
    "text or json (docs/formats.md)."))]


def default_output() -> Output:
    return Output.pretty if sys.stdout.isatty() else Output.line


def load_puzzles(kind: str, path: str, fmt: str | None):
    """The puzzle type and every puzzle in ``path``: a file, ``-`` for standard input, or
    puzzle text given as the argument itself."""
    import os

    from csolve.api import check_format, parse_text, puzzle_type
    from csolve.io import read_file

    ptype = puzzle_type(kind)
    check_format(ptype, fmt)
    if path == "-" or os.path.exists(path):
        text, name = read_file(path)
        puzzles = parse_text(ptype, text, name, fmt)
    else:
        try:
            puzzles = parse_text(ptype, path, "<argument>", fmt)
        except PuzzleInputError:
            shown = path if len(path) <= 80 else path[:77] + "..."
            raise PuzzleInputError(shown, None, None,
                                   "no such file (nor a puzzle csolve can read)") from None
    if not puzzles:
        raise PuzzleInputError(path, None, None, "no puzzle found")
    return ptype, puzzles
