"""The search: propagate, then branch on the cell with the fewest candidates - no recursion.

Norvig's algorithm, kept as readable as it can be in a kernel:

    state = pop()                      # from an explicit stack of unexplored states
    if not propagate(state): continue  # contradiction: backtrack
    cell = fewest_candidates(state)    # MRV; none left open -> a solution
    v = smallest value of cell
    push(state with v removed from cell)   # the alternative, explored later
    state[cell] = v; go on with state       # the guess, explored now

The stack lives in caller-owned arrays, so a call can return at any time (a budget of nodes,
a stop or work request in ``ctrl``) and be resumed, or its nodes handed to another worker:
the bottom of the stack holds the nodes nearest the root. This file is a template: the
composer swaps the ``propagate`` import for the rules a model lists and compiles a module
per rule list (cached on disk).
"""

import numpy as np

from csolve.kernels.abi import (
    BUDGET,
    CTRL_STOP,
    CTRL_WANT_WORK,
    EXHAUSTED,
    LIMIT,
    SOLUTIONS_FULL,
    STACK_FULL,
    STAT_BACKTRACKS,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PASSES,
    STAT_SOLUTIONS,
    STOPPED,
    WORK_REQUESTED,
)
from csolve.kernels.bits import is_single, kernel, popcount
from csolve.kernels.default_propagate import propagate  # <propagate>
from csolve.kernels.state import clear_queue, copy_into, enqueue, enqueue_all_singles


@kernel
def fewest_candidates(cand):
    """The open cell with the fewest candidates (first on ties), or -1 if none is open."""
    best = -1
    best_count = 65
    for c in range(cand.shape[0]):
        k = popcount(cand[c])
        if 1 < k < best_count:
            best = c
            best_count = k
            if k == 2:
                break
    return best


@kernel
def search(m, ws, stack, dirty, sp, ctrl, limit, stream, max_nodes, sols, nsol, stats):
    """Explore the states on ``stack[:sp[0]]`` depth-first; return a code from ``abi``.

    ``dirty[i]``: the cell that changed in ``stack[i]`` since its parent's fixpoint, or -1
    when every single must be propagated. Solutions are written to ``sols`` while it has
    room and counted in ``nsol[0]``; ``limit`` > 0 stops at that many; ``stream`` returns
    SOLUTIONS_FULL when ``sols`` is full.
    """
    cap = stack.shape[0]
    cur = ws.cur
    counters = ws.counters
    nodes = 0
    live = False
    c = -1
    while True:
        if not live:
            if sp[0] == 0:
                return EXHAUSTED
            if ctrl[CTRL_STOP] != 0:
                return STOPPED
            if nodes >= max_nodes:
                return BUDGET
            if ctrl[CTRL_WANT_WORK] != 0 and sp[0] >= 2:
                return WORK_REQUESTED
            sp[0] -= 1
            top = sp[0]
            copy_into(cur, stack[top])
            clear_queue(ws)
            d = dirty[top]
            if d < 0:
                enqueue_all_singles(cur, ws)
            elif is_single(cur[d]):
                enqueue(ws, d)
            live = True
        nodes += 1
        stats[STAT_NODES] += 1
        before = counters[0]
        ok = propagate(cur, m, ws)
        stats[STAT_PASSES] += counters[0] - before
        if not ok:
            live = False
            stats[STAT_BACKTRACKS] += 1
            continue
        c = fewest_candidates(cur)
        if c < 0:
            k = nsol[0]
            if k < sols.shape[0]:
                copy_into(sols[k], cur)
            nsol[0] = k + 1
            stats[STAT_SOLUTIONS] += 1
            live = False
            if limit > 0 and nsol[0] >= limit:
                return LIMIT
            if stream and nsol[0] >= sols.shape[0]:
                return SOLUTIONS_FULL
            continue
        x = cur[c]
        v = x & (~x + np.uint64(1))
        if sp[0] + 2 > cap:
            copy_into(stack[sp[0]], cur)
            dirty[sp[0]] = -1
            sp[0] += 1
            clear_queue(ws)
            return STACK_FULL
        top = sp[0]
        copy_into(stack[top], cur)
        stack[top, c] = x & ~v
        dirty[top] = c
        sp[0] = top + 1
        cur[c] = v
        enqueue(ws, c)
        stats[STAT_GUESSES] += 1
        if ctrl[CTRL_STOP] != 0 or ctrl[CTRL_WANT_WORK] != 0 or nodes >= max_nodes:
            # hand the guess back as a node, so the stack alone holds the whole search
            copy_into(stack[sp[0]], cur)
            dirty[sp[0]] = c
            sp[0] += 1
            clear_queue(ws)
            if ctrl[CTRL_STOP] != 0:
                return STOPPED
            if ctrl[CTRL_WANT_WORK] != 0:
                return WORK_REQUESTED
            return BUDGET
