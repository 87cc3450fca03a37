"""What a puzzle plugin provides: parsing, a model, decoding, validation and rendering."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from csolve.errors import OptionError, UnknownNameError, counted
from csolve.model import Model


@dataclass(slots=True, eq=False)
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

    @property
    def text(self) -> str:
        """The puzzle as one line of its type's text: what ``csolve generate`` prints, and
        what ``solve`` reads back (to save a generated puzzle, say). A Sudoku line does not
        carry a box shape other than its size's default: read it back with the same
        ``box=``."""
        return get_puzzle_type(self.kind).format_line(self, None)


def _position(i: Any, length: int, what: str) -> int:
    """Index ``i`` (a numpy integer too; negative from the end) of a sequence of ``length``
    as a Python int in range; IndexError otherwise."""
    k = operator.index(i)
    if k < 0:
        k += length
    if not 0 <= k < length:
        raise IndexError(f"{what} index out of range")
    return k


class PuzzleBatch(Sequence[Puzzle]):
    """Many puzzles of one kind and shape read at once: each one's data a row of one array,
    one ``meta`` for all. A file of a million lines then costs one array rather than a
    million objects, and a plugin's whole-batch methods read :attr:`data` directly; a
    :class:`Puzzle` is made (once) when one is looked at. Slices are batches too.

    ``meta`` is shared: a change to one puzzle's ``meta`` stays with that puzzle, and a new
    shape for all is a new batch (:meth:`with_meta`)."""

    __slots__ = ("kind", "source", "lines", "data", "fmt", "meta", "start", "_made")

    def __init__(self, kind: str, source: str, lines: Sequence[int], data: np.ndarray,
                 fmt: str, meta: dict, *, start: int = 0,
                 made: dict[int, Puzzle] | None = None) -> None:
        if len(lines) != len(data):
            raise ValueError(f"{len(lines)} line numbers for {len(data)} puzzles")
        self.kind, self.source, self.fmt, self.meta = kind, source, fmt, meta
        self.lines, self.data = lines, data
        self.start = start  # the first puzzle's index in the file
        self._made = {} if made is None else made  # index -> Puzzle, shared by slices

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            a, b, step = i.indices(len(self))
            if step != 1:
                return [self[k] for k in range(a, b, step)]
            return PuzzleBatch(self.kind, self.source, self.lines[a:b], self.data[a:b],
                               self.fmt, self.meta, start=self.start + a, made=self._made)
        k = _position(i, len(self), "puzzle")
        index = self.start + k
        puzzle = self._made.get(index)
        if puzzle is None:
            puzzle = self._made[index] = Puzzle(self.kind, self.source, self.lines[k], index,
                                                self.data[k], self.fmt, dict(self.meta))
        return puzzle

    def __iter__(self) -> Iterator[Puzzle]:
        return map(self.__getitem__, range(len(self)))

    def __repr__(self) -> str:
        return f"PuzzleBatch({self.kind!r}, {self.source!r}, {len(self)} puzzles)"

    def with_meta(self, **changes: Any) -> PuzzleBatch:
        """The same puzzles with ``meta`` changed for all of them."""
        return PuzzleBatch(self.kind, self.source, self.lines, self.data, self.fmt,
                           {**self.meta, **changes}, start=self.start)


class TextLines(Sequence[str]):
    """Lines of one width kept as one text, each followed by a newline: what
    :meth:`PuzzleType.format_line_many` may return for many puzzles, so that output writes
    the text whole rather than a string per line."""

    __slots__ = ("text", "width")

    def __init__(self, text: str, width: int) -> None:
        if width < 0 or len(text) % (width + 1):
            raise ValueError(f"text of {len(text)} characters is no lines of width {width}")
        self.text, self.width = text, width

    def __len__(self) -> int:
        return len(self.text) // (self.width + 1)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        a = _position(i, len(self), "line") * (self.width + 1)
        return self.text[a:a + self.width]


def positions(puzzles: Sequence[Puzzle]) -> tuple[Sequence[int], Sequence[int]]:
    """Each puzzle's index and line (a batch's without making its Puzzle objects)."""
    if isinstance(puzzles, PuzzleBatch):
        return range(puzzles.start, puzzles.start + len(puzzles)), puzzles.lines
    return [p.index for p in puzzles], [p.line for p in puzzles]


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
    #: rules that carry the puzzle's own constraints beyond all-different (a sum, a
    #: straight): always in the model, whatever rules or tactics are chosen; chosen ones add
    #: deductions on top. The core enforces it around :meth:`model` and :meth:`model_runs`.
    constraint_rules: tuple[str, ...] = ()
    #: what starts a comment line in the type's text formats; the headers of grid output
    #: (``--output grid``) follow it, so that the output reads back
    comment: str = "#"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "model" in cls.__dict__:
            cls.model = _keeping_constraints(cls.__dict__["model"])
        if "model_runs" in cls.__dict__:
            cls.model_runs = _keeping_constraints_runs(cls.__dict__["model_runs"])

    def rules_for(self, rules: Sequence[str] | None) -> tuple[str, ...] | None:
        """Chosen rules as the model gets them: elimination first and every constraint rule
        added (see :func:`csolve.rules.with_constraints`); None stays None (the defaults)."""
        from csolve.rules import with_constraints

        return None if rules is None else with_constraints(tuple(rules), self.constraint_rules)

    def constrained(self, model: Model) -> Model:
        """``model`` with every constraint rule in its rules and recorded as such."""
        missing = tuple(r for r in self.constraint_rules if r not in model.rules)
        if not missing and model.constraint_rules == self.constraint_rules:
            return model
        return replace(model, rules=model.rules + missing,
                       key=f"{model.key}+{'+'.join(missing)}" if model.key and missing
                       else model.key,
                       constraint_rules=self.constraint_rules)

    def _missing(self, method: str) -> NotImplementedError:
        """The error for a method a plugin's type has to implement and does not."""
        cls = type(self)
        return NotImplementedError(
            f"puzzle type {self.name!r} ({cls.__module__}.{cls.__qualname__}) does not "
            f"implement PuzzleType.{method} (docs/plugin-api.md)")

    def parse(self, text: str, source: str, fmt: str | None = None) -> Sequence[Puzzle]:
        """Read every puzzle in ``text``, in order (a list, or a :class:`PuzzleBatch` for
        many puzzles of one shape); raise PuzzleInputError naming file, line, column."""
        raise self._missing("parse")

    def with_box(self, puzzles: Sequence[Puzzle], box: str) -> Sequence[Puzzle]:
        """The puzzles with boxes of shape ``box`` (``"RxC"``, from ``--box``): for types
        whose size allows several box shapes (a 6x6 Sudoku's 2×3 or 3×2)."""
        raise OptionError(f"{self.name} puzzles have no box shape to choose (--box)")

    def check(self, puzzle: Puzzle) -> None:
        """Raise PuzzleInputError if the givens already break a rule."""

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        """The model whose solutions are this puzzle's solutions."""
        raise self._missing("model")

    def decode(self, puzzle: Puzzle, masks: np.ndarray) -> Any:
        """Turn a solved state (one single per cell) into a solution."""
        raise self._missing("decode")

    def validate(self, puzzle: Puzzle, solution: Any) -> list[str]:
        """Problems with a complete solution (empty when it is valid and keeps the givens)."""
        raise self._missing("validate")

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

    def decode_many(self, puzzles: Sequence[Puzzle], masks: np.ndarray) -> Sequence[Any]:
        """:meth:`decode` row ``i`` of ``masks`` for ``puzzles[i]``, as a sequence (a list,
        or an array whose rows are the solutions)."""
        return [self.decode(p, m) for p, m in zip(puzzles, masks, strict=True)]

    def validate_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[Any]
                      ) -> list[list[str]]:
        """:meth:`validate` each solution against its puzzle."""
        return [self.validate(p, s) for p, s in zip(puzzles, solutions, strict=True)]

    def format_line(self, puzzle: Puzzle, solution: Any | None) -> str:
        """One line in the input's own format (the puzzle itself when ``solution`` is None)."""
        raise self._missing("format_line")

    def format_line_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[Any]
                         ) -> Sequence[str]:
        """:meth:`format_line` for many solved puzzles at once (bulk output): a list, or a
        :class:`TextLines` when every line has one width."""
        return [self.format_line(p, s) for p, s in zip(puzzles, solutions, strict=True)]

    def format_grid(self, puzzle: Puzzle, solution: Any | None) -> str:
        """The puzzle (or a solution) as a plain-text grid, no colour, that :meth:`parse`
        reads back."""
        raise OptionError(f"{self.name} puzzles have no plain-text grid form; line, json "
                          "and pretty output work for every type")

    def to_svg(self, puzzle: Puzzle, solution: Any | None, step: Any = None, *,
               candidates: Sequence[int] | None = None,
               placed: Sequence[bool] | None = None) -> str:
        """One complete SVG document picturing the puzzle: givens and filled values styled
        apart. With ``step`` (a :class:`csolve.logic.Step`), its cells, placed values and
        removed candidates are marked; ``candidates`` and ``placed`` (the stepper board's
        masks and placed flags before the step, one per model cell) show the open cells'
        candidates as small symbols. See :mod:`csolve.svg`."""
        raise OptionError(f"{self.name} puzzles have no picture form (svg, html); "
                          "solve's line, json and pretty output work for every type")

    def to_json(self, puzzle: Puzzle, solution: Any) -> Any:
        """A JSON-ready form of a solution."""
        raise self._missing("to_json")

    def to_json_text_many(self, puzzles: Sequence[Puzzle], solutions: Sequence[Any]
                          ) -> list[str]:
        """:meth:`to_json` for many solved puzzles at once, written as JSON text (bulk
        output); a plugin may write them faster than one ``json.dumps`` each."""
        import json

        return [json.dumps(self.to_json(p, s)) for p, s in zip(puzzles, solutions, strict=True)]

    def render(self, puzzle: Puzzle, solution: Any | None):
        """A rich renderable (givens and filled cells styled apart)."""
        raise self._missing("render")

    def is_complete(self, puzzle: Puzzle) -> bool:
        """True when every cell is filled (the 'puzzle' is a candidate solution)."""
        raise self._missing("is_complete")

    def as_solution(self, puzzle: Puzzle) -> Any:
        """A complete puzzle read as a solution, for ``csolve validate``."""
        raise self._missing("as_solution")

    # --- tactics and explanations (csolve explain / hint / rate) ---------------------------
    #: tactics (rule names) in order of difficulty: what explain/rate try, easiest first
    tactics: tuple[str, ...] = (
        "elimination", "hidden-single", "locked-candidates", "naked-pair", "hidden-pair",
        "naked-triple", "hidden-triple", "naked-quad", "hidden-quad", "x-wing", "swordfish",
        "jellyfish",
    )

    #: levels of this type's tactics where they differ from the core's table
    #: (:data:`csolve.grading.TACTIC_LEVEL`): ``{tactic: "easy" | "medium" | ...}``
    tactic_levels: ClassVar[dict[str, str]] = {}

    def cell_values(self, puzzle: Puzzle, solution: Any) -> Sequence[int] | None:
        """A solution as one value per model cell (what explanations' guesses follow);
        None: the core finds them (a flat solution is taken as is, else the model is searched)."""
        return None

    def cell_name(self, puzzle: Puzzle, cell: int) -> str:
        """How explanations name a cell of the model."""
        return f"cell {cell}"

    def group_name(self, puzzle: Puzzle, group: int) -> str:
        """How explanations name a group of the model (by its index in the builder)."""
        return f"group {group}"

    def value_name(self, puzzle: Puzzle, value: int) -> str:
        """How explanations write a value (1-based), as the puzzle's own text does."""
        return str(value)

    def step_finders(self) -> dict:
        """Step-by-step forms of the plugin's own tactics: ``{rule name: finder}``, where a
        finder takes a :class:`csolve.logic.Board` and yields :class:`csolve.logic.Step`."""
        return {}

    def clue_count(self, puzzle: Puzzle) -> int:
        """How many clues (given values) a puzzle has, as ``csolve generate`` reports it;
        -1 when the plugin does not say."""
        data = puzzle.data
        return int(np.count_nonzero(data)) if isinstance(data, np.ndarray) else -1

    def most_clues(self, options: Any) -> int:
        """The most clues a puzzle made with ``options`` can hold (``--clues`` must be fewer,
        or no clue would be removed): the grid's cells by default. A type whose clues are not
        all cells (a Skyscrapers puzzle's edge numbers) says how many it has."""
        return options.size * options.size

    def check_generate(self, options: Any) -> None:
        """Raise :class:`csolve.generate.GenerationError` for generate options this type
        cannot honour (a size it has no puzzles of, ``--symmetry`` where no clues are
        removed): called before any work, so the refusal is the only thing said. By
        default: the refusal of a type that does not generate at all."""
        if type(self).generate is PuzzleType.generate:
            self.generate(options, None)

    def generate(self, options: Any, rng: np.random.Generator,
                 ctrl: np.ndarray | None = None) -> tuple[Puzzle, Any]:
        """A new puzzle with exactly one solution, and that solution (``csolve generate``).

        ``options`` is a :class:`csolve.generate.GenerateOptions`; all randomness comes from
        ``rng``; kernels stop when ``ctrl[CTRL_STOP]`` is set. The helpers in
        :mod:`csolve.generate` do the puzzle-agnostic work (random solution, clue removal).
        """
        from csolve.generate import GenerationError

        raise GenerationError(f"csolve cannot generate {self.name} puzzles")


