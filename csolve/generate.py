"""Generating puzzles, the puzzle-agnostic part: random solutions, clue removal, symmetry.

A generator (Chiu, Nasiri & Rashid 2012, §3.1) starts from a solved grid and removes clues
one at a time, keeping a removal only while the puzzle still has exactly one solution. What is
generic lives here and works on any :class:`csolve.model.Model`:

- :func:`random_solution`: a random solution of a model, found by seeding a few random
  peer-consistent cells and solving (retried when the seeds admit no solution);
- :func:`reduce_clues`: the removal loop, one compiled kernel call (GIL-free) per puzzle;
- :func:`symmetry_groups`: the cell orbits that keep a clue pattern symmetric on a grid;
- :func:`generate_in_order`: many puzzles on worker threads, each from its own seed, so the
  output does not depend on the number of workers.

- :func:`random_pattern` / :func:`removal_groups`: a random symmetric layout (black cells)
  and the clue groups of a grid whose model cells are not its grid cells (Kakuro, Str8ts).

A puzzle type opts in by implementing :meth:`csolve.puzzle.PuzzleType.generate`
(docs/generator.md).
"""

from __future__ import annotations

import operator
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import overload

import numpy as np

from csolve import defaults
from csolve.errors import CsolveError, ExitCode, counted
from csolve.kernels import abi
from csolve.model import Model

SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")


@dataclass(frozen=True)
class GenerateOptions:
    """What to generate. ``clues`` None: remove clues until none can go (a minimal puzzle)."""

    size: int = 9
    symmetry: str = "none"
    clues: int | None = None
    rules: tuple[str, ...] | None = None
    #: box shape ``"RxC"`` for types with boxes (Sudoku, Killer); None: the size's default
    box: str | None = None


class GenerationError(CsolveError):
    """A puzzle could not be generated as asked (e.g. no grade match within the tries)."""

    #: the puzzles made before it, in order (set by the Python API's ``generate``)
    made: Sequence = ()


class GenerationTimeoutError(GenerationError):
    """A puzzle was not made within its time: the ``timeout`` a puzzle is given, or, for a
    difficulty with no ``tries`` count, the CPU time its tries get. The request was fine, the
    clock ended it (exit code 3, as a search that hits its time limit)."""

    exit_code = ExitCode.TIMEOUT


def derive_seeds(seed: int, count: int) -> Sequence[int]:
    """One independent seed per puzzle, the same whatever the number of workers. The first
    is ``seed`` itself, so a puzzle's own seed, asked for one puzzle, makes it again."""
    return PuzzleSeeds(seed, count)


class PuzzleSeeds(Sequence[int]):
    """:func:`derive_seeds`' seeds, each worked out when asked for (the child i of
    ``SeedSequence(seed).spawn(count)``, made alone): ``--count 1000000000`` starts at once
    and holds no list of a billion seeds."""

    def __init__(self, seed: int, count: int) -> None:
        self.seed = operator.index(seed)  # a numpy integer too, as a plain int (JSON)
        self.count = max(0, count)

    def __len__(self) -> int:
        return self.count

    def __repr__(self) -> str:
        return f"derive_seeds({self.seed}, {self.count})"

    def __eq__(self, other: object) -> bool:  # as the list it was: equal to its seeds
        if isinstance(other, PuzzleSeeds):
            return (self.seed, self.count) == (other.seed, other.count)
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self.count and all(a == b for a, b in zip(self, other,
                                                                          strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (equal to a list, which has none)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.count))]
        k = operator.index(i)
        if k < 0:
            k += self.count
        if not 0 <= k < self.count:
            raise IndexError(i)
        if k == 0:
            return self.seed
        child = np.random.SeedSequence(self.seed, spawn_key=(k,))
        return int(child.generate_state(2, dtype=np.uint64)[0] >> np.uint64(1))


