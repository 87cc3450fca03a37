"""The 9x9 bitboard engine's own steps, against plain cell-by-cell definitions.

Loading builds a band state in bulk; it must equal placing the singles one by one (every
other cell loses the values of the singles it sees), and singles that see each other must
leave a contradiction, never a state that looks solved.
"""

from __future__ import annotations

import numpy as np
import pytest
from csolve_sudoku import bands
from hypothesis import given, settings
from hypothesis import strategies as st

from csolve.kernels.bits import fast_pext, has_bmi2, kernel, pext

GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _peers(c: int) -> set[int]:
    r, k = divmod(c, 9)
    return {x for x in range(81) if x != c and (
        x // 9 == r or x % 9 == k or (x // 27 == r // 3 and (x % 9) // 3 == k // 3))}


PEERS = [_peers(c) for c in range(81)]


@settings(deadline=None)
@given(st.integers(0, 2**27 - 1))
def test_band_occupancy_marks_the_row_box_segments_with_a_cell(mask):
    expected = sum(1 << (3 * r + k) for r in range(3) for k in range(3)
                   if mask >> (9 * r + 3 * k) & 7)
    assert bands._band_occ_tables(np.int64(mask)) == expected
    if has_bmi2():  # wherever the instruction runs, fast or not
        assert bands._band_occ_pext(np.int64(mask)) == expected


def test_the_engine_uses_pext_where_this_cpu_runs_it_fast():
    chosen = bands._band_occ_pext if fast_pext() else bands._band_occ_tables
    assert bands._band_occ is chosen


@kernel
def _pext(x, m):
    return pext(x, m)


@pytest.fixture(scope="module")
def _pext_compiled():
    """Compiled before hypothesis runs the test: numba raises the recursion limit as it
    compiles, which hypothesis would warn of."""
    if has_bmi2():
        _pext(0, 0)


def reference_pext(x: int, m: int) -> int:
    out = k = 0
    for i in range(64):
        if m >> i & 1:
            out |= (x >> i & 1) << k
            k += 1
    return out


I64 = st.integers(-2**63, 2**63 - 1)


@pytest.mark.skipif(not has_bmi2(), reason="this CPU has no BMI2")
@settings(deadline=None)
@given(I64, I64)
@pytest.mark.usefixtures("_pext_compiled")
def test_pext_packs_the_bits_under_the_mask(x, m):
    expected = reference_pext(x & (2**64 - 1), m & (2**64 - 1))
    assert int(_pext(np.int64(x), np.int64(m))) & (2**64 - 1) == expected


@pytest.mark.parametrize("cpu, features, fast", [
    ("znver4", "+avx2,+bmi2,+popcnt", True),
    ("skylake", "+bmi2", True),
    ("znver2", "+avx2,+bmi2", False),  # microcoded
    ("znver1", "+bmi2", False),
    ("bdver4", "+bmi2", False),
    ("generic", "+bmi2", False),  # a CPU LLVM does not know
    ("haswell", "+avx2,-bmi2", False),
    ("neoverse-n1", "+neon", False),
])
def test_pext_only_where_the_cpu_runs_it_in_one_instruction(cpu, features, fast):
    assert fast_pext(cpu, features) is fast


def test_a_cpu_name_alone_is_judged_with_this_machines_features():
    assert fast_pext("znver2") is False
    assert fast_pext("skylake") is has_bmi2()


def reference_load(cells: np.ndarray) -> np.ndarray:
    """Each single kept; every other cell without the values of the singles it sees."""
    out = cells.copy()
    for c in range(81):
        m = int(cells[c])
        if m and m & (m - 1) == 0:
            for x in PEERS[c]:
                if not (int(cells[x]) and int(cells[x]) & (int(cells[x]) - 1) == 0):
                    out[x] &= np.uint64(~m & 511)
    return out


def loaded(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    state = np.zeros(bands.WIDTH, np.int64)
    bands.load(state, cells)
    back = np.zeros(81, np.uint64)
    bands.store(state, back)
    return state, back


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 81), st.integers(0, 30))
def test_bulk_load_equals_placing_singles_one_by_one(seed, keep, odd):
    rng = np.random.default_rng(seed)
    cells = np.full(81, 511, np.uint64)
    for c in rng.permutation(81)[:keep]:
        cells[c] = 1 << (int(GRID[c]) - 1)
    for c in rng.permutation(81)[:odd]:  # cells open to some values (a handed-over node)
        m = int(rng.integers(0, 511))
        if cells[c] == 511 and (m == 0 or m & (m - 1)):  # no new single: they could clash
            cells[c] = m
    state, back = loaded(cells)
    assert np.array_equal(back, reference_load(cells))
    for b in range(3):  # the open cells: exactly those that are no single
        open_ = [m == 0 or int(m) & (int(m) - 1) != 0 for m in cells[27 * b:27 * b + 27]]
        assert state[bands.OFF_U + b] == sum(1 << p for p, o in enumerate(open_) if o)


@pytest.mark.parametrize("a,b", [(0, 8), (0, 72), (0, 20), (40, 41), (3, 57)])
def test_singles_that_see_each_other_contradict(a, b):
    cells = np.full(81, 511, np.uint64)
    cells[a] = cells[b] = 1 << 4
    state, _ = loaded(cells)
    assert not bands.propagate_bands(state, np.zeros(8, np.int64), True)


def test_a_full_grid_loads_solved_and_one_wrong_digit_contradicts():
    cells = np.array([1 << (int(v) - 1) for v in GRID], np.uint64)
    state, back = loaded(cells)
    assert np.array_equal(back, cells)
    assert bands.propagate_bands(state, np.zeros(8, np.int64), True)
    cells[0], cells[1] = cells[1], cells[0]  # two digits swapped within a row: columns clash
    state, _ = loaded(cells)
    assert not bands.propagate_bands(state, np.zeros(8, np.int64), True)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_propagation_keeps_every_digit_of_the_solution(seed, keep):
    """Every rule (band and stack permutations, singles, triads) only takes out candidates
    no solution uses: the known solution of a partial grid survives propagation whole."""
    rng = np.random.default_rng(seed)
    cells = np.full(81, 511, np.uint64)
    for c in rng.permutation(81)[:keep]:
        cells[c] = 1 << (int(GRID[c]) - 1)
    state, _ = loaded(cells)
    assert bands.propagate_bands(state, np.zeros(8, np.int64), True)
    assert bands.triads(state, True) != bands.CONTRADICTION
    back = np.zeros(81, np.uint64)
    bands.store(state, back)
    for c in range(81):
        assert int(back[c]) >> (int(GRID[c]) - 1) & 1, c
    counting, _ = loaded(cells)  # a count checks the triads but moves nothing by them
    assert bands.propagate_bands(counting, np.zeros(8, np.int64), False)


@pytest.mark.parametrize("kept", [0, 4, 8, 12, 16])
def test_sparse_grids_need_few_nodes(sudoku, kept):
    """Segments pinned by the branches can hold more digits than cells long before singles
    notice; the triads see it, so a grid with few givens (many solutions) is solved at
    once instead of searching an empty subtree for millions of nodes."""
    import random

    import csolve

    rng = random.Random(kept)
    lines = []
    for _ in range(10):
        keep = set(rng.sample(range(81), kept))
        lines.append("".join(GRID[i] if i in keep else "." for i in range(81)))
    # the time limit only keeps a regression from hanging: these take milliseconds
    results = csolve.solve("sudoku", "\n".join(lines) + "\n", engine="sudoku9-bands",
                           escalate_after=0, timeout=60)
    for r in results:
        assert r.engine == "sudoku9-bands" and r.status.value == "solved"
        assert sudoku.validate(r.puzzle, r.solution) == []
        assert r.stats.nodes < 500, r.puzzle.data
