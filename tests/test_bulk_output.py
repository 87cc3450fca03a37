"""Results kept as columns (ResultBlock) and the output written from them: the same answers,
statuses and JSON as one Result per puzzle; the whole-array Sudoku checks agree with the
plain sorted ones for every size and box shape."""

from __future__ import annotations

import json
import platform
import random

import numpy as np
import pytest

import csolve
from csolve.kernels import abi
from csolve.outcome import End, ResultBlock, Status
from csolve.solver import SolveOptions, solve_blocks

from .helpers import PUZZLES, line_of, pattern_grid, run_cli

CODES = [abi.EXHAUSTED, abi.LIMIT, abi.SKIPPED, abi.GAVE_UP, abi.STOPPED, 99]


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 5])
def test_a_block_decides_every_status_as_status_of_does(limit):
    pairs = [(code, count) for code in CODES for count in range(7)]
    block = ResultBlock.from_batch(
        None, [None] * len(pairs), codes=np.array([c for c, _ in pairs]),
        counts=np.array([n for _, n in pairs]), counters=np.zeros((len(pairs), 5), np.int64),
        seconds=np.zeros(len(pairs)), first_solutions=[None] * len(pairs), limit=limit,
        engine="e", backend="b")
    for (code, count), status, end in zip(pairs, block.statuses, block.ends, strict=True):
        assert end is End.from_code(code)
        assert status is Status.of(count, end, limit), (code, count, limit)


def _file(tmp_path, sudoku, lines):
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


HARD = PUZZLES / "sudoku" / "9x9-hard.txt"


def _mixed_lines() -> list[str]:
    """9x9 puzzles with one solution, an empty 9x9 grid (many), and a 4x4."""
    good = [t for t in HARD.read_text().splitlines() if t and not t.startswith("#")]
    four = pattern_grid(4, random.Random(3))
    four[[0, 5, 10]] = 0
    return [*good[:3], "." * 81, good[3], line_of(four)]


def test_json_from_columns_equals_json_from_results(tmp_path, sudoku):
    lines = _mixed_lines()
    path = _file(tmp_path, sudoku, lines)
    code, out, _ = run_cli("solve", "sudoku", str(path), "--output", "json")
    assert code == 0
    rows = [json.loads(t) for t in out.splitlines()]
    puzzles = sudoku.parse(path.read_text(), str(path))
    results = [r for block in solve_blocks(sudoku, puzzles) for r in block]
    assert len(rows) == len(results) == len(lines)
    for row, r in zip(rows, results, strict=True):
        assert row["puzzle"] == r.puzzle.index + 1 and row["line"] == r.puzzle.line
        assert row["status"] == r.status.value
        assert row["backend"] == r.backend and row["engine"] == r.engine
        assert set(row["stats"]) == {"nodes", "guesses", "backtracks", "passes", "solutions",
                                     "seconds"}
        assert row["stats"]["nodes"] == r.stats.nodes
        solution = np.array(row["solution"]).ravel()
        assert sudoku.validate(r.puzzle, solution) == []
        assert (solution == r.solution).all()


def test_json_text_of_grids_is_what_json_dumps_writes(sudoku):
    for n in (4, 9, 16):
        rng = random.Random(n)
        grids = [pattern_grid(n, rng) for _ in range(3)]
        line = "".join(line_of(g) for g in grids[:1])
        puzzles = sudoku.parse("\n".join([line] * 3) + "\n", "<grids>")
        texts = sudoku.to_json_text_many(puzzles, grids)
        assert texts == [json.dumps(sudoku.to_json(p, g)) for p, g in zip(puzzles, grids,
                                                                          strict=True)]


def test_line_and_count_output_from_columns(tmp_path, sudoku):
    lines = _mixed_lines()
    path = _file(tmp_path, sudoku, lines)
    code, out, _ = run_cli("solve", "sudoku", str(path), "--output", "line")
    assert code == 0
    written = out.splitlines()
    puzzles = sudoku.parse(path.read_text(), str(path))
    assert len(written) == len(puzzles)
    for p, text in zip(puzzles, written, strict=True):
        (solved,) = sudoku.parse(text + "\n", "<out>")
        assert sudoku.validate(p, solved.data) == []
    code, out, _ = run_cli("solve", "sudoku", str(path), "--count", "--limit", "2",
                           "--output", "line")
    counts = out.split()
    assert counts[3] == "2+" and all(c == "1" for i, c in enumerate(counts) if i != 3)


