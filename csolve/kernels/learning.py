"""The ``learning`` engine: conflict-driven clause learning (CDCL) over all-different models.

Depth-first search forgets why a branch failed, so on puzzles whose dead ends share a cause
(Frisch's minimal 25x25 Sudokus) it meets the same contradiction millions of times. This
engine learns a clause from every contradiction, the way SAT solvers do:

    literal x[c, v]: "cell c holds value v"; a search state fixes some of them
    propagate: a learned clause with one literal left makes it true; a true x[c, v] makes
               every other value of c and v in every peer of c false; a cell with one value
               left, or a required value with one place left in a group, becomes true (each
               literal taken off the trail visits its learned clauses first, then the model)
    conflict:  find the first cut of the implication graph (first UIP), learn its clause,
               jump back to the second-highest level in it and assert its last literal
    shrink:    replace the clause's literals of one decision level by a single literal of
               that level they all follow from (its block UIP), where that needs nothing
               the clause does not already imply (as CaDiCaL's "shrink" does)
    decide:    in focused mode as depth-first search does: the cell with the fewest values
               left, and in it the value it last held, else its most active one; in
               stable mode the unassigned literal of highest activity (VSIDS), with its
               last value (the activity heap is kept up in stable mode only, and built
               afresh when it starts)
    modes:     focused and stable in turn, each twice as long as the one before (as in
               CaDiCaL), but stable first, after the descent to the first conflict: stable
               mode does better on the hardest 25x25 puzzles (benchmarks/README.md).
               Focused restarts when recent clauses' LBD (glue) runs high against the
               long-run average; stable restarts rarely (reluctant doubling) and decides
               towards the target, the longest conflict-free assignment seen lately
    rephase:   now and then the saved values are reset: to the best assignment ever, to
               all false, to all true
    reduce:    now and then most learned clauses go, as in CaDiCaL: glue <= 2 stays, a clause
               used in an analysis lives on (through two reductions at glue <= 6), and of
               the rest the three quarters of highest glue go; a used clause's glue is
               recomputed and only ever lowered
    subsume:   a new clause is checked against the latest learned ones, and those it
               subsumes (every literal of it is in them) go, as CaDiCaL's eager subsumption

The problem's clauses are never stored: "one value per cell" and "each value once per
group" are the model's masks, updated with the assignment; only learned clauses live in the
clause arena, each behind a short header (its size, its number, and where the last search
for a new watch stopped), with two watched literals. A literal's watches lie side by side
in one pool, each the clause's place in the arena and a blocking literal, so the watch
loop reads a list in order and goes straight to the clause, as MiniSat and CaDiCaL lay
theirs out. A reason is a (kind, data) pair the analysis expands on demand. Learned clauses
are minimized recursively, each variable judged once per clause.

Contract with the core (the same as :func:`csolve.kernels.search_template.search`): the
engine pops a node (one candidate mask per cell) and returns in bounded time. Its memory -
trail, clause arena, activities - lives in the workspace's scratch arrays and survives
between calls: a node handed back unfinished is resumed where it stopped when it comes
back, and any node inside the one the clauses were learned for (every child below) starts
with those clauses. A solution ends its node: the rest of the node, split on the
solution's decisions (``N∧¬d1``, ``N∧d1∧¬d2``, ...), goes back on the stack as ordinary
nodes, so counting, ``--all`` and work sharing lose and repeat nothing.
"""

from collections import namedtuple

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
from csolve.kernels.bits import intrinsic, kernel, lowbit_index, popcount

# reason kinds: why a literal holds (data says which clause of that kind)
NONE, CELL, GROUP, PAIR, LEARNT = 0, 1, 2, 3, 4
KIND_SHIFT = 40
# a watch: its clause's start in the arena above W_SHIFT, its blocking literal below
W_SHIFT = 32
W_MASK = (1 << W_SHIFT) - 1
# a learned clause in the arena: a header of HDR words, then its literals from its start
# ``st``: its size at st - H_SIZE, where the last search for a watch stopped (counted from
# st) at st - H_POS, its number (-1 once retired) at st - H_NUM
HDR = 3
H_SIZE, H_POS, H_NUM = 3, 2, 1

# scalar slots in ``s.sc``
TRAIL, QHEAD, LEVEL, NCLAUSES, ARENA_LEN, CONFLICTS, HEAP, STAMP = 0, 1, 2, 3, 4, 5, 6, 7
NEXT_REDUCE, REDUCES, CONFL_VAR, MODE, VAR_INC, EMA_FAST, EMA_SLOW, SINCE = (
    8, 9, 10, 11, 12, 13, 14, 15)
NASSUME = 16
# stable/focused modes, target and best phases, rephasing
NO_CONFLICT, TARGET_N, BEST_N, STABLE, SWITCH_AT, SWITCH_LEN, RESTART_AT, LUBY_U, LUBY_V = (
    17, 18, 19, 20, 21, 22, 23, 24, 25)
REPHASE_AT, REPHASES = 26, 27
SHRUNK = 28  # literals that shrinking took out of learned clauses
SUBSUMED = 29  # learned clauses that a newer one subsumed, and that went
W_TOP = 30  # the watch pool's first free word
PACKED = 31  # times the watch lists filled the pool and were packed afresh
SC_SIZE = 32

# MODE: what the memory holds
EMPTY = 0  # nothing usable
CLAUSES = 1  # clauses learned for ``root``; level 0 holds root's facts
RUNNING = 2  # and a search of ``node`` (inside root) is under way

ACT_LIMIT = 1 << 56
REDUCE_FIRST = 2000
REDUCE_STEP = 300
TIER1 = 2  # learned clauses of glue up to this are kept for good
TIER2 = 6  # and those up to this, once used, survive two reductions instead of one
REDUCE_PERCENT = 75  # of the clauses neither kept nor used lately, the share a reduction drops
SWITCH_FIRST = 1  # conflicts in the first focused mode: its descent to the first conflict
STABLE_FIRST = 1000  # conflicts in the first stable mode; each mode after lasts twice as long
LUBY_UNIT = 1024  # conflicts per unit of the stable mode's restart sequence
REPHASE_STEP = 1000
EAGER_SUBSUME = 100  # how many of the latest learned clauses a new one is checked against

State = namedtuple("State", [
    "sc", "assign", "level", "rkind", "rdata", "trail", "trail_lim", "act", "heap", "hpos",
    "phase", "target", "best", "seen", "stamp", "toclear", "mstack", "todo", "buf", "assume",
    "cl_start", "cl_size", "cl_lbd", "cl_used", "cl_aux", "cl_map",
    "w_beg", "w_span", "w_end", "w_pool", "arena", "cg_pos",
    "dom", "place", "root", "node",
])


@kernel
def arena_words(nv):
    """Room for learned literals: enough for tens of thousands of clauses on 25x25."""
    return min(1 << 22, max(1 << 14, 64 * nv))


@kernel
def clause_cap(nv):
    return arena_words(nv) // 16 + 64


@kernel
def pool_words(nv, cap):
    """Room for the watch lists: lists packed afresh take at most 1.5 words a watch and 2 a
    literal (3 * cap + 4 * nv), and the rest is room for lists to grow until they are packed
    again."""
    return 8 * cap + 8 * nv


@kernel
def i64_words(n_cells, n_values, n_memberships):
    nv = n_cells * n_values
    cap = clause_cap(nv)
    return (SC_SIZE + 18 * (nv + 2) + nv + n_values + 64 + 6 * cap + 8 * nv
            + pool_words(nv, cap) + arena_words(nv) + n_memberships)


@kernel
def u64_words(n_cells, n_values, n_groups):
    return 3 * n_cells + n_groups * n_values


