"""``csolve generate``: new puzzles with exactly one solution, reproducible from a seed."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from csolve import defaults
from csolve.cli.app import app, examples
from csolve.cli.common import BoxOpt, Output, write_whole
from csolve.defaults import MAX_PUZZLES, MAX_WORKERS
from csolve.errors import counted


class Symmetry(StrEnum):
    none = "none"
    rot180 = "rot180"
    rot90 = "rot90"
    mirror = "mirror"
    diagonal = "diagonal"


class Difficulty(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"
    expert = "expert"
    evil = "evil"


_SEED = "Random seed; the same seed, options and version give the same puzzles (default: "\
        "a fresh one, printed on stderr)."
_CLUES = "Stop removing clues at N (or fewer with symmetric groups) instead of a minimal puzzle."
_WORKERS = "Puzzles generated in parallel (0: one per core); output does not depend on it."
_OUTPUT = ("line (default: one puzzle per line), pretty (grids), json (one object per line), "
           "grid (plain text that csolve reads back), svg (one picture of every puzzle).")
_TIMEOUT = ("Seconds a puzzle may take; 0 = none. The first puzzle not made in time ends the "
            "run (exit 3), after the puzzles made before it.")
_BACKEND = ("Where puzzles are made: ray spreads them over a Ray cluster (see list-backends); "
            "default: threads of this process. Output does not depend on it.")


@app.command(epilog=examples(
    "csolve generate sudoku --count 10 --seed 7",
    "csolve generate sudoku --size 16 --symmetry rot180 --output pretty",
    "csolve generate sudoku --difficulty hard --count 5 --workers 0 > hard.txt",
    "csolve generate sudoku --size 25 --clues 320 --timeout 60 --output grid",
    exit_codes=True))
def generate(
    puzzle: Annotated[str, typer.Argument(help="Puzzle type, e.g. sudoku (see list-types).")],
    size: Annotated[int, typer.Option(min=1, help="Grid size n (Sudoku: 4, 6, 8, 9, ... 64).")]
    = 9,
    count: Annotated[int, typer.Option(min=1, max=MAX_PUZZLES, help="Number of puzzles.")] = 1,
    seed: Annotated[int | None, typer.Option(min=0, help=_SEED)] = None,
    symmetry: Annotated[Symmetry, typer.Option(help="Remove clues in symmetric groups.")]
    = Symmetry.none,
    minimal: Annotated[bool, typer.Option("--minimal", help="Remove clues until none can go "
                                          "(the default).")] = False,
    clues: Annotated[int | None, typer.Option(min=1, help=_CLUES)] = None,
    difficulty: Annotated[Difficulty | None, typer.Option(
        help="Generate until the grader gives this level.")] = None,
    tries: Annotated[int | None, typer.Option(
        min=1, help=f"With --difficulty: tries per puzzle (default: as many as fit in "
                    f"{defaults.DIFFICULTY_SECONDS:g} s of CPU time a puzzle).")] = None,
    output: Annotated[Output, typer.Option(help=_OUTPUT)] = Output.line,
    workers: Annotated[int, typer.Option(min=0, max=MAX_WORKERS, help=_WORKERS)] = 1,
    rules: Annotated[str | None, typer.Option(help="Propagation rules for the uniqueness "
                                              "tests, comma-separated.")] = None,
    backend: Annotated[str | None, typer.Option(help=_BACKEND)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-O", help="Backend option KEY=VALUE (e.g. address=auto).")] = None,
    box: BoxOpt = None,
    timeout: Annotated[float, typer.Option(min=0, help=_TIMEOUT)] = 0,
) -> None:
    """Generate puzzles with exactly one solution (minimal by default: no clue can be removed)."""
    import json
    import secrets
    import time

    from rich.console import Console

    from csolve.cli.solve import _parse_rules
    from csolve.defaults import cores
    from csolve.errors import OptionError
    from csolve.generate import (
        GenerateOptions,
        GenerationError,
        backend_mapper,
        check_tries,
        checked_request,
        generate_puzzles,
        load_grader,
    )
    from csolve.puzzle import PuzzleType, get_puzzle_type

    if minimal and clues is not None:
        raise OptionError("--minimal and --clues do not go together")
    check_tries(tries, difficulty)
    ptype = get_puzzle_type(puzzle)
    if difficulty is not None:
        load_grader()  # fail fast, before any work
    writer = {Output.grid: "format_grid", Output.svg: "to_svg"}.get(output)
    if writer and getattr(type(ptype), writer) is getattr(PuzzleType, writer):
        getattr(ptype, writer)(None, None)  # the type's own one-line refusal, before any work
    pictures: list[str] = []
    err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
    out = Console(highlight=False, soft_wrap=True, emoji=False)
    options = GenerateOptions(size=size, symmetry=symmetry.value, clues=clues,
                              rules=_parse_rules(rules), box=box)
    checked_request(ptype, options)  # every refusal before the seed is told
    n_workers = workers or cores()
    mapper = None
    if backend is not None:  # puzzles made by that backend's workers (e.g. a Ray cluster)
        from csolve.backends import Backend, get_backend
        from csolve.cli.solve import parse_backend_options, warn

        mapper = backend_mapper(backend, parse_backend_options(option or []))
        be = get_backend(backend)
        if workers and workers > 1 and not be.parallel:
            warn(f"backend {backend} makes one puzzle at a time; --workers {workers} "
                 "changes nothing (see list-backends)")
        if be.workers_in and type(be).map_ordered is Backend.map_ordered:
            warn(f"backend {backend} makes puzzles on threads of this process, as the default "
                 f"does: no {be.workers_in} are started")
    elif option:
        raise OptionError("--option goes with --backend (the backend whose option it is)")
    if seed is None:
        seed = secrets.randbits(63)
        err.print(f"csolve: seed {seed}", markup=False)
    stream = generate_puzzles(ptype, options, count, seed, workers=n_workers,
                              difficulty=difficulty.value if difficulty else None, tries=tries,
                              mapper=mapper, timeout=timeout or None)
    t0 = time.perf_counter()
    kept_more: list[int] = []  # clue counts of puzzles minimal above --clues
    made = 0
    try:
        with _progress(err, count) as advance:
            for g in stream:
                p = g.puzzle
                if clues is not None and ptype.clue_count(p) > clues:
                    kept_more.append(ptype.clue_count(p))
                if output is Output.line:
                    out.print(ptype.format_line(p, None), markup=False)
                elif output is Output.json:
                    obj = {"puzzle": g.index + 1, "seed": g.seed, "size": size,
                           **({"box": box} if box else {}),  # (solve reads it back)
                           "clues": ptype.clue_count(p),
                           "text": ptype.format_line(p, None),
                           "givens": ptype.to_json(p, ptype.as_solution(p)),
                           "solution": ptype.to_json(p, g.solution)}
                    if g.grade is not None:
                        obj["difficulty"] = g.grade
                        obj["tries"] = g.tries
                    out.print(json.dumps(obj), markup=False)
                elif output is Output.grid:
                    out.print(f"{ptype.comment} puzzle {g.index + 1} {_about(ptype, g)}\n"
                              f"{ptype.format_grid(p, None)}\n",
                              markup=False)
                elif output is Output.svg:
                    pictures.append(ptype.to_svg(p, None))
                else:
                    out.print(f"[bold]puzzle {g.index + 1}[/] {_about(ptype, g)}")
                    out.print(ptype.render(p, None))
                made += 1
                advance(made)
    except GenerationError:
        if made:  # what was made stays made: printed, and the count said before the reason
            _write_pictures(pictures)
            err.print(f"csolve: {made:,} of {counted(count, 'puzzle')} made", markup=False)
        raise
    _write_pictures(pictures)
    if kept_more:
        err.print(f"csolve: {len(kept_more):,} of {counted(count, 'puzzle')} kept more than "
                  f"{counted(clues, 'clue')} (fewest {min(kept_more)}): no further clue "
                  "could go without a second solution", markup=False)
    if err.is_terminal:
        err.print(f"{counted(count, 'puzzle')} in {time.perf_counter() - t0:.2f} s", markup=False)


def _write_pictures(pictures: list[str]) -> None:
    if pictures:
        from csolve.svg import stack

        write_whole(stack(pictures) + "\n")


def _about(ptype, g) -> str:
    """``(24 clues, seed 7)``: what the grid and pretty outputs say of a generated puzzle."""
    return f"({counted(ptype.clue_count(g.puzzle), 'clue')}, seed {g.seed})"


def _progress(err, total: int):
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if not err.is_terminal:
            yield lambda done: None
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TimeElapsedColumn,
        )

        # one puzzle can take minutes (a large minimal grid): a spinner says it is at work
        columns = (("generating", BarColumn(), MofNCompleteColumn()) if total > 1
                   else (SpinnerColumn(), "generating"))
        with Progress(*columns, TimeElapsedColumn(), console=err, transient=True) as progress:
            task = progress.add_task("generate", total=total)
            yield lambda done: progress.update(task, completed=done)

    return bar()
