"""The Python API: docs/api.md runs as written, and it is the CLI's solve path."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys

import pytest

import csolve

from .helpers import PUZZLES, ROOT

MANY = "...8.....43...9.87....2..1.2...........91......8....9.....51.....4...1.5.65.4..2."
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_every_example_in_the_api_doc_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    doc = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(blocks) >= 6
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        for i, code in enumerate(blocks):
            exec(compile(code, f"docs/api.md block {i + 1}", "exec"), namespace)
    printed = out.getvalue()
    assert "417369825632158947958724316825437169791586432346912758289643571573291684164875293" \
        in printed
    assert "has no option" not in printed and "wants a whole number" in printed


def test_the_readme_python_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    (code,) = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "README.md", "exec"), {})
    assert "417369825" in out.getvalue() and "\n12\n" in out.getvalue()


def test_json_numbers_each_puzzles_solutions_from_one(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("2.....3.........\n2.....3.........\n")
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku", str(path), "--all",
                        "--output", "json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    streamed = [row for row in rows if "solution_index" in row]
    for puzzle in (1, 2):
        mine = [row["solution_index"] for row in streamed if row["puzzle"] == puzzle]
        assert mine == list(range(1, 13))
    done = [row for row in rows if "status" in row]
    assert [row["status"] for row in done] == ["multiple", "multiple"]


def test_import_csolve_stays_light():
    code = "import sys, csolve; print('numpy' in sys.modules, 'numba' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["False", "False"]


def test_every_solution_is_valid_and_keeps_the_givens(sudoku):
    results = csolve.solve("sudoku", PUZZLES / "sudoku" / "9x9-hard.txt", count=True, limit=2)
    assert results and all(r.status is csolve.Status.SOLVED and r.exact for r in results)
    for r in results:
        assert sudoku.validate(r.puzzle, r.solution) == []
        assert csolve.validate("sudoku", r.solution_line, against=r.puzzle) == []


@pytest.mark.parametrize("backend", ["serial", "locked-pool", "work-stealing", "path-stack",
                                     "interleave"])
def test_the_backend_named_is_the_backend_that_searched(backend):
    """A count of thousands of solutions goes past the batch probe to the backend."""
    workers = 1 if backend == "serial" else 2
    (r,) = csolve.solve("sudoku", MANY, backend=backend, workers=workers, count=True)
    assert (r.count, r.exact, r.backend) == (9182, True, backend)
    if backend != "serial":
        assert len(r.stats.workers) == 2
        assert sum(w["nodes"] for w in r.stats.workers) == r.stats.nodes


def test_a_file_of_puzzles_is_searched_by_the_backend_named(tmp_path):
    path = tmp_path / "many.txt"
    blanked = MANY[:-3] + "..."
    path.write_text(f"{MANY}\n{blanked}\n{HARD}\n")
    serial = csolve.solve("sudoku", path, count=True)
    shared = csolve.solve("sudoku", path, count=True, backend="work-stealing", workers=2)
    assert [r.count for r in shared] == [r.count for r in serial]
    assert serial[0].count == 9182 and serial[1].count > 9182 and serial[2].count == 1
    assert {r.backend for r in shared} == {"work-stealing"}
    assert len(shared[1].stats.workers) == 2  # past the probe: shared by two workers


def test_cli_json_counts_are_equal_on_every_backend(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(f"{MANY}\n{MANY[:-3]}...\n")
    counts = {}
    for backend in ("serial", "locked-pool", "message-passing", "static-partition"):
        r = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku", str(path),
                            "--backend", backend, "--workers", "2", "--count", "--output",
                            "json"], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        assert {row["backend"] for row in rows} == {backend}
        counts[backend] = [(row["count"], row["exact"]) for row in rows]
    assert len(set(map(tuple, counts.values()))) == 1, counts


def test_solver_streams_results_in_input_order():
    solver = csolve.Solver("sudoku")
    puzzles = solver.read(PUZZLES / "sudoku" / "9x9-easy.txt")
    done = []
    results = list(solver.iter_solve(puzzles, progress=done.append))
    assert [r.puzzle.index for r in results] == list(range(len(puzzles)))
    assert done[-1] == len(puzzles) and done == sorted(set(done))  # each count once, growing


def test_a_stop_flag_interrupts_every_puzzle():
    import numpy as np

    ctrl = np.zeros(8, dtype=np.int64)
    ctrl[0] = 1
    (r,) = csolve.Solver("sudoku", count=True).iter_solve(MANY, ctrl=ctrl)
    assert r.status is csolve.Status.INTERRUPTED and not r.exact


@pytest.mark.parametrize("backend", ["serial", "locked-pool"])
def test_a_stop_before_the_take_over_is_an_interruption_not_a_time_out(backend):
    """Puzzles the first engine gave up (its node budget spent) and a stop kept from the
    learning engine were stopped: interrupted, as on every backend, not timed out; those
    solved before the stop keep their answers."""
    from csolve.kernels.abi import CTRL_STOP
    from csolve.search import new_ctrl

    ctrl = new_ctrl()
    solver = csolve.Solver("sudoku", backend=backend, workers=1 if backend == "serial" else 2,
                           escalate_after=1)
    results = list(solver.iter_solve(PUZZLES / "sudoku" / "9x9-hard.txt", ctrl=ctrl,
                                     progress=lambda done: ctrl.__setitem__(CTRL_STOP, 1)))
    stopped = [r for r in results if r.status is not csolve.Status.SOLVED]
    assert stopped, "escalate_after=1 leaves a hard puzzle to the learning engine"
    for r in stopped:
        assert (r.status, r.end, r.count) == (csolve.Status.INTERRUPTED, csolve.End.STOPPED, 0)
    for r in results:
        if r.status is csolve.Status.SOLVED:
            assert csolve.validate("sudoku", r.solution, r.puzzle) == []


@pytest.mark.parametrize("call, message", [
    (lambda: csolve.solve("nosuch", HARD), "unknown puzzle type 'nosuch'"),
    (lambda: csolve.solve("sudoku", HARD, backend="nosuch"), "unknown backend 'nosuch'"),
    (lambda: csolve.solve("sudoku", HARD, backend="serial", k=3), "has no option 'k'"),
    (lambda: csolve.solve("sudoku", HARD, backend="static-partition", k="x"),
     "wants a whole number"),
    (lambda: csolve.solve("sudoku", HARD, backend="static-partition", k=0),
     "option k wants a whole number >= 1, got 0"),
    (lambda: csolve.solve("sudoku", HARD, backend="interleave", probe=-1),
     "option probe wants a number >= 0, got -1"),
    (lambda: csolve.solve("sudoku", HARD, backend="process-pool", slice=float("nan")),
     "option slice wants a number > 0, got nan"),
    (lambda: csolve.solve("sudoku", HARD, rules="nosuch"), "nosuch"),
    (lambda: csolve.solve("sudoku", "123"), "123:1: no such file, nor a sudoku puzzle (a line"),
    (lambda: csolve.solve("sudoku", "my puzzles.txt"),
     "my puzzles.txt:1: no such file, nor a sudoku puzzle"),
    (lambda: csolve.solve("sudoku", "puzzles/sudoku/9x9-hardd.txt"), "hardd.txt: no such file"),
    (lambda: csolve.solve("sudoku", "hard.txt"), "hard.txt: no such file"),
    (lambda: csolve.solve("sudoku", " "), "no puzzle given"),
    (lambda: csolve.solve("sudoku", "puzzles/nope.txt"), "nope.txt: no such file"),
    (lambda: csolve.solve("sudoku", "puzzles"), "puzzles: is a directory"),
])
def test_bad_options_and_input_are_one_line_errors(call, message):
    with pytest.raises(csolve.CsolveError) as e:
        call()
    assert message in str(e.value) and "\n" not in str(e.value)


KAKURO = str(PUZZLES / "kakuro" / "small.txt")


@pytest.mark.parametrize("call", [
    lambda: csolve.solve("sudoku", csolve.read("kakuro", KAKURO)),
    lambda: csolve.solve("sudoku", [csolve.read("kakuro", KAKURO)[0]]),
    lambda: csolve.count("sudoku", csolve.read("kakuro", KAKURO)[0]),
    lambda: csolve.validate("sudoku", csolve.read("kakuro", KAKURO)[0]),
    lambda: csolve.rate("str8ts", csolve.read("kakuro", KAKURO)[0]),
])
def test_a_puzzle_of_another_type_is_an_input_error(call):
    with pytest.raises(csolve.PuzzleInputError, match="a kakuro puzzle, not (sudoku|str8ts)"):
        call()


@pytest.mark.parametrize("call, error, message", [
    (lambda: csolve.generate("sudoku", difficulty="Hard"), csolve.UnknownNameError,
     "unknown difficulty 'Hard' .known: easy, medium"),
    (lambda: csolve.generate("sudoku", count=-1), csolve.OptionError, "count must be 1"),
    (lambda: csolve.generate("sudoku", count=10**30), csolve.OptionError,
     "count must be 1 to 1,000,000,000"),
    # the command line's bounds: the kernels count in 64-bit integers (a numba TypingError)
    (lambda: csolve.solve("sudoku", HARD, count=True, limit=2**64), csolve.OptionError,
     "limit must be 0 to 4,611,686,018,427,387,904"),
    (lambda: csolve.solve("sudoku", HARD, escalate_after=2**63), csolve.OptionError,
     "escalate_after must be 0 .never. to 4,611,686,018,427,387,904"),
    (lambda: csolve.generate("sudoku", seed=-5), csolve.OptionError, "seed must be 0"),
    (lambda: csolve.generate("sudoku", workers=-1), csolve.OptionError, "workers must be 0"),
    (lambda: csolve.generate("sudoku", tries=0), csolve.OptionError, "tries must be 1"),
    (lambda: csolve.generate("sudoku", size="4"), TypeError, "size is a whole number"),
    (lambda: csolve.generate("sudoku", address="auto"), csolve.OptionError, "has no argument"),
    (lambda: csolve.generate("sudoku", timeout="5"), TypeError, "timeout is a number"),
    (lambda: csolve.generate("sudoku", timeout=-1), csolve.OptionError, "timeout must be 0"),
    (lambda: csolve.solve("sudoku", HARD, timeout="5"), TypeError, "timeout is a number"),
    (lambda: csolve.solve("sudoku", HARD, limit="2"), TypeError, "limit is a whole number"),
    (lambda: csolve.explain("sudoku", HARD, limit=0), csolve.OptionError, "limit must be 1"),
    (lambda: csolve.solve("sudoku", HARD, box=(3, 3)), TypeError, "box is text .like '2x3'"),
    (lambda: csolve.explain("sudoku", HARD, box=9), TypeError, "box is text"),
    (lambda: csolve.generate("sudoku", size=6, box=(2, 3)), TypeError, "box is text"),
    (lambda: csolve.solve("sudoku", HARD, format=3), TypeError, "format is text"),
    (lambda: csolve.solve("sudoku", HARD, rules=[1, 2]), TypeError, "rules are names"),
    (lambda: csolve.solve("sudoku", HARD, count="yes"), TypeError, "count is True or False"),
    (lambda: csolve.solve("sudoku", HARD, on_solution=print), TypeError,
     "on_solution: arguments of Solver.iter_solve"),
    (lambda: csolve.count("sudoku", HARD, progress=print), TypeError,
     "progress: arguments of Solver.iter_solve"),
    (lambda: csolve.solve("sudoku", HARD, timout=5), TypeError,
     "unexpected keyword argument 'timout'; did you mean 'timeout'"),
    (lambda: csolve.Solver("sudoku", backend="locked-pool", wokers=2), csolve.OptionError,
     "did you mean 'workers'"),
    # functions that take no backend options: the same slip said the same way (it was
    # Python's "got an unexpected keyword argument", a TypeError that is not csolve's)
    (lambda: csolve.explain("sudoku", HARD, timout=1), csolve.OptionError,
     "unexpected keyword argument 'timout'; did you mean 'timeout'"),
    (lambda: csolve.rate("sudoku", HARD, tactcs="singles"), csolve.OptionError,
     "did you mean 'tactics'"),
    (lambda: csolve.read("sudoku", HARD, fromat="line"), csolve.OptionError,
     "did you mean 'format'"),
    (lambda: csolve.validate("sudoku", HARD, agaist=HARD), csolve.OptionError,
     "did you mean 'against'"),
    (lambda: csolve.Solver("sudoku").iter_solve(HARD, on_solutoin=print), csolve.OptionError,
     "did you mean 'on_solution'"),
    (lambda: csolve.explain("sudoku", HARD, zzz=1), TypeError,
     r"^explain\(\) got an unexpected keyword argument 'zzz'$"),  # nothing near: Python's
    (lambda: csolve.solve(5, HARD), TypeError, "a puzzle type is a name .* not int"),
    (lambda: csolve.Solver("sudoku", backend="serial", slice=2), csolve.UnknownNameError,
     "backend 'serial' has no option 'slice'"),  # another backend's option: no guess
    (lambda: csolve.generate("sudoku", sed=3), TypeError, "did you mean 'seed'"),
    (lambda: csolve.solve("sudoku", HARD, rules=5), TypeError, "rules are names"),
    (lambda: csolve.explain("sudoku", HARD, tactics=5), TypeError, "tactics are names"),
    (lambda: csolve.generate("sudoku", rules=5), TypeError, "rules are names"),
    (lambda: csolve.rate("sudoku", str(PUZZLES / "sudoku" / "9x9-hard.txt")),
     csolve.PuzzleInputError, "rate takes one puzzle; this holds 5"),
    (lambda: list(csolve.Solver("sudoku").iter_solve(HARD, ctrl=[0])), TypeError,
     "csolve.new_ctrl"),
    (lambda: csolve.Solver("sudoku").iter_solve(HARD, on_solution=5), TypeError,
     "on_solution is a function .or None., not int"),  # said at once, not at a solution
    (lambda: csolve.Solver("sudoku").iter_blocks(HARD, progress="yes"), TypeError,
     "progress is a function .or None., not str"),
    (lambda: csolve.explain("sudoku", HARD, timeout=-1), csolve.OptionError, "timeout must be"),
    (lambda: csolve.rate("sudoku", HARD, timeout=-1), csolve.OptionError, "timeout must be"),
    (lambda: csolve.generate("kakuro", box="2x3"), csolve.OptionError, "no box shape"),
    (lambda: csolve.generate("sudoku", backend="serial", bogus=1), csolve.UnknownNameError,
     "has no option 'bogus'"),
    (lambda: csolve.solve("killer", "AABB/CDDB/CEFF/CGFH A=4 B=x"), csolve.PuzzleInputError,
     r"^<text>:1:\d+: .*sum 'x' of cage 'B'"),
])
def test_api_arguments_are_checked_before_any_work(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: csolve.solve("kakuro", KAKURO, engine="learning"),
     "engine 'learning' cannot search this puzzle"),
    (lambda: csolve.solve("sudoku", HARD, backend="work-stealing", probe="x"),
     "option probe wants a number >= 0, got 'x'"),
])
def test_a_known_name_used_wrongly_is_an_option_error_not_an_unknown_name(call, message):
    with pytest.raises(csolve.OptionError, match=message) as e:
        call()
    assert not isinstance(e.value, csolve.UnknownNameError)


def test_explain_and_rate_keep_the_time_limit_and_say_when_there_is_no_solution(monkeypatch):
    import csolve.grading as grading

    class Clock:  # an hour passes at each look: the steps run past any limit
        now = 0.0

        def monotonic(self) -> float:
            self.now += 3600.0
            return self.now

    with monkeypatch.context() as m:
        m.setattr(grading, "time", Clock())
        with pytest.raises(csolve.SearchTimeoutError, match="timeout") as e:
            csolve.explain("sudoku", HARD, timeout=60)
        assert e.value.exit_code == 3
        with pytest.raises(csolve.SearchTimeoutError):
            csolve.rate("sudoku", HARD, timeout=60)
        assert csolve.rate("sudoku", HARD).solutions == 1  # no limit: no clock
    with pytest.raises(csolve.NoSolutionError, match="no solution: row 3 has no place for 1"):
        csolve.explain("sudoku", "...1.3.4..4..1..")
    steps = csolve.explain("sudoku", "2.....3......4.1", limit=1, timeout=60)
    assert len(steps) == 1 and steps[0].text


def test_solve_with_a_limit_hands_back_every_solution_it_found():
    (r,) = csolve.solve("sudoku", "." * 16, limit=5)
    assert r.status is csolve.Status.MULTIPLE and r.count == 5 == len(r.solutions)
    assert len({tuple(s) for s in r.solutions}) == 5
    for s in r.solutions:
        assert csolve.validate("sudoku", s, against=r.puzzle) == []


@pytest.mark.parametrize("kind", ["sudoku", "killer"])
def test_values_out_of_range_are_one_problem(kind):
    """A grid of 10s in a 9x9 gave 247 problems, one per repeat in every row, column and
    box; the values out of range are what is wrong, said once with the first of them."""
    path = PUZZLES / kind / ("9x9-hard.txt" if kind == "sudoku" else "small.txt")
    r = next(r for r in csolve.solve(kind, str(path)) if r.solution.size == 81)
    assert csolve.validate(kind, r.solution, against=r.puzzle) == []
    tens = r.solution * 0 + 10
    assert csolve.validate(kind, tens, against=r.puzzle) == [
        "cells must hold values 1..9 (r1c1 holds 10, and 80 more)"]


@pytest.mark.parametrize("kind, path", [("sudoku", "sudoku/9x9-hard.txt"),
                                        ("kakuro", "kakuro/small.txt"),
                                        ("str8ts", "str8ts/small.txt"),
                                        ("killer", "killer/small.txt")])
def test_a_results_solution_array_validates_against_its_puzzle(kind, path):
    r = csolve.solve(kind, str(PUZZLES / path))[0]
    assert csolve.validate(kind, r.solution, against=r.puzzle) == []
    with pytest.raises(csolve.OptionError, match="against="):
        csolve.validate(kind, r.solution)
    # the same values as lists are the same solution; values that are not whole numbers
    # are refused, not rounded into a valid grid
    assert csolve.validate(kind, r.solution.tolist(), against=r.puzzle) == []
    with pytest.raises(TypeError, match="as text it is one string"):
        csolve.validate(kind, list(r.solution_line), against=r.puzzle)
    one_value = r.solution.reshape(-1)[:1].reshape(())  # an array of one value, no grid
    (problem,) = csolve.validate(kind, one_value, against=r.puzzle)
    assert problem.endswith("got one value, not a grid"), problem
    # and as the command line's JSON writes it: rows
    cli = subprocess.run([sys.executable, "-m", "csolve", "solve", kind, str(PUZZLES / path),
                          "--output", "json"], capture_output=True, text=True, check=True)
    rows = json.loads(cli.stdout.splitlines()[0])["solution"]
    assert csolve.validate(kind, rows, against=r.puzzle) == []
    broken = [list(row) for row in rows]
    row = next(row for row in broken if sum(v > 0 for v in row) >= 2)
    first, second = [k for k, v in enumerate(row) if v > 0][:2]
    row[first] = row[second]  # a value twice in a row
    assert csolve.validate(kind, broken, against=r.puzzle) != []
    for not_whole in (r.solution + 0.4, r.solution.astype(str), r.solution > 0,
                      (r.solution + 0.0).tolist()):
        with pytest.raises(TypeError, match="holds whole numbers"):
            csolve.validate(kind, not_whole, against=r.puzzle)


def test_generate_takes_the_commands_box_shape():
    made = csolve.generate("sudoku", 2, size=6, box="3x2", seed=3)
    for p in made:
        assert p.meta["box"] == (3, 2)
        r = csolve.count("sudoku", p)
        assert r.count == 1 and r.exact
        assert csolve.validate("sudoku", r.solution, against=p) == []


def test_explanations_write_values_as_the_puzzle_does():
    """A 16x16 written with 1-9 and A-G: value 12 is "C" in the steps too."""
    (p,) = csolve.read("sudoku", str(PUZZLES / "sudoku" / "16x16.txt"))[:1]
    symbols = p.meta["alphabet"].symbols
    placed = [(s, v) for s in csolve.explain("sudoku", p) for _c, v in s.placed if v > 9]
    assert placed
    for step, v in placed:
        assert f"= {symbols[v - 1]}:" in step.text and f"= {v}:" not in step.text


def test_count_reads_standard_input_once(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2.....3.........\n")))
    r = csolve.count("sudoku", "-")
    assert r.count == 12 and r.exact


def test_a_file_solved_with_a_limit_keeps_each_puzzles_solutions():
    """limit=N on a file: unique puzzles keep their one solution (the batch path), one
    with more keeps N."""
    results = csolve.solve("sudoku", [str(PUZZLES / "sudoku" / "9x9-easy.txt"), "." * 16],
                           limit=3)
    *easy, open_grid = results
    assert all(r.count == 1 and len(r.solutions) == 1 for r in easy)
    assert open_grid.count == 3 == len(open_grid.solutions)
    for r in results:
        for s in r.solutions:
            assert csolve.validate("sudoku", s, against=r.puzzle) == []


def test_validation_writes_values_as_the_puzzle_does():
    (p,) = csolve.read("sudoku", str(PUZZLES / "sudoku" / "16x16.txt"))[:1]
    r = csolve.solve("sudoku", p)[0]
    bad = r.solution.copy()
    bad[0], bad[1] = bad[1], bad[0]
    symbols = p.meta["alphabet"].symbols
    problems = csolve.validate("sudoku", bad, against=p)
    assert any("twice in column 1" in x and f"value {symbols[bad[0] - 1]} " in x
               for x in problems)
    assert any(x.endswith(f"every value {symbols[0]}..{symbols[15]}") for x in problems)


def test_the_callers_puzzles_are_left_as_they_are_and_results_compare():
    """Solving one puzzle of a file numbers it 0 in that input without renumbering the
    caller's object (a frozen Result's puzzle included); results and puzzles compare and
    hash by identity (their arrays have no single truth value)."""
    batch = csolve.read("sudoku", str(PUZZLES / "sudoku" / "9x9-hard.txt"))
    third = batch[3]
    whole = csolve.solve("sudoku", batch)
    (alone,) = csolve.solve("sudoku", third)
    csolve.count("sudoku", batch[4])
    csolve.solve("sudoku", (batch[1], batch[2]))
    assert third.index == 3 and batch[3].index == 3 and whole[3].puzzle.index == 3
    assert alone.puzzle.index == 0 and alone.puzzle is not third
    assert csolve.validate("sudoku", alone.solution, against=third) == []
    again = csolve.solve("sudoku", third)[0]
    assert alone != again and alone == alone and len({alone, again, alone}) == 2
    assert third in [batch[3]] and len({third, batch[3]}) == 1


def test_a_method_a_plugins_type_lacks_is_named():
    """What the command prints as an internal error names the type, its class and the
    method, so that the plugin's author knows what to write."""
    from csolve.puzzle import PuzzleType

    class Half(PuzzleType):
        name = "half"

    for method, args in (("decode", (None, None)), ("validate", (None, None)),
                         ("parse", ("", "<t>"))):
        with pytest.raises(NotImplementedError, match=rf"puzzle type 'half' \(.*Half\) does "
                                                      rf"not implement PuzzleType\.{method}"):
            getattr(Half(), method)(*args)


