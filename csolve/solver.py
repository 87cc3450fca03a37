"""Solving puzzles: one at a time through a backend, or many of one shape in one kernel call.

This is the layer the CLI and library users call. Every solution it returns was decoded by
the puzzle's plugin and passed the plugin's validator.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from csolve.backends import SearchJob, get_backend
from csolve.defaults import ESCALATE_AFTER
from csolve.engines import GENERIC, with_engine
from csolve.errors import CsolveError, ExitCode, UnknownNameError
from csolve.kernels import abi
from csolve.model import Model
from csolve.puzzle import Puzzle, PuzzleType
from csolve.search import BatchScratch, kernels_for_model, new_ctrl, stats_dict

#: The engine a puzzle moves to when the model's own search gives up on it.
FALLBACK_ENGINE = "learning"
#: How the learning engine takes a puzzle over on one core: as searches that take turns on
#: the calling thread and split the puzzle between them. Its run times are heavy-tailed, and
#: parts searched in turn cut the tail: of 64 runs of Frisch's 25x25 puzzles, within 10 s,
#: two searches solve 54-55 (median 1.68-1.92 s), three 52 (2.17 s) and one search 48-53
#: (1.82-1.92 s) (benchmarks/bench_heavy_tail.py, pinned to one core).
TAKEOVER_ONE_CORE = ("interleave", 2)
#: How a file's given-up puzzles are taken over with several workers: one at a time, each
#: split between all the workers, rather than one puzzle per worker - split searches cut
#: the tail (59 of 64 Frisch runs within 10 s on two workers, median 0.93 s, against 50 and
#: 1.84 s for one search).
TAKEOVER_SHARED = "locked-pool"


class Status(StrEnum):
    SOLVED = "solved"
    NO_SOLUTION = "no-solution"
    MULTIPLE = "multiple"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"


class InvalidSolutionError(CsolveError):
    """A solution failed the validator: a bug in a rule or plugin, never shown as an answer."""

    exit_code = ExitCode.INTERNAL


@dataclass
class PuzzleResult:
    puzzle: Puzzle
    status: Status
    solutions: list[Any] = field(default_factory=list)
    count: int = 0  # solutions found (all of them when ``exact``)
    exact: bool = False  # True when the whole search tree was explored
    stats: dict = field(default_factory=dict)
    seconds: float = 0.0
    workers: list[dict] = field(default_factory=list)
    engine: str = ""  # the search engine that answered ("dfs": the generic search)
    took_over_from: str = ""  # the engine that gave the puzzle up to ``engine``, if any


@dataclass(frozen=True)
class SolveOptions:
    """``limit``: 1 finds one solution, N counts up to N, 0 counts all."""

    limit: int = 1
    backend: str = "serial"
    workers: int = 1
    timeout: float | None = None
    rules: tuple[str, ...] | None = None
    engine: str | None = None  # None: the model's choice; "dfs": the generic search
    keep: int = 2
    backend_options: dict = field(default_factory=dict)
    #: with ``engine`` None: nodes before a puzzle moves to the learning engine (0: never)
    escalate_after: int = ESCALATE_AFTER


def checked(ptype: PuzzleType, puzzle: Puzzle, masks: np.ndarray) -> Any:
    """Decode a solved state and validate it against the givens."""
    solution = ptype.decode(puzzle, masks)
    problems = ptype.validate(puzzle, solution)
    if problems:
        raise InvalidSolutionError(
            f"{puzzle.where}: internal error: a solution failed validation: {problems[0]}"
        )
    return solution


def _checked_many(ptype: PuzzleType, puzzles: Sequence[Puzzle], masks: np.ndarray) -> list:
    """:func:`checked` for a batch, with the plugin's whole-batch decode and validate."""
    if not puzzles:
        return []
    solutions = ptype.decode_many(puzzles, masks)
    for puzzle, problems in zip(puzzles, ptype.validate_many(puzzles, solutions), strict=True):
        if problems:
            raise InvalidSolutionError(
                f"{puzzle.where}: internal error: a solution failed validation: {problems[0]}"
            )
    return solutions


def _status(count: int, exact: bool, reason: str, limit: int) -> Status:
    """A search cut short is a time-out (or interruption) unless it already has its answer."""
    answered = limit > 0 and count >= limit
    if reason in ("timeout", "gave-up") and not answered:
        return Status.TIMEOUT
    if reason == "stopped" and not answered:
        return Status.INTERRUPTED
    if count == 0:
        return Status.NO_SOLUTION
    return Status.MULTIPLE if count >= 2 else Status.SOLVED


def solve_puzzle(ptype: PuzzleType, puzzle: Puzzle, options: SolveOptions = SolveOptions(),
                 on_solution: Callable[[Any], None] | None = None,
                 ctrl: np.ndarray | None = None) -> PuzzleResult:
    """Solve one puzzle with a backend. ``on_solution`` streams every solution (``--all``).

    With no engine asked for, the backend gives the puzzle up after
    ``options.escalate_after`` nodes of the model's own search, and the learning engine
    takes it over, on the same backend and workers, for the rest of the time allowed.
    """
    ptype.check(puzzle)
    model = with_engine(ptype.model(puzzle, options.rules), options.engine)
    fallback, budget = (None, 0) if on_solution is not None else _fallback(
        model, options.engine, options.limit, options.escalate_after)
    ctrl = ctrl if ctrl is not None else new_ctrl()
    first, reason = _solve_with(ptype, puzzle, model, options, on_solution, ctrl,
                                options.timeout, budget)
    if reason != "gave-up" or fallback is None:
        return first
    return _take_over(ptype, puzzle, fallback, first, options, ctrl)


