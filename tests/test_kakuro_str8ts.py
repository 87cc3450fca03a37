"""Kakuro and Str8ts plugins: the shared janko.at sets, counting, bad input, validators."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

import csolve
from csolve.puzzle import get_puzzle_type
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, run_cli, shared_file

SETS = {"kakuro": ("kakuro", "janko-kakuro-500.jsonl"),
        "str8ts": ("str8ts", "janko-str8ts-280.jsonl")}


def _one(kind: str, text: str):
    (p,) = get_puzzle_type(kind).parse(text, "<test>")
    return p


@pytest.mark.parametrize("kind", sorted(SETS))
def test_every_shared_puzzle_is_solved_as_shipped(kind):
    path = shared_file(*SETS[kind])
    ptype = get_puzzle_type(kind)
    text = path.read_text()
    shipped = [np.array(json.loads(line)["solution"]) for line in text.splitlines()]
    puzzles = ptype.parse(text, str(path))
    assert len(puzzles) == len(shipped)
    results = list(solve_puzzles(ptype, puzzles, SolveOptions(limit=2)))
    for p, r in zip(puzzles, results, strict=True):
        assert r.count >= 1, p.where
        want = shipped[p.index]
        assert ptype.validate(p, want) == [], p.where
        for s in r.solutions:
            assert ptype.validate(p, s) == []
        if r.count == 1:
            assert np.array_equal(r.solutions[0], want), p.where
        else:
            # the set holds a puzzle with two solutions (janko_kakuro_257): the shipped
            # one must be among them
            full = solve_one(ptype, p, SolveOptions(limit=0, keep=10))
            assert full.exact and any(np.array_equal(s, want) for s in full.solutions)


@pytest.mark.parametrize("kind", sorted(SETS))
def test_samples_have_one_solution(kind):
    ptype = get_puzzle_type(kind)
    path = PUZZLES / kind / "small.txt"
    puzzles = ptype.parse(path.read_text(), str(path))
    assert puzzles
    for p in puzzles:
        r = solve_one(ptype, p, SolveOptions(limit=0))
        assert r.exact and r.count == 1 and r.status is Status.SOLVED


def test_kakuro_counts_every_solution():
    # a 2x2 block whose runs all add up to 3: {1,2} both ways round
    p = _one("kakuro", "- 3\\ 3\\\n\\3 0 0\n\\3 0 0\n")
    r = solve_one(get_puzzle_type("kakuro"), p, SolveOptions(limit=0, keep=5))
    assert r.exact and r.count == 2 and r.status is Status.MULTIPLE
    assert sorted(s[1, 1] for s in r.solutions) == [1, 2]


def test_kakuro_line_and_slash_forms_agree():
    k = get_puzzle_type("kakuro")
    a = _one("kakuro", "#  4\\ 3\\\n\\3 . .\n\\4 . .\n")
    b = _one("kakuro", "- 4,  3, / ,3 0 0 / ,4 0 0")
    ra = solve_one(k, a, SolveOptions(limit=0))
    rb = solve_one(k, b, SolveOptions(limit=0))
    assert ra.count == rb.count == 1
    assert np.array_equal(ra.solutions[0], rb.solutions[0])
    assert ra.solutions[0].tolist() == [[0, 0, 0], [0, 1, 2], [0, 3, 1]]
    again = _one("kakuro", k.format_line(a, ra.solutions[0]))
    assert k.is_complete(again) and k.validate(a, k.as_solution(again)) == []


def test_str8ts_counts_every_solution():
    # one white row of four cells between black ones in a 4x4 grid, the rest black:
    # the row is any straight of 4 in 1..4 -> 4! orders
    p = _one("str8ts", "####/..../####/####")
    r = solve_one(get_puzzle_type("str8ts"), p, SolveOptions(limit=0))
    assert r.exact and r.count == 24


def test_str8ts_black_digits_count_in_lines():
    # a black 1 in the row: the three white cells hold a straight without 1 -> 2,3,4
    p = _one("str8ts", "a.../####/####/####")
    r = solve_one(get_puzzle_type("str8ts"), p, SolveOptions(limit=0, keep=10))
    assert r.count == 6
    assert all(sorted(s[0, 1:]) == [2, 3, 4] and s[0, 0] == 1 for s in r.solutions)


def test_str8ts_pretty_output_with_no_colour_tells_black_cells_apart():
    """Written to a pipe (no colour), black cells read as the text form writes them, and
    every solved row is one the validator accepts."""
    code, out, err = run_cli("solve", "str8ts", "-", "--output", "pretty",
                             stdin="a.../####/####/####\n")
    assert code == 0, err
    rows = [line.split() for line in out.splitlines()[1:]]  # under the status line
    assert rows[0][0] == "#1" and sorted(rows[0][1:]) == ["2", "3", "4"], out
    assert rows[1:] == [["#"] * 4] * 3, out
    ptype = get_puzzle_type("str8ts")
    p = _one("str8ts", "a.../####/####/####")
    solution = np.zeros((4, 4), dtype=np.int64)
    solution[0] = [1] + [int(v) for v in rows[0][1:]]
    assert ptype.validate(p, solution) == []


def test_validators_catch_wrong_grids():
    for kind, (folder, name) in SETS.items():
        path = shared_file(folder, name)
        line = path.read_text().splitlines()[0]
        ptype = get_puzzle_type(kind)
        p = _one(kind, line)
        good = np.array(json.loads(line)["solution"])
        assert ptype.validate(p, good) == []
        bad = good.copy()
        r, c = map(int, np.argwhere(bad > 0)[-1])
        bad[r, c] = bad[r, c] % 9 + 1 if kind == "kakuro" else 0
        assert ptype.validate(p, bad)
    s = get_puzzle_type("str8ts")
    p = _one("str8ts", "####/..../####/####")
    assert s.validate(p, np.array([[0] * 4, [1, 3, 2, 4], [0] * 4, [0] * 4])) == []
    assert s.validate(p, np.array([[0] * 4, [1, 1, 2, 4], [0] * 4, [0] * 4]))


def test_a_kakuro_digit_where_the_puzzle_has_a_black_cell_is_invalid(tmp_path):
    """The grid checked against a puzzle keeps the puzzle's layout: a digit in one of its
    black (clue) cells is a problem, from the command line and from Python."""
    import csolve

    puzzle = tmp_path / "p.txt"
    puzzle.write_text("- 3\\ 4\\\n\\3 . .\n\\4 . .\n")
    (r,) = csolve.solve("kakuro", puzzle)
    assert csolve.validate("kakuro", r.solution, against=puzzle) == []
    bad = r.solution.copy()
    bad[0, 0] = 5
    assert csolve.validate("kakuro", bad, against=puzzle) == [
        "black cell r1c1 must hold nothing, not 5"]
    # written as a grid, such a digit is a white cell that no run takes in: not a Kakuro
    grid = tmp_path / "s.txt"
    grid.write_text("5 3, 4, / ,3 2 1 / ,4 1 3\n")
    code, out, err = run_cli("validate", "kakuro", str(grid), "--against", str(puzzle))
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {grid}:1:1: a white cell in no run: no sum to its left "
                   "or above bounds it\n")


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The program in this process (helpers.run_cli), as a completed process."""
    code, out, err = run_cli(*args, stdin=stdin)
    return subprocess.CompletedProcess(["csolve", *args], code, out, err)


