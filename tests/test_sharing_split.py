"""How a busy worker splits its stack for an idle one: every other node from the bottom."""

from __future__ import annotations

import numpy as np
import pytest

from csolve.engines import GENERIC, with_engine
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl

#: 9182 solutions (the backends' exact-count puzzle)
MANY = "...8.....43...9.87....2..1.2...........91......8....9.....51.....4...1.5.65.4..2."


def _state(sudoku, engine: str | None = None) -> SearchState:
    (p,) = sudoku.parse(MANY + "\n", "<test>")
    return SearchState(with_engine(sudoku.model(p), engine), solution_capacity=1)


def _count(state: SearchState) -> int:
    total = 0
    ctrl = new_ctrl()
    while state.size:
        r = state.run(ctrl, 0, False, 1 << 20)
        total += state.found
        assert r in (abi.EXHAUSTED, abi.BUDGET)
    return total


def test_take_alternate_gives_the_bottom_node_and_every_other(sudoku):
    state = _state(sudoku)
    for i in range(7):
        node = state.model.init.copy()
        node[0] = np.uint64(1 << i)  # a mark to tell the nodes apart
        state.push(node, i)
    nodes, dirty = state.take_alternate()
    assert list(dirty) == [0, 2, 4, 6]
    assert [int(n[0]) for n in nodes] == [1, 4, 16, 64]
    assert state.size == 3
    assert list(state.dirty[:3]) == [1, 3, 5]  # the rest keep their order, bottom first
    assert [int(state.stack[i, 0]) for i in range(3)] == [2, 8, 32]


def test_take_alternate_of_one_node_gives_it(sudoku):
    state = _state(sudoku)
    state.push_root()
    nodes, dirty = state.take_alternate()
    assert (len(nodes), list(dirty), state.size) == (1, [-1], 0)


@pytest.mark.parametrize("engine", [None, GENERIC])
def test_both_parts_of_a_split_search_count_every_solution_once(sudoku, engine):
    whole = _state(sudoku, engine)
    whole.push_root()
    expected = _count(whole)
    assert expected == 9182

    giver = _state(sudoku, engine)
    giver.push_root()
    ctrl = new_ctrl()
    found = 0
    while giver.size < 6:  # search until the stack holds a few open subtrees
        assert giver.run(ctrl, 0, False, 8) == abi.BUDGET
        found += giver.found
    depth = giver.size
    nodes, dirty = giver.take_alternate()
    assert len(nodes) + giver.size == depth
    taker = _state(sudoku, engine)
    taker.push_many(nodes, dirty)
    assert found + _count(giver) + _count(taker) == expected
