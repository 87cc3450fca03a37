"""Sudoku input formats: every format reads back what is written in it (hypothesis), and
garbage gives a located PuzzleInputError, never another exception."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csolve.errors import PuzzleInputError
from csolve.puzzle import get_puzzle_type

SUDOKU = get_puzzle_type("sudoku")
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def grids(draw, sizes=(4, 9, 16, 25)):
    """(n, grid): random values 0..n (0 blank); the readers do not check the rules."""
    n = draw(st.sampled_from(sizes))
    blank = draw(st.floats(0, 1))
    cells = draw(st.lists(st.integers(1, n), min_size=n * n, max_size=n * n))
    holes = draw(st.lists(st.floats(0, 1), min_size=n * n, max_size=n * n))
    grid = np.array([0 if h < blank else v for v, h in zip(cells, holes, strict=True)],
                    dtype=np.int64)
    if n == 25 and not ((grid >= 1) & (grid <= 9)).any():
        grid[draw(st.integers(0, n * n - 1))] = draw(st.integers(1, 9))  # see docs/formats.md
    return n, grid


def read(text: str, fmt: str | None = None) -> list[np.ndarray]:
    return [p.data for p in SUDOKU.parse(text, "f.txt", fmt)]


def puzzle(n: int, grid: np.ndarray):
    from csolve_sudoku.formats import default_alphabet

    from csolve.puzzle import Puzzle

    return Puzzle("sudoku", "x", 1, 0, grid, "line", {"n": n, "alphabet": default_alphabet(n)})


def rows_of(grid: np.ndarray, n: int) -> list[str]:
    sym = "." + "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return ["".join(sym[v] for v in grid[r * n:(r + 1) * n]) for r in range(n)]


@FUZZ
@given(grids(), st.sampled_from(["", " ;  #rating 7.2", "\t7.2\tcomment", "  12.5",
                                  # a 9x9 with this makes a line of 100 = 10² symbols
                                  "\t7.2\tfrom a forum thread"]))
def test_line_format_with_trailing_fields(case, tail):
    n, grid = case
    line = SUDOKU.format_line(puzzle(n, grid), None)
    (got,) = SUDOKU.parse(line + tail + "\n", "f.txt")
    assert got.fmt == "line" and (got.data == grid).all()
    assert got.meta.get("comment", "") == tail.strip()


@FUZZ
@given(st.lists(grids(sizes=(4, 9, 16, 25, 36)), min_size=1, max_size=3), st.booleans())
def test_grid_writer_reads_back(cases, blank_lines):
    text = ("\n\n" if blank_lines else "\n").join(
        SUDOKU.format_grid(puzzle(n, g), None) for n, g in cases)
    got = read(text + "\n")
    assert len(got) == len(cases)
    for (_, g), back in zip(cases, got, strict=True):
        assert (back == g).all()


@FUZZ
@given(grids(sizes=(9,)), st.sampled_from([".", "0"]))
def test_simple_sudoku_frames(case, blank):
    n, grid = case
    rows = [r.replace(".", blank) for r in rows_of(grid, n)]
    body = []
    for i, r in enumerate(rows):
        if i and i % 3 == 0:
            body.append("|---+---+---|")
        body.append(f"|{r[:3]}|{r[3:6]}|{r[6:]}|")
    text = "*-----------*\n" + "\n".join(body) + "\n*-----------*\n"
    (back,) = read(text)
    assert (back == grid).all()


@FUZZ
@given(grids(sizes=(9,)), st.booleans())
def test_sdk_files(case, sadman):
    n, grid = case
    rows = "\n".join(rows_of(grid, n))
    if sadman:
        text = f"[Puzzle]\n{rows}\n[State]\n{rows}\n"
    else:
        text = f"#ARuud\n#DA puzzle\n#LEasy\n{rows}\n"
    (p,) = SUDOKU.parse(text, "f.sdk")
    assert p.fmt == "sdk" and (p.data == grid).all()
    if not sadman:
        assert p.meta["author"] == "Ruud" and p.meta["level"] == "Easy"


@FUZZ
@given(st.lists(grids(sizes=(4, 9, 16)), min_size=1, max_size=3))
def test_pretty_output_reads_back(cases):
    text = "\n".join(f"f.txt:{i} solved in 1 ms\n" + SUDOKU.render(puzzle(n, g), None).plain
                     for i, (n, g) in enumerate(cases))
    got = read(text + "\n")
    assert [len(g) for g in got] == [len(g) for _, g in cases]
    for (_, g), back in zip(cases, got, strict=True):
        assert (back == g).all()


@FUZZ
@given(grids(sizes=(4, 9, 16, 25)), st.booleans())
def test_numbers_format(case, one_line):
    n, grid = case
    if one_line:
        text = " ".join(map(str, grid))
    else:
        text = "\n".join(" ".join(map(str, grid[r * n:(r + 1) * n])) for r in range(n))
    (back,) = read(text + "\n")
    assert (back == grid).all()


GARBAGE = st.text(alphabet=st.sampled_from(list("0123456789.abcAG#|+-*=[]; \t\n┃━Puzzle")),
                  max_size=300)


@FUZZ
@given(GARBAGE, st.sampled_from([None, "line", "numbers", "grid", "sdk"]))
def test_garbage_is_a_located_input_error(text, fmt):
    try:
        puzzles = SUDOKU.parse(text, "g.txt", fmt)
    except PuzzleInputError as e:
        assert str(e).startswith("g.txt")
        return
    for p in puzzles:  # whatever was read is a well-formed grid
        n = p.meta["n"]
        assert p.data.shape == (n * n,) and ((p.data >= 0) & (p.data <= n)).all()


@pytest.mark.parametrize(("text", "where"), [
    ("*-----------*\n|2..|1.5|..3|\n|.54|...|71.|\n|.1.|2x3|.8.|\n" + "|.........|\n" * 6,
     "f.txt:4:7"),
    ("2..1.5..3\n.54...71.\n.1.2.3.8.\n6.28.73.4\n.........\n1.53.98.6\n.2.7.1.6.\n.81...24\n"
     "7..4.2..1\n", "f.txt:8:9"),
    ("#ARuud\n" + "123456789\n" * 8 + "1234567890\n", "f.txt:10:10"),
])
def test_errors_name_line_and_column(text, where):
    with pytest.raises(PuzzleInputError) as e:
        SUDOKU.parse(text, "f.txt")
    assert str(e.value).startswith(where + ":")


def test_errors_count_in_the_singular_and_the_plural():
    with pytest.raises(PuzzleInputError, match="f.txt:1:20: a line of 10 symbols: "):
        SUDOKU.parse("5 3 . . 7 . . . . 1\n", "f.txt")  # a row alone: a line cut short?
    with pytest.raises(PuzzleInputError, match="the grid ends after 2 rows; a 9x9 puzzle"):
        SUDOKU.parse("53..7....\n6..195...\n", "f.txt")


@pytest.mark.parametrize("kind", ["sudoku", "kakuro", "str8ts"])
def test_grid_writer_of_every_type_reads_back(kind):
    """``format_grid`` of each puzzle and of its (validated) solution reads back as the same
    grid, several puzzles one after another."""
    from csolve.solver import SolveOptions, solve_one

    from .helpers import PUZZLES

    ptype = get_puzzle_type(kind)
    path = PUZZLES / kind / ("9x9-hard.txt" if kind == "sudoku" else "small.txt")
    puzzles = ptype.parse(path.read_text(), str(path))
    written, solved = [], []
    for p in puzzles:
        (solution,) = solve_one(ptype, p, SolveOptions(limit=1)).solutions
        assert ptype.validate(p, solution) == []
        written.append(ptype.format_grid(p, None))
        solved.append(ptype.format_grid(p, solution))
    for text, want in ((written, [ptype.format_line(p, None) for p in puzzles]),
                       (solved, None)):
        back = ptype.parse("\n\n".join(text) + "\n", "back.txt")
        assert len(back) == len(puzzles)
        if want is not None:
            assert [ptype.format_line(b, None) for b in back] == want
        else:
            for p, b in zip(puzzles, back, strict=True):
                assert ptype.is_complete(b)
                assert ptype.validate(p, ptype.as_solution(b)) == []


def _hex_puzzle(tmp_path):
    """The first bundled 16x16 written in hexadecimal (``0-f``, ``.`` blank): its line and
    a file holding it."""
    from .helpers import PUZZLES

    digits = next(line for line in (PUZZLES / "sudoku" / "16x16.txt").read_text().splitlines()
                  if line and not line.startswith("#"))
    hexa = "".join("." if ch in ".0" else "0123456789abcdef"["123456789ABCDEFG".index(ch)]
                   for ch in digits)
    puzzle = tmp_path / "hex.txt"
    puzzle.write_text(hexa + "\n")
    return hexa, puzzle


def test_a_hex_puzzles_solution_line_reads_back(tmp_path):
    """A 16x16 in hexadecimal (``0-f``, ``.`` blank) is answered in its own alphabet: the
    solution line has no ``.`` (``0`` is a value there), and reads back as hex all the
    same, so ``validate --against`` passes it."""
    from .helpers import run_cli

    hexa, puzzle = _hex_puzzle(tmp_path)
    code, out, err = run_cli("solve", "sudoku", str(puzzle), "--output", "line")
    assert code == 0, err
    assert "." not in out and "0" in out
    answer = tmp_path / "answer.txt"
    answer.write_text(out)
    (back,) = SUDOKU.parse(out, str(answer))
    (given_,) = SUDOKU.parse(hexa + "\n", str(puzzle))
    assert SUDOKU.validate(given_, back.data) == []
    code, out, err = run_cli("validate", "sudoku", str(answer), "--against", str(puzzle))
    assert code == 0 and "valid (complete)" in out, err


def test_a_hex_puzzles_grid_and_picture_are_in_its_own_symbols(tmp_path):
    """The grid, the terminal picture and the SVG of a hex 16x16's answer use 0-F, as the
    line does: the grid reads back as the same solution."""
    from .helpers import run_cli

    _, puzzle = _hex_puzzle(tmp_path)
    code, line, err = run_cli("solve", "sudoku", str(puzzle), "--output", "line")
    assert code == 0, err
    code, grid, err = run_cli("solve", "sudoku", str(puzzle), "--output", "grid")
    assert code == 0, err
    cells = "".join(ch for row in grid.splitlines()[1:] for ch in row if ch not in " |+-")
    assert cells == line.strip() and "G" not in cells
    answer = tmp_path / "answer.txt"
    answer.write_text(grid)
    code, out, err = run_cli("validate", "sudoku", str(answer), "--against", str(puzzle))
    assert code == 0 and "valid (complete)" in out, err
    code, pretty, err = run_cli("solve", "sudoku", str(puzzle), "--output", "pretty")
    assert code == 0 and " 0 " in pretty and " G " not in pretty, err
    code, svg, err = run_cli("solve", "sudoku", str(puzzle), "--output", "svg")
    assert code == 0 and ">0<" in svg and ">G<" not in svg, err


def test_str8ts_row_past_a_complete_grid_says_the_grid_above_had_its_rows():
    str8ts = get_puzzle_type("str8ts")
    with pytest.raises(PuzzleInputError, match=r"^f.txt:5: a grid needs 4..9 rows, this one "
                       r"has 1 \(the grid above already had its 4 rows, so this row began a "
                       r"new grid\)$"):
        str8ts.parse("....\n" * 5, "f.txt")
    with pytest.raises(PuzzleInputError) as e:  # a grid of another size: no such hint
        str8ts.parse("....\n" * 4 + ".....\n" * 4, "f.txt")
    assert "grid above" not in str(e.value)
    assert len(str8ts.parse("....\n" * 8, "f.txt")) == 2  # two grids, no blank line between
