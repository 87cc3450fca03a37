"""Killer Sudoku: csolve against OR-Tools CP-SAT (1 worker) on the shared janko.at set.

For every puzzle, in the same run: csolve's ``solve_one`` (serial backend, first
solution; model building included, kernels compiled before the clock starts) and a CP-SAT
model of the same puzzle (all-different rows, columns, boxes and cages, a linear sum per
cage; building and solving timed). Both answers are checked by the Killer validator. Also the
whole file as one ``solve_batch`` call (wall time per puzzle). Prints median and max ms per
puzzle by grid size.

    python benchmarks/bench_killer.py [--first N] [--rules a,b,c] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
KILLER = DATA / "killer" / "janko-killer.jsonl"


def cpsat_killer(g) -> np.ndarray:
    from csolve_sudoku.grid import units
    from ortools.sat.python import cp_model

    n = g.n
    m = cp_model.CpModel()
    x = [m.NewIntVar(1, n, "") for _ in range(n * n)]
    for c in np.flatnonzero(g.givens):
        m.Add(x[c] == int(g.givens[c]))
    for group in units(n, g.box):
        for cells in group:
            m.AddAllDifferent([x[c] for c in cells])
    for cells, total in zip(g.cages, g.sums, strict=True):
        vs = [x[c] for c in cells]
        if len(vs) > 1:
            m.AddAllDifferent(vs)
        m.Add(sum(vs) == total)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return np.zeros(n * n, dtype=np.int64)
    return np.array([s.Value(v) for v in x], dtype=np.int64)


def summary(ts: list[float]) -> dict:
    return {"median_ms": 1e3 * statistics.median(ts), "max_ms": 1e3 * max(ts),
            "total_s": sum(ts)}


def run(first: int | None, rules: tuple[str, ...] | None) -> dict:
    from csolve.puzzle import get_puzzle_type
    from csolve.solver import SolveOptions, solve_one, solve_puzzles

    killer = get_puzzle_type("killer")
    puzzles = killer.parse(KILLER.read_text(), str(KILLER))[:first]
    for size in sorted({p.data.n for p in puzzles}):  # compile / load every model's kernels
        p = next(q for q in puzzles if q.data.n == size)
        solve_one(killer, p, SolveOptions(rules=rules))
    times: dict[int, dict[str, list[float]]] = {}
    for p in puzzles:
        t0 = time.perf_counter()
        r = solve_one(killer, p, SolveOptions(limit=1, rules=rules))
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        sol = cpsat_killer(p.data)
        theirs = time.perf_counter() - t0
        assert r.solutions and killer.validate(p, r.solutions[0]) == [], p.where
        assert killer.validate(p, sol) == [], f"CP-SAT {p.where}"
        by = times.setdefault(p.data.n, {"csolve": [], "cpsat": []})
        by["csolve"].append(ours)
        by["cpsat"].append(theirs)
    t0 = time.perf_counter()
    results = list(solve_puzzles(killer, puzzles, SolveOptions(rules=rules)))
    batch = time.perf_counter() - t0
    assert all(killer.validate(p, r.solutions[0]) == [] for p, r in zip(puzzles, results,
                                                                       strict=True))
    return {"puzzles": len(puzzles), "rules": list(rules or killer.default_rules),
            "batch_ms_per_puzzle": 1e3 * batch / len(puzzles),
            "sizes": {f"{n}x{n}": {"puzzles": len(t["csolve"]), "csolve": summary(t["csolve"]),
                                   "cpsat": summary(t["cpsat"])}
                      for n, t in sorted(times.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    ap.add_argument("--rules", default=None, help="csolve's propagation rules, comma-separated")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not KILLER.exists():
        print(f"{KILLER} not found, skipped")
        return
    rules = tuple(r for r in a.rules.split(",") if r) if a.rules else None
    res = run(a.first, rules)
    if a.json:
        print(json.dumps(res, indent=2))
        return
    print(f"rules: {','.join(res['rules'])}; whole file in one batch: "
          f"{res['batch_ms_per_puzzle']:.3f} ms per puzzle")
    print(f"{'size':6} {'puzzles':>7} {'solver':8} {'median ms':>10} {'max ms':>9} {'total s':>8}")
    for size, s in res["sizes"].items():
        for solver in ("csolve", "cpsat"):
            t = s[solver]
            print(f"{size:6} {s['puzzles']:7} {solver:8} {t['median_ms']:10.3f} "
                  f"{t['max_ms']:9.2f} {t['total_s']:8.2f}")


if __name__ == "__main__":
    main()
