"""The heavy-tail benchmark's run-by-run comparison with a peer (benchmarks/bench_heavy_tail.py)."""

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_heavy_tail as bench  # noqa: E402


@pytest.mark.parametrize(("only_a", "only_b", "expected"), [
    (0, 0, 1.0),  # no run tells the solvers apart
    (3, 3, 1.0),
    (0, 2, 0.5),  # 2 * (1/2)^2
    (0, 5, 0.0625),  # 2 * (1/2)^5
    (1, 6, 0.125),  # 2 * (1 + 7) / 2^7
    (6, 1, 0.125),  # two-sided: the order does not matter
])
def test_mcnemar_exact_p(only_a, only_b, expected):
    assert math.isclose(bench.mcnemar_p(only_a, only_b), expected)


def test_paired_counts_split_each_puzzle_then_all_runs():
    # two puzzles, three runs each; None: not solved within the limit
    mine = [1.0, None, 2.0, None, None, 0.5]
    theirs = [1.5, 1.0, None, None, 3.0, 0.4]
    puzzle0, puzzle1, every = bench.paired(mine, theirs, 3)
    assert (puzzle0["both"], puzzle0["only_row"], puzzle0["only_peer"], puzzle0["neither"]) == (
        1, 1, 1, 0)
    assert (puzzle1["both"], puzzle1["only_row"], puzzle1["only_peer"], puzzle1["neither"]) == (
        1, 0, 1, 1)
    assert (every["both"], every["only_row"], every["only_peer"], every["neither"]) == (
        2, 1, 2, 1)
    assert every["p"] == bench.mcnemar_p(1, 2)
