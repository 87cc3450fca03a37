"""Killer grids: reading the text and JSON-lines forms, and writing them back.

Text form (docs/killer.md). A puzzle is either one line::

    AABB/CDDB/CEEF/GGHF A=3 B=9 C=7 D=5 E=4 F=6 G=7 H=1

(the cage map's rows separated by ``/``, then ``LABEL=SUM`` for every cage, then optional
``givens=`` with n·n symbols ``1``-``9`` or ``.`` and ``box=RxC``), or a block of lines ended by a
blank line: n rows of cage labels, one or more lines of ``LABEL=SUM`` tokens (and the options),
then optionally n rows of givens. A label is one letter or digit. Lines starting with ``#``
are comments.

JSON form: one object per line with a ``problem`` field as in the janko.at collection: a
first line ``rows cols``, ``rows`` lines giving each cage's sum at one of its cells (``-``
elsewhere), then ``rows`` lines giving every cell's cage number. Optional fields: ``id``,
``givens`` (n·n symbols), ``box`` (``"RxC"``) and ``solution`` (``rows cols`` then the grid).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
from csolve_sudoku.grid import Box, check_box, default_box, parse_box

from csolve.errors import PuzzleInputError, counted
from csolve.inputs import is_number, json_text, load_json, no_puzzle_found, number_value

#: Killer sizes: Sudoku sizes whose digits a sum table of 1..9 covers
SIZES = (4, 6, 8, 9)
MAX_SUM = 45
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
BLANKS = ".0"


def _why_not_sum(value: str) -> str:
    """What a sum token's error adds: why 45 is the most, where the number is above it."""
    over = is_number(value) and number_value(value) > MAX_SUM
    return " (a cage's digits differ: 1+2+...+9 at most)" if over else ""


@dataclass
class KillerGrid:
    """A Killer puzzle: the cage map, the sums, the givens (0 = blank)."""

    n: int
    box: Box
    cage_of: np.ndarray  # cage index of each cell (row-major)
    cages: tuple[tuple[int, ...], ...]  # cells of each cage, cages ordered by first cell
    sums: tuple[int, ...]  # sum of each cage
    givens: np.ndarray  # int64 per cell, 0 = blank
    labels: tuple[str, ...]  # how the input named each cage
    anchors: tuple[int, ...]  # the cell each cage's sum was written at
    solution: np.ndarray | None = None  # a solution the input came with (JSON ``solution``)
    extra: dict = field(default_factory=dict)  # JSON fields kept for writing back (id, ...)

    def structure(self) -> tuple:
        """Everything but the givens: puzzles with equal structures share a model."""
        return (self.n, self.box, self.cages, self.sums)

    def cage_name(self, k: int) -> str:
        """The cage as the input labels it, and where its sum stands ("cage B at r1c4")."""
        a = self.anchors[k]
        return f"cage {self.labels[k]} at r{a // self.n + 1}c{a % self.n + 1}"


def _digits(text: str, n: int, where) -> np.ndarray:
    """n·n symbols (``1``-``n``, blank ``.`` or ``0``) as values."""
    s = "".join(text.split())
    if len(s) != n * n:
        where(None, f"givens hold {counted(len(s), 'symbol')}, expected {n * n}")
    out = np.zeros(n * n, dtype=np.int64)
    for i, ch in enumerate(s):
        if ch in BLANKS:
            continue
        if not is_number(ch) or not 1 <= int(ch) <= n:
            where(None, f"given {ch!r} is not a digit 1..{n} or a blank '.'")
        out[i] = int(ch)
    return out


def _givens_row(line: str, n: int, where) -> None:
    """One row of a block's givens: n symbols (spaces between them allowed)."""
    symbols = [(col, ch) for col, ch in enumerate(line, 1) if not ch.isspace()]
    for col, ch in symbols:
        if ch not in BLANKS and (not is_number(ch) or not 1 <= int(ch) <= n):
            where(col, f"given {ch!r} is not a digit 1..{n} or a blank '.'")
    if len(symbols) != n:
        where(None, f"a row of givens holds {counted(len(symbols), 'symbol')}, expected {n}")


