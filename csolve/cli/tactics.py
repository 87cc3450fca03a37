"""``list-tactics``, ``explain``, ``hint`` and ``rate``: the logic stepper on the command line."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from csolve.cli.app import app, examples
from csolve.cli.common import (
    BoxOpt,
    FileArg,
    FormatOpt,
    Output,
    PuzzleArg,
    default_output,
    load_puzzles,
)
from csolve.cli.render import EXPLAIN_OUTPUT_HELP, ExplainOutput
from csolve.errors import counted

_TACTICS = "Tactics, comma-separated, easiest first (see list-tactics); default: all."
_OUTPUT = "pretty (terminal default), line (pipe default), json (one object per line)."
TacticsOpt = Annotated[str | None, typer.Option(help=_TACTICS)]


class StepOutput(StrEnum):
    """What hint and rate write: words and tables have no grid or picture form."""

    pretty = "pretty"
    line = "line"
    json = "json"


StepOutputOpt = Annotated[StepOutput | None, typer.Option(help=_OUTPUT)]
# -- time limits (--timeout): a puzzle over it is reported as "timeout", exit code 3 --------
TimeoutOpt = Annotated[float | None, typer.Option(
    "--timeout", min=0.0, help="Seconds per puzzle (search and steps); over it: timeout, exit 3.")]

# -----------------------------------------------------------------------------------------


def parse_tactics(text: str | None) -> tuple[str, ...] | None:
    return tuple(t.strip() for t in text.split(",") if t.strip()) if text else None


def tactics_as_rules(ptype, tactics: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``--tactics`` for the solver: the same names as rules, elimination always first (the
    search needs it to keep its states consistent)."""
    if not tactics:
        return None
    from csolve.grading import tactic_list
    from csolve.rules import kernel_paths

    chosen = tactic_list(ptype, tactics)
    kernel_paths(chosen)  # every tactic is a rule: fail early with the known names
    return tuple(dict.fromkeys(("elimination", *chosen)))


@app.command("list-tactics", epilog=examples("csolve list-tactics sudoku",
                                              "csolve list-tactics str8ts"))
def list_tactics_cmd(
    puzzle: PuzzleArg,
) -> None:
    """Tactics a puzzle type can solve, explain and grade with, easiest first."""
    from rich.console import Console
    from rich.table import Table

    from csolve.grading import known_tactics, level_of
    from csolve.logic import FINDERS, LABELS
    from csolve.puzzle import get_puzzle_type
    from csolve.rules import all_rules

    ptype = get_puzzle_type(puzzle)
    rules = all_rules()
    used = ptype.rules_for(ptype.default_rules)  # with the constraint rules a model adds
    table = Table(title=f"{puzzle} tactics (default rules: {','.join(used)})")
    for col in ("tactic", "also known as", "level", "what it does"):
        table.add_column(col)
    worded = {*FINDERS, *ptype.step_finders()}
    for t in known_tactics(ptype):
        r = rules.get(t)
        what = r.description if r else ""
        if t not in worded:  # explain and rate guess where it deduces
            what += " (no step-by-step form: explain shows its deductions as guesses)"
        table.add_row(t, LABELS.get(t, t), level_of(ptype, t), what.strip())
    Console(soft_wrap=True).print(table)


SEVERAL = "the puzzle has several solutions, so no logic alone can finish it; these steps reach one"


