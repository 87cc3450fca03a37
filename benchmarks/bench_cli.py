"""How long the ``csolve`` program takes from start to exit, kernels already cached on disk.

    python benchmarks/bench_cli.py [--runs 9] [--json] [--files-only | --no-files] [--no-bytecode]

Each case runs once to warm the kernel cache and the OS file cache, then ``--runs`` times;
the table shows the median and the fastest wall time, and the median CPU seconds (user +
system, which load from other jobs bends less than wall time). Floors put the numbers in
context: an empty interpreter, and importing the libraries every solve needs (numpy, typer,
pluggy) - what is left above that is csolve's own - beside the same with numba, which a
solve needs only when a kernel must be compiled. (Where csolve's own linker does not take
the saved code, off x86-64 Linux, a solve also loads llvmlite's binding.)

First csolve's own modules are compiled to bytecode (``__pycache__``), as installing a
package does: a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile them
from source on every run. ``--no-bytecode`` skips that (and measures whatever is there).

The "whole file" rows (public sets from ../shared/data, skipped when absent) put the
command's marginal cost per puzzle - (time for the file - time for its first puzzle alone)
/ (puzzles - 1), medians, the two commands' runs taking turns - next to the batch kernel's
own mean time per puzzle, measured in this process in the same run: their ratio is what the
layers between the kernel and the user cost. Each is measured twice: in wall seconds, and in
the CPU seconds the program used (all threads), which a busy machine bends far less. A
2,000-puzzle file's marginal moves by about a microsecond with the start-up's jitter of a few
milliseconds, so the kaggle set is also measured as ten copies of itself in one file.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "sudoku-9x9"
#: (set, output) pairs measured end to end
WHOLE_FILES = [("kaggle-2000.txt", "line", 1), ("kaggle-2000.txt", "json", 1),
               ("kaggle-2000.txt", "line", 10),
               ("forum-hardest-5000.txt", "line", 1), ("forum-hardest-5000.txt", "json", 1)]
HARD = ROOT / "puzzles" / "sudoku" / "9x9-hard.txt"
#: what a solve imports when its kernels were saved by an earlier run (numba and LLVM are
#: not among them on x86-64 Linux, where csolve links the saved code itself)
LIBRARIES = "import numpy, typer, pluggy"
#: numba, which a solve imported before kernels ran without it
WITH_NUMBA = "import numpy, numba, typer, pluggy"


def program() -> list[str]:
    """The installed ``csolve`` script beside this interpreter, else ``python -m csolve``."""
    script = Path(sys.executable).with_name("csolve")
    if script.exists():
        return [str(script)]
    found = shutil.which("csolve")
    return [found] if found else [sys.executable, "-m", "csolve"]


def cache_bytecode() -> list[str]:
    """Compile the csolve package and its plugins' packages to bytecode, as an install does;
    the folders compiled."""
    import compileall
    import importlib.util

    done = []
    for name in ("csolve", "csolve_sudoku", "csolve_kakuro", "csolve_str8ts", "csolve_killer"):
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)
            done.append(folder)
    return done


def timed(cmd: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``runs`` runs, after one unmeasured run."""
    return timed_together([cmd], runs)[0]


def timed_together(cmds: list[list[str]], runs: int) -> list[tuple[list[float], list[float]]]:
    """:func:`timed` for several commands whose runs take turns, so that a machine that
    drifts (load, caches, memory) bends each alike and their differences hold."""
    for cmd in cmds:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    out: list[tuple[list[float], list[float]]] = [([], []) for _ in cmds]
    for _ in range(runs):
        for cmd, (walls, cpus) in zip(cmds, out, strict=True):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            walls.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out


def wall(cmd: list[str], runs: int) -> list[float]:
    return timed(cmd, runs)[0]