def test_limit_0_finds_every_solution_as_the_command_line_does():
    """``limit=0`` is "no limit" in solve as ``--limit 0`` / ``--all`` is: every solution,
    each validated, and the same number the command line prints."""
    from .helpers import run_cli

    (r,) = csolve.solve("sudoku", "2.....3.........", limit=0)
    assert r.status is csolve.Status.MULTIPLE and r.exact and r.count == len(r.solutions) > 1
    assert all(csolve.validate("sudoku", s, against=r.puzzle) == [] for s in r.solutions)
    assert len({tuple(s) for s in r.solutions}) == r.count
    code, out, _ = run_cli("solve", "sudoku", "2.....3.........", "--all", "--output", "line")
    assert code == 0 and len(out.split()) == r.count


def test_limit_0_keeps_the_first_searchs_exact_count_when_the_second_runs_short(
        monkeypatch):
    """solve keeps solutions with a second search after the count; that search ending
    early (its time used up) leaves the first one's exact count and status standing."""
    import csolve.solver as solver

    exact = csolve.count("sudoku", "." * 16)
    assert exact.count == 288 and exact.exact
    monkeypatch.setattr(solver, "_time_left", lambda timeout, spent: 1e-9)
    (r,) = csolve.solve("sudoku", "." * 16, limit=0, timeout=60)
    assert r.count == 288 and r.exact and r.status is csolve.Status.MULTIPLE
    assert 1 <= len(r.solutions) <= 288
    assert len({tuple(s) for s in r.solutions}) == len(r.solutions)
    for s in r.solutions:
        assert csolve.validate("sudoku", s, against=r.puzzle) == []


