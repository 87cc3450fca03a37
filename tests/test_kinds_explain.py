"""explain, hint, rate and solve --explain on Kakuro, Str8ts and a third-party type, and
multiple solutions named as such."""

from __future__ import annotations

import json

import numpy as np
import pytest

from csolve.grading import NO_CONTRADICTION, NOT_UNIQUE, rate
from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType, get_puzzle_type

from .helpers import PUZZLES
from .test_constraint_rules import run
from .test_plugin_tutorial import latin  # noqa: F401 (fixture)

KAKURO = str(PUZZLES / "kakuro" / "small.txt")
STR8TS = str(PUZZLES / "str8ts" / "small.txt")
# two solutions: the 1s and 2s of a 2x2 block can swap
KAKURO_TWO = "#  3\\  3\\\n\\3  .  .\n\\3  .  .\n"


def test_explain_kakuro_names_runs_combinations_and_losses(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "explain", "kakuro", KAKURO, "--output", "line")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{KAKURO}:2"  # the file holds two puzzles: whose steps follow
    assert lines[1] == ("run r2c2-r2c3 (sum 3 in 2): combinations {1,2}: r2c2 loses 3, 4, 5, "
                        "6, 7, 8, 9; r2c3 loses 3, 4, 5, 6, 7, 8, 9")
    assert ("run r2c3-r4c3 (sum 14 in 3): with the cells' candidates, only {1,5,8} fit: "
            "r2c3 loses 2; r3c3 loses 1, 2, 6; r4c3 loses 6, 9") in lines
    assert not any("guess" in line for line in lines)


def test_explain_str8ts_names_compartment_ranges(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "explain", "str8ts", STR8TS, "--output", "json")
    assert code == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    texts = [s["text"] for s in first["steps"]]
    assert texts[0] == ("compartment r4c1-r4c3 can only be a straight within 2..5: "
                        "r4c1 loses 1, 6")
    assert any("is its only place" in t for t in texts)
    ptype = get_puzzle_type("str8ts")
    p = ptype.parse(open(STR8TS).read(), STR8TS)[0]
    assert ptype.validate(p, np.array(first["solution"])) == []
    assert first["rating"]["level"] == "medium" and second["rating"]["solutions"] == 1


@pytest.mark.parametrize("kind,path", [("kakuro", KAKURO), ("str8ts", STR8TS)])
def test_hint_rate_and_solve_explain(capsys, monkeypatch, kind, path):
    code, out, err = run(capsys, monkeypatch, "hint", kind, path, "--output", "line")
    assert code == 0, err
    assert len(out.splitlines()) == 2  # one step per puzzle
    code, out, err = run(capsys, monkeypatch, "rate", kind, path, "--output", "json")
    assert code == 0, err
    for line in out.splitlines():
        r = json.loads(line)
        assert r["level"] in ("easy", "medium", "hard", "expert", "evil")
        assert r["solutions"] == 1
    code, out, err = run(capsys, monkeypatch, "solve", kind, path, "--explain", "--output",
                         "line")
    assert code == 0, err
    assert "loses" in out


