"""A logic stepper: the all-different tactics one deduction at a time, in words.

The kernels propagate as fast as they can and say nothing; this module finds the same
deductions one by one on Python ints (fast enough for explaining and grading: a 9x9 takes
milliseconds) and records each as a :class:`Step` naming the tactic, the cells, the values
placed or removed and the groups involved. Tests check that every tactic here reaches the
same fixpoint as its kernel. Plugins name cells and groups (``PuzzleType.cell_name`` /
``group_name``) and may add finders for their own tactics (``PuzzleType.step_finders``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from csolve.model import Model

#: Tactic names are rule names; these are how a step calls them.
LABELS = {
    "elimination": "naked single", "hidden-single": "hidden single",
    "locked-candidates": "locked candidates",
    "naked-pair": "naked pair", "naked-triple": "naked triple", "naked-quad": "naked quad",
    "hidden-pair": "hidden pair", "hidden-triple": "hidden triple", "hidden-quad": "hidden quad",
    "x-wing": "X-wing", "swordfish": "swordfish", "jellyfish": "jellyfish", "xy-wing": "XY-wing",
    "guess": "guess", "contradiction": "contradiction",
}


def bits(mask: int) -> list[int]:
    """Values (1-based) in a mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


@dataclass
class Step:
    """One deduction: values placed and/or candidates removed, and why."""

    tactic: str
    placed: list[tuple[int, int]] = field(default_factory=list)  # (cell, value)
    removed: list[tuple[int, int]] = field(default_factory=list)  # (cell, value)
    cells: list[int] = field(default_factory=list)  # the cells the pattern is made of
    values: list[int] = field(default_factory=list)  # the pattern's values
    groups: list[int] = field(default_factory=list)  # the groups it lives in
    text: str = ""
    #: a finder may grade the step itself (e.g. a sum step that needs only the run's
    #: combinations is easier than one that needs its cells' candidates); None: the
    #: tactic's level (:func:`csolve.grading.step_level`)
    level: str | None = None
    #: a step that shows the board has no solution says why here, in a few words
    #: (``no combination of 2 digits adding up to 3 fits run r2c3-r3c3``)
    broken: str | None = None

    def to_json(self, namer: Namer, level: str | None = None) -> dict:
        """The step as JSON; ``level``: its tactic's level, where the finder gave none."""
        out = {
            "tactic": self.tactic, "text": self.text,
            "placed": [{"cell": namer.cell(c), "value": v} for c, v in self.placed],
            "removed": [{"cell": namer.cell(c), "value": v} for c, v in self.removed],
            "cells": [namer.cell(c) for c in self.cells], "values": self.values,
            "groups": [namer.group(g) for g in self.groups],
        }
        if self.level or level:  # a finder's own grade of the step comes first
            out["level"] = self.level or level
        return out


class Namer:
    """Names of cells, groups and values, from the puzzle's plugin (a 16x16 Sudoku writes
    value 12 as ``C``: its explanations should too)."""

    def __init__(self, cell: Callable[[int], str], group: Callable[[int], str],
                 value: Callable[[int], str] = str) -> None:
        self.cell = cell
        self.group = group
        self.value = value

    def values(self, mask_or_values) -> str:
        """'{1,C}': a candidate mask or a list of values, as the puzzle writes them."""
        return vals(mask_or_values, self.value)

    def cells(self, cells: Sequence[int]) -> str:
        return ", ".join(self.cell(c) for c in cells)

    def removals(self, removed: Sequence[tuple[int, int]]) -> str:
        """'4 from r1c3, r1c7; 9 from r1c8' - removals grouped by value."""
        by_value: dict[int, list[int]] = {}
        for c, v in removed:
            by_value.setdefault(v, []).append(c)
        return "; ".join(f"{self.value(v)} from {self.cells(cs)}"
                         for v, cs in sorted(by_value.items()))

    def losses(self, removed: Sequence[tuple[int, int]]) -> str:
        """'r3c4 loses 3; r3c5 loses 1, 2' - removals grouped by cell."""
        by_cell: dict[int, list[int]] = {}
        for c, v in removed:
            by_cell.setdefault(c, []).append(v)
        return "; ".join(f"{self.cell(c)} loses {', '.join(map(self.value, sorted(vs)))}"
                         for c, vs in by_cell.items())


