"""Fish (X-wing, swordfish, jellyfish) across families of parallel groups.

Take k groups of one family (the base, e.g. rows) that must each hold value v, and suppose
v's candidates in them all lie in k groups of another family (the cover, e.g. columns). The
base groups are disjoint, so they place v k times, in k distinct cover groups - one in each,
since a cover group holds v at most once. So v leaves every other cell of the cover groups.
Families come from :meth:`csolve.model.ModelBuilder.add_group` (``family=``); a family's
groups are pairwise disjoint (the builder checks).
"""

import numpy as np

from csolve.kernels.bits import kernel, lowbit_index, popcount
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

_ONE = np.uint64(1)


@kernel(inline="always")
def group_in_family(m, c, f):
    """The group of family ``f`` that holds cell ``c``, or -1."""
    for k in range(m.cell_group_ptr[c], m.cell_group_ptr[c + 1]):
        g = m.cell_groups[k]
        if m.group_family[g] == f:
            return g
    return -1


@kernel(inline="always")
def _eliminate(cand, m, ws, fa, fb, covers, vb, g0, g1, g2, g3, k):
    """Remove ``vb`` from the cover groups (ranks in ``covers``) outside the base groups."""
    if np.int64(popcount(covers)) < k:
        return CONTRADICTION  # k disjoint groups must place v in fewer than k cover groups
    changed = NO_CHANGE
    base = m.family_ptr[fb]
    while covers:
        rk = np.int64(lowbit_index(covers))
        covers &= covers - _ONE
        cg = m.family_groups[base + rk]
        for p in range(m.group_ptr[cg], m.group_ptr[cg + 1]):
            c = m.group_cells[p]
            x = cand[c]
            if (x & vb) == 0:
                continue
            bg = group_in_family(m, c, fa)
            if bg == g0 or bg == g1 or bg == g2 or bg == g3:
                continue
            if narrow(cand, ws, c, x & ~vb) == CONTRADICTION:
                return CONTRADICTION
            changed = CHANGED
    return changed


@kernel
def _fish_value(cand, m, ws, fa, fb, v, k):
    """The first fish of ``k`` groups of family ``fa`` on value ``v`` that removes something."""
    gidx = ws.scratch_i64
    cov = ws.scratch_u64
    vb = _ONE << np.uint64(v)
    cnt = 0
    for i in range(m.family_ptr[fa], m.family_ptr[fa + 1]):
        g = m.family_groups[i]
        if (m.group_required[g] & vb) == 0 or (m.group_flags[g] & 1) == 0:
            continue
        mask = np.uint64(0)
        ok = True
        for p in range(m.group_ptr[g], m.group_ptr[g + 1]):
            c = m.group_cells[p]
            if cand[c] & vb:
                cg = group_in_family(m, c, fb)
                if cg < 0 or (m.group_flags[cg] & 1) == 0:
                    ok = False
                    break
                mask |= _ONE << np.uint64(m.group_rank[cg])
        pc = np.int64(popcount(mask))
        if ok and pc >= 2 and pc <= k:
            gidx[cnt] = g
            cov[cnt] = mask
            cnt += 1
    if cnt < k:
        return NO_CHANGE
    for a in range(cnt):
        for b in range(a + 1, cnt):
            ub = cov[a] | cov[b]
            if np.int64(popcount(ub)) > k:
                continue
            if k == 2:
                r = _eliminate(cand, m, ws, fa, fb, ub, vb, gidx[a], gidx[b], -1, -1, k)
                if r != NO_CHANGE:
                    return r
                continue
            for c in range(b + 1, cnt):
                uc = ub | cov[c]
                if np.int64(popcount(uc)) > k:
                    continue
                if k == 3:
                    r = _eliminate(cand, m, ws, fa, fb, uc, vb, gidx[a], gidx[b], gidx[c],
                                   -1, k)
                    if r != NO_CHANGE:
                        return r
                    continue
                for d in range(c + 1, cnt):
                    ud = uc | cov[d]
                    if np.int64(popcount(ud)) > k:
                        continue
                    r = _eliminate(cand, m, ws, fa, fb, ud, vb, gidx[a], gidx[b], gidx[c],
                                   gidx[d], k)
                    if r != NO_CHANGE:
                        return r
    return NO_CHANGE


@kernel
def fish(cand, m, ws, k):
    """Fish of exactly ``k`` base groups (2 X-wing, 3 swordfish, 4 jellyfish); a value is
    searched again after each change, so deductions use current candidates."""
    changed = NO_CHANGE
    n_fam = m.family_ptr.shape[0] - 1
    for fa in range(1, n_fam):
        for fb in range(1, n_fam):
            if fa == fb or m.family_ptr[fb + 1] - m.family_ptr[fb] > 64:
                continue
            for v in range(m.n_values):
                while True:
                    r = _fish_value(cand, m, ws, fa, fb, v, k)
                    if r == CONTRADICTION:
                        return CONTRADICTION
                    if r == NO_CHANGE:
                        break
                    changed = CHANGED
    return changed


@kernel
def x_wing(cand, m, ws):
    return fish(cand, m, ws, 2)


@kernel
def swordfish(cand, m, ws):
    return fish(cand, m, ws, 3)


@kernel
def jellyfish(cand, m, ws):
    return fish(cand, m, ws, 4)
