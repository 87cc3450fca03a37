"""Hard puzzles under symmetry: how often a csolve search solves them within a time limit.

    python benchmarks/bench_heavy_tail.py [--set 25x25-frisch-minimal-9.txt] [--puzzles 4,7]
                                          [--transforms 8]
                                          [--timeout 10] [--engine learning]
                                          [--backends serial:1,locked-pool:2]
                                          [--takeovers serial:1,interleave:2:escalate=2000]
                                          [--peer cadical195] [--peer-encoding triads]
                                          [--json F]
    python benchmarks/bench_heavy_tail.py --conflicts 100000 [--cpu 10] [--transforms 8]
                                          [--first-transform 16]
                                          [--peer cadical195] [--peer-encoding triads]
                                          [--json F]
    python benchmarks/bench_heavy_tail.py --write-cnf DIR [--puzzles 4,7] [--transforms 8]
                                          [--peer-encoding triads]

Run times of a clause-learning search on hard puzzles are heavy-tailed: the same puzzle with
its rows, columns and digits permuted (an equivalent puzzle) can take 0.5 s or more than a
minute. One run per puzzle says little, so each puzzle of the set is solved as given and under
``--transforms - 1`` seeded random symmetries, once per backend (``name:workers``), one puzzle
at a time with ``--timeout`` seconds each. The table gives, per backend, the runs solved, the
median time (a run not solved counts as the time limit) and the puzzles solved at least once.
``--peer`` solves the same runs with a python-sat solver (a fresh one per run, the givens as
unit clauses, the same time limit), so csolve's tail is set against a peer's on the same
puzzles rather than against the peer's luck on the puzzles as given. Every row gives its
runs solved per puzzle (the tail is a puzzle solved in few of its runs); with a peer, each
csolve row also gives its median over the peer's and how many runs took over three times
the peer's time on the same run (an unsolved run counting as the time limit). Every solution is
validated. Reads ../shared/data (skips if absent).

With a peer, a second table pairs the runs: each run (a puzzle under one symmetry) is solved
by both solvers, by one of them or by neither, and McNemar's exact test on the runs one
solver solved and the other did not says whether they differ beyond chance, puzzle by puzzle
and over all runs. A count of runs solved per puzzle moves a lot between sittings (at a rate
of 90% a run, a puzzle is solved in 7 or 8 of 8 runs only 81% of the time), so a gap of one
or two runs is read against that p-value, not on its own.

``--takeovers`` (with ``--engine auto``) adds a row per way the learning engine can take a
puzzle over on one core, each ``name:workers[:key=value...]``: the backend and searches
(``SolveOptions.takeover``), its ``-O`` options, and ``escalate=N`` for
the depth-first nodes before the hand-over (``serial:1``: one search; ``interleave:2``: two
that take turns and split the puzzle). The rows share one sitting, and one peer row.

``--conflicts N`` measures the same runs by a count the machine's load cannot bend: one
search of the ``learning`` engine per run (no depth-first start, no interleaving) for at most
N conflicts, and the table gives the runs solved within N, the median conflicts and
decisions (a run not solved counts as N), the conflicts per CPU second over all runs, and
the CPU seconds of a run (median) and of all runs (total): work an engine does between
conflicts (inprocessing such as clause vivification) costs time the conflicts do not show.
``--cpu T`` also ends a run after T CPU seconds: a change that trades conflicts for speed
(a smaller clause database) is judged by the runs solved within the time a user waits, on a
clock the other core's load bends far less than the wall clock. With ``--peer`` the same
runs are solved by the python-sat solver under the same caps (its conflict budget, and the
kernel's CPU limit on its process), so the conflicts each needs and the speed at which it
makes them are set side by side.

``--peer-encoding triads`` gives the peer an augmented encoding: for each value a variable
per box-row and box-column segment, with "exactly one" over the segments of each row,
column and box, the variables through which pointing and claiming are one clause each.

``--write-cnf DIR`` writes the same runs as DIMACS files instead, in the encoding the peer is
given, so a SAT solver built by hand can be run on them with its own options and statistics
(e.g. which of its techniques carries a puzzle).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from csolve.puzzle import get_puzzle_type
from csolve.solver import SolveOptions, Status, solve_one

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import shared_data  # noqa: E402  (the one place that finds the data)

DATA = shared_data("sudoku-nxn")


#: the first symmetry of each puzzle's runs (``--first-transform``): 0 is the puzzle as given
FIRST_TRANSFORM = 0
#: the peer's encoding (``--peer-encoding``): True adds the box-row and box-column segment
#: variables of :func:`bench_sudoku.triad_clauses`
PEER_TRIADS = False


def _peer_label() -> str:
    return " (triads)" if PEER_TRIADS else ""


def symmetries(transforms: int) -> range:
    """The symmetries each puzzle is run under: ``transforms`` of them from the first."""
    return range(FIRST_TRANSFORM, FIRST_TRANSFORM + transforms)


def transformed(sudoku, puzzle, k: int):
    """The puzzle as given (k = 0), or under the k-th seeded random symmetry of its grid."""
    if k == 0:
        return puzzle
    from csolve_sudoku.transform import random_transform

    n = puzzle.meta["n"]
    rng = np.random.default_rng([puzzle.index, k])
    grid = random_transform(puzzle.data.reshape(n, n), rng)
    return sudoku.parse(" ".join(map(str, grid.ravel())), f"{puzzle.source}#{k}")[0]


def run(sudoku, puzzles, backend: str, workers: int, engine: str | None, timeout: float,
        transforms: int, takeover: str = "") -> dict:
    """One row: every run solved by ``backend`` on ``workers``; ``takeover``
    (``name:workers[:key=value...]``) replaces the default one-core take-over by the
    learning engine, where ``escalate=N`` sets the depth-first nodes before it."""
    escalate, plan, label = None, None, backend  # None: the defaults
    if takeover:
        name, n, *items = takeover.split(":")
        options = dict(item.split("=", 1) for item in items)
        if "escalate" in options:
            escalate = int(options.pop("escalate"))
        plan = (name, int(n), options)
        label = f"{backend}, take-over {takeover}"

    def solve(q):
        t = time.perf_counter()
        r = solve_one(sudoku, q, SolveOptions(backend=backend, workers=workers,
                                                 timeout=timeout, engine=engine,
                                                 escalate_after=escalate, takeover=plan))
        dt = time.perf_counter() - t
        return (r.solutions[0], dt) if r.status is Status.SOLVED else (None, dt)

    return _runs(sudoku, puzzles, transforms, timeout, solve, label, workers)


def run_capped(sudoku, puzzles, cap: int, transforms: int, cpu_cap: float = 0.0) -> dict:
    """Each run searched by one ``learning`` search for at most ``cap`` conflicts (and at
    most ``cpu_cap`` CPU seconds, when given): the conflicts and decisions it needed, and the
    CPU time it took. A run not solved counts as the caps in the medians."""
    from csolve.engines import with_engine
    from csolve.kernels import abi
    from csolve.search import SearchState, new_ctrl
    from csolve.solver import checked

    conflicts, spent, decisions, cpu_s = [], [], [], []
    (_, _, model, _), = sudoku.model_runs([puzzles[0]])
    warm = SearchState(with_engine(model, "learning"))
    warm.push_root()
    warm.run(new_ctrl(), 1, False, 1)  # compile before any clock starts
    for p in puzzles:
        for k in symmetries(transforms):
            q = transformed(sudoku, p, k)
            (_, _, model, inits), = sudoku.model_runs([q])
            state = SearchState(with_engine(model, "learning").with_init(inits[0]))
            state.push_root()
            ctrl = new_ctrl()
            t = time.process_time()
            solution = None
            while state.stats[abi.STAT_BACKTRACKS] < cap:
                if cpu_cap and time.process_time() - t >= cpu_cap:
                    break
                r = state.run(ctrl, 1, False, 4096)
                if state.found:
                    solution = checked(sudoku, q, state.found_solutions()[0])
                    break
                if r == abi.EXHAUSTED:
                    raise AssertionError(f"{q.where}: no solution found")
            cpu_s.append(time.process_time() - t)
            c = int(state.stats[abi.STAT_BACKTRACKS])
            spent.append(c)
            conflicts.append(c if solution is not None else None)
            decisions.append(int(state.stats[abi.STAT_GUESSES]))
    label = f"learning, {cap:,} conflicts" + (f", {cpu_cap:g} CPU s" if cpu_cap else "")
    return _capped_row(label, len(puzzles), conflicts, cpu_s, cap, cpu_cap,
                       sum(spent) / max(sum(cpu_s), 1e-9), statistics.median(decisions))


def _capped_row(label: str, n_puzzles: int, conflicts: list, cpu_s: list, cap: int,
                cpu_cap: float, rate: float, median_decisions: float | None) -> dict:
    """One row of the capped table from its runs (puzzle by puzzle, as given first): a run
    solved past the CPU cap counts as not solved, and a run not solved counts as the caps in
    the medians."""
    if cpu_cap:
        conflicts = [None if t > cpu_cap else c for c, t in zip(conflicts, cpu_s, strict=True)]
    capped = [cap if c is None else c for c in conflicts]
    capped_s = [cpu_cap if c is None and cpu_cap else t
                for c, t in zip(conflicts, cpu_s, strict=True)]
    per = len(conflicts) // n_puzzles
    return dict(backend=label, workers=1, runs=len(conflicts),
                solved=sum(c is not None for c in conflicts),
                median_conflicts=statistics.median(capped), median_decisions=median_decisions,
                conflicts_per_cpu_s=round(rate),
                median_cpu_s=statistics.median(capped_s), total_cpu_s=sum(cpu_s),
                puzzles=n_puzzles,
                puzzles_solved=sum(any(c is not None for c in conflicts[i:i + per])
                                   for i in range(0, len(conflicts), per)),
                # per run, puzzle by puzzle, as given first; None: not solved within the caps
                conflicts=conflicts, cpu_s=[round(t, 3) for t in cpu_s])


def _peer_solve(conn, name: str, n: int, grid) -> None:
    """In a child process: build the SAT peer for ``grid``, say so, then send its answer."""
    from bench_sudoku import Cadical

    sat = Cadical(n, name, fresh=True, triads=PEER_TRIADS)
    sat.prepare(grid)
    conn.send("built")
    conn.send(sat.solve(grid, 1)[0])


def _peer_capped(conn, name: str, n: int, grid, cap: int, cpu_cap: float) -> None:
    """In a child process: the SAT peer's first solution within ``cap`` conflicts and
    ``cpu_cap`` CPU seconds (the kernel ends the process at the CPU limit: python-sat cannot
    interrupt CaDiCaL), with the conflicts and CPU seconds it took."""
    from bench_sudoku import Cadical

    sat = Cadical(n, name, fresh=True, triads=PEER_TRIADS)
    sat.prepare(grid)
    start = time.process_time()
    if cpu_cap:
        import math
        import resource

        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(start + cpu_cap), hard))
    solution, used = sat.solve_capped(cap)
    conn.send((solution, used, time.process_time() - start))


def run_peer_capped(sudoku, puzzles, name: str, cap: int, transforms: int,
                    cpu_cap: float = 0.0) -> dict:
    """The capped runs solved by a python-sat solver (a fresh one per run, the givens as unit
    clauses, in a child process): the same row as :func:`run_capped`. A run the CPU limit
    ends leaves no count, so conflicts per CPU second are over the runs that ended by
    themselves."""
    ctx = multiprocessing.get_context("fork")
    n = puzzles[0].meta["n"]
    conflicts, cpu_s = [], []
    spent, spent_s = 0, 0.0
    for p in puzzles:
        for k in symmetries(transforms):
            q = transformed(sudoku, p, k)
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_peer_capped, args=(child, name, n, q.data, cap, cpu_cap),
                               daemon=True)
            proc.start()
            child.close()
            try:
                solution, used, secs = parent.recv()
            except EOFError:  # ended at the CPU limit
                solution, used, secs = None, None, cpu_cap
            proc.join()
            if used is not None:
                spent += used
                spent_s += secs
            if solution is not None:
                assert sudoku.validate(q, solution) == []
            conflicts.append(used if solution is not None else None)
            cpu_s.append(secs)
    return _capped_row(f"peer {name}{_peer_label()}", len(puzzles), conflicts, cpu_s, cap, cpu_cap,
                       spent / max(spent_s, 1e-9), None)


def run_peer(sudoku, puzzles, name: str, timeout: float, transforms: int) -> dict:
    """The same runs solved by a python-sat solver, a fresh one per run in a child process
    (killed at the time limit: python-sat cannot interrupt CaDiCaL); the clock starts once
    the encoding is built."""
    ctx = multiprocessing.get_context("fork")
    n = puzzles[0].meta["n"]

    def solve(q):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_peer_solve, args=(child, name, n, q.data), daemon=True)
        proc.start()
        parent.recv()
        t = time.perf_counter()
        solution = parent.recv() if parent.poll(timeout) else None
        dt = time.perf_counter() - t
        proc.kill()
        proc.join()
        return solution, dt

    return _runs(sudoku, puzzles, transforms, timeout, solve, f"peer {name}{_peer_label()}", 1)


def _runs(sudoku, puzzles, transforms: int, timeout: float, solve, backend: str,
          workers: int) -> dict:
    """Run ``solve`` (a solution or None, and seconds) on every puzzle as given and under
    symmetries; a row of the table."""
    times, solved_puzzles = [], set()
    for p in puzzles:
        for k in symmetries(transforms):
            q = transformed(sudoku, p, k)
            solution, dt = solve(q)
            if solution is not None:
                assert sudoku.validate(q, solution) == []
                times.append(dt)
                solved_puzzles.add(p.index)
            else:
                times.append(float("inf"))
    capped = [min(t, timeout) for t in times]
    return dict(backend=backend, workers=workers, runs=len(times),
                solved=sum(t < float("inf") for t in times),
                median_s=statistics.median(capped), puzzles=len(puzzles),
                puzzles_solved=len(solved_puzzles),
                # per run, puzzle by puzzle, as given first; None: not solved in time
                times_s=[round(t, 3) if t < float("inf") else None for t in times])


def by_puzzle(runs: list, transforms: int) -> list[list]:
    """A row's per-run list (puzzle by puzzle, as given first) cut into one list a puzzle."""
    return [runs[i:i + transforms] for i in range(0, len(runs), transforms)]