@kernel
def _views(ws, m):
    """The engine's arrays, carved out of the workspace's scratch (no allocation)."""
    nc = ws.cur.shape[0]
    V = m.n_values
    nv = nc * V
    cap = clause_cap(nv)
    a = ws.scratch_i64
    o = 0
    sc = a[o:o + SC_SIZE]
    o += SC_SIZE
    assign = a[o:o + nv]
    o += nv
    level = a[o:o + nv]
    o += nv
    rkind = a[o:o + nv]
    o += nv
    rdata = a[o:o + nv]
    o += nv
    trail = a[o:o + nv]
    o += nv
    trail_lim = a[o:o + nv + 1]
    o += nv + 2
    act = a[o:o + nv]
    o += nv
    heap = a[o:o + nv]
    o += nv
    hpos = a[o:o + nv]
    o += nv
    phase = a[o:o + nv]
    o += nv
    target = a[o:o + nv]
    o += nv
    best = a[o:o + nv]
    o += nv
    seen = a[o:o + nv]
    o += nv
    stamp = a[o:o + nv + 2]
    o += nv + 2
    toclear = a[o:o + nv + 2]
    o += nv + 2
    mstack = a[o:o + nv + 2]
    o += nv + 2
    todo = a[o:o + nv + 2]
    o += nv + 2
    buf = a[o:o + nv + V + 64]
    o += nv + V + 64
    assume = a[o:o + nv]
    o += nv
    cl_start = a[o:o + cap]
    o += cap
    cl_size = a[o:o + cap]
    o += cap
    cl_lbd = a[o:o + cap]
    o += cap
    cl_used = a[o:o + cap]
    o += cap
    cl_aux = a[o:o + cap]
    o += cap
    cl_map = a[o:o + cap]
    o += cap
    w_beg = a[o:o + 2 * nv]
    o += 2 * nv
    w_span = a[o:o + 4 * nv]
    o += 4 * nv
    w_end = a[o:o + 2 * nv]
    o += 2 * nv
    w_pool = a[o:o + pool_words(nv, cap)]
    o += pool_words(nv, cap)
    arena = a[o:o + arena_words(nv)]
    o += arena_words(nv)
    cg_pos = a[o:o + m.cell_groups.shape[0]]
    u = ws.scratch_u64
    ng = m.group_ptr.shape[0] - 1
    dom = u[0:nc]
    place = u[nc:nc + ng * V]
    root = u[nc + ng * V:2 * nc + ng * V]
    node = u[2 * nc + ng * V:3 * nc + ng * V]
    return State(sc, assign, level, rkind, rdata, trail, trail_lim, act, heap, hpos, phase,
                 target, best, seen, stamp, toclear, mstack, todo, buf, assume, cl_start,
                 cl_size, cl_lbd, cl_used, cl_aux, cl_map, w_beg, w_span, w_end, w_pool,
                 arena, cg_pos, dom, place, root, node)


# The engine's indexes go through ``_ix``: numba guards a signed index against negative
# wrap-around (a shift, a mask and an add on every load), the per-conflict loops are mostly
# loads, and an unsigned index has no guard. The engine never indexes with a negative
# number. Code run once per node (``_start``, ``_assume``, ``_split``, ``_push_rest``, the
# loop in ``search``) or per reduction (``_select``, ``_reduce``'s own arrays) indexes
# plainly, as it did before: it runs too rarely to matter. benchmarks/README.md has what
# this gained.
_ix = np.uint64


# --- the activity heap (VSIDS) ---------------------------------------------------------

@kernel
def _heap_up(s, i):
    h = s.heap
    x = h[_ix(i)]
    a = s.act[_ix(x)]
    while i > 0:
        p = (i - 1) >> 1
        if s.act[_ix(h[_ix(p)])] >= a:
            break
        h[_ix(i)] = h[_ix(p)]
        s.hpos[_ix(h[_ix(i)])] = i
        i = p
    h[_ix(i)] = x
    s.hpos[_ix(x)] = i


@kernel
def _heap_down(s, i):
    h = s.heap
    n = s.sc[HEAP]
    x = h[_ix(i)]
    a = s.act[_ix(x)]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and s.act[_ix(h[_ix(c + 1)])] > s.act[_ix(h[_ix(c)])]:
            c += 1
        if s.act[_ix(h[_ix(c)])] <= a:
            break
        h[_ix(i)] = h[_ix(c)]
        s.hpos[_ix(h[_ix(i)])] = i
        i = c
    h[_ix(i)] = x
    s.hpos[_ix(x)] = i


@kernel
def _heap_insert(s, x):
    if s.hpos[_ix(x)] >= 0:
        return
    n = s.sc[HEAP]
    s.heap[_ix(n)] = x
    s.hpos[_ix(x)] = n
    s.sc[HEAP] = n + 1
    _heap_up(s, n)


@kernel
def _heap_pop(s):
    n = s.sc[HEAP] - 1
    x = s.heap[0]
    s.hpos[_ix(x)] = -1
    s.sc[HEAP] = n
    if n > 0:
        s.heap[0] = s.heap[_ix(n)]
        s.hpos[_ix(s.heap[0])] = 0
        _heap_down(s, 0)
    return x


