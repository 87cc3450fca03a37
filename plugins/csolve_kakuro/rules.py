"""The Kakuro sum rule: a numba kernel over the runs (groups tagged ``KAKURO_SUM``).

A run of length L with sum s holds one of the sets of L distinct digits 1..9 adding up to s.
Those sets are tabulated once (``combo_tables``) and passed to the kernel in the model's
free arrays: ``aux_u64`` holds every set as a digit mask, ``aux_i64[L * 46 + s]`` and
``aux_i64[L * 46 + s + 1]`` bound the sets of length L and sum s.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from csolve.kernels.bits import kernel
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

#: group tag of a run; ``param`` is its sum
KAKURO_SUM = 0x4B53  # "KS"
MAX_SUM = 45
_STRIDE = MAX_SUM + 1


@cache
def combo_tables() -> tuple[np.ndarray, np.ndarray]:
    """(offsets, masks): every set of distinct digits, grouped by (length, sum)."""
    buckets: dict[tuple[int, int], list[int]] = {}
    for length in range(1, 10):
        for digits in combinations(range(1, 10), length):
            mask = 0
            for d in digits:
                mask |= 1 << (d - 1)
            buckets.setdefault((length, sum(digits)), []).append(mask)
    offsets = np.zeros(10 * _STRIDE + 1, dtype=np.int64)
    masks: list[int] = []
    for idx in range(10 * _STRIDE):
        offsets[idx] = len(masks)
        masks.extend(buckets.get(divmod(idx, _STRIDE), []))
    offsets[-1] = len(masks)
    return offsets, np.array(masks, dtype=np.uint64)


@kernel(inline="always")
def _fits(cand, cells, lo, hi, skip, digits):
    """Can cells[lo:hi] except ``skip`` take exactly ``digits``? (each cell has one of them
    and each digit has a cell: necessary for a matching, and cheap)"""
    seen = digits & np.uint64(0)
    for k in range(lo, hi):
        if k == skip:
            continue
        x = cand[cells[k]] & digits
        if x == 0:
            return False
        seen |= x
    return seen == digits


@kernel
def kakuro_sum(cand, m, ws):
    """Keep in each run's cells only digits of a digit set with the run's length and sum
    that the other cells can complete (each set checked against the current candidates)."""
    changed = NO_CHANGE
    sup = ws.scratch_u64
    one = np.uint64(1)
    cells = m.group_cells
    for g in range(m.group_ptr.shape[0] - 1):
        if m.group_tag[g] != KAKURO_SUM:
            continue
        lo = m.group_ptr[g]
        hi = m.group_ptr[g + 1]
        length = hi - lo
        total = m.group_param[g]
        if total < 1 or total > MAX_SUM or length > 9:
            return CONTRADICTION
        idx = length * _STRIDE + total
        a = m.aux_i64[idx]
        b = m.aux_i64[idx + 1]
        union = one ^ one
        for k in range(lo, hi):
            sup[k - lo] = one ^ one
            union |= cand[cells[k]]
        for t in range(a, b):
            digits = m.aux_u64[t]
            if (union & digits) != digits:
                continue
            if not _fits(cand, cells, lo, hi, -1, digits):
                continue
            for k in range(lo, hi):
                todo = cand[cells[k]] & digits & ~sup[k - lo]
                while todo != 0:
                    bit = todo & (~todo + one)
                    todo ^= bit
                    if _fits(cand, cells, lo, hi, k, digits & ~bit):
                        sup[k - lo] |= bit
        for k in range(lo, hi):
            c = cells[k]
            r = narrow(cand, ws, c, cand[c] & sup[k - lo])
            if r == CONTRADICTION:
                return CONTRADICTION
            if r == CHANGED:
                changed = CHANGED
    return changed
