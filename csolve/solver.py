"""The one solve path: every puzzle, from the CLI or from Python, goes through
:func:`solve_blocks`.

For each run of same-shaped puzzles:

1. the backend's :meth:`~csolve.backends.base.Backend.solve_group` runs the batch kernel
   over all of them at once (no Python work per puzzle), each for at most a small node
   budget - most puzzles end here (a lone puzzle skips this step unless the backend is
   ``serial``: the backend's own probe, a lone search before it shares, does the same);
2. a puzzle that needs more search than that is searched alone by the backend the user
   named, on the workers they gave (:meth:`~csolve.backends.base.Backend.solve`);
3. a puzzle that the model's own search has not solved after ``escalate_after`` nodes is
   taken over by the clause-learning engine, for the time left.

With the ``serial`` backend steps 1 and 2 are the same search, so step 1 runs to the
escalation budget. Every solution returned was decoded by the puzzle's plugin and passed its
validator.
"""

from __future__ import annotations

import reprlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from csolve.backends import Backend, GroupJob, SearchJob, get_backend
from csolve.defaults import PROBE_NODES, escalate_budget
from csolve.engines import GENERIC, LEARNING, with_engine
from csolve.errors import CsolveError, ExitCode, OptionError
from csolve.kernels import abi
from csolve.kernels.diskcache import preparing_kernels
from csolve.model import Model
from csolve.outcome import STATS_FIELDS, End, Result, ResultBlock, Stats, Status
from csolve.puzzle import Puzzle, PuzzleType
from csolve.search import BatchScratch, kernels_for_model, new_ctrl

__all__ = ["End", "Result", "ResultBlock", "SolveOptions", "Stats", "Status", "solve_blocks",
           "solve_one", "solve_puzzles"]

#: The engine a puzzle moves to when the model's own search gives up on it.
FALLBACK_ENGINE = LEARNING
#: How the learning engine takes a puzzle over on one core: the backend, its searches and
#: its ``-O`` options. One search keeps every conflict it learns from on the whole puzzle;
#: searches that take turns and split the puzzle (``interleave``) each start afresh, and on
#: one core lost more than they saved (benchmarks/bench_heavy_tail.py, ``--takeovers``).
TAKEOVER_ONE_CORE: tuple[str, int, dict[str, str]] = ("serial", 1, {})


class InvalidSolutionError(CsolveError):
    """A solution failed the validator: a bug in a rule or plugin, never shown as an answer."""

    exit_code = ExitCode.INTERNAL


@dataclass(frozen=True)
class SolveOptions:
    """How to solve. ``limit``: 1 finds one solution, N counts up to N, 0 counts all."""

    limit: int = 1
    backend: str = "serial"
    workers: int = 1
    timeout: float | None = None  # seconds per puzzle
    rules: tuple[str, ...] | None = None
    engine: str | None = None  # None: the model's choice; "dfs": the generic search
    #: solutions kept per puzzle: the batch kernel keeps the first, so a puzzle it finds
    #: more for is searched again by the backend, which keeps up to this many
    keep: int = 1
    backend_options: dict = field(default_factory=dict)
    #: with ``engine`` None: nodes before a puzzle moves to the learning engine (0: never;
    #: None: by the grid's size, :func:`csolve.defaults.escalate_budget`)
    escalate_after: int | None = None
    #: nodes the batch kernel spends on a puzzle before a non-serial backend searches it
    probe_nodes: int = PROBE_NODES
    #: with one worker: how the learning engine takes a puzzle over, as (backend, searches,
    #: its options); None: :data:`TAKEOVER_ONE_CORE`
    takeover: tuple[str, int, dict[str, str]] | None = None


def solve_puzzles(ptype: PuzzleType, puzzles: Sequence[Puzzle],
                  options: SolveOptions = SolveOptions(), *,
                  on_solution: Callable[[Puzzle, Any], None] | None = None,
                  progress: Callable[[int], None] | None = None,
                  ctrl: np.ndarray | None = None) -> Iterator[Result]:
    """Every puzzle's :class:`Result`, in input order, as soon as it is known."""
    for block in solve_blocks(ptype, puzzles, options, on_solution=on_solution,
                              progress=progress, ctrl=ctrl):
        yield from block


def solve_one(ptype: PuzzleType, puzzle: Puzzle, options: SolveOptions = SolveOptions(), *,
              on_solution: Callable[[Any], None] | None = None,
              ctrl: np.ndarray | None = None) -> Result:
    """One puzzle's :class:`Result` (:func:`solve_blocks` for a file of one puzzle);
    ``on_solution(solution)`` streams every solution."""
    stream = None if on_solution is None else (lambda _p, s: on_solution(s))
    return next(solve_puzzles(ptype, [puzzle], options, on_solution=stream, ctrl=ctrl))


