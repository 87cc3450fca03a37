"""docs/plugin-api.md's examples run as written: the step finder with its contradiction
check, and Str8ts' picture, which draws what the plugin draws."""

from __future__ import annotations

import contextlib
import io
import re

from csolve.grading import find_solution, stepper
from csolve.puzzle import get_puzzle_type

from .helpers import PUZZLES, ROOT
from .test_plugin_isolation import HARD, install, program, site  # noqa: F401 (fixture)


def _block(first_line: str) -> str:
    doc = (ROOT / "docs" / "plugin-api.md").read_text()
    (code,) = [b for b in re.findall(r"```python\n(.*?)```", doc, re.S)
               if b.startswith(first_line)]
    return code


def test_the_finder_example_runs_and_says_what_its_comments_say():
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(_block("# the rule in words"), "docs/plugin-api.md finder", "exec"),
             namespace)
    assert out.getvalue().splitlines() == ["r1c1 < r1c2: r1c1 loses 3, 4",
                                           "no values fit r1c1 < r1c2"]
    assert namespace["less_than"].contradiction is namespace["crossed"]


def test_the_finder_example_stops_a_stepper_where_the_inequality_breaks():
    from csolve.logic import Stepper
    from csolve.model import ModelBuilder

    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(_block("# the rule in words"), "docs/plugin-api.md finder", "exec"),
             namespace)
    m = ModelBuilder(2, 4)
    m.add_group([0, 1], alldiff=False, tag=namespace["LESS_THAN"])
    m.restrict(0, [4])
    m.restrict(1, [1, 2])
    st = Stepper(m.build(("elimination",)), ["elimination", "futoshiki-less-than"],
                 namespace["board"].namer, finders={"futoshiki-less-than": namespace["less_than"]})
    steps = list(st.steps())
    assert [s.broken for s in steps] == ["no values fit r1c1 < r1c2"]
    assert st.board.broken() == "no values fit r1c1 < r1c2"


def test_the_str8ts_picture_example_draws_what_the_plugin_draws():
    namespace: dict = {}
    exec(compile(_block("# csolve_str8ts"), "docs/plugin-api.md str8ts", "exec"), namespace)
    real = get_puzzle_type("str8ts")
    shown = type("Shown", (type(real),), {"to_svg": namespace["Str8ts"].to_svg})()
    path = PUZZLES / "str8ts" / "small.txt"
    puzzle = real.parse(path.read_text(), str(path))[0]
    count, solution = find_solution(real, puzzle)
    assert shown.to_svg(puzzle, None) == real.to_svg(puzzle, None)
    assert shown.to_svg(puzzle, solution) == real.to_svg(puzzle, solution)
    st = stepper(real, puzzle, None, solution, unique=count == 1)
    steps = 0
    while True:
        before, placed = list(st.board.cand), list(st.board.placed)
        step = st.next_step()
        if step is None:
            break
        steps += 1
        assert (shown.to_svg(puzzle, None, step, candidates=before, placed=placed)
                == real.to_svg(puzzle, None, step, candidates=before, placed=placed))
    assert steps > 5


def test_the_backend_and_command_example_runs_as_a_plugin(site):  # noqa: F811 (fixture)
    """The "Backends and commands" example, installed as a distribution: its backend runs
    (``solve_group`` for a file of 9x9 Sudokus, ``solve`` for a puzzle searched alone) and
    gives valid solutions; its command prints each puzzle's givens; its error is one line."""
    install(site, "loggedplug", {"logged": _block("# csolve_logged/hooks.py")})
    r = program(site, "solve", "sudoku", HARD, "--backend", "logged", "--output", "line")
    assert r.returncode == 0 and r.stderr.splitlines()[0] == "a batch of 5 puzzles", r.stderr
    sudoku = get_puzzle_type("sudoku")
    puzzles = sudoku.parse(open(HARD).read(), HARD)
    for puzzle, line in zip(puzzles, r.stdout.split(), strict=True):
        (solution,) = sudoku.parse(line, "<out>")
        assert sudoku.validate(puzzle, solution.data) == []
    big = str(PUZZLES / "sudoku" / "25x25.txt")
    r = program(site, "solve", "sudoku", big, "--backend", "logged", "--output", "line")
    assert r.returncode == 0 and r.stderr.splitlines()[0].endswith(" nodes, limit"), r.stderr
    r = program(site, "givens", "sudoku", HARD)
    assert r.returncode == 0
    assert r.stdout.splitlines() == [f"{p.where}: {sudoku.clue_count(p)}" for p in puzzles]
    r = program(site, "givens", "sudoku", "no-such.txt")
    assert (r.returncode, r.stderr) == (2, "csolve: error: no-such.txt: no such file\n")
    assert "logged" in program(site, "list-backends").stdout