def solved_per_puzzle(runs: list, transforms: int) -> list[int]:
    """How many of each puzzle's runs were solved (None: unsolved): the tail shows as a
    puzzle solved in few of its runs."""
    return [sum(t is not None for t in puzzle) for puzzle in by_puzzle(runs, transforms)]


def against_peer(row: dict, peer: dict, timeout: float) -> dict:
    """A row's runs set against the peer's, run by run (an unsolved run counts as the time
    limit): the ratio of the medians and how many runs took over three times the peer's."""
    def capped(t):
        return timeout if t is None else min(t, timeout)

    over = sum(capped(a) > 3 * capped(b)
               for a, b in zip(row["times_s"], peer["times_s"], strict=True))
    return dict(median_vs_peer=row["median_s"] / peer["median_s"], runs_over_3x_peer=over)


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value: the chance of a split at least this uneven between
    runs only one solver solved, were each as likely to be either's."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired(mine: list, theirs: list, transforms: int) -> list[dict]:
    """Each puzzle's runs, and then all of them, split by who solved them (None: unsolved):
    both, the first solver only, the second only, neither; with McNemar's p-value on the
    two middle counts."""
    groups = list(zip(by_puzzle(mine, transforms), by_puzzle(theirs, transforms), strict=True))
    groups.append((mine, theirs))
    out = []
    for mine, theirs in groups:
        pairs = [(a is not None, b is not None) for a, b in zip(mine, theirs, strict=True)]
        only_row = pairs.count((True, False))
        only_peer = pairs.count((False, True))
        out.append(dict(both=pairs.count((True, True)), only_row=only_row,
                        only_peer=only_peer, neither=pairs.count((False, False)),
                        p=mcnemar_p(only_row, only_peer)))
    return out


