"""A Killer grid for the terminal: cage walls, each cage's sum in its corner cell, boxes in
heavy lines, givens bold and solved cells in colour."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from .cages import KillerGrid

CELL = 4  # characters per cell


def render_grid(g: KillerGrid, solution: np.ndarray | None) -> Text:
    n = g.n
    br, bc = g.box
    cage = g.cage_of
    shown = g.givens if solution is None else solution
    sum_at = dict(zip(g.anchors, g.sums, strict=True))
    out = Text()

    def wall_left(r: int, c: int) -> str:
        if c % bc == 0:
            return "┃"
        return "│" if cage[r * n + c] != cage[r * n + c - 1] else " "

    def horizontal(r: int) -> None:
        """The line under row ``r`` (-1: the top)."""
        heavy = r == -1 or r == n - 1 or (r + 1) % br == 0
        line = ""
        for c in range(n):
            line += "╋" if heavy else ("┃" if c % bc == 0 else "┼")
            if heavy:
                line += "━" * CELL
            else:
                apart = cage[r * n + c] != cage[(r + 1) * n + c]
                line += ("─" if apart else " ") * CELL
        out.append(line + ("╋" if heavy else "┃") + "\n", style="dim")

    horizontal(-1)
    for r in range(n):
        for c in range(n):  # the sums line
            out.append(wall_left(r, c), style="dim")
            s = sum_at.get(r * n + c)
            out.append((str(s) if s else "").ljust(CELL), style="yellow")
        out.append("┃\n", style="dim")
        for c in range(n):  # the digits line
            out.append(wall_left(r, c), style="dim")
            v = int(shown[r * n + c])
            style = "bold" if g.givens[r * n + c] else ("cyan" if v else "dim")
            out.append(f"  {v if v else '.'} ", style=style)
        out.append("┃\n", style="dim")
        horizontal(r)
    out.rstrip()
    return out
