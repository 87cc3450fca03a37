"""Whole-file reading and writing for the common case: one 4x4 or 9x9 puzzle per line.

A file of a million such lines is read and written with array operations, not a Python loop
per symbol; anything else (rulings, other sizes, alphabets that depend on the line, a bad
symbol) goes to the general readers in :mod:`.formats`, which word the errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from csolve.puzzle import TextLines

from .formats import Alphabet, _alphabet, _lookup
from .grid import VALUE

#: sizes whose symbols (digits) do not depend on what a line holds
SIMPLE_SIZES = {16: 4, 81: 9}


def read_lines(text: str) -> tuple[Sequence[int], np.ndarray, dict] | None:
    """(line numbers, grids of values with 0 blank, meta) when every content line of
    ``text`` is a puzzle of one simple size in plain symbols; None otherwise."""
    bare = _bare_lines(text)
    if bare is not None:
        first, data, start, width = bare
        found = _values(data, start, width, width + 1)
        if found is not None:
            return range(first, first + len(found[0])), *found
    stripped = [raw.strip() for raw in text.splitlines()]
    numbers = [i for i, line in enumerate(stripped, 1) if line and line[0] != "#"]
    if not numbers:
        return None
    lines = [stripped[i - 1] for i in numbers]
    widths = set(map(len, lines))
    if len(widths) != 1:
        return None
    (width,) = widths
    if width not in SIMPLE_SIZES:
        return None
    try:
        data = "".join(lines).encode("ascii")
    except UnicodeEncodeError:
        return None
    found = _values(data, 0, width, width)
    return None if found is None else (numbers, *found)


def _bare_lines(text: str) -> tuple[int, bytes, int, int] | None:
    """(the first puzzle's line number, the text as bytes, where that puzzle starts, the
    width) when the lines after the leading comments are each one simple width with nothing
    else (no blank line, comment or ``\\r``), so that they are read without a step per line;
    None otherwise."""
    start = skipped = 0
    while text.startswith("#", start):  # a header
        start = text.find("\n", start) + 1
        skipped += 1
        if not start:
            return None
    width = text.find("\n", start) - start
    if width not in SIMPLE_SIZES:
        return None
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    if (len(data) - start) % (width + 1):
        return None
    ends = np.frombuffer(data, np.uint8)[start + width::width + 1]
    return (skipped + 1, data, start, width) if (ends == ord("\n")).all() else None


def _values(data: bytes, start: int, width: int, stride: int) -> tuple[np.ndarray, dict] | None:
    """The values (0 blank) of the puzzle lines in ``data``, ``width`` symbols each, one every
    ``stride`` bytes from ``start``, and their meta; None when a byte is not a symbol."""
    n = SIMPLE_SIZES[width]
    alpha = _alphabet(n, data[start:start + width].decode("ascii"))
    codes = np.frombuffer(data.translate(_value_bytes(alpha)), VALUE)[start:]
    rows = codes.reshape(-1, stride)[:, :width]  # each row contiguous, the newlines between
    if rows.min() < 0 or rows.max() > n:
        return None
    return rows, {"n": n, "format": "line", "alphabet": alpha}


@cache
def _value_bytes(alpha: Alphabet) -> bytes:
    """:func:`_lookup` as a ``bytes.translate`` table: each symbol's value as a byte, -1
    (255) for a byte that is no symbol."""
    return _lookup(alpha).astype(VALUE).tobytes()


def as_rows(grids: Sequence[np.ndarray]) -> np.ndarray:
    """Grids as one array, one per row (no copy when they already are one)."""
    return grids if isinstance(grids, np.ndarray) else np.stack(grids)


def write_lines(grids: Sequence[np.ndarray], meta: dict) -> TextLines | None:
    """The grids (values 0..n, 0 blank) as lines in ``meta``'s alphabet, one text; None when
    the alphabet cannot be written this way."""
    alpha = meta.get("alphabet")
    if alpha is None or not len(grids):
        return None
    values = as_rows(grids)
    count, width = values.shape
    text = np.empty((count, width + 1), np.uint8)
    text[:, :width] = values
    text[:, width] = _NEWLINE
    return TextLines(text.tobytes().translate(_symbol_bytes(alpha)).decode("ascii"), width)


#: the byte that stands for the end of a line before the symbols are written (no value)
_NEWLINE = 255


@cache
def _symbol_bytes(alpha: Alphabet) -> bytes:
    """A ``bytes.translate`` table from values (0: a blank) to ``alpha``'s symbols, and
    from :data:`_NEWLINE` to a newline."""
    table = bytearray(256)
    for v, symbol in enumerate(alpha.blanks[0] + alpha.symbols):
        table[v] = ord(symbol)
    table[_NEWLINE] = ord("\n")
    return bytes(table)


def json_grids(grids: Sequence[np.ndarray], n: int) -> list[str] | None:
    """The grids (values 1..n, n <= 9) as JSON text of nested lists, as ``json.dumps``
    writes them (``[[1, 2], [3, 4]]``); None for larger sizes."""
    if n > 9 or not len(grids):
        return None
    template, digits = _json_template(n)
    text = np.tile(template, (len(grids), 1))
    text[:, digits] = as_rows(grids) + ord("0")
    flat = text.tobytes().decode("ascii")
    width = len(template)
    return [flat[i: i + width] for i in range(0, len(flat), width)]


@cache
def _json_template(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The JSON text of an n×n grid of zeros as bytes, and where each cell's digit is."""
    row = "[" + ", ".join(["0"] * n) + "]"
    text = "[" + ", ".join([row] * n) + "]"
    template = np.frombuffer(text.encode("ascii"), np.uint8).copy()
    return template, np.flatnonzero(template == ord("0"))
