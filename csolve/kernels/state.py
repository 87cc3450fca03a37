"""Kernel-side helpers shared by every rule: narrowing a cell and queueing new singles.

A rule never writes ``cand[c]`` directly when it narrows a cell; it calls :func:`narrow`,
which detects an emptied cell (a contradiction) and queues a cell that became a single so
the elimination rule removes its value from the peers.
"""


from csolve.kernels.bits import is_single, kernel

CONTRADICTION = -1
NO_CHANGE = 0
CHANGED = 1


@kernel(inline="always")
def enqueue(ws, c):
    """Queue cell ``c`` (a new single) for elimination, once."""
    if ws.inq[c] == 0:
        ws.inq[c] = 1
        ws.queue[ws.qlen[0]] = c
        ws.qlen[0] += 1


@kernel(inline="always")
def narrow(cand, ws, c, new_mask):
    """Set cell ``c`` to ``new_mask`` (a subset of its mask).

    Returns CONTRADICTION if it became empty, CHANGED if it shrank, NO_CHANGE otherwise.
    """
    old = cand[c]
    if new_mask == old:
        return NO_CHANGE
    cand[c] = new_mask
    if new_mask == 0:
        return CONTRADICTION
    if is_single(new_mask):
        enqueue(ws, c)
    return CHANGED


@kernel
def clear_queue(ws):
    """Forget queued cells (after a contradiction, before the next node)."""
    for i in range(ws.qlen[0]):
        ws.inq[ws.queue[i]] = 0
    ws.qlen[0] = 0


@kernel
def enqueue_all_singles(cand, ws):
    """Queue every single: used for a root node, whose givens were never propagated."""
    for c in range(cand.shape[0]):
        if is_single(cand[c]):
            enqueue(ws, c)


@kernel(inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` without numba's runtime (slice assignment needs it)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]