def test_iter_solve_hands_out_the_settled_puzzles_before_a_long_search():
    """With a sharing backend, the puzzles the batch settles before one it gives up come
    out before that one's search ends: the consumer sees them while it still runs (an
    event, not a clock: the long search is stopped only once they were seen)."""
    import threading

    ctrl = csolve.new_ctrl()
    seen_first = threading.Event()
    # (a time limit only so that a broken stream fails instead of counting for ever)
    solver = csolve.Solver("sudoku", count=True, backend="work-stealing", workers=2,
                           timeout=60)
    out = []
    for r in solver.iter_solve([str(PUZZLES / "sudoku" / "9x9-hard.txt"), "." * 81,
                                str(PUZZLES / "sudoku" / "4x4.txt")], ctrl=ctrl):
        out.append(r)
        if len(out) == 5:  # the file's five, before the empty grid's count has ended
            assert not seen_first.is_set()
            seen_first.set()
            ctrl[0] = 1  # now stop the count of the empty grid
    assert seen_first.is_set()
    assert [r.status for r in out[:5]] == [csolve.Status.SOLVED] * 5
    for r in out[:5]:
        assert csolve.validate("sudoku", r.solution, against=r.puzzle) == []
    assert out[5].status is csolve.Status.INTERRUPTED and not out[5].exact