def vals(mask_or_values, name: Callable[[int], str] = str) -> str:
    """'{1,2}': a candidate mask or a list of values, each written by ``name``."""
    vs = bits(mask_or_values) if isinstance(mask_or_values, int) else list(mask_or_values)
    return "{" + ",".join(map(name, vs)) + "}"


class Board:
    """Candidates (Python ints) over a model's groups; what finders read and steps change."""

    def __init__(self, model: Model, namer: Namer) -> None:
        km = model.kernel
        self.model = model
        self.namer = namer
        self.n_values = int(km.n_values)
        gp, gc = km.group_ptr, km.group_cells
        self.groups = [[int(c) for c in gc[gp[g]:gp[g + 1]]] for g in range(len(gp) - 1)]
        self.required = [int(r) for r in km.group_required]
        self.alldiff = [bool(f & 1) for f in km.group_flags]
        self.family = [int(f) for f in km.group_family]
        self.rank = [int(r) for r in km.group_rank]
        fp, fg = km.family_ptr, km.family_groups
        self.families = [[int(g) for g in fg[fp[f]:fp[f + 1]]] for f in range(len(fp) - 1)]
        pp, pe = km.peer_ptr, km.peers
        self.peers = [[int(p) for p in pe[pp[c]:pp[c + 1]]] for c in range(len(pp) - 1)]
        cgp, cg = km.cell_group_ptr, km.cell_groups
        self.cell_groups = [[int(g) for g in cg[cgp[c]:cgp[c + 1]]]
                            for c in range(len(cgp) - 1)]
        self.overlaps = []
        for o in range(km.ov_groups.shape[0]):
            def sl(p, a, o=o):
                return [int(x) for x in a[p[o]:p[o + 1]]]

            self.overlaps.append((int(km.ov_groups[o, 0]), int(km.ov_groups[o, 1]),
                                  sl(km.ov_inter_ptr, km.ov_inter), sl(km.ov_a_ptr, km.ov_a),
                                  sl(km.ov_b_ptr, km.ov_b)))
        self.cand = [int(x) for x in model.init]
        self.placed = [False] * len(self.cand)
        self.contradiction: str | None = None  # a step's reason there is no solution
        #: cells whose candidates changed since the stepper last looked for contradictions
        self.dirty: set[int] = set(range(len(self.cand)))

    def tagged(self, tag: int) -> Iterator[tuple[int, list[int], int]]:
        """(group, its cells, its parameter) of every group a plugin's rule tagged ``tag``
        (a Kakuro run and its sum, a Str8ts compartment and its line)."""
        km = self.model.kernel
        for g, cells in enumerate(self.groups):
            if int(km.group_tag[g]) == tag:
                yield g, cells, int(km.group_param[g])

    def touched(self, tag: int) -> Iterator[tuple[int, list[int], int]]:
        """:meth:`tagged`'s groups that hold a cell changed since the stepper last looked for
        contradictions (all of them the first time), in group order: a contradiction check
        need look at no other."""
        km = self.model.kernel
        groups = {g for c in self.dirty for g in self.cell_groups[c]
                  if int(km.group_tag[g]) == tag}
        for g in sorted(groups):
            yield g, self.groups[g], int(km.group_param[g])

    def group_of(self, cell: int, family: int) -> int:
        for g in self.cell_groups[cell]:
            if self.family[g] == family:
                return g
        return -1

    def apply(self, step: Step, settle: bool = True) -> None:
        """Make a step's changes; ``settle`` also removes each placed value from its peers
        (what a person does when writing a value in)."""
        if step.broken and self.contradiction is None:
            self.contradiction = step.broken
        for c, v in step.removed:
            self.cand[c] &= ~(1 << (v - 1))
            self.dirty.add(c)
        for c, v in step.placed:
            self.cand[c] = 1 << (v - 1)
            self.dirty.add(c)
        if settle:
            for c, _v in step.placed:
                self.settle(c)

    def changes(self, step: Step) -> bool:
        """Whether ``step`` would change the board: a step that does not, taken, would be
        found again and again, and the explanation would never end."""
        return (any(self.cand[c] >> (v - 1) & 1 for c, v in step.removed)
                or any(not self.placed[c] or self.cand[c] != 1 << (v - 1)
                       for c, v in step.placed))

    def settle(self, c: int) -> None:
        self.placed[c] = True
        x = self.cand[c]
        for p in self.peers[c]:
            if self.cand[p] & x:
                self.cand[p] &= ~x
                self.dirty.add(p)

    def solved(self) -> bool:
        return all(x and not x & (x - 1) for x in self.cand)

    def broken(self) -> str | None:
        """Why the state is impossible, or None."""
        if self.contradiction is not None:
            return self.contradiction
        for c, x in enumerate(self.cand):
            if x == 0:
                return f"{self.namer.cell(c)} has no candidate left"
        for g, cells in enumerate(self.groups):
            have = 0
            for c in cells:
                have |= self.cand[c]
            miss = self.required[g] & ~have
            if miss:
                return f"{self.namer.group(g)} has no place for {bits(miss)[0]}"
        return None


