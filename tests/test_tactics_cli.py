"""The tactic commands end to end: list-tactics, explain, hint, rate, solve --tactics/--explain."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from csolve.grading import LEVELS, rate

from .helpers import PUZZLES, run_cli, shared_file

# from puzzles/sudoku/9x9-hard.txt: needs locked candidates, no guess
MEDIUM = "7.8...9.....6.7...5...2........9...68....35.92..1........8.4...........748.35..6."
# a 17-clue puzzle: a naked pair, then guesses
CLUE17 = "..............1..2..3..4.5.....3......67....8.4......1....8..6.1....2...7......3."


def run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_cli(*args)


@pytest.fixture
def medium_file(tmp_path):
    path = tmp_path / "medium.txt"
    path.write_text(MEDIUM + "\n")
    return str(path)


def test_list_tactics_names_each_with_a_description(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "list-tactics", "sudoku")
    assert code == 0
    for t in ("hidden-single", "naked-triple", "hidden-quad", "x-wing", "jellyfish", "xy-wing"):
        assert t in out


def test_a_tactics_other_name_and_a_types_constraint_rules_are_tactics(capsys, monkeypatch,
                                                                         medium_file):
    """``naked-single`` (list-tactics' other name for ``elimination``) is taken for it; a
    type's constraint rules are always among its tactics, listed and accepted, even where
    the plugin's ``tactics`` leaves them out (as a third-party type may)."""
    from csolve.grading import tactic_list
    from csolve.puzzle import get_puzzle_type

    code, out, err = run(capsys, monkeypatch, "hint", "sudoku", medium_file, "--tactics",
                         "naked-single,hidden-single", "--output", "json")
    assert code == 0, err
    assert json.loads(out)["steps"][0]["tactic"] in ("elimination", "hidden-single")
    str8ts = get_puzzle_type("str8ts")
    narrow = type("Narrow", (type(str8ts),), {"tactics": ("elimination", "naked-pair")})()
    assert tactic_list(narrow, ["str8ts-straight"]) == ("str8ts-straight",)
    assert tactic_list(narrow, None) == ("elimination", "naked-pair", "str8ts-straight")
    code, out, _ = run(capsys, monkeypatch, "list-tactics", "kakuro")
    assert code == 0 and "kakuro-sum" in out


def test_explain_names_tactics_cells_and_groups(capsys, monkeypatch, medium_file, sudoku):
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku", medium_file, "--output", "line")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "r1c2 = 6: hidden single in row 1"
    assert ("locked candidates: 8 in row 4 can only go where it meets box 6, so it leaves the "
            "rest of box 6: removes 8 from r6c7, r6c8, r6c9") in lines
    assert not any("guess" in line for line in lines)


def test_explain_names_subsets_and_guesses(capsys, monkeypatch, tmp_path):
    f = tmp_path / "c17.txt"
    f.write_text(CLUE17 + "\n")
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku", str(f), "--output", "line")
    assert code == 0
    lines = out.splitlines()
    assert ("naked pair {5,9} in row 9 (r9c6, r9c9) removes 5 from r9c3, r9c4, r9c7; "
            "9 from r9c3, r9c4, r9c7") in lines
    assert any(": guess (no tactic applies" in x for x in lines)


def test_explain_json_steps_replay_to_the_validated_solution(capsys, monkeypatch, medium_file,
                                                               sudoku):
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku", medium_file, "--output", "json")
    assert code == 0
    obj = json.loads(out)
    (p,) = sudoku.parse(MEDIUM + "\n", "<t>")
    grid = p.data.copy()
    for s in obj["steps"]:
        for pl in s["placed"]:
            r, c = (int(x) for x in pl["cell"][1:].split("c"))
            grid[(r - 1) * 9 + c - 1] = pl["value"]
    assert sudoku.validate(p, grid) == []
    assert obj["solution"] == grid.reshape(9, 9).tolist()
    assert obj["rating"]["level"] == "medium"
    # every step says its level, as Kakuro's and Str8ts' do; the hardest is the rating's
    levels = [s["level"] for s in obj["steps"]]
    assert set(levels) <= {"easy", "medium", "hard", "expert"}
    assert "medium" in levels and "hard" not in levels and "expert" not in levels


def test_a_guess_step_is_evil_as_its_rating(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku",
                       str(PUZZLES / "sudoku" / "9x9-hard.txt"), "--output", "json")
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    guessed = [o for o in objs if o["rating"]["guesses"]]
    assert guessed and all(o["rating"]["level"] == "evil" for o in guessed)
    for o in guessed:
        assert {s["level"] for s in o["steps"] if s["tactic"] == "guess"} == {"evil"}


def test_explain_shows_guesses_on_a_hard_puzzle(capsys, monkeypatch, tmp_path, sudoku):
    path = shared_file("sudoku-9x9", "forum-hardest-5000.txt")
    line = next(x for x in path.read_text().splitlines() if x and not x.startswith("#"))
    f = tmp_path / "hard.txt"
    f.write_text(line + "\n")
    code, out, _ = run(capsys, monkeypatch, "solve", "sudoku", str(f), "--explain",
                       "--output", "line")
    assert code == 0
    assert any(": guess (no tactic applies" in x for x in out.splitlines())


def test_hint_prints_the_next_step_only(capsys, monkeypatch, medium_file):
    code, out, _ = run(capsys, monkeypatch, "hint", "sudoku", medium_file, "--output", "line")
    assert code == 0
    assert out.splitlines() == ["r1c2 = 6: hidden single in row 1"]


def test_hint_with_tactics_uses_only_those(capsys, monkeypatch, medium_file):
    code, out, _ = run(capsys, monkeypatch, "hint", "sudoku", medium_file, "--output", "json",
                       "--tactics", "elimination")
    assert code == 0
    step = json.loads(out)["steps"][0]
    assert step["tactic"] in ("elimination", "guess")


def test_rate_outputs(capsys, monkeypatch, medium_file):
    code, out, _ = run(capsys, monkeypatch, "rate", "sudoku", medium_file, "--output", "json")
    assert code == 0
    obj = json.loads(out)
    assert obj["level"] == "medium" and obj["guesses"] == 0 and obj["steps"] > 0
    code, out, _ = run(capsys, monkeypatch, "rate", "sudoku", medium_file, "--output", "line")
    assert out.split()[0] == "medium"
    code, out, _ = run(capsys, monkeypatch, "rate", "sudoku", medium_file, "--output", "pretty")
    assert "medium" in out and "hardest tactic" in out
    # the title names the file; each row its line number, which a long path cannot crowd out
    row = next(r for r in out.splitlines() if "medium" in r and "difficulty" not in r)
    assert re.findall(r"[\w-]+", row)[:2] == ["1", "medium"], row
    assert f"{medium_file}: difficulty" in out.replace("\n", "")


def test_rate_with_singles_only_needs_guesses(capsys, monkeypatch, medium_file):
    code, out, _ = run(capsys, monkeypatch, "rate", "sudoku", medium_file, "--output", "json",
                       "--tactics", "elimination,hidden-single")
    obj = json.loads(out)
    assert obj["level"] == "evil" and obj["guesses"] > 0


def test_solve_with_tactics(capsys, monkeypatch, medium_file, sudoku):
    code, out, _ = run(capsys, monkeypatch, "solve", "sudoku", medium_file, "--output", "json",
                       "--tactics", "hidden-single,naked-triple,x-wing")
    assert code == 0
    (p,) = sudoku.parse(MEDIUM + "\n", "<t>")
    grid = np.array(json.loads(out)["solution"]).reshape(-1)
    assert sudoku.validate(p, grid) == []


@pytest.mark.parametrize("cmd", ["solve", "rate", "explain", "hint"])
def test_unknown_tactic_is_one_line_and_exit_2(capsys, monkeypatch, medium_file, cmd):
    code, _, err = run(capsys, monkeypatch, cmd, "sudoku", medium_file, "--tactics", "bogus")
    assert code == 2
    assert err.startswith("csolve: error:") and "bogus" in err and err.count("\n") == 1


def test_bad_file_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("12x\n")
    code, _, err = run(capsys, monkeypatch, "rate", "sudoku", str(f))
    assert code == 2 and err.count("\n") == 1


def test_no_solution_puzzle_rates_invalid(capsys, monkeypatch, tmp_path):
    f = tmp_path / "nosol.txt"
    # r1 needs 9 in c9 but column 9 has a 9 lower down: no solution, no conflicting givens
    f.write_text("12345678.........9" + "." * 63 + "\n")
    code, out, _ = run(capsys, monkeypatch, "rate", "sudoku", str(f), "--output", "json")
    assert code == 1
    assert json.loads(out)["level"] == "invalid"


def test_levels_order_the_shared_sets(sudoku):
    """kaggle easiest, 17-clue next, top1465 and forum-hardest hardest (mean level)."""
    import random

    rng = random.Random(5)
    means = {}
    for name in ("kaggle-2000.txt", "17clue-5000.txt", "top1465.txt",
                 "forum-hardest-5000.txt"):
        path = shared_file("sudoku-9x9", name)
        puzzles = rng.sample(sudoku.parse(path.read_text(), str(path)), 25)
        ratings = [rate(sudoku, p) for p in puzzles]
        assert all(r.level in LEVELS for r in ratings)
        means[name] = sum(r.level_index for r in ratings) / len(ratings)
    assert means["kaggle-2000.txt"] < means["17clue-5000.txt"]
    assert means["17clue-5000.txt"] < min(means["top1465.txt"], means["forum-hardest-5000.txt"])


@pytest.mark.parametrize("command", ["hint", "rate"])
@pytest.mark.parametrize("style", ["grid", "svg"])
def test_hint_and_rate_refuse_outputs_they_cannot_write(capsys, monkeypatch, medium_file,
                                                        command, style):
    # words and tables have no grid or picture form: a usage error, not silence or lines
    code, out, err = run(capsys, monkeypatch, command, "sudoku", medium_file, "--output", style)
    assert code == 2 and out == ""
    assert err.startswith("csolve: error: ") and "'--output'" in err and len(err.splitlines()) == 1


def test_explain_of_a_complete_grid_says_so(capsys, monkeypatch, tmp_path):
    f = tmp_path / "done.txt"
    f.write_text("1234341221434321\n")
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku", str(f), "--output", "line")
    assert code == 0 and out.splitlines() == ["no step: the puzzle is solved"]
    f.write_text("1234341221434.21\n")  # one cell left: one step, in the singular
    code, out, _ = run(capsys, monkeypatch, "explain", "sudoku", str(f), "--output", "pretty")
    assert code == 0 and "solved in 1 step and 0 guesses: easy" in out


@pytest.mark.parametrize("kind, text", [
    ("kakuro", "#    3\\   3\\\n\\3    .    .\n\\4    .    .\n"),
    ("killer", "ABCD/ABCD/EFGH/EFGH A=3 B=3 C=5 D=5 E=5 F=5 G=5 H=5\n"),
])
def test_hint_on_a_puzzle_with_no_solution_says_so(tmp_path, kind, text):
    """A hint for a puzzle that has no solution says that, in words and in JSON, rather
    than showing a step towards nothing (exit 1 either way)."""
    path = tmp_path / "none.txt"
    path.write_text(text)
    code, out, _ = run_cli("hint", kind, str(path), "--output", "line")
    assert code == 1 and out.startswith("no solution: ") and out.count("\n") == 1, out
    code, out, _ = run_cli("hint", kind, str(path), "--output", "json")
    obj = json.loads(out)
    assert code == 1 and obj["status"] == "no-solution" and obj["steps"] == []
    code, out, _ = run_cli("explain", kind, str(path), "--output", "json")
    assert code == 1 and json.loads(out)["status"] == "no-solution"


def _wrong_hidden_single(b):
    """A broken finder: removes every open cell's largest candidate, right or wrong."""
    from csolve.logic import Step

    for c, x in enumerate(b.cand):
        if x & (x - 1):
            v = x.bit_length()
            yield Step("hidden-single", removed=[(c, v)], cells=[c], values=[v],
                       text=f"{b.namer.cell(c)} <> {v}: wrong on purpose")


def test_a_wrong_step_is_a_named_bug_not_an_explanation(capsys, monkeypatch, medium_file):
    # a finder's wrong step was shown as an explanation, exit 0 (or, once it emptied a
    # cell, as "no solution" of a puzzle that has one)
    import csolve
    from csolve.errors import UnsoundStepError

    monkeypatch.setitem(__import__("csolve.logic").logic.FINDERS, "hidden-single",
                        _wrong_hidden_single)
    for command in ("explain", "rate", "hint"):
        code, out, err = run(capsys, monkeypatch, command, "sudoku", medium_file)
        assert code == 4, (command, err)
        assert len(err.splitlines()) == 1 and "Traceback" not in err
        assert "tactic 'hidden-single' (tests.test_tactics_cli._wrong_hidden_single) made a " \
               "wrong step: it removes" in err and "the only solution's value there" in err
    with pytest.raises(UnsoundStepError, match="_wrong_hidden_single"):
        csolve.explain("sudoku", MEDIUM)
    # a puzzle with two solutions has no only solution to hold steps to
    two = "2.....3........."
    assert csolve.count("sudoku", two).count > 1
    csolve.explain("sudoku", two)


def test_a_step_that_changes_nothing_is_passed_over(monkeypatch):
    # taken, it was found again at every step and the explanation never ended
    import csolve
    from csolve.logic import FINDERS, Step

    real = FINDERS["hidden-single"]

    def idle_then_real(b):
        c = next(c for c, placed in enumerate(b.placed) if placed)
        yield Step("hidden-single", placed=[(c, b.cand[c].bit_length())], cells=[c],
                   text="a value already written in")
        yield from real(b)

    want = [s.text for s in csolve.explain("sudoku", MEDIUM)]
    monkeypatch.setitem(FINDERS, "hidden-single", idle_then_real)
    assert [s.text for s in csolve.explain("sudoku", MEDIUM)] == want


@pytest.mark.parametrize("args", [("explain",), ("hint",), ("rate",),
                                  ("explain", "--output", "svg")])
def test_a_bad_puzzle_anywhere_in_a_file_is_refused_before_any_output(tmp_path, args):
    """Conflicting givens on a file's last line: one error line and nothing else, as solve
    and render do (the first puzzles were explained, then the error, exit 2)."""
    path = tmp_path / "mixed.txt"
    path.write_text((PUZZLES / "sudoku" / "9x9-hard.txt").read_text() + "99" + "." * 79 + "\n")
    code, out, err = run_cli(args[0], "sudoku", str(path), *args[1:])
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {path}:7: conflicting givens: value 9 twice in row 1 "
                   "(r1c1 and r1c2)\n")


def test_hints_of_a_file_say_whose_they_are(tmp_path):
    """Line output of hint on several puzzles: one line a puzzle, each led by its place
    (they were bare steps, one a puzzle, with nothing to say which)."""
    path = tmp_path / "two\\[red]x.txt"  # a name that reads as markup, as it is
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    hard = (PUZZLES / "sudoku" / "9x9-hard.txt").read_text().splitlines()[1]
    path.write_text(f"{hard}\n{solved}\n")
    code, out, err = run_cli("hint", "sudoku", str(path), "--output", "line")
    assert code == 0, err
    first, second = out.splitlines()
    assert first.startswith(f"{path}:1: r") and second == f"{path}:2: no step: the puzzle is solved"
    code, out, _ = run_cli("hint", "sudoku", hard, "--output", "line")  # one puzzle: as before
    assert code == 0 and out.startswith("r")
