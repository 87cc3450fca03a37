"""Sudoku as an SVG picture, any size from 4x4 to 64x64 (csolve.svg draws the cells)."""

from __future__ import annotations

from csolve.svg import (
    THICK,
    THIN,
    Canvas,
    Marks,
    caption_lines,
    cell_content,
    draw_caption,
    draw_cell,
)

from .formats import DIGITS_FIRST, own_symbols
from .grid import check_box, units

MARGIN = 12.0


def cell_size(n: int) -> float:
    return 48.0 if n <= 9 else 44.0 if n <= 16 else 30.0 if n <= 25 else 26.0


def symbol_of(n: int, meta: dict | None = None):
    """How a value is drawn: the puzzle's own symbol (a hex 16x16's 0-F), else 1-9A-Z, and
    numbers past that."""
    symbols = own_symbols(meta or {}) or DIGITS_FIRST
    if n <= len(symbols):
        return lambda v: symbols[v - 1]
    return str


def sudoku_svg(puzzle, solution, step=None, candidates=None, placed=None) -> str:
    """The grid: givens black and bold, filled values blue; a step's marks (csolve.svg)."""
    n = puzzle.meta["n"]
    box = check_box(n, puzzle.meta.get("box"))  # (rows, columns); default: the size's own
    box_rows, box_cols = box
    size = cell_size(n)
    side = n * size
    marks = None
    if step is not None:
        rows_cols_boxes = [cells for group in units(n, box) for cells in group]
        marks = Marks.of(step, lambda g: rows_cols_boxes[g])
    text_width = max(side, 380.0) if marks else side  # room for the step's words
    lines = caption_lines(marks.text if marks else "", text_width)
    height = side + 2 * MARGIN + (len(lines) * 14 * 1.3 + 6 if lines else 0)
    title = f"{puzzle.where}: {n}x{n} sudoku" + (f" - {marks.text}" if marks else "")
    c = Canvas(text_width + 2 * MARGIN, height, title)
    symbol = symbol_of(n, puzzle.meta)
    givens = puzzle.data
    # candidates are drawn for every open cell up to 16x16; above, only for the step's cells
    show_all = n <= 16
    for i in range(n * n):
        r, col = divmod(i, n)
        value, given, mask = cell_content(
            i, int(givens[i]), None if solution is None else int(solution[i]), candidates,
            placed, marks)
        draw_cell(c, MARGIN + col * size, MARGIN + r * size, size, symbol, value=value,
                  given=given, mask=mask, n_values=n, cell=i, marks=marks,
                  show_candidates=show_all)
    for j in range(n + 1):  # thin lines first, box lines on top
        if j % box_cols:
            c.line(MARGIN + j * size, MARGIN, MARGIN + j * size, MARGIN + side, THIN)
        if j % box_rows:
            c.line(MARGIN, MARGIN + j * size, MARGIN + side, MARGIN + j * size, THIN)
    width = max(2.0, size / 16)
    for j in range(0, n + 1, box_cols):  # between stacks of boxes
        c.line(MARGIN + j * size, MARGIN, MARGIN + j * size, MARGIN + side, THICK, width)
    for j in range(0, n + 1, box_rows):  # between bands
        c.line(MARGIN, MARGIN + j * size, MARGIN + side, MARGIN + j * size, THICK, width)
    if lines:
        draw_caption(c, MARGIN, MARGIN + side + 6, lines)
    return c.document()