def _box(text: str, n: int, where) -> Box:
    try:
        return check_box(n, parse_box(text))
    except ValueError as e:
        where(None, str(e))
        raise


def make_grid(n: int, labels_of_cells: list[str], sums: dict[str, int], anchors: dict[str, int],
              givens: np.ndarray | None, box: Box | None, where,
              columns: dict[str, int] | None = None) -> KillerGrid:
    """A grid from a cage label per cell and a sum per label; ``where(col, msg)`` raises
    (``columns``: where each cage's sum stands, for an error about it)."""
    if n not in SIZES:
        where(None, f"a {n}x{n} grid; Killer grids are {', '.join(f'{s}x{s}' for s in SIZES)}")
    order: dict[str, int] = {}
    cells: list[list[int]] = []
    cage_of = np.zeros(n * n, dtype=np.int64)
    for c, lab in enumerate(labels_of_cells):
        k = order.setdefault(lab, len(order))
        if k == len(cells):
            cells.append([])
        cells[k].append(c)
        cage_of[c] = k
    labels = tuple(order)
    for lab in labels:
        if lab not in sums:
            where(None, f"cage {lab!r} has no sum")
    for lab, own in zip(labels, cells, strict=True):
        pieces = _pieces(own, n)
        if len(pieces) > 1:  # a mistyped label makes another puzzle: say so
            starts = ", ".join(f"r{p[0] // n + 1}c{p[0] % n + 1}" for p in pieces)
            where(None, f"cage {lab!r} is in {len(pieces)} pieces (from {starts}): a cage's "
                        "cells touch side to side")
    for lab in sums:
        if lab not in order:
            where((columns or {}).get(lab), f"a sum is given for cage {lab!r}, which has no "
                                            "cells")
    return KillerGrid(
        n=n, box=check_box(n, box), cage_of=cage_of, cages=tuple(tuple(c) for c in cells),
        sums=tuple(sums[lab] for lab in labels),
        givens=givens if givens is not None else np.zeros(n * n, dtype=np.int64),
        labels=labels,
        anchors=tuple(anchors.get(lab, cells[k][0]) for k, lab in enumerate(labels)))


def neighbours(n: int, c: int) -> list[int]:
    """The cells of an n×n grid that share a side with cell ``c``."""
    r, k = divmod(c, n)
    out = []
    if r:
        out.append(c - n)
    if r + 1 < n:
        out.append(c + n)
    if k:
        out.append(c - 1)
    if k + 1 < n:
        out.append(c + 1)
    return out


def components(n: int, cells: list[int]) -> list[list[int]]:
    """The cells in parts that touch side to side (in no set order)."""
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        part = []
        while todo:
            c = todo.pop()
            part.append(c)
            for q in neighbours(n, c):
                if q in left:
                    left.remove(q)
                    todo.append(q)
        out.append(part)
    return out


def _pieces(cells: list[int], n: int) -> list[list[int]]:
    """The cells of a cage in pieces that touch side to side, each in reading order, the
    pieces by their first cell."""
    return sorted((sorted(p) for p in components(n, cells)), key=lambda p: p[0])


def _sum_tokens(tokens: list[tuple[str, int]], where, sums: dict[str, int] | None = None,
                options: dict[str, str] | None = None
                ) -> tuple[dict[str, int], dict[str, str], dict[str, int]]:
    """``LABEL=SUM`` tokens, the options (``givens=``, ``box=``), and the column of each
    (a cage's label or an option's name: where an error about it points). ``sums`` and
    ``options`` read from earlier lines are added to, a key given again refused."""
    sums = {} if sums is None else sums
    options = {} if options is None else options
    columns: dict[str, int] = {}
    for tok, col in tokens:
        key, eq, value = tok.partition("=")
        if not eq or not key:
            where(col, f"expected LABEL=SUM, found {tok!r}")
        columns[key] = col
        if key in ("givens", "box"):
            if key in options:
                where(col, f"{key}= given twice")
            options[key] = value
            continue
        if len(key) != 1 or key not in LABELS:
            where(col, f"a cage label is one letter or digit, found {key!r}")
        if not is_number(value) or not 1 <= number_value(value) <= MAX_SUM:
            where(col, f"sum {value!r} of cage {key!r} is not a number "
                       f"1..{MAX_SUM}{_why_not_sum(value)}")
        if key in sums:
            where(col, f"cage {key!r} has two sums")
        sums[key] = int(value)
    return sums, options, columns


