"""The ray backend against threads on one machine: one exhaustive count, and what the driver
costs per task (how many workers one driver could feed).

    python benchmarks/bench_ray.py [--repeat 5] [--workers 2] [--slices 20,50,100] [--json out.json]

One tree-heavy 9x9 (4,544,026 solutions, seconds on one core) is counted by ``serial``,
``locked-pool`` (the fastest thread backend) and ``ray`` at each slice length, in rounds
(every backend once per round, so a shared machine's drift hits all alike); medians over the
rounds. Ray's local cluster is started (and every backend's kernels loaded) before any clock.
Every count is checked against the serial count. For Ray it also prints how busy the tasks
kept the workers (seconds searched / (wall x workers)) and the driver's side:
tasks handed out and absorbed per second, the driver's own time per task (submitting,
``ray.get`` and absorbing a result, not waiting), nodes and bytes each way per task.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from rich.console import Console
from rich.table import Table

from csolve.backends import SearchJob, get_backend
from csolve.backends.ray_cluster import connect
from csolve.puzzle import get_puzzle_type
from csolve.search import kernels_for_model
from csolve.solver import warm_up

BIG = "....4...........7..2.1.......7..4........7..4...........3791....9.4.52..485......"


def run(backend, model, workers: int, options: dict) -> tuple[float, int, dict]:
    job = SearchJob(model=model, kernels=kernels_for_model(model), limit=0, keep=1,
                    workers=workers, options=dict(options))
    t0 = time.perf_counter()
    out = backend.solve(job)
    wall = time.perf_counter() - t0
    assert out.reason == "exhausted", out.reason
    return wall, out.count, dict(getattr(backend, "metrics", {}) or {})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--slices", default="20,50,100", help="ray slice lengths in ms")
    ap.add_argument("--json")
    args = ap.parse_args()
    sud = get_puzzle_type("sudoku")
    (puzzle,) = sud.parse(BIG + "\n", "tree-heavy")
    model = sud.model(puzzle)
    warm_up(model, kernels_for_model(model))
    connect()  # the local cluster starts before any clock
    w = args.workers
    cases = [("serial", 1, {}), ("locked-pool", w, {})]
    cases += [("ray", w, {"slice_ms": float(s)}) for s in args.slices.split(",")]
    backends = {name: get_backend(name) for name, _, _ in cases}
    for name, workers, opts in cases:  # warm: Ray's workers load the kernels
        run(backends[name], model, workers, opts)
    walls: dict[int, list[float]] = {i: [] for i in range(len(cases))}
    metrics: dict[int, list[dict]] = {i: [] for i in range(len(cases))}
    expected = None
    for _ in range(args.repeat):
        for i, (name, workers, opts) in enumerate(cases):
            wall, count, m = run(backends[name], model, workers, opts)
            expected = count if expected is None else expected
            assert count == expected, (name, count, expected)
            walls[i].append(wall)
            metrics[i].append(m)

    rows = []
    pool = statistics.median(walls[1])
    for i, (name, workers, opts) in enumerate(cases):
        med = statistics.median(walls[i])
        row = {"backend": name, "workers": workers, "slice_ms": opts.get("slice_ms"),
               "median_s": round(med, 3), "runs": [round(x, 3) for x in walls[i]],
               "vs_locked_pool": round(pool / med, 3), "solutions": expected}
        if metrics[i] and metrics[i][0]:
            ms = metrics[i]
            tasks = statistics.median(m["tasks"] for m in ms)
            secs = statistics.median(m["seconds"] for m in ms)
            row.update(
                tasks=int(tasks), tasks_per_s=round(tasks / secs, 1),
                busy=round(statistics.median(
                    m["busy_s"] / (m["seconds"] * workers) for m in ms), 3),
                driver_ms_per_task=round(1000 * statistics.median(
                    m["driver_s"] / max(1, m["tasks"]) for m in ms), 3),
                nodes_out_per_task=round(statistics.median(
                    m["nodes_out"] / max(1, m["tasks"]) for m in ms), 1),
                nodes_in_per_task=round(statistics.median(
                    m["nodes_in"] / max(1, m["absorbed"]) for m in ms), 1),
                kb_out_per_task=round(statistics.median(
                    m["bytes_out"] / max(1, m["tasks"]) for m in ms) / 1024, 2),
                kb_in_per_task=round(statistics.median(
                    m["bytes_in"] / max(1, m["absorbed"]) for m in ms) / 1024, 2))
        rows.append(row)

    console = Console(width=140)
    table = Table(title=f"exhaustive count, tree-heavy 9x9 ({expected:,} solutions), "
                        f"median of {args.repeat}")
    cols = ["backend", "workers", "slice_ms", "median_s", "vs_locked_pool", "busy", "tasks",
            "tasks_per_s", "driver_ms_per_task", "nodes_out_per_task", "nodes_in_per_task",
            "kb_out_per_task", "kb_in_per_task"]
    for c in cols:
        table.add_column(c.replace("_", " "), justify="left" if c == "backend" else "right")
    for row in rows:
        table.add_row(*("" if row.get(c) is None else str(row[c]) for c in cols))
    console.print(table)
    for row in rows:
        if row.get("driver_ms_per_task"):
            feeds = row["slice_ms"] / row["driver_ms_per_task"]
            console.print(f"slice {row['slice_ms']:g} ms: one driver keeps about "
                          f"{feeds:,.0f} workers busy ({row['driver_ms_per_task']} ms of "
                          "driver time per task)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "repeat": args.repeat}, f, indent=1)


if __name__ == "__main__":
    main()
