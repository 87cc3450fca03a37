"""How the grader spreads the shared sets over levels (and how long grading takes).

    python benchmarks/grade_sets.py [--sample 300] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data()
SETS = {
    "kaggle": "sudoku-9x9/kaggle-2000.txt",
    "17clue": "sudoku-9x9/17clue-5000.txt",
    "top1465": "sudoku-9x9/top1465.txt",
    "forum-hardest": "sudoku-9x9/forum-hardest-5000.txt",
    "16x16-maatec": "sudoku-nxn/16x16-maatec-30.txt",
    "16x16-janko": "sudoku-nxn/16x16-janko-62.txt",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    from csolve.grading import LEVELS, rate
    from csolve.puzzle import get_puzzle_type

    sudoku = get_puzzle_type("sudoku")
    rows = []
    print(f"{'set':<15} {'n':>4} " + " ".join(f"{lv:>7}" for lv in LEVELS)
          + f" {'steps':>6} {'guesses':>8} {'ms/puzzle':>10}")
    for name in args.sets.split(","):
        path = DATA / SETS[name]
        if not path.exists():
            continue
        puzzles = sudoku.parse(path.read_text(), str(path))
        if len(puzzles) > args.sample:
            puzzles = random.Random(1).sample(puzzles, args.sample)
        t0 = time.perf_counter()
        ratings = [rate(sudoku, p) for p in puzzles]
        ms = (time.perf_counter() - t0) * 1e3 / len(puzzles)
        levels = Counter(r.level for r in ratings)
        row = {"set": name, "puzzles": len(puzzles), "levels": {lv: levels[lv] for lv in LEVELS},
               "steps": statistics.mean(r.steps for r in ratings),
               "guesses": statistics.mean(r.guesses for r in ratings), "ms": ms}
        rows.append(row)
        print(f"{name:<15} {len(puzzles):>4} " + " ".join(f"{levels[lv]:>7}" for lv in LEVELS)
              + f" {row['steps']:>6.1f} {row['guesses']:>8.2f} {ms:>10.1f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
