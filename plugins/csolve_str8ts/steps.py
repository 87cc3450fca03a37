"""Step-by-step form of the Str8ts straight rule, for explanations and grading.

For each compartment it makes the deductions of the ``str8ts-straight`` kernel (rules.py) one
at a time, in words: the straights (windows of consecutive values) the compartment can still
be, and the values outside them that its cells lose (the compartment's range: easy); a value
every possible straight holds with one place left in the compartment goes there, and leaves
the rest of its row or column (a sure value: medium).
"""

from __future__ import annotations

from collections.abc import Iterator

from csolve.logic import Board, Step, bits

from .rules import STRAIGHT


def windows(cand: list[int], n: int) -> list[tuple[int, int]]:
    """(low, high) of every straight the cells can still be (the kernel's test: it holds
    each placed value, every cell has a candidate in it and every value of it a cell)."""
    length = len(cand)
    union = fixed = 0
    for x in cand:
        union |= x
        if x and not x & (x - 1):
            fixed |= x
    span = (1 << length) - 1
    out = []
    for a in range(n - length + 1):
        w = span << a
        if fixed & ~w or union & w != w or any(not x & w for x in cand):
            continue
        out.append((a + 1, a + length))
    return out


def _mask(lo: int, hi: int) -> int:
    return ((1 << (hi - lo + 1)) - 1) << (lo - 1)


def _range_text(ws: list[tuple[int, int]]) -> str:
    lo, hi = ws[0][0], ws[-1][1]
    if all(b[0] <= a[1] + 1 for a, b in zip(ws, ws[1:], strict=False)):
        return f"a straight within {lo}..{hi}"
    return "one of the straights " + ", ".join(f"{a}..{b}" for a, b in ws)


def no_straight(b: Board) -> Step | None:
    """The first compartment no straight fits any more, as a step that takes every value
    from its cells (looked for before every step: see :data:`csolve.logic.Finder`)."""
    for g, cells, _line in b.touched(STRAIGHT):
        cand = [b.cand[c] for c in cells]
        if windows(cand, b.n_values):
            continue
        removed = [(c, v) for c, x in zip(cells, cand, strict=True) for v in bits(x)]
        nb = b.namer
        return Step("str8ts-straight", removed=removed, cells=list(cells), groups=[g],
                    level="easy", broken=f"no straight fits {nb.group(g)}",
                    text=f"no straight fits {nb.group(g)}, so its cells keep no value: "
                         f"{nb.losses(removed)}")
    return None


def straight(b: Board) -> Iterator[Step]:
    """Compartment ranges first (easy), then sure values: placed or out of the line."""
    nb = b.namer
    for g, cells, _line in b.tagged(STRAIGHT):
        cand = [b.cand[c] for c in cells]
        ws = windows(cand, b.n_values)
        allowed = 0
        for lo, hi in ws:
            allowed |= _mask(lo, hi)
        removed = [(c, v) for c, x in zip(cells, cand, strict=True) for v in bits(x & ~allowed)]
        if removed and ws:  # (none fits: no_straight says so before any step)
            text = f"{nb.group(g)} can only be {_range_text(ws)}: {nb.losses(removed)}"
            yield Step("str8ts-straight", removed=removed, cells=list(cells), groups=[g],
                       values=bits(allowed), text=text, level="easy")
    for g, cells, line in b.tagged(STRAIGHT):
        cand = [b.cand[c] for c in cells]
        ws = windows(cand, b.n_values)
        if not ws:
            continue
        must = (1 << b.n_values) - 1
        for lo, hi in ws:
            must &= _mask(lo, hi)
        listed = ", ".join(f"{lo}..{hi}" for lo, hi in ws)
        for v in bits(must):
            vb = 1 << (v - 1)
            places = [c for c in cells if b.cand[c] & vb]
            if len(places) == 1 and b.cand[places[0]] != vb:
                c = places[0]
                yield Step("str8ts-straight", placed=[(c, v)], cells=[c], values=[v],
                           groups=[g], level="medium",
                           text=f"{nb.cell(c)} = {v}: every straight {nb.group(g)} can be "
                                f"({listed}) holds {v}, and {nb.cell(c)} is its only place")
            out = [(c, v) for c in b.groups[line] if c not in cells and b.cand[c] & vb]
            if out:
                yield Step("str8ts-straight", removed=out, cells=places, values=[v],
                           groups=[g, line], level="medium",
                           text=f"{v} is sure in {nb.group(g)} (every straight it can be, "
                                f"{listed}, holds it), so it leaves the rest of "
                                f"{nb.group(line)}: {nb.losses(out)}")


straight.contradiction = no_straight  # type: ignore[attr-defined]
