"""The 9x9 benchmark's timing (benchmarks/bench_sudoku.py): solvers take turns round by round,
each puzzle keeps its fastest round, and only valid solutions count as solved."""

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_sudoku as bench  # noqa: E402

from csolve.puzzle import get_puzzle_type  # noqa: E402
from csolve.solver import SolveOptions, solve_puzzles  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def hard_puzzles():
    sudoku = get_puzzle_type("sudoku")
    path = ROOT / "puzzles" / "sudoku" / "9x9-hard.txt"
    return sudoku, sudoku.parse(path.read_text(), path.name)


class Recorder:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def round(self):
        self.log.append(self.name)


def test_solvers_take_turns_round_by_round():
    log = []
    bench.take_turns([Recorder("csolve", log), Recorder("tdoku", log)], 3)
    assert log == ["csolve", "tdoku"] * 3


def test_csolve_rounds_keep_each_puzzle_fastest_round_and_valid_solutions():
    sudoku, puzzles = hard_puzzles()
    timed = bench.CsolveRounds(sudoku, puzzles, limit=1, timeout=30.0, engine=None)
    raw = []
    for _ in range(3):
        timed.round()
        raw.append([r.seconds * 1e6 for r in timed.results])
        for puzzle, result in zip(puzzles, timed.results, strict=True):
            assert not sudoku.validate(puzzle, result.solutions[0])
    assert np.array_equal(timed.best, np.minimum.reduce(np.array(raw)))
    row = timed.row()
    assert (row["puzzles"], row["solved"]) == (len(puzzles), len(puzzles))
    assert math.isclose(row["mean_us"], float(np.mean(np.minimum.reduce(np.array(raw)))))
    assert len(timed.walls) == 3


def test_tdoku_rounds_scale_cycles_to_wall_time_and_count_only_valid_solutions():
    sudoku, puzzles = hard_puzzles()
    solutions = [next(solve_puzzles(sudoku, [p], SolveOptions(limit=1))).solutions[0]
                 for p in puzzles]
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        assert not sudoku.validate(puzzle, solution)
    answers = ["".join(str(int(v)) for v in np.asarray(s).ravel()) for s in solutions]
    wrong, none = 1, 2  # puzzle 1 gets a broken grid back, puzzle 2 no answer at all
    answers[wrong] = answers[wrong][1:] + answers[wrong][0]

    def fake_tdoku(grid, limit, out, guesses, counts, cycles):
        """tdoku's C call as the benchmark makes it: an answer, a count, cycles per puzzle."""
        for i in range(grid.shape[0]):
            out[i, :81] = np.frombuffer(answers[i].encode("ascii"), np.uint8)
            counts[i] = 0 if i == none else 1
            cycles[i] = 1000 * (i + 1)

    timed = bench.TdokuRounds(sudoku, fake_tdoku, puzzles, limit=1)
    timed.round()
    # one round: the cycles, scaled to the wall time, add up to it, in proportion
    assert math.isclose(float(timed.best.sum()), timed.walls[0] * 1e6)
    assert math.isclose(float(timed.best[1] / timed.best[0]), 2.0)
    row = timed.row()
    assert row["solver"] == "tdoku"
    assert (row["puzzles"], row["solved"]) == (len(puzzles), len(puzzles) - 2)
