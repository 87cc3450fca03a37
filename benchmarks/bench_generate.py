"""How fast csolve generates puzzles: minimal 9x9 per second, seconds per 16x16 and 25x25,
and the speedup of --workers 2.

    python benchmarks/bench_generate.py [--n9 300] [--n16 10] [--n25 2] [--clues25 400] [--json]
    python benchmarks/bench_generate.py --levels sudoku:9:600,str8ts:9:100 [--json]
    python benchmarks/bench_generate.py --difficulty str8ts:9:easy,sudoku:9:hard [--seeds 8]

Each puzzle is checked unique by the counter (as ``csolve generate`` does). Timings start
after the kernels are loaded. 25x25 minimal puzzles are far slower (some uniqueness tests
are hard searches), so 25x25 stops at ``--clues25`` clues unless that is 0.

``--levels kind:size:count,...`` instead grades ``count`` minimal puzzles of each type and size
(as ``csolve generate`` makes them without ``--difficulty``) and prints how often each level
comes, and the seconds a try takes (generating and grading): what ``--difficulty`` draws from.

``--difficulty kind:size:level,... [--seeds 8]`` times ``--difficulty`` itself: for each level,
one puzzle from each of the seeds, the CPU seconds and tries each took, and how many found
none within the 10 CPU s bound, as ``csolve generate`` runs it and again with minimal puzzles
only (no clues put back), one after the other in the same run.
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
    ap.add_argument("--levels", help="kind:size:count,...: how often each level comes")
    ap.add_argument("--difficulty", help="kind:size:level,...: what --difficulty costs")
    ap.add_argument("--seeds", type=int, default=8, help="with --difficulty: seeds 1..N")
    args = ap.parse_args()
    if args.levels:
        levels(args.levels, args.seed, args.json)
        return
    if args.difficulty:
        difficulty(args.difficulty, args.seeds, args.json)
        return
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


def levels(spec: str, seed: int, as_json: bool) -> None:
    """Grade minimal puzzles of each ``kind:size:count`` and count the levels."""
    from collections import Counter

    from csolve.grading import LEVELS, rate

    rows = []
    for item in spec.split(","):
        kind, size, count = item.split(":")
        ptype = get_puzzle_type(kind)
        opts = GenerateOptions(size=int(size))
        list(generate_puzzles(ptype, opts, 1, seed))  # load kernels
        t0 = time.perf_counter()
        made = [g.puzzle for g in generate_puzzles(ptype, opts, int(count), seed)]
        graded = Counter(rate(ptype, p).level for p in made)
        rows.append({"case": f"{kind} {size}x{size}", "puzzles": len(made),
                     "seconds_per_try": (time.perf_counter() - t0) / len(made),
                     **{level: graded[level] for level in LEVELS}})
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'case':14} {'puzzles':>7} " + " ".join(f"{lv:>7}" for lv in LEVELS)
          + f" {'s a try':>8}")
    for r in rows:
        print(f"{r['case']:14} {r['puzzles']:>7} " + " ".join(f"{r[lv]:>7}" for lv in LEVELS)
              + f" {r['seconds_per_try']:>8.4f}")


def difficulty(spec: str, seeds: int, as_json: bool) -> None:
    """For each ``kind:size:level``, one puzzle of that level from each of seeds 1..``seeds``:
    CPU seconds and tries, as generate makes it and with minimal puzzles only."""
    import importlib
    from unittest import mock

    from csolve.generate import GenerationError

    generation = importlib.import_module("csolve.generate")
    rows = []
    for item in spec.split(","):
        kind, size, level = item.split(":")
        ptype = get_puzzle_type(kind)
        opts = GenerateOptions(size=int(size))
        list(generate_puzzles(ptype, opts, 1, 0))  # load kernels
        for way in ("clues put back", "minimal only"):
            with mock.patch.object(generation, "takes_clues",
                                   generation.takes_clues if way == "clues put back"
                                   else lambda *a: False):
                cpu, tries, failed = [], [], 0
                for seed in range(1, seeds + 1):
                    t0 = time.process_time()
                    try:
                        tries.append(next(generate_puzzles(ptype, opts, 1, seed,
                                                           difficulty=level)).tries)
                    except GenerationError:
                        failed += 1
                    cpu.append(time.process_time() - t0)
            rows.append({"case": f"{kind} {size}x{size} {level}", "way": way,
                         "failed": failed, "median_cpu_s": statistics.median(cpu),
                         "max_cpu_s": max(cpu), "tries": tries})
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'case':22} {'way':15} {'failed':>6} {'median CPU s':>12} {'max CPU s':>9}  tries")
    for r in rows:
        print(f"{r['case']:22} {r['way']:15} {r['failed']:>6} {r['median_cpu_s']:>12.2f} "
              f"{r['max_cpu_s']:>9.2f}  {' '.join(map(str, r['tries']))}")


def _cell(row: dict, key: str, width: int, fmt: str) -> str:
    return format(format(row[key], fmt) if key in row else "-", f">{width}")

if __name__ == "__main__":
    main()