@kernel
def _heap_rebuild(s):
    """The heap of every unassigned variable, built in one pass (Floyd): focused mode
    decides without it and does not keep it up, stable mode starts with this."""
    n = 0
    for x in range(s.hpos.shape[0]):
        s.hpos[_ix(x)] = -1
        if s.assign[_ix(x)] == 0:
            s.heap[_ix(n)] = x
            s.hpos[_ix(x)] = n
            n += 1
    s.sc[HEAP] = n
    for i in range(n // 2 - 1, -1, -1):
        _heap_down(s, i)


@kernel
def _rescale(s):
    """Shift every activity down before the integers overflow (the order stays)."""
    for i in range(s.act.shape[0]):
        s.act[_ix(i)] >>= 40
    s.sc[VAR_INC] = max(1, s.sc[VAR_INC] >> 40)


@kernel
def _bump(s, x):
    s.act[_ix(x)] += s.sc[VAR_INC]
    if s.act[_ix(x)] > ACT_LIMIT:
        _rescale(s)
    if s.sc[STABLE] != 0 and s.hpos[_ix(x)] >= 0:
        _heap_up(s, s.hpos[_ix(x)])


@intrinsic
def _prefetch(typingctx, arr, i):
    """Ask for ``arr[i]``'s cache line ahead of its use (a hint: no fault, no result)."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        ary = context.make_array(aty)(context, builder, args[0])
        byte_ptr = ir.IntType(8).as_pointer()
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), byte_ptr)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        # the intrinsic's name carries its pointer type: "p0" where pointers are opaque
        # (newer llvmlite), "p0i8" where they are typed
        name = "llvm.prefetch.p0" if getattr(byte_ptr, "is_opaque", False) else \
            "llvm.prefetch.p0i8"
        fn = cgutils.get_or_insert_function(builder.module, fnty, name)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, i), codegen


# --- assignment -------------------------------------------------------------------------

@kernel
def _assign(s, m, V, x, val, kind, data):
    """Make literal x true (val 1) or false (val -1) and update the cell and group masks."""
    s.assign[_ix(x)] = val
    s.level[_ix(x)] = s.sc[LEVEL]
    s.rkind[_ix(x)] = kind
    s.rdata[_ix(x)] = data
    t = s.sc[TRAIL]
    s.trail[_ix(t)] = x
    s.sc[TRAIL] = t + 1
    if val < 0:
        c = x // V
        v = x - c * V
        bit = np.uint64(1) << np.uint64(v)
        s.dom[_ix(c)] &= ~bit
        for k in range(m.cell_group_ptr[_ix(c)], m.cell_group_ptr[_ix(c + 1)]):
            g = m.cell_groups[_ix(k)]
            s.place[_ix(g * V + v)] &= ~(np.uint64(1) << np.uint64(s.cg_pos[_ix(k)]))


@kernel
def _assign_lit(s, m, V, lit, kind, data):
    """Make literal ``lit`` (``2 * x`` for "x holds", ``2 * x + 1`` for its negation) true."""
    _assign(s, m, V, lit >> 1, -1 if (lit & 1) else 1, kind, data)


@kernel
def _copy_phases(s, dst):
    for t in range(s.sc[TRAIL]):
        x = s.trail[_ix(t)]
        dst[x] = s.assign[_ix(x)]


@kernel
def _update_target_and_best(s):
    """Keep the longest conflict-free assignment seen as the target phases (stable mode
    steers back towards it) and the longest ever as the best phases (for rephasing)."""
    n = s.sc[NO_CONFLICT]
    if n > s.sc[TARGET_N]:
        _copy_phases(s, s.target)
        s.sc[TARGET_N] = n
    if n > s.sc[BEST_N]:
        _copy_phases(s, s.best)
        s.sc[BEST_N] = n


@kernel
def _backtrack(s, m, V, lvl):
    """Undo every assignment above decision level ``lvl``, saving their values as phases."""
    if s.sc[LEVEL] <= lvl:
        return
    _update_target_and_best(s)
    lim = s.trail_lim[_ix(lvl)]
    stable = s.sc[STABLE] != 0  # focused mode keeps no heap (see _heap_rebuild)
    for t in range(s.sc[TRAIL] - 1, lim - 1, -1):
        x = s.trail[_ix(t)]
        if s.assign[_ix(x)] < 0:
            c = x // V
            v = x - c * V
            s.dom[_ix(c)] |= np.uint64(1) << np.uint64(v)
            for k in range(m.cell_group_ptr[_ix(c)], m.cell_group_ptr[_ix(c + 1)]):
                g = m.cell_groups[_ix(k)]
                s.place[_ix(g * V + v)] |= np.uint64(1) << np.uint64(s.cg_pos[_ix(k)])
        s.phase[_ix(x)] = s.assign[_ix(x)]
        s.assign[_ix(x)] = 0
        if stable:
            _heap_insert(s, x)
    s.sc[TRAIL] = lim
    if s.sc[QHEAD] > lim:
        s.sc[QHEAD] = lim
    s.sc[LEVEL] = lvl


@kernel
def _new_level(s):
    s.trail_lim[_ix(s.sc[LEVEL])] = s.sc[TRAIL]
    s.sc[LEVEL] += 1


@kernel
def _lit_false(s, lit):
    return s.assign[_ix(lit >> 1)] == (1 if (lit & 1) else -1)


@kernel
def _lit_true(s, lit):
    return s.assign[_ix(lit >> 1)] == (-1 if (lit & 1) else 1)


@kernel
def _conflict(kind, data):
    return (kind << KIND_SHIFT) + data


# --- propagation ------------------------------------------------------------------------

# The per-node steps (_propagate, _restart_due, _decide) are inlined into the search loop:
# a call passes the whole state, ~60 arrays as ~400 words on the stack, and with them
# inlined the engine runs ~8% more conflicts a second on Frisch's 25x25 puzzles. The watch
# loop is inlined too, and a literal that no clause watches (over a third of them) skips it.
@kernel(inline="always")
def _propagate(s, m, V):
    """Unit propagation to a fixpoint; -1, or the conflict as ``kind << 40 | data``."""
    one = np.uint64(1)
    while s.sc[QHEAD] < s.sc[TRAIL]:
        x = s.trail[_ix(s.sc[QHEAD])]
        s.sc[QHEAD] += 1
        if s.sc[QHEAD] < s.sc[TRAIL]:  # the next literal's watch list head, either sign
            _prefetch(s.w_span, 4 * s.trail[_ix(s.sc[QHEAD])])
        holds = s.assign[_ix(x)] > 0
        # the learned clauses watching the literal that x's value makes false go first,
        # the cells and groups after: more of the hardest runs end in time
        # (benchmarks/README.md)
        lit = 2 * x + 1 if holds else 2 * x
        if s.w_span[_ix(2 * lit + 1)] > s.w_span[_ix(2 * lit)]:
            r = _propagate_watches(s, m, V, lit)
            if r >= 0:
                return r
        c = x // V
        v = x - c * V
        bit = one << np.uint64(v)
        if holds:
            d = s.dom[_ix(c)] & ~bit
            while d:
                y = c * V + lowbit_index(d)
                d &= d - one
                if s.assign[_ix(y)] > 0:
                    s.sc[CONFL_VAR] = y
                    return _conflict(PAIR, x)
                _assign(s, m, V, y, -1, PAIR, x)
            for k in range(m.peer_ptr[_ix(c)], m.peer_ptr[_ix(c + 1)]):
                p = m.peers[_ix(k)]
                if s.dom[_ix(p)] & bit:
                    y = p * V + v
                    if s.assign[_ix(y)] > 0:
                        s.sc[CONFL_VAR] = y
                        return _conflict(PAIR, x)
                    _assign(s, m, V, y, -1, PAIR, x)
        else:
            d = s.dom[_ix(c)]
            if d == 0:
                return _conflict(CELL, c)
            if (d & (d - one)) == 0:
                y = c * V + lowbit_index(d)
                if s.assign[_ix(y)] == 0:
                    _assign(s, m, V, y, 1, CELL, c)
            for k in range(m.cell_group_ptr[_ix(c)], m.cell_group_ptr[_ix(c + 1)]):
                g = m.cell_groups[_ix(k)]
                if (m.group_required[_ix(g)] & bit) == 0:
                    continue
                pm = s.place[_ix(g * V + v)]
                if pm == 0:
                    return _conflict(GROUP, g * V + v)
                if (pm & (pm - one)) == 0:
                    y = m.group_cells[_ix(m.group_ptr[_ix(g)] + lowbit_index(pm))] * V + v
                    if s.assign[_ix(y)] == 0:
                        _assign(s, m, V, y, 1, GROUP, g * V + v)
    return -1


@kernel(inline="always")
def _propagate_watches(s, m, V, lit):
    """Visit the learned clauses watching ``lit``, which has just become false.

    A literal's watches lie side by side in the pool, each the clause's start in the arena
    and its blocking literal in one word, so the loop reads them in order. It visits the
    newest first (from the list's end), and the watches that stay close up towards the end
    as it goes."""
    ar = s.arena
    pool = s.w_pool
    lo = s.w_span[_ix(2 * lit)]
    i = s.w_span[_ix(2 * lit + 1)]
    j = i  # the watches kept so far are pool[j:hi]
    while i > lo:
        i -= 1
        e = pool[_ix(i)]
        if i > lo:  # the loop waits on memory: ask for the next watch's lines now
            nxt = pool[_ix(i - 1)]
            _prefetch(s.assign, (nxt & W_MASK) >> 1)
            _prefetch(ar, (nxt >> W_SHIFT) - H_NUM)
        if _lit_true(s, e & W_MASK):  # the clause holds: no need to look at it
            j -= 1
            if j != i:
                pool[_ix(j)] = e
            continue
        st = e >> W_SHIFT
        ci = ar[_ix(st - H_NUM)]
        if ci < 0:  # a subsumed clause: drop the watch
            continue
        if ar[_ix(st)] == lit:  # keep the false watch second
            ar[_ix(st)] = ar[_ix(st + 1)]
            ar[_ix(st + 1)] = lit
        first = ar[_ix(st)]
        if _lit_true(s, first):
            j -= 1
            pool[_ix(j)] = (st << W_SHIFT) | first
            continue
        # look for a new watch from where the last search stopped, round the clause
        # (Gent's saved position: long clauses are not rescanned from their start)
        moved = False
        sz = ar[_ix(st - H_SIZE)]
        p = ar[_ix(st - H_POS)]
        for q in range(2, sz):
            k = st + p + q - 2
            if k >= st + sz:
                k -= sz - 2
            other = ar[_ix(k)]
            if not _lit_false(s, other):
                ar[_ix(st - H_POS)] = k - st
                ar[_ix(st + 1)] = other
                ar[_ix(k)] = lit
                e = (st << W_SHIFT) | first
                hi = s.w_span[_ix(2 * other + 1)]
                if hi < s.w_end[_ix(other)]:  # most often: room at the list's end
                    pool[_ix(hi)] = e
                    s.w_span[_ix(2 * other + 1)] = hi + 1
                elif _push_watch(s, other, e):
                    # the lists were packed afresh from the clauses: start this one over
                    lo = s.w_span[_ix(2 * lit)]
                    i = s.w_span[_ix(2 * lit + 1)]
                    j = i
                moved = True
                break
        if moved:
            continue
        j -= 1
        pool[_ix(j)] = e
        if _lit_false(s, first):
            while i > lo:
                i -= 1
                j -= 1
                pool[_ix(j)] = pool[_ix(i)]
            s.w_span[_ix(2 * lit)] = j
            return _conflict(LEARNT, ci)
        _assign_lit(s, m, V, first, LEARNT, ci)
    s.w_span[_ix(2 * lit)] = j
    return -1


# --- conflict analysis ------------------------------------------------------------------

@kernel
def _reason_vars(s, m, V, kind, data, skip, buf):
    """The literals (as variables) of the clause ``(kind, data)`` other than ``skip``."""
    n = 0
    if kind == CELL:
        for w in range(V):
            y = data * V + w
            if y != skip:
                buf[_ix(n)] = y
                n += 1
    elif kind == GROUP:
        g = data // V
        v = data - g * V
        for k in range(m.group_ptr[_ix(g)], m.group_ptr[_ix(g + 1)]):
            y = m.group_cells[_ix(k)] * V + v
            if y != skip:
                buf[_ix(n)] = y
                n += 1
    elif kind == PAIR:
        if data != skip:
            buf[_ix(n)] = data
            n += 1
    elif kind == LEARNT:
        st = s.cl_start[_ix(data)]
        for k in range(st, st + s.cl_size[_ix(data)]):
            y = s.arena[_ix(k)] >> 1
            if y != skip:
                buf[_ix(n)] = y
                n += 1
        if s.cl_lbd[_ix(data)] > TIER1:  # its glue now, if lower: a clause can move up a tier
            s.sc[STAMP] += 1
            mark = s.sc[STAMP]
            glue = 0
            for k in range(st, st + s.cl_size[_ix(data)]):
                lv = s.level[_ix(s.arena[_ix(k)] >> 1)]
                if s.stamp[_ix(lv)] != mark:
                    s.stamp[_ix(lv)] = mark
                    glue += 1
            if glue < s.cl_lbd[_ix(data)]:
                s.cl_lbd[_ix(data)] = glue
        s.cl_used[_ix(data)] = 2 if s.cl_lbd[_ix(data)] <= TIER2 else max(1, s.cl_used[_ix(data)])
    return n


@kernel
def _negation(s, y):
    """The literal over variable y that is false now."""
    return 2 * y + (1 if s.assign[_ix(y)] > 0 else 0)


@kernel
def _analyze(s, m, V, confl):
    """First-UIP learning with recursive minimization. The clause goes to ``s.toclear``
    (asserting literal first, then the one of highest level); returns (size, jump level)."""
    kind = confl >> KIND_SHIFT
    data = confl & ((1 << KIND_SHIFT) - 1)
    buf = s.buf
    out = s.toclear
    dl = s.sc[LEVEL]
    if kind == PAIR:
        buf[0] = data
        buf[_ix(1)] = s.sc[CONFL_VAR]
        nb = 2
    else:
        nb = _reason_vars(s, m, V, kind, data, -1, buf)
    n = 1
    pending = 0
    t = s.sc[TRAIL] - 1
    while True:
        for i in range(nb):
            y = buf[_ix(i)]
            if s.seen[_ix(y)] == 0 and s.level[_ix(y)] > 0:
                s.seen[_ix(y)] = 1
                _bump(s, y)
                if s.level[_ix(y)] >= dl:
                    pending += 1
                else:
                    out[_ix(n)] = _negation(s, y)
                    n += 1
        while s.seen[_ix(s.trail[_ix(t)])] == 0:
            t -= 1
        p = s.trail[_ix(t)]
        t -= 1
        s.seen[_ix(p)] = 0
        pending -= 1
        if pending == 0:
            out[0] = _negation(s, p)
            break
        nb = _reason_vars(s, m, V, s.rkind[_ix(p)], s.rdata[_ix(p)], p, buf)
    n = _minimize(s, m, V, n)
    bl = 0
    if n > 1:
        hi = 1
        for i in range(1, n):
            lv = s.level[_ix(out[_ix(i)] >> 1)]
            if lv > bl:
                bl = lv
                hi = i
        tmp = out[_ix(1)]
        out[_ix(1)] = out[_ix(hi)]
        out[_ix(hi)] = tmp
    return n, bl


@kernel
def _reason_len(s, m, V, kind, data):
    """How many literals the clause ``(kind, data)`` has."""
    if kind == CELL:
        return V
    if kind == GROUP:
        g = data // V
        return m.group_ptr[_ix(g + 1)] - m.group_ptr[_ix(g)]
    if kind == PAIR:
        return 1
    return s.cl_size[_ix(data)]


@kernel
def _reason_at(s, m, V, kind, data, i):
    """The variable of the ``i``-th literal of the clause ``(kind, data)``: one literal at a
    time, for the minimization's depth-first search (``_reason_vars`` lists a whole clause
    with one loop per kind, ~4% faster in the analysis's hot loop)."""
    if kind == CELL:
        return data * V + i
    if kind == GROUP:
        g = data // V
        return m.group_cells[_ix(m.group_ptr[_ix(g)] + i)] * V + (data - g * V)
    if kind == PAIR:
        return data
    return s.arena[_ix(s.cl_start[_ix(data)] + i)] >> 1


@kernel
def _implied(s, m, V, y, levels, nmarked):
    """Whether variable y's value follows from the clause's literals (``seen`` 1), by a
    depth-first search through the reasons; every variable judged on the way (not y) is
    marked 1 or 2 and listed in ``s.mstack``. Returns (implied, nmarked)."""
    marked = s.mstack
    frames = s.todo
    implied = s.rkind[_ix(y)] != NONE
    if implied:
        top = 1
        frames[0] = y << 20
        while top > 0:
            f = frames[_ix(top - 1)]
            q = f >> 20
            k = f & 0xFFFFF
            kind = s.rkind[_ix(q)]
            data = s.rdata[_ix(q)]
            size = _reason_len(s, m, V, kind, data)
            child = -1
            while k < size:
                z = _reason_at(s, m, V, kind, data, k)
                k += 1
                if z == q or s.level[_ix(z)] == 0 or s.seen[_ix(z)] == 1:
                    continue
                if (s.seen[_ix(z)] == 2 or s.rkind[_ix(z)] == NONE
                        or ((1 << (s.level[_ix(z)] & 63)) & levels) == 0):
                    if s.seen[_ix(z)] == 0:
                        s.seen[_ix(z)] = 2
                        marked[_ix(nmarked)] = z
                        nmarked += 1
                    implied = False
                    break
                child = z
                break
            if not implied:  # every variable on the path fails with it
                for t in range(1, top):
                    u = frames[_ix(t)] >> 20
                    s.seen[_ix(u)] = 2
                    marked[_ix(nmarked)] = u
                    nmarked += 1
                break
            if child >= 0:
                frames[_ix(top - 1)] = (q << 20) | k
                frames[_ix(top)] = child << 20
                top += 1
                continue
            top -= 1  # every literal of q's reason holds: q is implied too
            if top > 0:
                s.seen[_ix(q)] = 1
                marked[_ix(nmarked)] = q
                nmarked += 1
    return implied, nmarked


@kernel
def _minimize(s, m, V, n):
    """Drop the literals that the rest of the clause implies (recursive minimization, with
    the verdict on every variable visited kept for the whole clause: ``seen`` 1 is in the
    clause or implied by it, 2 is not), shrink what is left (:func:`_shrink`, which reuses
    those verdicts) and clear every mark; returns the new size."""
    out = s.toclear
    marked = s.mstack  # every variable marked: the clause's, then those judged
    nmarked = 0
    levels = 0
    for i in range(1, n):
        marked[_ix(nmarked)] = out[_ix(i)] >> 1
        nmarked += 1
        levels |= 1 << (s.level[_ix(out[_ix(i)] >> 1)] & 63)
    j = 1
    for i in range(1, n):
        implied, nmarked = _implied(s, m, V, out[_ix(i)] >> 1, levels, nmarked)
        if not implied:
            out[_ix(j)] = out[_ix(i)]
            j += 1
    j, nmarked = _shrink(s, m, V, j, nmarked, levels)
    for u in range(nmarked):
        s.seen[_ix(marked[_ix(u)])] = 0
    return j


@kernel
def _shrink(s, m, V, n, nmarked, levels):
    """Shrink the minimized clause ``s.toclear[:n]``: the literals of one decision level are
    replaced by that level's block UIP - the last variable of the level that every one of
    them follows from - when the derivation needs no lower-level literal that the clause
    does not already imply (``seen`` 1, or judged so now by :func:`_implied`).

    On Sudoku a level holds one decision and the hundreds of values it rules out, so a
    learned clause often names several of them where one literal says as much: shorter
    clauses propagate sooner and cost less to watch. Variables of the level being walked
    carry the mark 4 in ``seen`` (its low bits keep the minimization's verdict). Returns
    (new size, marks listed in ``s.mstack``)."""
    out = s.toclear
    marked = s.mstack
    blk = s.buf
    dl = s.sc[LEVEL]
    s.sc[STAMP] += 1
    mark = s.sc[STAMP]
    pos = 1
    while pos < n:
        L = s.level[_ix(out[_ix(pos)] >> 1)]
        if s.stamp[_ix(L)] == mark or L >= dl:
            pos += 1
            continue
        s.stamp[_ix(L)] = mark  # the first literal of level L: every other one lies further on
        nb = 0
        for q in range(pos, n):
            y = out[_ix(q)] >> 1
            if s.level[_ix(y)] == L:
                s.seen[_ix(y)] |= 4
                blk[_ix(nb)] = y
                nb += 1
        if nb < 2:
            s.seen[_ix(blk[0])] &= 3
            pos += 1
            continue
        open_ = nb  # marked variables of level L not yet resolved away
        uip = -1
        ok = True
        lo = s.trail_lim[_ix(L - 1)]
        t = s.trail_lim[_ix(L)] - 1
        while t >= lo:  # level L's assignments, latest first
            p = s.trail[_ix(t)]
            t -= 1
            if (s.seen[_ix(p)] & 4) == 0:
                continue
            open_ -= 1
            if open_ == 0:
                uip = p
                break
            kind = s.rkind[_ix(p)]
            data = s.rdata[_ix(p)]
            size = _reason_len(s, m, V, kind, data)
            for r in range(size):
                z = _reason_at(s, m, V, kind, data, r)
                if z == p:
                    continue
                lz = s.level[_ix(z)]
                if lz == 0:
                    continue
                if lz == L:
                    if (s.seen[_ix(z)] & 4) == 0:
                        s.seen[_ix(z)] |= 4
                        blk[_ix(nb)] = z
                        nb += 1
                        open_ += 1
                elif (s.seen[_ix(z)] & 3) != 1:  # a lower level: the clause must imply z
                    if s.seen[_ix(z)] == 0 and ((1 << (lz & 63)) & levels) != 0:
                        imp, nmarked = _implied(s, m, V, z, levels, nmarked)
                        s.seen[_ix(z)] = 1 if imp else 2
                        marked[_ix(nmarked)] = z
                        nmarked += 1
                        if imp:
                            continue
                    ok = False
                    break
            if not ok:
                break
        for q in range(nb):
            s.seen[_ix(blk[_ix(q)])] &= 3
        if ok and uip >= 0:
            w = pos
            for q in range(pos, n):
                if s.level[_ix(out[_ix(q)] >> 1)] != L:
                    out[_ix(w)] = out[_ix(q)]
                    w += 1
            out[_ix(w)] = _negation(s, uip)
            w += 1
            if s.seen[_ix(uip)] == 0:
                s.seen[_ix(uip)] = 1
                marked[_ix(nmarked)] = uip
                nmarked += 1
            s.sc[SHRUNK] += n - w
            n = w
        else:
            pos += 1
    return n, nmarked


@kernel
def _lbd(s, n):
    """Distinct decision levels in the learned clause (its "glue")."""
    s.sc[STAMP] += 1
    mark = s.sc[STAMP]
    count = 0
    for i in range(n):
        lv = s.level[_ix(s.toclear[_ix(i)] >> 1)]
        if s.stamp[_ix(lv)] != mark:
            s.stamp[_ix(lv)] = mark
            count += 1
    return count


# --- the clause store ------------------------------------------------------------------

@kernel
def _pack_watches(s):
    """Every learned clause's two watches afresh from its first two literals, each list
    packed with room to grow by half (after a reduction, and when growing lists have used
    the pool up)."""
    nl = s.w_beg.shape[0]
    for lit in range(nl):
        s.w_span[_ix(2 * lit + 1)] = 0
    nc = s.sc[NCLAUSES]
    for ci in range(nc):
        st = s.cl_start[_ix(ci)]
        if st >= 0:
            s.w_span[_ix(2 * s.arena[_ix(st)] + 1)] += 1
            s.w_span[_ix(2 * s.arena[_ix(st + 1)] + 1)] += 1
    top = 0
    for lit in range(nl):
        n = s.w_span[_ix(2 * lit + 1)]
        s.w_beg[_ix(lit)] = top
        s.w_span[_ix(2 * lit)] = top
        s.w_span[_ix(2 * lit + 1)] = top
        top += n + (n >> 1) + 2 if n > 0 else 0
        s.w_end[_ix(lit)] = top
    s.sc[W_TOP] = top
    for ci in range(nc):
        st = s.cl_start[_ix(ci)]
        if st >= 0:
            for k in range(2):
                lit = s.arena[_ix(st + k)]
                hi = s.w_span[_ix(2 * lit + 1)]
                s.w_pool[_ix(hi)] = (st << W_SHIFT) | s.arena[_ix(st + 1 - k)]
                s.w_span[_ix(2 * lit + 1)] = hi + 1


@kernel
def _push_watch(s, lit, entry):
    """Add a watch at the end of ``lit``'s list. A full list first closes up to the start
    of its room when half of it is free there, else moves to the pool's free end with twice
    the room; when the pool has no room left the lists are packed afresh from the clauses
    instead, this watch among them, and the answer is True."""
    hi = s.w_span[_ix(2 * lit + 1)]
    if hi == s.w_end[_ix(lit)]:
        beg = s.w_beg[_ix(lit)]
        lo = s.w_span[_ix(2 * lit)]
        n = hi - lo
        if 2 * (lo - beg) >= hi - beg and lo > beg:
            dst = beg
        else:
            dst = s.sc[W_TOP]
            grown = 2 * n + 4
            if dst + grown > s.w_pool.shape[0]:
                _pack_watches(s)
                s.sc[PACKED] += 1
                return True
            s.w_beg[_ix(lit)] = dst
            s.w_end[_ix(lit)] = dst + grown
            s.sc[W_TOP] = dst + grown
        for i in range(n):
            s.w_pool[_ix(dst + i)] = s.w_pool[_ix(lo + i)]
        s.w_span[_ix(2 * lit)] = dst
        hi = dst + n
    s.w_pool[_ix(hi)] = entry
    s.w_span[_ix(2 * lit + 1)] = hi + 1
    return False


@kernel
def _watch(s, ci):
    """Watch a new clause's first two literals, each with the other as its blocker."""
    st = s.cl_start[_ix(ci)]
    a = s.arena[_ix(st)]
    b = s.arena[_ix(st + 1)]
    if not _push_watch(s, a, (st << W_SHIFT) | b):
        _push_watch(s, b, (st << W_SHIFT) | a)


@kernel
def _add_clause(s, n, lbd):
    ci = s.sc[NCLAUSES]
    st = s.sc[ARENA_LEN] + HDR
    for i in range(n):
        s.arena[_ix(st + i)] = s.toclear[_ix(i)]
    s.arena[_ix(st - H_SIZE)] = n
    s.arena[_ix(st - H_POS)] = 2
    s.arena[_ix(st - H_NUM)] = ci
    s.cl_start[_ix(ci)] = st
    s.cl_size[_ix(ci)] = n
    s.cl_lbd[_ix(ci)] = lbd
    s.cl_used[_ix(ci)] = 0
    s.sc[NCLAUSES] = ci + 1
    s.sc[ARENA_LEN] = st + n
    _watch(s, ci)
    return ci


@kernel
def _select(a, n, k):
    """The k-th smallest of ``a[:n]`` (quickselect; reorders ``a``)."""
    lo = 0
    hi = n - 1
    while lo < hi:
        pivot = a[(lo + hi) >> 1]
        i = lo
        j = hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                t = a[i]
                a[i] = a[j]
                a[j] = t
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return a[k]


@kernel
def _reduce(s, everything):
    """Forget most learned clauses that have not helped lately (as CaDiCaL and Kissat do):
    glue <= ``TIER1`` stays for good; a clause used in an analysis lives on through one
    reduction, or two when its glue is <= ``TIER2``; of the rest, the ``REDUCE_PERCENT``
    with the highest glue (then the longest) go. When ``everything``, all but the reasons of
    current assignments go."""
    nc = s.sc[NCLAUSES]
    locked = s.cl_aux
    for ci in range(nc):
        locked[ci] = 0
    for t in range(s.sc[TRAIL]):
        x = s.trail[_ix(t)]
        if s.rkind[_ix(x)] == LEARNT:
            locked[s.rdata[_ix(x)]] = 1
    keys = s.cl_map
    count = 0
    for ci in range(nc):
        if (locked[ci] == 0 and s.cl_lbd[_ix(ci)] > TIER1 and s.cl_used[_ix(ci)] == 0
                and s.cl_start[_ix(ci)] >= 0):
            keys[count] = (s.cl_lbd[_ix(ci)] << 32) + s.cl_size[_ix(ci)]
            count += 1
    drop = count * REDUCE_PERCENT // 100
    threshold = _select(keys, count, count - drop) if drop > 0 else 1 << 62
    # clauses with the threshold's key go until ``drop`` have gone
    ties = drop
    for i in range(count):
        if keys[i] > threshold:
            ties -= 1
    j = 0
    pos = 0
    for ci in range(nc):
        keep = locked[ci] != 0
        used = s.cl_used[_ix(ci)]
        if s.cl_start[_ix(ci)] < 0:  # subsumed: goes (never a reason)
            keep = False
        elif not keep and not everything:
            lbd = s.cl_lbd[_ix(ci)]
            if lbd <= TIER1 or used > 0:
                keep = True
            else:
                key = (lbd << 32) + s.cl_size[_ix(ci)]
                if key < threshold:
                    keep = True
                elif key == threshold:
                    if ties > 0:
                        ties -= 1
                    else:
                        keep = True
        s.cl_map[ci] = -1
        if keep:
            st = s.cl_start[_ix(ci)]
            sz = s.cl_size[_ix(ci)]
            to = pos + HDR
            for k in range(-HDR, sz):  # the clause and its header
                s.arena[_ix(to + k)] = s.arena[_ix(st + k)]
            s.arena[_ix(to - H_NUM)] = j
            s.cl_start[_ix(j)] = to
            s.cl_size[_ix(j)] = sz
            s.cl_lbd[_ix(j)] = s.cl_lbd[_ix(ci)]
            s.cl_used[_ix(j)] = used - 1 if used > 0 else 0
            s.cl_map[ci] = j
            pos = to + sz
            j += 1
    s.sc[NCLAUSES] = j
    s.sc[ARENA_LEN] = pos
    for t in range(s.sc[TRAIL]):
        x = s.trail[_ix(t)]
        if s.rkind[_ix(x)] == LEARNT:
            s.rdata[_ix(x)] = s.cl_map[s.rdata[_ix(x)]]
    _pack_watches(s)
    s.sc[REDUCES] += 1
    s.sc[NEXT_REDUCE] = s.sc[CONFLICTS] + REDUCE_FIRST + REDUCE_STEP * s.sc[REDUCES]


# --- starting a node ---------------------------------------------------------------------

@kernel
def _fresh(s, m, V, node):
    """Forget everything and take ``node`` as the root; False if it is contradictory."""
    nc = node.shape[0]
    nv = nc * V
    for i in range(SC_SIZE):
        s.sc[i] = 0
    s.sc[VAR_INC] = 1 << 10
    s.sc[NEXT_REDUCE] = REDUCE_FIRST
    s.sc[SWITCH_LEN] = STABLE_FIRST // 2  # each switch doubles it: the first stable mode
    s.sc[SWITCH_AT] = SWITCH_FIRST
    s.sc[REPHASE_AT] = REPHASE_STEP
    s.sc[LUBY_U] = 1
    s.sc[LUBY_V] = 1
    for g in range(m.group_ptr.shape[0] - 1):
        lo = m.group_ptr[_ix(g)]
        for i in range(m.group_ptr[_ix(g + 1)] - lo):
            c = m.group_cells[_ix(lo + i)]
            for k in range(m.cell_group_ptr[_ix(c)], m.cell_group_ptr[_ix(c + 1)]):
                if m.cell_groups[_ix(k)] == g:
                    s.cg_pos[_ix(k)] = i
        size = m.group_ptr[_ix(g + 1)] - lo
        full = ~np.uint64(0) if size >= 64 else (np.uint64(1) << np.uint64(size)) - np.uint64(1)
        for v in range(V):
            s.place[_ix(g * V + v)] = full
    every = ~np.uint64(0) if V >= 64 else (np.uint64(1) << np.uint64(V)) - np.uint64(1)
    for c in range(nc):
        s.dom[_ix(c)] = every
        s.root[c] = node[c]
    for x in range(nv):
        s.assign[_ix(x)] = 0
        s.act[_ix(x)] = 0
        s.phase[_ix(x)] = -1
        s.target[_ix(x)] = 0
        s.best[_ix(x)] = 0
        s.seen[_ix(x)] = 0
        s.hpos[_ix(x)] = -1
    for i in range(s.stamp.shape[0]):
        s.stamp[_ix(i)] = 0
    _pack_watches(s)  # no clauses: every list empty
    for x in range(nv):
        _heap_insert(s, x)
    for c in range(nc):
        for v in range(V):
            if (node[c] >> np.uint64(v)) & np.uint64(1) == 0:
                _assign(s, m, V, c * V + v, -1, NONE, 0)
    for c in range(nc):
        d = node[c]
        if d != 0 and (d & (d - np.uint64(1))) == 0:
            y = c * V + lowbit_index(d)
            if s.assign[_ix(y)] == 0:
                _assign(s, m, V, y, 1, NONE, 0)
    s.sc[MODE] = CLAUSES
    return _propagate(s, m, V) < 0


@kernel
def _inside(a, b):
    """Every candidate of ``a`` is one of ``b``."""
    for c in range(a.shape[0]):
        if a[c] & ~b[c]:
            return False
    return True


@kernel
def _same(a, b):
    for c in range(a.shape[0]):
        if a[c] != b[c]:
            return False
    return True


@kernel
def _assume(s, V, node):
    """Search ``node`` inside the root: what it adds to the root becomes assumptions,
    decided one per level first, so nothing learned depends on them."""
    n = 0
    for c in range(node.shape[0]):
        extra = s.root[c] & ~node[c]
        if extra == 0:
            continue
        d = node[c]
        if d != 0 and (d & (d - np.uint64(1))) == 0:
            s.assume[n] = 2 * (c * V + lowbit_index(d))
            n += 1
            continue
        while extra:
            s.assume[n] = 2 * (c * V + lowbit_index(extra)) + 1
            n += 1
            extra &= extra - np.uint64(1)
    s.sc[NASSUME] = n


@kernel
def _start(s, m, V, node):
    """Set the memory up to search ``node``; False when it has no solution at the root."""
    mode = s.sc[MODE]
    if mode == RUNNING and _same(node, s.node):
        return True
    for c in range(node.shape[0]):
        s.node[c] = node[c]
        if node[c] == 0:
            if mode == RUNNING:
                s.sc[MODE] = CLAUSES
            return False
    if mode != EMPTY and _inside(node, s.root):
        _backtrack(s, m, V, 0)
        s.sc[NASSUME] = 0
        if s.sc[QHEAD] < s.sc[TRAIL] and _propagate(s, m, V) >= 0:
            return False
    elif not _fresh(s, m, V, node):
        s.sc[MODE] = EMPTY
        return False
    _assume(s, V, node)
    s.sc[EMA_FAST] = 0
    s.sc[SINCE] = 0
    s.sc[MODE] = RUNNING
    return True


# --- after a conflict ------------------------------------------------------------------

@kernel
def _room(s, n):
    """Whether a clause of ``n`` literals fits: a clause number left, and room in the arena
    for it and its header."""
    return (s.sc[NCLAUSES] < s.cl_start.shape[0] - 1
            and s.sc[ARENA_LEN] + HDR + n <= s.arena.shape[0])


@kernel
def _learn(s, m, V, confl):
    """Analyze a conflict above level 0, jump back and assert the learned clause."""
    nv = s.assign.shape[0]
    n, jump = _analyze(s, m, V, confl)
    lbd = _lbd(s, n)
    _backtrack(s, m, V, jump)
    if n > 1 and not _room(s, n):
        _reduce(s, s.sc[ARENA_LEN] + HDR + n + nv > s.arena.shape[0])
        if not _room(s, n):  # every clause was kept: keep only the reasons of what holds
            _reduce(s, True)
    lit = s.toclear[0]
    if n == 1:
        _assign_lit(s, m, V, lit, NONE, 0)
    else:
        ci = _add_clause(s, n, lbd)
        _assign_lit(s, m, V, lit, LEARNT, ci)
        _subsume_latest(s, n, ci)
    # activities decay by 0.95 in stable mode, by 0.75 in focused mode (recent conflicts rule)
    s.sc[VAR_INC] += s.sc[VAR_INC] // (19 if s.sc[STABLE] != 0 else 3)
    if s.sc[VAR_INC] > ACT_LIMIT:
        _rescale(s)
    # glue averages in 16.16 fixed point: fast (32 conflicts) and slow (4096)
    s.sc[EMA_FAST] += ((lbd << 16) - s.sc[EMA_FAST]) >> 5
    s.sc[EMA_SLOW] += ((lbd << 16) - s.sc[EMA_SLOW]) >> 12
    s.sc[SINCE] += 1
    if s.sc[CONFLICTS] >= s.sc[NEXT_REDUCE]:
        _reduce(s, False)


@kernel
def _subsume_latest(s, n, ci):
    """Retire the latest learned clauses that the new one (``s.toclear[:n]``, clause ``ci``)
    subsumes (as CaDiCaL's eager subsumption): on Sudoku a run of conflicts under the same
    decisions often learns a shorter clause after a longer one, and every clause kept costs
    the watch loop. A retired clause's number in its header becomes -1 and its start is
    stored negated: the watch loop drops its watches when it meets them, the next reduction
    its literals. A clause that is the reason
    for a value now stays."""
    for i in range(n):
        s.seen[_ix(s.toclear[_ix(i)] >> 1)] = (s.toclear[_ix(i)] & 1) + 1
    for d in range(max(0, ci - EAGER_SUBSUME), ci):
        st = s.cl_start[_ix(d)]
        sz = s.cl_size[_ix(d)]
        if st < 0 or sz < n:
            continue
        hit = 0
        for k in range(st, st + sz):
            q = s.arena[_ix(k)]
            if s.seen[_ix(q >> 1)] == (q & 1) + 1:
                hit += 1
        if hit < n:
            continue
        y = s.arena[_ix(st)] >> 1
        if s.assign[_ix(y)] != 0 and s.rkind[_ix(y)] == LEARNT and s.rdata[_ix(y)] == d:
            continue
        s.cl_start[_ix(d)] = -1 - st
        s.arena[_ix(st - H_NUM)] = -1
        s.sc[SUBSUMED] += 1
    for i in range(n):
        s.seen[_ix(s.toclear[_ix(i)] >> 1)] = 0


@kernel
def _rephase(s, m, V):
    """Reset the saved phases, in turn to the best assignment, all false, the best, all
    true; and let the target grow again from there."""
    _backtrack(s, m, V, 0)
    kind = s.sc[REPHASES] & 3
    for x in range(s.phase.shape[0]):
        if kind == 0 or kind == 2:
            if s.best[_ix(x)] != 0:
                s.phase[_ix(x)] = s.best[_ix(x)]
        elif kind == 1:
            s.phase[_ix(x)] = -1
        else:
            s.phase[_ix(x)] = 1
    if kind == 0 or kind == 2:
        s.sc[BEST_N] = 0
    s.sc[TARGET_N] = 0
    s.sc[REPHASES] += 1
    s.sc[REPHASE_AT] = s.sc[CONFLICTS] + REPHASE_STEP * (s.sc[REPHASES] + 1)


@kernel
def _next_luby(s):
    """Reluctant doubling (Knuth): 1 1 2 1 1 2 4 1 1 2 ... restart units in stable mode."""
    u = s.sc[LUBY_U]
    v = s.sc[LUBY_V]
    if (u & -u) == v:
        u += 1
        v = 1
    else:
        v *= 2
    s.sc[LUBY_U] = u
    s.sc[LUBY_V] = v
    s.sc[RESTART_AT] = s.sc[CONFLICTS] + v * LUBY_UNIT


@kernel(inline="always")
def _restart_due(s, m, V):
    """Switch between focused and stable mode on schedule; restart when the mode says so:
    focused when recent glue runs high, stable by reluctant doubling."""
    if s.sc[CONFLICTS] >= s.sc[SWITCH_AT]:
        s.sc[STABLE] = 1 - s.sc[STABLE]
        s.sc[SWITCH_LEN] *= 2
        s.sc[SWITCH_AT] = s.sc[CONFLICTS] + s.sc[SWITCH_LEN]
        s.sc[TARGET_N] = 0
        s.sc[LUBY_U] = 1
        s.sc[LUBY_V] = 1
        s.sc[RESTART_AT] = s.sc[CONFLICTS] + LUBY_UNIT
        s.sc[SINCE] = 0
        if s.sc[STABLE] != 0:
            _backtrack(s, m, V, 0)
            _heap_rebuild(s)
        return True
    if s.sc[CONFLICTS] >= s.sc[REPHASE_AT]:
        _rephase(s, m, V)
        return True
    if s.sc[STABLE] != 0:
        if s.sc[CONFLICTS] >= s.sc[RESTART_AT]:
            _next_luby(s)
            return True
        return False
    if s.sc[SINCE] >= 50 and s.sc[EMA_FAST] * 4 > s.sc[EMA_SLOW] * 5:
        s.sc[SINCE] = 0
        return True
    return False


@kernel
def _fewest_candidates(s, V):
    """Focused mode's decision, as depth-first search makes it: the cell with the fewest
    candidates left (the most active of those), and in it the value it last held, else its
    most active one. Returns that literal's variable, or -1 when every cell is decided."""
    best_c = -1
    best_n = 1 << 30
    best_a = -1
    one = np.uint64(1)
    for c in range(s.dom.shape[0]):
        d = s.dom[_ix(c)]
        k = popcount(d)
        if k < 2 or k > best_n:
            continue
        a = 0
        while d:
            y = c * V + lowbit_index(d)
            d &= d - one
            if s.act[_ix(y)] > a:
                a = s.act[_ix(y)]
        if k < best_n or a > best_a:
            best_c = c
            best_n = k
            best_a = a
    if best_c < 0:
        return -1
    d = s.dom[_ix(best_c)]
    bx = -1
    ba = -1
    while d:
        y = best_c * V + lowbit_index(d)
        d &= d - one
        score = s.act[_ix(y)] + (ACT_LIMIT * 4 if s.phase[_ix(y)] > 0 else 0)
        if score > ba:
            ba = score
            bx = y
    return bx


@kernel(inline="always")
def _decide(s, m, V):
    """Open a level for the next assumption, or for a free literal chosen as the mode says.
    Returns 1 (decided), 0 (every literal assigned: a solution), -1 (an assumption fails)."""
    while s.sc[LEVEL] < s.sc[NASSUME]:
        lit = s.assume[s.sc[LEVEL]]
        if _lit_true(s, lit):
            _new_level(s)
            continue
        if _lit_false(s, lit):
            return -1
        _new_level(s)
        _assign_lit(s, m, V, lit, NONE, 0)
        return 1
    if s.sc[STABLE] == 0:
        x = _fewest_candidates(s, V)
        if x < 0:  # no cell has two values left: anything unassigned (the heap is stale)
            for y in range(s.assign.shape[0]):
                if s.assign[_ix(y)] == 0:
                    x = y
                    break
        if x < 0:
            return 0
        _new_level(s)
        _assign(s, m, V, x, 1, NONE, 0)
        return 1
    while s.sc[HEAP] > 0:
        x = _heap_pop(s)
        if s.assign[_ix(x)] == 0:
            _new_level(s)
            val = s.phase[_ix(x)]
            if s.sc[STABLE] != 0 and s.target[_ix(x)] != 0:
                val = s.target[_ix(x)]
            _assign(s, m, V, x, val, NONE, 0)
            return 1
    return 0


@kernel
def _push_rest(s, V, acc, stack, dirty, sp):
    """Push the node minus its solution, split on the decisions above the assumptions:
    ``node∧¬d1``, ``node∧d1∧¬d2``, ... (empty ones left out); ``acc`` is scratch."""
    first = s.sc[NASSUME]
    last = s.sc[LEVEL]
    nc = s.node.shape[0]
    for c in range(nc):
        acc[c] = s.node[c]
    for lv in range(first, last):
        x = s.trail[s.trail_lim[lv]]
        c = x // V
        bit = np.uint64(1) << np.uint64(x - c * V)
        true = s.assign[x] > 0
        rest = acc[c] & ~bit if true else acc[c] & bit
        if rest != 0:
            top = sp[0]
            for i in range(nc):
                stack[top, i] = acc[i]
            stack[top, c] = rest
            dirty[top] = -1
            sp[0] = top + 1
        acc[c] = bit if true else acc[c] & ~bit


@kernel
def _hand_back(s, stack, dirty, sp):
    """Push the node being searched back, as cell masks, for whoever calls next."""
    top = sp[0]
    for i in range(s.node.shape[0]):
        stack[top, i] = s.node[i]
    dirty[top] = -1
    sp[0] = top + 1


@kernel
def _left_at_level_0(s, V, c):
    """The values of the node's cell ``c`` that level 0 has not ruled out."""
    left = s.node[c]
    d = left
    while d:
        v = lowbit_index(d)
        d &= d - np.uint64(1)
        x = c * V + v
        if s.assign[_ix(x)] < 0 and s.level[_ix(x)] == 0:
            left &= ~(np.uint64(1) << np.uint64(v))
    return left


@kernel
def _split(s, m, V, stack, dirty, sp):
    """Share the one node being searched: cut it in two on the cell with the fewest values
    left at level 0 and push both halves, the second on top (this worker keeps it, with
    its clauses: it lies inside the root). False when no cell has two values left."""
    best = -1
    best_n = V + 1
    best_mask = np.uint64(0)
    for c in range(s.node.shape[0]):
        left = _left_at_level_0(s, V, c)
        k = np.int64(popcount(left))
        if 2 <= k < best_n:
            best = c
            best_n = k
            best_mask = left
    if best < 0:
        return False
    left = best_mask
    keep = np.uint64(0)
    for _ in range(best_n // 2):
        keep |= left & (~left + np.uint64(1))
        left &= left - np.uint64(1)
    _backtrack(s, m, V, 0)
    s.sc[MODE] = CLAUSES
    for half in range(2):
        top = sp[0]
        for i in range(s.node.shape[0]):
            stack[top, i] = s.node[i]
        stack[top, best] = s.node[best] & ~keep if half == 0 else keep
        dirty[top] = -1
        sp[0] = top + 1
    return True


# --- the engine --------------------------------------------------------------------------

@kernel
def search(m, ws, stack, dirty, sp, ctrl, limit, stream, max_nodes, sols, nsol, stats):
    """Search the nodes on ``stack[:sp[0]]`` by clause learning; return a code from ``abi``.

    Same contract as the generic search: ``max_nodes`` bounds the conflicts and decisions
    of one call, and every node is on the stack, as candidate masks, whenever it returns.
    """
    s = _views(ws, m)
    V = m.n_values
    nodes = 0
    live = False
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
            if not _start(s, m, V, stack[sp[0]]):
                stats[STAT_NODES] += 1
                stats[STAT_BACKTRACKS] += 1
                continue
            live = True
        if (ctrl[CTRL_WANT_WORK] != 0 and sp[0] == 0 and (nodes & 255) == 0
                and stack.shape[0] >= 2 and _split(s, m, V, stack, dirty, sp)):
            return WORK_REQUESTED
        if (ctrl[CTRL_STOP] != 0 or nodes >= max_nodes
                or (ctrl[CTRL_WANT_WORK] != 0 and sp[0] >= 1)):
            _hand_back(s, stack, dirty, sp)  # it resumes here if it comes back
            if ctrl[CTRL_STOP] != 0:
                return STOPPED
            if nodes >= max_nodes:
                return BUDGET
            return WORK_REQUESTED
        nodes += 1
        stats[STAT_NODES] += 1
        stats[STAT_PASSES] += 1
        confl = _propagate(s, m, V)
        if confl >= 0:
            lv = s.sc[LEVEL]
            s.sc[NO_CONFLICT] = s.trail_lim[lv - 1] if lv > 0 else 0
            s.sc[CONFLICTS] += 1
            stats[STAT_BACKTRACKS] += 1
            if s.sc[LEVEL] == 0:  # the root itself has no solution
                s.sc[MODE] = EMPTY
                live = False
                continue
            _learn(s, m, V, confl)
            continue
        s.sc[NO_CONFLICT] = s.sc[TRAIL]
        if _restart_due(s, m, V):
            _backtrack(s, m, V, 0)
            continue
        d = _decide(s, m, V)
        if d > 0:
            stats[STAT_GUESSES] += 1
            continue
        if d < 0:  # the node's own facts contradict what was learned: no solution in it
            _backtrack(s, m, V, 0)
            s.sc[MODE] = CLAUSES
            live = False
            continue
        # every literal is assigned: a solution
        if sp[0] + s.sc[LEVEL] - s.sc[NASSUME] + 1 > stack.shape[0]:
            _hand_back(s, stack, dirty, sp)
            _backtrack(s, m, V, 0)
            s.sc[MODE] = CLAUSES
            return STACK_FULL
        k = nsol[0]
        if k < sols.shape[0]:
            for c in range(s.node.shape[0]):
                sols[k, c] = s.dom[c]
        nsol[0] = k + 1
        stats[STAT_SOLUTIONS] += 1
        _push_rest(s, V, ws.cur, stack, dirty, sp)
        _backtrack(s, m, V, 0)
        s.sc[MODE] = CLAUSES
        live = False
        if limit > 0 and nsol[0] >= limit:
            return LIMIT
        if stream and nsol[0] >= sols.shape[0]:
            return SOLUTIONS_FULL


def scratch_words(model) -> tuple[int, int]:
    """The workspace scratch (int64 words, uint64 words) the engine keeps its memory in."""
    k = model.kernel
    return (int(i64_words(model.n_cells, k.n_values, k.cell_groups.shape[0])),
            int(u64_words(model.n_cells, k.n_values, k.group_ptr.shape[0] - 1)))
