"""Sudoku with rectangular boxes (6x6 with 2×3 boxes, 8x8, 10x10, 12x12) and --box."""

from __future__ import annotations

import numpy as np
import pytest
from csolve_sudoku.grid import box_shapes, default_box, units
from csolve_sudoku.plugin import sudoku_model

from csolve.backends import all_backends
from csolve.generate import GenerateOptions
from csolve.solver import SolveOptions, Status, solve_one, solve_puzzles

from .helpers import PUZZLES, brute_force_count, svg_drawn
from .test_cli import run

#: a 6x6 with 2×3 boxes and few givens: many solutions
OPEN_6 = "1.....4................2......5....."
#: the same with three more givens: 1,004 solutions with 2x3 boxes, 550 with 3x2 - enough to
#: share, few enough for the brute-force count and the cell-locking backend
FEW_6 = "1234..4................2......5....."


def one(sudoku, line):
    (p,) = sudoku.parse(line + "\n", "<test>")
    return p


def test_default_box_is_the_most_square_shape():
    assert [default_box(n) for n in (4, 6, 8, 9, 10, 12, 16, 25)] == [
        (2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5)]
    assert box_shapes(12) == [(2, 6), (3, 4), (4, 3), (6, 2)]
    with pytest.raises(ValueError):
        default_box(7)


def test_boxes_tile_the_grid():
    for n, box in ((6, (2, 3)), (6, (3, 2)), (12, (3, 4)), (9, None)):
        rows, cols, boxes = units(n, box)
        assert sorted(c for b in boxes for c in b) == list(range(n * n))
        assert len(boxes) == n and all(len(b) == n for b in boxes)
    assert units(6, (2, 3))[2][1] == (3, 4, 5, 9, 10, 11)


def test_square_models_keep_their_keys():
    """9x9/16x16 keys (and with them the 9x9 engine choice) do not change with the shapes."""
    assert sudoku_model(9, ("elimination", "hidden-single"), "sudoku9-bands").key == \
        "sudoku-9-elimination/hidden-single-sudoku9-bands"
    assert sudoku_model(16, ("elimination",)).key == "sudoku-16-elimination-"
    assert sudoku_model(6, ("elimination",)).key == "sudoku-6-2x3-elimination-"


@pytest.mark.parametrize("name", ["6x6", "8x8", "10x10", "12x12"])
def test_bundled_rectangular_puzzles_solve_and_validate(sudoku, name):
    text = (PUZZLES / "sudoku" / f"{name}.txt").read_text()
    puzzles = sudoku.parse(text, name)
    n = puzzles[0].meta["n"]
    assert puzzles[0].meta["box"] == default_box(n)
    for p, r in zip(puzzles, solve_puzzles(sudoku, puzzles, SolveOptions(limit=2)), strict=True):
        assert r.status is Status.SOLVED and r.count == 1
        sol = r.solutions[0]
        assert sudoku.validate(p, sol) == []
        # the line format reads back the same, solution included
        (back,) = sudoku.parse(sudoku.format_line(p, sol) + "\n", "<round>")
        assert (back.data == sol).all()
        assert (sudoku.parse(sudoku.format_line(p, None) + "\n", "<r>")[0].data == p.data).all()


def test_the_validator_follows_the_box_shape(sudoku):
    p = one(sudoku, (PUZZLES / "sudoku" / "6x6.txt").read_text().splitlines()[1])
    r = solve_one(sudoku, p, SolveOptions(limit=1))
    sol = r.solutions[0]
    assert sudoku.validate(p, sol) == []
    (q,) = sudoku.with_box([one(sudoku, sudoku.format_line(p, None))], "3x2")
    assert any("box" in problem for problem in sudoku.validate(q, sol))