def _keeping_constraints(model_fn):
    """A plugin's ``model`` that gets chosen rules with the constraint rules added, and whose
    model keeps them even when the plugin's own defaults lack them."""
    @functools.wraps(model_fn)
    def model(self, puzzle, rules=None, *args, **kwargs):
        return self.constrained(model_fn(self, puzzle, self.rules_for(rules), *args, **kwargs))

    return model


def _keeping_constraints_runs(runs_fn):
    """:func:`_keeping_constraints` for ``model_runs``."""
    @functools.wraps(runs_fn)
    def model_runs(self, puzzles, rules=None, *args, **kwargs):
        for start, stop, model, inits in runs_fn(self, puzzles, self.rules_for(rules),
                                                 *args, **kwargs):
            yield start, stop, self.constrained(model), inits

    return model_runs


@dataclass(frozen=True)
class DeferredPuzzleType:
    """A puzzle type registered by its name and where its class is (``"module:Class"``,
    built with no arguments), imported when the type is first used: a run that reads one
    puzzle type then imports no other plugin's machinery."""

    name: str
    target: str

    def load(self) -> PuzzleType:
        import importlib

        module, _, attr = self.target.partition(":")
        ptype = getattr(importlib.import_module(module), attr)()
        if ptype.name != self.name:
            raise ValueError(f"{self.target} is the puzzle type {ptype.name!r}, registered "
                             f"as {self.name!r}")
        return ptype


