"""Killer Sudoku: the janko.at set's known solutions, the bundled puzzles, the text and JSON
forms, one-line errors, the sum rule kept whatever rules are chosen, and generation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from csolve.errors import PuzzleInputError
from csolve.generate import GenerateOptions, generate_puzzles
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, shared_file
from .test_cli import run, write

SMALL = PUZZLES / "killer" / "small.txt"
#: a janko.at record: the problem's sums then its cage labels, and the solution
JANKO_4 = ('{"id": "1_4x4", "problem": "4 4\\n9 - 8 3\\n- 7 - -\\n4 - - 9\\n- - - -\\n'
           '2 2 4 1\\n2 3 4 1\\n6 3 4 5\\n6 3 5 5", "solution": "4 4\\n2 3 4 1\\n4 1 3 2\\n'
           '3 2 1 4\\n1 4 2 3"}\n')
BLOCKS = PUZZLES / "killer" / "blocks.txt"
#: a 4x4 with several solutions: each cage is a pair {1,2} or {3,4}
OPEN_4 = "AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3"


def _first_puzzle_line(path) -> str:
    return next(ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#"))


def brute_force_killer(killer, p) -> int:
    """Solutions of a 4x4 Killer: every 4x4 Sudoku grid (rows of distinct digits, pruned on
    columns and boxes) checked by the validator; no csolve search."""
    from itertools import permutations

    rows = list(permutations(range(1, 5)))

    def fits(grid: list[tuple[int, ...]]) -> bool:
        r = len(grid) - 1
        for c in range(4):
            if any(grid[k][c] == grid[r][c] for k in range(r)):
                return False
        if r % 2:
            for b in (0, 2):
                if len({*grid[r - 1][b:b + 2], *grid[r][b:b + 2]}) != 4:
                    return False
        return True

    def grids(grid):
        if len(grid) == 4:
            yield grid
            return
        for row in rows:
            if fits([*grid, row]):
                yield from grids([*grid, row])

    return sum(killer.validate(p, np.array([v for row in g for v in row])) == []
               for g in grids([]))


@pytest.fixture(scope="module")
def killer():
    from csolve.puzzle import get_puzzle_type

    return get_puzzle_type("killer")


def test_janko_set_gives_the_known_solutions(killer, capsys):
    path = shared_file("killer", "janko-killer.jsonl")
    code, out, err = run(capsys, "solve", "killer", str(path), "--output", "json")
    assert code == 0, err
    puzzles = killer.parse(path.read_text(), str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(puzzles) == 405
    ambiguous = 0
    for p, row in zip(puzzles, rows, strict=True):
        sol = np.array(row["solution"]).reshape(-1)
        assert killer.validate(p, sol) == []
        if not (sol == p.data.solution).all():
            # a few janko.at puzzles have more than one solution under these rules: the
            # known one must be among them, and the one found must be valid (checked above)
            r = solve_one(killer, p, SolveOptions(limit=0, keep=16))
            assert r.exact and 1 < r.count <= 16
            assert any((s == p.data.solution).all() for s in r.solutions)
            ambiguous += 1
    assert ambiguous <= 10


def test_bundled_puzzles_have_one_solution_that_validates(killer):
    for path in (SMALL, BLOCKS):
        puzzles = killer.parse(path.read_text(), str(path))
        results = solve_puzzles(killer, puzzles, SolveOptions(limit=2))
        for p, r in zip(puzzles, results, strict=True):
            assert r.status is Status.SOLVED and r.count == 1, p.where
            assert killer.validate(p, r.solutions[0]) == []
    sizes = {p.data.n for p in killer.parse(SMALL.read_text(), "s")}
    assert sizes == {4, 6, 8, 9}


def test_the_block_form_reads_like_the_line_form(killer):
    a, b = killer.parse(BLOCKS.read_text(), "blocks.txt")
    assert a.line == 4 and b.line == 20
    assert a.data.structure() == b.data.structure()
    assert int((a.data.givens > 0).sum()) == 3 and not b.data.givens.any()
    (line,) = killer.parse(killer.format_line(a, None) + "\n", "<round>")
    assert line.data.structure() == a.data.structure()
    assert (line.data.givens == a.data.givens).all()


@pytest.mark.parametrize("which", ["text", "json"])
def test_format_line_reads_back(killer, which):
    text = SMALL.read_text() if which == "text" else \
        shared_file("killer", "janko-killer.jsonl").read_text()
    puzzles = killer.parse(text, "<in>")[:40]
    for p, r in zip(puzzles, solve_puzzles(killer, puzzles), strict=True):
        line = killer.format_line(p, None)
        (q,) = killer.parse(line + "\n", "<round>")
        assert q.fmt == which and killer.format_line(q, None) == line
        assert q.data.structure() == p.data.structure()
        (s,) = killer.parse(killer.format_line(p, r.solutions[0]) + "\n", "<sol>")
        assert killer.is_complete(s)
        assert killer.validate(p, killer.as_solution(s)) == []


@pytest.mark.parametrize("source", ["small", "blocks", "janko", "janko-set"])
def test_the_grid_output_reads_back(killer, source):
    """``--output grid`` writes the block form: the same cages, sums, box and givens come
    back, and a solution comes back as givens that validate (JSON input too, whose cages
    are numbered rather than lettered)."""
    text = shared_file("killer", "janko-killer.jsonl").read_text() if source == "janko-set" \
        else {"small": SMALL.read_text(), "blocks": BLOCKS.read_text(), "janko": JANKO_4}[source]
    puzzles = killer.parse(text, "<in>")[:20]
    for p, r in zip(puzzles, solve_puzzles(killer, puzzles), strict=True):
        block = killer.format_grid(p, None)
        (q,) = killer.parse(block + "\n", "<round>")
        assert q.data.structure() == p.data.structure()
        assert (q.data.givens == p.data.givens).all()
        (s,) = killer.parse(killer.format_grid(p, r.solutions[0]) + "\n", "<sol>")
        assert killer.is_complete(s)
        assert killer.validate(p, killer.as_solution(s)) == []


def test_hint_and_explain_give_one_reason_for_no_solution(tmp_path, capsys):
    """hint takes one step; the reason a puzzle has no solution is the one the steps run
    into, not "the search finds none", with how far on it lies."""
    f = write(tmp_path, "AABB/CCDD/EEFF/GGHH A=3 B=3 C=7 D=7 E=7 F=3 G=3 H=7\n")
    reasons = []
    for command in ("hint", "explain"):
        code, out, _ = run(capsys, command, "killer", f)
        reasons.append(out.strip().splitlines()[-1])
    assert reasons == ["no solution: row 1 has no place for 3 (after 2 steps; explain shows "
                       "them)", "no solution: row 1 has no place for 3"]


def test_more_cages_than_labels_has_no_text_form(tmp_path, capsys):
    """81 one-cell cages (JSON numbers its cages): the text forms have one character per
    cage, 62 of them; a one-line error naming the puzzle, not a crash."""
    sums = "\n".join(" ".join(str((r * 3 + r // 3 + c) % 9 + 1) for c in range(9))
                     for r in range(9))
    cells = "\n".join(" ".join(str(r * 9 + c + 1) for c in range(9)) for r in range(9))
    f = write(tmp_path, json.dumps({"problem": f"9 9\n{sums}\n{cells}"}) + "\n", "k.jsonl")
    code, out, err = run(capsys, "solve", "killer", f, "--output", "grid")
    assert code == 2 and len(err.splitlines()) == 1
    assert "k.jsonl:1: a Killer puzzle of 81 cages has no text form" in err
    code, out, _ = run(capsys, "solve", "killer", f, "--output", "json")
    assert code == 0 and json.loads(out)["solution"][0] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_grid_output_then_validate_on_the_command_line(tmp_path, capsys, killer):
    code, out, _ = run(capsys, "solve", "killer", str(SMALL), "--output", "grid")
    assert code == 0
    code, checked, _ = run(capsys, "validate", "killer", write(tmp_path, out, "solved.txt"))
    assert code == 0
    assert checked.count("valid (complete)") == len(killer.parse(SMALL.read_text(), "s")) == 8


def test_the_sum_rule_is_kept_whatever_rules_are_chosen(killer):
    (p,) = killer.parse(OPEN_4 + "\n", "<open>")
    want = brute_force_killer(killer, p)
    assert want > 1
    for rules in (None, ("elimination",), ("elimination", "naked-pair")):
        assert "kakuro-sum" in killer.model(p, rules).rules
        r = solve_one(killer, p, SolveOptions(limit=0, rules=rules, keep=want))
        assert (r.count, r.exact) == (want, True)
        for s in r.solutions:
            assert killer.validate(p, s) == []


def test_a_wrong_solution_is_refused(killer):
    (p,) = killer.parse(_first_puzzle_line(SMALL) + "\n", "<s>")
    r = solve_one(killer, p, SolveOptions(limit=1))
    bad = r.solutions[0].copy()
    bad[[0, 1]] = bad[[1, 0]]
    problems = killer.validate(p, bad)
    assert problems and any("cage" in x or "column" in x for x in problems)


@pytest.mark.parametrize("text,where,what", [
    ("AB/CD A=1 B=2 C=3 D=4\n", "f.txt:1", "Killer grids are 4x4"),
    ("AABB/CCDD/EEFF/GG!H A=3\n", "f.txt:1:3", "one letter or digit"),
    ("AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7\n", "f.txt:1", "cage 'H' has no sum"),
    ("AABB/CCDD/EEFF/GGHH A=3 B=x\n", "f.txt:1:25", "not a number"),
    ("AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3 givens=12\n", "f.txt:1",
     "givens hold 2 symbols"),
    ("{\"problem\": \"4 4\\n1 2\"}\n", "f.txt:1", "'problem'"),
    ("{bad json\n", "f.txt:1:2", "bad JSON"),
    (OPEN_4 + " box=2x2 box=2x2\n", "f.txt:1:61", "box= given twice"),
    (OPEN_4 + " givens=1... givens=....\n", "f.txt:1:65", "givens= given twice"),
    (OPEN_4 + " M=4\n", "f.txt:1:53", "a sum is given for cage 'M', which has no cells"),
    (OPEN_4 + " givens=٣" + "." * 15 + "\n", "f.txt:1:53", "given '٣' is not a digit 1..4"),
    ("AABB\nCCDD\nEEFF\nGGHH\nA=3 B=7 C=7 D=3\nE=3 F=7 G=7 H=3 A=4\n", "f.txt:6:17",
     "cage 'A' has two sums"),
    # a block's givens: each row's mistake at that row
    (OPEN_4.replace(" ", "\n", 1).replace("/", "\n") + "\n....\n....\n....\n1 2 5 .\n",
     "f.txt:9:5", "given '5' is not a digit 1..4"),
    (OPEN_4.replace(" ", "\n", 1).replace("/", "\n") + "\n....\n...\n....\n....\n", "f.txt:7",
     "a row of givens holds 3 symbols, expected 4"),
    ('{"problem": "4 4", "x": ' + "[" * 40 + "]" * 40 + "}\n", "f.txt:1",
     "JSON nested 41 levels deep; at most 32 are read"),
    ('{"problem": "٤ ٤"}\n', "f.txt:1", "'problem' must start with a line 'rows cols' (digits"),
    ('{"problem": "4 5"}\n', "f.txt:1", "'problem' is 4x5; a Killer grid is square"),
    ('{"problem": "4 4", "x": ' + "9" * 5000 + "}\n", "f.txt:1",
     "'problem' must hold a 'rows cols' line"),
    (JANKO_4.replace('"solution": "4 4', '"solution": "6 6'), "f.txt:1",
     "'solution' is for another size than the 4x4 'problem'"),
    (JANKO_4.replace("2 1 4\\n1 4 2 3", "2 1 4\\n1 4 2 ٣"), "f.txt:1",
     "'solution': value '٣' is not a digit 1..4"),
    ("AABB\nCCDD\nEEFF\n", "f.txt:3", "no LABEL=SUM line"),
    ("; a comment as Kakuro writes one\n" + OPEN_4 + "\n", "f.txt:1:1",
     "';' starts no comment in a Killer file (comments start with '#')"),
])
def test_bad_input_is_one_line_with_exit_2(tmp_path, capsys, text, where, what):
    path = write(tmp_path, text, "f.txt")
    code, out, err = run(capsys, "solve", "killer", path)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{tmp_path / where}" in err and what in err


@pytest.mark.parametrize("extra,what", [
    ("givens=11..............", "conflicting givens: value 1 twice in row 1"),
    ("givens=3...............", "conflicting givens: cage A at r1c1 (sum 3) cannot hold 3\n"),
])
def test_conflicting_givens_exit_2(tmp_path, capsys, extra, what):
    path = write(tmp_path, OPEN_4 + " " + extra + "\n", "g.txt")
    code, out, err = run(capsys, "solve", "killer", path)
    assert code == 2 and f"g.txt:1: {what}" in err


def test_a_conflicting_given_in_a_block_is_reported_at_its_row(tmp_path, capsys):
    """A block's givens rows each have a line: the repeat is reported at the later one's."""
    block = "AABB\nCCDD\nEEFF\nGGHH\nA=3 B=7 C=4 D=6 E=5 F=5 G=6 H=4\n1...\n....\n..2.\n1...\n"
    path = write(tmp_path, "# one puzzle\n" + block, "b.txt")
    code, out, err = run(capsys, "solve", "killer", path)
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {path}:10: conflicting givens: value 1 twice in column 1 "
                   "(r1c1 and r4c1)\n")
    # a cage's rule, not a row's (cage J holds r4c3, r5c3 and r5c4): the later cell's row
    cages = "".join((PUZZLES / "killer" / "blocks.txt").read_text().splitlines(True)[3:11])
    path = write(tmp_path, cages + "......\n......\n......\n..5...\n...5..\n......\n",
                 "j.txt")
    code, out, err = run(capsys, "solve", "killer", path)
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {path}:13: conflicting givens: value 5 twice in cage J "
                   "at r4c3 (r4c3 and r5c4)\n")


def test_impossible_cage_sum_is_refused(killer):
    (p,) = killer.parse("AABB/CCDD/EEFF/GGHH A=9 B=7 C=7 D=3 E=3 F=7 G=7 H=3\n", "h.txt")
    with pytest.raises(PuzzleInputError,
                       match="h.txt:1: cage A at r1c1: its sum 9 cannot be made from 2 distinct"):
        killer.check(p)


def test_render_shows_the_cage_sums(killer):
    from rich.console import Console

    (p,) = killer.parse(_first_puzzle_line(SMALL) + "\n", "<s>")
    console = Console(width=100, record=True, color_system=None)
    console.print(killer.render(p, None))
    text = console.export_text()
    for total in set(p.data.sums):
        assert str(total) in text
    assert len(text.splitlines()) == 3 * 4 + 1


def test_render_joins_each_wall_where_it_meets_another(killer):
    """Every junction is drawn with exactly the arms its walls have: the corners as corners,
    a cage wall ending at a box wall as a T, no line that leads nowhere."""
    from csolve_killer.render import HEAVY, LIGHT, NONE, junctions
    from rich.console import Console

    weight = {" ": NONE, "─": LIGHT, "│": LIGHT, "━": HEAVY, "┃": HEAVY}
    arms_of = {ch: arms for arms, ch in junctions().items()}
    assert len(arms_of) == 81  # every combination of four arms, none twice
    for line in SMALL.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        (p,) = killer.parse(line + "\n", "<s>")
        console = Console(width=200, record=True, color_system=None)
        console.print(killer.render(p, None))
        rows = console.export_text().splitlines()
        width = max(len(r) for r in rows)
        rows = [r.ljust(width) for r in rows] + [" " * width]  # a blank row below, and
        rows = [r + " " for r in rows]  # a blank column right: rows[-1] is above the top

        for y in range(0, len(rows) - 1, 3):  # the rules
            for x in range(0, width, 5):  # the walls' columns
                up, right, down, left = arms_of[rows[y][x]]
                assert up == weight.get(rows[y - 1][x], NONE)
                assert down == weight.get(rows[y + 1][x], NONE)
                assert left == weight.get(rows[y][x - 1], NONE)
                assert right == weight.get(rows[y][x + 1], NONE)
        assert rows[0][0] == "┏" and rows[-2][-2] == "┛"


def test_validate_command_checks_the_solutions_a_json_file_carries(capsys):
    path = shared_file("killer", "janko-killer.jsonl")
    code, out, err = run(capsys, "validate", "killer", str(path))
    assert code == 0 and out.count("valid") == 405


def test_box_option_reshapes_killer_boxes(tmp_path, capsys):
    lines = SMALL.read_text().splitlines()
    six = next(ln for ln in lines if "box=3x2" in ln)
    path = write(tmp_path, six.replace(" box=3x2", "") + "\n", "six.txt")
    code, out, err = run(capsys, "solve", "killer", path, "--box", "3x2", "--count")
    assert code == 0 and out.strip() == "1"
    # a puzzle that names a box shape other than its size's default keeps it: --box saying
    # otherwise is an error (a box= of the default shape reads as no box= at all)
    own = write(tmp_path, six + "\n", "own.txt")
    code, out, err = run(capsys, "solve", "killer", own, "--box", "2x3")
    assert code == 2 and err == (f"csolve: error: {own}:1: the puzzle says box=3x2, but "
                                 "--box asks for 2x3\n")
    code, out, err = run(capsys, "solve", "killer", own, "--box", "3x2", "--count")
    assert code == 0 and out.strip() == "1"


@pytest.mark.parametrize("size,box", [(4, None), (6, None), (6, "3x2"), (9, None)])
def test_generated_puzzles_have_one_solution(killer, size, box):
    for g in generate_puzzles(killer, GenerateOptions(size=size, box=box), 2, seed=size):
        p = g.puzzle
        assert killer.validate(p, g.solution) == []
        (q,) = killer.parse(killer.format_line(p, None) + "\n", "<gen>")
        r = solve_one(killer, q, SolveOptions(limit=0))
        assert (r.count, r.exact) == (1, True)
        assert (r.solutions[0] == g.solution).all()


def test_cages_are_explained_and_graded_by_their_sums():
    """The sum rule's step finder (Kakuro's) works on cages: the bundled puzzles need no
    guess, and a step names its cage."""
    import csolve

    puzzles = csolve.read("killer", SMALL)
    for p in puzzles[:3]:
        rating = csolve.rate("killer", p)
        assert rating.guesses == 0 and rating.level in ("easy", "medium"), p.where
    steps = csolve.explain("killer", puzzles[0])
    assert any(s.text.startswith("cage ") and "combinations" in s.text for s in steps)


def test_a_janko_record_with_a_text_field_is_still_killer_json(tmp_path, capsys, killer):
    """Only a record of generate's own fields is read as generate's; a janko.at record that
    carries a "text" note is the type's JSON, solved and checked against its solution."""
    path = write(tmp_path, JANKO_4.replace('{"id"', '{"text": "a note", "id"'), "j.jsonl")
    code, out, err = run(capsys, "solve", "killer", path, "--output", "json")
    assert code == 0, err
    (p,) = killer.parse(JANKO_4, "<j>")
    solution = np.array(json.loads(out)["solution"]).ravel()
    assert killer.validate(p, solution) == []
    assert (solution == p.data.solution).all()


@pytest.mark.parametrize("text", [
    "ABAB/CDDB/CEFF/CGFH A=4 B=7 C=9 D=5 E=4 F=7 G=1 H=3",  # one label mistyped
    "AABB/AABB/CCDD/DDCC A=10 B=10 C=10 D=10",  # diagonal corners do not join
])
def test_a_cage_in_pieces_is_bad_input(capsys, text):
    code, out, err = run(capsys, "solve", "killer", text)
    assert code == 2 and not out and err.count("\n") == 1
    assert "is in 2 pieces (from r" in err and "a cage's cells touch side to side" in err
