"""A Killer grid for the terminal: cage walls, each cage's sum in its corner cell, boxes in
heavy lines, givens bold and solved cells in colour."""

from __future__ import annotations

import unicodedata
from functools import cache

import numpy as np
from rich.text import Text

from .cages import KillerGrid

CELL = 4  # characters per cell
NONE, LIGHT, HEAVY = 0, 1, 2  # the weight of a line: none, a cage wall, a box wall
_DIRECTIONS = {"UP": ("up",), "DOWN": ("down",), "LEFT": ("left",), "RIGHT": ("right",),
               "VERTICAL": ("up", "down"), "HORIZONTAL": ("left", "right")}


@cache
def junctions() -> dict[tuple[int, int, int, int], str]:
    """The box-drawing character for each (up, right, down, left) weight of the lines that
    meet at a point, read from the Unicode names of U+2500-U+257F ("BOX DRAWINGS UP LIGHT
    AND DOWN HEAVY"), so that a cage wall meets a box wall as ``┨`` and not as ``╋``."""
    table = {(NONE, NONE, NONE, NONE): " "}
    for point in range(0x2500, 0x2580):
        words = unicodedata.name(chr(point)).removeprefix("BOX DRAWINGS ")
        if any(w not in _DIRECTIONS and w not in ("LIGHT", "HEAVY", "AND")
               for w in words.split()):
            continue  # double, dashed, rounded, diagonal
        groups = [g.split() for g in words.split(" AND ")]
        weights = [next((w for w in g if w in ("LIGHT", "HEAVY")), None) for g in groups]
        shared = next(w for w in weights if w)  # "LIGHT DOWN AND RIGHT": one for both
        arms = dict.fromkeys(("up", "right", "down", "left"), NONE)
        for group, weight in zip(groups, weights, strict=True):
            for word in group:
                for arm in _DIRECTIONS.get(word, ()):
                    arms[arm] = HEAVY if (weight or shared) == "HEAVY" else LIGHT
        table[(arms["up"], arms["right"], arms["down"], arms["left"])] = chr(point)
    return table


def render_grid(g: KillerGrid, solution: np.ndarray | None) -> Text:
    n = g.n
    br, bc = g.box
    cage = g.cage_of
    shown = g.givens if solution is None else solution
    sum_at = dict(zip(g.anchors, g.sums, strict=True))
    joints = junctions()
    out = Text()

    def vertical(r: int, j: int) -> int:
        """The weight of the wall left of column ``j`` in row ``r`` (none outside)."""
        if not 0 <= r < n or not 0 <= j <= n:
            return NONE
        if j % bc == 0:
            return HEAVY
        return LIGHT if cage[r * n + j] != cage[r * n + j - 1] else NONE

    def horizontal(i: int, c: int) -> int:
        """The weight of the wall above row ``i`` in column ``c`` (none outside)."""
        if not 0 <= c < n or not 0 <= i <= n:
            return NONE
        if i % br == 0:
            return HEAVY
        return LIGHT if cage[i * n + c] != cage[(i - 1) * n + c] else NONE

    def rule(i: int) -> None:
        """The line above row ``i`` (``n``: the bottom)."""
        line = ""
        for j in range(n + 1):
            line += joints[(vertical(i - 1, j), horizontal(i, j), vertical(i, j),
                            horizontal(i, j - 1))]
            if j < n:
                line += " ─━"[horizontal(i, j)] * CELL
        out.append(line + "\n", style="dim")

    for r in range(n):
        rule(r)
        for c in range(n):  # the sums line
            out.append(" │┃"[vertical(r, c)], style="dim")
            s = sum_at.get(r * n + c)
            out.append((str(s) if s else "").ljust(CELL), style="yellow")
        out.append("┃\n", style="dim")
        for c in range(n):  # the digits line
            out.append(" │┃"[vertical(r, c)], style="dim")
            v = int(shown[r * n + c])
            style = "bold" if g.givens[r * n + c] else ("cyan" if v else "dim")
            out.append(f"  {v if v else '.'} ", style=style)
        out.append("┃\n", style="dim")
    rule(n)
    out.rstrip()
    return out
