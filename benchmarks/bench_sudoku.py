"""Sudoku speed: csolve's batch solver against CaDiCaL (python-sat) and OR-Tools CP-SAT.

    python benchmarks/bench_sudoku.py [--sample N] [--peer-sample N] [--limit 1|2] [--rounds R]
                                      [--sets a.txt,b.txt] [--engines auto,dfs] [--json F]
                                      [--sat-solver cadical195] [--sat-fresh]
                                      [--tdoku-lib path/to/libtdoku_shared.so]

For each shared set, csolve solves the whole file (or a seeded sample) in one batch call with
kernels warm and reports mean / median µs per puzzle (the kernel's cycle counter, scaled to the
batch's wall time) and the batch's wall time per puzzle; with ``--rounds R`` each puzzle keeps
its fastest of R batches and the wall time is the median batch; the timed solvers (each
engine, and tdoku) take turns round by round, so a slow spell falls on each alike. The peers
solve a sample of the same puzzles in the same run, one at a time (CaDiCaL incremental: one
encoding, the givens as assumptions, or with ``--sat-fresh`` a new solver per puzzle, the
givens as unit clauses; CP-SAT: one model per puzzle, 1 worker). Every answer is validated.
``--engines`` adds rows for other csolve search engines ("auto": the puzzle's own choice,
which is the 9x9 bitboard engine for 9x9, handing a puzzle to clause learning after 20,000
nodes; "dfs": the generic search over the default rules, alone; "learning": clause
learning).
``--tdoku-lib`` adds tdoku (a shared library built from its sources, not shipped here) on
9x9 sets: every puzzle of the set, timed as csolve is (a numba loop calls its C function
``TdokuSolverDpllTriadSimd`` and reads the cycle counter around each call; each round's cycles
are scaled to the round's wall time; each puzzle keeps its fastest round).
Needs the ``bench`` extra; peers are skipped when missing. Reads ../shared/data (skips if absent).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from csolve.puzzle import get_puzzle_type
from csolve.solver import SolveOptions, solve_puzzles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data()
SETS_9 = ["kaggle-2000.txt", "17clue-5000.txt", "top1465.txt", "forum-hardest-5000.txt"]
SETS_N = ["16x16-maatec-30.txt", "16x16-janko-62.txt", "25x25-maatec-20.txt",
          "36x36-maatec-15.txt", "25x25-frisch-minimal-9.txt"]


def var(n: int, r: int, c: int, v: int) -> int:
    return (r * n + c) * n + v + 1


def exactly_one(lits: list[int]) -> list[list[int]]:
    """One "at least one" clause over ``lits`` and the pairwise "at most one" clauses."""
    return [list(lits)] + [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]


def sudoku_cnf(n: int, grid: np.ndarray | None = None) -> list[list[int]]:
    """The SAT peers' encoding of n×n Sudoku: "exactly one" over each cell's values and over
    each value's places in a row, a column and a box (an "at least one" clause and pairwise
    "at most one" clauses), and the givens of ``grid`` (if any) as unit clauses."""
    k = int(n**0.5)
    groups = []
    for r in range(n):
        for c in range(n):
            groups.append([var(n, r, c, v) for v in range(n)])
    for v in range(n):
        for i in range(n):
            groups.append([var(n, i, c, v) for c in range(n)])
            groups.append([var(n, r, i, v) for r in range(n)])
            br, bc = i // k * k, i % k * k
            groups.append([var(n, br + a, bc + b, v) for a in range(k) for b in range(k)])
    clauses = [clause for lits in groups for clause in exactly_one(lits)]
    if grid is not None:
        clauses += given_clauses(n, grid)
    return clauses


def triad_clauses(n: int) -> list[list[int]]:
    """An augmented encoding's extra variables and clauses: for each value, a variable per
    box-row and box-column segment (the k cells a row or a column shares with a box) that
    holds when the value is in the segment, with "exactly one" over a row's segments, a
    column's, and a box's segments either way, so that pointing and claiming take one
    clause and a learned clause may name a segment instead of its cells."""
    k = int(n**0.5)
    nxt = n * n * n + 1
    clauses: list[list[int]] = []
    for v in range(n):
        across, down = {}, {}  # (row, box column) and (column, box row) -> segment variable
        for line in range(n):
            for seg in range(k):
                for table, cells in ((across, [var(n, line, seg * k + j, v) for j in range(k)]),
                                     (down, [var(n, seg * k + j, line, v) for j in range(k)])):
                    table[line, seg] = nxt
                    clauses.extend([-x, nxt] for x in cells)
                    clauses.append([-nxt] + cells)
                    nxt += 1
        for line in range(n):
            clauses += exactly_one([across[line, seg] for seg in range(k)])
            clauses += exactly_one([down[line, seg] for seg in range(k)])
        for br in range(k):
            for bc in range(k):
                clauses += exactly_one([across[br * k + a, bc] for a in range(k)])
                clauses += exactly_one([down[bc * k + a, br] for a in range(k)])
    return clauses


def given_clauses(n: int, grid: np.ndarray) -> list[list[int]]:
    """The givens of ``grid`` as unit clauses of :func:`sudoku_cnf`'s encoding."""
    return [[var(n, i // n, i % n, int(x) - 1)] for i, x in enumerate(grid) if x]


class Cadical:
    """A SAT encoding of n×n Sudoku. Incremental (the default): built once, givens passed as
    assumptions. ``fresh``: a new solver per puzzle with the givens as unit clauses, which
    lets the solver simplify them away first (better on hard, large puzzles)."""

    def __init__(self, n: int, name: str = "cadical153", fresh: bool = False,
                 triads: bool = False) -> None:
        self.n = n
        self.name = name
        self.fresh = fresh
        self.triads = triads  # the augmented encoding (:func:`triad_clauses`) too
        self.solver = None if fresh else self._build()

    def _build(self, grid: np.ndarray | None = None):
        from pysat.solvers import Solver

        solver = Solver(name=self.name)
        solver.append_formula(sudoku_cnf(self.n, grid))
        if self.triads:
            solver.append_formula(triad_clauses(self.n))
        return solver

    def prepare(self, grid: np.ndarray) -> None:
        """Fresh mode: build the puzzle's own solver (outside the timed part)."""
        if self.fresh:
            if self.solver is not None:
                self.solver.delete()
            self.solver = self._build(grid)

    def solve(self, grid: np.ndarray, limit: int) -> tuple[np.ndarray | None, int]:
        n = self.n
        if self.fresh:
            assumptions = []  # the givens are in the solver already (``prepare``)
        else:
            assumptions = [var(n, i // n, i % n, int(x) - 1) for i, x in enumerate(grid) if x]
        count = 0
        first = None
        blocking: list[list[int]] = []
        while count < limit and self.solver.solve(assumptions=assumptions):
            sol = self._grid()
            first = sol if first is None else first
            count += 1
            if count < limit:  # block this solution for the next call, scoped by an activator
                act = n * n * n * 4 + len(blocking) + 1
                self.solver.add_clause([-act] + [-var(n, i // n, i % n, int(x) - 1)
                                                 for i, x in enumerate(sol)])
                blocking.append([act])
                assumptions = assumptions + [act]
        return first, count

    def solve_capped(self, conflicts: int) -> tuple[np.ndarray | None, int]:
        """Fresh mode: a first solution within ``conflicts`` conflicts (None if not), and
        the conflicts the solver needed."""
        self.solver.conf_budget(conflicts)
        found = self.solver.solve_limited()
        used = self.solver.accum_stats()["conflicts"]
        return (self._grid() if found else None), used

    def _grid(self) -> np.ndarray:
        """The solver's model as a grid of values."""
        n = self.n
        sol = np.zeros(n * n, dtype=np.int64)
        for lit in self.solver.get_model():
            if 0 < lit <= n * n * n:
                cell, v = divmod(lit - 1, n)
                sol[cell] = v + 1
        return sol


def cpsat(grid: np.ndarray, n: int, limit: int) -> tuple[np.ndarray | None, int]:
    from ortools.sat.python import cp_model

    k = int(n**0.5)
    m = cp_model.CpModel()
    x = [m.new_int_var(1, n, f"x{i}") for i in range(n * n)]
    for i, g in enumerate(grid):
        if g:
            m.add(x[i] == int(g))
    for r in range(n):
        m.add_all_different(x[r * n : r * n + n])
        m.add_all_different(x[r::n])
    for br in range(0, n, k):
        for bc in range(0, n, k):
            m.add_all_different([x[(br + a) * n + bc + b] for a in range(k) for b in range(k)])
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    if limit == 1:
        st = s.solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None, 0
        return np.array([s.value(v) for v in x]), 1
    s.parameters.enumerate_all_solutions = True

    class Stop(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.sols = []

        def on_solution_callback(self):
            self.sols.append(np.array([self.value(v) for v in x]))
            if len(self.sols) >= limit:
                self.stop_search()

    cb = Stop()
    s.solve(m, cb)
    return (cb.sols[0] if cb.sols else None), len(cb.sols)


class TimedRounds:
    """What every timed solver keeps over its rounds: each puzzle's fastest time (µs) and
    each round's wall time, summed up the same way for all of them."""

    def __init__(self, name: str, puzzles):
        self.name = name
        self.puzzles = puzzles
        self.walls: list[float] = []
        self.best: np.ndarray | None = None

    def keep(self, us: np.ndarray, wall: float) -> None:
        self.walls.append(wall)
        self.best = us if self.best is None else np.minimum(self.best, us)

    def timing(self) -> dict:
        n = len(self.puzzles)
        return dict(solver=self.name, puzzles=n, mean_us=float(self.best.mean()),
                    median_us=float(np.median(self.best)), max_us=float(self.best.max()),
                    wall_us_per_puzzle=statistics.median(self.walls) / n * 1e6)


class CsolveRounds(TimedRounds):
    """csolve's batch solver on a set, one round at a time (kernel loaded before the first
    clock starts)."""

    def __init__(self, sudoku, puzzles, limit: int, timeout: float, engine: str | None):
        super().__init__("csolve" if engine is None else f"csolve {engine}", puzzles)
        self.sudoku = sudoku
        self.options = SolveOptions(limit=limit, timeout=timeout, engine=engine)
        self.results: list = []  # the last round's
        list(solve_puzzles(sudoku, puzzles[:1], SolveOptions(limit=limit, engine=engine)))

    def round(self) -> None:
        t0 = time.perf_counter()
        self.results = list(solve_puzzles(self.sudoku, self.puzzles, self.options))
        wall = time.perf_counter() - t0
        self.keep(np.array([r.seconds * 1e6 for r in self.results]), wall)

    def row(self) -> dict:
        return dict(self.timing(), solved=sum(1 for r in self.results if r.solutions))


def tdoku_runner(lib_path: str):
    """A numba loop over puzzles that calls tdoku's C function, reading the cycle counter
    around each call (the batch kernel's own timing)."""
    import ctypes

    from numba import njit

    from csolve.kernels.bits import cycle_counter

    fn = ctypes.CDLL(lib_path).TdokuSolverDpllTriadSimd
    fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_void_p,
                   ctypes.c_void_p]
    fn.restype = ctypes.c_size_t

    @njit(nogil=True)
    def run(puzzles, limit, out, guesses, counts, cycles):
        for i in range(puzzles.shape[0]):
            t0 = cycle_counter()
            counts[i] = fn(puzzles[i].ctypes, limit, 0, out[i].ctypes, guesses[i:i + 1].ctypes)
            cycles[i] = cycle_counter() - t0

    return run


class TdokuRounds(TimedRounds):
    """Every puzzle of a set through tdoku, one round at a time, its cycles scaled to the
    round's wall time (as csolve's batch times are). Every solution is validated (tdoku
    returns one with limit 1 only)."""

    def __init__(self, sudoku, run, puzzles, limit: int):
        super().__init__("tdoku", puzzles)
        n = len(puzzles)
        text = "".join("".join(str(v) if v else "." for v in p.data) + "\0" for p in puzzles)
        self.grid = np.frombuffer(text.encode("ascii"), np.uint8).reshape(n, 82).copy()
        self.out = np.zeros((n, 82), np.uint8)
        self.guesses = np.zeros(n, np.uint64)
        self.counts = np.zeros(n, np.int64)
        self.cycles = np.zeros(n, np.int64)
        self.sudoku = sudoku
        self.run = run
        self.limit = limit
        self._call(self.grid[:1])  # compile before any clock starts

    def _call(self, grid: np.ndarray) -> None:
        self.run(grid, self.limit, self.out, self.guesses, self.counts, self.cycles)

    def round(self) -> None:
        t0 = time.perf_counter()
        self._call(self.grid)
        wall = time.perf_counter() - t0
        self.keep(self.cycles * (wall * 1e6 / max(1, int(self.cycles.sum()))), wall)

    def row(self) -> dict:
        solved = 0
        for k, p in enumerate(self.puzzles):
            if self.counts[k] < 1:
                continue
            if self.limit == 1:
                sol = (np.frombuffer(self.out[k, :81].tobytes(), np.uint8).astype(np.int64)
                       - ord("0"))
                if self.sudoku.validate(p, sol):
                    continue
            solved += 1
        return dict(self.timing(), solved=solved, guesses=float(self.guesses.mean()))


def take_turns(timed: list, rounds: int) -> None:
    """One round of each solver in turn, ``rounds`` times over: a slow spell of a shared
    machine then falls on each of them alike, and each puzzle's fastest round is fair to all."""
    for _ in range(max(1, rounds)):
        for solver in timed:
            solver.round()


def bench_set(sudoku, path: Path, sample: int, peer_sample: int, limit: int, timeout: float,
              rng: random.Random, rounds: int = 1, engines: tuple[str, ...] = ("auto",),
              sat_solver: str = "cadical153", sat_fresh: bool = False,
              tdoku=None) -> list[dict]:
    puzzles = sudoku.parse(path.read_text(), path.name)
    if sample and len(puzzles) > sample:
        puzzles = sorted(rng.sample(puzzles, sample), key=lambda p: p.index)
    timed = [CsolveRounds(sudoku, puzzles, limit, timeout, None if e == "auto" else e)
             for e in engines
             # every size but 9x9 is searched by the generic engine anyway
             if not (e == "dfs" and puzzles and puzzles[0].meta["n"] != 9)]
    if tdoku is not None and puzzles and puzzles[0].meta["n"] == 9:
        timed.append(TdokuRounds(sudoku, tdoku, puzzles, limit))
    take_turns(timed, rounds)
    rows = [dict(set=path.name, **solver.row()) for solver in timed]
    peers = puzzles if len(puzzles) <= peer_sample else rng.sample(puzzles, peer_sample)
    if not peers:
        return rows
    n = peers[0].meta["n"]
    for name in ("cadical", "cpsat"):
        try:
            solver = Cadical(n, sat_solver, sat_fresh) if name == "cadical" else None
            if solver is None:
                import ortools.sat.python.cp_model  # noqa: F401  (skip CP-SAT when missing)
            fn = (lambda g, s=solver: s.solve(g, limit)) if solver else (
                lambda g: cpsat(g, n, limit))
        except ImportError:
            continue
        times, ok = [], 0
        for p in peers:
            if solver is not None:
                solver.prepare(p.data)
            t = time.perf_counter()
            sol, _count = fn(p.data)
            times.append((time.perf_counter() - t) * 1e6)
            if sol is not None and not sudoku.validate(p, sol):
                ok += 1
        if name == "cadical" and (sat_solver, sat_fresh) != ("cadical153", False):
            name = sat_solver + (" fresh" if sat_fresh else "")
        rows.append(dict(set=path.name, solver=name, puzzles=len(peers), solved=ok,
                         mean_us=statistics.fmean(times), median_us=statistics.median(times),
                         max_us=max(times), wall_us_per_puzzle=None))
    return rows


def add_tdoku_ratios(rows: list[dict]) -> None:
    """Each csolve row's mean over tdoku's on the same set and run (``mean_vs_tdoku``): the
    figure to compare across machines, where the microseconds are not (tdoku's SIMD paths
    differ with the processor). Not for the SAT peers: they solve a sample of the set,
    timed by the wall clock around each call."""
    tdoku = {r["set"]: r["mean_us"] for r in rows if r["solver"] == "tdoku"}
    for r in rows:
        if r["set"] in tdoku and r["solver"].startswith("csolve") and tdoku[r["set"]] > 0:
            r["mean_vs_tdoku"] = r["mean_us"] / tdoku[r["set"]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=0, help="csolve: puzzles per set (0 = all)")
    ap.add_argument("--peer-sample", type=int, default=100, help="puzzles per set for peers")
    ap.add_argument("--limit", type=int, default=1, help="1: first solution, 2: prove unique")
    ap.add_argument("--timeout", type=float, default=60.0, help="csolve seconds per puzzle")
    ap.add_argument("--sets", default="", help="comma-separated file names (default: all)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds per set for each timed solver (csolve engines, tdoku), "
                    "taken in turn: each puzzle keeps its fastest time")
    ap.add_argument("--engines", default="auto",
                    help="csolve engines, comma-separated: auto (the default choice), dfs, ...")
    ap.add_argument("--sat-solver", default="cadical153",
                    help="python-sat solver for the SAT peer (e.g. cadical195)")
    ap.add_argument("--sat-fresh", action="store_true",
                    help="SAT peer: a new solver per puzzle, givens as unit clauses")
    ap.add_argument("--tdoku-lib", help="tdoku's shared library (libtdoku_shared.so): measure "
                    "tdoku on the 9x9 sets in the same run")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"shared data not found at {DATA}; nothing to measure")
        return 0
    sudoku = get_puzzle_type("sudoku")
    tdoku = tdoku_runner(args.tdoku_lib) if args.tdoku_lib else None
    rng = random.Random(2026)
    wanted = [s for s in args.sets.split(",") if s] or SETS_9 + SETS_N
    rows = []
    for name in wanted:
        sub = "sudoku-9x9" if name in SETS_9 else "sudoku-nxn"
        path = DATA / sub / name
        if path.exists():
            rows += bench_set(sudoku, path, args.sample, args.peer_sample, args.limit,
                              args.timeout, rng, args.rounds,
                              tuple(e for e in args.engines.split(",") if e),
                              args.sat_solver, args.sat_fresh, tdoku)
    from rich.console import Console
    from rich.table import Table

    add_tdoku_ratios(rows)
    table = Table(title=f"Sudoku, one core, limit {args.limit} (µs per puzzle)")
    columns = ["set", "solver", "puzzles", "solved", "mean", "median", "max",
               "batch wall/puzzle"]
    if tdoku is not None:
        columns.append("mean / tdoku's")
    for col in columns:
        table.add_column(col, justify="left" if col in ("set", "solver") else "right")
    for r in rows:
        cells = [r["set"], r["solver"], str(r["puzzles"]), str(r["solved"]),
                 f"{r['mean_us']:,.1f}", f"{r['median_us']:,.1f}", f"{r['max_us']:,.0f}",
                 "" if r["wall_us_per_puzzle"] is None else f"{r['wall_us_per_puzzle']:,.1f}"]
        if tdoku is not None:
            ratio = r.get("mean_vs_tdoku")
            cells.append("" if ratio is None else f"{ratio:.2f}")
        table.add_row(*cells)
    Console().print(table)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