_loaded: dict[DeferredPuzzleType, PuzzleType] = {}
#: the puzzle types looked up by name in this process, and the plugin of each (an error
#: message can then say whose code a bug may be in)
used: dict[str, str] = {}


def _resolved(item: Any, plugin: str) -> PuzzleType | None:
    """A registered puzzle type itself (a deferred one imported, once); None, reported once,
    when it cannot be imported."""
    if not isinstance(item, DeferredPuzzleType):
        return item
    ptype = _loaded.get(item)
    if ptype is None:
        from csolve.plugins import report_failure

        try:
            ptype = _loaded[item] = item.load()
        except Exception as e:
            report_failure(plugin, "failed in csolve_register_puzzles", e)
            return None
    return ptype


def all_puzzle_types() -> dict[str, PuzzleType]:
    return {name: ptype for name, (ptype, _plugin) in _usable_puzzle_types().items()}


def puzzle_types_by_plugin() -> dict[str, list[str]]:
    """The names of the usable puzzle types each plugin registered (for ``list-plugins``):
    those registered twice, nameless or not importable are reported, not listed."""
    by_plugin: dict[str, list[str]] = {}
    for name, (_ptype, plugin) in _usable_puzzle_types().items():
        by_plugin.setdefault(plugin, []).append(name)
    return by_plugin


