"""Reading grids written as rows of whitespace-separated tokens, for grid puzzle plugins.

Kakuro and Str8ts (and any plugin whose cells are tokens such as ``16,`` or ``5x``) describe a
grid as row strings, in a text block or in the ``grid`` field of a JSON-lines record. A
plugin's ``build(rows of tokens)`` raises :class:`GridError` at a (row, column); these helpers
turn that into a one-line :class:`~csolve.errors.PuzzleInputError` naming file and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from csolve.errors import PuzzleInputError
from csolve.inputs import json_text, load_json

G = TypeVar("G")
C = TypeVar("C")  # a cell, however a grid names it


class GridError(ValueError):
    """A problem at a (row, column) of a grid (0-based; column None for a whole row).
    ``whole``: a problem of the whole grid (its size), shown at ``row`` in a text file and
    without a row in a JSON record."""

    def __init__(self, row: int, col: int | None, message: str, whole: bool = False) -> None:
        super().__init__(message)
        self.row, self.col, self.message, self.whole = row, col, message, whole


def tokens_with_columns(text: str) -> list[tuple[str, int]]:
    """The whitespace-separated tokens of a row and their 1-based columns (for error messages)."""
    return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]


def read_json_grid(source: str, line_no: int, text: str,
                   build: Callable[[list[list[str]]], G]) -> tuple[G, dict[str, Any]]:
    """The grid of one JSON-lines record (its ``grid``: a list of row strings) and the record."""
    obj = load_json(text, source, line_no)
    if not isinstance(obj, dict) or "grid" not in obj:
        raise PuzzleInputError(source, line_no, None,
                               "JSON puzzle needs a 'grid' field: a list of row strings")
    grid = obj["grid"]
    if not isinstance(grid, list) or not grid or not all(isinstance(r, str) for r in grid):
        raise PuzzleInputError(source, line_no, None, "'grid' holds no rows" if grid == [] else
                               f"'grid' is {json_text(grid)}, not a list of row strings")
    try:
        return build([r.split() for r in grid]), obj
    except GridError as e:
        if e.whole:
            raise PuzzleInputError(source, line_no, None, e.message) from None
        where = f"grid row {e.row + 1}" + (f", cell {e.col + 1}" if e.col is not None else "")
        raise PuzzleInputError(source, line_no, None, f"{where}: {e.message}") from None


def check_json_size(source: str, line_no: int, obj: dict[str, Any], key: str,
                    size: int) -> None:
    """A record's size field (``key``), where it has one, must be the whole number its
    grid has."""
    if key not in obj:
        return
    value = obj[key]
    whole = (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer())  # 10.0, as some writers put it
    if not whole:
        raise PuzzleInputError(source, line_no, None, f"'{key}' is {json_text(value)}, not a "
                               f"whole number (the grid has {size})")
    if value != size:
        raise PuzzleInputError(source, line_no, None,
                               f"'{key}' is {value} but the grid has {size}")


def in_format(found: list[tuple[int, G, dict]], fmt: str | None, source: str
              ) -> list[tuple[int, G, dict]]:
    """``found`` (first line, grid, meta with its ``format``) when every puzzle is in ``fmt``
    (``--format``); a puzzle in another format is a one-line error at its line."""
    if fmt is None:
        return found
    for line, _grid, meta in found:
        if meta["format"] != fmt:
            raise PuzzleInputError(source, line, None,
                                   f"a {meta['format']} puzzle where the format asked for is "
                                   f"{fmt}")
    return found


def row_line(puzzle: Any, row: int) -> int:
    """The file line of a grid puzzle's row ``row`` (0-based), where its reader recorded
    one line per row (``meta["row_lines"]``); else the puzzle's first line."""
    rows = puzzle.meta.get("row_lines")
    return rows[row] if rows and 0 <= row < len(rows) else puzzle.line


def first_repeat(placed: Iterable[tuple[int, C]]) -> tuple[int, C, C] | None:
    """The first value of ``placed`` ((value, cell) pairs, in order) that comes twice: the
    value, its first cell and the later one; None when every value comes once. What a
    plugin's check reports of a group (a cage, a run) that must hold distinct values."""
    first: dict[int, C] = {}
    for value, cell in placed:
        if value in first:
            return value, first[value], cell
        first[value] = cell
    return None
