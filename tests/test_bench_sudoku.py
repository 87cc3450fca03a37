"""The 9x9 benchmark's timing (benchmarks/bench_sudoku.py): solvers take turns round by round,
and each puzzle keeps its fastest round."""

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_sudoku as bench  # noqa: E402

from csolve.puzzle import get_puzzle_type  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Recorder:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def round(self):
        self.log.append(self.name)


def test_solvers_take_turns_round_by_round():
    log = []
    bench.take_turns([Recorder("csolve", log), Recorder("tdoku", log)], 3)
    assert log == ["csolve", "tdoku"] * 3


def test_csolve_rounds_keep_each_puzzle_fastest_round_and_count_valid_solutions():
    sudoku = get_puzzle_type("sudoku")
    path = ROOT / "puzzles" / "sudoku" / "9x9-hard.txt"
    puzzles = sudoku.parse(path.read_text(), path.name)
    timed = bench.CsolveRounds(sudoku, puzzles, limit=1, timeout=30.0, engine=None)
    per_round = []
    for _ in range(3):
        timed.round()
        per_round.append(timed.best.copy())
    # the best so far never rises, and after three rounds is each puzzle's minimum
    assert np.all(per_round[1] <= per_round[0]) and np.all(per_round[2] <= per_round[1])
    row = timed.row()
    assert row["puzzles"] == len(puzzles)
    assert row["solved"] == len(puzzles)
    assert math.isclose(row["mean_us"], float(np.mean(timed.best)))
    assert len(timed.walls) == 3
    for puzzle, result in zip(puzzles, timed.results, strict=True):
        assert not sudoku.validate(puzzle, result.solutions[0])
