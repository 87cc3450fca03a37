"""Reading and writing Sudoku text, with the format and alphabet detected per file.

Formats (docs/formats.md has examples of each):
- ``line``: one puzzle per line, n² symbols. 9x9: ``1-9``, blank ``.`` or ``0``. 16x16: hex
  ``0-9a-f`` (``0`` is a value, ``.`` blank) or ``1-9A-G`` (``.``/``0`` blank). 25x25:
  letters ``A-Y`` or ``1-9A-P``. Up to 35x35 with ``1-9A-Z``. Other fields may follow the
  puzzle on its line (a rating, a comment, tab-separated columns): they are kept as
  ``meta["comment"]``.
- ``numbers``: whitespace-separated integers, ``0`` blank: n² on one line (one puzzle per
  line), or an n-line grid (puzzles separated by blank lines). Any size.
- ``grid``: n rows of n symbols (``.`` or ``0`` blank), or of n whitespace-separated numbers
  (``.`` blank; what csolve writes for 25x25 and larger). Spaces, rulings (``|``, ``-``,
  ``+``, ``*``, ``=``) and box-drawing characters are ignored, so Simple Sudoku / HoDoKu
  frames (``*-----------*``) and csolve's own pretty output read back. Puzzles follow one
  another or are separated by blank lines.
- ``sdk``: SudoCue / SadMan files: ``#A`` author, ``#D`` description, ``#C`` comment, ``#B``
  date, ``#S`` source, ``#L`` level, ``#U`` URL lines (kept in ``meta``), then the grid; in
  SadMan's sections only ``[Puzzle]`` is read.
Lines starting with ``#`` are comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import isqrt

import numpy as np

from csolve.errors import PuzzleInputError, counted
from csolve.inputs import is_number, is_signed_number, no_puzzle_found, number_value

from .grid import SIZES, VALUE, Box, check_box

FORMATS = ("line", "numbers", "grid", "sdk")
DIGITS_FIRST = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HEX = "0123456789ABCDEF"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
RULINGS = str.maketrans("", "", " \t|+-")
#: characters a grid row may hold besides its symbols: spaces, rulings, frames, box drawing
IGNORED = frozenset(" \t|+-*=") | frozenset(chr(c) for c in range(0x2500, 0x2580))
_BOX = re.compile("[\u2500-\u257f]")
_RULING_LINE = re.compile("^[-=+*|:'\\s\u2500-\u257f]*[-=\u2500\u2501][-=+*|:'\\s\u2500-\u257f]*$")
_SECTION = re.compile(r"^\s*\[([A-Za-z]+)\]\s*$")
#: SudoCue's metadata lines: ``#`` and one capital letter, then the value
SDK_FIELDS = {"A": "author", "D": "description", "C": "comment", "B": "date",
              "S": "source", "L": "level", "U": "url"}
_SDK_META = re.compile(r"^#([ADCBSLU])(\S.*)$")
_FIELD = re.compile(r"[^\s;#]+")


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
    if n == 16 and "G" not in s and (("." in s and "0" in s) or (
            len(s) == 256 and all(s.count(ch) == 16 for ch in HEX))):
        # hexadecimal: 0-f values, '.' blank; or a whole grid of them, each sixteen times
        # (a hex puzzle's solution, as csolve writes it back)
        return Alphabet("hex", HEX, ".")
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


def is_ruling(line: str) -> bool:
    """A frame or ruling line of a drawn grid (``*-----*``, ``|---+---|``, ``┣━━━╋``)."""
    return bool(_RULING_LINE.match(line))


def puzzle_field(line: str) -> tuple[int, str, str]:
    """(offset, text, rest) of the puzzle on a ``line``-format line: the whole line, or the
    first field of n² symbols when other fields (a rating, a comment) follow it. A tab
    ends the puzzle's field: in tab-separated columns the first is the puzzle, even where
    the whole line happens to count n² symbols too."""
    head, tab, rest = line.partition("\t")
    if tab and _size_of_cells(len(head.translate(RULINGS))) is not None:
        return 0, head, rest.strip()
    if _size_of_cells(len(line.translate(RULINGS))) is not None:
        return 0, line, ""
    for m in _FIELD.finditer(line):
        if _size_of_cells(len(m.group().translate(RULINGS))) is not None:
            rest = (line[:m.start()] + " " + line[m.end():]).strip()
            return m.start(), m.group(), rest
    return 0, line, ""


def _number_tokens(line: str) -> list[tuple[int, str]] | None:
    """(column, token) of a row of whitespace-separated numbers (``.`` blank) between
    rulings, or None when the row is something else."""
    cleaned = "".join(" " if ch in IGNORED and ch != "-" else ch for ch in line)
    toks = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", cleaned)
            if m.group().strip("-")]  # a lone '-' is a ruling; '-3' is no number here
    if toks and all(tok == "." or is_number(tok) for _, tok in toks):
        return toks
    return None


def detect(lines: list[tuple[int, str]], text: str = "") -> str:
    """The format of a file from its first non-comment lines.

    A line of n² symbols is the ``line`` format, except that 16 symbols may also be the first
    row of a 16x16 ``grid``: that reading wins when 16 such lines follow one another.
    """
    if any(_BOX.search(line) for _, line in lines[:200]):
        return "grid"  # csolve's pretty output
    if any(_SECTION.match(raw) for raw in text.splitlines()[:50]):
        return "sdk"
    fmt = _detect_plain(lines)
    if fmt == "grid" and any(_SDK_META.match(raw) for raw in text.splitlines()[:50]):
        return "sdk"
    return fmt


def _detect_plain(lines: list[tuple[int, str]]) -> str:
    rows = [(no, line) for no, line in lines if not is_ruling(line)]
    if not rows or is_ruling(lines[0][1]):
        return "grid"  # a frame first: a drawn grid
    first = rows[0][1]
    tokens = first.split()
    if len(tokens) > 1 and all(is_signed_number(t) for t in tokens) and not (  # '-1': refused
            len(tokens) < 4 and _size_of_cells(len(tokens[0]))):  # not "<81 digits> <rating>"
        return "numbers"
    toks = _number_tokens(first)
    if toks and len(toks) in SIZES and any(len(tok) > 1 for _, tok in toks):
        return "grid"  # a row of numbers with '.' blanks (csolve's grid for 25x25 and up)
    _, field, _ = puzzle_field(first)
    s = field.translate(RULINGS)
    n = _size_of_cells(len(s))
    if n is None:
        return "grid" if len(first.translate(RULINGS)) in SIZES else "line"
    if len(s) == 16:
        run = 0
        prev = rows[0][0] - 1
        ruled = {no for no, line in lines if is_ruling(line)}
        for no, line in rows:
            if any(k not in ruled for k in range(prev + 1, no)) or \
                    len(line.translate(RULINGS)) != 16:
                break
            run += 1
            prev = no
        if run >= 16 and not all(ch in "1234.0" for _, ln in rows[:16] for ch in ln):
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
        raise no_puzzle_found(source, text)
    fmt = fmt or detect(lines, text)
    if fmt == "line":
        return [_parse_line(source, no, line) for no, line in lines]
    if fmt == "numbers":
        return _parse_numbers(source, text)
    if fmt == "grid":
        return _parse_grid_text(source, text)
    if fmt == "sdk":
        return _parse_sdk(source, text)
    raise PuzzleInputError(source, None, None,
                           f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def _parse_line(source: str, no: int, line: str) -> tuple[int, np.ndarray, dict]:
    offset, field, rest = puzzle_field(line)
    s = field.translate(RULINGS)
    n = _size_of_cells(len(s))
    if n is None:
        raise PuzzleInputError(source, no, None,
                               f"a line holds {counted(len(s), 'symbol')}; a puzzle needs n² "
                               f"of them for n in {', '.join(map(str, SIZES[:4]))}, ...")
    if n > len(DIGITS_FIRST):
        raise PuzzleInputError(source, no, None,
                               f"{n}x{n} puzzles need the 'numbers' format")
    alpha = _alphabet(n, s)
    meta = {"n": n, "format": "line", "alphabet": alpha}
    if rest:
        meta["comment"] = rest
    if len(s) == len(field) and field.isascii():  # no rulings: translate every symbol at once
        codes = _lookup(alpha)[np.frombuffer(field.encode("ascii"), np.uint8)]
        if (codes >= 0).all() and (codes <= n).all():
            return no, codes.astype(VALUE), meta
    grid = np.zeros(n * n, dtype=VALUE)
    cell = 0
    for col, ch in enumerate(field, offset + 1):
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
    return no, grid, meta


#: the sizes a puzzle may have, as the readers' messages name them
_SIZES_IN_WORDS = f"n in {', '.join(map(str, SIZES[:4]))}, ... {SIZES[-1]}"


def _parse_numbers(source: str, text: str) -> list[tuple[int, np.ndarray, dict]]:
    out = []
    for block in blocks(text):
        first_tokens = block[0][1].split()
        n_line = _size_of_cells(len(first_tokens))
        biggest = max((number_value(t) for _, ln in block for t in ln.split() if is_number(t)),
                      default=0)
        width = len(first_tokens)
        square = len(block) == width and all(len(ln.split()) == width for _, ln in block)
        if n_line is not None and biggest <= n_line and not (square and width in SIZES):
            # one puzzle per line; n lines of n numbers read as one n x n grid instead
            groups = [[entry] for entry in block]
        else:
            groups = [block]
        for group in groups:
            values: list[tuple[int, int, int, str]] = []  # (value, line, column, token)
            for no, line in group:
                col = 1
                for tok in line.split():
                    col = line.index(tok, col - 1) + 1
                    if not is_number(tok):
                        raise PuzzleInputError(source, no, col, (
                            f"negative number {tok}: values are 0 (blank) to n"
                            if tok.startswith("-") and is_signed_number(tok)
                            else f"expected a number (digits 0-9), found {tok!r}"))
                    values.append((number_value(tok), no, col, tok))
                    col += len(tok)
            n = _size_of_cells(len(values))
            if n is None:
                raise PuzzleInputError(source, group[0][0], None,
                                       f"found {counted(len(values), 'number')}; a puzzle needs "
                                       f"n² of them for {_SIZES_IN_WORDS}")
            for v, no, col, tok in values:
                if v > n:
                    raise PuzzleInputError(source, no, col,
                                           f"value {tok} is out of range 0..{n}")
            grid = np.array([v for v, _, _, _ in values], dtype=VALUE)
            meta = {"n": n, "format": "numbers", "alphabet": None}
            if len(group) == n and all(len(line.split()) == n for _, line in group):
                meta["row_lines"] = tuple(no for no, _ in group)  # a row a line
            out.append((group[0][0], grid, meta))
    return out


def _grid_rows(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The rows of a block of a drawn grid: rulings and frames dropped; in csolve's pretty
    output (box drawing), the lines between the grids (headers, timings) too."""
    if any(_BOX.search(line) for _, line in block):
        block = [(no, line) for no, line in block if _BOX.search(line)]
    return [(no, line) for no, line in block
            if not is_ruling(line) and any(ch not in IGNORED for ch in line)]


