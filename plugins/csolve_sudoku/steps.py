"""Step-by-step form of Sudoku's own tactics, for explanations and grading."""

from __future__ import annotations

from collections.abc import Iterator

from csolve.logic import Board, Step, bits


def xy_wing(b: Board) -> Iterator[Step]:
    """The same deduction as :func:`csolve_sudoku.kernels.xy_wing`, one at a time."""
    cand = b.cand
    for p, x in enumerate(cand):
        if x.bit_count() != 2:
            continue
        for q1 in b.peers[p]:
            y = cand[q1]
            if y.bit_count() != 2 or (y & x).bit_count() != 1:
                continue
            cbit = y & ~x
            want = (x & ~y) | cbit
            for q2 in b.peers[p]:
                if q2 == q1 or cand[q2] != want:
                    continue
                seen2 = set(b.peers[q2])
                targets = [c for c in b.peers[q1]
                           if c not in (p, q2) and cand[c] & cbit and c in seen2]
                if targets:
                    v = bits(cbit)[0]
                    nb = b.namer
                    removed = [(c, v) for c in targets]
                    yield Step("xy-wing", removed=removed, cells=[p, q1, q2],
                               values=bits(x | cbit),
                               text=f"XY-wing: pivot {nb.cell(p)} {nb.values(x)} with pincers "
                                    f"{nb.cell(q1)} {nb.values(y)} and {nb.cell(q2)} "
                                    f"{nb.values(want)}; "
                                    f"removes {nb.removals(removed)}")
