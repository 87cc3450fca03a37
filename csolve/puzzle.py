"""What a puzzle plugin provides: parsing, a model, decoding, validation and rendering."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from csolve.errors import UnknownNameError
from csolve.model import Model


@dataclass
class Puzzle:
    """One puzzle read from a file: where it came from and the plugin's own data."""

    kind: str  # the puzzle type's name
    source: str  # file name, or "<stdin>"
    line: int  # 1-based line where the puzzle starts
    index: int  # 0-based position in the file
    data: Any  # plugin-specific (e.g. the grid of givens)
    fmt: str = ""  # the input format it was read in
    meta: dict = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


class PuzzleType:
    """Base class for puzzle plugins. Subclass it and register an instance.

    A solution is whatever :meth:`decode` returns (for grid puzzles, a numpy grid); every
    other method receives it back.
    """

    name: str = ""
    description: str = ""
    formats: tuple[str, ...] = ()
    #: rule names, in the order propagation tries them
    default_rules: tuple[str, ...] = ("elimination", "hidden-single")

    def parse(self, text: str, source: str, fmt: str | None = None) -> list[Puzzle]:
        """Read every puzzle in ``text``; raise PuzzleInputError naming file, line, column."""
        raise NotImplementedError

    def with_box(self, puzzles: Sequence[Puzzle], box: str) -> list[Puzzle]:
        """The puzzles with boxes of shape ``box`` (``"RxC"``, from ``--box``): for types
        whose size allows several box shapes (a 6x6 Sudoku's 2×3 or 3×2)."""
        raise UnknownNameError(f"{self.name} puzzles have no box shape to choose (--box)")

    def check(self, puzzle: Puzzle) -> None:
        """Raise PuzzleInputError if the givens already break a rule."""

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        """The model whose solutions are this puzzle's solutions."""
        raise NotImplementedError

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> Any:
        """Turn a solved state (one single per cell) into a solution."""
        raise NotImplementedError

    def validate(self, puzzle: Puzzle, solution: Any) -> list[str]:
        """Problems with a complete solution (empty when it is valid and keeps the givens)."""
        raise NotImplementedError

    # Whole-batch forms of check / model / decode / validate, used when a file of many puzzles
    # is solved in one kernel call. The defaults loop over the one-puzzle methods; a plugin
    # overrides them with whole-array code so a batch pays no Python work per puzzle.

    def check_many(self, puzzles: Sequence[Puzzle]) -> None:
        """:meth:`check` every puzzle (raise for the first one whose givens break a rule)."""
        for p in puzzles:
            self.check(p)

    def model_runs(self, puzzles: Sequence[Puzzle], rules: tuple[str, ...] | None = None
                   ) -> Iterator[tuple[int, int, Model, np.ndarray]]:
        """Runs of consecutive puzzles that share one model structure, as
        ``(start, stop, model, inits)``: ``inits[i]`` holds the initial candidates of
        ``puzzles[start + i]``."""
        i = 0
        models = [self.model(p, rules) for p in puzzles]
        while i < len(puzzles):
            j = i + 1
            while j < len(puzzles) and models[i].key and models[j].key == models[i].key:
                j += 1
            yield i, j, models[i], np.stack([m.init for m in models[i:j]])
            i = j

    def decode_many(self, puzzles: Sequence[Puzzle], masks: np.ndarray) -> list[Any]:
        """:meth:`decode` row ``i`` of ``masks`` for ``puzzles[i]``."""
        return [self.decode(p, m) for p, m in zip(puzzles, masks, strict=True)]

    def validate_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[Any]
                      ) -> list[list[str]]:
        """:meth:`validate` each solution against its puzzle."""
        return [self.validate(p, s) for p, s in zip(puzzles, solutions, strict=True)]

    def format_line(self, puzzle: Puzzle, solution: Any | None) -> str:
        """One line in the input's own format (the puzzle itself when ``solution`` is None)."""
        raise NotImplementedError

    def to_json(self, puzzle: Puzzle, solution: Any) -> Any:
        """A JSON-ready form of a solution."""
        raise NotImplementedError

    def render(self, puzzle: Puzzle, solution: Any | None):
        """A rich renderable (givens and filled cells styled apart)."""
        raise NotImplementedError

    def is_complete(self, puzzle: Puzzle) -> bool:
        """True when every cell is filled (the 'puzzle' is a candidate solution)."""
        raise NotImplementedError

    def as_solution(self, puzzle: Puzzle) -> Any:
        """A complete puzzle read as a solution, for ``csolve validate``."""
        raise NotImplementedError

    # --- tactics and explanations (csolve explain / hint / rate) ---------------------------
    #: tactics (rule names) in order of difficulty: what explain/rate try, easiest first
    tactics: tuple[str, ...] = (
        "elimination", "hidden-single", "locked-candidates", "naked-pair", "hidden-pair",
        "naked-triple", "hidden-triple", "naked-quad", "hidden-quad", "x-wing", "swordfish",
        "jellyfish",
    )

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        """How explanations name a cell of the model."""
        return f"cell {cell}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        """How explanations name a group of the model (by its index in the builder)."""
        return f"group {group}"

    def step_finders(self) -> dict:
        """Step-by-step forms of the plugin's own tactics: ``{rule name: finder}``, where a
        finder takes a :class:`csolve.logic.Board` and yields :class:`csolve.logic.Step`."""
        return {}

    def generate(self, options: Any, rng: np.random.Generator,
                 ctrl: np.ndarray | None = None) -> tuple[Puzzle, Any]:
        """A new puzzle with exactly one solution, and that solution (``csolve generate``).

        ``options`` is a :class:`csolve.generate.GenerateOptions`; all randomness comes from
        ``rng``; kernels stop when ``ctrl[CTRL_STOP]`` is set. The helpers in
        :mod:`csolve.generate` do the puzzle-agnostic work (random solution, clue removal).
        """
        from csolve.errors import UnknownNameError

        raise UnknownNameError(f"csolve cannot generate {self.name} puzzles")


def all_puzzle_types() -> dict[str, PuzzleType]:
    from csolve.plugins import _collect

    return {p.name: p for p, _plugin in _collect("csolve_register_puzzles")}


def get_puzzle_type(name: str) -> PuzzleType:
    types = all_puzzle_types()
    try:
        return types[name]
    except KeyError:
        known = ", ".join(sorted(types)) or "none installed"
        raise UnknownNameError(f"unknown puzzle type {name!r} (known: {known})") from None