def explain_puzzles(kind: str, file: str, tactics: str | None, output: Output | None,
                    fmt: str | None, limit: int | None = None,
                    timeout: float | None = None, box: str | None = None) -> int:
    """Print the steps for every puzzle of a file (or the first ``limit`` of each)."""
    from rich.console import Console
    from rich.markup import escape

    from csolve.errors import ExitCode, SearchTimeoutError
    from csolve.grading import explain as explain_puzzle
    from csolve.grading import step_level

    ptype, puzzles = load_puzzles(kind, file, fmt, box, check=True)
    chosen = parse_tactics(tactics)
    out = output or default_output()
    con = Console(highlight=False, soft_wrap=True, emoji=False)
    code = ExitCode.OK
    late = 0
    for p in puzzles:
        try:
            e = explain_puzzle(ptype, p, chosen, limit, timeout)
        except SearchTimeoutError as error:
            code = max(code, ExitCode.TIMEOUT)
            late += 1
            con.print(json.dumps({"puzzle": p.index + 1, "line": p.line, "status": "timeout"})
                      if out is Output.json else str(error), markup=False)
            continue
        st, steps, rating, count, solution = e.stepper, e.steps, e.rating, e.solutions, e.solution
        namer = st.board.namer
        if count == 0:
            code = max(code, ExitCode.NO_SOLUTION)
            if limit is not None:  # a hint on a puzzle with no solution: that it has none
                steps = []
        if out is Output.json:
            obj = {"puzzle": p.index + 1, "line": p.line,
                   "steps": [s.to_json(namer, step_level(ptype, s)) for s in steps]}
            if count == 0:
                obj["status"] = "no-solution"
                obj["why"] = e.why_no_solution()
            if limit is None:
                obj["rating"] = rating.to_json()
                if solution is not None:
                    obj["solution"] = ptype.to_json(p, solution)
            con.print(json.dumps(obj), markup=False)
            continue
        whose = ""  # a hint a line: each says its puzzle where the file has several
        if out is Output.line and len(puzzles) > 1:  # whose steps these are
            if limit is None:
                con.print(p.where, markup=False)
            else:
                whose = f"{p.where}: "
        if out is Output.pretty:
            con.print(f"[bold]{escape(p.where)}[/]")
            if st.skipped:
                con.print(f"(no step-by-step form for {', '.join(st.skipped)}: what it "
                          "deduces shows as guesses)", markup=False)
        for i, s in enumerate(steps, 1):
            prefix = f"{i:4d}. " if out is Output.pretty else escape(whose)
            style = "[yellow]" if s.tactic == "guess" else ""
            text = escape(s.text)
            con.print(f"{prefix}{style}{text}{'[/]' if style else ''}")
        if limit is not None:
            if count == 0:
                con.print(f"{whose}no solution: {e.why_no_solution()}", markup=False)
            elif not steps:
                con.print(f"{whose}no step: the puzzle is solved", markup=False)
            continue
        if not steps and count == 1 and out is Output.line:  # a complete grid: say so
            con.print("no step: the puzzle is solved", markup=False)
        if count == 0:
            why = e.why_no_solution()
            con.print(f"no solution: {why}", markup=False)
        elif count > 1:
            con.print(f"{rating.level}: {SEVERAL} ({counted(rating.steps, 'step')}, "
                      f"{counted(rating.guesses, 'guess')})", markup=False)
        if count and out is Output.pretty:
            if count == 1:
                con.print(f"solved in {counted(rating.steps, 'step')} and "
                          f"{counted(rating.guesses, 'guess')}: "
                          f"{rating.level}")
            con.print(ptype.render(p, ptype.decode(p, st.masks()) if st.board.solved()
                                   else solution))
    say_late(late, len(puzzles), timeout, "explained" if limit is None else "given a hint")
    return int(code)


def say_late(late: int, total: int, timeout: float | None, done: str) -> None:
    """On stderr, how many puzzles ran past ``--timeout``: the output may be a file or a
    pipe, where its own "timeout" lines would not reach the person."""
    if late:
        import sys

        sys.stderr.write(f"csolve: {late:,} of {counted(total, 'puzzle')} not {done} "
                         f"within --timeout {timeout:g} s\n")


@app.command(epilog=examples(
    "csolve explain sudoku puzzles/sudoku/9x9-hard.txt",
    "csolve explain sudoku puzzles/sudoku/9x9-hard.txt --tactics naked-pair,x-wing --output json",
    "csolve explain sudoku puzzles/sudoku/9x9-hard.txt --output html > steps.html",
    exit_codes=True))
