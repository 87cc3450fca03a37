"""A Kakuro grid for the terminal: clue cells shaded with their sums, digits in colour."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from .grid import CLUE, WHITE, KakuroGrid

_W = 5  # characters per cell: room for "45\45"


def render_grid(g: KakuroGrid, grid: np.ndarray | None) -> Text:
    shown = grid if grid is not None else g.values
    out = Text()
    for r in range(g.rows):
        for c in range(g.cols):
            k = g.kind[r, c]
            if k == WHITE:
                v = int(shown[r, c])
                style = "bold" if g.values[r, c] else ("cyan" if v else "dim")
                out.append((str(v) if v else "·").center(_W), style=style)
            elif k == CLUE:
                d, rt = int(g.down[r, c]), int(g.right[r, c])
                label = f"{d if d else '':>2}\\{rt if rt else '':<2}"
                out.append(label, style="white on grey23")
            else:
                out.append(" " * _W, style="on grey15")
        if r + 1 < g.rows:
            out.append("\n")
    return out
