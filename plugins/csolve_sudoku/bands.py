"""A search engine for 9x9 Sudoku on digit bitboards, in the style of the fastest C solvers.

The generic search keeps one candidate mask per cell and finds hidden singles by scanning
groups. Here a state is turned around: for each digit and each band (three rows of boxes),
a 27-bit mask of the cells where that digit may still go. In that layout the band-level
reasoning is a few word operations per digit:

- a digit sits once in each row and once in each box of a band, so the row/box segments it
  occupies must contain a permutation of the three boxes; a 512-entry table keeps only the
  segments some permutation uses (this covers pointing and claiming inside the band) and
  yields 0 when none fits (a contradiction);
- a row or box of the band left with one place for the digit is a hidden single;
- the same permutation argument between the columns and boxes of a stack does pointing and
  claiming there; a column with one place left for a digit needs no rule of its own, since
  that argument confines the digit in the place's box to the place's column, and the box
  then has one place for it;
- bit-sliced counts over the nine digits give naked singles and empty cells;
- a row or column segment (the three cells of a row, or of a column, in one box) holds three
  digits: when only three may still go there they all must, and when three must go there
  no other digit may (tdoku's triads, Dillon 2019).

The search branches the way tdoku does (Dillon 2019): the band or stack whose digits have
the fewest configurations (placements of the digit's three row/box segments that some
permutation allows) not all fixed, and in it the digit with the fewest, two when one has
two. The branch puts the digit in one of its segments, or takes it out; the segment is the
one used by the fewest configurations.

State: ``F[d*3+b]`` (27 bits), ``C[d*3+b]`` (F as last processed, so propagation only
revisits what changed) and ``U[b]`` (cells not yet placed): 57 int64 words, copied on branch.

The engine follows the search template's contract (:func:`search`): it pops nodes stored as
cell masks, pushes its own nodes in the band layout (marked ``BAND_NODE`` in ``dirty``), and
before it returns turns every such node back into cell masks, so backends, batches and the
generator see the core's layout only.
"""

from functools import reduce
from itertools import permutations
from operator import or_

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
from csolve.kernels.bits import fast_pext, kernel, lowbit_index, pext, popcount
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE

WIDTH = 64  # words per band state (57 used); fits in a stack row of 81 cells
OFF_C = 27  # C[i]: F[i] as last processed
OFF_U = 54  # U[b]: unplaced cells of band b
USED = 57
ALL27 = (1 << 27) - 1
BAND_NODE = -2  # ``dirty`` value of a stack row that holds a band state


