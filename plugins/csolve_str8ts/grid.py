"""Str8ts grids: the text and JSON-lines forms, compartments, and writing a line.

Text form (docs/str8ts.md): an n×n grid (n = 4..9), one row per line, either as
whitespace-separated tokens or as n characters. Cells: ``.``, ``0`` or ``-`` empty white,
``1``-``9`` white holding that digit, ``#`` or ``x`` black, and a black cell holding N as
the letter ``a``-``i`` (``A``-``I``; a = 1), or, in token rows, ``#N`` or ``Nx``. A line
of n² characters, or rows separated by ``/`` on one line, is a whole puzzle; otherwise
puzzles are separated by blank lines. Lines starting with ``;`` are comments. A line
starting with ``{`` is a JSON object with a ``grid`` field: row strings of tokens ``-``,
``N``, ``x``, ``Nx`` (the janko.at sets).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from csolve.errors import PuzzleInputError, counted
from csolve.inputs import is_number
from csolve.rowgrid import GridError, check_json_size, read_json_grid, tokens_with_columns

WHITE, BLACK = 0, 1
SIZES = range(4, 10)
LETTERS = "abcdefghi"


@dataclass
class Str8tsGrid:
    n: int
    kind: np.ndarray  # WHITE / BLACK per cell
    values: np.ndarray  # a white cell's given or a black cell's digit; 0 when none

    def cells(self) -> list[tuple[int, int]]:
        """The model's cells, row-major: white cells and black cells holding a digit."""
        return [(r, c) for r in range(self.n) for c in range(self.n)
                if self.kind[r, c] == WHITE or self.values[r, c]]

    def compartments(self) -> list[tuple[str, int, list[tuple[int, int]]]]:
        """(``row``/``column``, its index, cells) of every maximal run of white cells."""
        out = []
        for name, transpose in (("row", False), ("column", True)):
            for i in range(self.n):
                run: list[tuple[int, int]] = []
                for j in range(self.n + 1):
                    rc = (j, i) if transpose else (i, j)
                    if j < self.n and self.kind[rc] == WHITE:
                        run.append(rc)
                    elif run:
                        out.append((name, i, run))
                        run = []
        return out

    def structure(self) -> tuple:
        """Everything that shapes the model: puzzles with equal structure share it."""
        return (self.n, self.kind.tobytes(), (self.values * (self.kind == BLACK) > 0).tobytes())


def parse_token(tok: str, row: int, col: int, n: int) -> tuple[int, int]:
    """(kind, digit) of one cell."""
    t = tok.lower()
    if t in (".", "0", "-"):
        return WHITE, 0
    if t in ("#", "x"):
        return BLACK, 0
    digit, kind = None, WHITE
    if len(t) == 1 and is_number(t):
        digit = int(t)
    elif len(t) == 1 and t in LETTERS:
        digit, kind = LETTERS.index(t) + 1, BLACK
    elif len(t) == 2 and t[0] == "#" and is_number(t[1]):
        digit, kind = int(t[1]), BLACK
    elif len(t) == 2 and t[1] == "x" and is_number(t[0]):
        digit, kind = int(t[0]), BLACK
    if digit is None:
        raise GridError(row, col, f"bad cell '{tok}' (expected ., 1-9, #, x, #N, Nx or a-i)")
    if not 1 <= digit <= n:
        raise GridError(row, col, f"digit {digit} is outside 1..{n}")
    return kind, digit


def build(rows: list[list[str]]) -> Str8tsGrid:
    n = len(rows)
    if n == 1 and len(rows[0]) > max(SIZES):  # a one-line puzzle of the wrong length
        squares = ", ".join(str(k * k) for k in SIZES)
        raise GridError(0, None, f"{counted(len(rows[0]), 'cell')} on one line; a one-line "
                                 f"puzzle has n·n of them ({squares})")
    if n not in SIZES:
        raise GridError(0, None, f"a grid needs 4..9 rows, this one has {n}", whole=True)
    kind = np.zeros((n, n), dtype=np.int8)
    values = np.zeros((n, n), dtype=np.int64)
    for r, toks in enumerate(rows):
        if len(toks) != n:
            raise GridError(r, None, f"row has {counted(len(toks), 'cell')}, expected {n}: "
                                     f"the grid is square, and this one has {n} rows")
        for c, tok in enumerate(toks):
            kind[r, c], values[r, c] = parse_token(tok, r, c, n)
    return Str8tsGrid(n, kind, values)


