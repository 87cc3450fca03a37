"""Every backend side by side on the same searches, printed as tables (--json too).

    python benchmarks/bench_backends.py [--repeat 3] [--json out.json] [--quick]

1. exhaustive count on a tree-heavy 9x9 (1,096,008 solutions, seconds serial; with --quick the
   same puzzle with two more givens, 11,479 solutions, so the conflict lock's Python-per-node
   search ends in seconds), 1 and 2 workers;
2. kaggle (2000 easy puzzles, no search) one by one: serial vs every backend at 2 workers
   (the small-puzzle guard), and the batch across puzzles on 1 vs 2 threads;
3. first solution on 25x25-frisch-minimal-9 (time-out per puzzle) and a sample of
   forum-hardest-5000: serial vs every backend at 2 workers.
The machine has 2 cores shared with other jobs: quote medians and ratios from one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console

from csolve.backends import all_backends
from csolve.bench import bench_table, run_bench
from csolve.puzzle import get_puzzle_type
from csolve.solver import SolveOptions, solve_puzzles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data()
HEAVY = "53.148.92...29....9.....84.62........7498..65...5.............8.................."
HEAVY_QUICK = "53.148.92...29....9.....84.62........7498..65...5..1..........8...............6.."


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true", help="smaller samples")
    args = ap.parse_args()
    sud = get_puzzle_type("sudoku")
    backends = sorted(n for n, b in all_backends().items() if b.parallel)
    console = Console(width=120)
    out: dict = {}

    heavy = sud.parse((HEAVY_QUICK if args.quick else HEAVY) + "\n", "tree-heavy")
    rows = run_bench(sud, heavy, backends, [1, 2], repeat=args.repeat, count=True)
    solutions = rows[0]["solutions"]
    console.print(bench_table(rows, f"exhaustive count, tree-heavy 9x9 ({solutions:,} solutions)"))
    out["count"] = rows

    kaggle_path = DATA / "sudoku-9x9" / "kaggle-2000.txt"
    if kaggle_path.exists():
        kaggle = sud.parse(kaggle_path.read_text(), str(kaggle_path))
        kaggle = kaggle[:300] if args.quick else kaggle[:1000]
        rows = run_bench(sud, kaggle, backends, [2], repeat=args.repeat)
        console.print(bench_table(rows, f"kaggle one by one ({len(kaggle)} puzzles)"))
        out["kaggle"] = rows
        for w in (1, 2):
            walls = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                list(solve_puzzles(sud, kaggle, SolveOptions(
                    backend="locked-pool" if w > 1 else "serial", workers=w)))
                walls.append(time.perf_counter() - t0)
            walls.sort()
            console.print(f"kaggle batch, {w} thread(s): median {walls[len(walls) // 2]:.3f} s")
            out[f"kaggle_batch_{w}"] = walls

    for name, path, n, timeout in (
        ("25x25 frisch minimal", DATA / "sudoku-nxn" / "25x25-frisch-minimal-9.txt",
         3 if args.quick else 9, 10.0),
        ("forum-hardest sample", DATA / "sudoku-9x9" / "forum-hardest-5000.txt",
         100 if args.quick else 300, 5.0),
    ):
        if not path.exists():
            continue
        puzzles = sud.parse(path.read_text(), str(path))[:n]
        rows = run_bench(sud, puzzles, backends, [2], repeat=args.repeat, timeout=timeout)
        console.print(bench_table(rows, f"first solution, {name} ({len(puzzles)} puzzles, "
                                        f"time-out {timeout:g} s each)"))
        out[name] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