#: A finder may also carry ``finder.contradiction(board) -> Step | None``: the step (every
#: value taken from some cells) that shows the board has no solution by its rule, looked
#: for before every step, so that steps stop where the rule is broken (a Kakuro sum that no
#: digits can make) rather than go on with singles that break it.
Finder = Callable[[Board], Iterator[Step]]


def naked_single(b: Board) -> Iterator[Step]:
    for c, x in enumerate(b.cand):
        if not b.placed[c] and x and not x & (x - 1):
            v = x.bit_length()
            # only a step when it tells something: the value is still a candidate of a peer
            yield Step("elimination", placed=[(c, v)], cells=[c], values=[v],
                       text=f"{b.namer.cell(c)} = {b.namer.value(v)}: naked single (its only "
                            "candidate)")


def hidden_single(b: Board) -> Iterator[Step]:
    for g, cells in enumerate(b.groups):
        req = b.required[g]
        if not req:
            continue
        once = twice = 0
        for c in cells:
            x = b.cand[c]
            twice |= once & x
            once |= x
        lone = once & ~twice & req
        for v in bits(lone):
            vb = 1 << (v - 1)
            c = next(c for c in cells if b.cand[c] & vb)
            if b.cand[c] != vb:
                yield Step("hidden-single", placed=[(c, v)], cells=[c], values=[v], groups=[g],
                           text=f"{b.namer.cell(c)} = {b.namer.value(v)}: hidden single in "
                                f"{b.namer.group(g)}")


def locked_candidates(b: Board) -> Iterator[Step]:
    for ga, gb, inter, rest_a, rest_b in b.overlaps:
        for base, other, rest_base, rest_other in ((ga, gb, rest_a, rest_b),
                                                    (gb, ga, rest_b, rest_a)):
            ui = 0
            for c in inter:
                ui |= b.cand[c]
            ub = 0
            for c in rest_base:
                ub |= b.cand[c]
            only = ui & b.required[base] & ~ub
            for v in bits(only):
                vb = 1 << (v - 1)
                removed = [(c, v) for c in rest_other if b.cand[c] & vb]
                if removed:
                    nb = b.namer
                    yield Step("locked-candidates", removed=removed,
                               cells=[c for c in inter if b.cand[c] & vb], values=[v],
                               groups=[base, other],
                               text=f"locked candidates: {nb.value(v)} in {nb.group(base)} can "
                                    f"only go where it meets {nb.group(other)}, so it leaves "
                                    f"the rest of {nb.group(other)}: removes "
                                    f"{nb.removals(removed)}")


def _naked(k: int, name: str) -> Finder:
    def find(b: Board) -> Iterator[Step]:
        for g, cells in enumerate(b.groups):
            if not b.alldiff[g]:
                continue
            open_ = [c for c in cells if 2 <= b.cand[c].bit_count() <= k]
            for combo in combinations(open_, k):
                u = 0
                for c in combo:
                    u |= b.cand[c]
                if u.bit_count() != k:
                    continue
                removed = [(c, v) for c in cells if c not in combo
                           for v in bits(b.cand[c] & u)]
                if removed:
                    nb = b.namer
                    yield Step(name, removed=removed, cells=list(combo), values=bits(u),
                               groups=[g],
                               text=f"{LABELS[name]} {nb.values(u)} in {nb.group(g)} "
                                    f"({nb.cells(combo)}) removes {nb.removals(removed)}")
    return find


