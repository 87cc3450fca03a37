"""Printing results: a grid, a line or a JSON object per puzzle; progress and summary on stderr."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console

from csolve.cli.common import Output
from csolve.errors import ExitCode
from csolve.puzzle import Puzzle, PuzzleType
from csolve.solver import PuzzleResult, Status

_WORST = {Status.INTERRUPTED: 4, Status.TIMEOUT: 3, Status.NO_SOLUTION: 2}
_CODE = {Status.INTERRUPTED: ExitCode.INTERRUPTED, Status.TIMEOUT: ExitCode.TIMEOUT,
         Status.NO_SOLUTION: ExitCode.NO_SOLUTION}


class Reporter:
    def __init__(self, ptype: PuzzleType, output: Output, counting: bool, show_stats: bool,
                 total: int) -> None:
        self.ptype = ptype
        self.output = output
        self.counting = counting
        self.show_stats = show_stats
        self.total = total
        self.out = Console(highlight=False, soft_wrap=True)
        self.err = Console(stderr=True, highlight=False)
        self.statuses: Counter[Status] = Counter()
        self.streamed = 0

    @contextmanager
    def progress(self) -> Iterator[Callable[[int], None]]:
        """A progress bar on stderr (terminals only, files with several puzzles)."""
        if self.total < 2 or not self.err.is_terminal:
            yield lambda done: None
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        with Progress("solving", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=self.err, transient=True) as bar:
            task = bar.add_task("solve", total=self.total)
            shown = [0]

            def advance(done: int) -> None:
                # never backwards: a puzzle handed to another engine leaves the count for
                # a moment before it is done
                if done > shown[0]:
                    shown[0] = done
                    bar.update(task, completed=done)

            yield advance

    def solution_printer(self, puzzle: Puzzle) -> Callable[[object], None]:
        """For --all: print each solution as it is found."""
        def emit(solution: object) -> None:
            self.streamed += 1
            self._print_solution(puzzle, solution, index=self.streamed)
        return emit

    def _print_solution(self, puzzle: Puzzle, solution: object, index: int | None = None) -> None:
        if self.output is Output.line:
            self.out.print(self.ptype.format_line(puzzle, solution), markup=False)
        elif self.output is Output.json:
            obj = {"puzzle": puzzle.index + 1, "line": puzzle.line, "solution_index": index,
                   "solution": self.ptype.to_json(puzzle, solution)}
            self.out.print(json.dumps(obj), markup=False)
        else:
            self.out.print(f"[bold]{puzzle.where}[/] solution {index}")
            self.out.print(self.ptype.render(puzzle, solution))

    def result(self, r: PuzzleResult) -> None:
        self.statuses[r.status] += 1
        p = r.puzzle
        if self.output is Output.json:
            obj: dict = {"puzzle": p.index + 1, "line": p.line, "status": r.status.value}
            if self.counting:
                obj["count"] = r.count
                obj["exact"] = r.exact
            if r.solutions and not self.streamed:
                obj["solution"] = self.ptype.to_json(p, r.solutions[0])
                if len(r.solutions) > 1:
                    obj["solutions"] = [self.ptype.to_json(p, s) for s in r.solutions]
            obj["stats"] = dict(r.stats, seconds=round(r.seconds, 6))
            if r.engine:
                obj["engine"] = r.engine
            if r.took_over_from:
                obj["took_over_from"] = r.took_over_from
            if r.workers and len(r.workers) > 1:
                obj["workers"] = r.workers
            self.out.print(json.dumps(obj), markup=False)
        elif self.output is Output.line:
            if self.counting:
                self.out.print(f"{r.count}{'' if r.exact else '+'}", markup=False)
            elif self.streamed:
                pass
            elif r.solutions:
                self.out.print(self.ptype.format_line(p, r.solutions[0]), markup=False)
            else:
                self.out.print(f"{self.ptype.format_line(p, None)} # {r.status.value}",
                               markup=False)
        else:
            self._pretty(r)
        if self.show_stats:
            self._stats(r)

    def _pretty(self, r: PuzzleResult) -> None:
        p = r.puzzle
        head = f"[bold]{p.where}[/] "
        if self.counting:
            more = "" if r.exact else " (limit reached)"
            self.out.print(f"{head}{r.count} solution{'s' if r.count != 1 else ''}{more}")
            return
        if self.streamed:
            self.out.print(f"{head}{r.count} solution{'s' if r.count != 1 else ''} in all")
            return
        status = {Status.SOLVED: "[green]solved[/]", Status.NO_SOLUTION: "[red]no solution[/]",
                  Status.TIMEOUT: "[yellow]timed out[/]",
                  Status.INTERRUPTED: "[yellow]interrupted[/]",
                  Status.MULTIPLE: "[yellow]multiple solutions[/]"}[r.status]
        self.out.print(f"{head}{status} in {_fmt_seconds(r.seconds)}")
        self.out.print(self.ptype.render(p, r.solutions[0] if r.solutions else None))

    def _stats(self, r: PuzzleResult) -> None:
        from rich.table import Table

        if r.workers and len(r.workers) > 1:
            keys = [k for k in r.workers[0] if k != "worker"]
            table = Table(title=f"{r.puzzle.where} per worker")
            table.add_column("worker")
            for k in keys:
                table.add_column(k, justify="right")
            for w in r.workers:
                table.add_row(str(w.get("worker", "")), *(_fmt(w[k]) for k in keys))
            self.err.print(table)
        parts = ", ".join(f"{k} {v}" for k, v in r.stats.items())
        engine = f", engine {r.engine}" if r.engine else ""
        if r.took_over_from:
            engine += f" (took over from {r.took_over_from})"
        self.err.print(f"{r.puzzle.where}: {parts}{engine}, time {_fmt_seconds(r.seconds)}",
                       markup=False)

    def summary(self, seconds: float) -> None:
        if self.total < 2:
            return
        s = self.statuses
        parts = [f"{s[Status.SOLVED]} solved"]
        for status, label in ((Status.MULTIPLE, "multiple"), (Status.NO_SOLUTION, "no solution"),
                              (Status.TIMEOUT, "timed out"), (Status.INTERRUPTED, "interrupted")):
            if s[status]:
                parts.append(f"{s[status]} {label}")
        rate = self.total / seconds if seconds > 0 else float("inf")
        self.err.print(f"{self.total} puzzles: {', '.join(parts)} in {_fmt_seconds(seconds)} "
                       f"({rate:,.0f} puzzles/s)", markup=False)

    def exit_code(self) -> ExitCode:
        worst = max(self.statuses, key=lambda st: _WORST.get(st, 0), default=None)
        return _CODE.get(worst, ExitCode.OK) if worst is not None else ExitCode.OK


def _fmt(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def _fmt_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"

