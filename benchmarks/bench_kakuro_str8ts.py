"""Kakuro and Str8ts: csolve against OR-Tools CP-SAT (1 worker) on the shared janko.at sets.

For every puzzle, in the same run: csolve's ``solve_one`` (serial backend, first
solution; model building included, kernels compiled before the clock starts) and a CP-SAT
model of the same puzzle (building and solving timed). Prints median and max ms per puzzle.

    python benchmarks/bench_kakuro_str8ts.py [--only kakuro|str8ts] [--first N] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data()
SETS = {"kakuro": DATA / "kakuro" / "janko-kakuro-500.jsonl",
        "str8ts": DATA / "str8ts" / "janko-str8ts-280.jsonl"}


def cpsat_kakuro(g) -> np.ndarray:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = {rc: m.NewIntVar(1, 9, "") for rc in g.whites}
    for run in g.runs:
        vs = [x[rc] for rc in run.cells]
        m.AddAllDifferent(vs)
        m.Add(sum(vs) == run.total)
    return _solve(m, x, (g.rows, g.cols))


def cpsat_str8ts(g) -> np.ndarray:
    from ortools.sat.python import cp_model

    n = g.n
    m = cp_model.CpModel()
    x = {rc: m.NewIntVar(1, n, "") for rc in g.cells()}
    for rc, var in x.items():
        if g.values[rc]:
            m.Add(var == int(g.values[rc]))
    for i in range(n):
        for line in ([(i, j) for j in range(n)], [(j, i) for j in range(n)]):
            vs = [x[rc] for rc in line if rc in x]
            if len(vs) > 1:
                m.AddAllDifferent(vs)
    for _name, _i, run in g.compartments():
        if len(run) > 1:
            vs = [x[rc] for rc in run]
            lo = m.NewIntVar(1, n, "")
            hi = m.NewIntVar(1, n, "")
            m.AddMinEquality(lo, vs)
            m.AddMaxEquality(hi, vs)
            m.Add(hi - lo == len(run) - 1)
    return _solve(m, x, (n, n))


def _solve(m, x, shape) -> np.ndarray:
    from ortools.sat.python import cp_model

    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    out = np.zeros(shape, dtype=np.int64)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        for rc, var in x.items():
            out[rc] = s.Value(var)
    return out


def run(kind: str, first: int | None) -> dict:
    from csolve.puzzle import get_puzzle_type
    from csolve.solver import SolveOptions, solve_one

    ptype = get_puzzle_type(kind)
    puzzles = ptype.parse(SETS[kind].read_text(), str(SETS[kind]))[:first]
    cp = cpsat_kakuro if kind == "kakuro" else cpsat_str8ts
    solve_one(ptype, puzzles[0], SolveOptions())  # compile / load kernels
    ours, theirs = [], []
    for p in puzzles:
        t0 = time.perf_counter()
        r = solve_one(ptype, p, SolveOptions(limit=1))
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        sol = cp(p.data)
        theirs.append(time.perf_counter() - t0)
        assert r.solutions and ptype.validate(p, r.solutions[0]) == [], p.where
        assert ptype.validate(p, sol) == [], f"CP-SAT {p.where}"

    def summary(ts: list[float]) -> dict:
        return {"median_ms": 1e3 * statistics.median(ts), "max_ms": 1e3 * max(ts),
                "total_s": sum(ts)}

    return {"puzzles": len(puzzles), "csolve": summary(ours), "cpsat": summary(theirs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=sorted(SETS))
    ap.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    results = {}
    for kind in ([a.only] if a.only else sorted(SETS)):
        if not SETS[kind].exists():
            print(f"{kind}: {SETS[kind]} not found, skipped")
            continue
        results[kind] = run(kind, a.first)
    if a.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'set':8} {'puzzles':>7} {'solver':8} {'median ms':>10} {'max ms':>9} {'total s':>8}")
    for kind, res in results.items():
        for solver in ("csolve", "cpsat"):
            s = res[solver]
            print(f"{kind:8} {res['puzzles']:7} {solver:8} {s['median_ms']:10.3f} "
                  f"{s['max_ms']:9.2f} {s['total_s']:8.2f}")


if __name__ == "__main__":
    main()