def kernel_seconds(path: Path, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of the batch kernel alone over the file (parsing,
    models, decoding and output excluded), first solution, one thread."""
    import numpy as np

    from csolve.kernels import abi
    from csolve.puzzle import get_puzzle_type
    from csolve.search import BatchScratch, kernels_for_model, new_ctrl

    sudoku = get_puzzle_type("sudoku")
    puzzles = sudoku.parse(path.read_text(), path.name)
    ((_, _, model, inits),) = list(sudoku.model_runs(puzzles))
    kernels = kernels_for_model(model)
    n_puzzles, n = inits.shape
    out = (np.zeros(n_puzzles, np.int64), np.zeros((n_puzzles, n), np.uint64),
           np.zeros(n_puzzles, np.int64), np.zeros((n_puzzles, abi.STAT_SIZE), np.int64))
    scratch = BatchScratch(model)
    scratch.warm_up(kernels, model, inits, 1, new_ctrl(), *out)
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        scratch.solve(kernels, model, inits, 1, new_ctrl(), *out)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), statistics.median(cpu)


def whole_files(csolve: list[str], runs: int, tmp: Path) -> list[dict]:
    """The whole-file rows: marginal cost per puzzle of the command against the kernel."""
    rows = []
    for name, output, copies in WHOLE_FILES:
        path = DATA / name
        if not path.exists():
            print(f"skipped {name}: shared data not found at {DATA}", file=sys.stderr)
            continue
        lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
        first = tmp / f"first-{name}"
        first.write_text(lines[0] + "\n")
        if copies > 1:  # the same puzzles again: the fixed cost's jitter spread thinner
            kernel_path = path
            path = tmp / f"{copies}x-{name}"
            path.write_text("\n".join(lines * copies) + "\n")
            lines = lines * copies
            name = f"{name} x{copies}"
        else:
            kernel_path = path
        cmd = [*csolve, "solve", "sudoku", "--output", output]
        whole, alone = timed_together([[*cmd, str(path)], [*cmd, str(first)]], runs)
        kernel, kernel_cpu = (t / (len(lines) // copies)
                              for t in kernel_seconds(kernel_path, runs))
        row = {"case": f"whole file: {name} --output {output}", "puzzles": len(lines)}
        for label, i, k in (("", 0, kernel), ("cpu_", 1, kernel_cpu)):
            w, a = (statistics.median(ts[i]) for ts in (whole, alone))
            marginal = (w - a) / (len(lines) - 1)
            row |= {f"{label}median_s": w, f"{label}first_puzzle_s": a,
                    f"{label}marginal_us": marginal * 1e6, f"{label}kernel_us": k * 1e6,
                    f"{label}ratio": marginal / k}
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--files-only", action="store_true", help="only the whole-file rows")
    ap.add_argument("--no-files", action="store_true", help="skip the whole-file rows")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="do not compile csolve's modules to bytecode first")
    args = ap.parse_args()
    if not args.no_bytecode:
        cache_bytecode()
    csolve = program()
    with tempfile.TemporaryDirectory() as tmp:
        files = [] if args.no_files else whole_files(csolve, args.runs, Path(tmp))
        if args.files_only:
            _print(csolve, args, [], files)
            return
        one = Path(tmp) / "one.txt"
        first = next(ln for ln in HARD.read_text().splitlines()
                     if ln.strip() and not ln.startswith("#"))
        one.write_text(first + "\n")
        cases = [
            ("python (empty interpreter)", [sys.executable, "-c", "pass"]),
            ("python + solve's libraries", [sys.executable, "-c", LIBRARIES]),
            ("python + the same with numba", [sys.executable, "-c", WITH_NUMBA]),
            ("csolve --help", [*csolve, "--help"]),
            ("csolve solve sudoku (1 puzzle)", [*csolve, "solve", "sudoku", str(one)]),
            ("csolve solve sudoku 9x9-hard.txt (5)", [*csolve, "solve", "sudoku", str(HARD)]),
            ("csolve solve sudoku --count (1 puzzle)",
             [*csolve, "solve", "sudoku", str(one), "--count"]),
            ("  the same, --backend locked-pool --workers 2",
             [*csolve, "solve", "sudoku", str(one), "--count", "--backend", "locked-pool",
              "--workers", "2"]),
        ]
        rows = []
        for name, cmd in cases:
            times, cpus = timed(cmd, args.runs)
            rows.append({"case": name, "runs": args.runs,
                         "median_s": statistics.median(times), "min_s": min(times),
                         "cpu_s": statistics.median(cpus)})
    _print(csolve, args, rows, files)


def _print(csolve: list[str], args: argparse.Namespace, rows: list[dict],
           files: list[dict]) -> None:
    if args.json:
        print(json.dumps({"program": csolve, "cpus": os.cpu_count(), "rows": rows,
                          "whole_files": files}, indent=2))
        return
    print(f"program: {' '.join(csolve)}  ({args.runs} runs after a warm-up, wall seconds; "
          f"load average {os.getloadavg()[0]:.2f})")
    if rows:
        print(f"{'case':46s} {'median':>8s} {'min':>8s} {'CPU s':>8s}")
        for r in rows:
            print(f"{r['case']:46s} {r['median_s']:8.3f} {r['min_s']:8.3f} {r['cpu_s']:8.3f}")
    if files:
        print(f"\n{'whole file':40s} {'median s':>9s} {'marginal µs':>12s} {'kernel µs':>10s} "
              f"{'ratio':>6s} | {'CPU: marginal':>13s} {'kernel':>7s} {'ratio':>6s}")
        for r in files:
            print(f"{r['case'][12:]:40s} {r['median_s']:9.3f} {r['marginal_us']:12.1f} "
                  f"{r['kernel_us']:10.1f} {r['ratio']:6.2f} | {r['cpu_marginal_us']:13.1f} "
                  f"{r['cpu_kernel_us']:7.1f} {r['cpu_ratio']:6.2f}")


if __name__ == "__main__":
    main()
