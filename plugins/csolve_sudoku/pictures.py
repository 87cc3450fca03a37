"""Sudoku as an SVG picture, any size from 4x4 to 64x64 (csolve.svg draws the cells)."""

from __future__ import annotations

from csolve.svg import (
    THICK,
    THIN,
    Canvas,
    Marks,
    cell_content,
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
    size = cell_size(n)
    side = n * size
    marks = None
    if step is not None:
        rows_cols_boxes = [cells for group in units(n, box) for cells in group]
        marks = Marks.of(step, lambda g: rows_cols_boxes[g])
    c = Canvas.for_grid(side, side, f"{puzzle.where}: {n}x{n} sudoku", marks, MARGIN)
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
    rule_boxes(c, n, box, size, MARGIN, max(2.0, size / 16))
    return c.document()


def rule_boxes(c: Canvas, n: int, box: tuple[int, int], size: float, origin: float,
               width: float) -> None:
    """The lines of an n x n grid of ``size`` cells from (``origin``, ``origin``): thin
    between cells, ``width`` thick between boxes (of ``box`` rows x columns), on top."""
    box_rows, box_cols = box
    side = n * size
    for j in range(n + 1):
        if j % box_cols:
            c.line(origin + j * size, origin, origin + j * size, origin + side, THIN)
        if j % box_rows:
            c.line(origin, origin + j * size, origin + side, origin + j * size, THIN)
    for j in range(0, n + 1, box_cols):  # between stacks of boxes
        c.line(origin + j * size, origin, origin + j * size, origin + side, THICK, width)
    for j in range(0, n + 1, box_rows):  # between bands
        c.line(origin, origin + j * size, origin + side, origin + j * size, THICK, width)
