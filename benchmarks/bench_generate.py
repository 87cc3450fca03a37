"""How fast csolve generates puzzles: minimal 9x9 per second, seconds per 16x16 and 25x25,
and the speedup of --workers 2.

    python benchmarks/bench_generate.py [--n9 300] [--n16 10] [--n25 2] [--clues25 400] [--json]

Each puzzle is checked unique by the counter (as ``csolve generate`` does). Timings start
after the kernels are loaded. 25x25 minimal puzzles are far slower (some uniqueness tests
are hard searches), so 25x25 stops at ``--clues25`` clues unless that is 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from csolve.generate import GenerateOptions, generate_puzzles
from csolve.puzzle import get_puzzle_type


def timed(ptype, opts, count, seed, workers=1):
    t0 = time.perf_counter()
    last = t0
    each = []
    for _g in generate_puzzles(ptype, opts, count, seed, workers=workers):
        now = time.perf_counter()
        each.append(now - last)
        last = now
    return time.perf_counter() - t0, each


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n9", type=int, default=300)
    ap.add_argument("--n16", type=int, default=10)
    ap.add_argument("--n25", type=int, default=2)
    ap.add_argument("--clues25", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sudoku = get_puzzle_type("sudoku")
    list(generate_puzzles(sudoku, GenerateOptions(size=4), 2, 0))  # load kernels
    rows = []
    wall, _ = timed(sudoku, GenerateOptions(size=9), args.n9, args.seed)
    rows.append({"case": "9x9 minimal, 1 worker", "puzzles": args.n9,
                 "per_second": args.n9 / wall, "seconds": wall})
    wall2, _ = timed(sudoku, GenerateOptions(size=9), args.n9, args.seed, workers=2)
    rows.append({"case": "9x9 minimal, 2 workers", "puzzles": args.n9,
                 "per_second": args.n9 / wall2, "seconds": wall2, "speedup": wall / wall2})
    wall, each = timed(sudoku, GenerateOptions(size=16), args.n16, args.seed)
    rows.append({"case": "16x16 minimal, 1 worker", "puzzles": args.n16, "seconds": wall,
                 "median_s": statistics.median(each), "max_s": max(each)})
    wall2, _ = timed(sudoku, GenerateOptions(size=16), args.n16, args.seed, workers=2)
    rows.append({"case": "16x16 minimal, 2 workers", "puzzles": args.n16, "seconds": wall2,
                 "speedup": wall / wall2})
    if args.n25:
        clues = args.clues25 or None
        wall, each = timed(sudoku, GenerateOptions(size=25, clues=clues), args.n25, args.seed)
        rows.append({"case": f"25x25 {'minimal' if not clues else f'{clues} clues'}",
                     "puzzles": args.n25, "seconds": wall,
                     "median_s": statistics.median(each), "max_s": max(each)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'case':28} {'puzzles':>7} {'total s':>8} {'/s':>8} {'median s':>9} "
          f"{'max s':>7} {'speedup':>7}")
    for r in rows:
        print(f"{r['case']:28} {r['puzzles']:>7} {_cell(r, 'seconds', 8, '.2f')} "
              f"{_cell(r, 'per_second', 8, '.1f')} {_cell(r, 'median_s', 9, '.3f')} "
              f"{_cell(r, 'max_s', 7, '.3f')} {_cell(r, 'speedup', 7, '.2f')}")


def _cell(row: dict, key: str, width: int, fmt: str) -> str:
    return format(format(row[key], fmt) if key in row else "-", f">{width}")

if __name__ == "__main__":
    main()