def symmetry_groups(height: int, width: int, symmetry: str) -> list[tuple[int, ...]]:
    """Cells of a ``height``×``width`` grid (index ``r * width + c``) in orbits of ``symmetry``.

    ``rot180``: a cell and its image under a half turn; ``rot90``: under quarter turns
    (square grids); ``mirror``: left-right mirror; ``diagonal``: reflection in the main
    diagonal (square grids). Removing whole orbits keeps the clue pattern symmetric.
    """
    if symmetry not in SYMMETRIES:
        raise CsolveError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")
    if symmetry in ("rot90", "diagonal") and height != width:
        raise CsolveError(f"symmetry {symmetry} needs a square grid")

    def images(r: int, c: int) -> list[tuple[int, int]]:
        if symmetry == "rot180":
            return [(r, c), (height - 1 - r, width - 1 - c)]
        if symmetry == "rot90":
            n = height
            return [(r, c), (c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)]
        if symmetry == "mirror":
            return [(r, c), (r, width - 1 - c)]
        if symmetry == "diagonal":
            return [(r, c), (c, r)]
        return [(r, c)]

    seen: set[int] = set()
    groups = []
    for r in range(height):
        for c in range(width):
            orbit = tuple(sorted({i * width + j for i, j in images(r, c)}))
            if orbit[0] in seen:
                continue
            seen.update(orbit)
            groups.append(orbit)
    return groups


def random_pattern(height: int, width: int, rng: np.random.Generator, density: float,
                   symmetry: str = "none") -> np.ndarray:
    """A random ``height``×``width`` bool pattern (e.g. a puzzle's black cells): each orbit of
    ``symmetry`` is set with probability ``density``, so the pattern keeps that symmetry."""
    out = np.zeros(height * width, dtype=bool)
    for orbit in symmetry_groups(height, width, symmetry):
        if rng.random() < density:
            out[list(orbit)] = True
    return out.reshape(height, width)


def removal_groups(height: int, width: int, symmetry: str, cell_of: dict[int, int],
                   rng: np.random.Generator) -> list[tuple[int, ...]]:
    """Groups of model cells for :func:`reduce_clues`, in random order: the orbits of
    ``symmetry`` on the grid, each mapped through ``cell_of`` (grid index ``r * width + c`` to
    model cell; grid cells that are no clue candidates are left out)."""
    groups = []
    for orbit in symmetry_groups(height, width, symmetry):
        cells = tuple(cell_of[i] for i in orbit if i in cell_of)
        if cells:
            groups.append(cells)
    return [groups[i] for i in rng.permutation(len(groups))]


def masks_of_values(values) -> np.ndarray:
    """uint64 singles for values 1..n (one per model cell)."""
    v = np.asarray(values, dtype=np.int64)
    return np.left_shift(np.uint64(1), (v - 1).astype(np.uint64)).astype(np.uint64)


def values_of_masks(masks: np.ndarray) -> np.ndarray:
    """Values 1..n of a solved state of singles."""
    return np.array([int(m).bit_length() for m in masks], dtype=np.int64)


def _kernels(model: Model):
    from csolve.search import kernels_for_model

    return kernels_for_model(model)


def _stop_requested(ctrl: np.ndarray | None) -> None:
    if ctrl is not None and ctrl[abi.CTRL_STOP]:
        raise KeyboardInterrupt


