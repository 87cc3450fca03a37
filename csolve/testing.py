"""The plugin contract kit: checks any puzzle plugin's test suite can run on its PuzzleType.

A plugin hands over its type and a few sample puzzles as text (with their known solutions);
each ``check_*`` function raises ``AssertionError`` naming what broke::

    from csolve.puzzle import get_puzzle_type
    from csolve.testing import check_puzzle_type

    def test_contract():
        check_puzzle_type(get_puzzle_type("latin"), PUZZLES, solutions=SOLUTIONS,
                          open_puzzle=OPEN, bad_input=BAD, conflicting=CONFLICT,
                          entry_point="latin")

The checks: every puzzle's ``format_line`` reads back as the same puzzle; the whole-batch
methods (``check_many``, ``model_runs``, ``decode_many``, ``validate_many``) agree with the
one-puzzle ones; solutions validate, keep the givens and equal the known ones; a wrong
solution is refused; an under-constrained puzzle has the same count on every installed
backend at 1 and 2 workers; bad input and conflicting givens end ``csolve solve`` with one
``file:line[:col]: problem`` line and exit code 2; and the plugin's entry point loads without
numpy, so ``csolve --help`` stays fast. Where the type implements them, the optional methods
are held to what the CLI does with them: ``format_grid`` reads back, ``to_svg`` is one SVG
document, ``clue_count`` an int, ``step_finders`` take no step against a sample's only
solution, and ``generate`` makes a unique puzzle with a valid solution, the same from the
same seed. Plain functions, no pytest needed.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import reprlib
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from csolve.puzzle import Puzzle, PuzzleType

#: one error line: ``csolve: error: FILE:LINE[:COL]: problem``
ERROR_LINE = re.compile(r"^csolve: error: (?P<file>.+?):(?P<line>\d+)(:\d+)?: \S.*$")


# --- solving, through one function ----------------------------------------------------------

def _solve(ptype: PuzzleType, puzzle: Puzzle, *, limit: int = 1, backend: str = "serial",
           workers: int = 1, keep: int = 2, share_at_once: bool = False
           ) -> tuple[int, bool, list[Any]]:
    """(count, exact, kept solutions) of one puzzle: the kit's only call into the solver.
    ``share_at_once``: the backend shares from the first node, with no lone search first
    (a sample's tree is small enough for that search to end it before any sharing)."""
    from csolve.backends import get_backend
    from csolve.solver import SolveOptions, solve_one

    at_once: dict[str, Any] = {}
    if share_at_once:
        at_once["probe_nodes"] = 0
        if "probe" in get_backend(backend).options:
            at_once["backend_options"] = {"probe": 0.0}
    r = solve_one(ptype, puzzle, SolveOptions(limit=limit, backend=backend, workers=workers,
                                              keep=keep, **at_once))
    return r.count, r.exact, list(r.solutions)


def _solved_masks(ptype: PuzzleType, puzzle: Puzzle) -> np.ndarray:
    """A solution of ``puzzle`` as the kernels leave it: one single per cell."""
    from csolve.kernels import abi
    from csolve.search import SearchState, kernels_for_model, new_ctrl

    model = ptype.model(puzzle)
    state = SearchState(model, kernels_for_model(model), solution_capacity=1)
    state.push_root()
    reason = state.run(new_ctrl(), 1, False, 1 << 40)
    assert state.found, (f"{puzzle.where}: the model's search finds no solution" + (
        " (it searched the whole tree: model and rules rule every state out)"
        if reason == abi.EXHAUSTED else f" (the search ended with kernel code {reason})"))
    assert reason in (abi.LIMIT, abi.EXHAUSTED), reason
    return state.sols[0].copy()


def _problems(ptype: PuzzleType, p: Puzzle, solution: Any) -> list[str]:
    """``validate``'s answer, checked to be what the contract says: a list of strings."""
    problems = ptype.validate(p, solution)
    assert isinstance(problems, list) and all(isinstance(x, str) for x in problems), (
        f"{p.where}: validate returned {problems!r}; it returns a list of problems, as "
        "strings ([] when the solution is valid)")
    return problems


def _line(ptype: PuzzleType, p: Puzzle, solution: Any) -> str:
    line = ptype.format_line(p, solution)
    assert isinstance(line, str), (f"{p.where}: format_line returned {line!r} "
                                   f"({type(line).__name__}); it returns the line, a str")
    return line


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (TypeError, ValueError):
        return a == b


def _parse(ptype: PuzzleType, text: str, source: str = "<sample>") -> Sequence[Puzzle]:
    return ptype.parse(text if text.endswith("\n") else text + "\n", source)


def _implements(ptype: PuzzleType, method: str) -> bool:
    """Whether the type has its own ``method`` rather than the base class's default or
    refusal: an optional method is checked only where a plugin wrote one."""
    return getattr(type(ptype), method) is not getattr(PuzzleType, method)


def _solution(ptype: PuzzleType, p: Puzzle) -> Any:
    """A solution of ``p``, decoded from the model's search."""
    return ptype.decode(p, _solved_masks(ptype, p))


# --- the checks ------------------------------------------------------------------------------

def check_round_trip(ptype: PuzzleType, text: str) -> Sequence[Puzzle]:
    """Each puzzle's ``format_line`` parses back as the same puzzle (same line again, same
    model structure and initial candidates); returns the puzzles."""
    puzzles = _parse(ptype, text)
    assert puzzles, "the sample text holds no puzzle"
    for p in puzzles:
        line = _line(ptype, p, None)
        assert "\n" not in line, f"{p.where}: format_line wrote more than one line"
        try:
            back = _parse(ptype, line, "<format_line>")
        except Exception as e:  # the plugin's parser refuses its own writer's line
            raise AssertionError(f"{p.where}: format_line wrote {line!r}, which parse "
                                 f"refuses: {type(e).__name__}: {e}") from e
        assert len(back) == 1, f"{p.where}: format_line reads back as {len(back)} puzzles"
        (q,) = back
        assert _line(ptype, q, None) == line, f"{p.where}: format_line is not stable"
        a, b = ptype.model(p), ptype.model(q)
        assert a.key == b.key and a.n_cells == b.n_cells, f"{p.where}: another model"
        assert (a.init == b.init).all(), f"{p.where}: other givens after the round trip"
    return puzzles


def check_batch_methods(ptype: PuzzleType, text: str) -> None:
    """``check_many``/``model_runs``/``decode_many``/``validate_many`` agree with
    ``check``/``model``/``decode``/``validate`` (and with the base class's loops)."""
    puzzles = _parse(ptype, text)
    ptype.check_many(puzzles)
    for p in puzzles:
        ptype.check(p)
    for runs in (list(ptype.model_runs(puzzles)), list(PuzzleType.model_runs(ptype, puzzles))):
        assert [a for a, _, _, _ in runs] == [0, *[b for _, b, _, _ in runs][:-1]] and \
            runs[-1][1] == len(puzzles), "model_runs must cover the puzzles in order"
        for start, stop, model, inits in runs:
            assert inits.shape == (stop - start, model.n_cells)
            for i in range(start, stop):
                one = ptype.model(puzzles[i])
                assert one.key == model.key, f"{puzzles[i].where}: run model's key differs"
                assert (inits[i - start] == one.init).all(), \
                    f"{puzzles[i].where}: model_runs' initial candidates differ from model's"
    masks = np.stack([_solved_masks(ptype, p) for p in puzzles]) if len(
        {ptype.model(p).n_cells for p in puzzles}) == 1 else None
    groups = [list(range(len(puzzles)))] if masks is not None else [[i] for i in
                                                                     range(len(puzzles))]
    for idx in groups:
        sub = [puzzles[i] for i in idx]
        m = masks[idx] if masks is not None else _solved_masks(ptype, sub[0])[None]
        many = ptype.decode_many(sub, m)
        ones = [ptype.decode(p, row) for p, row in zip(sub, m, strict=True)]
        assert len(many) == len(sub)
        for p, a, b in zip(sub, many, ones, strict=True):
            assert _same(a, b), f"{p.where}: decode_many differs from decode"
        assert ptype.validate_many(sub, many) == [ptype.validate(p, s) for p, s in
                                                  zip(sub, ones, strict=True)] == [[]] * len(sub)
        assert PuzzleType.validate_many(ptype, sub, many) == [[]] * len(sub)


def check_solutions(ptype: PuzzleType, text: str, solutions: str | None = None) -> list[Any]:
    """Each puzzle's solution validates, keeps the givens, is the only one, equals the known
    solution (``solutions``: complete puzzles in the type's format, one per puzzle), reads
    back from ``format_line``; a changed cell makes the validator complain. Returns them."""
    puzzles = _parse(ptype, text)
    known = None
    if solutions is not None:
        known = [ptype.as_solution(s) for s in _parse(ptype, solutions, "<solutions>")]
        assert len(known) == len(puzzles), "one known solution per sample puzzle"
    found = []
    for i, p in enumerate(puzzles):
        count, exact, sols = _solve(ptype, p, limit=2)
        assert (count, exact) == (1, True), f"{p.where}: {count} solutions, expected one"
        sol = sols[0]
        assert _problems(ptype, p, sol) == [], f"{p.where}: {ptype.validate(p, sol)}"
        _check_json(ptype, p, sol)
        model = ptype.model(p)
        givens = ptype.decode(p, np.where(_singles(model.init), model.init, np.uint64(0)))
        if isinstance(givens, np.ndarray) and np.shape(givens) == np.shape(sol):
            kept = givens != 0
            assert (np.asarray(sol)[kept] == givens[kept]).all(), f"{p.where}: givens lost"
        if known is not None:
            assert _same(sol, known[i]), f"{p.where}: not the known solution"
            assert ptype.validate(p, known[i]) == [], f"{p.where}: the known solution fails"
        (back,) = _parse(ptype, _line(ptype, p, sol), "<solution line>")
        assert ptype.is_complete(back), f"{p.where}: a solution's line is not complete"
        assert _same(ptype.as_solution(back), sol), f"{p.where}: solution line reads back wrong"
        _check_a_changed_cell_is_refused(ptype, p, model)
        found.append(sol)
    return found


def _check_json(ptype: PuzzleType, p: Puzzle, solution: Any) -> None:
    """``to_json`` gives what ``--output json`` can write: JSON types only."""
    import json

    try:
        json.dumps(ptype.to_json(p, solution))
    except (TypeError, ValueError) as e:
        raise AssertionError(f"{p.where}: to_json returned what JSON cannot hold ({e}); "
                             "--output json would fail: return lists, not arrays, and "
                             "plain ints") from e


def _singles(masks: np.ndarray) -> np.ndarray:
    return (masks != 0) & ((masks & (masks - np.uint64(1))) == 0)


def _check_a_changed_cell_is_refused(ptype: PuzzleType, p: Puzzle, model) -> None:
    """In a solved state, one open cell given another value of its domain is not a solution
    of a puzzle that has only one: both validators must say so."""
    masks = _solved_masks(ptype, p)
    for c in np.flatnonzero(~_singles(model.init)):
        other = model.init[c] & ~masks[c]
        if other:
            bad = masks.copy()
            bad[c] = other & (~other + np.uint64(1))  # its lowest other value
            sol = ptype.decode(p, bad)
            assert ptype.validate(p, sol), f"{p.where}: a changed cell {c} went unnoticed"
            assert ptype.validate_many([p], [sol])[0], f"{p.where}: validate_many missed it"
            return


def check_backend_counts(ptype: PuzzleType, text: str, workers: Sequence[int] = (1, 2)
                         ) -> int:
    """The first puzzle of ``text`` (under-constrained: many solutions) counts the same on
    every installed backend at each number of workers, exactly, each sharing the search from
    its first node; returns the count. The serial run keeps its solutions (up to 500): all
    valid, none twice."""
    from csolve.backends import all_backends

    (p, *_rest) = _parse(ptype, text)
    count, exact, sols = _solve(ptype, p, limit=0, keep=500)
    assert exact and count > 1, f"{p.where}: an under-constrained sample is needed ({count})"
    for s in sols:
        assert ptype.validate(p, s) == [], f"{p.where}: {ptype.validate(p, s)}"
    lines = {ptype.format_line(p, s) for s in sols}
    assert len(lines) == len(sols) == min(count, 500), f"{p.where}: a solution found twice"
    for name, backend in sorted(all_backends().items()):
        for w in workers if backend.parallel else (1,):
            got, got_exact, _ = _solve(ptype, p, limit=0, backend=name, workers=w,
                                       share_at_once=True)
            assert (got, got_exact) == (count, True), \
                f"{p.where}: {name} with {w} workers counts {got}, serial {count}"
    return count


# --- optional methods: checked where the type implements them ----------------------------

def check_outputs(ptype: PuzzleType, text: str) -> None:
    """What ``--output grid`` and ``--output svg`` write, and the clue count ``generate``
    reports, for each puzzle of ``text`` and its solution: ``format_grid`` reads back,
    ``to_svg`` is one SVG document, ``clue_count`` a plain int (each where implemented)."""
    puzzles = _parse(ptype, text)
    if _implements(ptype, "clue_count"):
        for p in puzzles:
            _check_clue_count(ptype, p)
    grid, svg = _implements(ptype, "format_grid"), _implements(ptype, "to_svg")
    if not (grid or svg):
        return
    solutions = [_solution(ptype, p) for p in puzzles]
    if grid:
        _check_grids(ptype, puzzles, solutions)
    if svg:
        for p, s in zip(puzzles, solutions, strict=True):
            _check_svg(ptype, p, None)
            _check_svg(ptype, p, s)


def _check_clue_count(ptype: PuzzleType, p: Puzzle) -> None:
    """``generate`` says the count and writes it in its JSON: a plain int, -1 or more."""
    n = ptype.clue_count(p)
    assert isinstance(n, int) and not isinstance(n, bool) and n >= -1, (
        f"{p.where}: clue_count returned {reprlib.repr(n)} ({type(n).__name__}); it returns "
        "how many clues the puzzle has, a plain int (-1: not said)")


def _grid(ptype: PuzzleType, p: Puzzle, solution: Any) -> str:
    grid = ptype.format_grid(p, solution)
    assert isinstance(grid, str), (f"{p.where}: format_grid returned {reprlib.repr(grid)} "
                                   f"({type(grid).__name__}); it returns the grid, a str")
    return grid


def _read_grids(ptype: PuzzleType, puzzles: Sequence[Puzzle], grids: list[str]
                ) -> Sequence[Puzzle]:
    """The grids written as ``--output grid`` writes them (a comment line above each),
    read back."""
    text = "".join(f"{ptype.comment} puzzle {i + 1}\n{g}\n\n" for i, g in enumerate(grids))
    try:
        back = ptype.parse(text, "grids")
    except Exception as e:  # the plugin's parser refuses its own grids
        raise AssertionError(f"format_grid wrote grids that parse refuses: "
                             f"{type(e).__name__}: {e}") from e
    assert len(back) == len(puzzles), (f"format_grid: the grids of {len(puzzles)} puzzles "
                                       f"read back as {len(back)} puzzles")
    return back


def _check_grids(ptype: PuzzleType, puzzles: Sequence[Puzzle], solutions: list[Any]) -> None:
    """``--output grid`` reads back: puzzles as the same puzzles, solutions as complete
    puzzles holding them (``csolve validate`` reads what ``solve`` wrote)."""
    back = _read_grids(ptype, puzzles, [_grid(ptype, p, None) for p in puzzles])
    for p, q in zip(puzzles, back, strict=True):
        assert _line(ptype, q, None) == _line(ptype, p, None), \
            f"{p.where}: format_grid reads back as another puzzle: {_line(ptype, q, None)!r}"
    back = _read_grids(ptype, puzzles, [_grid(ptype, p, s)
                                        for p, s in zip(puzzles, solutions, strict=True)])
    for p, q, s in zip(puzzles, back, solutions, strict=True):
        assert ptype.is_complete(q) and _same(ptype.as_solution(q), s), \
            f"{p.where}: format_grid of the solution reads back as another grid"


def _check_svg(ptype: PuzzleType, p: Puzzle, solution: Any) -> None:
    """``to_svg`` gives one SVG document, a str, that ``--output svg`` stacks with others
    into a picture XML reads."""
    from xml.etree import ElementTree as ET

    from csolve.svg import stack

    doc = ptype.to_svg(p, solution)
    assert isinstance(doc, str), (f"{p.where}: to_svg returned {reprlib.repr(doc)} "
                                  f"({type(doc).__name__}); it returns one SVG document, a str")
    try:
        ET.fromstring(stack([doc, doc]))
    except (ValueError, KeyError, ET.ParseError) as e:
        raise AssertionError(f"{p.where}: to_svg wrote {reprlib.repr(doc)}, which --output "
                             f"svg cannot stack ({type(e).__name__}: {e}); it returns one "
                             "<svg> document with a width and height") from e


def check_step_finders(ptype: PuzzleType, text: str) -> None:
    """The type's own step finders (``step_finders``), where it has them: each named for one
    of its tactics or constraint rules (no other is ever called), and ``explain`` on each
    puzzle of ``text`` takes no step that contradicts its only solution."""
    if not _implements(ptype, "step_finders"):
        return
    from csolve.errors import UnsoundStepError
    from csolve.grading import explain, known_tactics

    finders = ptype.step_finders()
    assert isinstance(finders, dict) and all(callable(f) for f in finders.values()), (
        f"step_finders returned {reprlib.repr(finders)}; it returns {{tactic: finder}}")
    unused = [name for name in finders if name not in known_tactics(ptype)]
    assert not unused, (f"step_finders names {', '.join(map(repr, unused))}, not among the "
                        "type's tactics or constraint_rules: explain never calls it")
    for p in _parse(ptype, text):
        try:
            explain(ptype, p)
        except UnsoundStepError as e:
            raise AssertionError(f"{p.where}: step_finders: {e}") from e


#: sizes tried, smallest first, for the one a generator accepts (up to the CLI's largest)
GENERATE_SIZES = range(1, 65)


def check_generator(ptype: PuzzleType, size: int | None = None, seed: int = 0
                    ) -> Puzzle | None:
    """``generate``, where the type has it, at ``size`` (default: the smallest size
    ``check_generate`` accepts, the cheapest): the puzzle has one solution for the solver,
    the solution returned validates, the puzzle's line reads back, and the same seed makes
    the same puzzle again (all randomness from ``rng``). Returns the puzzle."""
    if not _implements(ptype, "generate"):
        return None
    options = _generate_options(ptype, size)
    where = f"generate (size {options.size}, seed {seed})"
    p, solution = _generated(ptype, options, seed, where)
    count, exact, _ = _solve(ptype, p, limit=2)
    assert (count, exact) == (1, True), \
        f"{where} made a puzzle with {count}{'' if exact else '+'} solutions, not one"
    problems = _problems(ptype, p, solution)
    assert not problems, f"{where}: the solution it returned fails validate: {problems[0]}"
    line = _line(ptype, p, None)
    try:
        check_round_trip(ptype, line)
        _check_json(ptype, p, solution)
        if _implements(ptype, "clue_count"):
            _check_clue_count(ptype, p)
    except AssertionError as e:
        raise AssertionError(f"{where}: {e}") from e
    again, _ = _generated(ptype, options, seed, where)
    assert _line(ptype, again, None) == line, (f"{where} made another puzzle from the same "
                                               "seed: all its randomness must come from rng")
    return p


def _generate_options(ptype: PuzzleType, size: int | None) -> Any:
    """Options for ``size``, or for the smallest size the type accepts, as ``csolve
    generate`` checks them (``check_generate``)."""
    from csolve.errors import CsolveError
    from csolve.generate import GenerateOptions, checked_request

    for n in GENERATE_SIZES if size is None else (size,):
        try:
            return checked_request(ptype, GenerateOptions(size=n))
        except CsolveError as e:
            if size is not None:
                raise AssertionError(f"check_generate refuses size {size}: {e}") from e
    raise AssertionError(f"check_generate refuses every size from {GENERATE_SIZES.start} to "
                         f"{GENERATE_SIZES.stop - 1}: generate cannot be checked")


def _generated(ptype: PuzzleType, options: Any, seed: int, where: str) -> tuple[Puzzle, Any]:
    """One puzzle from ``generate``, as ``csolve generate`` makes try 0 of a seed."""
    from csolve.errors import CsolveError
    from csolve.search import new_ctrl

    try:
        made = ptype.generate(options, np.random.default_rng([seed, 0]), new_ctrl())
    except CsolveError as e:  # a size check_generate let through
        raise AssertionError(f"{where} raised {type(e).__name__}: {e} (check_generate "
                             "accepts the size)") from e
    assert isinstance(made, tuple) and len(made) == 2 and isinstance(made[0], Puzzle), (
        f"{where} returned {reprlib.repr(made)}; it returns (puzzle, solution)")
    return made


def run_cli(*args: str) -> tuple[int, str, str]:
    """``csolve ARGS`` in this process: (exit code, stdout, stderr)."""
    from csolve.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["csolve", *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.argv = old
    return code, out.getvalue(), err.getvalue()


def check_input_error(ptype: PuzzleType, text: str, expect: str | None = None) -> str:
    """``csolve solve`` on ``text`` (bad input, or conflicting givens) ends with exit code 2
    and one line ``csolve: error: FILE:LINE[:COL]: problem`` naming the file (and holding
    ``expect`` when given); returns that line."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "sample.txt"
        path.write_text(text)
        code, out, err = run_cli("solve", ptype.name, str(path))
    lines = err.strip().splitlines()
    assert code == 2, f"exit code {code}, expected 2 (stderr: {err.strip()!r})"
    assert len(lines) == 1, f"expected one error line, got {err!r}"
    m = ERROR_LINE.match(lines[0])
    assert m and m["file"] == str(path), f"not a 'file:line[:col]: problem' line: {lines[0]!r}"
    assert expect is None or expect in lines[0], f"{expect!r} not in {lines[0]!r}"
    return lines[0]


def _not_loaded(entry_point: str) -> str:
    return (f"no entry point {entry_point!r} in the csolve group was loaded (is the package "
            "installed, and its entry point named so?)")


def check_light_entry_point(entry_point: str) -> None:
    """With only the core and this entry point loaded, ``csolve --help`` runs without
    importing numpy or numba (hooks import the heavy modules when they are called), and
    looking puzzle types up imports none of the plugin's modules but its entry point."""
    code = (
        "import sys\n"
        "from csolve.cli import main\n"
        "sys.argv = ['csolve', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "from csolve.plugins import get_plugin_manager\n"
        f"assert get_plugin_manager().get_plugin({entry_point!r}) is not None, "
        f"{_not_loaded(entry_point)!r}\n"
        "heavy = [m for m in ('numpy', 'numba') if m in sys.modules]\n"
        "sys.stderr.write('HEAVY ' + ','.join(heavy) + '\\n')\n"
    )
    heavy = _report_of(code, f"core,{entry_point}", "HEAVY")
    assert heavy == "", f"csolve --help with {entry_point!r} imports {heavy}"
    if entry_point != "sudoku":
        _check_puzzle_types_deferred(entry_point)


def _check_puzzle_types_deferred(entry_point: str) -> None:
    """Looking puzzle types up (as every run of any type does) imports none of the plugin's
    modules but its entry point: its types are registered by name and place
    (``DeferredPuzzleType``), so a run of another type never loads their machinery."""
    code = (
        "import sys\n"
        "from csolve.plugins import get_plugin_manager\n"
        f"plugin = get_plugin_manager().get_plugin({entry_point!r})\n"
        f"assert plugin is not None, {_not_loaded(entry_point)!r}\n"
        "hooks = plugin.__name__\n"
        "package = hooks.split('.')[0] + '.'\n"
        "before = set(sys.modules)\n"
        "from csolve.puzzle import get_puzzle_type\n"
        "get_puzzle_type('sudoku')\n"
        "mine = [m for m in set(sys.modules) - before if m.startswith(package) and m != hooks]\n"
        "sys.stderr.write('MINE ' + ','.join(sorted(mine)) + '\\n')\n"
    )
    mine = _report_of(code, f"core,sudoku,{entry_point}", "MINE")
    assert mine == "", (f"registering {entry_point!r}'s puzzle types imports {mine}: register "
                        "them as DeferredPuzzleType('name', 'module:Class')")


def _report_of(code: str, plugins: str, marker: str) -> str:
    """Run ``code`` in a fresh interpreter with only ``plugins`` loaded; what it wrote on
    stderr after ``marker``."""
    env = {**os.environ, "CSOLVE_LOAD_PLUGINS": plugins}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r
    return r.stderr.rsplit(f"{marker} ", 1)[-1].strip()


def check_puzzle_type(ptype: PuzzleType, puzzles: str, *, solutions: str | None = None,
                      open_puzzle: str | None = None, bad_input: str | None = None,
                      conflicting: str | None = None, entry_point: str | None = None) -> None:
    """Every check the samples allow: ``puzzles`` (text of puzzles with one solution each,
    ``solutions`` their known solutions), ``open_puzzle`` (many solutions), ``bad_input``
    and ``conflicting`` (texts ``csolve solve`` must refuse), ``entry_point`` (its name in
    the ``csolve`` group). The optional methods the type implements are checked on
    ``puzzles`` (``format_grid``, ``to_svg``, ``clue_count``, ``step_finders``) and on a
    puzzle ``generate`` makes at its smallest size."""
    assert ptype.name and ptype.description, "a puzzle type needs a name and a description"
    check_round_trip(ptype, puzzles)
    check_batch_methods(ptype, puzzles)
    check_solutions(ptype, puzzles, solutions)
    if open_puzzle is not None:
        check_round_trip(ptype, open_puzzle)
        check_backend_counts(ptype, open_puzzle)
    if bad_input is not None:
        check_input_error(ptype, bad_input)
    if conflicting is not None:
        check_input_error(ptype, conflicting, "conflicting givens")
    check_outputs(ptype, puzzles)
    check_step_finders(ptype, puzzles)
    check_generator(ptype)
    if entry_point is not None:
        check_light_entry_point(entry_point)
