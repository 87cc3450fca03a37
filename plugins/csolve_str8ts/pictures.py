"""Str8ts as an SVG picture: black cells black, their digits white (csolve.svg draws the
cells)."""

from __future__ import annotations

from csolve.svg import (
    THICK,
    THIN,
    Canvas,
    Marks,
    cell_content,
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
    c = Canvas.for_grid(side, side, f"{puzzle.where}: {n}x{n} str8ts", marks, MARGIN)
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
    return c.document()
