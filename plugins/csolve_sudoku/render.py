"""A box-drawn Sudoku grid for the terminal: givens bold, solved cells in colour."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from .formats import DIGITS_FIRST
from .grid import Box, check_box


def render_grid(givens: np.ndarray, grid: np.ndarray | None, n: int,
                box: Box | None = None, symbols: str | None = None) -> Text:
    """Boxes of ``box`` (rows, columns; default: the size's own) ruled with heavy lines;
    ``symbols``: one character per value, the puzzle's own (``formats.own_symbols``)."""
    br, bc = check_box(n, box)
    symbols = symbols or DIGITS_FIRST
    width = 1 if n <= len(symbols) else len(str(n))
    shown = grid if grid is not None else givens
    cell_w = width + 2

    def rule(left: str, mid: str, cross: str, right: str) -> str:
        segment = mid * (cell_w * bc)
        return left + cross.join([segment] * (n // bc)) + right + "\n"

    out = Text()
    out.append(rule("┏", "━", "┳", "┓"), style="dim")
    for r in range(n):
        out.append("┃", style="dim")
        for c in range(n):
            v = int(shown[r * n + c])
            sym = ("." if v == 0 else
                   (symbols[v - 1] if width == 1 else str(v))).rjust(width)
            style = "bold" if givens[r * n + c] else ("cyan" if v else "dim")
            out.append(f" {sym} ", style=style)
            if (c + 1) % bc == 0:
                out.append("┃", style="dim")
        out.append("\n")
        if r + 1 < n and (r + 1) % br == 0:
            out.append(rule("┣", "━", "╋", "┫"), style="dim")
    out.append(rule("┗", "━", "┻", "┛").rstrip("\n"), style="dim")
    return out