def test_a_box_given_to_read_leaves_the_callers_puzzles_alone():
    batch = csolve.read("sudoku", str(PUZZLES / "sudoku" / "6x6.txt"))
    p, q = batch[0], batch[1]
    boxes = (p.meta.get("box"), q.meta.get("box"))
    turned = csolve.read("sudoku", [p, q], box="3x2")
    assert [t.meta["box"] for t in turned] == [(3, 2), (3, 2)]
    assert (p.meta.get("box"), q.meta.get("box")) == boxes
    assert csolve.read("sudoku", batch, box="3x2")[0].meta["box"] == (3, 2)
    assert batch[0].meta.get("box") == boxes[0]
    (r,) = csolve.solve("sudoku", p)  # still its own boxes
    assert csolve.validate("sudoku", r.solution, against=p) == []


@pytest.mark.parametrize("call, error, words", [
    (lambda: csolve.generate("sudoku", 1, size=4, difficulty="evil", tries=1, seed=3),
     "GenerationError", "pass more tries=N or pick another difficulty"),
    (lambda: csolve.generate("killer", 1, clues=3), "GenerationError",
     "so symmetry= and clues= do not apply"),
    (lambda: csolve.solve("kakuro", str(PUZZLES / "kakuro" / "small.txt"), box="2x3"),
     "OptionError", "kakuro puzzles have no box shape to choose (box=)"),
])
def test_errors_name_the_apis_keywords_not_the_commands_options(call, error, words):
    with pytest.raises(csolve.CsolveError) as e:
        call()
    assert type(e.value).__name__ == error and words in str(e.value)
    assert "--" not in str(e.value)


