"""Grading: how hard a puzzle is for a person, from the tactics its explanation needs.

``rate(ptype, puzzle)`` is the stable entry point (the generator calls it for
``--difficulty``). The level is the level of the hardest step the step-by-step solve took
(a tactic's level for the puzzle type, or the level a finder gave the step itself), ``evil``
when logic ran out and it had to guess, and ``not unique`` when the puzzle has several
solutions (no logic can settle it).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from csolve.errors import SearchTimeoutError, counted
from csolve.logic import Namer, Step, Stepper
from csolve.model import Model
from csolve.puzzle import Puzzle, PuzzleType

LEVELS = ("easy", "medium", "hard", "expert", "evil")
#: the level of a puzzle with several solutions, and of one with none
NOT_UNIQUE, INVALID = "not unique", "invalid"

#: the level each tactic stands for; a plugin tactic not listed counts as expert
TACTIC_LEVEL = {
    "elimination": "easy", "hidden-single": "easy",
    "locked-candidates": "medium", "naked-pair": "medium", "hidden-pair": "medium",
    "naked-triple": "hard", "hidden-triple": "hard", "naked-quad": "hard", "hidden-quad": "hard",
    "x-wing": "expert", "swordfish": "expert", "jellyfish": "expert", "xy-wing": "expert",
    "guess": "evil",  # a puzzle that needs one is evil (see rate)
}


@dataclass
class Rating:
    """A puzzle's grade. ``hardest`` is None when it needs no step (already complete)."""

    level: str  # one of LEVELS, NOT_UNIQUE (several solutions) or INVALID (none)
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
    return Namer(lambda c: ptype.cell_name(puzzle, c), lambda g: ptype.group_name(puzzle, g),
                 lambda v: ptype.value_name(puzzle, v))


def level_of(ptype: PuzzleType | None, tactic: str) -> str:
    """A tactic's level for a puzzle type: its own table first (``PuzzleType.tactic_levels``),
    then :data:`TACTIC_LEVEL`; a tactic in neither counts as expert."""
    own = getattr(ptype, "tactic_levels", None) or {}
    return own.get(tactic) or TACTIC_LEVEL.get(tactic, "expert")


def step_level(ptype: PuzzleType | None, step: Step) -> str:
    """A step's level: the one its finder gave it, else its tactic's."""
    return step.level or level_of(ptype, step.tactic)


def known_tactics(ptype: PuzzleType) -> tuple[str, ...]:
    """The type's tactics, its constraint rules among them (they are always used)."""
    return tuple(dict.fromkeys((*ptype.tactics, *ptype.constraint_rules)))


def tactic_list(ptype: PuzzleType, tactics: Sequence[str] | None) -> tuple[str, ...]:
    """The tactics to use: the given ones (checked; a tactic's other name, such as
    ``naked-single`` for ``elimination``, stands for it) with the type's constraint rules,
    or the plugin's full list."""
    known = known_tactics(ptype)
    if not tactics:
        return known
    from csolve.errors import UnknownNameError
    from csolve.logic import LABELS

    aliases = {LABELS[t].lower().replace(" ", "-"): t for t in known if t in LABELS}
    chosen = [t if t in known else aliases.get(t.lower(), t) for t in tactics]
    unknown = [t for t, c in zip(tactics, chosen, strict=True) if c not in known]
    if unknown:
        raise UnknownNameError(f"unknown tactic(s) for {ptype.name}: {', '.join(unknown)} "
                               f"(known: {', '.join(known)})")
    return tuple(dict.fromkeys((*chosen, *ptype.constraint_rules)))


def find_solution(ptype: PuzzleType, puzzle: Puzzle, timeout: float | None = None
                  ) -> tuple[int, object | None]:
    """(number of solutions up to 2, the first one) from the search; past ``timeout``
    seconds, :class:`~csolve.errors.SearchTimeoutError`."""
    from csolve.solver import SolveOptions, Status, solve_one

    r = solve_one(ptype, puzzle, SolveOptions(limit=2, timeout=timeout or None))
    if r.status is Status.TIMEOUT:
        raise timed_out(puzzle, timeout)
    return r.count, (r.solutions[0] if r.solutions else None)


def clock() -> float:
    """The clock a step-by-step solve is timed by (``check_time``): wall time less the time
    spent compiling kernels, which a search's time limit leaves out too (compiles in this
    process, any thread's: numba compiles one kernel at a time)."""
    from csolve.kernels.diskcache import seconds_compiling

    return time.monotonic() - seconds_compiling()


def check_time(puzzle: Puzzle, started: float, timeout: float | None) -> None:
    """Between steps: past ``timeout`` seconds since ``started`` (a :func:`clock` reading),
    the time-out error."""
    if timeout and clock() - started > timeout:
        raise timed_out(puzzle, timeout)


def timed_out(puzzle: Puzzle, timeout: float | None) -> SearchTimeoutError:
    """The error for ``puzzle`` past ``--timeout`` (the CLI reports it as a time-out, exit 3)."""
    return SearchTimeoutError(f"{puzzle.where}: timeout: no answer within {timeout:g} s")


def model_values(ptype: PuzzleType, puzzle: Puzzle, model: Model, solution) -> list[int]:
    """A solution as one value per model cell, for the stepper's guesses: from the plugin
    (``PuzzleType.cell_values``), from a flat solution with one value per cell, or else from
    a search of the model itself (a plugin that says nothing still gets explanations)."""
    values = ptype.cell_values(puzzle, solution)
    if values is None:
        flat = np.asarray(solution)
        if flat.ndim == 1 and flat.shape[0] == model.n_cells:
            values = flat
    if values is None:
        from csolve.generate import first_solution

        masks = first_solution(model)
        values = [int(m).bit_length() for m in masks] if masks is not None else None
    return None if values is None else [int(x) for x in values]


