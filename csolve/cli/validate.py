"""``csolve validate``: check grids (complete or partial) against the rules and the givens."""

from __future__ import annotations

from typing import Annotated

import typer

from csolve.cli.app import app, examples
from csolve.cli.common import BoxOpt, FileArg, FormatOpt, PuzzleArg


@app.command(epilog=examples(
    "csolve validate sudoku solved.txt",
    "csolve solve sudoku puzzles.txt > solved.txt && "
    "csolve validate sudoku solved.txt --against puzzles.txt", exit_codes=True))
def validate(
    puzzle: PuzzleArg,
    file: FileArg,
    against: Annotated[str | None, typer.Option(
        help="Puzzles whose givens each grid must keep (same order as FILE).")] = None,
    fmt: FormatOpt = None,
    box: BoxOpt = None,
) -> None:
    """Check each grid against the rules; exit 0 when all are valid, 1 otherwise.

    A complete grid is checked for every rule and the givens of --against.

    A partial grid is checked for conflicting givens."""
    from rich.console import Console
    from rich.markup import escape

    from csolve.cli.common import load_puzzles
    from csolve.errors import CsolveError, ExitCode, OptionError, PuzzleInputError, counted
    from csolve.solver import listed

    if file == "-" and against == "-":
        raise OptionError("FILE and --against cannot both be standard input ('-'): it is "
                          "read once; pass a file for one of them")
    ptype, grids = load_puzzles(puzzle, file, fmt, box)
    givens = None
    if against is not None:
        _, givens = load_puzzles(puzzle, against, None, box)
        if len(givens) != len(grids):
            raise PuzzleInputError(against, None, None,
                                   f"holds {counted(len(givens), 'puzzle')} but {file} holds "
                                   f"{len(grids)}")
        for g, p in zip(grids, givens, strict=True):  # files that do not pair up: usage
            shapes = [getattr(x.data, "shape", None) for x in (g, p)]
            if None not in shapes and shapes[0] != shapes[1]:
                raise PuzzleInputError(g.source, g.line, None,
                                       f"{counted(g.data.size, 'cell')}, against "
                                       f"{counted(p.data.size, 'cell')} in {p.where}: is it "
                                       "the right --against file?")
    # file names and problems are text, not markup or emoji codes (":100:" is one)
    out = Console(highlight=False, soft_wrap=True, emoji=False)
    bad = 0
    for i, g in enumerate(grids):
        where = g.where
        if ptype.is_complete(g):
            reference = givens[i] if givens is not None else g
            problems = listed(ptype, "validate", ptype.validate(reference,
                                                                ptype.as_solution(g)))
            kind = "complete"
            if problems:
                where = _line_of(ptype, g, problems[0], where)
        else:
            try:
                ptype.check(g)
                problems = []
            except PuzzleInputError as e:  # said where the check found it, as solve says it
                problems = [e.message]
                where = e.where if e.line is not None else where
            except CsolveError as e:
                problems = [str(e).split(": ", 1)[-1]]
            kind = "partial"
            if givens is not None:
                problems.insert(0, "not complete")
        if problems:
            bad += 1
            out.print(f"{escape(where)}: [red]invalid[/] ({kind}): {escape(problems[0])}")
        else:
            out.print(f"{escape(g.where)}: [green]valid[/] ({kind})")
    if bad:
        raise typer.Exit(int(ExitCode.NO_SOLUTION))


def _line_of(ptype, grid, problem: str, where: str) -> str:
    """Where ``problem`` of a complete grid is: the line the partial-grid check names for the
    same words (a value twice in a row, at that row's line), else ``where`` (the grid's)."""
    from csolve.errors import CsolveError, PuzzleInputError

    try:
        ptype.check(grid)
    except PuzzleInputError as e:
        if e.line is not None and e.message.endswith(problem):
            return e.where
    except CsolveError:
        pass
    return where
