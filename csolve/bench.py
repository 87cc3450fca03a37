"""Backend x worker-count experiments (figures 9-11 of Chiu, Nasiri & Rashid 2012), shared by
``csolve bench`` and benchmarks/bench_backends.py. Every answer is checked: solutions by the
plugin's validator (inside ``solve_one``), counts against the serial backend's."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence

from csolve.puzzle import Puzzle, PuzzleType
from csolve.solver import SolveOptions, Status, solve_one

#: the search time of a warm-up run, per puzzle shape
WARM_UP_SECONDS = 0.01


def _one_per_shape(ptype: PuzzleType, puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The first puzzle of each run of same-shaped puzzles (each run is one model)."""
    return [puzzles[start] for start, _stop, _model, _inits in ptype.model_runs(puzzles)]


def run_bench(ptype: PuzzleType, puzzles: Sequence[Puzzle], backends: Sequence[str],
              workers: Sequence[int], repeat: int = 5, count: bool = False,
              timeout: float | None = None, options: dict | None = None,
              progress=None) -> list[dict]:
    """One row per (backend, workers): median wall seconds over ``repeat`` runs and more."""
    from csolve.backends import get_backend

    rows: list[dict] = []
    limit = 0 if count else 1
    reference: list[int] | None = None
    warm_ups = _one_per_shape(ptype, puzzles)
    for backend in ["serial"] + [b for b in backends if b != "serial"]:
        # each backend gets the options it reads (the serial baseline reads none)
        own = get_backend(backend).read_options(options or {})
        for w in ([1] if backend == "serial" else workers):
            walls, nodes, idle, counts, timeouts, ok = [], [], [], None, 0, True
            # kernels loaded (or compiled) and threads warm before any clock starts: the
            # solver loads a shape's kernels before its time limit counts, and a moment
            # of search is enough for the rest
            for p in warm_ups:
                solve_one(ptype, p, SolveOptions(limit=limit, backend=backend, workers=w,
                                                 timeout=WARM_UP_SECONDS,
                                                 backend_options=dict(own)))
            for _ in range(repeat):
                t0 = time.perf_counter()
                got, n_nodes, idle_s = [], 0, 0.0
                for p in puzzles:
                    r = solve_one(ptype, p, SolveOptions(
                        limit=limit, backend=backend, workers=w, timeout=timeout,
                        backend_options=dict(own)))
                    if r.status is Status.TIMEOUT or (count and not r.exact):
                        timeouts += 1
                    got.append(r.count)
                    n_nodes += r.stats.nodes
                    idle_s += sum(x.get("idle_s", 0.0) for x in r.stats.workers)
                walls.append(time.perf_counter() - t0)
                nodes.append(n_nodes)
                idle.append(idle_s)
                counts = got
            # every backend answers as serial does: the same counts (first solution: 1, or
            # 0 for a puzzle without one)
            if reference is not None and not timeouts and counts != reference:
                ok = False
            if backend == "serial":
                reference = counts if not timeouts else None
            wall = statistics.median(walls)
            rows.append({"backend": backend, "workers": w, "wall_s": wall, "walls": walls,
                         "nodes": int(statistics.median(nodes)),
                         "idle_share": statistics.median(idle) / (wall * w) if wall else 0.0,
                         "timeouts": timeouts, "ok": ok,
                         "solutions": sum(counts or []),
                         "unsolvable": 0 if timeouts else (counts or []).count(0)})
            if progress is not None:
                progress(rows[-1])
    base = rows[0]["wall_s"]
    for row in rows:
        # a run cut short by the time limit measured the limit, not the search: no ratio
        timed = not row["timeouts"] and not rows[0]["timeouts"] and row["wall_s"]
        row["speedup"] = base / row["wall_s"] if timed else None
        row["efficiency"] = row["speedup"] / row["workers"] if timed else None
    return rows


def bench_table(rows: list[dict], title: str):
    """A rich table of ``run_bench`` rows."""
    from rich.table import Table

    table = Table(title=title)
    for col in ("backend", "workers", "median wall", "speedup", "efficiency", "nodes",
                "idle share", "answers"):
        table.add_column(col, justify="left" if col == "backend" else "right")
    for r in rows:
        answers = "ok" if r["ok"] else "[red]WRONG[/]"
        if r["unsolvable"]:
            answers += f" ({r['unsolvable']} without a solution)"
        if r["timeouts"]:
            answers += f" ({r['timeouts']} time-outs)"
        timed = r["speedup"] is not None
        table.add_row(r["backend"], str(r["workers"]), f"{r['wall_s']:.3f} s",
                      f"{r['speedup']:.2f}x" if timed else "-",
                      f"{r['efficiency']:.0%}" if timed else "-", f"{r['nodes']:,}",
                      f"{r['idle_share']:.0%}", answers)
    return table