def random_solution(model: Model, rng: np.random.Generator, *, fixed: np.ndarray | None = None,
                    extra: int = 0, max_nodes: int = 200_000, tries: int = 50,
                    ctrl: np.ndarray | None = None) -> np.ndarray:
    """A random solution of ``model`` (uint64 singles per cell).

    ``fixed``: a uint64 mask per cell that is known to leave a solution (e.g. a random
    first row); ``extra`` more cells get a random value no assigned peer holds. The search
    then completes it within ``max_nodes``; when the random cells admit no solution, or
    the budget runs out, it tries again with fresh ones (the last try adds no extra cell).
    """
    from csolve.search import SearchState, new_ctrl

    ctrl = ctrl if ctrl is not None else new_ctrl()
    base = model.init if fixed is None else np.asarray(fixed, dtype=np.uint64) & model.init
    km = model.kernel
    for attempt in range(tries):
        _stop_requested(ctrl)
        init = base.copy()
        k = extra if attempt < tries - 1 else 0
        if k:
            for c in rng.permutation(model.n_cells)[:k]:
                c = int(c)
                mask = int(init[c])
                if mask & (mask - 1) == 0:
                    continue
                for p in km.peers[km.peer_ptr[c]:km.peer_ptr[c + 1]]:
                    pm = int(init[p])
                    if pm and pm & (pm - 1) == 0:
                        mask &= ~pm
                if not mask:
                    continue
                bits = [b for b in range(model.n_values) if mask >> b & 1]
                init[c] = np.uint64(1 << int(rng.choice(bits)))
        state = SearchState(model.with_init(init), _kernels(model), solution_capacity=1)
        state.push_root()
        reason = state.run(ctrl, 1, False, max_nodes)
        if reason == abi.STOPPED:
            raise KeyboardInterrupt
        if state.found:
            return state.sols[0].copy()
    raise GenerationError(f"no random solution found in {counted(tries, 'try')}")


def reduce_clues(model: Model, solution: np.ndarray, groups: Sequence[Sequence[int]],
                 target: int | None = None, free: np.ndarray | None = None,
                 ctrl: np.ndarray | None = None, max_nodes: int | None = None) -> np.ndarray:
    """Clues (bool per cell) left after removing ``groups`` in order while unique.

    ``solution``: uint64 singles per cell; every cell starts as a clue. ``free``: each
    cell's mask when it is no clue (default: the model's initial domains). ``target``:
    stop at that many clues or fewer among the groups' cells; None: until no group can be
    removed (minimal). ``max_nodes``: bound each uniqueness check, for puzzles whose checks
    can run long; a removal not settled within it is refused (the puzzle stays unique, not
    always minimal).
    The whole loop is one kernel call that releases the GIL.
    """
    from csolve.engines import workspace_for
    from csolve.search import check_settled, new_ctrl

    n = model.n_cells
    kernels = _kernels(model)
    ctrl = ctrl if ctrl is not None else new_ctrl()
    free = model.init if free is None else np.ascontiguousarray(free, dtype=np.uint64)
    solution = np.ascontiguousarray(solution, dtype=np.uint64)
    clue = np.ones(n, dtype=np.uint8)
    ptr = np.zeros(len(groups) + 1, dtype=np.int64)
    for i, g in enumerate(groups):
        ptr[i + 1] = ptr[i] + len(g)
    cells = np.fromiter((c for g in groups for c in g), dtype=np.int64, count=int(ptr[-1]))
    stack = np.zeros((n + 16, n), dtype=np.uint64)
    dirty = np.zeros(n + 16, dtype=np.int64)
    sp = np.zeros(1, dtype=np.int64)
    sols = np.zeros((1, n), dtype=np.uint64)
    nsol = np.zeros(1, dtype=np.int64)
    stats = np.zeros(abi.STAT_SIZE, dtype=np.int64)
    ws = workspace_for(model)
    r = kernels.reduce_clues(model.kernel, ws, stack, dirty, sp, ctrl, free,
                             solution, clue, ptr, cells, int(target or 0), int(max_nodes or 0),
                             sols, nsol, stats)
    check_settled(ws, model)
    if r == abi.STOPPED:
        raise KeyboardInterrupt
    if r != abi.EXHAUSTED:
        raise GenerationError(f"clue removal failed (kernel code {r})")
    return clue.astype(bool)


def count_solutions(model: Model, limit: int = 2, ctrl: np.ndarray | None = None) -> int:
    """Solutions of ``model`` up to ``limit`` (the independent check on a generated puzzle)."""
    from csolve.search import SearchState, new_ctrl

    state = SearchState(model, _kernels(model), solution_capacity=limit)
    state.push_root()
    total = 0
    ctrl = ctrl if ctrl is not None else new_ctrl()
    while True:
        r = state.run(ctrl, limit - total, False, 1 << 40)
        total += state.found
        if r == abi.STOPPED:
            raise KeyboardInterrupt
        if r in (abi.EXHAUSTED, abi.LIMIT) or total >= limit:
            return total


