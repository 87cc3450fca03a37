"""``csolve generate``: new puzzles with exactly one solution, reproducible from a seed."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from csolve.cli.app import app, examples
from csolve.cli.common import Output
from csolve.cli.solve import _BOX


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
_OUTPUT = "line (default: one puzzle per line), pretty (grids), json (one object per line)."


@app.command(epilog=examples(
    "csolve generate sudoku --count 10 --seed 7",
    "csolve generate sudoku --size 16 --symmetry rot180 --output pretty",
    "csolve generate sudoku --difficulty hard --count 5 --workers 0 > hard.txt",
    exit_codes=True))
def generate(
    puzzle: Annotated[str, typer.Argument(help="Puzzle type, e.g. sudoku (see list-plugins).")],
    size: Annotated[int, typer.Option(min=1, help="Grid size n (Sudoku: 4, 6, 8, 9, ... 64).")]
    = 9,
    count: Annotated[int, typer.Option(min=1, help="Number of puzzles.")] = 1,
    seed: Annotated[int | None, typer.Option(min=0, help=_SEED)] = None,
    symmetry: Annotated[Symmetry, typer.Option(help="Remove clues in symmetric groups.")]
    = Symmetry.none,
    minimal: Annotated[bool, typer.Option("--minimal", help="Remove clues until none can go "
                                          "(the default).")] = False,
    clues: Annotated[int | None, typer.Option(min=1, help=_CLUES)] = None,
    difficulty: Annotated[Difficulty | None, typer.Option(
        help="Generate until the grader gives this level.")] = None,
    tries: Annotated[int, typer.Option(min=1, help="With --difficulty: attempts per puzzle.")]
    = 100,
    output: Annotated[Output, typer.Option(help=_OUTPUT)] = Output.line,
    workers: Annotated[int, typer.Option(min=0, help=_WORKERS)] = 1,
    rules: Annotated[str | None, typer.Option(help="Propagation rules for the uniqueness "
                                              "tests, comma-separated.")] = None,
    box: Annotated[str | None, typer.Option("--box", help=_BOX)] = None,
) -> None:
    """Generate puzzles with exactly one solution (minimal by default: no clue can be removed)."""
    import json
    import secrets
    import time

    from rich.console import Console

    from csolve.cli.solve import _cores, _parse_rules
    from csolve.errors import UnknownNameError
    from csolve.generate import GenerateOptions, generate_puzzles, load_grader
    from csolve.puzzle import get_puzzle_type

    if minimal and clues is not None:
        raise UnknownNameError("--minimal and --clues do not go together")
    ptype = get_puzzle_type(puzzle)
    if difficulty is not None:
        load_grader()  # fail fast, before any work
    err = Console(stderr=True, highlight=False)
    out = Console(highlight=False, soft_wrap=True)
    if seed is None:
        seed = secrets.randbits(63)
        err.print(f"csolve: seed {seed}", markup=False)
    options = GenerateOptions(size=size, symmetry=symmetry.value, clues=clues,
                              rules=_parse_rules(rules), box=box)
    n_workers = workers or _cores()
    stream = generate_puzzles(ptype, options, count, seed, workers=n_workers,
                              difficulty=difficulty.value if difficulty else None, tries=tries)
    t0 = time.perf_counter()
    with _progress(err, count) as advance:
        for g in stream:
            p = g.puzzle
            if output is Output.line:
                out.print(ptype.format_line(p, None), markup=False)
            elif output is Output.json:
                obj = {"puzzle": g.index + 1, "seed": g.seed, "size": size,
                       "clues": ptype.clue_count(p),
                       "line": ptype.format_line(p, None),
                       "givens": ptype.to_json(p, ptype.as_solution(p)),
                       "solution": ptype.to_json(p, g.solution)}
                if g.grade is not None:
                    obj["difficulty"] = g.grade
                    obj["tries"] = g.tries
                out.print(json.dumps(obj), markup=False)
            else:
                out.print(f"[bold]puzzle {g.index + 1}[/] ({ptype.clue_count(p)} clues, "
                          f"seed {g.seed})")
                out.print(ptype.render(p, None))
            advance(g.index + 1)
    if err.is_terminal:
        err.print(f"{count} puzzle(s) in {time.perf_counter() - t0:.2f} s", markup=False)


def _progress(err, total: int):
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if total < 2 or not err.is_terminal:
            yield lambda done: None
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        with Progress("generating", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True) as progress:
            task = progress.add_task("generate", total=total)
            yield lambda done: progress.update(task, completed=done)

    return bar()
