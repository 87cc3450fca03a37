"""Kakuro grids: reading the text and JSON-lines forms, finding the runs, writing a line.

Text form (docs/kakuro.md): one row per line, cells as whitespace-separated tokens - ``-``
or ``#`` black, ``0`` or ``.`` empty white, ``1``-``9`` white holding that digit, ``D\\R`` or
``D,R`` a clue cell (down sum, right sum; either may be empty). Puzzles are separated by
blank lines; a line holding ``/`` is a whole puzzle with rows separated by ``/``. Lines
starting with ``;`` are comments. A line starting with ``{`` is a JSON object with a
``grid`` field: a list of row strings in the same token syntax (the janko.at sets).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from csolve.errors import PuzzleInputError, counted
from csolve.inputs import is_number, number_value
from csolve.rowgrid import GridError, check_json_size, read_json_grid, tokens_with_columns

BLACK, WHITE, CLUE = 0, 1, 2
MAX_SUM = 45


@dataclass(frozen=True)
class Run:
    """A maximal block of white cells in a row ("R") or column ("D") and its clue."""

    direction: str
    clue: tuple[int, int]
    total: int
    cells: tuple[tuple[int, int], ...]


@dataclass
class KakuroGrid:
    rows: int
    cols: int
    kind: np.ndarray  # BLACK / WHITE / CLUE per cell
    down: np.ndarray  # down sum of a clue cell, 0 when none
    right: np.ndarray  # right sum of a clue cell, 0 when none
    values: np.ndarray  # digit of a white cell, 0 when empty (0 elsewhere)
    runs: tuple[Run, ...]
    whites: tuple[tuple[int, int], ...]  # white cells, row-major: the model's cells

    def structure(self) -> tuple:
        """Everything but the digits: puzzles with equal structures share a model."""
        return (self.rows, self.cols,
                tuple((r.total, r.cells) for r in self.runs), self.whites)


def _sum(text: str, row: int, col: int, what: str) -> int:
    if text == "":
        return 0
    if not is_number(text) or not 1 <= number_value(text) <= MAX_SUM:
        raise GridError(row, col, f"{what} sum {text!r} is not a number 1..{MAX_SUM}")
    return int(text)


def parse_token(tok: str, row: int, col: int) -> tuple[int, int, int, int]:
    """(kind, down, right, digit) of one cell token."""
    if tok in ("-", "#"):
        return BLACK, 0, 0, 0
    if tok in ("0", "."):
        return WHITE, 0, 0, 0
    if len(tok) == 1 and tok in "123456789":
        return WHITE, 0, 0, int(tok)
    sep = "\\" if "\\" in tok else ("," if "," in tok else None)
    if sep is None or tok.count(sep) != 1:
        raise GridError(row, col, f"bad cell '{tok}' (expected -, #, 0, ., 1-9, D\\R or D,R)")
    d, r = tok.split(sep)
    down, right = _sum(d, row, col, "down"), _sum(r, row, col, "right")
    return (CLUE if down or right else BLACK), down, right, 0


def build(rows_tokens: list[list[str]]) -> KakuroGrid:
    """A grid from its rows of tokens; GridError on ragged rows or clues without runs."""
    n_rows = len(rows_tokens)
    n_cols = len(rows_tokens[0])
    for r, toks in enumerate(rows_tokens):
        if len(toks) != n_cols:
            raise GridError(r, None, f"row has {counted(len(toks), 'cell')}, the first row has "
                                     f"{n_cols}")
    kind = np.zeros((n_rows, n_cols), dtype=np.int8)
    down = np.zeros((n_rows, n_cols), dtype=np.int64)
    right = np.zeros((n_rows, n_cols), dtype=np.int64)
    values = np.zeros((n_rows, n_cols), dtype=np.int64)
    for r, toks in enumerate(rows_tokens):
        for c, tok in enumerate(toks):
            kind[r, c], down[r, c], right[r, c], values[r, c] = parse_token(tok, r, c)
    runs: list[Run] = []
    for direction, dr, dc, sums in (("R", 0, 1, right), ("D", 1, 0, down)):
        for r in range(n_rows):
            for c in range(n_cols):
                if kind[r, c] == WHITE:
                    pr, pc = r - dr, c - dc
                    if pr >= 0 and pc >= 0 and kind[pr, pc] == WHITE:
                        continue  # not the start of a run
                    cells = []
                    rr, cc = r, c
                    while rr < n_rows and cc < n_cols and kind[rr, cc] == WHITE:
                        cells.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    total = int(sums[pr, pc]) if pr >= 0 and pc >= 0 else 0
                    if total:
                        runs.append(Run(direction, (pr, pc), total, tuple(cells)))
                    elif len(cells) > 1:
                        word = "right" if direction == "R" else "down"
                        raise GridError(r, c, f"run of {len(cells)} white cells has no "
                                              f"{word} clue before it")
                elif sums[r, c]:
                    nr, nc = r + dr, c + dc
                    if nr >= n_rows or nc >= n_cols or kind[nr, nc] != WHITE:
                        word = "right" if direction == "R" else "down"
                        raise GridError(r, c, f"{word} clue {sums[r, c]} has no white cell "
                                              "after it")
    whites = tuple((r, c) for r in range(n_rows) for c in range(n_cols) if kind[r, c] == WHITE)
    in_a_run = {cell for run in runs for cell in run.cells}
    for r, c in whites:
        if (r, c) not in in_a_run:  # no sum bounds it: any digit would do
            raise GridError(r, c, "a white cell in no run: no sum to its left or above "
                                  "bounds it")
    if not whites:
        raise GridError(0, None, "grid has no white cell", whole=True)
    return KakuroGrid(n_rows, n_cols, kind, down, right, values, tuple(runs), whites)


def _located(source: str, lines: list[tuple[int, str, int]], rows,
             e: GridError) -> PuzzleInputError:
    """Map a grid position back to the file's line and column."""
    line_no, _, offset = lines[min(e.row, len(lines) - 1)]
    col = None
    if e.col is not None and e.row < len(rows) and e.col < len(rows[e.row]):
        col = rows[e.row][e.col][1] + offset
    return PuzzleInputError(source, line_no, col, e.message)


