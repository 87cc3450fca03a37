"""Kakuro as an SVG picture: clue cells split by a diagonal, the down sum below it and the
right sum above it, as printed Kakuro puzzles show them (csolve.svg draws the cells)."""

from __future__ import annotations

from csolve.svg import (
    ON_SHADE,
    SHADE,
    THICK,
    THIN,
    Canvas,
    Marks,
    cell_content,
    draw_cell,
)

from .grid import CLUE, WHITE, KakuroGrid

MARGIN = 12.0
SIZE = 44.0


def kakuro_svg(puzzle, solution, step=None, candidates=None, placed=None) -> str:
    g: KakuroGrid = puzzle.data
    index = {rc: i for i, rc in enumerate(g.whites)}
    marks = None
    if step is not None:
        runs = [[index[rc] for rc in run.cells] for run in g.runs]  # the model's groups
        marks = Marks.of(step, lambda k: runs[k])
    width, side = g.cols * SIZE, g.rows * SIZE
    c = Canvas.for_grid(width, side, f"{puzzle.where}: {g.rows}x{g.cols} kakuro", marks,
                        MARGIN)
    for r in range(g.rows):
        for col in range(g.cols):
            x, y = MARGIN + col * SIZE, MARGIN + r * SIZE
            kind = g.kind[r, col]
            if kind != WHITE:
                c.rect(x, y, SIZE, SIZE, fill=SHADE)
                if kind == CLUE:
                    c.line(x, y, x + SIZE, y + SIZE, stroke=ON_SHADE, width=1.0)
                    down, right = int(g.down[r, col]), int(g.right[r, col])
                    fs = SIZE * 0.3
                    if down:
                        c.text(x + SIZE * 0.3, y + SIZE * 0.74, str(down), fs, ON_SHADE)
                    if right:
                        c.text(x + SIZE * 0.7, y + SIZE * 0.28, str(right), fs, ON_SHADE)
                continue
            i = index[(r, col)]
            value, given, mask = cell_content(
                i, int(g.values[r, col]), None if solution is None else int(solution[r, col]),
                candidates, placed, marks)
            draw_cell(c, x, y, SIZE, str, value=value, given=given, mask=mask, n_values=9,
                      cell=i, marks=marks)
    for j in range(g.cols + 1):
        c.line(MARGIN + j * SIZE, MARGIN, MARGIN + j * SIZE, MARGIN + side, THIN)
    for j in range(g.rows + 1):
        c.line(MARGIN, MARGIN + j * SIZE, MARGIN + width, MARGIN + j * SIZE, THIN)
    c.rect(MARGIN, MARGIN, width, side, stroke=THICK, stroke_width=2.0)
    return c.document()