@pytest.mark.parametrize("kind,text,where", [
    ("kakuro", "- 3\\ 3\\\n\\3 0 0\n\\3 0 q\n", "<stdin>:3:6:"),
    ("kakuro", "- 3\\ 3\\\n\\3 0 0\n\\3 0\n", "<stdin>:3:"),
    ("kakuro", "- 3\\ 50\\\n\\3 0 0\n\\3 0 0\n", "<stdin>:1:6:"),
    ("kakuro", '{"grid": 5}\n', "<stdin>:1:"),
    ("kakuro", "- - 3\\\n- - .\n. - .\n", "<stdin>:3:1: a white cell in no run"),
    ("str8ts", "####/..z./####/####\n", "<stdin>:1:8:"),
    ("str8ts", "..../..../....\n", "<stdin>:1:"),
    ("str8ts", "{not json\n", "<stdin>:1:"),
    ("str8ts", "." * 80 + "\n", "<stdin>:1: 80 cells on one line; a one-line puzzle has n·n"),
    # a puzzle's own rule broken in a row of a grid written one row per line: that line
    ("kakuro", "; clues\n- 3\\ 3\\\n\\3 . .\n\\2 . .\n", "<stdin>:4: clue 2 at r3c1"),
    ("kakuro", "- 3\\ 4\\\n\\3 1 1\n\\4 . .\n", "<stdin>:2: conflicting givens"),
    # a repeat in a column's run: the later cell's line, the digit and both cells
    ("kakuro", "- 3\\ 4\\\n\\3 . 1\n\\4 . 1\n", "<stdin>:3: conflicting givens: value 1 "
     "twice in run r2c3-r3c3 (r2c3 and r3c3)"),
    ("str8ts", "# . . .\n. . . .\n1 . 1 .\n. . . .\n", "<stdin>:3: conflicting givens: value 1 "
     "twice in row 3 (r3c1 and r3c3)"),
    ("str8ts", "# 2 . .\n. . . .\n. 2 . .\n. . . .\n", "<stdin>:3: conflicting givens: value 2 "
     "twice in column 2 (r1c2 and r3c2)"),
])
def test_malformed_input_is_one_line_and_exit_2(kind, text, where):
    r = _cli("solve", kind, "-", stdin=text)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and f" {where}" in f" {lines[0]}", r.stderr


