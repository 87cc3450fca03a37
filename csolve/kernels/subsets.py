"""Naked and hidden subsets (sizes 2-4) in any all-different group.

Naked subset: k cells of a group whose candidates together hold only k values take those
values, so they leave the group's other cells (the twins and all three variants of the
triplets in Tarhini 2011 are the sizes 2 and 3 of this rule). Hidden subset: k values a
group must hold that fit in only k of its cells fill those cells, so the cells lose every
other value.
Kernels follow :mod:`csolve.kernels.alldiff`: no allocation, cells narrowed only by
:func:`narrow`, scratch space from the workspace.
"""

import numpy as np

from csolve.kernels.bits import kernel, lowbit_index, popcount
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

_ONE = np.uint64(1)


@kernel(inline="always")
def _take_naked(cand, m, ws, lo, hi, u, c0, c1, c2, c3, k):
    """Remove the values ``u`` of a naked subset (cells c0..c3) from the group's other cells."""
    if np.int64(popcount(u)) < k:
        return CONTRADICTION  # k cells, fewer than k values between them
    changed = NO_CHANGE
    for p in range(lo, hi):
        c = m.group_cells[p]
        if c == c0 or c == c1 or c == c2 or c == c3:
            continue
        x = cand[c]
        if x & u:
            if narrow(cand, ws, c, x & ~u) == CONTRADICTION:
                return CONTRADICTION
            changed = CHANGED
    return changed


@kernel
def _naked_group(cand, m, ws, lo, hi, k):
    """The first naked subset of ``k`` cells in one group that removes something."""
    idx = ws.scratch_i64
    cnt = 0
    for p in range(lo, hi):
        pc = np.int64(popcount(cand[m.group_cells[p]]))
        if pc >= 2 and pc <= k:
            idx[cnt] = m.group_cells[p]
            cnt += 1
    if cnt < k:
        return NO_CHANGE
    for a in range(cnt):
        ua = cand[idx[a]]
        for b in range(a + 1, cnt):
            ub = ua | cand[idx[b]]
            if np.int64(popcount(ub)) > k:
                continue
            if k == 2:
                r = _take_naked(cand, m, ws, lo, hi, ub, idx[a], idx[b], -1, -1, k)
                if r != NO_CHANGE:
                    return r
                continue
            for c in range(b + 1, cnt):
                uc = ub | cand[idx[c]]
                if np.int64(popcount(uc)) > k:
                    continue
                if k == 3:
                    r = _take_naked(cand, m, ws, lo, hi, uc, idx[a], idx[b], idx[c], -1, k)
                    if r != NO_CHANGE:
                        return r
                    continue
                for d in range(c + 1, cnt):
                    ud = uc | cand[idx[d]]
                    if np.int64(popcount(ud)) > k:
                        continue
                    r = _take_naked(cand, m, ws, lo, hi, ud, idx[a], idx[b], idx[c], idx[d], k)
                    if r != NO_CHANGE:
                        return r
    return NO_CHANGE


@kernel
def naked_subsets(cand, m, ws, k):
    """Naked subsets of exactly ``k`` cells (2..4) in every all-different group.

    A group is searched again after each change, so every deduction is made from current
    candidates (the step-by-step explainer finds the same ones).
    """
    changed = NO_CHANGE
    for g in range(m.group_ptr.shape[0] - 1):
        if (m.group_flags[g] & 1) == 0:
            continue
        while True:
            r = _naked_group(cand, m, ws, m.group_ptr[g], m.group_ptr[g + 1], k)
            if r == CONTRADICTION:
                return CONTRADICTION
            if r == NO_CHANGE:
                break
            changed = CHANGED
    return changed