def first_solution(model: Model, ctrl: np.ndarray | None = None) -> np.ndarray | None:
    """The first solution the generic search finds (uint64 singles per cell), or None."""
    from csolve.search import SearchState, new_ctrl

    state = SearchState(model.with_engine(""), solution_capacity=1)
    state.push_root()
    ctrl = ctrl if ctrl is not None else new_ctrl()
    while True:
        r = state.run(ctrl, 1, False, 1 << 40)
        if r == abi.STOPPED:
            raise KeyboardInterrupt
        if state.found:
            return state.sols[0].copy()
        if r in (abi.EXHAUSTED, abi.LIMIT):
            return None


def backend_mapper(backend: str, options: dict) -> Callable[..., Iterator[object]]:
    """:func:`generate_in_order`'s ``mapper`` for puzzles made by a named backend's workers
    (a Ray cluster, say), its options checked first."""
    from functools import partial

    from csolve.backends import get_backend

    be = get_backend(backend)
    return partial(be.map_ordered, options=be.check_options(options))


def generate_in_order(make: Callable[[int, np.ndarray], object], seeds: Sequence[int],
                      workers: int = 1, ctrl: np.ndarray | None = None,
                      mapper: Callable[..., Iterator[object]] | None = None
                      ) -> Iterator[object]:
    """``make(seed, ctrl)`` for every seed, on ``workers`` threads; results in seed order.

    The kernels release the GIL, so threads run in parallel. Ctrl-C sets ``ctrl``'s stop
    flag, which every running kernel checks, and the interrupt is re-raised here.
    ``mapper(make, seeds, workers, ctrl)``, when given, runs the work elsewhere instead (a
    backend's :meth:`~csolve.backends.base.Backend.map_ordered`, e.g. on a Ray cluster).
    """
    from csolve.batch import run_in_thread
    from csolve.search import new_ctrl

    ctrl = ctrl if ctrl is not None else new_ctrl()
    if mapper is not None:
        yield from mapper(make, seeds, workers, ctrl)
        return
    if workers <= 1:
        holder: list = []

        for s in seeds:
            holder.clear()
            run_in_thread(lambda s=s: holder.append(make(s, ctrl)), ctrl,
                          name="csolve-generate")
            yield holder[0]
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="csolve-generate")
    pending: dict[int, Future] = {}
    nxt = 0
    try:
        for i in range(len(seeds)):
            while nxt < len(seeds) and len(pending) < workers * 2:
                pending[nxt] = pool.submit(make, seeds[nxt], ctrl)
                nxt += 1
            fut = pending.pop(i)
            while not fut.done():
                wait([fut], timeout=0.05, return_when=FIRST_COMPLETED)
            yield fut.result()
    except BaseException:
        ctrl[abi.CTRL_STOP] = 1
        raise
    finally:
        for f in pending.values():
            f.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def load_grader() -> Callable[..., object]:
    """The grader's ``grade(ptype, puzzle)``, or a one-line error if it is not installed."""
    try:
        from csolve.grading import grade
    except ModuleNotFoundError as e:
        if e.name != "csolve.grading":
            raise
        raise GenerationError("difficulty grading is not available") from None
    return grade


def grade_label(result: object) -> str:
    """The level name in whatever the grader returned (a string, or an object with one)."""
    if isinstance(result, str):
        return result
    for attr in ("level", "label", "name"):
        value = getattr(result, attr, None)
        if isinstance(value, str):
            return value
    return str(result)


@dataclass
class Generated:
    """One generated puzzle: its position, the seed that reproduces it, and its solution."""

    index: int
    seed: int
    puzzle: object  # csolve.puzzle.Puzzle
    solution: object
    tries: int = 1
    grade: str | None = None


def check_tries(tries: int | None, difficulty: str | None) -> None:
    """``--tries`` alone does nothing (every puzzle then takes one try): refused, by the
    command and the API (in its words, ``tries=``)."""
    if tries is not None and difficulty is None:
        from csolve.errors import OptionError

        raise OptionError("--tries goes with --difficulty (without it every puzzle takes "
                          "one try)")