def test_a_conflict_in_a_file_of_solvable_puzzles_is_an_input_error(tmp_path, sudoku):
    lines = _mixed_lines()
    bad = "11" + lines[0][2:]
    path = _file(tmp_path, sudoku, [lines[0], bad, lines[1]])
    code, out, err = run_cli("solve", "sudoku", str(path), "--output", "line")
    assert code == 2 and out == ""
    assert "batch.txt:2" in err and "conflicting givens" in err


def test_an_unsolvable_puzzle_among_solved_ones(tmp_path, sudoku):
    lines = _mixed_lines()
    # r1c1 can hold nothing: its row, column and box hold 1..9 between them
    row = "." + "23456789" + "." * 72
    dead = row[:9] + "1" + row[10:]
    path = _file(tmp_path, sudoku, [lines[0], dead, lines[1]])
    code, out, _ = run_cli("solve", "sudoku", str(path), "--output", "line")
    assert code == 1
    written = out.splitlines()
    assert written[1] == dead + " # no-solution"
    for given, text in ((lines[0], written[0]), (lines[1], written[2])):
        (p,) = sudoku.parse(given + "\n", "<in>")
        (s,) = sudoku.parse(text + "\n", "<out>")
        assert sudoku.validate(p, s.data) == []


def test_a_block_made_later_answers_like_its_results(sudoku):
    puzzles = sudoku.parse(HARD.read_text(), "9x9-hard.txt")
    (block,) = list(solve_blocks(sudoku, puzzles, SolveOptions(limit=2)))
    assert len(block) == len(puzzles)
    results = list(block)
    again = ResultBlock.of(results)
    assert again.statuses == block.statuses and again.counts == block.counts
    for made, result in ((block[-1], results[-1]), *zip(block[1:3], results[1:3], strict=True)):
        assert made.puzzle is result.puzzle and made.status is result.status
        assert made.count == result.count and (made.solution == result.solution).all()
    for p, r in zip(puzzles, results, strict=True):
        assert sudoku.validate(p, r.solution) == []


def _sorted_complete(grids, n, box):
    from csolve_sudoku.grid import unit_stacks

    want = np.arange(1, n + 1)
    return np.array([all((np.sort(u[i], axis=1) == want).all() for u in
                         unit_stacks(grids, n, box)) for i in range(len(grids))])


def _sorted_repeats(grids, n, box):
    from csolve_sudoku.grid import unit_stacks

    out = np.zeros(len(grids), dtype=bool)
    for u in unit_stacks(grids, n, box):
        s = np.sort(u, axis=2)
        out |= ((s[..., 1:] == s[..., :-1]) & (s[..., 1:] != 0)).any(axis=(1, 2))
    return out


