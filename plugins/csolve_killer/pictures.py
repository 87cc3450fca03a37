"""Killer Sudoku as an SVG picture, as printed Killer puzzles show it: the Sudoku grid, each
cage outlined by a dashed line just inside its cells, and its sum in the corner of the cell
it was written at (csolve.svg draws the cells).

A cell's value or candidates sit in a square inset from the cell's top left, so the sum in
the corner never covers a candidate."""

from __future__ import annotations

from csolve_sudoku.grid import units
from csolve_sudoku.pictures import rule_boxes

from csolve.svg import (
    Canvas,
    Marks,
    cell_content,
    draw_cell,
)

from .cages import KillerGrid

MARGIN = 12.0
SIZE = 58.0  # a cell
INSET = 3.0  # how far a cage's outline lies inside its cells
CAGE = "#4a4a4a"  # cage outlines and sums
SUM_FONT = 10.0  # the sum's box is SUM_FONT + 1 high, from 1.5 below the cell's top
#: the square holding a cell's value or candidates: below the sum's box and inside the cage
#: outlines, with room for a candidate's disc
CONTENT = 41.0
PAD_X, PAD_TOP = (SIZE - CONTENT) / 2, 13.0


def cage_outline(g: KillerGrid) -> list[tuple[float, float, float, float]]:
    """The dashed outline of every cage as line segments (x1, y1, x2, y2) on the canvas.

    Each cell draws the walls it shares with another cage (or the border), ``INSET`` inside
    itself. A wall ends ``INSET`` short of a corner where the cage turns away, runs to the
    cell's edge where the cage goes straight on, and ``INSET`` past the edge where the cage
    turns round the corner (an inner corner), so the pieces join into one closed line."""
    n, cage = g.n, g.cage_of

    def same(r: int, c: int, r2: int, c2: int) -> bool:
        return 0 <= r2 < n and 0 <= c2 < n and cage[r * n + c] == cage[r2 * n + c2]

    def end(r: int, c: int, side: tuple[int, int], along: tuple[int, int], edge: float,
            inward: float) -> float:
        """Where a wall on ``side`` of cell (r, c) ends in direction ``along``."""
        if not same(r, c, r + along[0], c + along[1]):
            return edge + inward  # the cage turns away: the outline's corner
        if same(r, c, r + side[0] + along[0], c + side[1] + along[1]):
            return edge - inward  # the cage turns round: meet the wall beyond the corner
        return edge

    d = INSET
    out = []
    for r in range(n):
        for c in range(n):
            x0, y0 = MARGIN + c * SIZE, MARGIN + r * SIZE
            x1, y1 = x0 + SIZE, y0 + SIZE
            for dr in (-1, 1):  # the walls above and below
                if not same(r, c, r + dr, c):
                    y = y0 + d if dr < 0 else y1 - d
                    out.append((end(r, c, (dr, 0), (0, -1), x0, d), y,
                                end(r, c, (dr, 0), (0, 1), x1, -d), y))
            for dc in (-1, 1):  # the walls left and right
                if not same(r, c, r, c + dc):
                    x = x0 + d if dc < 0 else x1 - d
                    out.append((x, end(r, c, (0, dc), (-1, 0), y0, d),
                                x, end(r, c, (0, dc), (1, 0), y1, -d)))
    return _joined(out)


def _joined(pieces: list[tuple[float, float, float, float]]
            ) -> list[tuple[float, float, float, float]]:
    """The pieces with each straight run of them, end to end, as one line: a dashed line
    drawn in pieces starts its dashes afresh at every cell."""
    runs: dict[tuple[bool, float], list[tuple[float, float]]] = {}
    for x1, y1, x2, y2 in pieces:
        across = y1 == y2
        key = (across, round(y1 if across else x1, 6))
        runs.setdefault(key, []).append((x1, x2) if across else (y1, y2))
    out = []
    for (across, at), spans in runs.items():
        spans.sort()
        lo, hi = spans[0]
        for a, b in spans[1:] + [(None, None)]:
            if a is not None and abs(a - hi) < 1e-6:
                hi = b
                continue
            out.append((lo, at, hi, at) if across else (at, lo, at, hi))
            if a is not None:
                lo, hi = a, b
    return out


def killer_svg(puzzle, solution, step=None, candidates=None, placed=None) -> str:
    """The grid: givens black and bold, filled values blue, cages and sums in grey; a step's
    marks (csolve.svg)."""
    g: KillerGrid = puzzle.data
    n = g.n
    side = n * SIZE
    marks = None
    if step is not None:
        groups = [cells for family in units(n, g.box) for cells in family] + list(g.cages)
        marks = Marks.of(step, lambda k: groups[k])
    c = Canvas.for_grid(side, side, f"{puzzle.where}: {n}x{n} killer", marks, MARGIN)
    backgrounds = {}
    for i in range(n * n):
        r, col = divmod(i, n)
        x, y = MARGIN + col * SIZE, MARGIN + r * SIZE
        fill = marks.background(i) if marks else None
        if fill:
            c.rect(x, y, SIZE, SIZE, fill=fill)
            backgrounds[i] = fill
        value, given, mask = cell_content(
            i, int(g.givens[i]), None if solution is None else int(solution[i]), candidates,
            placed, marks)
        draw_cell(c, x + PAD_X, y + PAD_TOP, CONTENT, str, value=value, given=given,
                  mask=mask, n_values=n, cell=i, marks=marks, background=False)
    rule_boxes(c, n, g.box, SIZE, MARGIN, 3.0)
    for x1, y1, x2, y2 in cage_outline(g):
        c.line(x1, y1, x2, y2, CAGE, 1.2, dash="3 2.5")
    for anchor, total in zip(g.anchors, g.sums, strict=True):
        r, col = divmod(anchor, n)
        x, y = MARGIN + col * SIZE, MARGIN + r * SIZE
        label = str(total)
        # the sum's own background hides the outline where it passes behind the digits
        c.rect(x + 1.5, y + 1.5, 2 + 0.62 * SUM_FONT * len(label), SUM_FONT + 1,
               fill=backgrounds.get(anchor, "#ffffff"))
        c.text(x + 2.5, y + 1.5 + SUM_FONT / 2, label, SUM_FONT, CAGE, anchor="start")
    return c.document()