def solve_blocks(ptype: PuzzleType, puzzles: Sequence[Puzzle],
                 options: SolveOptions = SolveOptions(), *,
                 on_solution: Callable[[Puzzle, Any], None] | None = None,
                 progress: Callable[[int], None] | None = None,
                 ctrl: np.ndarray | None = None) -> Iterator[ResultBlock]:
    """Results in input order, in :class:`ResultBlock` parts (so that output can be written
    in bulk): a run of same-shaped puzzles is one block, or several when some of its puzzles
    go on to a backend or the learning engine (each part goes out once it is final).

    ``on_solution(puzzle, solution)`` streams every solution (``--all``): each puzzle is
    then searched by the backend alone. ``progress(k)`` is told how many puzzles are done.
    Setting ``ctrl[CTRL_STOP]`` stops every worker; the puzzles not finished come back
    ``interrupted``.
    """
    backend = get_backend(options.backend)
    options = replace(options, backend_options=backend.check_options(options.backend_options))
    backend.check_workers(options.workers)
    ctrl = ctrl if ctrl is not None else new_ctrl()
    for start, stop, model, inits in ptype.model_runs(puzzles, options.rules):
        model = with_engine(model, options.engine)
        run = _Run(ptype, puzzles[start:stop], model, inits, options, backend, ctrl,
                   progress, start)
        if on_solution is not None:
            yield from run.stream(on_solution)
        else:
            yield from run.solve()


