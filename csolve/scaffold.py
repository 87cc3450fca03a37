"""``csolve new-plugin``: write a working plugin package to start a new puzzle type from.

The package solves Futoshiki: a Latin square of order n (every row and column holds 1..n
once) with givens and inequality signs between cells. Rows and columns are all-different
groups; the inequalities are two-cell groups carrying the plugin's own tag, read by its own
rule kernel. It has every part a plugin has: a light entry point, a PuzzleType, a rule, a
README, sample puzzles, and tests that run the contract kit (:mod:`csolve.testing`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from csolve.errors import CsolveError

NAME_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class ScaffoldError(CsolveError):
    """The plugin cannot be written (a bad name, a folder already there)."""


def names(name: str) -> dict[str, str]:
    """The names a plugin called ``name`` uses: its package, distribution, rule and tag."""
    if not NAME_RE.match(name):
        raise ScaffoldError(f"a plugin name is lower-case letters and digits, starting with a "
                            f"letter, words joined by '-' (e.g. 'futoshiki', 'my-latin'), got "
                            f"{name!r}")
    tag = 0x10000 + int(hashlib.sha1(name.encode()).hexdigest()[:6], 16)
    return {"__NAME__": name, "__PACKAGE__": "csolve_" + name.replace("-", "_"),
            "__DIST__": "csolve-" + name, "__RULE__": f"{name}-less-than",
            "__TAG__": str(tag), "__CLASS__": "".join(w.title() for w in name.split("-"))}


def _check_free(name: str, package: str) -> None:
    """Refuse a name an installed plugin uses: its entry point or package would shadow the
    other's, and neither would work."""
    import importlib.util

    from csolve.entrypoints import entry_points
    from csolve.plugins import ENTRY_POINT_GROUP, collect_named

    types, _conflicts = collect_named("csolve_register_puzzles", "puzzle type")
    if name in types or name in {e.name for e in entry_points(ENTRY_POINT_GROUP)}:
        raise ScaffoldError(f"{name!r} is taken by an installed plugin (see csolve "
                            "list-plugins); pick another name")
    if importlib.util.find_spec(package) is not None:
        raise ScaffoldError(f"a package {package} is already installed; pick another name")


def write_plugin(name: str, dest: Path) -> list[Path]:
    """Write the package for plugin ``name`` into the new folder ``dest``; returns the files."""
    subst = names(name)
    _check_free(name, subst["__PACKAGE__"])
    if dest.exists() and not dest.is_dir():
        raise ScaffoldError(f"{dest} is a file, not a folder")
    if dest.exists() and any(dest.iterdir()):
        raise ScaffoldError(f"{dest} already exists and is not empty")
    written = []
    for rel, text in FILES.items():
        for key, value in subst.items():
            rel = rel.replace(key, value)
            text = text.replace(key, value)
        path = dest / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.lstrip("\n"))
        except OSError as e:
            raise ScaffoldError(f"cannot write {path}: {e.strerror or e}") from None
        written.append(path)
    return written


PYPROJECT = '''
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "__DIST__"
version = "0.1.0"
description = "Futoshiki puzzles for csolve (the __NAME__ plugin)"
requires-python = ">=3.11"
dependencies = ["csolve"]

[project.optional-dependencies]
test = ["pytest>=8"]

# csolve finds the plugin through this entry point: a light module, so `csolve --help`
# never imports numpy for it
[project.entry-points.csolve]
__NAME__ = "__PACKAGE__.hooks"

[tool.setuptools]
packages = ["__PACKAGE__"]

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

README = '''
# __DIST__: Futoshiki for csolve

A csolve plugin (written by `csolve new-plugin __NAME__`). Futoshiki: fill an n×n grid with
1..n so that every row and column holds each value once, the givens stay, and every inequality
sign between two cells holds.

    pip install -e '.[test]'
    csolve solve __NAME__ puzzles/sample.txt
    csolve solve __NAME__ puzzles/sample.txt --count --output line
    python -m pytest

## Input

One puzzle per line: the n·n cells row by row (`1`-`9`, `.` or `0` blank), then the
inequalities as `rAcB<rCcD` or `rAcB>rCcD` (row and column from 1). Lines starting with `#`
are comments:

    ................ r1c1<r1c2 r2c3>r2c4