def _take_over(ptype: PuzzleType, puzzle: Puzzle, fallback: Model, first: PuzzleResult,
               options: SolveOptions, ctrl: np.ndarray) -> PuzzleResult:
    """Solve a puzzle given up by ``first`` again with the fallback engine, in the time left:
    on the same workers, or on one core as interleaved searches (``TAKEOVER_ONE_CORE``)."""
    if options.workers <= 1 or not get_backend(options.backend).parallel:
        backend, workers = TAKEOVER_ONE_CORE
        options = replace(options, backend=backend, workers=workers)
    left = None if options.timeout is None else max(options.timeout - first.seconds, 1e-3)
    second, _ = _solve_with(ptype, puzzle, fallback, options, None, ctrl, left, 0)
    return _took_over(first, second)


def _fallback(model: Model, engine: str | None, limit: int, escalate_after: int
              ) -> tuple[Model | None, int]:
    """``model`` searched by the learning engine, for the puzzles its own search gives up
    on, and the node budget of that search; (None, 0) when none should move: an engine was
    named, every solution is wanted (the depth-first search enumerates best), or the
    learning engine cannot search the model."""
    if engine is not None or escalate_after <= 0 or limit == 0 or model.engine == FALLBACK_ENGINE:
        return None, 0
    try:
        return with_engine(model, FALLBACK_ENGINE), escalate_after
    except UnknownNameError:
        return None, 0


def _took_over(first: PuzzleResult, second: PuzzleResult) -> PuzzleResult:
    """The result of the engine that took a puzzle over, with the time already spent."""
    second.seconds += first.seconds
    second.took_over_from = first.engine
    return second


def _solve_with(ptype: PuzzleType, puzzle: Puzzle, model: Model, options: SolveOptions,
                on_solution: Callable[[Any], None] | None, ctrl: np.ndarray,
                timeout: float | None, node_budget: int) -> tuple[PuzzleResult, str]:
    """One backend run of ``model``: the result, and why the search ended."""
    kernels = kernels_for_model(model)
    backend = get_backend(options.backend)
    warm_up(model, kernels)
    t0 = time.monotonic()
    stream = None
    if on_solution is not None:
        def stream(masks: np.ndarray) -> None:
            on_solution(checked(ptype, puzzle, masks))
    job = SearchJob(
        model=model, kernels=kernels, limit=options.limit, keep=options.keep,
        on_solution=stream, workers=options.workers,
        deadline=t0 + timeout if timeout else None,
        ctrl=ctrl, options=dict(options.backend_options), node_budget=node_budget,
    )
    outcome = backend.solve(job)
    seconds = time.monotonic() - t0
    solutions = [checked(ptype, puzzle, s) for s in outcome.solutions]
    exact = outcome.complete
    return PuzzleResult(
        puzzle=puzzle,
        status=_status(outcome.count, exact, outcome.reason, options.limit),
        solutions=solutions, count=outcome.count, exact=exact,
        stats=outcome.stats, seconds=seconds, workers=outcome.workers,
        engine=model.engine or GENERIC,
    ), outcome.reason


def warm_up(model, kernels) -> None:
    """Load (or compile) the search kernel before any clock starts: a call with no budget."""
    from csolve.search import SearchState

    state = SearchState(model, kernels, solution_capacity=1)
    state.push_root()
    ctrl = new_ctrl()
    state.preload(ctrl, 1, False, 0)
    state.run(ctrl, 1, False, 0)


def _run_in_thread(target: Callable[[], None], ctrl: np.ndarray,
                   poll: Callable[[], None]) -> None:
    """Run a GIL-free kernel call in a thread; the caller's thread polls and handles Ctrl-C."""
    errors: list[BaseException] = []

    def body() -> None:
        try:
            target()
        except BaseException as e:  # surfaced in the calling thread
            errors.append(e)

    t = threading.Thread(target=body, name="csolve-batch", daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.05)
            poll()
    except BaseException:
        ctrl[abi.CTRL_STOP] = 1
        t.join()
        raise
    poll()
    if errors:
        raise errors[0]


