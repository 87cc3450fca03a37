"""Str8ts as an SVG picture: black cells black, their digits white (csolve.svg draws the
cells)."""

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
    model_groups,
)

from .grid import BLACK, Str8tsGrid

MARGIN = 12.0
SIZE = 46.0


def str8ts_svg(puzzle, solution, step=None, candidates=None, placed=None, model=None) -> str:
    g: Str8tsGrid = puzzle.data
    n = g.n
    index = {rc: i for i, rc in enumerate(g.cells())}
    marks = Marks.of(step, model_groups(model)) if step is not None else None
    side = n * SIZE
    text_width = max(side, 380.0) if marks else side  # room for the step's words
    lines = caption_lines(marks.text if marks else "", text_width)
    height = side + 2 * MARGIN + (len(lines) * 14 * 1.3 + 6 if lines else 0)
    title = f"{puzzle.where}: {n}x{n} str8ts" + (f" - {marks.text}" if marks else "")
    c = Canvas(text_width + 2 * MARGIN, height, title)
    for r in range(n):
        for col in range(n):
            x, y = MARGIN + col * SIZE, MARGIN + r * SIZE
            value = int(g.values[r, col])
            i = index.get((r, col), -1)
            if g.kind[r, col] == BLACK:
                draw_cell(c, x, y, SIZE, str, value=value, given=True, shaded=True)
                continue
            value, given, mask = cell_content(
                i, value, None if solution is None else int(solution[r, col]), candidates,
                placed, marks)
            draw_cell(c, x, y, SIZE, str, value=value, given=given, mask=mask, n_values=n,
                      cell=i, marks=marks)
    for j in range(n + 1):
        c.line(MARGIN + j * SIZE, MARGIN, MARGIN + j * SIZE, MARGIN + side, THIN)
        c.line(MARGIN, MARGIN + j * SIZE, MARGIN + side, MARGIN + j * SIZE, THIN)
    c.rect(MARGIN, MARGIN, side, side, stroke=THICK, stroke_width=2.0)
    if lines:
        draw_caption(c, MARGIN, MARGIN + side + 6, lines)
    return c.document()