def test_several_solutions_are_named_not_rated_evil(capsys, monkeypatch, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(KAKURO_TWO)
    code, out, _ = run(capsys, monkeypatch, "rate", "kakuro", str(f), "--output", "line")
    assert code == 0 and out.split()[0] == "not-unique"
    code, out, _ = run(capsys, monkeypatch, "rate", "kakuro", str(f), "--output", "json")
    assert json.loads(out)["level"] == NOT_UNIQUE
    code, out, _ = run(capsys, monkeypatch, "explain", "kakuro", str(f), "--output", "line")
    assert code == 0 and "several solutions" in out.splitlines()[-1]
    ptype = get_puzzle_type("kakuro")
    r = rate(ptype, ptype.parse(KAKURO_TWO, "two")[0])
    assert r.level == NOT_UNIQUE and r.solutions == 2


class _Latin(PuzzleType):
    """A third-party type with a constraint rule that has no step finder: a 3x3 Latin square
    whose first row's two ends must be consecutive (the Str8ts rule), as a flat grid of
    givens. With r2c2 = 1 and r2c3 = 2 it has two Latin squares and one solution."""

    name = "latin-test"
    constraint_rules = ("str8ts-straight",)

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        from csolve_str8ts.rules import STRAIGHT

        b = ModelBuilder(9, 3)
        for i in range(3):
            b.add_group([3 * i + j for j in range(3)])
        for j in range(3):
            b.add_group([3 * i + j for i in range(3)])
        b.add_group([0, 2], alldiff=False, tag=STRAIGHT, param=0)
        for c, v in enumerate(puzzle.data):
            if v:
                b.restrict(c, [v])
        return b.build(rules or ("elimination",))

    def decode(self, puzzle, masks):
        return np.array([int(m).bit_length() for m in masks])

    def validate(self, puzzle, solution):
        g = solution.reshape(3, 3)
        ok = all(len(set(r)) == 3 for r in g.tolist()) and all(
            len(set(c)) == 3 for c in g.T.tolist()) and abs(int(g[0, 0]) - int(g[0, 2])) == 1
        kept = all(v == 0 or v == s for v, s in zip(puzzle.data, solution, strict=True))
        return [] if ok and kept else ["not a solution"]

    def check(self, puzzle):
        pass


def test_a_third_party_type_is_explained_and_graded_with_generic_tactics():
    from csolve.grading import find_solution, stepper

    ptype = _Latin()
    p = Puzzle(ptype.name, "<test>", 1, 0, np.array([0, 0, 0, 0, 1, 2, 0, 0, 0]))
    count, solution = find_solution(ptype, p)
    assert count == 1 and ptype.validate(p, solution) == []
    st = stepper(ptype, p, None, solution)
    assert st.skipped == ["str8ts-straight"]  # no finder: its deductions become guesses
    steps = list(st.steps())
    assert st.board.solved()
    assert (ptype.decode(p, st.masks()) == solution).all()
    assert {s.tactic for s in steps} <= {"elimination", "hidden-single", "guess"}
    assert rate(ptype, p).level in ("easy", "evil")


def test_a_constraint_rule_with_no_finder_is_a_tactic_to_name_and_never_a_wrong_step(
        capsys, monkeypatch):
    """A constraint rule without a step finder: named in ``--tactics`` it is taken (as
    list-tactics lists it), shown as guesses; on a puzzle it leaves with no solution the
    steps end without a guess (they guessed their way to a full grid that breaks it)."""
    import csolve.puzzle
    from csolve.grading import explain, stepper

    ptype = _Latin()
    p = Puzzle(ptype.name, "<test>", 1, 0, np.array([0, 0, 0, 0, 1, 2, 0, 0, 0]))
    assert stepper(ptype, p, ("elimination", "str8ts-straight")).skipped == ["str8ts-straight"]
    broken = Puzzle(ptype.name, "<test>", 1, 0, np.array([1, 0, 3, 0, 0, 0, 0, 0, 0]))
    e = explain(ptype, broken)
    assert e.solutions == 0 and all(s.tactic != "guess" for s in e.steps)
    assert not e.stepper.board.solved() and e.why_no_solution() == NO_CONTRADICTION
    monkeypatch.setattr(csolve.puzzle, "get_puzzle_type", lambda name: ptype)
    monkeypatch.setenv("COLUMNS", "250")  # one line a tactic
    code, out, _ = run(capsys, monkeypatch, "list-tactics", "latin-test")
    assert code == 0
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if "│" in line}
    assert "no step-by-step form" in rows["str8ts-straight"]
    assert "no step-by-step form" not in rows["elimination"]