def test_the_callers_own_words_are_quoted_as_written():
    with pytest.raises(csolve.UnknownNameError, match="unknown puzzle type '--tries'"):
        csolve.solve("--tries", "1")
    with pytest.raises(csolve.UnknownNameError, match="unknown rule '--box'"):
        csolve.solve("sudoku", HARD, rules=["--box"])


def test_another_types_constraint_rule_is_refused_by_name():
    """Kakuro's sum rule works on groups only Kakuro and Killer models have: on a Sudoku it
    changed nothing, without a word. Killer, whose constraint it is too, takes it."""
    with pytest.raises(csolve.OptionError, match=r"rule 'kakuro-sum' is the constraint of "
                                                 r"kakuro and killer puzzles .* a sudoku model "
                                                 r"has none of them"):
        csolve.solve("sudoku", HARD, rules=["elimination", "kakuro-sum"])
    (r,) = csolve.solve("killer", str(PUZZLES / "killer" / "small.txt"),
                        rules=["elimination", "kakuro-sum"])[:1]
    assert r.status is csolve.Status.SOLVED
    assert csolve.validate("killer", r.solution, against=r.puzzle) == []


def test_explained_steps_carry_the_level_the_command_shows(capsys):
    # the API's steps had level None where explain --output json said "easy"
    import json

    from .helpers import run_cli

    medium = "7.8...9.....6.7...5...2........9...68....35.92..1........8.4...........748.35..6."
    steps = csolve.explain("sudoku", medium)
    code, out, _ = run_cli("explain", "sudoku", medium, "--output", "json")
    shown = json.loads(out.splitlines()[0])["steps"]
    assert code == 0 and len(shown) == len(steps)
    assert [s.level for s in steps] == [s["level"] for s in shown]
    assert {s.level for s in steps} >= {"easy", "medium"}


