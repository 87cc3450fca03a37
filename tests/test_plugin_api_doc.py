"""docs/plugin-api.md's examples run as written: the step finder with its contradiction
check, and Str8ts' picture, which draws what the plugin draws."""

from __future__ import annotations

import contextlib
import io
import re

from csolve.grading import find_solution, stepper
from csolve.puzzle import get_puzzle_type

from .helpers import PUZZLES, ROOT


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
