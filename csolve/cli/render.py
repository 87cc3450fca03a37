"""``csolve render`` and the pictures of ``csolve explain --output svg|html``.

Pictures are SVG (one document; several puzzles or steps are stacked into it) or a web page
with one inline SVG per puzzle or step. Both go to stdout, ready to redirect into a file.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from csolve.cli.app import app, examples
from csolve.cli.common import BoxOpt, FileArg, FormatOpt, PuzzleArg, write_whole
from csolve.errors import counted


class PictureOutput(StrEnum):
    svg = "svg"
    html = "html"


class ExplainOutput(StrEnum):
    """``explain``'s outputs: the words (as ``solve``'s outputs) or pictures."""

    pretty = "pretty"
    line = "line"
    json = "json"
    svg = "svg"
    html = "html"


EXPLAIN_OUTPUT_HELP = ("pretty (terminal default), line (pipe default), json (one object per "
                       "line), svg (one picture per step, stacked) or html (a web page of them).")

@app.command(epilog=examples(
    "csolve render sudoku puzzles/sudoku/9x9-hard.txt > hard.svg",
    "csolve render sudoku puzzles/sudoku/9x9-hard.txt --solve --output html > hard.html",
    "csolve render kakuro puzzles/kakuro/small.txt --solve > kakuro.svg", exit_codes=True))
def render(
    puzzle: PuzzleArg,
    file: FileArg,
    solve: Annotated[bool, typer.Option("--solve", help="Draw each puzzle solved: givens "
                                        "black, filled values blue.")] = False,
    output: Annotated[PictureOutput, typer.Option(
        help="svg (one SVG document, puzzles one below the other) or html (a web page).")]
    = PictureOutput.svg,
    fmt: FormatOpt = None,
    box: BoxOpt = None,
    timeout: Annotated[float | None, typer.Option(
        "--timeout", min=0.0, help="With --solve: seconds per puzzle (0 = none); one past it "
        "is drawn as given, exit 3.")] = None,
) -> None:
    """Draw the puzzles of FILE (and their solutions with --solve) as SVG or HTML on stdout."""
    from csolve.cli.common import load_puzzles
    from csolve.errors import OptionError

    if timeout is not None and not solve:
        raise OptionError("--timeout goes with --solve (drawing the givens takes no search)")
    ptype, puzzles = load_puzzles(puzzle, file, fmt, box, check=True)
    results = _solved(ptype, puzzles, timeout) if solve else [None] * len(puzzles)
    pairs = [(p, r.solutions[0] if r is not None and r.solutions else None)
             for p, r in zip(puzzles, results, strict=True)]
    notes = ["" if r is None or r.solutions else f"not solved: {r.status.value}"
             for r in results]
    write_whole(pictures(ptype, pairs, output.value, notes))
    sys.stdout.flush()
    for p, note in zip(puzzles, notes, strict=True):  # an SVG cannot say it
        if note:
            sys.stderr.write(f"{p.where}: {note}, drawn as given\n")
    worst = max((r.status for r in results if r is not None and not r.solutions),
                key=lambda status: status.severity, default=None)
    if worst is not None:
        raise typer.Exit(int(worst.exit_code))


def pictures(ptype, pairs, output: str = "svg", notes=None) -> str:
    """One SVG document (``output`` "svg": the pictures one below the other) or one web page
    ("html") showing each ``(puzzle, solution or None)`` of ``pairs``; ``notes`` go under the
    pictures of the page. What ``solve --output svg`` prints, too."""
    from csolve.svg import html_page, stack

    notes = notes or [""] * len(pairs)
    items = [(p.where, ptype.to_svg(p, s), note)
             for (p, s), note in zip(pairs, notes, strict=True)]
    title = (f"{pairs[0][0].source}: {counted(len(pairs), ptype.name + ' puzzle')}" if pairs
             else "csolve")
    return html_page(title, items) if output == "html" else stack(
        [svg for _, svg, _ in items], title=title)


def _solved(ptype, puzzles, timeout: float | None = None):
    from csolve.solver import SolveOptions, solve_puzzles

    return list(solve_puzzles(ptype, puzzles, SolveOptions(limit=1, timeout=timeout or None)))


def _emit(output: PictureOutput | ExplainOutput, title: str,
          items: list[tuple[str, str, str]]) -> None:
    from csolve.svg import html_page, stack

    if output.value == "html":
        write_whole(html_page(title, items))
    else:
        write_whole(stack([svg for _, svg, _ in items], title=title))
    sys.stdout.flush()


def step_pictures(ptype, puzzle, tactics: tuple[str, ...] | None, timeout: float | None = None
                  ) -> tuple[list[tuple[str, str, str]], int]:
    """(heading, SVG, note) for each step of the explanation of ``puzzle``, the candidates
    as they were before the step, then the solved grid; and the number of solutions (0-2).
    Past ``timeout`` seconds for the search and the steps together: SearchTimeoutError."""
    from csolve import grading
    from csolve.logic import LABELS

    started = grading.clock()
    count, solution = grading.find_solution(ptype, puzzle, timeout)
    st = grading.searched_stepper(ptype, puzzle, tactics, count, solution)
    items = []
    while True:
        before, placed = list(st.board.cand), list(st.board.placed)
        step = st.next_step()
        if step is None:
            break
        grading.check_time(puzzle, started, timeout)
        heading = f"{puzzle.where} step {len(items) + 1}: {LABELS.get(step.tactic, step.tactic)}"
        items.append((heading, ptype.to_svg(puzzle, None, step, candidates=before,
                                            placed=placed), ""))
    if count == 0:
        why = st.board.broken() or grading.NO_CONTRADICTION
        items.append((f"{puzzle.where}: no solution", ptype.to_svg(puzzle, None), why))
    else:
        more = " (and other solutions)" if count > 1 else ""
        items.append((f"{puzzle.where}: solved{more}", ptype.to_svg(puzzle, solution), ""))
    return items, count


def explain_pictures(kind: str, file: str, tactics: str | None, output: ExplainOutput,
                     fmt: str | None, box: str | None = None,
                     timeout: float | None = None) -> int:
    """``csolve explain --output svg|html``: the pictures of every step of every puzzle; a
    puzzle past ``timeout`` is drawn as given, with a note, and named on stderr (an SVG
    cannot say it)."""
    from csolve.cli.common import load_puzzles
    from csolve.cli.tactics import parse_tactics
    from csolve.errors import ExitCode, SearchTimeoutError

    ptype, puzzles = load_puzzles(kind, file, fmt, box, check=True)
    chosen = parse_tactics(tactics)
    items: list[tuple[str, str, str]] = []
    code = ExitCode.OK
    late = []
    for p in puzzles:
        try:
            pictures, count = step_pictures(ptype, p, chosen, timeout)
        except SearchTimeoutError as error:
            late.append(f"{error}, drawn as given\n")
            code = max(code, ExitCode.TIMEOUT)
            items.append((f"{p.where}: timeout", ptype.to_svg(p, None), str(error)))
            continue
        items += pictures
        if count == 0:
            code = max(code, ExitCode.NO_SOLUTION)
    _emit(output, f"{puzzles[0].source}: step by step", items)
    sys.stderr.write("".join(late))
    return int(code)