def checked_request(ptype, options: GenerateOptions) -> GenerateOptions:
    """``options`` as generation takes them (the chosen rules as solve takes them:
    elimination first, the type's constraints kept), with every refusal raised before any
    work: an unknown rule, a box shape for a type without boxes, what the type cannot make
    (:meth:`PuzzleType.check_generate`)."""
    from dataclasses import replace

    from csolve.puzzle import check_own_constraints
    from csolve.rules import kernel_paths

    if options.rules is not None:
        check_own_constraints(ptype, options.rules)  # another type's sums change nothing
    options = replace(options, rules=ptype.rules_for(options.rules))
    if options.rules is not None:
        kernel_paths(options.rules)  # every name known
    if options.box is not None:
        ptype.with_box([], options.box)  # a type with no box shape to choose says so
    ptype.check_generate(options)
    most = ptype.most_clues(options)
    if options.clues is not None and options.clues >= most:  # it would remove nothing
        where = (f"the {most} cells of a {options.size}x{options.size} grid"
                 if most == options.size * options.size else
                 f"the {most} clues a {options.size}x{options.size} {ptype.name} puzzle holds")
        raise GenerationError(f"--clues N must be fewer than {where}, got {options.clues}")
    return options


class _Clock:
    """One watcher thread for every puzzle under a time limit: it stops a puzzle's own
    control array at its deadline, or as soon as the shared one it came with is stopped
    (Ctrl-C). A thread of its own for each puzzle cost a noticeable share of a small
    puzzle's making; this one is started when a puzzle is timed and nothing watches, and
    ends once nothing has been timed for a while, so a stream of puzzles shares it."""

    TICK = 0.02  # seconds between looks: how late a deadline or a stop may be seen
    LINGER = 1.0  # seconds it waits for the next puzzle before it ends

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Nothing timed, no thread: at the start, and in a child process after a fork
        (which has no copy of the thread, and may hold a copy of a taken lock)."""
        self._lock = threading.Lock()
        # own ctrl's id -> (own ctrl, shared ctrl, deadline on the clock below, ran-out flag)
        self._timed: dict[int, tuple[np.ndarray, np.ndarray, float, threading.Event]] = {}
        self._running = False

    @staticmethod
    def now() -> float:
        """Wall seconds that leave out compiling kernels, as a search's time limit does."""
        from csolve.kernels.diskcache import seconds_compiling

        return time.monotonic() - seconds_compiling()

    def watch(self, own: np.ndarray, shared: np.ndarray, seconds: float) -> threading.Event:
        """Start ``own``'s clock; the event is set if its deadline stops it."""
        ran_out = threading.Event()
        with self._lock:
            self._timed[id(own)] = (own, shared, self.now() + seconds, ran_out)
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="csolve-generate-clock",
                                 daemon=True).start()
        return ran_out

    def forget(self, own: np.ndarray) -> None:
        with self._lock:
            self._timed.pop(id(own), None)

    def _run(self) -> None:
        try:
            self._watch_until_idle()  # (says it no longer runs, under the lock, as it ends)
        except BaseException:  # the next puzzle timed starts a thread again
            with self._lock:
                self._running = False
            raise

    def _watch_until_idle(self) -> None:
        idle_since = None
        while True:
            time.sleep(self.TICK)
            with self._lock:
                if not self._timed:
                    idle_since = idle_since or time.monotonic()
                    if time.monotonic() - idle_since >= self.LINGER:
                        self._running = False  # (under the lock: a puzzle timed next
                        return  # starts a thread of its own)
                    continue
                idle_since = None
                now = self.now()
                for key, (own, shared, deadline, ran_out) in list(self._timed.items()):
                    if shared[abi.CTRL_STOP] or now >= deadline:
                        if not shared[abi.CTRL_STOP]:
                            ran_out.set()
                        own[abi.CTRL_STOP] = 1
                        del self._timed[key]