def _tokens(line: str) -> list[tuple[str, int]]:
    out = []
    col = 0
    for tok in line.split():
        col = line.index(tok, col)
        out.append((tok, col + 1))
        col += len(tok)
    return out


def _label_rows(rows: list[tuple[int, str]], source: str) -> list[str]:
    n = len(rows)
    labels: list[str] = []
    for no, row in rows:
        s = "".join(row.split())
        if len(s) != n:
            raise PuzzleInputError(source, no, None,
                                   f"a row of {counted(len(s), 'cage label')} in a grid of "
                                   f"{counted(n, 'row')}")
        for ch in s:
            if ch not in LABELS:
                raise PuzzleInputError(source, no, row.index(ch) + 1,
                                       f"a cage label is one letter or digit, found {ch!r}")
        labels.extend(s)
    return labels


def parse_line(source: str, no: int, line: str) -> KillerGrid:
    """The one-line text form."""
    def where(col, msg):
        raise PuzzleInputError(source, no, col, msg)

    toks = _tokens(line)
    rows = toks[0][0].split("/")
    labels = _label_rows([(no, r) for r in rows], source)
    sums, options, columns = _sum_tokens(toks[1:], where)
    return _finish(len(rows), labels, sums, {}, options, where, columns)


def _finish(n, labels, sums, anchors, options, where, columns=None) -> KillerGrid:
    columns = columns or {}

    def at(key):  # an error about an option or a cage's sum points at its token
        return lambda col, msg: where(col or columns.get(key), msg)

    if n not in SIZES:
        where(None, f"a {n}x{n} grid; Killer grids are {', '.join(f'{s}x{s}' for s in SIZES)}")
    box = _box(options["box"], n, at("box")) if "box" in options else default_box(n)
    givens = _digits(options["givens"], n, at("givens")) if "givens" in options else None
    return make_grid(n, labels, sums, anchors, givens, box, where, columns)


def parse_block(source: str, block: list[tuple[int, str]]) -> tuple[KillerGrid, dict]:
    """The block text form: label rows, sum lines, optional givens rows; with the meta
    that says which line holds each givens row (``row_lines``), for errors about them."""
    first = block[0][0]

    def where(col, msg, line=first):
        raise PuzzleInputError(source, line, col, msg)

    i = 0
    while i < len(block) and "=" not in block[i][1]:
        i += 1
    rows = block[:i]
    if not rows:
        where(None, "a Killer block starts with its rows of cage labels")
    j = i
    sums: dict[str, int] = {}
    options: dict[str, str] = {}
    while j < len(block) and "=" in block[j][1]:  # each line's errors at that line
        line_no, line = block[j]

        def here(col, msg, line_no=line_no):
            where(col, msg, line_no)

        _sum_tokens(_tokens(line), here, sums, options)
        j += 1
    if j == i:
        where(None, "no LABEL=SUM line after the cage rows", rows[-1][0])
    n = len(rows)
    labels = _label_rows(rows, source)
    rest = block[j:]
    if rest:
        if len(rest) != n:
            where(None, f"{counted(len(rest), 'row')} of givens, expected {n}", rest[0][0])
        for line_no, line in rest:  # each row's mistakes at that row
            _givens_row(line, n, lambda col, msg, line_no=line_no: where(col, msg, line_no))
        options["givens"] = "".join(line for _, line in rest)
    meta = {"format": "text", "row_lines": tuple(no for no, _ in rest)} if rest else {
        "format": "text"}
    return _finish(n, labels, sums, {}, options,
                   lambda col, msg: where(col, msg, block[0][0])), meta