class _Run:
    """One run of same-shaped puzzles going through the three steps."""

    def __init__(self, ptype: PuzzleType, puzzles: Sequence[Puzzle], model: Model,
                 inits: np.ndarray, options: SolveOptions, backend: Backend,
                 ctrl: np.ndarray, progress: Callable[[int], None] | None,
                 done_before: int) -> None:
        self.ptype = ptype
        self.puzzles = puzzles
        self.model = model
        self.inits = np.ascontiguousarray(inits, dtype=np.uint64)
        self.options = options
        self.backend = backend
        self.ctrl = ctrl
        self.progress = progress
        self.done_before = done_before
        self.fallback = _take_over(model, options)[0]  # (None: the model's own search only)
        self.told = 0

    def _told(self, done: int) -> None:
        """Pass a backend's polled count on when it has grown (polls repeat it)."""
        if self.progress is not None and done > self.told:
            self.told = done
            self.progress(self.done_before + done)

    def stream(self, on_solution: Callable[[Puzzle, Any], None]) -> Iterator[ResultBlock]:
        """Each puzzle searched by the backend alone, every solution streamed."""
        self.ptype.check_many(self.puzzles)
        for k, puzzle in enumerate(self.puzzles):
            model = self.model.with_init(self.inits[k])
            r, _ = self._search(puzzle, model, self.options.timeout, 0,
                                lambda s, p=puzzle: on_solution(p, s))
            self._told(k + 1)
            yield ResultBlock.of([r])

    def solve(self) -> Iterator[ResultBlock]:
        """Step 1 for every puzzle at once, then steps 2 and 3 for those that need them.

        The results come in input order as soon as they are final: the puzzles the batch
        settled up to the first one it gave up, then each given-up puzzle once a backend or
        the learning engine has answered it, with the settled ones after it (one block when
        the batch settles them all)."""
        opts = self.options
        serial = self.backend.name == "serial"
        escalate = (escalate_budget(self.model.n_cells, opts.escalate_after)
                    if self.fallback is not None else 0)
        # one puzzle goes straight to a sharing backend: its own probe (a lone search
        # before it shares) ends an easy one as soon, and the batch kernel is not loaded
        direct = not serial and (_no_probe(opts) or len(self.puzzles) == 1)
        if direct:  # every puzzle straight to the backend
            self.ptype.check_many(self.puzzles)
            results = ResultBlock.of([self._unsearched(k) for k in range(len(self.puzzles))])
            given_up = list(range(len(self.puzzles)))
        else:
            budget = escalate if serial else _min_positive(opts.probe_nodes, escalate)
            results, given_up = self._batch(budget)
        done = len(self.puzzles) - len(given_up)
        self._told(done)  # before the settled ones go out: the bar never lags the output
        ready = 0  # results[:ready] are out
        for k in given_up:
            if k > ready:
                yield self._final(results, ready, k)
                ready = k
            puzzle = self.puzzles[k]
            model = self.model.with_init(self.inits[k])
            first = results[k]
            left = _time_left(opts.timeout, first.seconds)
            if direct or not serial:  # step 2: the named backend searches it
                deeper, end = self._search(puzzle, model, left, escalate, None)
                first = _after(first, deeper)
                left = _time_left(opts.timeout, first.seconds)
            else:
                end = End.GAVE_UP
            if end is End.GAVE_UP and self.ctrl[abi.CTRL_STOP]:
                first = _stopped(first)  # the stop, not its node budget, ended it
            elif end is End.GAVE_UP and self.fallback is not None:
                first = self._take_over(k, first, left)  # step 3
            results.put(k, first)
            done += 1
            self._told(done)
        yield self._final(results, ready, len(self.puzzles))

    def _final(self, results: ResultBlock, start: int, stop: int) -> ResultBlock:
        """Puzzles ``start:stop`` as they go out: with every solution they are to keep."""
        if self.options.keep > 1:
            self._keep_more(results, start, stop)
        if start == 0 and stop == len(results):
            return results
        return results.part(start, stop)

    def _keep_more(self, results: ResultBlock, start: int, stop: int) -> None:
        """Search again, keeping up to ``keep`` solutions, each puzzle found to have more
        than the one the batch kernel kept (most puzzles of a file have one: they stay on
        the batch path). The first search's count, status and end stand: the second only
        collects solutions, and stops once it has enough."""
        opts = self.options
        for k in [k for k in range(start, stop) if results.counts[k] > 1]:
            first = results[k]
            if len(first.solutions) >= min(first.count, opts.keep) or self.ctrl[abi.CTRL_STOP]:
                continue
            model = self.model.with_init(self.inits[k])
            left = _time_left(opts.timeout, first.seconds)
            wanted = min(first.count, opts.keep)  # the search ends once it has them
            again, _ = self._search(self.puzzles[k], model, left, 0, None, limit=wanted)
            results.put(k, _with_solutions(first, again))

    def _unsearched(self, k: int) -> Result:
        """A placeholder for puzzle ``k`` before any search, replaced by its answer."""
        return Result(puzzle=self.puzzles[k], status=Status.INTERRUPTED, end=End.STOPPED,
                      engine=self.model.engine or GENERIC, backend=self.backend.name,
                      puzzle_type=self.ptype)

    def _batch(self, node_budget: int) -> tuple[ResultBlock, list[int]]:
        """Step 1: the batch kernel over the whole run through the backend; the results,
        and the indices of the puzzles given up after ``node_budget`` nodes."""
        model, opts, inits = self.model, self.options, self.inits
        n_puzzles, n = inits.shape
        reason = np.zeros(n_puzzles, dtype=np.int64)
        sols = np.zeros((n_puzzles, n), dtype=np.uint64)
        counts = np.zeros(n_puzzles, dtype=np.int64)
        stats = np.zeros((n_puzzles, abi.STAT_SIZE), dtype=np.int64)
        # load (or compile) the kernel before any clock starts
        with preparing_kernels():
            kernels = kernels_for_model(model)
            BatchScratch(model).warm_up(kernels, model, inits, opts.limit, new_ctrl(), reason,
                                        sols, counts, stats)
        workers = max(1, opts.workers) if self.backend.parallel else 1
        job = GroupJob(model=model, kernels=kernels, inits=inits, reason=reason, sols=sols,
                       counts=counts, stats=stats, limit=opts.limit, workers=workers,
                       timeout=opts.timeout, ctrl=self.ctrl, options=dict(opts.backend_options),
                       node_budget=node_budget, progress=self._told)
        t0 = time.perf_counter()
        self.backend.solve_group(job)
        wall = max(0.0, time.perf_counter() - t0 - job.setup_s)  # (a cluster's start apart)
        seconds = _apportion(wall, stats[:, abi.STAT_CYCLES], min(workers, n_puzzles))
        solved = np.flatnonzero(counts > 0)
        all_solved = len(solved) == n_puzzles
        if all_solved:
            found = _checked_many(self.ptype, self.puzzles, sols)
            first: Sequence[Any] = found
        else:
            # a solution that keeps the givens proves them consistent: only the puzzles
            # left without one are checked, and a conflict among their givens is an input
            # error
            self.ptype.check_many([self.puzzles[k] for k in np.flatnonzero(counts == 0)])
            found = _checked_many(self.ptype, [self.puzzles[k] for k in solved.tolist()],
                                  sols[solved])
            first = [None] * n_puzzles
            for k, solution in zip(solved.tolist(), found, strict=True):
                first[k] = solution
        results = ResultBlock.from_batch(
            self.ptype, self.puzzles, codes=reason, counts=counts,
            counters=stats[:, :len(STATS_FIELDS)], seconds=seconds, first_solutions=first,
            limit=opts.limit, engine=model.engine or GENERIC, backend=self.backend.name,
            all_solved=all_solved)
        given_up = np.flatnonzero(reason == abi.GAVE_UP).tolist()
        return results, given_up

    def _search(self, puzzle: Puzzle, model: Model, timeout: float | None, node_budget: int,
                stream: Callable[[Any], None] | None, backend: Backend | None = None,
                workers: int | None = None, backend_options: dict[str, object] | None = None,
                limit: int | None = None) -> tuple[Result, End]:
        """Step 2 (or 3): one puzzle searched by a backend; its result and why it ended.
        ``backend_options``: the backend's options where the user's name none; ``limit``:
        the solutions to stop at, where not the user's."""
        opts = self.options
        limit = opts.limit if limit is None else limit
        backend = backend or self.backend
        workers = workers or max(1, opts.workers)
        with preparing_kernels():  # loaded (or compiled) before the clock starts
            kernels = kernels_for_model(model)
            warm_up(model, kernels)
        on_masks = None
        if stream is not None:
            def on_masks(masks: np.ndarray) -> None:
                stream(checked(self.ptype, puzzle, masks))
        t0 = time.monotonic()
        job = SearchJob(model=model, kernels=kernels, limit=limit, keep=opts.keep,
                        on_solution=on_masks, workers=workers,
                        deadline=t0 + timeout if timeout else None, ctrl=self.ctrl,
                        options={**(backend_options or {}),  # a take-over's backend differs
                                 **backend.read_options(opts.backend_options)},
                        node_budget=node_budget)
        outcome = backend.solve(job)
        seconds = time.monotonic() - t0 - job.setup_s
        end = End(outcome.reason)
        solutions = tuple(checked(self.ptype, puzzle, s) for s in outcome.solutions)
        return Result(
            puzzle=puzzle, status=Status.of(outcome.count, end, limit),
            solutions=solutions, count=outcome.count, exact=end is End.EXHAUSTED,
            engine=model.engine or GENERIC, backend=backend.name,
            stats=Stats.from_counters(outcome.stats, seconds, outcome.workers), end=end,
            puzzle_type=self.ptype), end

    def _take_over(self, k: int, first: Result, timeout: float | None) -> Result:
        """Step 3: the learning engine searches puzzle ``k``, given up by the model's own
        search: on the user's workers when the backend shares a search between them, else
        as ``SolveOptions.takeover`` (by default :data:`TAKEOVER_ONE_CORE`) says."""
        assert self.fallback is not None
        model = self.fallback.with_init(self.inits[k])
        backend, workers = self.backend, max(1, self.options.workers)
        defaults: dict[str, object] = {}
        if workers <= 1 or not backend.parallel:
            name, workers, given = self.options.takeover or TAKEOVER_ONE_CORE
            backend = get_backend(name)
            defaults = backend.check_options(given)
        second, _ = self._search(self.puzzles[k], model, timeout, 0, None, backend, workers,
                                 defaults)
        return replace(_after(first, second), took_over_from=first.engine)