_clock = _Clock()
os.register_at_fork(after_in_child=_clock.reset)


def with_time_limit(seconds: float, make: Callable[[int, np.ndarray], Generated], hint: str
                    ) -> Callable[[int, np.ndarray], Generated]:
    """``make`` stopped after ``seconds`` of wall time a puzzle (compiling kernels left out,
    as a search's time limit leaves it out), with :class:`GenerationTimeoutError` and
    ``hint`` for what to ask instead. It searches under a control array of its own, which
    the clock stops at the deadline or as soon as the shared one is stopped (Ctrl-C), so
    one puzzle's clock leaves the others running, wherever ``make`` runs."""
    from csolve.search import new_ctrl

    def timed(puzzle_seed: int, ctrl: np.ndarray) -> Generated:
        own = new_ctrl()
        ran_out = _clock.watch(own, ctrl, seconds)
        try:
            return make(puzzle_seed, own)
        except KeyboardInterrupt:
            if ran_out.is_set() and not ctrl[abi.CTRL_STOP]:
                raise GenerationTimeoutError(
                    f"a puzzle was not made within {seconds:g} s (puzzle seed {puzzle_seed}): "
                    f"pass a longer --timeout N, {hint}") from None
            raise
        finally:
            _clock.forget(own)

    return timed


def _what_takes_less(ptype, options: GenerateOptions, difficulty: str | None) -> str:
    """What a time-out suggests asking for instead, of what this request can change."""
    if difficulty:
        return "or another difficulty (each try is graded)"
    if options.clues is None and takes_clues(ptype, options):
        return "or ask for less (--clues N instead of a minimal puzzle; a smaller size)"
    return "or ask for a smaller size"


def generate_puzzles(ptype, options: GenerateOptions, count: int, seed: int,
                     workers: int = 1, difficulty: str | None = None, tries: int | None = None,
                     ctrl: np.ndarray | None = None,
                     mapper: Callable[..., Iterator[object]] | None = None,
                     timeout: float | None = None) -> Iterator[Generated]:
    """``count`` puzzles of ``ptype``, in order, each checked unique by the solution counter.

    Puzzle i is made from its own seed (from :func:`derive_seeds`) and try t from
    ``(seed_i, t)``, so the output depends only on ``seed``, the options and the version.
    With ``difficulty``, tries go on until the grader says that level: at most ``tries``,
    or when None as many as fit in :data:`csolve.defaults.DIFFICULTY_SECONDS` of the CPU
    time of the thread making the puzzle (CPU time, so threads that share the interpreter
    each get their full share). Try t is always the same draw, so the puzzle found is the
    same either way; only whether a rare level is found within the time can differ.
    ``mapper``: where the puzzles are made (see :func:`generate_in_order`). ``timeout``:
    wall seconds a puzzle may take (:func:`with_time_limit`); the first puzzle not made in
    time ends the stream with :class:`GenerationTimeoutError`, after the puzzles before it.
    """
    from csolve.search import new_ctrl

    options = checked_request(ptype, options)
    grade = load_grader() if difficulty else None
    easing = grade is not None and options.clues is None and takes_clues(ptype, options)
    ctrl = ctrl if ctrl is not None else new_ctrl()
    seeds = derive_seeds(seed, count)

    def make(puzzle_seed: int, ctrl: np.ndarray) -> Generated:
        budget = defaults.DIFFICULTY_SECONDS
        deadline = time.thread_time() + budget
        t = 0
        while True:
            _stop_requested(ctrl)  # a type's own generate may not look at ctrl
            rng = np.random.default_rng([puzzle_seed, t])
            puzzle, solution = ptype.generate(options, rng, ctrl)
            label = grade_label(grade(ptype, puzzle)) if grade else None
            # easing costs several draws and rarely lands on a middle level: tried on
            # tries 1, 2, 4, 8, ... only, it finds an easy level at once for little cost
            if easing and t & (t + 1) == 0 and harder(label, difficulty):
                puzzle, solution, label = eased(
                    lambda clues, t=t: ptype.generate(
                        replace(options, clues=clues), np.random.default_rng([puzzle_seed, t]),
                        ctrl),
                    (puzzle, solution, label), difficulty, lambda p: grade_label(grade(ptype, p)),
                    ptype.clue_count, ptype.most_clues(options) - 1)
            t += 1
            if grade is None or label == difficulty:
                check_generated(ptype, puzzle, solution, options, ctrl)
                return Generated(0, puzzle_seed, puzzle, solution, t, label)
            if tries is not None and t >= tries:
                raise GenerationError(f"no {difficulty} puzzle came out in {counted(t, 'try')} "
                                      f"(puzzle seed {puzzle_seed}); pass more --tries N or "
                                      "pick another difficulty")
            if tries is None and time.thread_time() >= deadline:
                made = f"{t:,} {'try' if t == 1 else 'tries'}"
                raise GenerationTimeoutError(
                    f"no {difficulty} puzzle came out in {made} within {budget:g} CPU s "
                    f"(puzzle seed {puzzle_seed}): the level is rare or absent at this size; "
                    f"pass --tries N (over {t:,}) to look longer, or pick another difficulty")

    if timeout:
        make = with_time_limit(timeout, make, _what_takes_less(ptype, options, difficulty))
    for i, g in enumerate(generate_in_order(make, seeds, workers, ctrl, mapper)):
        g.index = i
        g.puzzle.index = i
        g.puzzle.line = i + 1
        g.puzzle.kind = ptype.name  # a type built on another's generator is still itself
        g.puzzle.meta["seed"] = g.seed
        yield g


