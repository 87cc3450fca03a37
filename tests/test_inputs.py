"""Inputs are checked before anything is solved: one line ``file:line:col: problem`` and exit 2.

Digits are ASCII in every reader, JSON records have depth and size limits, a byte-order mark
is skipped, a negative number is refused, and usage errors are one line too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import csolve
from csolve.errors import PuzzleInputError
from csolve.inputs import MAX_JSON_DEPTH, is_number, is_signed_number, json_depth, load_json

from .helpers import PUZZLES, run_cli

KAKURO_JSON = json.dumps({"rows": 3, "cols": 3,
                          "grid": ["- 4, 3,", ",4 0 0", ",3 0 0"]})


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_cli(*args)


def one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("csolve: error: "), err
    assert "Traceback" not in err
    return err


def write(tmp_path, data: str | bytes, name: str = "p.txt") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return str(path)


def test_digits_are_ascii_only():
    assert is_number("0") and is_number("0123456789") and not is_number("")
    for foreign in ("٣", "３", "²", "߁", "৩", "-1", "+2", "1.0", " 1"):
        assert not is_number(foreign), foreign
    assert is_signed_number("-1") and is_signed_number("+7") and not is_signed_number("-")
    assert not is_signed_number("-٣")


def test_json_depth_and_size_limits():
    assert json_depth('{"grid": ["[[[", "{{{"]}') == 2  # brackets in strings do not count
    assert json_depth('"\\"[[[\\""') == 0
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    with pytest.raises(PuzzleInputError, match="nested 33 levels deep"):
        load_json(deep, "f", 3)
    with pytest.raises(PuzzleInputError, match="characters"):
        load_json('"' + "x" * 100 + '"', "f", 1, max_chars=50)
    with pytest.raises(PuzzleInputError, match="bad JSON"):
        load_json("{", "f", 1)
    assert load_json("[" * 32 + "]" * 32, "f", 1) == eval("[" * 32 + "]" * 32)


@pytest.mark.parametrize("kind", ["kakuro", "str8ts"])
def test_deeply_nested_json_is_one_line(capsys, tmp_path, kind):
    deep = write(tmp_path, '{"grid": ' + "[" * 1000 + "]" * 1000 + "}\n", "deep.jsonl")
    err = one_line_error(*run(capsys, "solve", kind, deep)[::2])
    assert "deep.jsonl:1: JSON nested 1001 levels deep" in err
    huge = write(tmp_path, json.dumps({"grid": ["0 " * 600_000]}) + "\n", "huge.jsonl")
    assert "characters" in one_line_error(*run(capsys, "solve", kind, huge)[::2])


def test_a_negative_number_is_refused(capsys, tmp_path):
    neg = write(tmp_path, "-1 " + " ".join(["0"] * 80) + "\n")
    err = one_line_error(*run(capsys, "solve", "sudoku", neg)[::2])
    assert "p.txt:1:1: negative number -1" in err
    grid = "\n".join(" ".join(["0"] * 9) for _ in range(8)) + "\n0 0 0 0 -3 0 0 0 0\n"
    err = one_line_error(*run(capsys, "solve", "sudoku", write(tmp_path, grid))[::2])
    assert "p.txt:9:9: negative number -3" in err


@pytest.mark.parametrize("digit", ["٣", "３", "²"])
def test_other_scripts_digits_are_refused_by_every_reader(capsys, tmp_path, digit):
    numbers = write(tmp_path, " ".join([digit] + ["0"] * 80) + "\n")
    assert "p.txt:1:1:" in one_line_error(*run(capsys, "solve", "sudoku", numbers)[::2])
    line = write(tmp_path, digit + "." * 80 + "\n")
    assert "p.txt:1:1:" in one_line_error(*run(capsys, "solve", "sudoku", line)[::2])
    kakuro = write(tmp_path, f"#  {digit}\\  3\\\n\\4 . .\n\\3 . .\n")
    assert "p.txt:1:" in one_line_error(*run(capsys, "solve", "kakuro", kakuro)[::2])
    str8ts = write(tmp_path, f"{digit} . . .\n. . . .\n. . . .\n. . . .\n")
    assert "p.txt:1:1:" in one_line_error(*run(capsys, "solve", "str8ts", str8ts)[::2])
    cages = "ABCD/AAEF/GHHI/JKLI A=7 B=3 C=1 D=4 E=2 F=3 G=3 H=5 I=3 J=4 K=2 L=3"
    for text in (cages.replace("B=3", f"B={digit}"), cages + f" givens={digit}" + "." * 15):
        killer = write(tmp_path, text + "\n")
        assert "p.txt:1" in one_line_error(*run(capsys, "solve", "killer", killer)[::2])
    err = one_line_error(*run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "6x6.txt"),
                              "--box", f"{digit}x3")[::2])
    assert "a box shape is RxC" in err


def test_a_number_of_thousands_of_digits_is_out_of_range(capsys, tmp_path):
    """Python will not convert it; each reader names where it is, as for any number out of
    range, and says it short."""
    huge = "9" * 5000
    numbers = write(tmp_path, " ".join(["0"] * 40 + [huge] + ["0"] * 40) + "\n")
    err = one_line_error(*run(capsys, "solve", "sudoku", numbers)[::2])
    assert "p.txt:1:81: value 999" in err and "out of range 0..9" in err and len(err) < 300
    kakuro = write(tmp_path, f"#  {huge}\\  3\\\n\\4 . .\n\\3 . .\n")
    err = one_line_error(*run(capsys, "solve", "kakuro", kakuro)[::2])
    assert "p.txt:1:" in err and "not a number 1..45" in err and len(err) < 300
    killer = write(tmp_path, f"ABCD/AAEF/GHHI/JKLI A={huge} B=3 C=1 D=4 E=2 F=3 G=3 H=5 I=3 "
                             "J=4 K=2 L=3\n")
    err = one_line_error(*run(capsys, "solve", "killer", killer)[::2])
    assert "p.txt:1:" in err and "of cage 'A' is not a number 1..45" in err and len(err) < 300
    err = one_line_error(*run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "6x6.txt"),
                              "--box", f"{huge}x3")[::2])
    assert "a box shape is RxC" in err and len(err) < 300


@pytest.mark.parametrize("args, words", [
    (("generate", "sudoku", "--size", "4", "--seed", "9" * 5000),
     "Invalid value for '--seed': Unable to parse input string as an integer, exceeded"),
    (("solve", "sudoku", "P", "--workers", "9" * 5000), "Invalid value for '--workers'"),
    (("solve", "sudoku", "P", "--workers", "٢"), "Input should be a valid integer"),
    (("bench", "sudoku", "P", "--workers", "٢"), "--workers wants counts"),
    (("bench", "sudoku", "P", "--workers", "1,,2"), "--workers wants counts"),
    (("bench", "sudoku", "P", "--repeat", "9" * 5000), "Invalid value for '--repeat'"),
    (("solve", "sudoku", "P", "--timeout", "٣"), "Input should be a valid number"),
    (("solve", "sudoku", "P", "--backend", "static-partition", "-O", "k=٣"),
     "option k wants a whole number >= 1, got '٣'"),
    (("solve", "sudoku", "P", "--backend", "static-partition", "-O", "k=" + "9" * 5000),
     "option k wants a whole number >= 1"),
])
def test_option_numbers_are_ascii_and_any_length_is_one_line(capsys, args, words):
    """Python's ``int`` reads other scripts' digits and refuses numbers of thousands of digits
    with a message of its own; options say what they take, in a short line, as files do."""
    args = tuple(str(PUZZLES / "sudoku" / "4x4.txt") if a == "P" else a for a in args)
    err = one_line_error(*run(capsys, *args)[::2])
    assert words in err and len(err) < 400


def test_a_byte_order_mark_is_skipped(capsys, tmp_path):
    text = (PUZZLES / "sudoku" / "4x4.txt").read_text()
    bom = write(tmp_path, b"\xef\xbb\xbf" + text.encode())
    code, out, _ = run(capsys, "solve", "sudoku", bom, "--output", "line")
    plain = run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                "--output", "line")
    assert code == 0 and out == plain[1] and out
    jsonl = write(tmp_path, b"\xef\xbb\xbf" + KAKURO_JSON.encode() + b"\n", "k.jsonl")
    code, out, err = run(capsys, "solve", "kakuro", jsonl, "--output", "json")
    assert code == 0, err
    assert json.loads(out)["status"] == "solved"


@pytest.mark.parametrize("kind", ["sudoku", "kakuro", "str8ts", "killer"])
def test_a_control_character_is_named_at_its_line_and_column(capsys, tmp_path, kind):
    path = write(tmp_path, "# a comment\n12\x01" + "." * 78 + "\n")
    err = one_line_error(*run(capsys, "solve", kind, path)[::2])
    assert err == f"csolve: error: {path}:2:3: control character U+0001: not text\n"
    # lines as the readers split them (a lone carriage return ends one), a byte-order mark
    # not counted, puzzle text given as an argument checked as a file's is
    path = write(tmp_path, b"\xef\xbb\xbf# a\rb\r12\x01\n")
    err = one_line_error(*run(capsys, "solve", kind, path)[::2])
    assert err == f"csolve: error: {path}:3:3: control character U+0001: not text\n"
    err = one_line_error(*run(capsys, "solve", kind, "12\x01" + "." * 78)[::2])
    assert err == "csolve: error: <text>:1:3: control character U+0001: not text\n"


def test_an_endless_binary_stream_ends_at_its_first_chunk(capsys, tmp_path):
    """``/dev/zero`` (NUL bytes, valid UTF-8) and ``/dev/urandom`` are refused after one
    chunk is read: read whole, the first filled the memory and the second never ended."""
    code, _, err = run(capsys, "solve", "sudoku", "/dev/zero")
    assert one_line_error(code, err) == ("csolve: error: /dev/zero:1:1: control character "
                                         "U+0000: not text\n")
    code, _, err = run(capsys, "solve", "kakuro", "/dev/urandom")
    assert "/dev/urandom:" in one_line_error(code, err) and "not UTF-8 text" in err
    across = write(tmp_path, b"." * ((1 << 20) - 1) + "\u00e9".encode() + b"\n\x00")
    code, _, err = run(capsys, "solve", "sudoku", across)  # a character split by a chunk
    assert one_line_error(code, err).endswith(":2:1: control character U+0000: not text\n")


def test_a_size_field_of_the_wrong_type_says_so(capsys, tmp_path):
    record = json.loads(KAKURO_JSON)
    record["rows"] = "3"
    path = write(tmp_path, json.dumps(record) + "\n", "k.jsonl")
    err = one_line_error(*run(capsys, "solve", "kakuro", path)[::2])
    assert """'rows' is "3", not a whole number (the grid has 3)""" in err  # as spelt
    record["rows"] = True
    path = write(tmp_path, json.dumps(record) + "\n", "k.jsonl")
    err = one_line_error(*run(capsys, "solve", "kakuro", path)[::2])
    assert "'rows' is true, not a whole number (the grid has 3)" in err
    record["rows"] = 4
    path = write(tmp_path, json.dumps(record) + "\n", "k.jsonl")
    err = one_line_error(*run(capsys, "solve", "kakuro", path)[::2])
    assert "'rows' is 4 but the grid has 3" in err
    record["rows"] = 3.0  # a whole number as some JSON writers spell it
    path = write(tmp_path, json.dumps(record) + "\n", "k.jsonl")
    code, out, err = run(capsys, "solve", "kakuro", path)
    assert code == 0, err
    killer = ('{"problem": "4 4\\n9 - 8 3\\n- 7 - -\\n4 - - 9\\n- - - -\\n2 2 4 1\\n'
              '2 3 4 1\\n6 3 4 5\\n6 3 5 5", "box": null}\n')
    err = one_line_error(*run(capsys, "solve", "killer", write(tmp_path, killer))[::2])
    assert "'box' is text, not null" in err


@pytest.mark.parametrize("args, words", [
    (["solve", "sudoku", "x.txt", "--bogus"], "No such option: --bogus"),
    (["solve"], "Missing argument"),
    (["nosuch"], "No such command"),
    (["solve", "sudoku", "x.txt", "--timeout", "abc"], "--timeout"),
    (["solve", "sudoku", "x.txt", "--output", "xml"], "--output"),
    (["solve", "kakuro", "- - 17, 30, / ,3 0 0"], "puzzle text that starts with '-' goes "
                                                  "after '--': "),
    (["hint", "str8ts", "- - 1"], " hint kakuro -- '"),  # the example is the command run
])
def test_usage_errors_are_one_line(capsys, args, words):
    err = one_line_error(*run(capsys, *args)[::2])
    assert words in err and "--help" in err


@pytest.mark.parametrize("kind", ["sudoku", "killer", "kakuro", "str8ts"])
@pytest.mark.parametrize("text, words", [
    ("", "no puzzle found (the input is empty)"),
    ("\n{comment} a comment\n\n", "no puzzle found (only blank lines and comments)"),
])
def test_a_file_without_a_puzzle_is_named(capsys, tmp_path, kind, text, words):
    from csolve.puzzle import get_puzzle_type

    path = write(tmp_path, text.format(comment=get_puzzle_type(kind).comment), "nothing.txt")
    err = one_line_error(*run(capsys, "solve", kind, path)[::2])
    assert err.startswith(f"csolve: error: {path}") and words in err


@pytest.mark.parametrize("kind", ["sudoku", "killer", "kakuro", "str8ts"])
def test_a_huge_token_is_quoted_short(capsys, tmp_path, kind):
    """A 200,000-character word in a file gives an error line of a few hundred
    characters at most, whatever the reader says of it."""
    path = write(tmp_path, "1" * 200_000 + "\n")
    err = one_line_error(*run(capsys, "solve", kind, path)[::2])
    assert len(err) < 400


def test_numbers_of_no_size_name_the_sizes_there_are(capsys, tmp_path):
    path = write(tmp_path, " ".join(["0"] * 10_000) + "\n")
    err = one_line_error(*run(capsys, "solve", "sudoku", path)[::2])
    assert "found 10,000 numbers; a puzzle needs n² of them for n in 4, 6, 8, 9, ... 64" in err


@pytest.mark.parametrize("kind, solution, puzzle, words", [
    ("sudoku", "sudoku/4x4.txt", "sudoku/9x9-easy.txt", "expected 81 cells, got 16 cells"),
    ("str8ts", "str8ts/small.txt", None, "got a"),
])
def test_a_solution_of_another_size_is_said_in_words(capsys, tmp_path, kind, solution,
                                                     puzzle, words):
    from csolve.puzzle import get_puzzle_type

    ptype = get_puzzle_type(kind)
    (small, *_) = ptype.parse((PUZZLES / solution).read_text(), solution)
    wrong = np.zeros((3, 3), dtype=np.int64) if puzzle is None else np.zeros(16, np.int64)
    target = small if puzzle is None else ptype.parse((PUZZLES / puzzle).read_text(),
                                                      puzzle)[0]
    (problem,) = ptype.validate(target, wrong)
    assert words in problem and "(" not in problem


def test_explain_refuses_picture_and_grid_output(capsys):
    for output in ("svg", "grid"):
        err = one_line_error(*run(capsys, "solve", "sudoku", "2.....3.........", "--explain",
                                  "--output", output)[::2])
        assert f"not {output}" in err and "csolve explain --output svg or html" in err


def test_a_long_path_stays_whole_in_an_error_line(capsys, tmp_path):
    """Only words far longer than a path are cut: the file and line stay readable."""
    deep = tmp_path / ("a_rather_long_directory_name_for_puzzles" * 2) / "another_level"
    deep.mkdir(parents=True)
    f = deep / "bad-sudoku-file.txt"
    f.write_text("12345\n")
    err = one_line_error(*run(capsys, "solve", "sudoku", str(f))[::2])
    assert f"{f}:1: a line holds 5 symbols" in err


def test_a_long_json_integer_goes_back_out_unchanged(capsys, tmp_path):
    """An id of 20 digits (more than a 64-bit integer) is passed through as it is."""
    record = ('{"id": 12345678901234567890, "problem": "4 4\\n9 - 8 3\\n- 7 - -\\n'
              '4 - - 9\\n- - - -\\n2 2 4 1\\n2 3 4 1\\n6 3 4 5\\n6 3 5 5"}\n')
    path = write(tmp_path, record, "k.jsonl")
    code, out, err = run(capsys, "solve", "killer", path, "--output", "line")
    assert code == 0, err
    assert json.loads(out.splitlines()[0])["id"] == 12345678901234567890


@pytest.mark.parametrize("kind,file,other", [
    ("sudoku", "kakuro/small.txt", "kakuro"), ("kakuro", "sudoku/9x9-hard.txt", "sudoku"),
    ("sudoku", "str8ts/small.txt", "str8ts"), ("killer", "sudoku/9x9-hard.txt", "sudoku")])
def test_a_file_of_another_type_says_what_it_reads_as(capsys, kind, file, other):
    code, _, err = run(capsys, "solve", kind, str(PUZZLES / file))
    assert one_line_error(code, err).endswith(
        f" (it reads as {other} puzzles: is the puzzle type right?)\n")


def test_a_bad_file_of_no_type_gets_no_guess(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1234\n")
    code, _, err = run(capsys, "solve", "sudoku", str(path))
    assert "reads as" not in one_line_error(code, err)


@pytest.mark.parametrize("kind, text, message", [
    # a one-line puzzle cut short was read as the first row of a 60x60 grid, and said only
    # that; in a file of one-line puzzles the error was at the last line the grid took
    ("sudoku", "4" + "." * 59, "p.txt:1:61: a line of 60 symbols: a one-line puzzle has n² "
     "(64 for 8x8, 81 for 9x9), a grid n rows of n; is the line cut short?"),
    ("sudoku", "4" + "." * 59 + "\n" + "." * 81 + "\n" + "." * 81,
     "p.txt:1:61: a line of 60 symbols: a one-line puzzle has n²"),
    # the field is there: what is wrong is what it holds
    ("kakuro", '{"grid": []}', "p.txt:1: 'grid' holds no rows"),
    ("kakuro", '{"grid": [1, 2]}', "p.txt:1: 'grid' is [1, 2], not a list of row strings"),
    ("kakuro", '{"grod": ["x"]}', "p.txt:1: JSON puzzle needs a 'grid' field"),
    # a problem of the whole grid, not of its first row ("grid row 1: a grid needs ...")
    ("str8ts", '{"grid": ["1 2 3", "4 5 6"]}', "p.txt:1: a grid needs 4..9 rows, this one has 2"),
    ("kakuro", '{"grid": ["# #", "# #"]}', "p.txt:1: grid has no white cell"),
    # a field of the wrong kind is said, as for 'givens' and 'box' (it was ignored)
    ("killer", '{"problem": "4 4\\n9 - 8 3\\n- 7 - -\\n4 - - 9\\n- - - -\\n2 2 4 1\\n2 3 4 1'
     '\\n6 3 4 5\\n6 3 5 5", "solution": 12}', "p.txt:1: 'solution' is text, not 12"),
    # 45 is the most a cage of distinct digits holds, whatever the grid's size
    ("killer", "AABB/CDDB/CEFF/CGFH A=4 B=7 C=9 D=5 E=4 F=7 G=100 H=4",
     "p.txt:1:45: sum '100' of cage 'G' is not a number 1..45 (a cage's digits differ"),
])
def test_messages_say_what_is_wrong_where_the_reader_can_tell(capsys, tmp_path, kind, text,
                                                              message):
    err = one_line_error(*run(capsys, "solve", kind, write(tmp_path, text + "\n"))[::2])
    assert message in err


def test_a_one_line_puzzle_read_as_a_grid_says_its_format(capsys, tmp_path):
    """``--format grid`` on a whole one-line puzzle: it was told the line might be cut
    short, and given the lengths a one-line puzzle has, 16 left out."""
    path = write(tmp_path, "1234341221434321\n")
    err = one_line_error(*run(capsys, "solve", "sudoku", path, "--format", "grid")[::2])
    assert err.rstrip().endswith(":1: a line of 16 symbols is a one-line 4x4 puzzle, not a "
                                 "grid's row: its format is 'line'")
    code, out, _ = run(capsys, "solve", "sudoku", path, "--format", "line", "--output", "line")
    assert code == 0 and out.strip() == "1234341221434321"
    assert csolve.validate("sudoku", out.strip()) == []
