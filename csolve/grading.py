"""Grading: how hard a puzzle is for a person, from the tactics its explanation needs.

``rate(ptype, puzzle)`` is the stable entry point (the generator calls it for
``--difficulty``). The level is the level of the hardest tactic the step-by-step solve used,
or ``evil`` when logic ran out and it had to guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from csolve.logic import Namer, Step, Stepper
from csolve.puzzle import Puzzle, PuzzleType

LEVELS = ("easy", "medium", "hard", "expert", "evil")

#: the level each tactic stands for; a plugin tactic not listed counts as expert
TACTIC_LEVEL = {
    "elimination": "easy", "hidden-single": "easy",
    "locked-candidates": "medium", "naked-pair": "medium", "hidden-pair": "medium",
    "naked-triple": "hard", "hidden-triple": "hard", "naked-quad": "hard", "hidden-quad": "hard",
    "x-wing": "expert", "swordfish": "expert", "jellyfish": "expert", "xy-wing": "expert",
}


@dataclass
class Rating:
    """A puzzle's grade. ``hardest`` is None when it needs no step (already complete)."""

    level: str  # one of LEVELS, or "invalid" when it has no solution
    hardest: str | None  # hardest tactic used before the first guess (None: none)
    steps: int  # logical steps (guesses excluded)
    guesses: int  # guesses taken when no tactic applied
    tactics: dict[str, int] = field(default_factory=dict)  # steps per tactic
    solutions: int = 1  # 0, 1, or 2 meaning "more than one"

    @property
    def level_index(self) -> int:
        return LEVELS.index(self.level) if self.level in LEVELS else len(LEVELS)

    def to_json(self) -> dict:
        return {"level": self.level, "hardest": self.hardest, "steps": self.steps,
                "guesses": self.guesses, "tactics": self.tactics, "solutions": self.solutions}


def namer_for(ptype: PuzzleType, puzzle: Puzzle) -> Namer:
    return Namer(lambda c: ptype.cell_name(puzzle, c), lambda g: ptype.group_name(puzzle, g))


def tactic_list(ptype: PuzzleType, tactics: Sequence[str] | None) -> tuple[str, ...]:
    """The tactics to use: the given ones (checked), or the plugin's full list."""
    if not tactics:
        return tuple(ptype.tactics)
    from csolve.errors import UnknownNameError

    unknown = [t for t in tactics if t not in ptype.tactics]
    if unknown:
        raise UnknownNameError(f"unknown tactic(s) for {ptype.name}: {', '.join(unknown)} "
                               f"(known: {', '.join(ptype.tactics)})")
    return tuple(tactics)


def find_solution(ptype: PuzzleType, puzzle: Puzzle) -> tuple[int, object | None]:
    """(number of solutions up to 2, the first one) from the search."""
    from csolve.solver import SolveOptions, solve_puzzle

    r = solve_puzzle(ptype, puzzle, SolveOptions(limit=2))
    return r.count, (r.solutions[0] if r.solutions else None)


def stepper(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None = None,
            solution=None) -> Stepper:
    """A :class:`Stepper` for a puzzle; guesses follow ``solution`` when given."""
    ptype.check(puzzle)
    model = ptype.model(puzzle)
    return Stepper(model, tactic_list(ptype, tactics), namer_for(ptype, puzzle),
                   finders=ptype.step_finders(),
                   solution=None if solution is None else cell_values(ptype, puzzle, model,
                                                                      solution))


def cell_values(ptype: PuzzleType, puzzle: Puzzle, model, solution) -> list[int] | None:
    """The solution's value of each model cell. A plugin's solution is its own grid (Kakuro's
    and Str8ts' hold cells the model has none for), so where each cell lands is found by
    decoding probe states: cell i holding the digits of i, base n_values, one per round.
    None when the solution does not fit."""
    import numpy as np

    flat = np.asarray(solution, dtype=np.int64).ravel()
    n, base = model.n_cells, max(2, model.n_values)
    rounds = 1
    while base ** rounds < n:
        rounds += 1
    idx = np.arange(n, dtype=np.int64)
    code = np.zeros(flat.size, dtype=np.int64)
    written = np.ones(flat.size, dtype=bool)
    for k in range(rounds):
        digit = ((idx // base ** k) % base).astype(np.uint64)
        grid = np.asarray(ptype.decode(puzzle, np.left_shift(np.uint64(1), digit))).ravel()
        if grid.size != flat.size:
            return None
        written &= grid > 0
        code += np.where(grid > 0, grid - 1, 0) * base ** k
    out = [0] * n
    for pos in np.flatnonzero(written):
        if code[pos] < n:
            out[int(code[pos])] = int(flat[pos])
    return out if all(out) else None


def rate_steps(steps: Sequence[Step], solutions: int = 1) -> Rating:
    """A rating from the steps of an explanation."""
    counts = Counter(s.tactic for s in steps)
    guesses = counts.pop("guess", 0)
    logical = [s for s in steps if s.tactic != "guess"]
    before_guess = []
    for s in steps:
        if s.tactic == "guess":
            break
        before_guess.append(s)
    order = {t: i for i, t in enumerate(TACTIC_LEVEL)}
    hardest = max((s.tactic for s in before_guess),
                  key=lambda t: (LEVELS.index(TACTIC_LEVEL.get(t, "expert")), order.get(t, 99)),
                  default=None)
    if solutions == 0:
        level = "invalid"
    elif guesses:
        level = "evil"
    else:
        level = TACTIC_LEVEL.get(hardest, "expert") if hardest else "easy"
    return Rating(level=level, hardest=hardest, steps=len(logical), guesses=guesses,
                  tactics=dict(counts), solutions=solutions)


def rate(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None = None) -> Rating:
    """Grade a puzzle: solve it step by step with ``tactics`` (default: all the plugin's,
    easiest first), guessing the search's solution's value when they run out."""
    count, solution = find_solution(ptype, puzzle)
    if count == 0:
        return Rating(level="invalid", hardest=None, steps=0, guesses=0, solutions=0)
    st = stepper(ptype, puzzle, tactics, solution)
    return rate_steps(list(st.steps()), min(count, 2))


def grade(ptype: PuzzleType, puzzle: Puzzle) -> Rating:
    """What ``csolve generate --difficulty`` calls: the same as :func:`rate`."""
    return rate(ptype, puzzle)
