"""What every kernel module has on top of its search: the batch loop, clue reduction and
root propagation. Like the search template, this is source the composer compiles per rule
list; ``search`` here is the template's DFS or an engine's search with the same contract.
"""

from csolve.kernels.abi import (
    BUDGET,
    CTRL_CURRENT,
    CTRL_DONE,
    CTRL_GAVE_UP,
    CTRL_NODE_BUDGET,
    CTRL_SKIP,
    CTRL_STOP,
    EXHAUSTED,
    GAVE_UP,
    SKIPPED,
    STACK_FULL,
    STAT_CYCLES,
    STAT_NODES,
    STOPPED,
)
from csolve.kernels.bits import cycle_counter, kernel
from csolve.kernels.default_propagate import propagate  # <propagate>
from csolve.kernels.search_template import search  # <search>
from csolve.kernels.state import clear_queue, copy_into, enqueue_all_singles


@kernel
def propagate_root(cand, m, ws):
    """Propagate a state whose singles were never propagated; False on contradiction."""
    clear_queue(ws)
    enqueue_all_singles(cand, ws)
    ok = propagate(cand, m, ws)
    clear_queue(ws)
    return ok


@kernel
def solve_batch(m, ws, inits, start, limit, ctrl, stack, dirty, sp, nsol, first,
                out_reason, out_sol, out_count, out_stats):
    """Solve rows ``start..`` of ``inits`` (initial candidates of same-shaped puzzles) in one call.

    Writes per puzzle: why its search ended, its first solution, its solution count (up to
    ``limit``) and its counters; ``first`` (one row) is scratch for a solution.
    ``ctrl[CTRL_SKIP] == i + 1`` gives puzzle i up (a time-out
    set by a watching thread); ``ctrl[CTRL_NODE_BUDGET] > 0`` gives up any puzzle that
    takes more nodes (GAVE_UP, counted in ``ctrl[CTRL_GAVE_UP]``), so that the caller can
    hand it to a stronger engine; ``ctrl[CTRL_DONE]`` reports progress. Returns the index of
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
        budget = ctrl[CTRL_NODE_BUDGET]
        while True:
            step = 4096
            if budget > 0:
                step = max(1, min(step, budget - stats[STAT_NODES]))
            r = search(m, ws, stack, dirty, sp, ctrl, limit, False, step, first, nsol, stats)
            if r == BUDGET:
                if ctrl[CTRL_SKIP] == p + 1:
                    r = SKIPPED
                elif budget > 0 and stats[STAT_NODES] >= budget:
                    r = GAVE_UP
                    ctrl[CTRL_GAVE_UP] += 1
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
                 target, max_nodes, sols, nsol, stats):
    """Remove groups of clues, in order, while the puzzle keeps exactly one solution.

    A puzzle's clue ``c`` holds ``solution[c]`` (a single); a cell that is no clue holds
    ``free[c]`` (its domain in the empty puzzle). ``clue`` (uint8 per cell, 1 = clue) is
    updated in place. Removing a group is kept when, for each of its cells, the puzzle
    without the group and with that cell barred from its solution value has no solution:
    then the known solution is the only one. A refused group is never tried again: fewer
    clues can only allow more solutions. Stops after the last group, or once at most
    ``target`` clues are left among the groups' cells (cells in no group, such as Str8ts'
    black digits, are no clues to count; ``target`` <= 0: go on to a minimal puzzle).
    ``max_nodes`` > 0 bounds each check: a removal the search cannot settle within it is
    refused, so the puzzle stays unique but may keep a clue it could lose.
    Returns EXHAUSTED when done, STOPPED on ``ctrl[CTRL_STOP]``, STACK_FULL if ``stack``
    (which needs ``n_cells + 2`` rows) was too small.
    """
    n = free.shape[0]
    count = 0
    for k in range(group_cells.shape[0]):
        if clue[group_cells[k]] != 0:
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
            r = search(m, ws, stack, dirty, sp, ctrl, 1, False,
                       max_nodes if max_nodes > 0 else 1 << 62, sols, nsol, stats)
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