def stepper(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None = None,
            solution=None, unique: bool = False, may_guess: bool = True) -> Stepper:
    """A :class:`Stepper` for a puzzle; guesses follow ``solution`` when given, and every
    step is checked against it when it is the ``unique`` one. Tactics with no step-by-step
    form (a plugin rule without a finder) are left to guesses; with ``may_guess`` false (a puzzle
    with no solution) the steps end where a guess would be needed."""
    ptype.check(puzzle)
    model = ptype.model(puzzle)
    chosen = tactic_list(ptype, tactics)
    return Stepper(model, chosen, namer_for(ptype, puzzle), finders=ptype.step_finders(),
                   solution=None if solution is None else model_values(ptype, puzzle, model,
                                                                         solution),
                   missing_ok=tuple(t for t in chosen if t not in (tactics or ())
                                    or t in ptype.constraint_rules),  # always on: named or not
                   unique=unique, may_guess=may_guess)


def searched_stepper(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None,
                     count: int, solution) -> Stepper:
    """:func:`stepper` after the search found ``count`` solutions (0-2): its steps are held
    to the only one, and on a puzzle with none there is no guess (it would prove nothing)."""
    return stepper(ptype, puzzle, tactics, solution, unique=count == 1, may_guess=count != 0)


def rate_steps(steps: Sequence[Step], solutions: int = 1,
               ptype: PuzzleType | None = None) -> Rating:
    """A rating from the steps of an explanation (levels as ``ptype`` defines them)."""
    if solutions == 0:  # as rate says it: no level, however far the steps went
        return Rating(level=INVALID, hardest=None, steps=0, guesses=0, solutions=0)
    counts = Counter(s.tactic for s in steps)
    guesses = counts.pop("guess", 0)
    logical = [s for s in steps if s.tactic != "guess"]
    before_guess = []
    for s in steps:
        if s.tactic == "guess":
            break
        before_guess.append(s)
    order = {t: i for i, t in enumerate(getattr(ptype, "tactics", None) or TACTIC_LEVEL)}
    hardest_step = max(before_guess, key=lambda s: (LEVELS.index(step_level(ptype, s)),
                                                    order.get(s.tactic, 99)), default=None)
    hardest = hardest_step.tactic if hardest_step else None
    if solutions > 1:
        level = NOT_UNIQUE
    elif guesses:
        level = "evil"
    else:
        level = step_level(ptype, hardest_step) if hardest_step else "easy"
    return Rating(level=level, hardest=hardest, steps=len(logical), guesses=guesses,
                  tactics=dict(counts), solutions=solutions)


#: why a puzzle has no solution, where the steps end without finding out
NO_CONTRADICTION = ("the search finds no solution; the tactics reach no contradiction "
                    "without a guess")


@dataclass
class Explanation:
    """A puzzle solved as a person would: the steps, their rating, and the search's answer
    that any guesses follow (``solutions`` counts up to 2)."""

    steps: list[Step]
    rating: Rating
    solutions: int
    solution: object | None
    stepper: Stepper
    _why: str | None = field(default=None, init=False, repr=False)

    def why_no_solution(self) -> str:
        """What the steps ran into, for a puzzle the search found no solution of. Steps cut
        short (``hint`` takes one) go on, without guessing, until they run into it, so that
        ``hint`` and ``explain`` give the same reason."""
        if self._why is None:
            board = self.stepper.board
            why = board.broken()
            more = 0
            while not why:
                step = self.stepper.next_step()
                if step is None or step.tactic == "guess":  # past a guess it proves nothing
                    break
                more += 1
                why = board.broken()
            if why and more:  # the steps that lead there were not all shown
                why += f" (after {counted(len(self.steps) + more, 'step')}; explain shows them)"
            self._why = why or NO_CONTRADICTION
        return self._why


def explain(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None = None,
            limit: int | None = None, timeout: float | None = None) -> Explanation:
    """The step-by-step solve (the first ``limit`` steps), within ``timeout`` seconds for
    the search and the steps together (past it: :class:`~csolve.errors.SearchTimeoutError`)."""
    started = clock()
    count, solution = find_solution(ptype, puzzle, timeout)
    return _explained(ptype, puzzle, tactics, limit, timeout, started, count, solution)


def _explained(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None,
               limit: int | None, timeout: float | None, started: float, count: int,
               solution: object | None) -> Explanation:
    st = searched_stepper(ptype, puzzle, tactics, count, solution)
    steps = []
    for step in st.steps(limit):
        steps.append(step)
        check_time(puzzle, started, timeout)
    return Explanation(steps, rate_steps(steps, min(count, 2), ptype), count, solution, st)


def rate(ptype: PuzzleType, puzzle: Puzzle, tactics: Sequence[str] | None = None,
         timeout: float | None = None) -> Rating:
    """Grade a puzzle: solve it step by step with ``tactics`` (default: all the plugin's,
    easiest first), guessing the search's solution's value when they run out; within
    ``timeout`` seconds as :func:`explain`."""
    started = clock()
    count, solution = find_solution(ptype, puzzle, timeout)
    if count == 0:
        return Rating(level=INVALID, hardest=None, steps=0, guesses=0, solutions=0)
    return _explained(ptype, puzzle, tactics, None, timeout, started, count, solution).rating


def grade(ptype: PuzzleType, puzzle: Puzzle) -> Rating:
    """What ``csolve generate --difficulty`` calls: the same as :func:`rate`."""
    return rate(ptype, puzzle)