@pytest.mark.parametrize("box", [(2, 3), (3, 2)])
def test_counts_of_an_open_6x6_are_equal_on_every_backend(sudoku, box):
    (p,) = sudoku.with_box([one(sudoku, FEW_6)], f"{box[0]}x{box[1]}")
    want = brute_force_count(p.data, 6, box=box)
    assert want > 500
    for name, backend in sorted(all_backends().items()):
        if name == "ray":
            continue  # a cluster of its own: tests/test_ray.py
        for workers in (1, 2) if backend.parallel else (1,):
            r = solve_one(sudoku, p, SolveOptions(limit=0, backend=name, workers=workers))
            assert (r.count, r.exact) == (want, True), (name, workers)


def test_cli_box_option_and_its_errors(tmp_path, capsys):
    f = tmp_path / "six.txt"
    f.write_text(OPEN_6 + "\n")
    code, out, err = run(capsys, "solve", "sudoku", str(f), "--box", "3x2", "--count")
    assert code == 0 and out.strip() == str(brute_force_count(
        givens_of(OPEN_6), 6, box=(3, 2)))
    code, out, err = run(capsys, "solve", "sudoku", str(f), "--box", "4x2")
    assert code == 2 and f"{f}:1: a 6x6 grid takes boxes of 6 cells, at least 2 a side " \
        "(2x3, 3x2), not 4x2" in err
    code, out, err = run(capsys, "solve", "sudoku", str(f), "--box", "two")
    assert code == 2 and "RxC" in err
    code, out, err = run(capsys, "solve", "kakuro", str(PUZZLES / "kakuro" / "small.txt"),
                         "--box", "2x3")
    assert code == 2 and "no box shape" in err


def givens_of(line):
    return np.array([0 if ch == "." else int(ch) for ch in line])


@pytest.mark.parametrize("size,box", [(6, None), (6, "3x2"), (8, None), (10, None)])
def test_generated_rectangular_puzzles_are_unique_and_valid(sudoku, size, box):
    from csolve.generate import generate_puzzles

    opts = GenerateOptions(size=size, box=box)
    for g in generate_puzzles(sudoku, opts, 2, seed=size):
        p = g.puzzle
        assert sudoku.validate(p, g.solution) == []
        r = solve_one(sudoku, p, SolveOptions(limit=0))
        assert (r.count, r.exact) == (1, True)
        assert (r.solutions[0] == g.solution).all()
        if box:
            assert p.meta["box"] == (3, 2)


def test_generate_cli_with_a_box(sudoku, capsys):
    code, out, err = run(capsys, "generate", "sudoku", "--size", "6", "--box", "3x2",
                         "--seed", "4")
    assert code == 0
    (p,) = sudoku.with_box(sudoku.parse(out, "<gen>"), "3x2")
    r = solve_one(sudoku, p, SolveOptions(limit=0))
    assert r.count == 1 and sudoku.validate(p, r.solutions[0]) == []
    code, out, err = run(capsys, "generate", "sudoku", "--size", "6", "--box", "3x3")
    assert code == 2 and "takes boxes of" in err


def test_rectangular_renders_rule_the_boxes(sudoku):
    from rich.console import Console

    p = one(sudoku, OPEN_6)
    console = Console(width=80, record=True, color_system=None)
    console.print(sudoku.render(p, None))
    lines = console.export_text().splitlines()
    assert len(lines) == 6 + 4  # top, bottom, and a rule after each band of 2 rows
    assert lines[1].count("┃") == 3  # two stacks of 3 columns


def _thick_lines(svg: str) -> tuple[set[float], set[float]]:
    """(x of the vertical, y of the horizontal) box lines of a one-puzzle picture."""
    import xml.etree.ElementTree as ET

    from csolve.svg import THICK

    vertical, horizontal = set(), set()
    for el in svg_drawn(ET.fromstring(svg), "line"):
        if el.get("stroke") != THICK:
            continue
        x1, y1, x2, y2 = (float(el.get(a)) for a in ("x1", "y1", "x2", "y2"))
        if x1 == x2:
            vertical.add(x1)
        elif y1 == y2:
            horizontal.add(y1)
    return vertical, horizontal


