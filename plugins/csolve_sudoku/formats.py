"""Reading and writing Sudoku text, with the format and alphabet detected per file.

Formats:
- ``line``: one puzzle per line, n² symbols. 9x9: ``1-9``, blank ``.`` or ``0``. 16x16: hex
  ``0-9a-f`` (``0`` is a value, ``.`` blank) or ``1-9A-G`` (``.``/``0`` blank).
  25x25: letters ``A-Y`` or ``1-9A-P``. Up to 35x35 with ``1-9A-Z``.
- ``numbers``: whitespace-separated integers, ``0`` blank: n² on one line (one puzzle per
  line), or an n-line grid (puzzles separated by blank lines). Any size.
- ``grid``: n lines of n symbols (``.`` blank), spaces and ``|``/``-``/``+`` rulings ignored;
  puzzles separated by blank lines.
Lines starting with ``#`` are comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

import numpy as np

from csolve.errors import PuzzleInputError

from .grid import SIZES

FORMATS = ("line", "numbers", "grid")
DIGITS_FIRST = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HEX = "0123456789ABCDEF"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
RULINGS = str.maketrans("", "", " \t|+-")


@dataclass(frozen=True)
class Alphabet:
    """How values are written: ``symbols[v - 1]`` is value v; ``blanks`` mean empty."""

    name: str
    symbols: str
    blanks: str

    def value(self, ch: str) -> int | None:
        if ch in self.blanks:
            return 0
        i = self.symbols.find(ch.upper())
        return i + 1 if i >= 0 else None

    def symbol(self, v: int) -> str:
        return self.blanks[0] if v == 0 else self.symbols[v - 1]


def _alphabet(n: int, sample: str) -> Alphabet:
    s = sample.upper()
    if n == 16 and "G" not in s and "." in s and "0" in s:
        return Alphabet("hex", HEX, ".")  # hexadecimal: 0-f values, '.' blank
    if n == 25 and not any(ch in s for ch in "123456789"):
        return Alphabet("letters", LETTERS, ".0")
    if n > len(DIGITS_FIRST):
        raise ValueError(n)
    return Alphabet("digits", DIGITS_FIRST[:n], ".0")


_LOOKUPS: dict[Alphabet, np.ndarray] = {}


def _lookup(alpha: Alphabet) -> np.ndarray:
    """A byte -> value table for ``alpha`` (-1: not a symbol of it)."""
    table = _LOOKUPS.get(alpha)
    if table is None:
        table = np.full(256, -1, dtype=np.int16)
        for ch in alpha.blanks:
            table[ord(ch)] = 0
        for v, ch in enumerate(alpha.symbols, 1):
            table[ord(ch)] = v
            table[ord(ch.lower())] = v
        _LOOKUPS[alpha] = table
    return table


def _size_of_cells(count: int) -> int | None:
    n = isqrt(count)
    return n if n * n == count and n in SIZES else None


def detect(lines: list[tuple[int, str]]) -> str:
    """The format of a file from its first non-comment lines.

    A line of n² symbols is the ``line`` format, except that 16 symbols may also be the first
    row of a 16x16 ``grid``: that reading wins when 16 such lines follow one another.
    """
    _, first = lines[0]
    tokens = first.split()
    if len(tokens) > 1 and all(t.isdigit() for t in tokens):
        return "numbers"
    s = first.translate(RULINGS)
    n = _size_of_cells(len(s))
    if n is None:
        return "grid" if len(s) in SIZES else "line"  # a grid's row, or a line of bad length
    if len(s) == 16:
        run = 0
        prev = lines[0][0] - 1
        for no, line in lines:
            if no != prev + 1 or len(line.translate(RULINGS)) != 16:
                break
            run += 1
            prev = no
        if run >= 16 and not all(ch in "1234.0" for _, ln in lines[:16] for ch in ln):
            return "grid"
    return "line"


def content_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of lines that are neither blank nor comments."""
    out = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append((i, line))
    return out


def blocks(text: str) -> list[list[tuple[int, str]]]:
    """Runs of content lines separated by blank lines."""
    out: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                out.append(cur)
                cur = []
            continue
        cur.append((i, line))
    if cur:
        out.append(cur)
    return out