def _tables() -> tuple[np.ndarray, ...]:
    """Lookup tables over a band's 27 cells (bit ``9 * row + column``), worked out in Python
    integers (each program start pays for them) and stored as arrays."""
    def table(values) -> np.ndarray:
        return np.array(list(values), np.int64)

    patterns = range(512)
    # 9-bit row -> 3 bits: boxes it touches
    boxes_of_row = table(sum(1 << k for k in range(3) if (x >> (3 * k)) & 7) for x in patterns)
    perms = list(permutations(range(3)))
    perm_bits = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in perms]
    # 3x3 occupancy (bit 3 * row + box) -> the bits some permutation fully inside it uses:
    # across a stack (band/column occupancy) that is the table itself; in a band, each bit
    # stands for its segment's three cells
    used = [_or_all(bits for bits in perm_bits if occ & bits == bits) for occ in patterns]
    stack_allowed = table(used)
    allowed = table(_or_all(7 << (9 * (t // 3) + 3 * (t % 3)) for t in range(9) if (u >> t) & 1)
                    for u in used)
    keep = []  # placing at pos: cells of the band that stay possible
    for pos in range(27):
        r, c = divmod(pos, 9)
        peers = sum(1 << q for q in range(27) if q // 9 == r or (q % 9) // 3 == c // 3)
        keep.append((ALL27 & ~peers) | (1 << pos))
    keep = table(keep)
    columns = [(1 << c) | (1 << (c + 9)) | (1 << (c + 18)) for c in range(9)]
    boxes = [0x1C0E07 << (3 * k) for k in range(3)]
    column, box = table(columns), table(boxes)
    # 3x3 occupancy -> the permutations it contains
    perm_set = table(sum(1 << j for j, bits in enumerate(perm_bits) if occ & bits == bits)
                     for occ in patterns)
    # a branch splits a digit's configurations in a band or stack by one segment (a row of a
    # box, or a column of a box): the segment used by the fewest of them, but by some
    split = [0] * 64
    for js in range(64):
        best = 99
        for t in range(9):
            r, k = divmod(t, 3)
            n = sum(1 for j, p in enumerate(perms) if (js >> j) & 1 and p[r] == k)
            if 0 < n < best:
                best = n
                split[js] = t
    split = table(split)
    perm_count = table(int(x).bit_count() for x in perm_set)
    stack_cells = table((7 | (7 << 9) | (7 << 18)) << (3 * st) for st in range(3))
    bits_of = [[t for t in range(9) if (x >> t) & 1] for x in patterns]
    # 3x3 row/box occupancy -> cells of those rows, boxes
    row_box_cells = table(_or_all((511 << (9 * (t // 3))) | boxes[t % 3] for t in ts)
                          for ts in bits_of)
    # row segments (bit 3 * row + box) -> their cells; -> the other segments of their rows
    # and boxes; columns (9 bits) -> the other cells of their boxes
    segment_cells = table(_or_all(7 << (9 * (t // 3) + 3 * (t % 3)) for t in ts)
                          for ts in bits_of)
    cross_out = table(_or_all(((7 << (3 * (t // 3))) | (73 << (t % 3))) & ~(1 << t) for t in ts)
                      for ts in bits_of)
    box_beside_columns = table(_or_all(boxes[t // 3] & ~columns[t] for t in ts)
                               for ts in bits_of)
    # 3x3 occupancy -> its bits alone in their row
    fixed_rows = table(_or_all(x & (7 << (3 * r)) for r in range(3)
                              if ((x >> (3 * r)) & 7).bit_count() == 1) for x in patterns)
    return (boxes_of_row, allowed, keep, column, box, stack_allowed, perm_set, perm_count,
            split, stack_cells, row_box_cells, segment_cells, cross_out, box_beside_columns,
            fixed_rows)


def _or_all(values) -> int:
    """The bitwise or of ``values`` (0 for none)."""
    return reduce(or_, values, 0)


(BOXES_OF_ROW, ALLOWED, KEEP, COLUMN, BOX, STACK_ALLOWED, PERM_SET, PERM_COUNT, SPLIT,
 STACK_CELLS, ROW_BOX_CELLS, SEGMENT_CELLS, CROSS_OUT, BOX_BESIDE_COLUMNS,
 FIXED_ROWS) = _tables()


@kernel(inline="always")
def _low(x):
    return np.int64(lowbit_index(np.uint64(x)))


@kernel(inline="always")
def _count(x):
    return np.int64(popcount(np.uint64(x)))


@kernel(inline="always")
def _single(x):
    return (x & (x - 1)) == 0


@kernel(inline="always")
def _columns(a):
    """The 9-bit set of columns where a band mask has a cell."""
    return (a | (a >> 9) | (a >> 18)) & 511


@kernel(inline="always")
def place(S, d, b, pos):
    """Put digit ``d`` in cell ``pos`` of band ``b``: it leaves the cell's row, box and
    column, and the other digits leave the cell."""
    bit = np.int64(1) << pos
    own = S[d * 3 + b] & KEEP[pos]
    S[OFF_U + b] &= ~bit
    col = ~COLUMN[pos % 9]
    S[d * 3] &= col
    S[d * 3 + 1] &= col
    S[d * 3 + 2] &= col
    for e in range(9):
        S[e * 3 + b] &= ~bit
    S[d * 3 + b] = own


@kernel(inline="always")
def _place_forced(S, d, b, cells):
    """Place digit ``d`` in each of ``cells`` (band ``b``) not placed yet; False when one of
    them already lost the digit to another single."""
    while cells != 0:
        pos = _low(cells)
        cells &= cells - 1
        if (S[d * 3 + b] >> pos) & 1 == 0:
            return False
        if (S[OFF_U + b] >> pos) & 1:
            place(S, d, b, pos)
    return True


@kernel
def propagate_bands(S, stats, triad_moves):
    """Band reasoning, then naked singles, then the stacks, then the triads, to a fixpoint
    (each step only when the cheaper ones are stuck); False on a contradiction."""
    while True:
        stats[STAT_PASSES] += 1
        progress = False
        todo = np.int64(0)  # the words changed since last processed, found without branches
        for i in range(27):
            todo |= np.int64(S[i] != S[OFF_C + i]) << i
        while todo != 0:
            i = _low(todo)
            todo &= todo - 1
            A = S[i]
            d = i // 3
            b = i - 3 * d
            A &= ALLOWED[_band_occ(A)]
            if A == 0:
                return False
            S[i] = A
            forced = np.int64(0)  # rows and boxes with one place left, without branches
            for r in range(3):
                x = (A >> (9 * r)) & 511
                forced |= -np.int64((x & (x - 1)) == 0) & (x << (9 * r))
            for k in range(3):
                x = A & BOX[k]
                forced |= -np.int64((x & (x - 1)) == 0) & x
            forced &= S[OFF_U + b]
            if forced != 0 and not _place_forced(S, d, b, forced):
                return False
            S[OFF_C + i] = S[i]
            progress = True
        if progress:
            continue
        if S[OFF_U] | S[OFF_U + 1] | S[OFF_U + 2] == 0:
            return True  # every cell placed, each one taken out of its peers
        for b in range(3):  # naked singles and empty cells, counted over the digits
            ones = np.int64(0)
            twos = np.int64(0)
            for d in range(9):
                x = S[d * 3 + b]
                twos |= ones & x
                ones |= x
            if S[OFF_U + b] & ~ones:
                return False
            naked = ones & ~twos & S[OFF_U + b]
            while naked != 0:
                pos = _low(naked)
                naked &= naked - 1
                bit = np.int64(1) << pos
                if S[OFF_U + b] & bit == 0:
                    continue
                d = 0
                while d < 9 and S[d * 3 + b] & bit == 0:
                    d += 1
                if d == 9:
                    return False  # an earlier single emptied it
                place(S, d, b, pos)
                progress = True
        if progress:
            continue
        r = stack_locked(S)
        if r == CONTRADICTION:
            return False
        if r == NO_CHANGE:
            if not triad_moves and _open_cells(S) <= SPARSE:
                return True
            r = triads(S, triad_moves)
            if r == CONTRADICTION:
                return False
            if r == NO_CHANGE:
                return True


#: open cells above which a count checks the triads (below, dead ends show soon enough)
SPARSE = 50


@kernel(inline="always")
def _open_cells(S):
    return (popcount(np.uint64(S[OFF_U])) + popcount(np.uint64(S[OFF_U + 1]))
            + popcount(np.uint64(S[OFF_U + 2])))


@kernel
def stack_locked(S):
    """Pointing and claiming across the bands, between the columns and boxes of each stack.

    A digit sits once in each column and once in each box of a stack, so the band/column
    segments it occupies must contain a permutation; segments no permutation uses go. Runs
    only when nothing cheaper applies. Returns CONTRADICTION, NO_CHANGE or CHANGED (a
    changed F differs from its C, so the band pass revisits it).
    """
    changed = NO_CHANGE
    for d in range(9):
        a0 = S[d * 3]
        a1 = S[d * 3 + 1]
        a2 = S[d * 3 + 2]
        c0 = _columns(a0)
        c1 = _columns(a1)
        c2 = _columns(a2)
        k0 = np.int64(0)
        k1 = np.int64(0)
        k2 = np.int64(0)
        for st in range(3):
            sh = 3 * st
            occ = ((c0 >> sh) & 7) | (((c1 >> sh) & 7) << 3) | (((c2 >> sh) & 7) << 6)
            kept = STACK_ALLOWED[occ]
            if kept == 0:
                return CONTRADICTION
            k0 |= (kept & 7) << sh
            k1 |= ((kept >> 3) & 7) << sh
            k2 |= ((kept >> 6) & 7) << sh
        if (c0 & ~k0) | (c1 & ~k1) | (c2 & ~k2):
            S[d * 3] = a0 & (k0 | (k0 << 9) | (k0 << 18))
            S[d * 3 + 1] = a1 & (k1 | (k1 << 9) | (k1 << 18))
            S[d * 3 + 2] = a2 & (k2 | (k2 << 9) | (k2 << 18))
            changed = CHANGED
    return changed


@kernel
def triads(S, moves):
    """Row and column segments (the three cells of a row, or of a column, in one box) hold
    three digits each. Where only three digits may still go in a segment, each of them goes
    there, leaving the rest of the segment's row and box (or column and box); where three
    digits must go in a segment (every configuration of theirs uses it), every other digit
    leaves it. Fewer than three, or more than three, is a contradiction. Counted per band
    over the digits, bit-sliced, on one word per digit: bits ``3 * row + box`` for the row
    segments, ``9 + column`` for the column segments. Runs only when nothing cheaper
    applies (the state is consistent with the band and stack permutations). Returns
    CONTRADICTION, NO_CHANGE or CHANGED."""
    changed = NO_CHANGE
    for b in range(3):
        n1 = n2 = n3 = n4 = np.int64(0)
        m1 = m2 = m3 = m4 = np.int64(0)
        for d in range(9):
            a = S[d * 3 + b]
            occ = _band_occ(a)
            cols = _columns(a)
            w = occ | (cols << 9)
            n4 |= n3 & w
            n3 |= n2 & w
            n2 |= n1 & w
            n1 |= w
            f = FIXED_ROWS[occ] | (FIXED_ROWS[cols] << 9)
            m4 |= m3 & f
            m3 |= m2 & f
            m2 |= m1 & f
            m1 |= f
        if n3 != (1 << 18) - 1 or m4 != 0:
            return CONTRADICTION
        if not moves:
            continue
        u = S[OFF_U + b]  # only segments with an open cell: the others are settled
        open_ = _band_occ(u) | (_columns(u) << 9)
        three = n3 & ~n4 & open_
        must = m3 & open_
        if three | must == 0:
            continue
        diff = np.int64(0)
        for d in range(9):  # without a branch per digit: most digits change nothing
            a = S[d * 3 + b]
            occ = _band_occ(a)
            cols = _columns(a)
            x = occ & three
            y = cols & (three >> 9)
            gone = (occ | (cols << 9)) & must & ~(FIXED_ROWS[occ] | (FIXED_ROWS[cols] << 9))
            g = gone >> 9
            new = (a & SEGMENT_CELLS[occ & ~CROSS_OUT[x & 511]] & ~BOX_BESIDE_COLUMNS[y]
                   & ~SEGMENT_CELLS[gone & 511] & ~(g | (g << 9) | (g << 18)))
            S[d * 3 + b] = new
            diff |= a ^ new
            other = y | (y << 9) | (y << 18)
            for e in range(3):
                if e != b:
                    diff |= S[d * 3 + e] & other
                    S[d * 3 + e] &= ~other
        if diff != 0:
            changed = CHANGED
    return changed


@kernel
def branch_cell(S):
    """``27 * band + pos`` of an open cell with the fewest candidates (a bivalue one when
    there is one, found by bit-sliced counting); -1 when every cell is placed."""
    for b in range(3):
        ones = np.int64(0)
        twos = np.int64(0)
        more = np.int64(0)
        for d in range(9):
            x = S[d * 3 + b]
            more |= twos & x
            twos |= ones & x
            ones |= x
        two = twos & ~more & S[OFF_U + b]
        if two != 0:
            return b * 27 + _low(two)
    best = -1
    best_count = 99
    for b in range(3):
        open_ = S[OFF_U + b]
        while open_ != 0:
            pos = _low(open_)
            open_ &= open_ - 1
            k = 0
            for d in range(9):
                k += (S[d * 3 + b] >> pos) & 1
            if k < best_count:
                best_count = k
                best = b * 27 + pos
    return best


@kernel(inline="always")
def _band_occ_pext(A):
    """3x3 occupancy (bit ``3 * row + box``) of a band mask's row/box segments: each
    segment's three bits or-ed into its first, and those nine packed in one instruction."""
    return pext(A | (A >> 1) | (A >> 2), np.int64(0x1249249))


@kernel(inline="always")
def _band_occ_tables(A):
    """The same from three table lookups (the boxes each row touches), for CPUs without a
    fast ``pext``."""
    return (BOXES_OF_ROW[A & 511] | (BOXES_OF_ROW[(A >> 9) & 511] << 3)
            | (BOXES_OF_ROW[(A >> 18) & 511] << 6))


# chosen once, at import: the kernels that call it are compiled (and cached) for one CPU
_band_occ = _band_occ_pext if fast_pext() else _band_occ_tables


@kernel(inline="always")
def _gather(x):
    """Bits 0-2, 9-11 and 18-20 of ``x`` as a 9-bit number."""
    x &= 0x1C0E07
    return (x | (x >> 6) | (x >> 12)) & 511


@kernel(inline="always")
def _stack_occ(S, d, st):
    """3x3 occupancy (bit ``3 * band + column``) of digit ``d`` in stack ``st``."""
    sh = 3 * st
    return (((_columns(S[d * 3]) >> sh) & 7) | (((_columns(S[d * 3 + 1]) >> sh) & 7) << 3)
            | (((_columns(S[d * 3 + 2]) >> sh) & 7) << 6))


@kernel(inline="always")
def _occ(S, d, unit):
    if unit < 3:
        return _band_occ(S[d * 3 + unit])
    return _stack_occ(S, d, unit - 3)


@kernel
def branch_unit(S):
    """The band or stack (``unit``: 0-2 bands, 3-5 stacks) with the fewest configurations
    over the digits, not all fixed, and its digit with the fewest (two when one has two);
    ``(-1, -1)`` when every unit is fixed."""
    t0 = t1 = t2 = t3 = t4 = t5 = 0
    for d in range(9):
        a0 = S[d * 3]
        a1 = S[d * 3 + 1]
        a2 = S[d * 3 + 2]
        t0 += PERM_COUNT[_band_occ(a0)]
        t1 += PERM_COUNT[_band_occ(a1)]
        t2 += PERM_COUNT[_band_occ(a2)]
        c = _columns(a0) | (_columns(a1) << 9) | (_columns(a2) << 18)
        t3 += PERM_COUNT[_gather(c)]
        t4 += PERM_COUNT[_gather(c >> 3)]
        t5 += PERM_COUNT[_gather(c >> 6)]
    best_unit = -1
    best_total = 1 << 30
    for unit, total in enumerate((t0, t1, t2, t3, t4, t5)):
        if 9 < total < best_total:
            best_total = total
            best_unit = unit
    if best_unit < 0:
        return -1, -1
    best_d = -1
    best_k = 99
    for d in range(9):
        k = PERM_COUNT[_occ(S, d, best_unit)]
        if 1 < k < best_k:
            best_k = k
            best_d = d
            if k == 2:
                break
    return best_unit, best_d


@kernel(inline="always")
def segment_branch(S, unit, d, t, inside):
    """Digit ``d`` goes to segment ``t`` (``3 * row + box`` of a band, ``3 * band +
    column`` of a stack) of ``unit`` when ``inside``; otherwise it leaves that segment."""
    r = t // 3
    k = t - 3 * r
    if unit < 3:
        seg = np.int64(7) << (9 * r + 3 * k)
        if inside:
            S[d * 3 + unit] &= ~((np.int64(511) << (9 * r)) ^ seg) & ~(BOX[k] ^ seg)
        else:
            S[d * 3 + unit] &= ~seg
    else:
        col = COLUMN[3 * (unit - 3) + k]
        if inside:
            for b in range(3):
                if b == r:
                    S[d * 3 + b] &= ~(STACK_CELLS[unit - 3] ^ col)
                else:
                    S[d * 3 + b] &= ~col
        else:
            S[d * 3 + r] &= ~col


@kernel
def load(S, cells):
    """Band state from 81 cell masks (row-major), cells with one candidate placed;
    everything is (re)processed.

    Built in bulk rather than one placement at a time: the singles of each digit go into
    its words first, then each digit keeps, of the cells open to it, those outside the rows,
    boxes and columns of its singles. Two singles of a digit that see each other leave the
    state contradicted (one of its words empty).
    """
    for i in range(27):
        S[i] = 0  # the singles of each digit
        S[OFF_C + i] = 0  # cells open to some digits only: their candidates
    odd = False
    for b in range(3):
        full = np.int64(0)  # cells open to every digit, the common case
        placed = np.int64(0)
        for pos in range(27):
            m = np.int64(cells[b * 27 + pos])
            single = np.int64((m & (m - 1)) == 0) & np.int64(m != 0)
            full |= np.int64(m == 511) << pos
            placed |= single << pos
            # without a branch per cell: an open cell adds nothing to digit 0's word
            S[_low(m | 512) * 3 + b] |= single << pos
            odd |= (m != 511) & (single == 0)
        S[OFF_U + b] = ALL27 & ~placed
        S[USED + b] = full  # scratch, past the words a node keeps
    if odd:  # cells open to some digits (a node handed over by another search): bit by bit
        for b in range(3):
            for pos in range(27):
                m = np.int64(cells[b * 27 + pos])
                if m == 511 or (m & (m - 1)) == 0:
                    continue
                while m != 0:
                    d = _low(m)
                    m &= m - 1
                    S[OFF_C + d * 3 + b] |= np.int64(1) << pos
    ok = True
    for d in range(9):
        g0 = S[d * 3]
        g1 = S[d * 3 + 1]
        g2 = S[d * 3 + 2]
        cols = _columns(g0) | _columns(g1) | _columns(g2)
        n = _count(g0) + _count(g1) + _count(g2)
        if _count(cols) != n:
            ok = False  # two singles of d in one column
        spread = cols | (cols << 9) | (cols << 18)
        for b in range(3):
            g = S[d * 3 + b]
            occ = _band_occ(g)
            k = _count(g)
            rows = np.int64(occ & 7 != 0) + np.int64(occ & 56 != 0) + np.int64(occ & 448 != 0)
            boxes = np.int64(occ & 73 != 0) + np.int64(occ & 146 != 0) + np.int64(occ & 292 != 0)
            if rows != k or boxes != k:
                ok = False  # two singles of d in one row or box
            open_ = S[USED + b] | S[OFF_C + d * 3 + b]
            S[d * 3 + b] = g | (open_ & ~(ROW_BOX_CELLS[occ] | spread))
    for i in range(27):
        S[OFF_C + i] = -1
    if not ok:
        S[0] = 0


@kernel
def store(S, cells):
    """81 cell masks from a band state."""
    for c in range(81):
        cells[c] = 0
    for d in range(9):
        v = np.uint64(1) << np.uint64(d)
        for b in range(3):
            x = S[d * 3 + b]
            while x != 0:
                cells[b * 27 + _low(x)] |= v
                x &= x - 1


@kernel(inline="always")
def _save(S, row):
    for i in range(USED):
        row[i] = np.uint64(S[i])


@kernel(inline="always")
def _restore(S, row):
    for i in range(USED):
        S[i] = np.int64(row[i])


@kernel
def _hand_back(stack, dirty, sp, tmp, code):
    """Turn every band node on the stack back into cell masks, then return ``code``."""
    for i in range(sp[0]):
        if dirty[i] == BAND_NODE:
            _restore(tmp, stack[i])
            store(tmp, stack[i])
            dirty[i] = -1
    return code


@kernel
def search(m, ws, stack, dirty, sp, ctrl, limit, stream, max_nodes, sols, nsol, stats):
    """The search template's :func:`~csolve.kernels.search_template.search`, on bitboards.

    Same arguments, return codes and stack contract; ``m`` must be a 9x9 Sudoku model (the
    plugin names this engine only for those).
    """
    cap = stack.shape[0]
    cur = ws.scratch_i64[:WIDTH]
    tmp = ws.scratch_i64[WIDTH:2 * WIDTH]
    nodes = 0
    live = False
    while True:
        if not live:
            if sp[0] == 0:
                return EXHAUSTED
            if ctrl[CTRL_STOP] != 0:
                return _hand_back(stack, dirty, sp, tmp, STOPPED)
            if nodes >= max_nodes:
                return _hand_back(stack, dirty, sp, tmp, BUDGET)
            if ctrl[CTRL_WANT_WORK] != 0 and sp[0] >= 2:
                return _hand_back(stack, dirty, sp, tmp, WORK_REQUESTED)
            sp[0] -= 1
            top = sp[0]
            if dirty[top] == BAND_NODE:
                _restore(cur, stack[top])
            else:
                load(cur, stack[top])
            live = True
        nodes += 1
        stats[STAT_NODES] += 1
        if not propagate_bands(cur, stats, 0 < limit <= 2):
            live = False
            stats[STAT_BACKTRACKS] += 1
            continue
        unit = -1
        bd = -1
        c = -1
        if cur[OFF_U] | cur[OFF_U + 1] | cur[OFF_U + 2] != 0:
            unit, bd = branch_unit(cur)
            c = 0 if unit >= 0 else branch_cell(cur)
        if c < 0:
            k = nsol[0]
            if k < sols.shape[0]:
                store(cur, sols[k])
            nsol[0] = k + 1
            stats[STAT_SOLUTIONS] += 1
            live = False
            if limit > 0 and nsol[0] >= limit:
                return _hand_back(stack, dirty, sp, tmp, LIMIT)
            if stream and nsol[0] >= sols.shape[0]:
                return _hand_back(stack, dirty, sp, tmp, SOLUTIONS_FULL)
            continue
        if sp[0] + 2 > cap:
            store(cur, stack[sp[0]])
            dirty[sp[0]] = -1
            sp[0] += 1
            return _hand_back(stack, dirty, sp, tmp, STACK_FULL)
        top = sp[0]
        if unit >= 0:
            t = SPLIT[PERM_SET[_occ(cur, bd, unit)]]
            # the digit outside the segment is explored later; inside it now
            _save(cur, stack[top])
            segment_branch(cur, unit, bd, t, False)
            for b in range(3):
                w = cur[bd * 3 + b]
                cur[bd * 3 + b] = np.int64(stack[top, bd * 3 + b])
                stack[top, bd * 3 + b] = np.uint64(w)
            segment_branch(cur, unit, bd, t, True)
        else:
            b = c // 27
            pos = c - 27 * b
            bit = np.int64(1) << pos
            d = 0
            while cur[d * 3 + b] & bit == 0:
                d += 1
            # the alternative (d not in the cell) is explored later; the guess now
            _save(cur, stack[top])
            stack[top, d * 3 + b] = np.uint64(cur[d * 3 + b] & ~bit)
            place(cur, d, b, pos)
        dirty[top] = BAND_NODE
        sp[0] = top + 1
        stats[STAT_GUESSES] += 1
        if ctrl[CTRL_STOP] != 0 or ctrl[CTRL_WANT_WORK] != 0 or nodes >= max_nodes:
            _save(cur, stack[sp[0]])
            dirty[sp[0]] = BAND_NODE
            sp[0] += 1
            if ctrl[CTRL_STOP] != 0:
                return _hand_back(stack, dirty, sp, tmp, STOPPED)
            if ctrl[CTRL_WANT_WORK] != 0:
                return _hand_back(stack, dirty, sp, tmp, WORK_REQUESTED)
            return _hand_back(stack, dirty, sp, tmp, BUDGET)
