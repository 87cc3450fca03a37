"""The propagation the search template is written against: elimination then hidden singles.

The composer (:mod:`csolve.kernels.compose`) replaces it with one that calls a model's rules.
"""


from csolve.kernels.alldiff import elimination, hidden_single
from csolve.kernels.bits import kernel
from csolve.kernels.state import CONTRADICTION, NO_CHANGE


@kernel
def propagate(cand, m, ws):
    while True:
        ws.counters[0] += 1
        r = elimination(cand, m, ws)
        if r == CONTRADICTION:
            return False
        if r != NO_CHANGE:
            continue
        r = hidden_single(cand, m, ws)
        if r == CONTRADICTION:
            return False
        if r != NO_CHANGE:
            continue
        return True
