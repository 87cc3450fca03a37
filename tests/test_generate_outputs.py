"""``csolve generate --output grid|svg``: plain-text grids that read back, and pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from csolve.puzzle import PuzzleType, get_puzzle_type

from .helpers import run_cli


def run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_cli(*args)


@pytest.mark.parametrize(("kind", "size"), [("sudoku", "4"), ("sudoku", "6"), ("kakuro", "4"),
                                            ("str8ts", "5"), ("killer", "6")])
def test_grid_output_reads_back_as_the_same_puzzles(capsys, monkeypatch, kind, size):
    args = ("generate", kind, "--size", size, "--count", "2", "--seed", "11")
    code, lines, _ = run(capsys, monkeypatch, *args, "--output", "line")
    assert code == 0
    code, grids, err = run(capsys, monkeypatch, *args, "--output", "grid")
    assert code == 0, err
    ptype = get_puzzle_type(kind)
    want = ptype.parse(lines, "lines")
    got = ptype.parse(grids, "grids")  # the headers are comments of the type's own kind
    assert len(got) == len(want) == 2
    for a, b in zip(got, want, strict=True):
        assert ptype.format_line(a, None) == ptype.format_line(b, None)
    assert grids.count(f"{ptype.comment} puzzle ") == 2


def test_svg_output_is_one_picture_of_every_puzzle(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "generate", "sudoku", "--size", "4", "--count",
                         "3", "--seed", "2", "--output", "svg")
    assert code == 0, err
    root = ET.fromstring(out)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    assert len(root.findall(f"{ns}svg")) == 3  # one nested picture per puzzle


@pytest.mark.parametrize("style", ["grid", "svg"])
def test_a_type_without_that_output_is_refused_before_any_work(capsys, monkeypatch, style):
    # every built-in type has both: take Killer's away, as a plugin may leave them out
    killer = type(get_puzzle_type("killer"))
    writer = {"grid": "format_grid", "svg": "to_svg"}[style]
    monkeypatch.setattr(killer, writer, getattr(PuzzleType, writer))
    code, out, err = run(capsys, monkeypatch, "generate", "killer", "--size", "4", "--seed",
                         "1", "--output", style)
    assert code == 2 and out == ""
    assert err.startswith("csolve: error: killer") or "killer" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("option", ["--count", "--clues"])
def test_numbers_past_a_machine_integer_are_a_usage_error(capsys, monkeypatch, option):
    # they reached numpy and ended in an OverflowError traceback
    code, out, err = run(capsys, monkeypatch, "generate", "sudoku", "--size", "4", option,
                         "99999999999999999999999")
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("csolve: error: ") and option in err and len(err.splitlines()) == 1


def test_clues_below_what_removal_reaches_are_reported(capsys, monkeypatch):
    # a puzzle minimal above --clues came out as if it met it, without a word
    code, out, err = run(capsys, monkeypatch, "generate", "sudoku", "--size", "4", "--count",
                         "3", "--seed", "1", "--clues", "1")
    assert code == 0
    sudoku = get_puzzle_type("sudoku")
    counts = [sudoku.clue_count(p) for p in sudoku.parse(out, "lines")]
    assert len(counts) == 3 and min(counts) > 1
    assert f"3 of 3 puzzles kept more than 1 clue (fewest {min(counts)})" in err
    code, out, err = run(capsys, monkeypatch, "generate", "sudoku", "--size", "4", "--count",
                         "3", "--seed", "1", "--clues", "12")
    assert code == 0 and "kept more" not in err


@pytest.mark.parametrize("style", ["json", "grid"])
def test_a_box_shape_asked_for_reads_back_with_the_puzzles(capsys, monkeypatch, style):
    # a 6x6 made with 3x2 boxes read back with the size's default 2x3: "multiple, 7" for a
    # unique puzzle, and its own solution "invalid" in validate
    code, made, err = run(capsys, monkeypatch, "generate", "sudoku", "--size", "6", "--box",
                          "3x2", "--count", "2", "--seed", "5", "--output", style)
    assert code == 0, err
    sudoku = get_puzzle_type("sudoku")
    puzzles = sudoku.parse(made, "<made>") if style == "grid" else None
    if puzzles is not None:
        assert [p.meta["box"] for p in puzzles] == [(3, 2)] * 2
    import csolve

    results = csolve.solve("sudoku", made, count=True)
    assert [(r.count, r.exact) for r in results] == [(1, True)] * 2
    for r in results:
        assert sudoku.validate(r.puzzle, r.solutions[0]) == []
    assert csolve.solve("sudoku", made, count=True, box="2x3")[0].count > 1  # as asked
    solved = csolve.Solver("sudoku").solve(made)
    grids = "".join(f"# {r.puzzle.where}\n{sudoku.format_grid(r.puzzle, r.solution)}\n\n"
                    for r in solved)
    assert csolve.read("sudoku", grids)[0].meta["box"] == (3, 2)
    assert all(csolve.validate("sudoku", g) == [] for g in
               [grids.split("\n\n")[0], grids.split("\n\n")[1]])