def _from_rows(source: str, lines: list[tuple[int, str, int]]) -> KakuroGrid:
    """A grid from its rows: (file line, row text, the row text's column offset there)."""
    rows = [tokens_with_columns(t) for _, t, _ in lines]
    try:
        if any(not r for r in rows):
            empty = next(i for i, r in enumerate(rows) if not r)
            raise GridError(empty, None, "empty row")
        return build([[tok for tok, _ in r] for r in rows])
    except GridError as e:
        raise _located(source, lines, rows, e) from None


def _from_json(source: str, line_no: int, text: str) -> tuple[KakuroGrid, dict]:
    g, obj = read_json_grid(source, line_no, text, build)
    for key, size in (("rows", g.rows), ("cols", g.cols)):
        check_json_size(source, line_no, obj, key, size)
    meta = {k: obj[k] for k in ("id", "source") if k in obj}
    return g, meta


def parse(text: str, source: str) -> list[tuple[int, KakuroGrid, dict]]:
    """Every puzzle in ``text`` as (first line, grid, meta)."""
    out: list[tuple[int, KakuroGrid, dict]] = []
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if block:
            out.append((block[0][0], _from_rows(source, block),
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
                parts.append((no, p, offset))
                offset += len(p) + 1
            out.append((no, _from_rows(source, parts), {"format": "text"}))
        else:
            block.append((no, line, lead))
    flush()
    return out


def token(g: KakuroGrid, r: int, c: int, digit: int) -> str:
    """One cell in the text syntax (clues as ``D,R``, empty whites as ``0``)."""
    k = g.kind[r, c]
    if k == WHITE:
        return str(digit)
    if k == CLUE:
        d, rt = int(g.down[r, c]), int(g.right[r, c])
        return f"{d if d else ''},{rt if rt else ''}"
    return "-"


def format_line(g: KakuroGrid, grid: np.ndarray) -> str:
    """The puzzle (or a solution) as one line: rows separated by `` / ``."""
    return " / ".join(" ".join(token(g, r, c, int(grid[r, c])) for c in range(g.cols))
                      for r in range(g.rows))


def format_grid(g: KakuroGrid, grid: np.ndarray) -> str:
    """The puzzle (or a solution) as aligned rows of tokens: ``-`` black, ``D\\R`` clues,
    ``.`` empty white cells, digits; :func:`parse` reads it back."""
    def tok(r: int, c: int) -> str:
        if g.kind[r, c] == CLUE:
            d, rt = int(g.down[r, c]), int(g.right[r, c])
            return f"{d if d else ''}\\{rt if rt else ''}"
        if g.kind[r, c] == WHITE:
            return str(int(grid[r, c])) if grid[r, c] else "."
        return "-"

    rows = [[tok(r, c) for c in range(g.cols)] for r in range(g.rows)]
    width = max(len(t) for row in rows for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row).rstrip() for row in rows)
