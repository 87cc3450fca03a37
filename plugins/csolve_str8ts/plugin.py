"""The Str8ts plugin's PuzzleType (registered, with its straight rule, by hooks.py).

The model: one cell per white square and per black square holding a digit (fixed); each row
and column is an all-different group over its cells; each compartment of two or more white
cells is a group tagged ``STRAIGHT`` whose ``param`` is the index of its row or column
group, read by the ``str8ts-straight`` rule (rules.py). Nothing here is known to the core.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import ClassVar

import numpy as np

from csolve.errors import PuzzleInputError
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType, shape_words
from csolve.rowgrid import in_format, row_line

from . import grid as sgrid
from .grid import BLACK, WHITE, Str8tsGrid

DEFAULT_RULES = ("elimination", "str8ts-straight")


@lru_cache(maxsize=64)
def _model(structure: tuple, rules: tuple[str, ...]) -> Model:
    from .rules import STRAIGHT

    n, kind, holds = structure
    g = Str8tsGrid(n, np.frombuffer(kind, dtype=np.int8).reshape(n, n),
                   np.frombuffer(holds, dtype=np.bool_).reshape(n, n).astype(np.int64))
    cells = g.cells()
    index = {rc: i for i, rc in enumerate(cells)}
    b = ModelBuilder(len(cells), n)
    lines = {}
    for name, transpose in (("row", False), ("column", True)):
        for i in range(n):
            members = [index[(j, i) if transpose else (i, j)] for j in range(n)
                       if ((j, i) if transpose else (i, j)) in index]
            lines[(name, i)] = b.add_group(members, required=None)
    for name, i, run in g.compartments():
        if len(run) > 1:
            b.add_group([index[rc] for rc in run], alldiff=False, tag=STRAIGHT,
                        param=lines[(name, i)])
    key = hashlib.sha1(repr((structure, rules)).encode()).hexdigest()
    return b.build(rules, key=f"str8ts-{key}", meta={"n": n})


def _problems_in_lines(g: Str8tsGrid, grid: np.ndarray) -> list[tuple[str, int]]:
    """Each digit repeated in a row or column (its two cells named as Sudoku names them),
    and the row where it repeats."""
    problems = []
    n = g.n

    def cell(line: int, k: int, transpose: bool) -> str:
        r, c = (k, line) if transpose else (line, k)
        return f"r{r + 1}c{c + 1}"

    for name, transpose in (("row", False), ("column", True)):
        for i in range(n):
            seen: dict[int, int] = {}
            for j in range(n):
                v = int(grid[j, i] if transpose else grid[i, j])
                if v == 0:
                    continue
                if v in seen:
                    problems.append((f"value {v} twice in {name} {i + 1} "
                                     f"({cell(i, seen[v], transpose)} and "
                                     f"{cell(i, j, transpose)})", j if transpose else i))
                seen[v] = j
    return problems


class Str8ts(PuzzleType):
    name = "str8ts"
    description = ("Str8ts: no digit repeats in a row or column; each compartment of white "
                   "cells holds consecutive digits")
    formats = ("text", "json")
    comment = ";"  # "#" is a black cell
    default_rules = DEFAULT_RULES
    constraint_rules = ("str8ts-straight",)

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        return [Puzzle(self.name, source, line, i, g, meta["format"], meta)
                for i, (line, g, meta) in enumerate(
                    in_format(sgrid.parse(text, source), fmt, source))]

    def check(self, puzzle: Puzzle) -> None:
        g: Str8tsGrid = puzzle.data
        problems = _problems_in_lines(g, g.values)
        if problems:
            message, row = problems[0]
            raise PuzzleInputError(puzzle.source, row_line(puzzle, row), None,
                                   f"conflicting givens: {message}")

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        g: Str8tsGrid = puzzle.data
        base = _model(g.structure(), tuple(rules or self.default_rules))
        full = (1 << g.n) - 1
        init = np.array([(1 << (int(g.values[rc]) - 1)) if g.values[rc] else full
                         for rc in g.cells()], dtype=np.uint64)
        return base.with_init(init)

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> np.ndarray:
        g: Str8tsGrid = puzzle.data
        out = np.zeros((g.n, g.n), dtype=np.int64)
        for i, rc in enumerate(g.cells()):
            m = int(masks[i])
            out[rc] = m.bit_length() if m and m & (m - 1) == 0 else 0
        return out

    def validate(self, puzzle: Puzzle, solution: np.ndarray) -> list[str]:
        g: Str8tsGrid = puzzle.data
        n = g.n
        if solution.shape != (n, n):
            return [f"expected a {n}x{n} grid, got {shape_words(solution)}"]
        problems = []
        for r in range(n):
            for c in range(n):
                v, want = int(solution[r, c]), int(g.values[r, c])
                where = f"r{r + 1}c{c + 1}"
                if g.kind[r, c] == BLACK:
                    if v != want:
                        problems.append(f"black cell {where} must hold {want or 'nothing'}, "
                                        f"not {v}")
                elif v == 0:  # blank, or black in the grid checked
                    problems.append(f"white cell {where} holds no digit")
                elif not 1 <= v <= n:
                    problems.append(f"white cell {where} holds {v}, not a digit 1..{n}")
                elif want and v != want:
                    problems.append(f"given {where}={want} was changed to {v}")
        problems += [message for message, _row in _problems_in_lines(g, solution)]
        for name, i, run in g.compartments():
            vals = sorted(int(solution[rc]) for rc in run)
            if vals and vals[-1] - vals[0] != len(vals) - 1:
                problems.append(f"compartment of {name} {i + 1} from "
                                f"r{run[0][0] + 1}c{run[0][1] + 1} holds "
                                f"{', '.join(map(str, vals))}, not a straight")
        return problems

    def format_line(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: Str8tsGrid = puzzle.data
        return sgrid.format_line(g, np.where(g.kind == WHITE, g.values, 0)
                                 if solution is None else solution)

    def format_grid(self, puzzle: Puzzle, solution: np.ndarray | None) -> str:
        g: Str8tsGrid = puzzle.data
        return sgrid.format_grid(g, np.where(g.kind == WHITE, g.values, 0)
                                 if solution is None else solution)

    def to_svg(self, puzzle: Puzzle, solution: np.ndarray | None, step=None, *,
               candidates=None, placed=None) -> str:
        from .pictures import str8ts_svg

        model = self.model(puzzle) if step is not None else None
        return str8ts_svg(puzzle, solution, step, candidates, placed, model)

    def to_json(self, puzzle: Puzzle, solution: np.ndarray) -> list[list[int]]:
        return solution.tolist()

    def render(self, puzzle: Puzzle, solution: np.ndarray | None):
        from .render import render_grid

        return render_grid(puzzle.data, solution)

    def is_complete(self, puzzle: Puzzle) -> bool:
        g: Str8tsGrid = puzzle.data
        return bool((g.values[g.kind == WHITE] > 0).all())

    def as_solution(self, puzzle: Puzzle) -> np.ndarray:
        return puzzle.data.values.copy()

    # --- explanations and grading (docs/tactics.md) ---------------------------------------
    #: all-different tactics that work on rows and columns (which need not hold every value,
    #: so hidden subsets and fish never apply), with the straight rule second
    tactics = ("elimination", "str8ts-straight", "naked-pair", "naked-triple", "naked-quad")
    #: the straight rule's own steps are easy (ranges) or medium (sure values; steps.py)
    tactic_levels: ClassVar[dict[str, str]] = {
        "str8ts-straight": "medium", "naked-pair": "hard", "naked-triple": "expert",
        "naked-quad": "expert"}

    def cell_values(self, puzzle: Puzzle, solution: np.ndarray) -> list[int]:
        return [int(solution[rc]) for rc in puzzle.data.cells()]

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        r, c = puzzle.data.cells()[cell]
        return f"r{r + 1}c{c + 1}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        # rows, then columns, then compartments of two or more cells (see _model)
        g: Str8tsGrid = puzzle.data
        if group < 2 * g.n:
            return f"{('row', 'column')[group // g.n]} {group % g.n + 1}"
        runs = [run for _name, _i, run in g.compartments() if len(run) > 1]
        run = runs[group - 2 * g.n]
        (r0, c0), (r1, c1) = run[0], run[-1]
        return f"compartment r{r0 + 1}c{c0 + 1}-r{r1 + 1}c{c1 + 1}"

    def step_finders(self) -> dict:
        from .steps import straight

        return {"str8ts-straight": straight}

    def check_generate(self, options):
        from .generate import check_options

        check_options(options)

    def generate(self, options, rng, ctrl=None):
        from .generate import generate

        return generate(options, rng, ctrl)

    def clue_count(self, puzzle: Puzzle) -> int:
        """Given digits in white cells (black cells' digits are part of the layout)."""
        g: Str8tsGrid = puzzle.data
        return int(((g.kind == WHITE) & (g.values > 0)).sum())