def _hidden(k: int, name: str) -> Finder:
    def find(b: Board) -> Iterator[Step]:
        for g, cells in enumerate(b.groups):
            req = b.required[g]
            if not req or not b.alldiff[g]:
                continue
            places = {}
            for v in bits(req):
                vb = 1 << (v - 1)
                where = [c for c in cells if b.cand[c] & vb]
                if 2 <= len(where) <= k:
                    places[v] = where
            for combo in combinations(sorted(places), k):
                where = sorted({c for v in combo for c in places[v]})
                if len(where) != k:
                    continue
                keep = 0
                for v in combo:
                    keep |= 1 << (v - 1)
                removed = [(c, v) for c in where for v in bits(b.cand[c] & ~keep)]
                if removed:
                    nb = b.namer
                    yield Step(name, removed=removed, cells=where, values=list(combo),
                               groups=[g],
                               text=f"{LABELS[name]} {nb.values(combo)} in {nb.group(g)} "
                                    f"({nb.cells(where)}) removes {nb.removals(removed)}")
    return find


def _fish(k: int, name: str) -> Finder:
    def find(b: Board) -> Iterator[Step]:
        fams = range(1, len(b.families))
        for fa in fams:
            for fb in fams:
                if fa == fb or len(b.families[fb]) > 64:
                    continue
                for v in range(1, b.n_values + 1):
                    vb = 1 << (v - 1)
                    bases = []
                    for g in b.families[fa]:
                        if not b.required[g] & vb or not b.alldiff[g]:
                            continue
                        covers = set()
                        ok = True
                        for c in b.groups[g]:
                            if b.cand[c] & vb:
                                cg = b.group_of(c, fb)
                                if cg < 0 or not b.alldiff[cg]:
                                    ok = False
                                    break
                                covers.add(cg)
                        if ok and 2 <= len(covers) <= k:
                            bases.append((g, covers))
                    for combo in combinations(bases, k):
                        covers = set().union(*(cv for _, cv in combo))
                        if len(covers) != k:
                            continue
                        base_groups = [g for g, _ in combo]
                        removed = [(c, v) for cg in sorted(covers, key=b.rank.__getitem__)
                                   for c in b.groups[cg]
                                   if b.cand[c] & vb and b.group_of(c, fa) not in base_groups]
                        if removed:
                            nb = b.namer
                            cover_list = sorted(covers, key=b.rank.__getitem__)
                            yield Step(
                                name, removed=removed, values=[v],
                                cells=[c for g in base_groups for c in b.groups[g]
                                       if b.cand[c] & vb],
                                groups=base_groups + cover_list,
                                text=f"{LABELS[name]} on {nb.value(v)}: "
                                     f"{', '.join(nb.group(g) for g in base_groups)} hold it "
                                     f"only in {', '.join(nb.group(g) for g in cover_list)}; "
                                     f"removes {nb.removals(removed)}")
    return find


FINDERS: dict[str, Finder] = {
    "elimination": naked_single,
    "hidden-single": hidden_single,
    "locked-candidates": locked_candidates,
    "naked-pair": _naked(2, "naked-pair"), "naked-triple": _naked(3, "naked-triple"),
    "naked-quad": _naked(4, "naked-quad"),
    "hidden-pair": _hidden(2, "hidden-pair"), "hidden-triple": _hidden(3, "hidden-triple"),
    "hidden-quad": _hidden(4, "hidden-quad"),
    "x-wing": _fish(2, "x-wing"), "swordfish": _fish(3, "swordfish"),
    "jellyfish": _fish(4, "jellyfish"),
}


