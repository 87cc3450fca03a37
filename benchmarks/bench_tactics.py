"""Which tactics make the search fastest? Nodes and µs per puzzle for each tactic set.

Runs the batch solver (one kernel call per file, limit 1) over each shared data set with
each rule list and prints one table per set: mean search nodes, mean and median µs per
puzzle (cycle counter, kernel only). The tactic sets take turns for ``--rounds`` rounds and
each puzzle keeps its fastest time, so a busy machine skews no row more than another.
Reads ../shared/data; sets that are absent are skipped.

    python benchmarks/bench_tactics.py [--sample 500] [--json out.json] [--sets kaggle,...]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data()

SINGLES = ("elimination", "hidden-single")
SUBSETS = ("naked-pair", "hidden-pair", "naked-triple", "hidden-triple", "naked-quad",
           "hidden-quad")
FISH = ("x-wing", "swordfish", "jellyfish")

TACTIC_SETS = {
    "singles": SINGLES,
    "+ naked pair (Mishra 2021)": (*SINGLES, "naked-pair"),
    "+ naked pair+triple": (*SINGLES, "naked-pair", "naked-triple"),
    "+ locked only": (*SINGLES, "locked-candidates"),
    "+ subsets": (*SINGLES, *SUBSETS),
    "+ subsets+locked": (*SINGLES, "locked-candidates", *SUBSETS),
    "+ subsets+locked+fish": (*SINGLES, "locked-candidates", *SUBSETS, *FISH),
    "all (+ xy-wing)": (*SINGLES, "locked-candidates", *SUBSETS, *FISH, "xy-wing"),
}

SETS = {
    "kaggle": "sudoku-9x9/kaggle-2000.txt",
    "17clue": "sudoku-9x9/17clue-5000.txt",
    "top1465": "sudoku-9x9/top1465.txt",
    "forum-hardest": "sudoku-9x9/forum-hardest-5000.txt",
    "16x16-maatec": "sudoku-nxn/16x16-maatec-30.txt",
    "16x16-janko": "sudoku-nxn/16x16-janko-62.txt",
    "25x25-maatec": "sudoku-nxn/25x25-maatec-20.txt",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=500, help="puzzles per set (seeded sample)")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    ap.add_argument("--tactics", default=None, help="comma-separated tactic-set names")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; each puzzle keeps its best")
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args(argv)

    from csolve.puzzle import get_puzzle_type
    from csolve.solver import SolveOptions, solve_puzzles

    sudoku = get_puzzle_type("sudoku")
    chosen = args.tactics.split(",") if args.tactics else list(TACTIC_SETS)
    results = []
    for set_name in args.sets.split(","):
        path = DATA / SETS[set_name]
        if not path.exists():
            print(f"{set_name}: {path} not found, skipped", file=sys.stderr)
            continue
        puzzles = sudoku.parse(path.read_text(), str(path))
        if len(puzzles) > args.sample:
            puzzles = random.Random(1).sample(puzzles, args.sample)
        print(f"\n{set_name} ({len(puzzles)} puzzles)")
        print(f"{'tactics':<26} {'nodes':>9} {'µs mean':>10} {'µs median':>10}")
        best: dict[str, list[float]] = {}
        node_counts: dict[str, list[int]] = {}
        for _ in range(args.rounds):
            for tname in chosen:
                rs = list(solve_puzzles(sudoku, puzzles,
                                       SolveOptions(limit=1, rules=TACTIC_SETS[tname])))
                bad = [r for r in rs if r.status.value != "solved"]
                if bad:
                    raise SystemExit(f"{set_name}/{tname}: {len(bad)} not solved")
                us = [r.seconds * 1e6 for r in rs]
                prev = best.get(tname)
                if prev is not None:
                    us = [min(a, b) for a, b in zip(prev, us, strict=True)]
                best[tname] = us
                node_counts[tname] = [r.stats.nodes for r in rs]
        for tname in chosen:
            rules = TACTIC_SETS[tname]
            us = best[tname]
            rs = node_counts[tname]
            nodes = statistics.mean(rs)
            row = {"set": set_name, "tactics": tname, "rules": list(rules),
                   "puzzles": len(rs), "rounds": args.rounds, "nodes": nodes,
                   "us_mean": statistics.mean(us),
                   "us_median": statistics.median(us)}
            results.append(row)
            print(f"{tname:<26} {nodes:>9.1f} {row['us_mean']:>10.1f} "
                  f"{row['us_median']:>10.1f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
