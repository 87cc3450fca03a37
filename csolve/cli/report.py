"""Printing results: grids, lines or JSON objects on stdout; progress and summary on stderr.

Line and JSON output are written a block of results at a time (one write per run of
same-shaped puzzles), so a file of a million puzzles costs what its search costs. Pretty
output goes through rich, one puzzle at a time, and shares its console with the progress
bar when both are on the terminal, so the bar never breaks a grid.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from csolve.cli.common import Output
from csolve.cli.common import write_whole as _write
from csolve.errors import ExitCode, counted
from csolve.outcome import STATS_FIELDS, Result, ResultBlock, Status
from csolve.puzzle import Puzzle, PuzzleType, TextLines, positions

if TYPE_CHECKING:
    from rich.console import Console


#: a batch row's counters as JSON, in the keys and order of ``Stats.as_dict``
_COUNTERS_JSON = ", ".join(f'"{name}": {{}}' for name in STATS_FIELDS)


class Reporter:
    def __init__(self, ptype: PuzzleType, output: Output, counting: bool, show_stats: bool,
                 total: int) -> None:
        self.ptype = ptype
        self.output = output
        self.counting = counting
        self.show_stats = show_stats
        self.total = total
        self.statuses: Counter[Status] = Counter()
        self.streamed: Counter[int] = Counter()  # solutions printed per puzzle (--all)
        self.streaming = False  # --all: solutions are printed as found, then counted
        self.pictures: list[str] = []  # --output svg: one document per puzzle, written last
        self._live: Console | None = None  # the console the progress bar is drawn on
        #: draw the bar from its counts now, where they changed since it was last drawn
        self._redraw: Callable[[], None] = lambda: None

    # the consoles are made on first use: line and JSON output never import rich
    @cached_property
    def out(self) -> Console:
        from rich.console import Console

        return Console(highlight=False, soft_wrap=True, emoji=False)

    @cached_property
    def err(self) -> Console:
        from rich.console import Console

        return Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

    def notice(self, message: str) -> None:
        """A one-line note for stderr: printed above the progress bar when one is drawn on
        the terminal stderr shares, else on stderr."""
        live = self._live
        if live is not None and (live is self.err or self.err.is_terminal):
            live.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            self.err.print(message, markup=False, highlight=False, soft_wrap=True)

    @contextmanager
    def progress(self, verb: str = "solving") -> Iterator[Callable[[int], None]]:
        """A transient progress bar for files of several puzzles, on the terminal only:
        drawn on stdout's console when stdout is the terminal (so that grids printed
        through it go above the bar), else on stderr."""
        if self.total < 2 or not (_is_tty(sys.stdout) or _is_tty(sys.stderr)):
            yield lambda done: None  # (and rich is not imported for nothing)
            return
        console = self.out if self.out.is_terminal else self.err
        if not console.is_terminal:
            yield lambda done: None
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        with Progress(verb, BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True, refresh_per_second=5) as bar:
            task = bar.add_task(verb, total=self.total)
            shown = [0]
            drawn = [0]
            self._live = console

            def redraw() -> None:
                # rich draws the bar again below each text printed above it, but as it was
                # at its last refresh (a few times a second): without this, the bar under
                # a result just printed would count it as not done
                if drawn[0] != shown[0]:
                    drawn[0] = shown[0]
                    bar.refresh()

            def advance(done: int) -> None:
                # never backwards: a puzzle handed to another engine leaves the count for
                # a moment before it is done
                if done > shown[0]:
                    shown[0] = done
                    bar.update(task, completed=done)

            self._redraw = redraw
            try:
                yield advance
            finally:
                self._redraw = lambda: None

    def solution_printer(self) -> Callable[[Puzzle, Any], None]:
        """For --all: print each solution as it is found."""
        self.streaming = True

        def emit(puzzle: Puzzle, solution: Any) -> None:
            self.streamed[puzzle.index] += 1
            self._print_solution(puzzle, solution, self.streamed[puzzle.index])
        return emit

    def _print_solution(self, puzzle: Puzzle, solution: Any, index: int) -> None:
        if self.output is Output.line:
            # several puzzles' solutions in one stream: a comment says whose follow
            head = f"{self.ptype.comment} {puzzle.where}\n" if self.total > 1 and index == 1 \
                else ""
            _write(head + self.ptype.format_line(puzzle, solution) + "\n")
        elif self.output is Output.json:
            _write(json.dumps({"puzzle": puzzle.index + 1, "line": puzzle.line,
                               "solution_index": index,
                               "solution": self.ptype.to_json(puzzle, solution)}) + "\n")
        elif self.output is Output.grid:
            _write(f"{self.ptype.comment} {puzzle.where} solution {index}\n"
                   f"{self.ptype.format_grid(puzzle, solution)}\n\n")
        elif self.output is Output.svg:
            self.pictures.append(self.ptype.to_svg(puzzle, solution))
        else:
            from rich.markup import escape

            self.out.print(f"[bold]{escape(puzzle.where)}[/] solution {index}")
            self.out.print(self.ptype.render(puzzle, solution))

    def block(self, results: Sequence[Result]) -> None:
        """Print a run of results (in input order)."""
        block = results if isinstance(results, ResultBlock) else ResultBlock.of(results)
        self.statuses.update(block.statuses)
        if self.output is Output.line:
            self._write(self._lines(block))
        elif self.output is Output.json:
            self._write(self._json_lines(block))
        elif self.output is Output.grid:
            self._write("".join(self._grid(r) for r in block))
        elif self.output is Output.svg:
            self.pictures.extend(self.ptype.to_svg(r.puzzle, r.solution) for r in block
                                 if not self.streamed[r.puzzle.index])
            for r in block:  # a picture cannot say it: a puzzle drawn without a solution
                if r.solution is None and not self.counting and not self.streamed[
                        r.puzzle.index]:
                    sys.stderr.write(f"{r.puzzle.where}: not solved: {r.status.value}, "
                                     "drawn as given\n")
        else:
            self._redraw()
            for r in block:
                self._pretty(r)
        if self.show_stats:
            for r in block:
                self._stats(r)

    def _write(self, text: str) -> None:
        """A block's text on stdout, the progress bar (if any) brought up to date first."""
        if text:
            self._redraw()
            _write(text)

    def _lines(self, block: ResultBlock) -> str:
        if self.counting:
            return "".join(f"{count}{'' if exact else '+'}\n"
                           for count, exact in zip(block.counts, block.exact, strict=True))
        if self.streamed:  # the solutions went above; a puzzle with none says why
            return "".join(f"{self.ptype.format_line(p, None)} {self.ptype.comment} "
                           f"{status.value}\n"
                           for p, status in zip(block.puzzles, block.statuses, strict=True)
                           if not self.streamed[p.index])
        text = self._solution_texts(block, self.ptype.format_line_many)
        if isinstance(text, TextLines):
            return text.text
        if None not in text:
            return "\n".join(text) + "\n" if text else ""
        return "".join(
            (line if line is not None else
             f"{self.ptype.format_line(p, None)} # {status.value}") + "\n"
            for line, p, status in zip(text, block.puzzles, block.statuses, strict=True))

    def _solution_texts(self, block: ResultBlock,
                        many: Callable[[Sequence[Puzzle], Sequence[Any]], Sequence[str]]
                        ) -> Sequence[str | None]:
        """Each puzzle's first solution written by ``many`` in one call, None where none
        (or where --all already printed them)."""
        keep, sols = block.solved()
        if self.streamed:
            pairs = [(k, s) for k, s in zip(keep, sols, strict=True)
                     if not self.streamed[block.puzzles[k].index]]
            keep, sols = [k for k, _ in pairs], [s for _, s in pairs]
        if len(keep) == len(block):
            return many(block.puzzles, sols)
        out: list[str | None] = [None] * len(block)
        written = many([block.puzzles[k] for k in keep], sols)
        for k, text in zip(keep, written, strict=True):
            out[k] = text
        return out

    def _json_lines(self, block: ResultBlock) -> str:
        """One JSON object per puzzle, written from the block's columns; a puzzle answered
        after the batch (another engine, several solutions, per-worker rows) from its
        :class:`Result`."""
        texts = self._solution_texts(block, self.ptype.to_json_text_many)
        backend, engine = json.dumps(block.backend), json.dumps(block.engine)
        indexes, lines = positions(block.puzzles)
        rows = zip(indexes, lines, block.statuses, block.ends, block.counts, block.exact, texts,
                   block.stats_rows(), strict=True)
        out = []
        for k, (index, line, status, end, count, exact, solution, (counters, seconds)) in \
                enumerate(rows):
            r = block.answered(k)
            if r is not None:
                out.append(json.dumps(self._json(r)))
                continue
            head = f'{{"puzzle": {index + 1}, "line": {line}, "status": "{status}", ' \
                   f'"end": "{end}"'
            if self.counting or self.streaming:
                head += f', "count": {count}, "exact": {"true" if exact else "false"}'
            if solution is not None:
                head += f', "solution": {solution}'
            out.append(f'{head}, "backend": {backend}, "engine": {engine}, "stats": '
                       f'{{{_COUNTERS_JSON.format(*counters)}, '
                       f'"seconds": {round(seconds, 6)!r}}}}}')  # finite: repr is JSON
        return "\n".join(out) + "\n" if out else ""

    def _json(self, r: Result) -> dict:
        p = r.puzzle
        obj: dict = {"puzzle": p.index + 1, "line": p.line, "status": r.status.value,
                     "end": r.end.value}
        if self.counting or self.streaming:
            obj["count"] = r.count
            obj["exact"] = r.exact
        if r.solutions and not self.streamed[p.index]:
            obj["solution"] = self.ptype.to_json(p, r.solutions[0])
            if len(r.solutions) > 1:
                obj["solutions"] = [self.ptype.to_json(p, s) for s in r.solutions]
        obj["backend"] = r.backend
        obj["engine"] = r.engine
        if r.took_over_from:
            obj["took_over_from"] = r.took_over_from
        obj["stats"] = r.stats.as_dict()
        if _shared(r.stats.workers):
            obj["workers"] = list(r.stats.workers)
        return obj

    def _grid(self, r: Result) -> str:
        p = r.puzzle
        head = f"{self.ptype.comment} {p.where} {r.status.value}"
        if self.counting:
            # plain numbers, as in every output for programs
            head += (f", {r.count}+ solutions" if not r.exact
                     else f", {r.count} solution{'' if r.count == 1 else 's'}")
        if self.streamed[p.index]:  # its solutions went above: the puzzle again would read
            return f"{head}\n\n"     # back as one more puzzle
        # counting too: the first solution under the count, as json and svg show it
        body = self.ptype.format_grid(p, r.solution)
        return f"{head}\n{body}\n\n"

    def _pretty(self, r: Result) -> None:
        p = r.puzzle
        from rich.markup import escape

        head = f"[bold]{escape(p.where)}[/] "
        more = ("" if r.exact else " (timed out)" if r.status is Status.TIMEOUT
                else " (interrupted)" if r.status is Status.INTERRUPTED else " (limit reached)")
        found = ("at least " if not r.exact else "") + counted(r.count, "solution")
        if self.counting:
            self.out.print(f"{head}{found}{more}")
            return
        if self.streamed[p.index]:  # the solutions went above, as they came
            self.out.print(f"{head}{found}{more or ' in all'}")
            return
        status = {Status.SOLVED: "[green]solved[/]", Status.NO_SOLUTION: "[red]no solution[/]",
                  Status.TIMEOUT: "[yellow]timed out[/]",
                  Status.INTERRUPTED: "[yellow]interrupted[/]",
                  Status.MULTIPLE: "[yellow]multiple solutions[/]"}[r.status]
        self.out.print(f"{head}{status} in {_fmt_seconds(r.seconds)}")
        self.out.print(self.ptype.render(p, r.solution))

    def _stats(self, r: Result) -> None:
        from rich.table import Table

        workers = r.stats.workers
        if _shared(workers):
            keys = [k for k in workers[0] if k != "worker"]
            table = Table(title=f"{r.puzzle.where} per worker")
            table.add_column("worker")
            for k in keys:
                table.add_column(k, justify="right")
            for w in workers:
                table.add_row(str(w.get("worker", "")), *(_fmt(w[k]) for k in keys))
            self.err.print(table)
        counters = {k: v for k, v in r.stats.as_dict().items() if k != "seconds"}
        parts = ", ".join(f"{k} {v}" for k, v in counters.items())
        engine = f", backend {r.backend}, engine {r.engine}"
        if r.took_over_from:
            engine += f" (took over from {r.took_over_from})"
        self.err.print(f"{r.puzzle.where}: {parts}{engine}, time {_fmt_seconds(r.seconds)}",
                       markup=False)

    def finish(self) -> None:
        """Write what is written once at the end (the SVG picture of every puzzle)."""
        if self.output is Output.svg and self.pictures:
            from csolve.svg import stack

            _write(stack(self.pictures) + "\n")

    def summary(self, seconds: float, compiling: float = 0.0, starting: float = 0.0) -> None:
        """One line for a file of puzzles: how each ended, and the time they took, the
        ``compiling`` seconds of a first run's kernels and the ``starting`` seconds of worker
        processes or a cluster said apart (not in the rate). Also for a single puzzle that
        timed out, where the output for programs (line, json, grid, svg) would say so only
        by its exit code."""
        s = self.statuses
        if self.total < 2 and not (s[Status.TIMEOUT] and self.output is not Output.pretty):
            return
        parts = [f"{s[Status.SOLVED]:,} solved"]
        for status, label in ((Status.MULTIPLE, "multiple"), (Status.NO_SOLUTION, "no solution"),
                              (Status.TIMEOUT, "timed out"), (Status.INTERRUPTED, "interrupted")):
            if s[status]:
                parts.append(f"{s[status]:,} {label}")
        rate = self.total / seconds if seconds > 0 else float("inf")
        shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
        # a plain line: rich would be imported for it alone
        before = [f"{_fmt_seconds(compiling)} compiling kernels"] if compiling else []
        before += [f"{_fmt_seconds(starting)} starting workers"] if starting >= 0.01 else []
        answered = self.total - s[Status.TIMEOUT] - s[Status.INTERRUPTED]
        # (one puzzle, or none answered: no rate)
        about = [f"{shown} puzzles/s"] if self.total > 1 and answered else []
        about += [f"after {' and '.join(before)}"] if before else []
        sys.stderr.write(f"{counted(self.total, 'puzzle')}: {', '.join(parts)} in "
                         f"{_fmt_seconds(seconds)}"
                         + (f" ({', '.join(about)})" if about else "") + "\n")

    def exit_code(self) -> ExitCode:
        worst = max(self.statuses, key=lambda st: st.severity, default=None)
        return worst.exit_code if worst is not None else ExitCode.OK


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False



def _micro() -> str:
    """The micro sign where both output streams can write it, else "u"."""
    return _micro_for(getattr(sys.stdout, "encoding", None), getattr(sys.stderr, "encoding", None))


@cache
def _micro_for(*encodings: str | None) -> str:
    try:
        for encoding in encodings:
            "µ".encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "u"
    return "µ"


def _shared(workers: Sequence[dict]) -> bool:
    """Whether a search's worker rows show work shared: several workers, or one row for a
    pool that took the work in calls (``process-pool``). A search alone has one row of
    its own, not shown."""
    return len(workers) > 1 or any(w.get("calls") for w in workers)


def _fmt(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def _fmt_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} {_micro()}s"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"