## What is where

| file | what |
|---|---|
| `__PACKAGE__/hooks.py` | the entry point: registers the type and the rule; nothing heavy |
| `__PACKAGE__/plugin.py` | the `PuzzleType`: parse, check, model, decode, validate, ... |
| `__PACKAGE__/rules.py` | the `__RULE__` rule: a kernel over groups tagged `LESS_THAN` |
| `__PACKAGE__/steps.py` | the rule in words, a step at a time (`explain`, `hint`, `rate`) |
| `tests/test___PACKAGE__.py` | the contract kit (`csolve.testing`) and the rule alone |
| `puzzles/sample.txt` | sample puzzles with one solution each |

The model: rows and columns are all-different groups that hold 1..n; each inequality is a
group of two cells, smaller first (a group keeps its cells' order), with `alldiff=False` and
the plugin's tag. The rule narrows the smaller cell below the larger cell's highest candidate
and the larger above the smaller's lowest. `constraint_rules` names it, so choosing other
rules with `--rules` keeps it. See csolve's docs/plugin-api.md for every part of the API.
'''

INIT = '''
"""Futoshiki puzzles for csolve."""
'''

HOOKS = '''
"""The __NAME__ plugin's entry point: its hooks, and nothing heavy.

Every `csolve` run loads every plugin (`csolve --help` too), so this module imports only
the hook marker; each hook imports the plugin's machinery when it is called.
"""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from csolve.puzzle import DeferredPuzzleType

    # by name and place: the class is imported when the type is first used, so a run of
    # another puzzle type never imports this plugin's machinery
    register(DeferredPuzzleType("__NAME__", "__PACKAGE__.plugin:__CLASS__"))


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("__RULE__", "__PACKAGE__.rules:less_than",
                  "__NAME__: the smaller cell of an inequality stays below the larger"))
'''

RULES = '''
"""The inequality rule: a numba kernel over the two-cell groups tagged ``LESS_THAN``.

A group holds (smaller, larger), in that order. The smaller cell keeps only values below the
larger cell's highest candidate; the larger keeps only values above the smaller's lowest.
"""

import numpy as np
from csolve.kernels.bits import kernel
from csolve.kernels.state import CHANGED, CONTRADICTION, NO_CHANGE, narrow

#: group tag of an inequality (any number no other rule of these models reads)
LESS_THAN = __TAG__

_ONE = np.uint64(1)


@kernel(inline="always")
def below_highest(x):
    """Every bit strictly below the highest set bit of ``x``."""
    x |= x >> np.uint64(1)
    x |= x >> np.uint64(2)
    x |= x >> np.uint64(4)
    x |= x >> np.uint64(8)
    x |= x >> np.uint64(16)
    x |= x >> np.uint64(32)
    return x >> _ONE


@kernel(inline="always")
def above_lowest(x):
    """Every bit strictly above the lowest set bit of ``x`` (none when ``x`` is 0)."""
    low = x & (~x + _ONE)
    return ~(low | (low - _ONE)) if x != np.uint64(0) else x


@kernel
def less_than(cand, m, ws):
    changed = NO_CHANGE
    for g in range(m.group_ptr.shape[0] - 1):
        if m.group_tag[g] != LESS_THAN:
            continue
        lo = m.group_ptr[g]
        a = m.group_cells[lo]
        b = m.group_cells[lo + 1]
        r = narrow(cand, ws, a, cand[a] & below_highest(cand[b]))
        if r == CONTRADICTION:
            return CONTRADICTION
        if r == CHANGED:
            changed = CHANGED
        r = narrow(cand, ws, b, cand[b] & above_lowest(cand[a]))
        if r == CONTRADICTION:
            return CONTRADICTION
        if r == CHANGED:
            changed = CHANGED
    return changed