def test_validate_names_the_line_solve_names_for_conflicting_givens(tmp_path):
    """A partial grid whose givens clash is reported by validate at the line where solve
    reports it (the row's line of a grid written one row a line), not at the grid's first."""
    grid = tmp_path / "clash.txt"
    grid.write_text("# . . # . .\n. . 1 6 . 4\n. . # . . .\n. 3 4 # . .\n. 6 . . . .\n"
                    ". 1 # 1 . #\n")
    solved = _cli("solve", "str8ts", str(grid))
    checked = _cli("validate", "str8ts", str(grid))
    assert (solved.returncode, checked.returncode) == (2, 1)
    where = f"{grid}:6: "
    assert solved.stderr == f"csolve: error: {where}conflicting givens: value 1 twice in row 6 " \
                            "(r6c2 and r6c4)\n"
    assert checked.stdout == f"{where}invalid (partial): conflicting givens: value 1 twice " \
                             "in row 6 (r6c2 and r6c4)\n"


@pytest.mark.parametrize("kind", ["sudoku", "str8ts"])
def test_validate_names_the_rows_line_in_a_complete_grid_too(tmp_path, kind):
    """A complete grid written one row a line, a value twice in a row: the row's line, as
    for a partial grid (it was the grid's first line)."""
    puzzle = PUZZLES / ("sudoku/9x9-hard.txt" if kind == "sudoku" else "str8ts/small.txt")
    solved = _cli("solve", kind, str(puzzle), "--output", "grid")
    lines = solved.stdout.split("\n\n")[0].splitlines()  # the first grid, its header first
    k = len(lines) - 2  # its second-last row: two of its white cells made equal
    cells = lines[k].split()
    a, b = [i for i, c in enumerate(cells) if c.isdigit()][:2]
    cells[b] = cells[a]
    lines[k] = " ".join(cells)
    path = tmp_path / "complete.txt"
    path.write_text("\n".join(lines) + "\n")
    checked = _cli("validate", kind, str(path))
    assert checked.returncode == 1
    assert checked.stdout.startswith(f"{path}:{k + 1}: invalid (complete): value "), checked.stdout


def test_validate_names_the_value_and_cells_of_a_repeat_in_a_run():
    """A finished Kakuro with a digit twice in a run: the digit and both cells, as the
    givens' check says it (it was "a digit repeats in the right run of r2c1")."""
    r = csolve.solve("kakuro", "- 3\\ 4\\\n\\3 . .\n\\4 . .\n")[0]
    assert csolve.validate("kakuro", r.solution, against=r.puzzle) == []
    broken = r.solution.copy()
    broken[1, 2] = broken[1, 1]  # the first row of white cells: its two digits made equal
    problems = csolve.validate("kakuro", broken, against=r.puzzle)
    d = int(broken[1, 1])
    assert problems[0] == f"value {d} twice in run r2c2-r2c3 (r2c2 and r2c3)"
    assert f"run r2c2-r2c3 adds up to {2 * d}, not 3" in problems
