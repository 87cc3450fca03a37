"""Step-by-step form of the Kakuro sum rule, for explanations and grading.

For each run it makes the same deduction as the ``kakuro-sum`` kernel (rules.py), in words:
the digit sets of the run's length and sum that its cells can still take, and the digits each
cell loses. A step that needs only the run's combinations (with the digits already placed in
it) is graded easy; one that also needs the other cells' candidates to rule a set out, or to
rule a digit out of one cell, is graded medium.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from csolve.errors import counted
from csolve.logic import Board, Step, bits, vals

from .rules import KAKURO_SUM, MAX_SUM, combo_tables

_SHOWN = 6  # combinations named in a step before "..."


@functools.cache
def combinations_of(length: int, total: int) -> tuple[int, ...]:
    """Digit masks of the sets of ``length`` distinct digits adding up to ``total``."""
    if not 1 <= length <= 9 or not 1 <= total <= MAX_SUM:
        return ()
    offsets, masks = combo_tables()
    idx = length * (MAX_SUM + 1) + total
    return tuple(int(m) for m in masks[offsets[idx]:offsets[idx + 1]])


def _fits(cand: Sequence[int], skip: int, digits: int) -> bool:
    """The kernel's test: every cell but ``skip`` has one of ``digits``, every digit a cell."""
    seen = 0
    for k, x in enumerate(cand):
        if k == skip:
            continue
        x &= digits
        if not x:
            return False
        seen |= x
    return seen == digits


def support(cand: Sequence[int], combos: Sequence[int]) -> tuple[list[int], list[int]]:
    """(the combinations that fit the candidates, each cell's digits in one of them that the
    other cells can complete): the kernel's narrowing, in Python ints."""
    union = 0
    for x in cand:
        union |= x
    fitting = [d for d in combos if union & d == d and _fits(cand, -1, d)]
    sup = [0] * len(cand)
    for d in fitting:
        for k, x in enumerate(cand):
            for v in bits(x & d & ~sup[k]):
                bit = 1 << (v - 1)
                if _fits(cand, k, d & ~bit):
                    sup[k] |= bit
    return fitting, sup


def _sets(masks: Sequence[int]) -> str:
    shown = " ".join(vals(m) for m in masks[:_SHOWN])
    return shown + (f" ... ({len(masks)} in all)" if len(masks) > _SHOWN else "")


def no_combination(b: Board) -> Step | None:
    """The first run no combination fits any more (the placed digits and the candidates
    rule every one out), as a step that takes every value from its cells: the puzzle has no
    solution from here. The stepper looks for it before every step, so an explanation
    stops where the sums are broken instead of going on with singles that break them."""
    for g, cells, total in b.touched(KAKURO_SUM):
        cand = [b.cand[c] for c in cells]
        union = placed = 0
        for x in cand:
            union |= x
            if x and not x & (x - 1):
                placed |= x
        combos = combinations_of(len(cells), total)
        if any(union & d == d and _fits(cand, -1, d) for d in combos):
            continue
        removed = [(c, v) for c, x in zip(cells, cand, strict=True) for v in bits(x)]
        nb = b.namer
        with_placed = f", {vals(placed)} placed" if placed else ""
        return Step("kakuro-sum", removed=removed, cells=list(cells), values=bits(placed),
                    groups=[g], level="easy",
                    broken=f"no combination of {counted(len(cells), 'digit')} adding up "
                           f"to {total} fits {nb.group(g)}",
                    text=f"{nb.group(g)} (sum {total} in {len(cells)}{with_placed}): no "
                         f"combination fits, so its cells keep no value: "
                         f"{nb.losses(removed)}")
    return None


def kakuro_sum(b: Board) -> Iterator[Step]:
    """Runs whose combinations rule digits out: first those where the combinations that hold
    the run's placed digits suffice (easy), then those needing the candidates (medium)."""
    for easy in (True, False):
        for g, cells, total in b.tagged(KAKURO_SUM):
            cand = [b.cand[c] for c in cells]
            combos = combinations_of(len(cells), total)
            placed = 0
            for x in cand:
                if x and not x & (x - 1):
                    placed |= x
            if easy:
                used = [d for d in combos if d & placed == placed]
                union = 0
                for d in used:
                    union |= d
                keep = [x if not x & (x - 1) else x & union for x in cand]
            else:
                used, keep = support(cand, combos)
            removed = [(c, v) for c, x, k in zip(cells, cand, keep, strict=True)
                       for v in bits(x & ~k)]
            if not removed:
                continue
            nb = b.namer
            with_placed = f", {vals(placed)} placed" if placed else ""
            how = "combinations" if easy else "with the cells' candidates, only"
            text = (f"{nb.group(g)} (sum {total} in {len(cells)}{with_placed}): {how} "
                    f"{_sets(used) if used else '(none)'}{'' if easy else ' fit'}: "
                    f"{nb.losses(removed)}")
            yield Step("kakuro-sum", removed=removed, cells=list(cells),
                       values=bits(placed), groups=[g], text=text,
                       level="easy" if easy else "medium")


kakuro_sum.contradiction = no_combination  # type: ignore[attr-defined]