def _split_row(text: str) -> list[tuple[str, int]]:
    """Tokens of a row and their 1-based columns: whitespace-separated, else characters."""
    if any(ch.isspace() for ch in text):
        return tokens_with_columns(text)
    return [(ch, i + 1) for i, ch in enumerate(text)]


def _from_rows(source: str, lines: list[tuple[int, str, int]]) -> Str8tsGrid:
    """``lines``: (file line, row text, column offset of the row text)."""
    rows = [_split_row(t) for _, t, _ in lines]
    try:
        return build([[tok for tok, _ in r] for r in rows])
    except GridError as e:
        line_no, _, offset = lines[min(e.row, len(lines) - 1)]
        col = None
        if e.col is not None and e.row < len(rows) and e.col < len(rows[e.row]):
            col = rows[e.row][e.col][1] + offset
        raise PuzzleInputError(source, line_no, col, e.message) from None


def _from_json(source: str, line_no: int, text: str) -> tuple[Str8tsGrid, dict]:
    g, obj = read_json_grid(source, line_no, text, build)
    check_json_size(source, line_no, obj, "n", g.n)
    return g, {k: obj[k] for k in ("id", "source") if k in obj}


def _whole_line(line: str) -> bool:
    return not any(ch.isspace() for ch in line) and len(line) in {k * k for k in SIZES}


def parse(text: str, source: str) -> list[tuple[int, Str8tsGrid, dict]]:
    out: list[tuple[int, Str8tsGrid, dict]] = []
    block: list[tuple[int, str, int]] = []

    def flush() -> None:
        if block:
            try:
                grid = _from_rows(source, list(block))
            except PuzzleInputError as e:
                # rows right below a grid read as rows (no blank line between): that grid
                # was complete, so these began another
                above = out[-1][2].get("row_lines", ()) if out else ()
                n = out[-1][1].n if above else 0
                if (above and block[0][0] == above[-1] + 1 and len(block) < n
                        and len(_split_row(block[0][1])) == n):
                    raise PuzzleInputError(
                        e.source, e.line, e.column,
                        f"{e.message} (the grid above already had its {n} rows, so this row "
                        f"began a new grid)") from None
                raise
            out.append((block[0][0], grid,
                        {"format": "text", "row_lines": tuple(no for no, _, _ in block)}))
            block.clear()

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        if line.startswith(";"):
            continue
        if not line:
            flush()
            continue
        if line.startswith("{"):
            flush()
            g, meta = _from_json(source, no, line)
            out.append((no, g, {"format": "json", **meta}))
        elif "/" in line:
            flush()
            parts, offset = [], lead
            for p in line.split("/"):
                parts.append((no, p.strip(), offset + len(p) - len(p.lstrip())))
                offset += len(p) + 1
            out.append((no, _from_rows(source, parts), {"format": "text"}))
        elif _whole_line(line):
            flush()
            n = int(len(line) ** 0.5)
            rows = [(no, line[i * n:(i + 1) * n], lead + i * n) for i in range(n)]
            out.append((no, _from_rows(source, rows), {"format": "text"}))
        else:
            block.append((no, line, lead))
            if len(block) == len(_split_row(block[0][1])):
                flush()  # n rows of n cells: complete without a blank line
    flush()
    return out


def format_line(g: Str8tsGrid, grid: np.ndarray) -> str:
    """One line of n² characters: digits, ``.`` empty, ``#`` black, ``a``-``i`` black digits."""
    out = []
    for r in range(g.n):
        for c in range(g.n):
            v = int(grid[r, c]) if g.kind[r, c] == WHITE else int(g.values[r, c])
            if g.kind[r, c] == BLACK:
                out.append(LETTERS[v - 1] if v else "#")
            else:
                out.append(str(v) if v else ".")
    return "".join(out)


def format_grid(g: Str8tsGrid, grid: np.ndarray) -> str:
    """The puzzle (or a solution) as n rows of tokens: ``.`` empty, digits, ``#`` black,
    ``#N`` a black cell holding N; :func:`parse` reads it back."""
    rows = []
    for r in range(g.n):
        toks = []
        for c in range(g.n):
            if g.kind[r, c] == BLACK:
                v = int(g.values[r, c])
                toks.append(f"#{v}" if v else "#")
            else:
                v = int(grid[r, c])
                toks.append(str(v) if v else ".")
        rows.append(" ".join(t.rjust(2) for t in toks).rstrip())
    return "\n".join(rows)
