"""Two workers against one on a long exhaustive count: does a second core halve the search?

    python benchmarks/bench_scaling.py [--repeat 5] [--json out.json] [--no-command]
        [--backends locked-pool,work-stealing,...] [--puzzle LINE | --sixteen] [--no-bytecode]

For the puzzle (by default a 9x9 with 5,925,253 solutions, searched by the default 9x9
engine; with ``--sixteen`` a 16x16 with 527,693 solutions, searched by the generic engine)
each repeat runs, one after the other so that load from other jobs falls on all of
them alike: ``serial``, then every sharing backend with 2 workers. Two figures per run:

* search seconds: ``Result.stats.seconds`` of ``csolve.count`` in this process (kernels
  loaded beforehand), with the process CPU seconds it used over the same span - CPU / wall
  is how many cores the run actually got, and serial CPU / parallel CPU how much work the
  sharing cost;
* whole command: wall seconds of ``csolve solve sudoku FILE --count --backend B --workers N``
  as a subprocess (start-up, imports and kernel loading included), with its CPU seconds.

csolve's own modules are first compiled to bytecode, as installing a package does
(``--no-bytecode``: not; see bench_cli.py). Medians over the repeats, and each backend's
ratio to serial. On a machine shared with other
jobs the wall ratios say little unless ``cores`` reads close to 1 for serial and 2 for the
others: quote them with the cores column.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

import csolve

TARGET = "5..........2.95.....8....6........2.....53..1....2........3.2.4......6.5.4.2....."
REPO = Path(__file__).resolve().parent.parent


def sixteen() -> str:
    """The first 16x16 of puzzles/sudoku/16x16.txt less three givens (a seeded choice)."""
    import numpy as np

    (p,) = csolve.read("sudoku", REPO / "puzzles" / "sudoku" / "16x16.txt")[:1]
    data = p.data.copy()
    data[np.random.default_rng(1).permutation(np.flatnonzero(data))[:3]] = 0
    return " ".join(str(int(v)) for v in data)


BACKENDS = ("locked-pool", "work-stealing", "path-stack", "message-passing")


def search_run(puzzle: str, backend: str, workers: int) -> dict:
    """One in-process count: search seconds, CPU seconds over that span, idle, hand-overs."""
    cpu0, t0 = time.process_time(), time.perf_counter()
    r = csolve.count("sudoku", puzzle, backend=backend, workers=workers)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    rows = r.stats.workers
    return {"count": r.count, "search_s": r.stats.seconds, "wall_s": wall, "cpu_s": cpu,
            "nodes": r.stats.nodes,
            "idle_s": sum(w["idle_s"] for w in rows), "handed": sum(w["handed"] for w in rows),
            "calls": sum(w["calls"] for w in rows)}


def command_run(path: str, backend: str, workers: int) -> dict:
    """The whole CLI command as a subprocess: wall and CPU seconds, and the count it printed."""
    argv = [sys.executable, "-m", "csolve", "solve", "sudoku", path, "--count",
            "--backend", backend, "--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"count": int(out.stdout.split()[0]), "wall_s": wall, "cpu_s": cpu}


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def summarise(search: dict[str, list[dict]], command: dict[str, list[dict]]) -> list[dict]:
    """One row per backend: medians and ratios to serial."""
    s_search = _median(search["serial"], "search_s")
    s_cpu = _median(search["serial"], "cpu_s")
    s_cmd = _median(command["serial"], "wall_s") if command else None
    rows = []
    for name, runs in search.items():
        row = {"backend": name, "workers": 1 if name == "serial" else 2,
               "search_s": _median(runs, "search_s"), "cpu_s": _median(runs, "cpu_s"),
               "cores": statistics.median(r["cpu_s"] / r["wall_s"] for r in runs),
               "idle_s": _median(runs, "idle_s"), "handed": _median(runs, "handed"),
               "runs": runs}
        row["search_x"] = s_search / row["search_s"]
        row["work_x"] = s_cpu / row["cpu_s"]
        if command:
            cruns = command[name]
            row["command_s"] = _median(cruns, "wall_s")
            row["command_cores"] = statistics.median(r["cpu_s"] / r["wall_s"] for r in cruns)
            row["command_x"] = s_cmd / row["command_s"]
            row["rest_s"] = row["command_s"] - row["search_s"]
            row["command_runs"] = cruns
        rows.append(row)
    return rows


def table(rows: list[dict], title: str) -> Table:
    t = Table(title=title)
    for col in ("backend", "workers", "search s", "x", "cores", "CPU s", "work x", "idle s",
                "handed", "command s", "x", "cores", "rest s"):
        t.add_column(col, justify="left" if col == "backend" else "right")
    for r in rows:
        cmd = ((f"{r['command_s']:.2f}", f"{r['command_x']:.2f}", f"{r['command_cores']:.2f}",
                f"{r['rest_s']:.2f}") if "command_s" in r else ("-", "-", "-", "-"))
        t.add_row(r["backend"], str(r["workers"]), f"{r['search_s']:.2f}", f"{r['search_x']:.2f}",
                  f"{r['cores']:.2f}", f"{r['cpu_s']:.2f}", f"{r['work_x']:.2f}",
                  f"{r['idle_s']:.3f}", f"{r['handed']:.0f}", *cmd)
    return t


def command_bound(rest_s: float, serial_search_s: float, workers: int = 2) -> float:
    """The whole command's best ratio to serial when the search alone scales perfectly:
    the rest (start-up, loading, output) does not shrink with workers (Amdahl's law)."""
    return (rest_s + serial_search_s) / (rest_s + serial_search_s / workers)


def rest_for(target: float, serial_search_s: float, workers: int = 2) -> float:
    """The rest at which :func:`command_bound` equals ``target``: the most start-up a
    ``target``-times-faster command can afford at this search."""
    return serial_search_s * (1 - target / workers) / (target - 1)


def print_bound(console: Console, serial: dict, target: float = 1.8) -> None:
    """What the serial run's own rest allows the two-worker command at best, and the rest
    that a ``target``-times-faster command would need at this search."""
    s, rest = serial["search_s"], serial["rest_s"]
    console.print(f"with serial's rest of {rest:.2f} s and a search exactly 2x faster, the "
                  f"command would be {command_bound(rest, s):.2f}x; {target}x needs a rest of "
                  f"{rest_for(target, s):.2f} s or less at this search")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", help="write every run and the medians to this file")
    ap.add_argument("--no-command", action="store_true", help="skip the whole-command runs")
    ap.add_argument("--backends", default=",".join(BACKENDS),
                    help="comma-separated sharing backends to run with 2 workers")
    ap.add_argument("--puzzle", default=TARGET, help="one 9x9 (or n x n) Sudoku line")
    ap.add_argument("--sixteen", action="store_true",
                    help="a 16x16 with 527,693 solutions instead (the generic engine)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="do not compile csolve's modules to bytecode first")
    args = ap.parse_args()
    if not args.no_bytecode:
        from bench_cli import cache_bytecode

        cache_bytecode()
    if args.sixteen:
        args.puzzle = sixteen()
    backends = ["serial"] + [b for b in args.backends.split(",") if b]
    console = Console(width=130)
    cores = sorted(os.sched_getaffinity(0))
    console.print(f"cores this process may use: {cores} (os.cpu_count {os.cpu_count()}); "
                  f"load average before: {os.getloadavg()[0]:.2f}")

    for b in backends:  # load every backend's kernels before any clock starts
        csolve.count("sudoku", args.puzzle, backend=b, workers=1 if b == "serial" else 2,
                     limit=2)
    search: dict[str, list[dict]] = {b: [] for b in backends}
    command: dict[str, list[dict]] = {b: [] for b in backends} if not args.no_command else {}
    counts = set()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "puzzle.txt")
        Path(path).write_text(args.puzzle + "\n")
        for i in range(args.repeat):
            for b in backends:
                w = 1 if b == "serial" else 2
                run = search_run(args.puzzle, b, w)
                search[b].append(run)
                counts.add(run["count"])
                if command:
                    crun = command_run(path, b, w)
                    command[b].append(crun)
                    counts.add(crun["count"])
            console.print(f"repeat {i + 1}/{args.repeat} done; load average "
                          f"{os.getloadavg()[0]:.2f}")
    if len(counts) != 1:
        raise SystemExit(f"backends disagree on the count: {sorted(counts)}")
    rows = summarise(search, command)
    console.print(table(rows, f"count of {counts.pop():,} solutions: serial vs 2 workers, "
                              f"medians of {args.repeat}"))
    console.print("x: serial / this (search and whole command); cores: CPU s / wall s; "
                  "work x: serial CPU / this CPU (1.00: sharing cost no extra work); "
                  "rest s: command s - search s (start-up, kernel loading, output)")
    if command:
        print_bound(console, rows[0])
    if args.json:
        Path(args.json).write_text(json.dumps({"puzzle": args.puzzle, "affinity": cores,
                                               "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