def _parse_grid_text(source: str, text: str, fmt: str = "grid"
                     ) -> list[tuple[int, np.ndarray, dict]]:
    out = []
    for block in blocks(text):
        out += _parse_grid_block(source, _grid_rows(block), fmt)
    return out


def _symbol_count(line: str) -> int:
    """The symbols a grid row holds: its characters less spaces and drawn lines."""
    return sum(ch not in IGNORED for ch in line)


def _say_cut_short(source: str, chunk: list[tuple[int, str]], n: int) -> None:
    """A first row alone, or followed by longer rows (a file of one-line puzzles): a
    one-line puzzle cut short, more likely than the first row of an n x n grid. Raised
    at that row, with the lengths a one-line puzzle has."""
    line_no, line = chunk[0]
    if len(chunk) == 1 and any(k * k == n for k in SIZES):  # the line format, read as a grid
        raise PuzzleInputError(source, line_no, None,
                               f"a line of {counted(n, 'symbol')} is a one-line "
                               f"{isqrt(n)}x{isqrt(n)} puzzle, not a grid's row: its "
                               "format is 'line'")
    longer = any(_symbol_count(line) > n for _, line in chunk[1:])
    squares = [k * k for k in SIZES if k * k > n]
    if not squares or (len(chunk) > 1 and not longer):
        return
    shown = sorted({squares[0], 81} if n < 81 else {squares[0]})
    sizes = ", ".join(f"{s} for {isqrt(s)}x{isqrt(s)}" for s in shown)
    raise PuzzleInputError(source, line_no, len(line) + 1,
                           f"a line of {counted(n, 'symbol')}: a one-line puzzle has n² "
                           f"({sizes}), a grid n rows of n; is the line cut short?")


