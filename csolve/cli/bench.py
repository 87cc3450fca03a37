"""``csolve bench``: every backend x worker count on the same puzzles, answers checked."""

from __future__ import annotations

from typing import Annotated

import typer

from csolve.cli.app import app, examples

_BACKENDS = ("Comma-separated backends, or 'all'. Built in: serial, locked-pool, coarse-lock, "
             "message-passing, work-stealing, static-partition, path-stack, interleave, "
             "process-pool, conflict-lock, and ray with the ray extra (plugins may add more: "
             "see list-backends). 'all' is every one installed: with Ray installed it starts "
             "a local Ray cluster.")

#: seconds under which a run's time is mostly fixed costs (threads started, kernels called)
SHORT_RUN_S = 0.05


@app.command(epilog=examples(
    "csolve bench sudoku puzzles/sudoku/16x16.txt --backends serial,work-stealing "
    "--workers 1,2,4",
    "csolve bench sudoku puzzles/sudoku/9x9-hard.txt --repeat 3 --json bench.json"))
def bench(
    puzzle: Annotated[str, typer.Argument(help="Puzzle type, e.g. sudoku.")],
    files: Annotated[list[str], typer.Argument(help="Puzzle files.")],
    backends: Annotated[str, typer.Option(help=_BACKENDS)] = "all",
    workers: Annotated[str, typer.Option(help="Worker counts, e.g. 1,2,4.")] = "1,2",
    repeat: Annotated[int, typer.Option(min=1, help="Runs per cell; the median is shown.")] = 5,
    count: Annotated[bool, typer.Option("--count", help="Count all solutions.")] = False,
    timeout: Annotated[float, typer.Option(min=0, help="Seconds per puzzle; 0 = none.")] = 0,
    limit_puzzles: Annotated[int, typer.Option("--puzzles", min=0,
                                               help="Use the first N puzzles of each file.")] = 0,
    json_out: Annotated[str | None, typer.Option("--json", help="Write raw numbers here.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-O", help="Backend option KEY=VALUE.")] = None,
) -> None:
    """Median wall time, speedup vs serial, efficiency, nodes and idle share per backend."""
    import json

    from rich.console import Console

    from csolve.backends import all_backends, get_backend
    from csolve.bench import bench_table, run_bench
    from csolve.cli.common import load_puzzles
    from csolve.cli.solve import parse_backend_options
    from csolve.defaults import MAX_WORKERS, cores
    from csolve.errors import OptionError, counted
    from csolve.inputs import is_number

    names = (sorted(all_backends()) if backends == "all"
             else [b.strip() for b in backends.split(",")])
    chosen = [get_backend(b) for b in names]  # an unknown or uninstalled one said as solve says
    words = [x.strip() for x in workers.split(",")]
    counts = ([int(x) for x in words] if all(is_number(x) and len(x) <= 6 for x in words)
              else [])
    if not counts or any(not 0 <= w <= MAX_WORKERS for w in counts):
        raise OptionError(f"--workers wants counts from 0 (one per core) to {MAX_WORKERS} "
                          f"like 1,2,4, got {workers!r}")
    counts = list(dict.fromkeys(w or cores() for w in counts))
    opts = parse_backend_options(option or [])
    readers = {key for backend in chosen for key in backend.options}
    unread = sorted(set(opts) - readers)
    if unread:  # an option none of the named backends reads is a slip, said before the run
        raise OptionError(f"-O {unread[0]}: none of the backends {', '.join(names)} reads it "
                          f"(their options: {', '.join(sorted(readers)) or 'none'})")
    for backend in chosen:  # and each value checked by the backends that read it, before the run
        backend.check_options(backend.read_options(opts))
        for n in counts:  # (not ``count``: that is --count, read below)
            backend.check_workers(n)
    report_file = None
    if json_out is not None and not json_out.strip():
        raise OptionError("--json needs a file name")
    if json_out:  # a path that cannot be written is said before the run, not after it
        try:
            report_file = open(json_out, "w", encoding="utf-8")  # noqa: SIM115 (written last)
        except OSError as e:
            raise OptionError(f"--json {json_out}: cannot write it ({e.strerror})") from None
    console = Console(stderr=True)
    report: dict = {"puzzle": puzzle, "files": {}}
    bad = timed_out = False
    for f in files:
        ptype, puzzles = load_puzzles(puzzle, f, None)
        if limit_puzzles:
            puzzles = puzzles[:limit_puzzles]

        def told(row: dict) -> None:
            console.print(f"  {row['backend']} x{row['workers']}: {row['wall_s']:.3f} s",
                          highlight=False)

        rows = run_bench(ptype, puzzles, names, counts, repeat=repeat, count=count,
                         timeout=timeout or None, options=opts, progress=told)
        title = f"{f} ({counted(len(puzzles), 'puzzle')}, {'count' if count else 'first solution'})"
        Console(width=max(Console().width, 120)).print(bench_table(rows, title))
        quickest = min((r["wall_s"] for r in rows), default=0.0)
        if quickest < SHORT_RUN_S:  # start-up and hand-overs decide such ratios, not the search
            longer = "a longer file" if count else "a longer file, or --count"
            console.print(f"note: a run takes as little as {quickest * 1e3:.1f} ms, so the "
                          f"ratios measure fixed costs, not the search: bench {longer}",
                          highlight=False)
        report["files"][f] = rows
        bad = bad or not all(r["ok"] for r in rows)
        if any(r["timeouts"] for r in rows):
            timed_out = True
            console.print("note: runs cut short by --timeout measure the limit, not the "
                          "search: no speedup is given for them or against them",
                          highlight=False)
    if report_file is not None:
        with report_file:
            json.dump(report, report_file, indent=1)
    if bad:
        raise typer.Exit(4)
    if timed_out:
        raise typer.Exit(3)
