"""``interleave``'s searches that differ: the learning engine started in stable mode
(``differ=1``) and searches that do not split the puzzle (``share=0``, a portfolio). Nothing
lost, nothing counted twice, every solution validated, and both searches really run."""

from __future__ import annotations

import numpy as np
import pytest

from csolve.engines import with_engine
from csolve.kernels import abi
from csolve.search import SearchState, new_ctrl
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, run_cli
from .test_engines import MANY, _count_in_slices, parse

LEARNING = "learning"


def _evil(sudoku):
    path = PUZZLES / "sudoku" / "16x16-generated-evil.txt"
    return sudoku.parse(path.read_text(), str(path))


def _first_mode(model, stable_first: bool) -> int:
    """The learning engine's mode (1: stable) after its first conflicts from the root."""
    from csolve.kernels.learning import STABLE

    state = SearchState(model)
    state.push_root()
    ctrl = new_ctrl()
    ctrl[abi.CTRL_FIRST_MODE] = int(stable_first)
    state.run(ctrl, 1, False, 50)
    assert state.size == 1  # still searching its first node
    return int(state.ws.scratch_i64[STABLE])


def test_the_learning_engine_starts_in_the_mode_it_is_told(sudoku):
    p = _evil(sudoku)[0]
    model = with_engine(sudoku.model(p), LEARNING)
    assert _first_mode(model, False) == 0
    assert _first_mode(model, True) == 1


def test_a_search_started_in_stable_mode_loses_nothing(sudoku):
    """Stable mode from the first conflict, through budgets and a small stack: the count of
    a 9x9 with 9,182 solutions stays exact, each solution valid."""
    (p,) = parse(sudoku, MANY)
    model = with_engine(sudoku.model(p), LEARNING)
    ctrl = new_ctrl()
    ctrl[abi.CTRL_FIRST_MODE] = 1
    assert _count_in_slices(model, 200, 90, ctrl=ctrl) == 9182
    state = SearchState(model)
    state.push_root()
    seen: set[bytes] = set()
    while state.size:
        state.run(ctrl, 0, True, 1 << 16)
        for s in state.found_solutions()[:state.found]:
            assert sudoku.validate(p, sudoku.decode(p, s)) == []
            seen.add(s.tobytes())
    assert len(seen) == 9182


def _spy_first_modes(monkeypatch) -> dict[int, set[int]]:
    """Record, per search state, the first mode every call of its kernel was told."""
    modes: dict[int, set[int]] = {}
    run = SearchState.run

    def spy(self, ctrl, *args, **kwargs):
        modes.setdefault(id(self), set()).add(int(ctrl[abi.CTRL_FIRST_MODE]))
        return run(self, ctrl, *args, **kwargs)

    monkeypatch.setattr(SearchState, "run", spy)
    return modes


@pytest.mark.parametrize("share", ["1", "0"])
def test_differing_searches_both_run_and_count_exactly(sudoku, monkeypatch, share):
    """With ``differ=1`` one search starts focused and the other stable; split or not, the
    count is the one search's count and both searches did work."""
    modes = _spy_first_modes(monkeypatch)
    (p,) = parse(sudoku, MANY)
    r = solve_one(sudoku, p, SolveOptions(
        limit=0, engine=LEARNING, backend="interleave", workers=2,
        backend_options={"probe": 0.0, "differ": "1", "share": share}))
    assert (r.count, r.exact) == (9182, True)
    # (the warm-up before the clock starts is a third state, in focused mode)
    assert all(len(m) == 1 for m in modes.values())  # each search keeps its mode
    assert sorted(m for ms in modes.values() for m in ms).count(1) == 1
    assert all(w["nodes"] > 0 for w in r.stats.workers) and len(r.stats.workers) == 2
    if share == "0":
        assert sum(w["handed"] for w in r.stats.workers) == 0


@pytest.mark.parametrize("engine", [LEARNING, "dfs"])
@pytest.mark.parametrize("workers", [2, 3])
def test_searches_that_do_not_share_count_each_solution_once(sudoku, engine, workers):
    """Every search of a portfolio meets every solution; each is counted and streamed once,
    and the count is exact as soon as one search has seen the whole tree."""
    options = {"probe": 0.0, "share": "0", "differ": "1"}
    for text, expected in (("." * 16, 288), (MANY, 9182)):
        (p,) = parse(sudoku, text)
        streamed: list[bytes] = []

        def on_solution(sol, p=p, streamed=streamed):
            assert sudoku.validate(p, sol) == []
            streamed.append(np.asarray(sol).tobytes())

        r = solve_one(sudoku, p, SolveOptions(limit=0, engine=engine, backend="interleave",
                                              workers=workers, backend_options=options),
                      on_solution=on_solution)
        assert (r.count, r.exact) == (expected, True)
        assert len(streamed) == len(set(streamed)) == expected
        r = solve_one(sudoku, p, SolveOptions(limit=0, engine=engine, backend="interleave",
                                              workers=workers, backend_options=options))
        assert (r.count, r.exact) == (expected, True)
        r = solve_one(sudoku, p, SolveOptions(limit=5, engine=engine, backend="interleave",
                                              workers=workers, keep=5,
                                              backend_options=options))
        assert r.count == 5 and len({s.tobytes() for s in map(np.asarray, r.solutions)}) == 5


def test_a_portfolio_checks_uniqueness_exactly(sudoku):
    """``limit=2`` on hard 16x16 puzzles: one solution, proven unique, the same as one
    search finds; with the probe on, so the searches after it must not count its finds."""
    puzzles = _evil(sudoku)
    alone = list(solve_puzzles(sudoku, puzzles, SolveOptions(limit=2, engine=LEARNING)))
    for p, a in zip(puzzles, alone, strict=True):
        for probe in (0.0, 0.003):
            r = solve_one(sudoku, p, SolveOptions(
                limit=2, engine=LEARNING, backend="interleave", workers=2,
                backend_options={"probe": probe, "share": "0", "differ": "1"}))
            assert (r.status, r.count, r.exact) == (Status.SOLVED, 1, True)
            assert sudoku.validate(p, r.solutions[0]) == []
            assert (r.solutions[0] == a.solutions[0]).all()


def test_the_options_are_checked(sudoku):
    from csolve.errors import UnknownNameError

    (p,) = parse(sudoku, MANY)
    with pytest.raises(UnknownNameError, match="differ"):
        solve_one(sudoku, p, SolveOptions(backend="interleave", workers=2,
                                          backend_options={"differ": "yes"}))


def test_the_options_from_the_command_line(tmp_path):
    f = tmp_path / "many.txt"
    f.write_text(MANY + "\n")
    args = ["solve", "sudoku", str(f), "--count", "--engine", LEARNING, "--backend",
            "interleave", "--workers", "2", "-O", "probe=0"]
    assert run_cli(*args, "-O", "differ=1", "-O", "share=0") == (0, "9182\n", "")
    assert run_cli(*args, "-O", "differ=1") == (0, "9182\n", "")
    code, out, err = run_cli(*args, "-O", "share=2")
    assert (code, out) == (2, "") and "share" in err and len(err.splitlines()) == 1