'''

PLUGIN = '''
"""The __NAME__ PuzzleType: Futoshiki, a Latin square with givens and inequalities.

Registered (with its rule) by hooks.py. ``puzzle.data`` is a :class:`Grid`; a solution is
a flat numpy array of the n·n values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from csolve.errors import PuzzleInputError
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType
from rich.text import Text

RULE = "__RULE__"
CELL = re.compile(r"^r(\\d+)c(\\d+)$")


@dataclass
class Grid:
    n: int
    givens: np.ndarray  # int64 per cell, 0 = blank
    less: tuple[tuple[int, int], ...]  # (smaller cell, larger cell) pairs


def _cell(text: str, n: int, where) -> int:
    m = CELL.match(text)
    if not m or not (1 <= int(m[1]) <= n and 1 <= int(m[2]) <= n):
        where(f"{text!r} is not a cell r1c1..r{n}c{n}")
    return (int(m[1]) - 1) * n + int(m[2]) - 1


def parse_line(source: str, no: int, line: str) -> Grid:
    def where(message, col=None):
        raise PuzzleInputError(source, no, col, message)

    cells, *signs = line.split()
    n = round(len(cells) ** 0.5)
    if n * n != len(cells) or not 2 <= n <= 9:
        where(f"{len(cells)} cells; a puzzle has n·n of them, n from 2 to 9")
    givens = np.zeros(n * n, dtype=np.int64)
    for i, ch in enumerate(cells):
        if ch in ".0":
            continue
        if ch not in "123456789" or int(ch) > n:
            where(f"{ch!r} is not a value 1..{n} or a blank '.'", i + 1)
        givens[i] = int(ch)
    less = []
    for sign in signs:
        op = "<" if "<" in sign else ">"
        left, _, right = sign.partition(op)
        if not right:
            where(f"{sign!r} is not an inequality rAcB<rCcD or rAcB>rCcD", line.index(sign) + 1)
        a, b = _cell(left, n, where), _cell(right, n, where)
        if a == b:
            where(f"{sign!r} compares a cell with itself", line.index(sign) + 1)
        less.append((a, b) if op == "<" else (b, a))
    return Grid(n, givens, tuple(less))


class __CLASS__(PuzzleType):
    name = "__NAME__"
    description = "Futoshiki: a Latin square with givens and inequalities between cells"
    formats = ("line",)
    default_rules = ("elimination", "hidden-single", RULE)
    #: the inequalities are the puzzle's own constraint: kept whatever rules are chosen
    constraint_rules = (RULE,)
    #: how hard a person finds the rule's steps (``csolve list-tactics``, ``rate``)
    tactic_levels: ClassVar[dict[str, str]] = {RULE: "easy"}

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        out = []
        for no, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line and not line.startswith("#"):
                grid = parse_line(source, no, line)
                out.append(Puzzle(self.name, source, no, len(out), grid, "line"))
        return out

    def check(self, puzzle: Puzzle) -> None:
        g: Grid = puzzle.data
        problems = _problems(g, g.givens, complete=False)
        if problems:
            raise PuzzleInputError(puzzle.source, puzzle.line, None,
                                   f"conflicting givens: {problems[0]}")

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        from .rules import LESS_THAN

        g: Grid = puzzle.data
        n = g.n
        b = ModelBuilder(n * n, n)
        for i in range(n):
            b.add_group([i * n + j for j in range(n)], required=range(1, n + 1), family=1)
            b.add_group([j * n + i for j in range(n)], required=range(1, n + 1), family=2)
        for small, large in g.less:
            b.add_group([small, large], alldiff=False, tag=LESS_THAN)
        for cell in np.flatnonzero(g.givens):
            b.restrict(int(cell), [int(g.givens[cell])])
        chosen = tuple(rules or self.default_rules)
        chosen += tuple(r for r in self.constraint_rules if r not in chosen)
        return b.build(chosen, key=f"__NAME__-{n}-{g.less}-{chosen}")

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        return np.array([int(m).bit_length() if int(m) & (int(m) - 1) == 0 else 0
                         for m in masks], dtype=np.int64)

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        g: Grid = puzzle.data
        if np.shape(solution) != (g.n * g.n,):
            return [f"expected {g.n * g.n} cells, got {np.shape(solution)}"]
        problems = _problems(g, solution, complete=True)
        for c in np.flatnonzero((g.givens > 0) & (solution != g.givens)):
            problems.append(f"given {_name(g.n, c)}={g.givens[c]} was changed")
        return problems

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: Grid = puzzle.data
        values = g.givens if solution is None else solution
        cells = "".join(str(int(v)) if v else "." for v in values)
        return " ".join([cells, *(f"{_name(g.n, a)}<{_name(g.n, b)}" for a, b in g.less)])

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        return solution.reshape(puzzle.data.n, -1).tolist()

    def render(self, puzzle: Puzzle, solution: np.ndarray | None) -> Text:
        g: Grid = puzzle.data
        values = g.givens if solution is None else solution
        out = Text()
        for r in range(g.n):
            for c in range(g.n):
                v = int(values[r * g.n + c])
                out.append(f" {v if v else '.'}",
                           style="bold" if g.givens[r * g.n + c] else "cyan")
            out.append("\\n")
        out.append(" ".join(f"{_name(g.n, a)}<{_name(g.n, b)}" for a, b in g.less), style="dim")
        return out

    def is_complete(self, puzzle: Puzzle) -> bool:
        return bool((puzzle.data.givens > 0).all())

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        return puzzle.data.givens.copy()

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        return _name(puzzle.data.n, cell)

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        """The model's groups in :meth:`model`'s order: row and column i, then the
        inequalities."""
        n = puzzle.data.n
        if group < 2 * n:
            return f"{'row' if group % 2 == 0 else 'column'} {group // 2 + 1}"
        a, b = puzzle.data.less[group - 2 * n]
        return f"{_name(n, a)}<{_name(n, b)}"

    def step_finders(self) -> dict:
        from .steps import less_than

        return {RULE: less_than}


def _name(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _problems(g: Grid, values: np.ndarray, complete: bool) -> list[str]:
    """Rule breaks among ``values`` (0 = blank): repeats, unmet inequalities, and with
    ``complete`` values out of range."""
    n = g.n
    grid = np.asarray(values).reshape(n, n)
    problems = []
    for name, lines in (("row", grid), ("column", grid.T)):
        for i, line in enumerate(lines, 1):
            filled = [int(v) for v in line if v]
            if len(set(filled)) != len(filled):
                problems.append(f"a value repeats in {name} {i}")
            if complete and sorted(filled) != list(range(1, n + 1)):
                problems.append(f"{name} {i} does not hold 1..{n} once each")
    flat = grid.reshape(-1)
    for a, b in g.less:
        if flat[a] and flat[b] and not flat[a] < flat[b]:
            problems.append(f"{_name(n, a)}={flat[a]} is not less than {_name(n, b)}={flat[b]}")
    return problems
'''

STEPS = '''
"""Explanations for ``csolve explain``, ``hint`` and ``rate``: the __RULE__ rule
in words, one inequality at a time (without it they would guess where the kernel
deduces)."""

from __future__ import annotations

from collections.abc import Iterator

from csolve.logic import Board, Step, bits

from .rules import LESS_THAN


def less_than(b: Board) -> Iterator[Step]:
    """The kernel's deductions: the smaller cell keeps the values below the larger cell's
    highest candidate, the larger those above the smaller's lowest."""
    nb = b.namer
    for g, (small, large), _param in b.tagged(LESS_THAN):
        lows, highs = b.cand[small], b.cand[large]  # the two cells' candidates
        if not lows or not highs:
            continue
        below = (1 << (highs.bit_length() - 1)) - 1
        above = ~(((lows & -lows) << 1) - 1)
        removed = ([(small, v) for v in bits(lows & ~below)]
                   + [(large, v) for v in bits(highs & ~above)])
        if removed:
            yield Step("__RULE__", removed=removed, cells=[small, large], groups=[g],
                       level="easy", text=f"{nb.cell(small)} < {nb.cell(large)}: "
                                          f"{nb.losses(removed)}")