def test_workers_a_one_worker_backend_cannot_use_are_warned_of():
    # the command line said so and the API said nothing
    with pytest.warns(UserWarning, match="backend 'serial' searches on one worker; workers=8"):
        csolve.Solver("sudoku", backend="serial", workers=8)
    # the warning points at the line that asked, whichever function it called
    for call in (lambda: csolve.Solver("sudoku", workers=2),
                 lambda: csolve.solve("sudoku", "2.....3.........", workers=2),
                 lambda: csolve.count("sudoku", "2.....3.........", workers=2)):
        with pytest.warns(UserWarning) as said:
            call()
        assert [w.filename for w in said] == [__file__], [w.filename for w in said]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        csolve.Solver("sudoku", backend="locked-pool", workers=8)
        csolve.Solver("sudoku", backend="serial", workers=1)


def test_escalate_after_that_changes_nothing_is_warned_of():
    """The command line's note, as a warning at the caller's line; none where it counts."""
    import warnings

    with pytest.warns(UserWarning, match="escalate_after=3 changes nothing: the learning "
                                         "engine cannot search kakuro puzzles") as said:
        results = csolve.solve("kakuro", PUZZLES / "kakuro" / "small.txt", escalate_after=3)
    assert [w.filename for w in said] == [__file__]
    assert results and all(r.status is csolve.Status.SOLVED
                           and csolve.validate("kakuro", r.solution, r.puzzle) == []
                           for r in results)
    with pytest.warns(UserWarning, match="a count, or a search for more than two"):
        assert csolve.count("sudoku", "1...............", escalate_after=3).count == 72
    found = []
    with pytest.warns(UserWarning, match="hands over each solution as it is found"):
        list(csolve.Solver("sudoku", escalate_after=3).iter_solve(
            "1...............", on_solution=lambda p, s: found.append(s)))
    assert len(found) == 1 and csolve.validate("sudoku", found[0], "1...............") == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (r,) = csolve.solve("sudoku", "1...............", escalate_after=3)
        assert csolve.validate("sudoku", r.solution, "1...............") == []