def takes_clues(ptype, options: GenerateOptions) -> bool:
    """Whether ``ptype`` can stop its clue removal at a count (Killer, with no clues, cannot)."""
    from dataclasses import replace

    try:
        ptype.check_generate(replace(options, clues=ptype.most_clues(options) - 1))
    except CsolveError:
        return False
    return True


def harder(label: str | None, level: str | None) -> bool:
    """Whether grade ``label`` is a harder level than ``level``."""
    from csolve.grading import LEVELS

    return label in LEVELS and level in LEVELS and LEVELS.index(label) > LEVELS.index(level)


def eased(make: Callable[[int], tuple[object, object]], minimal: tuple[object, object, str],
          level: str, label_of: Callable[[object], str], clue_count: Callable[[object], int],
          most: int) -> tuple[object, object, str]:
    """The puzzle of fewest clues grading ``level`` or easier on the path a minimal puzzle
    took, when that puzzle graded harder: a minimal puzzle is rarely easy, and clues put
    back make it easier. ``make(clues)`` repeats the minimal puzzle's draw (the same
    solution and removal order) stopping at ``clues`` (``most``: the most it takes); clue
    counts are searched by halves, levels taken as falling while clues grow. Returns
    ``minimal`` if none grades ``level``.
    """
    low = clue_count(minimal[0])  # too hard
    puzzle, solution = make(most)  # (nearly) no clue removed: the easiest on this path
    best = (puzzle, solution, label_of(puzzle))
    high = clue_count(puzzle)
    if harder(best[2], level):
        return minimal
    while high - low > 1:
        middle = (low + high) // 2
        puzzle, solution = make(middle)
        label = label_of(puzzle)
        if harder(label, level):
            low = middle
        else:
            high, best = min(middle, clue_count(puzzle)), (puzzle, solution, label)
            if high <= low:
                break
    return best if best[2] == level else minimal


def check_generated(ptype, puzzle, solution, options: GenerateOptions,
                    ctrl: np.ndarray | None = None) -> None:
    """Refuse to hand out a puzzle the counter does not find unique, or a bad solution."""
    from csolve.solver import InvalidSolutionError

    problems = ptype.validate(puzzle, solution)
    if problems:
        raise InvalidSolutionError(f"internal error: a generated solution is invalid: "
                                   f"{problems[0]}")
    n = count_solutions(ptype.model(puzzle, options.rules), 2, ctrl)
    if n != 1:
        raise InvalidSolutionError(f"internal error: a generated puzzle has {n} solutions")
