"""Sudoku's own rules, registered through the same rule hook as the core's.

XY-wing: a pivot cell {a,b} sees two pincers {a,c} and {b,c}. Whichever value the pivot
takes, one pincer is c, so c leaves every cell that sees both pincers. Written over the
model's peer lists, so it follows the kernel rules of :mod:`csolve.kernels.alldiff`.
"""

import numpy as np

from csolve.kernels.bits import kernel, popcount
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

_TWO = np.uint64(2)


@kernel(inline="always")
def is_peer(m, a, b):
    for k in range(m.peer_ptr[a], m.peer_ptr[a + 1]):
        if m.peers[k] == b:
            return True
    return False


@kernel
def xy_wing(cand, m, ws):
    changed = NO_CHANGE
    for p in range(cand.shape[0]):
        x = cand[p]
        if popcount(x) != _TWO:
            continue
        for i in range(m.peer_ptr[p], m.peer_ptr[p + 1]):
            q1 = m.peers[i]
            y = cand[q1]
            if popcount(y) != _TWO or popcount(y & x) != np.uint64(1):
                continue
            cbit = y & ~x
            want = (x & ~y) | cbit  # the other pincer: {b, c}
            for j in range(m.peer_ptr[p], m.peer_ptr[p + 1]):
                q2 = m.peers[j]
                if cand[q2] != want or q2 == q1:
                    continue
                for t in range(m.peer_ptr[q1], m.peer_ptr[q1 + 1]):
                    c = m.peers[t]
                    if c == q2 or c == p or (cand[c] & cbit) == 0:
                        continue
                    if is_peer(m, q2, c):
                        if narrow(cand, ws, c, cand[c] & ~cbit) == CONTRADICTION:
                            return CONTRADICTION
                        changed = CHANGED
    return changed