def _usable_puzzle_types() -> dict[str, tuple[PuzzleType, str]]:
    from csolve.plugins import collect_named

    found, _conflicts = collect_named("csolve_register_puzzles", "puzzle type")
    types = {name: (_resolved(p, plugin), plugin) for name, (p, plugin) in found.items()}
    return {name: (p, plugin) for name, (p, plugin) in types.items() if p is not None}


def check_own_constraints(ptype: PuzzleType, rules: Sequence[str]) -> None:
    """Refuse another type's constraint rule (Kakuro's sums on a Sudoku): it works on groups
    only that type's models have, so it would change nothing, without a word."""
    mine = set(ptype.constraint_rules)
    for name in rules:
        if name in mine:
            continue
        owners = sorted(t.name for t in all_puzzle_types().values()
                        if name in t.constraint_rules)
        if owners:
            raise OptionError(f"rule {name!r} is the constraint of {' and '.join(owners)} "
                              f"puzzles (it works on their groups); a {ptype.name} model has "
                              "none of them")


def get_puzzle_type(name: str) -> PuzzleType:
    from csolve.plugins import collect_named

    found, conflicts = collect_named("csolve_register_puzzles", "puzzle type", asked=name)
    if name in found:
        ptype = _resolved(*found[name])
        if ptype is not None:
            used[name] = found[name][1]
            return ptype
    if name in conflicts:
        raise conflicts[name]
    known = ", ".join(sorted(all_puzzle_types())) or "none installed"
    raise UnknownNameError(f"unknown puzzle type {name!r} (known: {known})")


def shape_words(array: Any) -> str:
    """An array's shape as a validation message says it: ``16 cells``, ``a 6x6 grid``."""
    shape = np.shape(array)
    if not shape:
        return "one value, not a grid"
    if len(shape) == 1:
        return counted(shape[0], "cell")
    if len(shape) == 2:
        return f"a {shape[0]}x{shape[1]} grid"
    return "an array of shape " + "x".join(map(str, shape))