def write_cnf(sudoku, puzzles, transforms: int, folder: Path) -> int:
    """Write every run as a DIMACS file, so a SAT solver's own binary (with its statistics
    and options) meets exactly the runs the table measures."""
    from bench_sudoku import given_clauses, sudoku_cnf, triad_clauses

    folder.mkdir(parents=True, exist_ok=True)
    rules: dict[int, tuple[int, int, str]] = {}  # per size: clauses, variables, their text
    for puzzle in puzzles:
        n = puzzle.meta["n"]
        if n not in rules:
            clauses = sudoku_cnf(n) + (triad_clauses(n) if PEER_TRIADS else [])
            variables = max(abs(lit) for c in clauses for lit in c)
            rules[n] = (len(clauses), variables,
                        "".join(" ".join(map(str, c)) + " 0\n" for c in clauses))
        count, variables, text = rules[n]
        for k in symmetries(transforms):
            grid = transformed(sudoku, puzzle, k).data.ravel()
            givens = given_clauses(n, grid)
            (folder / f"p{puzzle.index}t{k}.cnf").write_text(
                f"p cnf {variables} {count + len(givens)}\n" + text
                + "".join(f"{c[0]} 0\n" for c in givens))
    print(f"wrote {len(puzzles) * transforms} files to {folder}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="25x25-frisch-minimal-9.txt")
    ap.add_argument("--puzzles", default="",
                    help="comma-separated indexes of the set's puzzles to run (default: all)")
    ap.add_argument("--transforms", type=int, default=8, help="runs per puzzle (1 = as given)")
    ap.add_argument("--first-transform", type=int, default=0,
                    help="the first symmetry (0 = as given): later ones are runs that took "
                         "no part in choosing the engine")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    ap.add_argument("--engine", default="learning",
                    help="csolve engine; auto: the default choice, as the CLI makes it")
    ap.add_argument("--backends", default="serial:1,locked-pool:2",
                    help="comma-separated name:workers")
    ap.add_argument("--takeovers", default="",
                    help="with --engine auto: one row per one-core take-over, each "
                         "name:workers[:key=value...] (backend options, and escalate=N "
                         "for the depth-first nodes first), after the --backends rows")
    ap.add_argument("--peer", default="",
                    help="also solve the runs with this python-sat solver (e.g. cadical195)")
    ap.add_argument("--peer-encoding", choices=("pairwise", "triads"), default="pairwise",
                    help="the peer's encoding: exactly-one by pairwise clauses, or that and "
                         "a variable per box-row and box-column segment of each value")
    ap.add_argument("--conflicts", type=int, default=0,
                    help="instead: one learning search per run, at most this many conflicts")
    ap.add_argument("--cpu", type=float, default=0.0,
                    help="with --conflicts: also end a run after this many CPU seconds")
    ap.add_argument("--json", help="write the rows to this file")
    ap.add_argument("--write-cnf", metavar="DIR",
                    help="instead: write each run as DIMACS (the peer's encoding, givens as "
                         "unit clauses) to DIR/p<puzzle>t<symmetry>.cnf, for a SAT solver "
                         "run from the command line")
    args = ap.parse_args()
    global FIRST_TRANSFORM, PEER_TRIADS
    FIRST_TRANSFORM = args.first_transform
    PEER_TRIADS = args.peer_encoding == "triads"
    if args.takeovers and args.engine != "auto":
        ap.error("--takeovers needs --engine auto (a named engine is never taken over)")
    path = DATA / args.set
    if not path.exists():
        print(f"shared data not found at {path}; nothing to measure")
        return 0
    sudoku = get_puzzle_type("sudoku")
    puzzles = sudoku.parse(path.read_text(), path.name)
    if args.puzzles:
        picked = args.puzzles.split(",")
        if not all(i.isdigit() and int(i) < len(puzzles) for i in picked):
            ap.error(f"--puzzles: indexes 0-{len(puzzles) - 1}, comma-separated")
        puzzles = [puzzles[int(i)] for i in picked]
    if args.write_cnf:
        return write_cnf(sudoku, puzzles, args.transforms, Path(args.write_cnf))
    if args.conflicts > 0:
        return _capped_table(sudoku, puzzles, args)
    engine = None if args.engine == "auto" else args.engine
    solve_one(sudoku, puzzles[0], SolveOptions(timeout=1, engine=engine))  # compile
    rows = []
    for spec in (b for b in args.backends.split(",") if b):
        name, _, workers = spec.partition(":")
        rows.append(run(sudoku, puzzles, name, int(workers or 1), engine, args.timeout,
                        args.transforms))
    for spec in (b for b in args.takeovers.split(",") if b):
        rows.append(run(sudoku, puzzles, "serial", 1, engine, args.timeout, args.transforms,
                        spec))
    if args.peer:
        rows.append(run_peer(sudoku, puzzles, args.peer, args.timeout, args.transforms))
    from rich.console import Console
    from rich.table import Table

    peer = rows[-1] if args.peer else None
    for r in rows:
        r["solved_per_puzzle"] = solved_per_puzzle(r["times_s"], args.transforms)
        if peer is not None and r is not peer:
            r.update(against_peer(r, peer, args.timeout))
    table = Table(title=f"{args.set}: {args.transforms} runs per puzzle, {args.timeout:g} s each, "
                        f"engine {args.engine}")
    columns = ["backend", "workers", "runs", "solved", "median s", "puzzles solved",
               "runs solved per puzzle"]
    if peer is not None:
        columns += ["median / peer's", "runs over 3x peer's"]
    for col in columns:
        table.add_column(col, justify="left" if col == "backend" else "right")
    for r in rows:
        cells = [r["backend"], str(r["workers"]), str(r["runs"]), str(r["solved"]),
                 f"{r['median_s']:.2f}", f"{r['puzzles_solved']} of {r['puzzles']}",
                 " ".join(map(str, r["solved_per_puzzle"]))]
        if peer is not None:
            cells += (["-", "-"] if r is peer else
                      [f"{r['median_vs_peer']:.2f}", str(r["runs_over_3x_peer"])])
        table.add_row(*cells)
    Console().print(table)
    if peer is not None:
        for r in rows[:-1]:
            r["paired_with_peer"] = paired(r["times_s"], peer["times_s"], args.transforms)
            Console().print(_paired_table(f"{r['backend']}:{r['workers']}", peer["backend"],
                                          r["paired_with_peer"], puzzles))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


def _paired_table(label: str, peer: str, counts: list[dict], puzzles):
    from rich.table import Table

    table = Table(title=f"{label} and {peer}, run by run (p: McNemar's exact test)")
    for col in ("puzzle", "both", "csolve only", "peer only", "neither", "p"):
        table.add_column(col, justify="left" if col == "puzzle" else "right")
    names = [str(p.index) for p in puzzles] + ["all"]
    for name, c in zip(names, counts, strict=True):
        table.add_row(name, str(c["both"]), str(c["only_row"]), str(c["only_peer"]),
                      str(c["neither"]), f"{c['p']:.2f}")
    return table


def _capped_table(sudoku, puzzles, args) -> int:
    from rich.console import Console
    from rich.table import Table

    rows = [run_capped(sudoku, puzzles, args.conflicts, args.transforms, args.cpu)]
    if args.peer:
        rows.append(run_peer_capped(sudoku, puzzles, args.peer, args.conflicts,
                                    args.transforms, args.cpu))
    table = Table(title=f"{args.set}: {args.transforms} runs per puzzle, one search each, "
                        f"at most {args.conflicts:,} conflicts"
                        + (f" and {args.cpu:g} CPU s" if args.cpu else "") + " each")
    for col in ("solver", "runs", "solved", "median conflicts", "median decisions",
                "conflicts/CPU s", "median CPU s", "total CPU s", "puzzles solved",
                "runs solved per puzzle"):
        table.add_column(col, justify="left" if col == "solver" else "right")
    names = ["csolve learning"] + [row["backend"] for row in rows[1:]]
    for name, row in zip(names, rows, strict=True):
        decisions = row["median_decisions"]
        row["solved_per_puzzle"] = solved_per_puzzle(row["conflicts"], args.transforms)
        table.add_row(name, str(row["runs"]), str(row["solved"]), f"{row['median_conflicts']:,.0f}",
                      "-" if decisions is None else f"{decisions:,.0f}",
                      f"{row['conflicts_per_cpu_s']:,}", f"{row['median_cpu_s']:.2f}",
                      f"{row['total_cpu_s']:.1f}", f"{row['puzzles_solved']} of {row['puzzles']}",
                      " ".join(map(str, row["solved_per_puzzle"])))
    Console().print(table)
    if args.peer:
        rows[0]["paired_with_peer"] = paired(rows[0]["conflicts"], rows[1]["conflicts"],
                                             args.transforms)
        Console().print(_paired_table(names[0], names[1], rows[0]["paired_with_peer"], puzzles))

    for name, row in zip(names, rows, strict=True):
        if args.peer:
            print(name)
        for p, cs, ts in zip(puzzles, by_puzzle(row["conflicts"], args.transforms),
                             by_puzzle(row["cpu_s"], args.transforms),
                             strict=True):
            print(f"puzzle {p.index}: " + " ".join("-" if c is None else f"{c}" for c in cs)
                  + ("   CPU s: " + " ".join("-" if c is None else f"{t:.1f}"
                                              for c, t in zip(cs, ts, strict=True))
                     if args.cpu else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