def _after(first: Result, second: Result) -> Result:
    """``second``'s answer, with the time ``first`` spent added to its own."""
    return replace(second, stats=replace(second.stats,
                                         seconds=second.stats.seconds + first.stats.seconds))


def _stopped(result: Result) -> Result:
    """``result`` of a puzzle whose search was stopped before it could be taken over: an
    interruption where it had no answer yet, not a time-out."""
    if result.status is not Status.TIMEOUT:
        return result
    return replace(result, status=Status.INTERRUPTED, end=End.STOPPED)


def _with_solutions(first: Result, again: Result) -> Result:
    """``first``'s answer with the solutions a second search kept, and the time of both."""
    kept = again.solutions if len(again.solutions) > len(first.solutions) else first.solutions
    return replace(first, solutions=kept, stats=replace(
        first.stats, seconds=first.stats.seconds + again.stats.seconds))


def _no_probe(options: SolveOptions) -> bool:
    """True when the backend is to search from the first node: no batch probe (``probe``
    0, the backends' own word for sharing from the start, means it too)."""
    return options.probe_nodes <= 0 or options.backend_options.get("probe") in (0, 0.0, "0")


def _time_left(timeout: float | None, spent: float) -> float | None:
    return None if timeout is None else max(timeout - spent, 1e-3)