def test_a_backend_named_that_would_not_start_its_workers_is_warned_of(capsys):
    # process-pool with one worker, and generation, ran in this process without a word
    from .helpers import run_cli

    with pytest.warns(UserWarning, match="with workers=1 backend 'process-pool' searches "
                                         "alone in this process"):
        csolve.Solver("sudoku", backend="process-pool", workers=1)
    with pytest.warns(UserWarning, match="backend 'process-pool' makes puzzles on threads"):
        made = csolve.generate("sudoku", 1, size=4, seed=1, backend="process-pool")
    assert csolve.count("sudoku", made[0]).count == 1
    with pytest.warns(UserWarning, match="backend 'serial' makes one puzzle at a time; "
                                         "workers=2 changes nothing"):
        made = csolve.generate("sudoku", 1, size=4, seed=1, backend="serial", workers=2)
    assert csolve.count("sudoku", made[0]).count == 1
    code, _, err = run_cli("solve", "sudoku", "2.....3.........", "--backend", "process-pool",
                           "--workers", "1", "--count")
    assert code == 0 and "with --workers 1 backend process-pool searches alone" in err
    code, _, err = run_cli("generate", "sudoku", "--size", "4", "--seed", "1", "--backend",
                           "process-pool")
    assert code == 0 and "no worker processes are started" in err