def explain(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: Annotated[ExplainOutput | None, typer.Option(help=EXPLAIN_OUTPUT_HELP)] = None,
    fmt: FormatOpt = None,
    timeout: TimeoutOpt = None,
    box: BoxOpt = None,
) -> None:
    """Solve step by step in words: tactic, cells, values placed or removed, and why."""
    if output in (ExplainOutput.svg, ExplainOutput.html):
        from csolve.cli.render import explain_pictures

        raise typer.Exit(explain_pictures(puzzle, file, tactics, output, fmt, box, timeout))
    code = explain_puzzles(puzzle, file, tactics, output and Output(output.value), fmt,
                           timeout=timeout, box=box)
    if code:
        raise typer.Exit(code)


@app.command(epilog=examples("csolve hint sudoku puzzles/sudoku/9x9-hard.txt", exit_codes=True))
def hint(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: StepOutputOpt = None,
    fmt: FormatOpt = None,
    timeout: TimeoutOpt = None,
    box: BoxOpt = None,
) -> None:
    """The next step only (for each puzzle in FILE)."""
    code = explain_puzzles(puzzle, file, tactics, output and Output(output.value), fmt, limit=1,
                           timeout=timeout, box=box)
    if code:
        raise typer.Exit(code)


@app.command(epilog=examples("csolve rate sudoku puzzles/sudoku/9x9-hard.txt",
                            "csolve rate sudoku puzzles/sudoku/9x9-hard.txt --output json",
                            exit_codes=True))
def rate(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: StepOutputOpt = None,
    fmt: FormatOpt = None,
    timeout: TimeoutOpt = None,
    box: BoxOpt = None,
) -> None:
    """Grade each puzzle: level, hardest tactic, steps and guesses.

    Levels: easy, medium, hard, expert, evil (a guess was needed).

    A puzzle with several solutions is "not unique" (not-unique in line output).

    A puzzle with no solution is "invalid"; "timeout" means --timeout ran out."""
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    from csolve.errors import ExitCode, SearchTimeoutError
    from csolve.grading import INVALID, LEVELS, NOT_UNIQUE
    from csolve.grading import rate as rate_puzzle

    ptype, puzzles = load_puzzles(puzzle, file, fmt, box, check=True)
    chosen = parse_tactics(tactics)
    out = Output(output.value) if output else default_output()
    con = Console(highlight=False, soft_wrap=True, emoji=False)
    table = Table(title=f"{puzzles[0].source if puzzles else file}: difficulty")
    for col in ("line", "level", "hardest tactic", "steps", "guesses"):  # the title: the source
        table.add_column(col, justify="right" if col in ("line", "steps", "guesses") else "left")
    levels: Counter[str] = Counter()
    code = ExitCode.OK
    late = 0
    for p in puzzles:
        try:
            r = rate_puzzle(ptype, p, chosen, timeout)
        except SearchTimeoutError:
            code = max(code, ExitCode.TIMEOUT)
            late += 1
            if out is Output.json:
                con.print(json.dumps({"puzzle": p.index + 1, "line": p.line,
                                      "status": "timeout"}), markup=False)
            elif out is Output.line:
                con.print("timeout - - -", markup=False)
            else:
                table.add_row(str(p.line), "timeout", "-", "-", "-")
            continue
        if r.solutions == 0:
            code = max(code, ExitCode.NO_SOLUTION)
        levels[r.level] += 1
        if out is Output.json:
            con.print(json.dumps({"puzzle": p.index + 1, "line": p.line, **r.to_json()}),
                      markup=False)
        elif out is Output.line:
            level = r.level.replace(" ", "-")  # one field: "not-unique"
            con.print(f"{level} {r.hardest or '-'} {r.steps} {r.guesses}", markup=False)
        else:
            table.add_row(str(p.line), r.level, r.hardest or "-", str(r.steps), str(r.guesses))
    if out is Output.pretty:
        con.print(table)
        if len(puzzles) > 1:
            con.print(", ".join(f"{levels[lv]} {lv}" for lv in (*LEVELS, NOT_UNIQUE, INVALID)
                                if levels[lv]))
    say_late(late, len(puzzles), timeout, "rated")
    if code:
        raise typer.Exit(int(code))
