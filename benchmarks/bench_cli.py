"""How long the ``csolve`` program takes from start to exit, kernels already cached on disk.

    python benchmarks/bench_cli.py [--runs 9] [--json]

Each case runs once to warm the kernel cache and the OS file cache, then ``--runs`` times;
the table shows the median and the fastest wall time. Two floors put the numbers in context:
an empty interpreter, and importing the libraries every solve needs (numpy, numba, typer with
the pydantic it coerces options with, rich) - what is left above that is csolve's own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "puzzles" / "sudoku" / "9x9-hard.txt"
LIBRARIES = "import numpy, numba, typer, typer._adapters, rich.console"


def program() -> list[str]:
    """The installed ``csolve`` script beside this interpreter, else ``python -m csolve``."""
    script = Path(sys.executable).with_name("csolve")
    if script.exists():
        return [str(script)]
    found = shutil.which("csolve")
    return [found] if found else [sys.executable, "-m", "csolve"]


def wall(cmd: list[str], runs: int) -> list[float]:
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    csolve = program()
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.txt"
        first = next(ln for ln in HARD.read_text().splitlines()
                     if ln.strip() and not ln.startswith("#"))
        one.write_text(first + "\n")
        cases = [
            ("python (empty interpreter)", [sys.executable, "-c", "pass"]),
            ("python + solve's libraries", [sys.executable, "-c", LIBRARIES]),
            ("csolve --help", [*csolve, "--help"]),
            ("csolve solve sudoku (1 puzzle)", [*csolve, "solve", "sudoku", str(one)]),
            ("csolve solve sudoku 9x9-hard.txt (5)", [*csolve, "solve", "sudoku", str(HARD)]),
            ("csolve solve sudoku --count (1 puzzle)",
             [*csolve, "solve", "sudoku", str(one), "--count"]),
        ]
        rows = []
        for name, cmd in cases:
            times = wall(cmd, args.runs)
            rows.append({"case": name, "runs": args.runs,
                         "median_s": statistics.median(times), "min_s": min(times)})
    if args.json:
        print(json.dumps({"program": csolve, "cpus": os.cpu_count(), "rows": rows}, indent=2))
        return
    print(f"program: {' '.join(csolve)}  ({args.runs} runs after a warm-up, wall seconds)")
    print(f"{'case':42s} {'median':>8s} {'min':>8s}")
    for r in rows:
        print(f"{r['case']:42s} {r['median_s']:8.3f} {r['min_s']:8.3f}")


if __name__ == "__main__":
    main()