def parse(text: str, source: str, fmt: str | None = None) -> list[tuple[int, np.ndarray, dict]]:
    """Every puzzle in ``text`` as (line, grid of ints with 0 blank, meta)."""
    lines = content_lines(text)
    if not lines:
        raise PuzzleInputError(source, None, None, "no puzzle found (the input is empty)")
    fmt = fmt or detect(lines)
    if fmt == "line":
        return [_parse_line(source, no, line) for no, line in lines]
    if fmt == "numbers":
        return _parse_numbers(source, text)
    if fmt == "grid":
        return [_parse_grid(source, block) for block in blocks(text)]
    raise PuzzleInputError(source, None, None,
                           f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def _parse_line(source: str, no: int, line: str) -> tuple[int, np.ndarray, dict]:
    s = line.translate(RULINGS)
    n = _size_of_cells(len(s))
    if n is None:
        raise PuzzleInputError(source, no, None,
                               f"a line holds {len(s)} symbols; a puzzle needs n² of them "
                               f"for n in {', '.join(map(str, SIZES[:4]))}, ...")
    if n > len(DIGITS_FIRST):
        raise PuzzleInputError(source, no, None,
                               f"{n}x{n} puzzles need the 'numbers' format")
    alpha = _alphabet(n, s)
    if len(s) == len(line):  # no rulings: translate every symbol at once
        codes = _lookup(alpha)[np.frombuffer(line.encode("latin-1", "replace"), np.uint8)]
        if (codes >= 0).all() and (codes <= n).all():
            return no, codes.astype(np.int64), {"n": n, "format": "line", "alphabet": alpha}
    grid = np.zeros(n * n, dtype=np.int64)
    cell = 0
    for col, ch in enumerate(line, 1):
        if ch in " \t|+-":
            continue
        v = alpha.value(ch)
        if v is None or v > n:
            raise PuzzleInputError(source, no, col,
                                   f"unknown symbol {ch!r} for a {n}x{n} puzzle "
                                   f"({alpha.name} alphabet {alpha.symbols}, blank "
                                   f"{' or '.join(repr(b) for b in alpha.blanks)})")
        grid[cell] = v
        cell += 1
    return no, grid, {"n": n, "format": "line", "alphabet": alpha}


def _parse_numbers(source: str, text: str) -> list[tuple[int, np.ndarray, dict]]:
    out = []
    for block in blocks(text):
        first_tokens = block[0][1].split()
        n_line = _size_of_cells(len(first_tokens))
        biggest = max((int(t) for _, ln in block for t in ln.split() if t.isdigit()), default=0)
        if n_line is not None and biggest <= n_line:
            groups = [[entry] for entry in block]  # one puzzle per line
        else:
            groups = [block]
        for group in groups:
            values: list[tuple[int, int, int]] = []  # (value, line, column)
            for no, line in group:
                col = 1
                for tok in line.split():
                    col = line.index(tok, col - 1) + 1
                    if not tok.isdigit():
                        raise PuzzleInputError(source, no, col,
                                               f"expected a number, found {tok!r}")
                    values.append((int(tok), no, col))
                    col += len(tok)
            n = _size_of_cells(len(values))
            if n is None:
                raise PuzzleInputError(source, group[0][0], None,
                                       f"found {len(values)} numbers; a puzzle needs n² of "
                                       "them with n a square (16, 81, 256, 625, ...)")
            for v, no, col in values:
                if v > n:
                    raise PuzzleInputError(source, no, col,
                                           f"value {v} is out of range 0..{n}")
            grid = np.array([v for v, _, _ in values], dtype=np.int64)
            out.append((group[0][0], grid, {"n": n, "format": "numbers", "alphabet": None}))
    return out


def _parse_grid(source: str, block: list[tuple[int, str]]) -> tuple[int, np.ndarray, dict]:
    rows = [(no, line) for no, line in block if line.translate(RULINGS)]
    n = len(rows)
    if n not in SIZES:
        raise PuzzleInputError(source, block[0][0], None,
                               f"a grid of {n} rows; a puzzle needs n rows, n in 4, 9, 16, 25, ...")
    if n > len(DIGITS_FIRST):
        raise PuzzleInputError(source, block[0][0], None,
                               f"{n}x{n} puzzles need the 'numbers' format")
    alpha = _alphabet(n, "".join(line for _, line in rows))
    grid = np.zeros(n * n, dtype=np.int64)
    for r, (no, line) in enumerate(rows):
        symbols = [(col, ch) for col, ch in enumerate(line, 1) if ch not in " \t|+-"]
        if len(symbols) != n:
            raise PuzzleInputError(source, no, None,
                                   f"row {r + 1} holds {len(symbols)} symbols, expected {n}")
        for c, (col, ch) in enumerate(symbols):
            v = alpha.value(ch)
            if v is None or v > n:
                raise PuzzleInputError(source, no, col,
                                       f"unknown symbol {ch!r} for a {n}x{n} puzzle")
            grid[r * n + c] = v
    return rows[0][0], grid, {"n": n, "format": "grid", "alphabet": alpha}


def format_line(grid: np.ndarray, meta: dict) -> str:
    """One line in the puzzle's own format."""
    alpha: Alphabet | None = meta.get("alphabet")
    if alpha is None:
        return " ".join(str(int(v)) for v in grid)
    return "".join(alpha.symbol(int(v)) for v in grid)


def default_alphabet(n: int) -> Alphabet | None:
    """How to write a puzzle csolve made so that it reads back the same (None: numbers).

    16x16 uses ``1-9A-G`` with ``0`` for blank: with ``.`` a puzzle without a ``G`` clue
    would be read as hex.
    """
    if n > len(DIGITS_FIRST):
        return None
    if n == 16:
        return Alphabet("digits", DIGITS_FIRST[:16], "0.")
    return Alphabet("digits", DIGITS_FIRST[:n], ".0")