def solve_batch(ptype: PuzzleType, puzzles: Sequence[Puzzle], limit: int = 1,
                timeout: float | None = None, rules: tuple[str, ...] | None = None,
                progress: Callable[[int], None] | None = None,
                ctrl: np.ndarray | None = None, workers: int = 1,
                engine: str | None = None,
                escalate_after: int = ESCALATE_AFTER) -> Iterator[PuzzleResult]:
    """Solve many puzzles, same-shaped ones in one kernel call each; results in input order.

    ``timeout`` applies to each puzzle. ``progress(k)`` is told how many are done.
    ``workers`` > 1 splits each group across that many threads (csolve.batch). ``engine``
    and ``escalate_after`` as in :class:`SolveOptions`: the puzzles the model's own search
    gives up on are solved again by the learning engine, one at a time: split between the
    workers (``TAKEOVER_SHARED``), or with one worker as interleaved searches
    (``TAKEOVER_ONE_CORE``).
    """
    ctrl = ctrl if ctrl is not None else new_ctrl()
    ptype.check_many(puzzles)
    for start, stop, model, inits in ptype.model_runs(puzzles, rules):
        model = with_engine(model, engine)
        group = puzzles[start:stop]
        fallback, budget = _fallback(model, engine, limit, escalate_after)
        results, gave_up = _solve_group(ptype, group, model, inits, limit, timeout, ctrl,
                                        progress, start, workers, budget)
        if gave_up and fallback is not None:
            options = SolveOptions(limit=limit, timeout=timeout, rules=rules,
                                   backend=TAKEOVER_SHARED, workers=workers)
            for i, k in enumerate(gave_up):  # one at a time, each with every worker
                results[k] = _take_over(ptype, group[k], fallback.with_init(inits[k]),
                                        results[k], options, ctrl)
                if progress is not None:
                    progress(start + len(group) - len(gave_up) + i + 1)
        yield from results


def _solve_group(ptype, puzzles, model, inits, limit, timeout, ctrl, progress, done_before,
                 workers=1, node_budget=0) -> tuple[list[PuzzleResult], list[int]]:
    """Solve same-shaped puzzles in batch kernel calls: their results, and the indices of
    those given up after ``node_budget`` nodes (> 0)."""
    kernels = kernels_for_model(model)
    n_puzzles, n = len(puzzles), model.n_cells
    inits = np.ascontiguousarray(inits, dtype=np.uint64)
    reason = np.zeros(n_puzzles, dtype=np.int64)
    sols = np.zeros((n_puzzles, n), dtype=np.uint64)
    counts = np.zeros(n_puzzles, dtype=np.int64)
    stats = np.zeros((n_puzzles, abi.STAT_SIZE), dtype=np.int64)
    scratch = BatchScratch(model)
    ctrl[abi.CTRL_DONE] = 0
    ctrl[abi.CTRL_SKIP] = 0
    ctrl[abi.CTRL_GAVE_UP] = 0
    ctrl[abi.CTRL_NODE_BUDGET] = node_budget
    watch = {"current": -1, "since": time.monotonic()}
    scratch.warm_up(kernels, model, inits, limit, ctrl, reason, sols, counts, stats)

    def poll() -> None:
        if progress is not None:  # puzzles given up for their node budget are not done
            progress(done_before + int(ctrl[abi.CTRL_DONE]) - int(ctrl[abi.CTRL_GAVE_UP]))
        if timeout:
            cur = int(ctrl[abi.CTRL_CURRENT])
            now = time.monotonic()
            if cur != watch["current"]:
                watch["current"], watch["since"] = cur, now
            elif now - watch["since"] > timeout:
                ctrl[abi.CTRL_SKIP] = cur + 1

    t0 = time.perf_counter()
    if workers > 1 and n_puzzles > 1:
        from csolve.batch import solve_chunks

        def told(k: int) -> None:
            if progress is not None:
                progress(done_before + k)

        solve_chunks(model, kernels, inits, limit, timeout, ctrl, min(workers, n_puzzles),
                     told, reason, sols, counts, stats)
    else:
        _run_in_thread(lambda: scratch.solve(kernels, model, inits, limit, ctrl, reason, sols,
                                             counts, stats), ctrl, poll)
    wall = time.perf_counter() - t0
    cycles = stats[:, abi.STAT_CYCLES].astype(np.float64)
    used = min(workers, n_puzzles) if workers > 1 else 1  # cycles add up over threads
    per_cycle = wall * used / cycles.sum() if cycles.sum() > 0 else 0.0
    solved = np.flatnonzero(counts > 0)
    found = _checked_many(ptype, [puzzles[k] for k in solved], sols[solved])
    first = dict(zip(solved.tolist(), found, strict=True))
    ctrl[abi.CTRL_NODE_BUDGET] = 0
    ends = {abi.EXHAUSTED: "exhausted", abi.LIMIT: "limit", abi.SKIPPED: "timeout",
            abi.GAVE_UP: "gave-up"}
    results = []
    gave_up = []
    for k, puzzle in enumerate(puzzles):
        end = ends.get(int(reason[k]), "stopped")
        if end == "gave-up":
            gave_up.append(k)
        count = int(counts[k])
        solutions = [first[k]] if count > 0 else []
        seconds = cycles[k] * per_cycle if per_cycle else wall / n_puzzles
        results.append(PuzzleResult(
            puzzle=puzzle, status=_status(count, end == "exhausted", end, limit),
            solutions=solutions, count=count, exact=end == "exhausted",
            stats=stats_dict(stats[k]), seconds=float(seconds),
            engine=model.engine or GENERIC))
    return results, gave_up
