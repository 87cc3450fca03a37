"""``list-tactics``, ``explain``, ``hint`` and ``rate``: the logic stepper on the command line."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from csolve.cli.app import EXIT_CODES_HELP, app
from csolve.cli.common import FileArg, FormatOpt, Output, PuzzleArg, default_output, load_puzzles

_TACTICS = "Tactics, comma-separated, easiest first (see list-tactics); default: all."
_OUTPUT = "pretty (terminal default), line (pipe default), json (one object per line)."
TacticsOpt = Annotated[str | None, typer.Option(help=_TACTICS)]
StepOutputOpt = Annotated[Output | None, typer.Option(help=_OUTPUT)]


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


@app.command("list-tactics")
def list_tactics_cmd(
    puzzle: PuzzleArg,
) -> None:
    """Tactics a puzzle type can solve, explain and grade with, easiest first."""
    from rich.console import Console
    from rich.table import Table

    from csolve.grading import level_of
    from csolve.logic import LABELS
    from csolve.puzzle import get_puzzle_type
    from csolve.rules import all_rules

    ptype = get_puzzle_type(puzzle)
    rules = all_rules()
    table = Table(title=f"{puzzle} tactics (default rules: {','.join(ptype.default_rules)})")
    for col in ("tactic", "also known as", "level", "what it does"):
        table.add_column(col)
    for t in ptype.tactics:
        r = rules.get(t)
        table.add_row(t, LABELS.get(t, t), level_of(ptype, t),
                      r.description if r else "")
    Console(soft_wrap=True).print(table)


def _explain_one(ptype, p, tactics, limit=None):
    from csolve.grading import find_solution, rate_steps, stepper

    count, solution = find_solution(ptype, p)
    st = stepper(ptype, p, tactics, solution)
    steps = list(st.steps(limit))
    rating = rate_steps(steps, min(count, 2), ptype)
    return st, steps, rating, count, solution


SEVERAL = "the puzzle has several solutions, so no logic alone can finish it; these steps reach one"


def explain_puzzles(kind: str, file: str, tactics: str | None, output: Output | None,
                    fmt: str | None, limit: int | None = None) -> int:
    """Print the steps for every puzzle of a file (or the first ``limit`` of each)."""
    from rich.console import Console

    from csolve.errors import ExitCode

    ptype, puzzles = load_puzzles(kind, file, fmt)
    chosen = parse_tactics(tactics)
    out = output or default_output()
    con = Console(highlight=False, soft_wrap=True)
    code = ExitCode.OK
    for p in puzzles:
        st, steps, rating, count, solution = _explain_one(ptype, p, chosen, limit)
        namer = st.board.namer
        if count == 0:
            code = ExitCode.NO_SOLUTION
        if out is Output.json:
            obj = {"puzzle": p.index + 1, "line": p.line,
                   "steps": [s.to_json(namer) for s in steps]}
            if limit is None:
                obj["rating"] = rating.to_json()
                if solution is not None:
                    obj["solution"] = ptype.to_json(p, solution)
            con.print(json.dumps(obj), markup=False)
            continue
        if out is Output.pretty:
            con.print(f"[bold]{p.where}[/]")
            if st.skipped:
                con.print(f"(no step-by-step form for {', '.join(st.skipped)}: what it "
                          "deduces shows as guesses)", markup=False)
        for i, s in enumerate(steps, 1):
            prefix = f"{i:4d}. " if out is Output.pretty else ""
            style = "[yellow]" if s.tactic == "guess" else ""
            text = s.text.replace("[", r"\[")
            con.print(f"{prefix}{style}{text}{'[/]' if style else ''}")
        if limit is not None:
            if not steps:
                con.print("no step: the puzzle is solved" if count else
                          "no step: the puzzle has no solution", markup=False)
            continue
        if count == 0:
            why = st.board.broken() or "the search finds no solution"
            con.print(f"no solution: {why}", markup=False)
        elif count > 1:
            con.print(f"{rating.level}: {SEVERAL} ({rating.steps} steps, {rating.guesses} "
                      "guesses)", markup=False)
        if count and out is Output.pretty:
            if count == 1:
                con.print(f"solved in {rating.steps} steps and {rating.guesses} guesses: "
                          f"{rating.level}")
            con.print(ptype.render(p, ptype.decode(p, st.masks()) if st.board.solved()
                                   else solution))
    return int(code)


@app.command(epilog=EXIT_CODES_HELP)
def explain(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: StepOutputOpt = None,
    fmt: FormatOpt = None,
) -> None:
    """Solve step by step in words: tactic, cells, values placed or removed, and why."""
    code = explain_puzzles(puzzle, file, tactics, output, fmt)
    if code:
        raise typer.Exit(code)


@app.command(epilog=EXIT_CODES_HELP)
def hint(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: StepOutputOpt = None,
    fmt: FormatOpt = None,
) -> None:
    """The next step only (for each puzzle in FILE)."""
    code = explain_puzzles(puzzle, file, tactics, output, fmt, limit=1)
    if code:
        raise typer.Exit(code)


@app.command(epilog=EXIT_CODES_HELP)
def rate(
    puzzle: PuzzleArg,
    file: FileArg,
    tactics: TacticsOpt = None,
    output: StepOutputOpt = None,
    fmt: FormatOpt = None,
) -> None:
    """Grade each puzzle: level (easy, medium, hard, expert, evil; "not unique" with several
    solutions), hardest tactic, steps and guesses."""
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    from csolve.errors import ExitCode
    from csolve.grading import INVALID, LEVELS, NOT_UNIQUE

    ptype, puzzles = load_puzzles(puzzle, file, fmt)
    chosen = parse_tactics(tactics)
    out = output or default_output()
    con = Console(highlight=False, soft_wrap=True)
    table = Table(title=f"{file}: difficulty")
    for col in ("puzzle", "level", "hardest tactic", "steps", "guesses"):
        table.add_column(col, justify="right" if col in ("steps", "guesses") else "left")
    levels: Counter[str] = Counter()
    code = ExitCode.OK
    for p in puzzles:
        _st, _steps, r, count, _sol = _explain_one(ptype, p, chosen)
        if count == 0:
            code = ExitCode.NO_SOLUTION
        levels[r.level] += 1
        if out is Output.json:
            con.print(json.dumps({"puzzle": p.index + 1, "line": p.line, **r.to_json()}),
                      markup=False)
        elif out is Output.line:
            level = r.level.replace(" ", "-")  # one field: "not-unique"
            con.print(f"{level} {r.hardest or '-'} {r.steps} {r.guesses}", markup=False)
        else:
            table.add_row(p.where, r.level, r.hardest or "-", str(r.steps), str(r.guesses))
    if out is Output.pretty:
        con.print(table)
        if len(puzzles) > 1:
            con.print(", ".join(f"{levels[lv]} {lv}" for lv in (*LEVELS, NOT_UNIQUE, INVALID)
                                if levels[lv]))
    if code:
        raise typer.Exit(int(code))
