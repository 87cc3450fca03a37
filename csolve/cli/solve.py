"""``csolve solve``: solve, count or enumerate the puzzles of a file."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    import numpy as np

from csolve.cli.app import app, examples
from csolve.cli.common import (
    BoxOpt,
    FileArg,
    FormatOpt,
    Output,
    PuzzleArg,
    default_output,
)
from csolve.defaults import (
    ESCALATE_AFTER,
    ESCALATE_AFTER_LARGE,
    LARGE_GRID_CELLS,
    MAX_COUNT,
    MAX_WORKERS,
)

_WORKERS = "Workers for parallel backends (0: one per core)."
_COUNT = "Count solutions (exact unless --limit)."
_OUTPUT = ("pretty (terminal default), line (pipe default), json (one object per line), "
           "grid (plain text that csolve reads back), svg (one picture of every puzzle).")
_WAIT = "message-passing: how an idle worker waits."
_BACKEND = ("Search backend: serial (the default), locked-pool, coarse-lock, message-passing, "
            "work-stealing, static-partition, path-stack, interleave, process-pool, "
            "conflict-lock, ray (the ray extra), or one a plugin adds (see list-backends).")
Wait = StrEnum("Wait", [("spin", "spin"), ("yield", "yield"), ("condvar", "condvar")])
_RULES = "Propagation rules, comma-separated, in the order they are tried (see list-rules)."
_ESCALATE = ("Nodes the puzzle's own search spends before a hard puzzle moves to the "
             f"learning engine (0: never; default: {ESCALATE_AFTER:,}, or "
             f"{ESCALATE_AFTER_LARGE:,} on grids of {LARGE_GRID_CELLS} cells or more).")
_ENGINE = ("Search engine (see list-engines): dfs is the generic search over the rules; "
           "default: the puzzle's own choice.")

def _parse_rules(rules: str | None) -> tuple[str, ...] | None:
    return tuple(r.strip() for r in rules.split(",") if r.strip()) if rules else None


@app.command(epilog=examples(
    "csolve solve sudoku puzzles/sudoku/9x9-hard.txt",
    "csolve solve sudoku 4.....8.5.3..........7......2.....6.....8.4......"
    "1.......6.3.7.5..2.....1.4......",
    "csolve solve sudoku puzzles/sudoku/16x16.txt --backend work-stealing --workers 2 --stats",
    "csolve solve sudoku puzzles/sudoku/4x4.txt --count --output json",
    "csolve generate sudoku --count 3 | csolve solve sudoku - --output line",
    exit_codes=True))
def solve(
    puzzle: PuzzleArg,
    file: FileArg,
    backend: Annotated[str, typer.Option(help=_BACKEND)] = "serial",
    workers: Annotated[int, typer.Option(min=0, max=MAX_WORKERS, help=_WORKERS)] = 0,
    count: Annotated[bool, typer.Option("--count", help=_COUNT)] = False,
    limit: Annotated[int, typer.Option(min=0,
                                       help="Stop counting at N (implies --count); with "
                                       "--all: print the first N.")] = 0,
    all_: Annotated[bool, typer.Option("--all", help="Print every solution.")] = False,
    timeout: Annotated[float, typer.Option(min=0, help="Seconds per puzzle; 0 = none.")] = 0,
    output: Annotated[Output | None, typer.Option(help=_OUTPUT)] = None,
    stats: Annotated[bool, typer.Option("--stats", help="Print search statistics.")] = False,
    fmt: FormatOpt = None,
    box: BoxOpt = None,
    rules: Annotated[str | None, typer.Option(help=_RULES)] = None,
    tactics: Annotated[str | None, typer.Option(
        help="Tactics to propagate with (see list-tactics); elimination is always on.")] = None,
    explain: Annotated[bool, typer.Option("--explain",
                                          help="Print the solve step by step.")] = False,
    engine: Annotated[str | None, typer.Option(help=_ENGINE)] = None,
    escalate_after: Annotated[int | None, typer.Option(min=0, help=_ESCALATE,
                                                       show_default=False)] = None,
    wait: Annotated[Wait | None, typer.Option(help=_WAIT)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-O", help="Backend option KEY=VALUE (e.g. k=30, probe=0).")] = None,
) -> None:
    """Solve every puzzle in FILE and print the solutions."""
    from csolve.api import Solver
    from csolve.cli.report import Reporter
    from csolve.errors import ExitCode, KeywordError, OptionError

    for name, value in (("--limit", limit), ("--escalate-after", escalate_after)):
        if value is not None and value > MAX_COUNT:  # (a bound too long to show in --help)
            raise OptionError(f"{name} must be at most {MAX_COUNT:,} (2**62), got {value:,}")

    if count and all_:
        raise OptionError("--count and --all do not go together")
    if explain and (count or all_ or limit):
        raise OptionError("--explain shows one solve's steps; --count, --all and --limit "
                          "do not go with it")
    if explain and output in (Output.grid, Output.svg):
        raise OptionError(f"--explain writes steps as pretty, line or json output, not "
                          f"{output.value} (pictures of the steps: csolve explain --output "
                          "svg or html)")
    if limit and not count and not all_:  # --all --limit N: the first N, no count line
        count = True
    if engine not in (None, "dfs") and explain:
        raise OptionError(f"--engine {engine} searches with its own deductions; "
                          "--explain goes with the generic search (dfs)")
    if explain:
        from csolve.cli.tactics import explain_puzzles

        if escalate_after:
            warn("--escalate-after changes nothing: --explain follows the steps of the "
                 "generic search")

        code = explain_puzzles(puzzle, file, tactics, output, fmt, timeout=timeout or None,
                               box=box)
        if code:
            raise typer.Exit(code)
        return
    backend_options = parse_backend_options(option or [], wait.value if wait else None)
    try:
        solver = Solver(puzzle, backend=backend, workers=workers, count=count or all_,
                        limit=limit or None, timeout=timeout or None, engine=engine,
                        rules=rules, tactics=tactics, escalate_after=escalate_after,
                        format=fmt, box=box, **backend_options)
    except KeywordError as e:  # -O timout=5: an option of this command, mistyped
        raise OptionError(f"-O {e.key}: backend {backend} has no such option; did you mean "
                          f"--{e.near.replace('_', '-')}?") from None
    if workers == 1 and solver.backend.workers_in:
        warn(f"with --workers 1 backend {solver.backend.name} searches alone in this process, "
             f"as serial does: no {solver.backend.workers_in} are started")
    if workers > 1 and not solver.backend.parallel:
        warn(f"backend {solver.backend.name} searches on one worker; --workers {workers} "
             "changes nothing (a parallel one shares the work: --backend locked-pool; see "
             "list-backends)")
    ptype, puzzles = solver.puzzle_type, solver.read(file)
    from csolve.solver import escalation_unused

    unused = escalation_unused(ptype, puzzles, solver.options, streaming=all_)
    if unused:
        warn(f"--escalate-after changes nothing: {unused}")
    reporter = Reporter(ptype, output or default_output(), counting=count, show_stats=stats,
                        total=len(puzzles))
    from csolve.kernels import diskcache

    diskcache.notify = reporter.notice
    diskcache.compile_note = "; --timeout starts once they are compiled"
    from csolve.backends.base import seconds_starting_workers
    from csolve.search import new_ctrl

    ctrl = new_ctrl()
    t0, compiled_before = time.perf_counter(), diskcache.compile_seconds
    started_before = seconds_starting_workers()
    with reporter.progress() as advance, stop_on_interrupt(ctrl) as interrupted:
        blocks = solver.iter_blocks(puzzles, progress=advance, ctrl=ctrl,
                                    on_solution=reporter.solution_printer() if all_ else None)
        for block in blocks:
            reporter.block(block)
    solved_in = time.perf_counter() - t0  # (drawing the SVG picture after it is not solving)
    reporter.finish()
    compiling = diskcache.compile_seconds - compiled_before
    starting = seconds_starting_workers() - started_before  # processes, a cluster
    reporter.summary(solved_in - compiling - starting, compiling, starting)
    code = reporter.exit_code()
    if interrupted():  # said on stderr as every interrupted command is (csolve.cli.main)
        code = ExitCode.INTERRUPTED
    if code != ExitCode.OK:
        raise typer.Exit(int(code))


@contextmanager
def stop_on_interrupt(ctrl: np.ndarray) -> Iterator[Callable[[], bool]]:
    """The first Ctrl-C sets the search's stop flag instead of raising: every worker stops,
    the answers found are written and the puzzles not done are reported ``interrupted``.
    A second Ctrl-C (not the same one sent twice: :data:`csolve.cli.SAME_INTERRUPT_S`)
    interrupts at once. The first SIGTERM stops the search the same way (a process manager
    that ends a long count gets what it had reached), a second one at once. Yields a test
    of whether either happened."""
    import signal
    import threading

    from csolve import cli
    from csolve.kernels.abi import CTRL_STOP

    hit: list[float] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    previous = signal.getsignal(signal.SIGINT)
    # an embedder's own handling stays, and so does an ignored Ctrl-C (a background job's)
    int_is_ours = previous is signal.default_int_handler
    previous_term = signal.getsignal(signal.SIGTERM)
    term_is_ours = cli.is_command_sigterm_handler(previous_term)

    def stop(signum, frame) -> None:
        now = time.monotonic()
        if hit and now - hit[0] >= cli.SAME_INTERRUPT_S:
            signal.signal(signal.SIGINT, previous)
            previous(signum, frame)  # raises KeyboardInterrupt
        if not hit:
            hit.append(now)
        ctrl[CTRL_STOP] = 1

    def stop_on_term(signum, frame) -> None:
        if cli.same_sigterm_again():
            return  # the first one, sent twice: the search is stopping
        if cli.terminated_seen():
            signal.signal(signal.SIGTERM, previous_term)
            previous_term(signum, frame)  # raises Terminated
        cli.note_terminated()
        if not hit:
            hit.append(time.monotonic())
        ctrl[CTRL_STOP] = 1

    try:
        if int_is_ours:
            signal.signal(signal.SIGINT, stop)
        if term_is_ours:
            signal.signal(signal.SIGTERM, stop_on_term)
        yield lambda: bool(hit)
    finally:
        if int_is_ours:
            signal.signal(signal.SIGINT, previous)
        if term_is_ours:
            signal.signal(signal.SIGTERM, previous_term)


def warn(message: str) -> None:
    """A one-line note on stderr about an option that changes nothing."""
    sys.stderr.write(f"csolve: note: {message}\n")


def parse_backend_options(items: list[str], wait: str | None = None) -> dict[str, str]:
    """``KEY=VALUE`` strings as a dict (the backend converts and checks the values);
    ``--wait`` joins them."""
    from csolve.errors import OptionError

    out: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"--option wants KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    if wait is not None:
        out["wait"] = wait
    return out