class Stepper:
    """Solve a model one explained step at a time, easiest tactic first.

    After every step it starts again from the first tactic (as Mishra, Goel & Nikhitha 2021
    do, §4.2), so the tactic of each step is the easiest one that makes progress. When none
    does, it guesses: the cell with the fewest candidates takes its value in ``solution`` (the
    search's answer), or the smallest candidate when no solution is known. With ``may_guess``
    false it stops there instead: on a puzzle with no solution a guess proves nothing, and the
    steps after one would fill cells that no solution has.
    """

    def __init__(self, model: Model, tactics: Sequence[str], namer: Namer,
                 finders: dict[str, Finder] | None = None,
                 solution: Sequence[int] | None = None,
                 missing_ok: Sequence[str] = (), unique: bool = False,
                 may_guess: bool = True) -> None:
        self.may_guess = may_guess
        self.finders = {**FINDERS, **(finders or {})}
        #: tactics left out for want of a step-by-step form (their deductions become guesses)
        self.skipped = [t for t in tactics if t not in self.finders and t in missing_ok]
        tactics = [t for t in tactics if t not in self.skipped]
        unknown = [t for t in tactics if t not in self.finders]
        if unknown:
            from csolve.errors import UnknownNameError

            raise UnknownNameError(f"no step-by-step form for tactic(s) {', '.join(unknown)}; "
                                   f"known: {', '.join(self.finders)}")
        self.tactics = list(dict.fromkeys(["elimination", *tactics]))
        self.contradictions = [check for t in self.tactics
                               if (check := getattr(self.finders[t], "contradiction", None))]
        self.board = Board(model, namer)
        self.solution = list(solution) if solution is not None else None
        #: ``solution`` is the only one: every step must agree with it (a step that does
        #: not is a tactic's bug, named, never shown as an explanation)
        self.unique = unique and self.solution is not None
        b = self.board
        # givens: written in without a step (only they: a cell they leave with one
        # candidate is a naked single, a step of its own)
        for c in [c for c, x in enumerate(b.cand) if x and not x & (x - 1)]:
            b.settle(c)

    def next_step(self) -> Step | None:
        """The next step (already applied), or None when solved or stuck for good."""
        b = self.board
        if b.broken():
            return None
        for check in self.contradictions:
            step = check(b)
            if step is not None:
                self._check_sound(step, check)
                b.apply(step)
                return step
        b.dirty.clear()
        if b.solved() and all(b.placed):
            return None
        for t in self.tactics:
            for step in self.finders[t](b):
                if not b.changes(step):  # a finder's bug that would repeat forever
                    continue
                self._check_sound(step, self.finders[t])
                b.apply(step)
                return step
        return self._guess()

    def _check_sound(self, step: Step, finder: Callable) -> None:
        """Refuse a step that contradicts the puzzle's only solution, naming the finder."""
        if not self.unique:
            return
        sol, name = self.solution, self.board.namer
        wrong = next((f"places {name.cell(c)} = {name.value(v)}, where the only solution has "
                      f"{name.value(sol[c])}" for c, v in step.placed if v != sol[c]), None)
        wrong = wrong or next((f"removes {name.value(v)} from {name.cell(c)}, the only "
                               f"solution's value there" for c, v in step.removed
                               if v == sol[c]), None)
        if wrong is None and step.broken:
            wrong = f"says there is no solution ({step.broken}), but there is one"
        if wrong is not None:
            from csolve.errors import UnsoundStepError

            where = f"{getattr(finder, '__module__', '?')}.{getattr(finder, '__qualname__', '?')}"
            raise UnsoundStepError(f"tactic {step.tactic!r} ({where}) made a wrong step: it "
                                   f"{wrong} ({step.text!r})")

    def _guess(self) -> Step | None:
        b = self.board
        if not self.may_guess:
            return None
        open_ = [(x.bit_count(), c) for c, x in enumerate(b.cand) if x.bit_count() > 1]
        if not open_:
            return None
        _, c = min(open_)
        options = bits(b.cand[c])
        if self.solution is not None:
            v = int(self.solution[c])
            why = "the value the search's solution has"
        else:
            v = options[0]
            why = "its smallest candidate"
        if v not in options:
            return None
        step = Step("guess", placed=[(c, v)], cells=[c], values=[v],
                    text=f"{b.namer.cell(c)} = {b.namer.value(v)}: guess (no tactic applies; "
                         f"candidates {b.namer.values(options)}; {why})")
        b.apply(step)
        return step

    def steps(self, limit: int | None = None) -> Iterator[Step]:
        k = 0
        while limit is None or k < limit:
            s = self.next_step()
            if s is None:
                return
            k += 1
            yield s

    def masks(self) -> np.ndarray:
        """The board as candidate masks per model cell (what ``PuzzleType.decode`` reads)."""
        return np.array(self.board.cand, dtype=np.uint64)

    def values(self) -> np.ndarray:
        """The board as values (0 where open)."""
        return np.array([x.bit_length() if x and not x & (x - 1) else 0
                         for x in self.board.cand], dtype=np.int64)