@pytest.mark.usefixtures("latin")
def test_the_tutorial_plugin_is_explained_and_rated_on_the_command_line(
        capsys, monkeypatch, tmp_path):
    """docs/plugins.md's Latin squares, a third-party type with no step finder of its own."""
    f = tmp_path / "latin.txt"
    f.write_text("12.." + "." * 12 + "\n")  # a 4x4 with many ways to finish it
    for command in ("explain", "hint", "rate"):
        code, out, err = run(capsys, monkeypatch, command, "latin", str(f), "--output", "json")
        assert code == 0, err
        obj = json.loads(out)
        if command == "rate":
            assert obj["level"] == NOT_UNIQUE and obj["solutions"] == 2
        else:
            assert obj["steps"] and all(s["level"] for s in obj["steps"])
    code, out, err = run(capsys, monkeypatch, "explain", "latin", str(f), "--output", "line")
    assert code == 0 and "several solutions" in out.splitlines()[-1]
    f.write_text("1234214334124...\n")  # one way to finish it
    code, out, err = run(capsys, monkeypatch, "solve", "latin", str(f), "--explain",
                         "--output", "json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["rating"]["level"] == "easy" and obj["rating"]["solutions"] == 1


def test_explain_str8ts_names_a_compartment_no_straight_fits(capsys, monkeypatch, tmp_path):
    # the given 1 leaves r6c4-r6c5 no straight: the puzzle has no solution
    path = tmp_path / "u1.txt"
    path.write_text("#..#.1\n..16.4\n..#...\n.34#..\n.6....\n..#1.#\n")
    code, out, err = run(capsys, monkeypatch, "explain", "str8ts", str(path), "--output", "line")
    assert code == 1, err
    assert ("no straight fits compartment r6c4-r6c5, so its cells keep no value: r6c4 loses 1; "
            "r6c5 loses 3, 4, 5, 6") in out.splitlines()
    assert "no solution" in out + err


@pytest.mark.parametrize("kind, text, reason", [
    ("kakuro", "#   3\\  3\\\n\\3  .   .\n\\4  .   .\n",
     "no combination of 2 digits adding up to 3 fits run r2c3-r3c3"),
    ("killer", "AABB/CDDB/CEFF/CGFH A=4 B=7 C=9 D=5 E=4 F=7 G=1 H=4\n",
     "no combination of 1 digit adding up to 4 fits cage H at r4c4"),
])
def test_steps_stop_where_a_sum_is_broken_and_say_which(capsys, monkeypatch, tmp_path, kind,
                                                         text, reason):
    """A puzzle whose sums cannot all be made: the steps stop at the first run or cage no
    combination fits, and say so (they went on with singles that broke the sums, then
    said only that the search finds no solution); hint and rate agree."""
    path = tmp_path / "p.txt"
    path.write_text(text)
    code, out, err = run(capsys, monkeypatch, "explain", kind, str(path), "--output", "line")
    assert code == 1, err
    lines = out.splitlines()
    assert lines[-1] == f"no solution: {reason}"
    assert "no combination fits, so its cells keep no value" in lines[-2]
    ptype = get_puzzle_type(kind)
    (puzzle,) = ptype.parse(text, str(path))
    code, out, err = run(capsys, monkeypatch, "hint", kind, str(path), "--output", "line")
    assert code == 1 and reason in out + err
    code, out, err = run(capsys, monkeypatch, "explain", kind, str(path), "--output", "json")
    rating = json.loads(out)["rating"]
    assert (rating["level"], rating["hardest"], rating["steps"]) == ("invalid", None, 0)
    assert rate(ptype, puzzle).level == "invalid"


NEEDS_A_GUESS_TO_REFUTE = ".79.26..5...497......3....4..1.....6...64.8.3.2....9...53...1.8......" \
    ".7...78..5.9"


def test_a_puzzle_with_no_solution_gets_no_guesses(capsys, monkeypatch, tmp_path):
    """Where the tactics cannot refute a puzzle with no solution, the steps end there: a
    guess proves nothing on it (explain went on guessing, filled cells no solution has, and
    gave the contradiction its guesses made as the reason)."""
    path = tmp_path / "p.txt"
    path.write_text(NEEDS_A_GUESS_TO_REFUTE + "\n")
    for args in (("--output", "line"), ("--output", "json")):
        code, out, err = run(capsys, monkeypatch, "explain", "sudoku", str(path), *args)
        assert code == 1, err
        if args[1] == "json":
            obj = json.loads(out)
            assert obj["status"] == "no-solution" and obj["why"] == NO_CONTRADICTION
            assert obj["steps"] and all(s["tactic"] != "guess" for s in obj["steps"])
        else:
            assert out.splitlines()[-1] == f"no solution: {NO_CONTRADICTION}"
            assert ": guess (" not in out
    code, out, _ = run(capsys, monkeypatch, "hint", "sudoku", str(path), "--output", "line")
    assert code == 1 and out == f"no solution: {NO_CONTRADICTION}\n"


def test_bad_cell_is_quoted_as_written(capsys, monkeypatch, tmp_path):
    code, _out, err = run(capsys, monkeypatch, "solve", "str8ts", KAKURO)  # a Kakuro file
    assert code == 2
    assert f"{KAKURO}:2:10: bad cell '5\\' (expected" in err
    bad = tmp_path / "k.txt"
    bad.write_text("#  3\\  3\\\n\\3  1\\2\\3  .\n\\3  .  .\n")
    code, _out, err = run(capsys, monkeypatch, "solve", "kakuro", str(bad))
    assert code == 2
    assert f"{bad}:2:5: bad cell '1\\2\\3' (expected" in err
