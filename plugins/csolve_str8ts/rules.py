"""The Str8ts straight rule: a numba kernel over compartments (groups tagged ``STRAIGHT``).

A compartment of length L holds L consecutive values: a window ``a..a+L-1``. A window is
possible when it contains every value fixed in the compartment, every cell has a candidate
in it and every value of it has a cell. Cells keep only values of possible windows; values
in every possible window must be in the compartment, so they leave the rest of its row or
column (the group whose index is the compartment's ``param``), and one with a single place
in the compartment goes there.
"""

import numpy as np

from csolve.kernels.bits import is_single, kernel
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

#: group tag of a compartment; ``param`` is the index of its row or column group
STRAIGHT = 0x5354  # "ST"


@kernel(inline="always")
def _in_range(cells, lo, hi, c):
    for k in range(lo, hi):
        if cells[k] == c:
            return True
    return False


@kernel
def straight(cand, m, ws):
    """Narrow every compartment to the windows of consecutive values it can still hold."""
    changed = NO_CHANGE
    one = np.uint64(1)
    zero = one ^ one
    cells = m.group_cells
    n = m.n_values
    for g in range(m.group_ptr.shape[0] - 1):
        if m.group_tag[g] != STRAIGHT:
            continue
        lo = m.group_ptr[g]
        hi = m.group_ptr[g + 1]
        length = hi - lo
        union = zero
        fixed = zero
        for k in range(lo, hi):
            x = cand[cells[k]]
            union |= x
            if is_single(x):
                fixed |= x
        span = (one << np.uint64(length)) - one
        allowed = zero
        must = ~zero
        for a in range(n - length + 1):
            w = span << np.uint64(a)
            if (fixed & ~w) != 0 or (union & w) != w:
                continue
            ok = True
            for k in range(lo, hi):
                if cand[cells[k]] & w == 0:
                    ok = False
                    break
            if ok:
                allowed |= w
                must &= w
        if allowed == 0:
            return CONTRADICTION
        for k in range(lo, hi):
            c = cells[k]
            r = narrow(cand, ws, c, cand[c] & allowed)
            if r == CONTRADICTION:
                return CONTRADICTION
            if r == CHANGED:
                changed = CHANGED
        # values every window holds: a lone place in the compartment, none outside it
        once = zero
        twice = zero
        for k in range(lo, hi):
            x = cand[cells[k]]
            twice |= once & x
            once |= x
        if (once & must) != must:
            return CONTRADICTION
        lone = once & ~twice & must
        if lone != 0:
            for k in range(lo, hi):
                c = cells[k]
                hit = cand[c] & lone
                if hit != 0 and hit != cand[c]:
                    if not is_single(hit):
                        return CONTRADICTION
                    r = narrow(cand, ws, c, hit)
                    if r == CONTRADICTION:
                        return CONTRADICTION
                    changed = CHANGED
        line = m.group_param[g]
        for k in range(m.group_ptr[line], m.group_ptr[line + 1]):
            c = cells[k]
            if cand[c] & must == 0 or _in_range(cells, lo, hi, c):
                continue
            r = narrow(cand, ws, c, cand[c] & ~must)
            if r == CONTRADICTION:
                return CONTRADICTION
            changed = CHANGED
    return changed