def _parse_grid_block(source: str, rows: list[tuple[int, str]], fmt: str
                      ) -> list[tuple[int, np.ndarray, dict]]:
    """The puzzles in one block of rows, one after another: each takes as many rows as its
    first row has symbols."""
    out = []
    i = 0
    while i < len(rows):
        first = rows[i][1]
        toks = _number_tokens(first)
        n = _symbol_count(first)
        if toks and len(toks) in SIZES and (len(toks) > len(DIGITS_FIRST)
                                            or any(len(tok) > 1 for _, tok in toks)):
            n = len(toks)
        elif n not in SIZES:
            n = len(rows) - i  # the row is bad: the block's rows say the size, if anything
        if n not in SIZES:
            raise PuzzleInputError(source, rows[i][0], None,
                                   f"a grid of {counted(len(rows) - i, 'row')}; a puzzle needs n "
                                   f"rows, {_SIZES_IN_WORDS}")
        chunk = rows[i:i + n]
        if len(chunk) < n:
            _say_cut_short(source, chunk, n)
            raise PuzzleInputError(source, chunk[-1][0], len(chunk[-1][1]) + 1,
                                   f"the grid ends after {counted(len(chunk), 'row')}; a {n}x{n} "
                                   f"puzzle needs {n}")
        tokens = [_number_tokens(line) for _, line in chunk]
        numeric = all(t is not None and len(t) == n for t in tokens) and (
            n > len(DIGITS_FIRST) or any(len(tok) > 1 for t in tokens for _, tok in t))
        if numeric:
            symbols = tokens
        else:
            symbols = [[(col, ch) for col, ch in enumerate(line, 1) if ch not in IGNORED]
                       for _, line in chunk]
            if n > len(DIGITS_FIRST):
                raise PuzzleInputError(source, chunk[0][0], None,
                                       f"{n}x{n} puzzles need numbers separated by spaces")
        out.append(_grid_puzzle(source, chunk, symbols, n, numeric, fmt))
        i += n
    return out


