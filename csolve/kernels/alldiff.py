"""Generic all-different rules, usable by any puzzle whose model has all-different groups.

Each rule has the signature ``rule(cand, m, ws) -> int`` over the candidate masks ``cand``,
the model arrays ``m`` (:class:`csolve.model.KernelModel`) and the workspace ``ws``, and
returns CONTRADICTION, NO_CHANGE or CHANGED (see :mod:`csolve.kernels.state`).
"""


from csolve.kernels.bits import kernel
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, enqueue, narrow


@kernel
def elimination(cand, m, ws):
    """Naked single: remove each single's value from its peers, following the chain to a fixpoint.

    It drains the queue of new singles itself, so it reports NO_CHANGE once done: nothing it
    did can enable itself again.
    """
    q = ws.queue
    head = 0
    while head < ws.qlen[0]:
        c = q[head]
        head += 1
        ws.inq[c] = 0
        v = cand[c]
        if v == 0:
            return CONTRADICTION
        for k in range(m.peer_ptr[c], m.peer_ptr[c + 1]):
            p = m.peers[k]
            pm = cand[p]
            nm = pm & ~v
            cand[p] = nm
            # branch only on the rare event: the peer just became a single (or empty)
            if (nm != pm) & ((nm & (nm - 1)) == 0):
                if nm == 0:
                    return CONTRADICTION
                if ws.inq[p] == 0:
                    ws.inq[p] = 1
                    q[ws.qlen[0]] = p
                    ws.qlen[0] += 1
        # compact the queue when fully consumed so it never overflows
        if head == ws.qlen[0]:
            ws.qlen[0] = 0
            head = 0
    return NO_CHANGE


@kernel
def hidden_single(cand, m, ws):
    """Lone ranger: a value a group must hold, with one place left in it, goes there.

    Also prunes a state where a required value has no place left in a group.
    """
    changed = NO_CHANGE
    for g in range(m.group_ptr.shape[0] - 1):
        req = m.group_required[g]
        if req == 0:
            continue
        lo = m.group_ptr[g]
        hi = m.group_ptr[g + 1]
        once = cand.dtype.type(0)
        twice = cand.dtype.type(0)
        for k in range(lo, hi):
            x = cand[m.group_cells[k]]
            twice |= once & x
            once |= x
        if (once & req) != req:
            return CONTRADICTION
        lone = once & ~twice & req
        if lone == 0:
            continue
        for k in range(lo, hi):
            c = m.group_cells[k]
            x = cand[c]
            hit = x & lone
            if hit == 0:
                continue
            if hit & (hit - 1):
                return CONTRADICTION  # two values whose only place is this one cell
            if x != hit:
                cand[c] = hit
                enqueue(ws, c)
                changed = CHANGED
    return changed


@kernel
def locked_candidates(cand, m, ws):
    """Pointing / box-line reduction between any two overlapping groups A and B.

    If a value A must hold can only sit in A∩B, it is removed from B outside A (and the
    same the other way round). The overlapping pairs are precomputed by the model builder.
    """
    changed = NO_CHANGE
    for o in range(m.ov_groups.shape[0]):
        inter = cand.dtype.type(0)
        for k in range(m.ov_inter_ptr[o], m.ov_inter_ptr[o + 1]):
            inter |= cand[m.ov_inter[k]]
        rest_a = cand.dtype.type(0)
        for k in range(m.ov_a_ptr[o], m.ov_a_ptr[o + 1]):
            rest_a |= cand[m.ov_a[k]]
        rest_b = cand.dtype.type(0)
        for k in range(m.ov_b_ptr[o], m.ov_b_ptr[o + 1]):
            rest_b |= cand[m.ov_b[k]]
        # values A needs that only fit in the intersection -> not elsewhere in B
        only_a = inter & m.group_required[m.ov_groups[o, 0]] & ~rest_a & rest_b
        if only_a:
            for k in range(m.ov_b_ptr[o], m.ov_b_ptr[o + 1]):
                c = m.ov_b[k]
                r = narrow(cand, ws, c, cand[c] & ~only_a)
                if r == CONTRADICTION:
                    return CONTRADICTION
                if r == CHANGED:
                    changed = CHANGED
            rest_b &= ~only_a
        only_b = inter & m.group_required[m.ov_groups[o, 1]] & ~rest_b & rest_a
        if only_b:
            for k in range(m.ov_a_ptr[o], m.ov_a_ptr[o + 1]):
                c = m.ov_a[k]
                r = narrow(cand, ws, c, cand[c] & ~only_b)
                if r == CONTRADICTION:
                    return CONTRADICTION
                if r == CHANGED:
                    changed = CHANGED
    return changed