@pytest.mark.parametrize("n", [4, 6, 8, 9, 12, 16, 25, 64])
def test_whole_array_unit_checks_agree_with_sorting(n):
    from csolve_sudoku.grid import box_shapes, complete_many, repeats_many

    rng = np.random.default_rng(n)
    for box in box_shapes(n):
        r, c = box
        solved = np.array([[(c * (i % r) + i // r + j) % n + 1 for j in range(n)]
                           for i in range(n)]).ravel()
        swapped = solved.copy()
        swapped[[0, 1]] = swapped[[1, 0]]
        holed = np.where(rng.random(n * n) < 0.6, 0, solved)
        grids = np.stack([solved, swapped, holed, np.zeros(n * n, dtype=np.int64),
                          *rng.integers(0, n + 1, (6, n * n)),
                          *[np.where(rng.random(n * n) < 0.9, 0, rng.integers(1, n + 1, n * n))
                            for _ in range(6)]])
        assert complete_many(grids[:1], n, box)[0]
        assert (complete_many(grids, n, box) == _sorted_complete(grids, n, box)).all()
        assert (repeats_many(grids, n, box) == _sorted_repeats(grids, n, box)).all()


def test_the_command_line_keeps_freed_memory_where_it_can():
    import sys

    from csolve.cli.heap import keep_freed_memory

    assert keep_freed_memory() is (sys.platform.startswith("linux")
                                   and "glibc" in " ".join(platform.libc_ver()))


def _nine_lines() -> list[str]:
    return [t for t in HARD.read_text().splitlines() if t and not t.startswith("#")]


@pytest.mark.parametrize("layout", ["plain", "header", "no-final-newline", "comment-inside",
                                    "blank-line", "crlf", "lowercase-blank", "one-line"])
def test_a_file_read_in_bulk_reads_as_line_by_line(sudoku, layout):
    from csolve_sudoku import formats

    lines = _nine_lines()
    if layout == "one-line":
        lines = lines[:1]
    text = "\n".join(lines) + "\n"
    if layout == "header":
        text = "# a header\n#\n" + text
    elif layout == "no-final-newline":
        text = text[:-1]
    elif layout == "comment-inside":
        text = text.replace("\n", "\n# between\n", 1)
    elif layout == "blank-line":
        text = text.replace("\n", "\n\n", 2)
    elif layout == "crlf":
        text = text.replace("\n", "\r\n")
    elif layout == "lowercase-blank":
        text = text.replace(".", "0")
    bulk = sudoku.parse(text, "f.txt")
    slow = formats.parse(text, "f.txt")
    assert [(p.line, p.index, p.data.tolist()) for p in bulk] == [
        (line, i, grid.tolist()) for i, (line, grid, _) in enumerate(slow)]
    assert all(p.meta["n"] == 9 and p.meta["box"] == (3, 3) for p in bulk)


def test_a_batch_of_puzzles_acts_as_a_list_of_them(sudoku):
    from csolve.puzzle import PuzzleBatch

    lines = _nine_lines()
    batch = sudoku.parse("# header\n" + "\n".join(lines) + "\n", "f.txt")
    assert isinstance(batch, PuzzleBatch) and len(batch) == len(lines)
    first = batch[0]
    assert batch[0] is first and batch[np.int64(0)] is first and type(batch[-1].index) is int
    assert (first.line, first.index, first.where) == (2, 0, "f.txt:2")
    assert batch[-1] is batch[len(lines) - 1]
    with pytest.raises(IndexError):
        batch[len(lines)]
    part = batch[1:3]
    assert isinstance(part, PuzzleBatch) and [p.index for p in part] == [1, 2]
    assert part[0] is batch[1]  # one Puzzle per position, however it is reached
    assert [p.index for p in batch[::2]] == list(range(0, len(lines), 2))
    first.meta["mine"] = True  # a puzzle's meta is its own
    assert "mine" not in batch[1].meta and "mine" not in batch.meta
    boxed = batch.with_meta(box=(3, 3), note="x")
    assert boxed[0].meta["note"] == "x" and "note" not in batch.meta
    results = csolve.solve("sudoku", batch[:2])
    for p, r in zip(batch[:2], results, strict=True):
        assert r.puzzle is p and sudoku.validate(p, r.solution) == []


def test_lines_kept_as_one_text_act_as_a_list_of_them(sudoku):
    from csolve.puzzle import TextLines

    lines = TextLines("ab\ncd\nef\n", 2)
    assert len(lines) == 3 and list(lines) == ["ab", "cd", "ef"]
    assert lines[-1] == "ef" and lines[np.int64(1)] == "cd" and lines[1:] == ["cd", "ef"]
    with pytest.raises(IndexError):
        lines[3]
    with pytest.raises(ValueError):
        TextLines("ab\ncde\n", 2)
    batch = sudoku.parse("\n".join(_nine_lines()) + "\n", "f.txt")
    results = csolve.solve("sudoku", batch)
    written = sudoku.format_line_many(batch, np.stack([r.solution for r in results]))
    assert isinstance(written, TextLines)
    assert list(written) == [sudoku.format_line(p, r.solution) for p, r in zip(batch, results,
                                                                              strict=True)]
