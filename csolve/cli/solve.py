"""``csolve solve``: solve, count or enumerate the puzzles of a file."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from csolve.cli.app import EXIT_CODES_HELP, app
from csolve.cli.common import FileArg, FormatOpt, Output, PuzzleArg, default_output, load_puzzles
from csolve.defaults import ESCALATE_AFTER

_WORKERS = "Workers for parallel backends (0: one per core)."
_COUNT = "Count solutions (exact unless --limit)."
_OUTPUT = "pretty (terminal default), line (pipe default), json (one object per line)."
_WAIT = "message-passing: how an idle worker waits - spin, yield or condvar."
_RULES = "Propagation rules, comma-separated, in the order they are tried (see list-rules)."
_ENGINE = ("Search engine (see list-engines): dfs is the generic search over the rules; "
           "default: the puzzle's own choice.")
_BOX = ("Box shape RxC (rows x columns, e.g. 2x3) for puzzle types with boxes, where a size "
        "allows several; default: the most square one.")
_ESCALATE = ("Nodes the puzzle's own search spends before a hard puzzle moves to the "
             "learning engine (0: never).")


def _parse_rules(rules: str | None) -> tuple[str, ...] | None:
    return tuple(r.strip() for r in rules.split(",") if r.strip()) if rules else None


@app.command(epilog=EXIT_CODES_HELP)
def solve(
    puzzle: PuzzleArg,
    file: FileArg,
    backend: Annotated[str, typer.Option(help="Search backend (see list-backends).")] = "serial",
    workers: Annotated[int, typer.Option(min=0, help=_WORKERS)] = 0,
    count: Annotated[bool, typer.Option("--count", help=_COUNT)] = False,
    limit: Annotated[int, typer.Option(min=0, help="With --count: stop counting at N.")] = 0,
    all_: Annotated[bool, typer.Option("--all", help="Print every solution.")] = False,
    timeout: Annotated[float, typer.Option(min=0, help="Seconds per puzzle; 0 = none.")] = 0,
    output: Annotated[Output | None, typer.Option(help=_OUTPUT)] = None,
    stats: Annotated[bool, typer.Option("--stats", help="Print search statistics.")] = False,
    fmt: FormatOpt = None,
    box: Annotated[str | None, typer.Option("--box", help=_BOX)] = None,
    rules: Annotated[str | None, typer.Option(help=_RULES)] = None,
    tactics: Annotated[str | None, typer.Option(
        help="Tactics to propagate with (see list-tactics); elimination is always on.")] = None,
    explain: Annotated[bool, typer.Option("--explain",
                                          help="Print the solve step by step.")] = False,
    engine: Annotated[str | None, typer.Option(help=_ENGINE)] = None,
    escalate_after: Annotated[int, typer.Option(min=0, help=_ESCALATE)] = ESCALATE_AFTER,
    wait: Annotated[str | None, typer.Option(help=_WAIT)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-O", help="Backend option KEY=VALUE (e.g. k=30, probe=0).")] = None,
) -> None:
    """Solve every puzzle in FILE and print the solutions."""
    from csolve.cli.report import Reporter
    from csolve.errors import ExitCode, UnknownNameError
    from csolve.solver import SolveOptions, solve_batch, solve_puzzle

    if count and all_:
        raise UnknownNameError("--count and --all do not go together")
    if limit and not count:
        count = True
    if engine not in (None, "dfs") and (rules or tactics or explain):
        raise UnknownNameError(f"--engine {engine} searches with its own deductions; --rules, "
                               "--tactics and --explain go with the generic search (dfs)")
    if explain:
        from csolve.cli.tactics import explain_puzzles

        code = explain_puzzles(puzzle, file, tactics, output, fmt)
        if code:
            raise typer.Exit(code)
        return
    ptype, puzzles = load_puzzles(puzzle, file, fmt)
    if box:
        puzzles = ptype.with_box(puzzles, box)
    if tactics:
        if rules:
            raise UnknownNameError("--rules and --tactics do not go together")
        from csolve.cli.tactics import parse_tactics, tactics_as_rules

        rules = ",".join(tactics_as_rules(ptype, parse_tactics(tactics)))
    from csolve.backends import get_backend

    be = get_backend(backend)
    n_workers = workers or (_cores() if be.parallel else 1)
    mode_limit = 0 if (all_ or (count and not limit)) else (limit if count else 1)
    rule_names = _parse_rules(rules)
    out = output or default_output()
    reporter = Reporter(ptype, out, counting=count, show_stats=stats, total=len(puzzles))
    backend_options = parse_backend_options(option or [], wait)
    opts = SolveOptions(limit=mode_limit, backend=backend, workers=n_workers,
                        timeout=timeout or None, rules=rule_names, engine=engine,
                        backend_options=backend_options, escalate_after=escalate_after)
    if engine is not None:  # a bad name, or an engine for other puzzles, fails before solving
        from csolve.engines import with_engine

        for _start, _stop, model, _inits in ptype.model_runs(puzzles, rule_names):
            with_engine(model, engine)
    t0 = time.perf_counter()
    with reporter.progress() as advance:
        if len(puzzles) > 1 and not all_:
            # many puzzles: parallel across puzzles (threads over the batch kernel)
            results = solve_batch(ptype, puzzles, limit=mode_limit, timeout=timeout or None,
                                  rules=rule_names, progress=advance,
                                  workers=n_workers if be.parallel else 1, engine=engine,
                                  escalate_after=escalate_after)
            for r in results:
                reporter.result(r)
        else:
            for i, p in enumerate(puzzles):
                on_solution = reporter.solution_printer(p) if all_ else None
                r = solve_puzzle(ptype, p, opts, on_solution=on_solution)
                reporter.result(r)
                advance(i + 1)
    reporter.summary(time.perf_counter() - t0)
    code = reporter.exit_code()
    if code != ExitCode.OK:
        raise typer.Exit(int(code))


def parse_backend_options(items: list[str], wait: str | None = None) -> dict:
    """``KEY=VALUE`` strings as a dict (numbers converted); ``--wait`` joins them."""
    from csolve.errors import UnknownNameError

    out: dict = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UnknownNameError(f"--option wants KEY=VALUE, got {item!r}")
        v: object = value.strip()
        for conv in (int, float):
            try:
                v = conv(value)
                break
            except ValueError:
                pass
        out[key.strip()] = v
    if wait is not None:
        if wait not in ("spin", "yield", "condvar"):
            raise UnknownNameError(f"unknown --wait {wait!r} (known: spin, yield, condvar)")
        out["wait"] = wait
    return out


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