def crossed(b: Board) -> Step | None:
    """An inequality no values fit any more: the step that ends an explanation with why
    the puzzle has no solution (asked before every step)."""
    nb = b.namer
    for g, (small, large), _param in b.touched(LESS_THAN):  # the changed groups only
        lows, highs = b.cand[small], b.cand[large]
        if lows and highs and (lows & -lows).bit_length() >= highs.bit_length():
            removed = [(small, v) for v in bits(lows)] + [(large, v) for v in bits(highs)]
            why = f"no values fit {nb.cell(small)} < {nb.cell(large)}"
            return Step("__RULE__", removed=removed, cells=[small, large], groups=[g],
                        level="easy", broken=why, text=f"{why}: {nb.losses(removed)}")
    return None


less_than.contradiction = crossed
'''

SAMPLE = '''
# Futoshiki puzzles, one per line: cells row by row ('.' blank), then inequalities
2............... r4c1<r4c2 r3c2>r3c3 r3c4>r4c4 r1c1<r2c1 r2c1<r2c2
......................... r4c2>r5c2 r1c2>r1c3 r3c3<r4c3 r2c4<r3c4 r5c4<r5c5 r2c2>r2c3 \
r3c4>r3c5 r3c4<r4c4 r1c4<r2c4 r2c3>r3c3 r4c5>r5c5
'''

TESTS = '''
"""The __NAME__ plugin keeps csolve's plugin contract (csolve.testing) and its rule works."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
from csolve.puzzle import get_puzzle_type
from csolve.testing import check_puzzle_type

HERE = Path(__file__).resolve().parent.parent
SAMPLE = (HERE / "puzzles" / "sample.txt").read_text()
SOLUTIONS = """\
2134342142131342
3421525431531421235441523
"""


def installed() -> bool:
    """The package is installed (its entry point is there), not only importable."""
    return any(ep.name == "__NAME__" for ep in entry_points(group="csolve"))


def test_the_plugin_keeps_the_contract():
    check_puzzle_type(
        get_puzzle_type("__NAME__"), SAMPLE, solutions=SOLUTIONS,
        open_puzzle="......... r1c1<r1c2\\n",
        bad_input="..x...... r1c1<r1c2\\n",
        conflicting="11....... r1c1<r1c2\\n",
        entry_point="__NAME__" if installed() else None,
    )


def test_inequalities_decide_a_grid_the_givens_alone_do_not():
    ptype = get_puzzle_type("__NAME__")
    (free,) = ptype.parse("....\\n", "<t>")
    (tied,) = ptype.parse(".... r1c1<r1c2\\n", "<t>")
    import csolve

    assert csolve.count(ptype, free).count == 2
    r = csolve.count(ptype, tied)
    assert r.count == 1 and list(r.solutions[0]) == [1, 2, 2, 1]


def test_explain_and_rate_use_the_rule_not_guesses():
    """Every sample puzzle is explained without a guess, each step of the rule removes no
    value of the solution, and the last step leaves the solution."""
    import csolve

    ptype = get_puzzle_type("__NAME__")
    for puzzle, line in zip(ptype.parse(SAMPLE, "<sample>"), SOLUTIONS.split(), strict=True):
        steps = csolve.explain(ptype, puzzle)
        assert steps and all(s.tactic != "guess" for s in steps)
        solution = [int(ch) for ch in line]
        for s in steps:
            assert all(solution[c] != v for c, v in s.removed)
        assert csolve.rate(ptype, puzzle).level != "evil"


def test_the_rule_alone_narrows_both_cells():
    from csolve.kernels.workspace import new_workspace
    from csolve.model import ModelBuilder

    from __PACKAGE__.rules import LESS_THAN, less_than

    b = ModelBuilder(2, 4)
    b.add_group([0, 1], alldiff=False, tag=LESS_THAN)
    model = b.build(("__RULE__",))
    cand = model.init.copy()
    cand[1] = np.uint64(0b0110)  # the larger cell: 2 or 3
    less_than(cand, model.kernel, new_workspace(2))
    assert int(cand[0]) == 0b0011  # the smaller cell: 1 or 2
    assert int(cand[1]) == 0b0110
'''

FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": README,
    "__PACKAGE__/__init__.py": INIT,
    "__PACKAGE__/hooks.py": HOOKS,
    "__PACKAGE__/rules.py": RULES,
    "__PACKAGE__/plugin.py": PLUGIN,
    "__PACKAGE__/steps.py": STEPS,
    "puzzles/sample.txt": SAMPLE,
    "tests/test___PACKAGE__.py": TESTS,
}
