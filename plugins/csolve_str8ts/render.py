"""A Str8ts grid for the terminal: black cells shaded (and written ``#`` or ``#N``, as the text
form has them, for output with no colour), givens bold, solved digits in colour."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from .grid import BLACK, Str8tsGrid


def render_grid(g: Str8tsGrid, grid: np.ndarray | None) -> Text:
    out = Text()
    for r in range(g.n):
        for c in range(g.n):
            if g.kind[r, c] == BLACK:
                v = int(g.values[r, c])
                out.append(f"#{v} " if v else " # ", style="bold white on grey15")
                continue
            given = int(g.values[r, c])
            v = int(grid[r, c]) if grid is not None else given
            style = "bold" if given else ("cyan" if v else "dim")
            out.append(f" {v if v else '·'} ", style=style)
        if r + 1 < g.n:
            out.append("\n")
    return out