def _grid_puzzle(source: str, rows: list[tuple[int, str]], symbols: list[list[tuple[int, str]]],
                 n: int, numeric: bool, fmt: str) -> tuple[int, np.ndarray, dict]:
    alpha = None if numeric else _alphabet(n, "".join(ch for row in symbols for _, ch in row))
    grid = np.zeros(n * n, dtype=VALUE)
    for r, ((no, line), row) in enumerate(zip(rows, symbols, strict=True)):
        if len(row) != n:
            col = row[n][0] if len(row) > n else len(line) + 1
            raise PuzzleInputError(source, no, col,
                                   f"row {r + 1} holds {counted(len(row), 'symbol')}, expected {n}")
        for c, (col, sym) in enumerate(row):
            if alpha is None:
                v = 0 if sym == "." else number_value(sym)
                if v > n:
                    raise PuzzleInputError(source, no, col,
                                           f"value {sym} is out of range 0..{n}")
            else:
                v = alpha.value(sym)
                if v is None or v > n:
                    raise PuzzleInputError(source, no, col,
                                           f"unknown symbol {sym!r} for a {n}x{n} puzzle")
            grid[r * n + c] = v
    meta = {"n": n, "format": fmt, "alphabet": alpha,
            "row_lines": tuple(no for no, _ in rows)}  # where a conflicting given is
    drawn = drawn_box(rows[0][1], n, numeric)
    if drawn is not None:
        meta["box"] = drawn
    return rows[0][0], grid, meta


