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
    CTRL_CURRENT,
    CTRL_DONE,
    CTRL_SKIP,
    CTRL_STOP,
    CTRL_WANT_WORK,
    EXHAUSTED,
    LIMIT,
    SKIPPED,
    SOLUTIONS_FULL,
    STACK_FULL,
    STAT_BACKTRACKS,
    STAT_CYCLES,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PASSES,
    STAT_SOLUTIONS,
    STOPPED,
    WORK_REQUESTED,
)
from csolve.kernels.bits import cycle_counter, is_single, kernel, popcount
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
def propagate_root(cand, m, ws):
    """Propagate a state whose singles were never propagated; False on contradiction."""
    clear_queue(ws)
    enqueue_all_singles(cand, ws)
    ok = propagate(cand, m, ws)
    clear_queue(ws)
    return ok


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


@kernel
def solve_batch(m, ws, inits, start, limit, ctrl, stack, dirty, sp, nsol, first,
                out_reason, out_sol, out_count, out_stats):
    """Solve rows ``start..`` of ``inits`` (initial candidates of same-shaped puzzles) in one call.

    Writes per puzzle: why its search ended, its first solution, its solution count (up to
    ``limit``) and its counters; ``first`` (one row) is scratch for a solution.
    ``ctrl[CTRL_SKIP] == i + 1`` gives puzzle i up (a time-out
    set by a watching thread); ``ctrl[CTRL_DONE]`` reports progress. Returns the index of
    the first puzzle not finished: ``len(inits)`` when all are done; otherwise that puzzle's
    reason is STACK_FULL (grow ``stack`` and call again from there) or STOPPED.
    """
    n_puzzles = inits.shape[0]
    for p in range(start, n_puzzles):
        if ctrl[CTRL_STOP] != 0:
            out_reason[p] = STOPPED
            return p
        ctrl[CTRL_CURRENT] = p
        t0 = cycle_counter()
        copy_into(stack[0], inits[p])
        dirty[0] = -1
        sp[0] = 1
        nsol[0] = 0
        stats = out_stats[p]
        for i in range(stats.shape[0]):
            stats[i] = 0
        while True:
            r = search(m, ws, stack, dirty, sp, ctrl, limit, False, 4096, first, nsol, stats)
            if r == BUDGET:
                if ctrl[CTRL_SKIP] == p + 1:
                    r = SKIPPED
                else:
                    continue
            break
        clear_queue(ws)
        out_reason[p] = r
        out_count[p] = nsol[0]
        if nsol[0] > 0:
            copy_into(out_sol[p], first[0])
        stats[STAT_CYCLES] = cycle_counter() - t0
        if r == STACK_FULL or r == STOPPED:
            return p
        ctrl[CTRL_DONE] = p + 1
    return n_puzzles


@kernel
def reduce_clues(m, ws, stack, dirty, sp, ctrl, free, solution, clue, group_ptr, group_cells,
                 target, sols, nsol, stats):
    """Remove groups of clues, in order, while the puzzle keeps exactly one solution.

    A puzzle's clue ``c`` holds ``solution[c]`` (a single); a cell that is no clue holds
    ``free[c]`` (its domain in the empty puzzle). ``clue`` (uint8 per cell, 1 = clue) is
    updated in place. Removing a group is kept when, for each of its cells, the puzzle
    without the group and with that cell barred from its solution value has no solution:
    then the known solution is the only one. A refused group is never tried again: fewer
    clues can only allow more solutions. Stops after the last group, or once at most
    ``target`` clues are left (``target`` <= 0: go on to a minimal puzzle).
    Returns EXHAUSTED when done, STOPPED on ``ctrl[CTRL_STOP]``, STACK_FULL if ``stack``
    (which needs ``n_cells + 2`` rows) was too small.
    """
    n = free.shape[0]
    count = 0
    for c in range(n):
        if clue[c] != 0:
            count += 1
    for g in range(group_ptr.shape[0] - 1):
        if target > 0 and count <= target:
            break
        if ctrl[CTRL_STOP] != 0:
            return STOPPED
        lo = group_ptr[g]
        hi = group_ptr[g + 1]
        present = True
        for k in range(lo, hi):
            if clue[group_cells[k]] == 0:
                present = False
        if not present:
            continue
        for k in range(lo, hi):
            clue[group_cells[k]] = 0
        unique = True
        for k in range(lo, hi):
            x = group_cells[k]
            for i in range(n):
                stack[0, i] = solution[i] if clue[i] != 0 else free[i]
            stack[0, x] = free[x] & ~solution[x]
            dirty[0] = -1
            sp[0] = 1
            nsol[0] = 0
            r = search(m, ws, stack, dirty, sp, ctrl, 1, False, 1 << 62, sols, nsol, stats)
            clear_queue(ws)
            if r == EXHAUSTED:
                continue
            unique = False
            if r == STOPPED or r == STACK_FULL:
                for j in range(lo, hi):
                    clue[group_cells[j]] = 1
                return r
            break
        if unique:
            count -= hi - lo
        else:
            for k in range(lo, hi):
                clue[group_cells[k]] = 1
    return EXHAUSTED