def _size_line(tokens: list[str], field: str, where) -> int:
    """n of a janko.at ``rows cols`` line (``9 9``), which must be square."""
    if len(tokens) != 2 or not all(is_number(t) and len(t) <= 3 for t in tokens):
        where(None, f"'{field}' must start with a line 'rows cols' (digits 0-9)")
    rows, cols = int(tokens[0]), int(tokens[1])
    if rows != cols:
        where(None, f"'{field}' is {rows}x{cols}; a Killer grid is square")
    return rows


def parse_json(source: str, no: int, line: str) -> KillerGrid:
    """One JSON object with a janko.at ``problem``."""
    def where(col, msg):
        raise PuzzleInputError(source, no, col, msg)

    obj = load_json(line, source, no)  # depth, size and number limits, as every reader
    if not isinstance(obj, dict) or not isinstance(obj.get("problem"), str):
        where(None, "a Killer JSON line is an object with a 'problem' text field")
    plines = [ln.split() for ln in obj["problem"].strip().split("\n")]
    rows = _size_line(plines[0], "problem", where)
    if len(plines) != 1 + 2 * rows:
        where(None, f"'problem' must hold a 'rows cols' line and 2x{rows} rows of a square grid")
    n = rows
    sum_at: dict[int, int] = {}
    labels: list[str] = []
    for r in range(n):
        srow, crow = plines[1 + r], plines[1 + n + r]
        if len(srow) != n or len(crow) != n:
            where(None, f"row {r + 1} of 'problem' holds {len(srow)}/{len(crow)} tokens, "
                        f"expected {n}")
        for c in range(n):
            if srow[c] != "-":
                if not is_number(srow[c]) or not 1 <= number_value(srow[c]) <= MAX_SUM:
                    where(None, f"sum {srow[c]!r} at r{r + 1}c{c + 1} is not a number "
                                f"1..{MAX_SUM}{_why_not_sum(srow[c])}")
                sum_at[r * n + c] = int(srow[c])
            labels.append(crow[c])
    sums: dict[str, int] = {}
    anchors: dict[str, int] = {}
    for cell, total in sum_at.items():
        lab = labels[cell]
        if lab in sums:
            where(None, f"cage {lab} has two sums (r{anchors[lab] // n + 1}c"
                        f"{anchors[lab] % n + 1} and r{cell // n + 1}c{cell % n + 1})")
        sums[lab] = total
        anchors[lab] = cell
    options = {k: obj[k] for k in ("givens", "box") if k in obj}
    for key, value in options.items():
        if not isinstance(value, str):
            where(None, f"'{key}' is text, not {json_text(value)}")
    g = _finish(n, labels, sums, anchors, options, where)
    if obj.get("solution") is not None and not isinstance(obj["solution"], str):  # as box
        where(None, f"'solution' is text, not {json_text(obj['solution'])}")
    if isinstance(obj.get("solution"), str):
        sl = obj["solution"].strip().split("\n")
        if _size_line(sl[0].split(), "solution", where) != n:
            where(None, f"'solution' is for another size than the {n}x{n} 'problem'")

        def in_solution(col, msg):
            where(col, f"'solution': {msg.replace('given', 'value')}")

        g.solution = _digits(" ".join(sl[1:]), n, in_solution)
    g.extra = {k: obj[k] for k in ("id", "source") if k in obj}
    return g


def parse(text: str, source: str) -> list[tuple[int, KillerGrid, dict]]:
    """Every puzzle in ``text`` as (line, grid, meta with its ``format``)."""
    out: list[tuple[int, KillerGrid, dict]] = []
    block: list[tuple[int, str]] = []

    def flush():
        if block:
            out.append((block[0][0], *parse_block(source, list(block))))
            block.clear()

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if line.startswith(";"):  # Kakuro's and Str8ts' comments; no cage label is ';'
            raise PuzzleInputError(source, no, raw.index(";") + 1,
                                   "';' starts no comment in a Killer file (comments start "
                                   "with '#')")
        if not line:
            flush()
            continue
        if not block and line.startswith("{"):
            out.append((no, parse_json(source, no, line), {"format": "json"}))
        elif not block and "/" in line.split()[0]:
            out.append((no, parse_line(source, no, line), {"format": "text"}))
        else:
            block.append((no, line))
    flush()
    if not out:
        raise no_puzzle_found(source, text)
    return out


