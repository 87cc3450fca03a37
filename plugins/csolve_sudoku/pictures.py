"""Sudoku as an SVG picture, any size from 4x4 to 64x64 (csolve.svg draws the cells)."""

from __future__ import annotations

from csolve.svg import THICK, THIN, Canvas, Marks, caption_lines, draw_caption, draw_cell

from .formats import DIGITS_FIRST
from .grid import box_side, units

MARGIN = 12.0


def cell_size(n: int) -> float:
    return 48.0 if n <= 9 else 44.0 if n <= 16 else 30.0 if n <= 25 else 26.0


def symbol_of(n: int):
    if n <= len(DIGITS_FIRST):
        return lambda v: DIGITS_FIRST[v - 1]
    return str


def sudoku_svg(puzzle, solution, step=None, candidates=None, placed=None) -> str:
    """The grid: givens black and bold, filled values blue; a step's marks (csolve.svg)."""
    n = puzzle.meta["n"]
    k = box_side(n)
    size = cell_size(n)
    side = n * size
    marks = None
    if step is not None:
        rows_cols_boxes = [cells for group in units(n) for cells in group]
        marks = Marks.of(step, lambda g: rows_cols_boxes[g])
    text_width = max(side, 380.0) if marks else side  # room for the step's words
    lines = caption_lines(marks.text if marks else "", text_width)
    height = side + 2 * MARGIN + (len(lines) * 14 * 1.3 + 6 if lines else 0)
    title = f"{puzzle.where}: {n}x{n} sudoku" + (f" - {marks.text}" if marks else "")
    c = Canvas(text_width + 2 * MARGIN, height, title)
    symbol = symbol_of(n)
    givens = puzzle.data
    # candidates are drawn for every open cell up to 16x16; above, only for the step's cells
    show_all = n <= 16
    for i in range(n * n):
        r, col = divmod(i, n)
        value = int(givens[i])
        given = value > 0
        mask = 0
        if not given:
            if solution is not None:
                value = int(solution[i])
            elif candidates is not None:
                m = int(candidates[i])
                single = m and not m & (m - 1)
                if single and _shown(i, placed, marks):
                    value = m.bit_length()
                else:
                    mask = m
        draw_cell(c, MARGIN + col * size, MARGIN + r * size, size, symbol, value=value,
                  given=given, mask=mask, n_values=n, cell=i, marks=marks,
                  show_candidates=show_all)
    for j in range(n + 1):  # thin lines first, box lines on top
        if j % k:
            c.line(MARGIN + j * size, MARGIN, MARGIN + j * size, MARGIN + side, THIN)
            c.line(MARGIN, MARGIN + j * size, MARGIN + side, MARGIN + j * size, THIN)
    width = max(2.0, size / 16)
    for j in range(0, n + 1, k):
        c.line(MARGIN + j * size, MARGIN, MARGIN + j * size, MARGIN + side, THICK, width)
        c.line(MARGIN, MARGIN + j * size, MARGIN + side, MARGIN + j * size, THICK, width)
    if lines:
        draw_caption(c, MARGIN, MARGIN + side + 6, lines)
    return c.document()


def _shown(cell: int, placed, marks) -> bool:
    """A cell down to one candidate shows it as its value once it is placed (and is not
    what the step is about)."""
    return (placed is None or bool(placed[cell])) and not (marks and marks.involves(cell))