@pytest.mark.parametrize("box", [None, (3, 2)])
def test_rectangular_grids_and_pictures_follow_the_box_shape(sudoku, box):
    from csolve_sudoku.pictures import MARGIN, cell_size

    p = one(sudoku, OPEN_6)
    if box:
        (p,) = sudoku.with_box([p], "3x2")
    rows, cols = box or (2, 3)
    text = sudoku.format_grid(p, None)
    lines = text.splitlines()
    assert len(lines) == 6 + 6 // rows - 1  # a ruling between bands
    assert all(line.count("|") == 6 // cols - 1 for line in lines if "+" not in line)
    (back,) = sudoku.parse(text + "\n", "<grid>")
    assert (back.data == p.data).all()
    size = cell_size(6)
    vertical, horizontal = _thick_lines(sudoku.to_svg(p, None))
    assert vertical == {MARGIN + j * size for j in range(0, 7, cols)}
    assert horizontal == {MARGIN + j * size for j in range(0, 7, rows)}


@pytest.mark.parametrize("name", ["6x6", "8x8", "10x10", "12x12"])
def test_grid_svg_render_and_explain_pictures_of_rectangular_files(sudoku, capsys, name):
    path = str(PUZZLES / "sudoku" / f"{name}.txt")
    givens = sudoku.parse(open(path).read(), path)
    code, out, err = run(capsys, "solve", "sudoku", path, "--output", "grid")
    assert code == 0, err
    solved = sudoku.parse(out, "<grid>")
    assert len(solved) == len(givens)
    for g, s in zip(givens, solved, strict=True):
        assert sudoku.validate(g, s.data) == []
    for args in (("solve", "sudoku", path, "--output", "svg"),
                 ("render", "sudoku", path, "--solve"),
                 ("explain", "sudoku", path, "--output", "svg")):
        code, out, err = run(capsys, *args)
        assert code == 0 and out.startswith("<svg"), (args, err)


def test_validate_explain_rate_and_render_take_the_box_shape(sudoku, tmp_path, capsys):
    import json

    from csolve_sudoku.pictures import MARGIN, cell_size

    f = tmp_path / "six.txt"
    f.write_text(OPEN_6 + "\n")
    code, out, err = run(capsys, "solve", "sudoku", str(f), "--box", "3x2", "--output", "line")
    assert code == 0, err
    solved = tmp_path / "solved.txt"
    solved.write_text(out)
    (p,) = sudoku.with_box(sudoku.parse(OPEN_6 + "\n", "<t>"), "3x2")
    (grid,) = sudoku.parse(out, "<out>")
    assert sudoku.validate(p, grid.data) == []
    code, out, err = run(capsys, "validate", "sudoku", str(solved), "--against", str(f),
                         "--box", "3x2")
    assert code == 0 and "valid (complete)" in out, err
    code, out, err = run(capsys, "explain", "sudoku", str(f), "--box", "3x2", "--output", "json")
    assert code == 0, err
    explained = json.loads(out)
    assert sudoku.validate(p, np.array(explained["solution"]).ravel()) == []
    code, out, err = run(capsys, "rate", "sudoku", str(f), "--box", "3x2", "--output", "line")
    assert code == 0 and out.split()[0] in ("not-unique", "easy", "medium", "hard", "expert",
                                            "evil"), err
    code, out, err = run(capsys, "render", "sudoku", str(f), "--box", "3x2")
    assert code == 0, err
    vertical, horizontal = _thick_lines(out)
    size = cell_size(6)
    assert vertical == {MARGIN + j * size for j in range(0, 7, 2)}
    assert horizontal == {MARGIN + j * size for j in range(0, 7, 3)}
    code, out, err = run(capsys, "hint", "kakuro", str(PUZZLES / "kakuro" / "small.txt"),
                         "--box", "2x3")
    assert code == 2 and "no box shape" in err