def test_process_pool_in_an_unguarded_script_is_a_csolve_error_that_says_why(tmp_path):
    """A script that uses process-pool without the ``__main__`` guard: its workers die as
    they start, and the error says what to do (it was a BrokenProcessPool, no hint)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import csolve\n"
        "try:\n"
        "    csolve.count('sudoku', '...8.....43...9.87....2..1.2...........91......8....9....."
        "51.....4...1.5.65.4..2.', backend='process-pool', workers=2, probe=0)\n"
        "except csolve.CsolveError as e:\n"
        "    print(type(e).__name__, e.exit_code, e)\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=300, cwd=tmp_path)
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("WorkerProcessError 4 process-pool: a worker process ended abruptly")
    assert 'if __name__ == "__main__":' in last


@pytest.mark.parametrize("kind", ["sudoku", "killer", "kakuro", "str8ts"])
def test_a_puzzles_text_reads_back_as_the_same_puzzle(kind):
    """``Puzzle.text``: how a generated puzzle is saved, and read back by solve."""
    (made,) = csolve.generate(kind, 1, seed=5)
    (again,) = csolve.read(kind, made.text)
    assert "\n" not in made.text and again.text == made.text
    r = csolve.count(kind, made.text)
    assert (r.count, r.exact) == (1, True)
    solved = csolve.solve(kind, made)[0]
    assert csolve.validate(kind, solved.solution, against=again) == []
    bundled = csolve.read(kind, str(PUZZLES / kind / ("9x9-hard.txt" if kind == "sudoku"
                                                      else "small.txt")))[0]
    assert csolve.read(kind, bundled.text)[0].text == bundled.text


def test_a_path_from_home_is_read(tmp_path, monkeypatch):
    """``~/...`` from Python, where no shell expands it, as the command line's is."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "mine.txt").write_text("2.....3.........\n")
    r = csolve.count("sudoku", "~/mine.txt")
    assert (r.count, r.exact) == (12, True) and r.puzzle.source == str(tmp_path / "mine.txt")
    with pytest.raises(csolve.PuzzleInputError, match="no such file"):
        csolve.solve("sudoku", "~/other.txt")


def test_iter_solve_reads_its_puzzles_when_iterated(tmp_path):
    """Its callbacks are checked by the call; the puzzles are read at the first next(), so a
    file written after the call is the one solved."""
    path = tmp_path / "later.txt"
    results = csolve.Solver("sudoku").iter_solve(str(path))
    path.write_text("2.....3.........\n")
    (r,) = list(results)
    assert r.status is csolve.Status.MULTIPLE or r.status is csolve.Status.SOLVED
    assert csolve.validate("sudoku", r.solution, against=r.puzzle) == []