def _min_positive(a: int, b: int) -> int:
    """The smaller budget, where 0 means none."""
    return min(x for x in (a, b) if x > 0) if a > 0 or b > 0 else 0


def _apportion(wall: float, cycles: np.ndarray, threads: int) -> np.ndarray:
    """Each puzzle's share of a batch's wall time, by the CPU cycles it took (cycles add up
    over threads)."""
    cycles = cycles.astype(np.float64)
    total = cycles.sum()
    if total <= 0:
        return np.full(len(cycles), wall / max(1, len(cycles)))
    return cycles * (wall * max(1, threads) / total)


def escalation_unused(ptype: PuzzleType, puzzles: Sequence[Puzzle], options: SolveOptions,
                      streaming: bool = False) -> str | None:
    """Why a bound on the depth-first nodes (``escalate_after``) changes nothing for these
    puzzles, in words; None where it takes effect (or is 0, never, or not given).
    ``streaming``: each solution is handed over as it is found (:meth:`_Run.stream`)."""
    if not options.escalate_after or not len(puzzles):
        return None
    if streaming and 0 < options.limit <= 2 and options.engine is None:
        return "a search that hands over each solution as it is found stays depth-first"
    return _take_over(ptype.model(puzzles[0], options.rules), options, ptype.name)[1]


def _take_over(model: Model, options: SolveOptions, kind: str = "these"
               ) -> tuple[Model | None, str | None]:
    """``model`` searched by the learning engine, for the puzzles its own search gives up
    on, or None and why none moves, in words. ``kind``: the puzzles' type, as said."""
    if options.engine is not None:
        return None, f"engine {options.engine} searches every puzzle from the start"
    if options.escalate_after == 0:
        return None, "it is 0: never"
    if not 0 < options.limit <= 2:  # depth-first search enumerates best: a puzzle with
        # many solutions is no hard one
        return None, "a count, or a search for more than two solutions, stays depth-first"
    if model.engine == FALLBACK_ENGINE:
        return None, f"the {FALLBACK_ENGINE} engine searches these puzzles from the start"
    try:
        return with_engine(model, FALLBACK_ENGINE), None
    except OptionError:  # not registered, or it cannot search this model
        return None, f"the {FALLBACK_ENGINE} engine cannot search {kind} puzzles"


def checked(ptype: PuzzleType, puzzle: Puzzle, masks: np.ndarray) -> Any:
    """Decode a solved state and validate it against the givens."""
    solution = ptype.decode(puzzle, masks)
    problems = listed(ptype, "validate", ptype.validate(puzzle, solution))
    if problems:
        raise InvalidSolutionError(
            f"{puzzle.where}: internal error: a solution failed validation: {problems[0]}")
    return solution


def listed(ptype: PuzzleType, method: str, problems: Any, *, of_lists: bool = False) -> list:
    """A validator's answer, which must be a list of strings (empty: valid), or with
    ``of_lists`` a list of such lists (``validate_many``): anything else (None from a method
    that forgot to return, one string) is the plugin's bug, not a valid solution."""
    ok = isinstance(problems, list) and (of_lists or all(isinstance(x, str) for x in problems))
    if not ok:
        raise TypeError(f"puzzle type {ptype.name!r}: {method} returned "
                        f"{reprlib.repr(problems)}, not a list of problems ([] when valid)")
    return problems


def _checked_many(ptype: PuzzleType, puzzles: Sequence[Puzzle], masks: np.ndarray
                  ) -> Sequence[Any]:
    """:func:`checked` for a batch, with the plugin's whole-batch decode and validate."""
    if not puzzles:
        return []
    solutions = ptype.decode_many(puzzles, masks)
    # the method the plugin wrote: the base class's validate_many calls validate
    own = "validate" if type(ptype).validate_many is PuzzleType.validate_many else \
        "validate_many"
    for k, problems in enumerate(listed(ptype, "validate_many",
                                        ptype.validate_many(puzzles, solutions), of_lists=True)):
        if listed(ptype, own, problems):
            raise InvalidSolutionError(f"{puzzles[k].where}: internal error: a solution "
                                       f"failed validation: {problems[0]}")
    return solutions


def warm_up(model: Model, kernels) -> None:
    """Load (or compile) the search kernel before any clock starts: a call with no budget."""
    from csolve.search import SearchState

    state = SearchState(model, kernels, solution_capacity=1)
    state.push_root()
    ctrl = new_ctrl()
    state.preload(ctrl, 1, False, 0)
    state.run(ctrl, 1, False, 0)