#: what separates the boxes of a row in a drawn grid (csolve's grids, its pretty output)
_BAR = re.compile("[|\u2502\u2503\u250a\u250b\u2506\u2507]")


def drawn_box(line: str, n: int, numeric: bool) -> Box | None:
    """The box shape a drawn row shows by its bars (``. . | 1 2 | . .``: boxes 2 cells
    wide, so 3 rows high in a 6x6), or None when it shows none or none that fits: a grid
    written with boxes other than its size's default reads back with them."""
    parts = [p for p in _BAR.split(line.strip())]
    if len(parts) < 2:
        return None
    widths = [len(p.split()) if numeric else sum(ch not in IGNORED for ch in p) for p in parts]
    if widths and widths[0] == 0:  # a frame's bars at the ends
        widths = widths[1:]
    if widths and widths[-1] == 0:
        widths = widths[:-1]
    c = widths[0] if widths else 0
    if c == 0 or any(w != c for w in widths) or c * len(widths) != n or n % c:
        return None
    try:
        return check_box(n, (n // c, c))
    except ValueError:
        return None


def _parse_sdk(source: str, text: str) -> list[tuple[int, np.ndarray, dict]]:
    """SudoCue / SadMan files: metadata lines, and the grid (of the ``[Puzzle]`` section
    when the file has sections; ``[State]`` and the others are skipped)."""
    meta: dict[str, str] = {}
    kept: list[str] = []
    sectioned = any(_SECTION.match(raw) for raw in text.splitlines())
    section = None
    for raw in text.splitlines():
        m = _SDK_META.match(raw.strip())
        head = _SECTION.match(raw)
        if m:
            meta[SDK_FIELDS[m.group(1)]] = m.group(2).strip()
        if head:
            section = head.group(1).lower()
        keep = not head and not m and (not sectioned or section == "puzzle")
        kept.append(raw if keep else "")  # blank lines keep the line numbers
    out = _parse_grid_text(source, "\n".join(kept), "sdk")
    if not out:
        raise PuzzleInputError(source, None, None, "no puzzle found (no grid in the file)")
    for _, _, m in out:
        m.update(meta)
    return out


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


def own_symbols(meta: dict) -> str | None:
    """The symbols of values 1..n when the puzzle was written in hexadecimal or letters, so
    that its answer is written as it was given (a hex 16x16's in ``0-F``); None: the
    writer's own default."""
    alpha: Alphabet | None = meta.get("alphabet")
    return alpha.symbols if alpha is not None and alpha.name != "digits" else None


def format_grid(grid: np.ndarray, n: int, box: Box | None = None,
                symbols: str | None = None) -> str:
    """An n×n grid as rows of symbols, ``|`` between boxes and a ruling between bands (the
    ``grid`` format reads it back). Up to 16x16 one symbol per cell (``1-9A-G``), from 25x25
    on right-aligned numbers; ``.`` is a blank. ``box``: (rows, columns) of a box; default:
    the size's own shape (2x3 for 6x6). ``symbols``: one character per value instead
    (:func:`own_symbols`)."""
    box_rows, box_cols = check_box(n, box)
    width = 1 if n <= 16 or symbols else len(str(n))
    symbols = symbols or DIGITS_FIRST

    def sym(v: int) -> str:
        if v == 0:
            return ".".rjust(width)
        return symbols[v - 1] if width == 1 else str(v).rjust(width)

    rows = []
    for r in range(n):
        cells = [sym(int(grid[r * n + c])) for c in range(n)]
        rows.append(" | ".join(" ".join(cells[b:b + box_cols]) for b in range(0, n, box_cols)))
    ruling = "".join("+" if ch == "|" else "-" for ch in rows[0])
    out = []
    for r, row in enumerate(rows):
        if r and r % box_rows == 0:
            out.append(ruling)
        out.append(row)
    return "\n".join(out)