@kernel(inline="always")
def _take_hidden(cand, m, ws, lo, pos, vals, k):
    """Restrict the cells at positions ``pos`` of the group to the subset's values ``vals``."""
    if np.int64(popcount(pos)) < k:
        return CONTRADICTION  # k required values, fewer than k places for them
    changed = NO_CHANGE
    while pos:
        p = np.int64(lowbit_index(pos))
        pos &= pos - _ONE
        c = m.group_cells[lo + p]
        x = cand[c]
        if x & ~vals:
            if narrow(cand, ws, c, x & vals) == CONTRADICTION:
                return CONTRADICTION
            changed = CHANGED
    return changed


@kernel
def _hidden_group(cand, m, ws, lo, hi, req, k):
    """The first hidden subset of ``k`` values in one group that removes something."""
    vidx = ws.scratch_i64
    posm = ws.scratch_u64
    cnt = 0
    r = req
    while r:
        v = np.int64(lowbit_index(r))
        r &= r - _ONE
        vb = _ONE << np.uint64(v)
        pos = np.uint64(0)
        for p in range(lo, hi):
            if cand[m.group_cells[p]] & vb:
                pos |= _ONE << np.uint64(p - lo)
        pc = np.int64(popcount(pos))
        if pc >= 2 and pc <= k:
            vidx[cnt] = v
            posm[cnt] = pos
            cnt += 1
    if cnt < k:
        return NO_CHANGE
    for a in range(cnt):
        pa = posm[a]
        va = _ONE << np.uint64(vidx[a])
        for b in range(a + 1, cnt):
            pb = pa | posm[b]
            if np.int64(popcount(pb)) > k:
                continue
            vb = va | (_ONE << np.uint64(vidx[b]))
            if k == 2:
                rr = _take_hidden(cand, m, ws, lo, pb, vb, k)
                if rr != NO_CHANGE:
                    return rr
                continue
            for c in range(b + 1, cnt):
                pc3 = pb | posm[c]
                if np.int64(popcount(pc3)) > k:
                    continue
                vc = vb | (_ONE << np.uint64(vidx[c]))
                if k == 3:
                    rr = _take_hidden(cand, m, ws, lo, pc3, vc, k)
                    if rr != NO_CHANGE:
                        return rr
                    continue
                for d in range(c + 1, cnt):
                    pd = pc3 | posm[d]
                    if np.int64(popcount(pd)) > k:
                        continue
                    vd = vc | (_ONE << np.uint64(vidx[d]))
                    rr = _take_hidden(cand, m, ws, lo, pd, vd, k)
                    if rr != NO_CHANGE:
                        return rr
    return NO_CHANGE


@kernel
def hidden_subsets(cand, m, ws, k):
    """Hidden subsets of exactly ``k`` values (2..4) in every all-different group that
    requires them (groups of at most 64 cells); a group is searched again after a change."""
    changed = NO_CHANGE
    for g in range(m.group_ptr.shape[0] - 1):
        req = m.group_required[g]
        if req == 0 or (m.group_flags[g] & 1) == 0:
            continue
        lo = m.group_ptr[g]
        hi = m.group_ptr[g + 1]
        if hi - lo > 64:
            continue
        while True:
            r = _hidden_group(cand, m, ws, lo, hi, req, k)
            if r == CONTRADICTION:
                return CONTRADICTION
            if r == NO_CHANGE:
                break
            changed = CHANGED
    return changed


@kernel
def naked_pair(cand, m, ws):
    """Twins: two cells of a group whose candidates hold two values between them."""
    return naked_subsets(cand, m, ws, 2)


@kernel
def naked_triple(cand, m, ws):
    """Triplets (all three variants of Tarhini 2011): three cells holding three values."""
    return naked_subsets(cand, m, ws, 3)


@kernel
def naked_quad(cand, m, ws):
    return naked_subsets(cand, m, ws, 4)


@kernel
def hidden_pair(cand, m, ws):
    return hidden_subsets(cand, m, ws, 2)


@kernel
def hidden_triple(cand, m, ws):
    return hidden_subsets(cand, m, ws, 3)


@kernel
def hidden_quad(cand, m, ws):
    return hidden_subsets(cand, m, ws, 4)