def _digit_text(values: np.ndarray) -> str:
    return "".join(str(int(v)) if v else "." for v in values)


def _text_labels(g: KillerGrid) -> list[str]:
    """One character per cage for the text forms: the input's own labels where they are
    characters (JSON input numbers its cages). A puzzle of more cages than there are
    characters has no text form: a one-line error, as for a type without that output."""
    if all(len(x) == 1 and x in LABELS for x in g.labels):
        return list(g.labels)
    if len(g.cages) > len(LABELS):
        from csolve.errors import OptionError

        raise OptionError(f"a Killer puzzle of {len(g.cages)} cages has no text form "
                          f"(one character per cage: at most {len(LABELS)}); --output "
                          "json writes it")
    return list(LABELS[:len(g.cages)])


def _label_rows_text(g: KillerGrid, labels: list[str]) -> list[str]:
    n = g.n
    return ["".join(labels[g.cage_of[r * n + c]] for c in range(n)) for r in range(n)]


def format_text(g: KillerGrid, values: np.ndarray | None) -> str:
    """The one-line text form; ``values`` (a solution) are written as givens."""
    n = g.n
    labels = _text_labels(g)
    parts = ["/".join(_label_rows_text(g, labels)),
             *(f"{lab}={s}" for lab, s in zip(labels, g.sums, strict=True))]
    shown = g.givens if values is None else values
    if np.any(shown):
        parts.append("givens=" + _digit_text(shown))
    if g.box != default_box(n):
        parts.append(f"box={g.box[0]}x{g.box[1]}")
    return " ".join(parts)


def format_block(g: KillerGrid, values: np.ndarray | None) -> str:
    """The block text form, for reading and writing by hand: the cage rows, the sums (nine
    to a line), then the givens rows when there are any; ``values`` (a solution) are
    written as givens."""
    n = g.n
    labels = _text_labels(g)
    tokens = [f"{lab}={s}" for lab, s in zip(labels, g.sums, strict=True)]
    if g.box != default_box(n):
        tokens.append(f"box={g.box[0]}x{g.box[1]}")
    lines = _label_rows_text(g, labels)
    lines += [" ".join(tokens[i:i + 9]) for i in range(0, len(tokens), 9)]
    shown = g.givens if values is None else values
    if np.any(shown):
        digits = _digit_text(shown)
        lines += [digits[r * n:(r + 1) * n] for r in range(n)]
    return "\n".join(lines)


def format_json(g: KillerGrid, values: np.ndarray | None) -> str:
    """A JSON line of the janko.at shape; ``values`` (a solution) go in ``solution``."""
    n = g.n
    anchor_sum = {a: s for a, s in zip(g.anchors, g.sums, strict=True)}
    labels = g.labels
    lines = [f"{n} {n}"]
    for r in range(n):
        lines.append(" ".join(str(anchor_sum.get(r * n + c, "-")) for c in range(n)))
    for r in range(n):
        lines.append(" ".join(labels[g.cage_of[r * n + c]] for c in range(n)))
    obj: dict = {**{k: v for k, v in g.extra.items() if k == "id"}, "size": n,
                 "problem": "\n".join(lines)}
    if np.any(g.givens):
        obj["givens"] = _digit_text(g.givens)
    if g.box != default_box(n):
        obj["box"] = f"{g.box[0]}x{g.box[1]}"
    if values is not None:
        obj["solution"] = "\n".join([f"{n} {n}"] + [
            " ".join(str(int(v)) for v in values[r * n:(r + 1) * n]) for r in range(n)])
    return json.dumps(obj)
