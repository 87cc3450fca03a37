"""``--format`` on Kakuro and Str8ts: honoured (a puzzle in another format is one clear line,
exit 2), and the format of a file's own puzzles is accepted."""

from __future__ import annotations

import json

import pytest

from .helpers import PUZZLES
from .test_constraint_rules import run

STR8TS_JSON = {"n": 4, "grid": ["- - - x", "- 2 - -", "x - - -", "- - 4 -"]}


@pytest.mark.parametrize("kind", ["kakuro", "str8ts"])
def test_text_file_with_format_json_is_refused(capsys, monkeypatch, kind):
    path = str(PUZZLES / kind / "small.txt")
    first = {"kakuro": 2, "str8ts": 3}[kind]  # the first puzzle's line
    code, out, err = run(capsys, monkeypatch, "solve", kind, path, "--format", "json")
    assert code == 2 and out == ""
    assert err.strip() == (f"csolve: error: {path}:{first}: a text puzzle where the format "
                           "asked for is json")
    code, out, err = run(capsys, monkeypatch, "solve", kind, path, "--format", "text",
                         "--output", "json")
    assert code == 0, err
    assert all(json.loads(line)["status"] == "solved" for line in out.splitlines())


def test_json_lines_with_format_text_is_refused(capsys, monkeypatch, tmp_path):
    f = tmp_path / "one.jsonl"
    f.write_text("; a comment\n" + json.dumps(STR8TS_JSON) + "\n")
    code, _out, err = run(capsys, monkeypatch, "solve", "str8ts", str(f), "--format", "text")
    assert code == 2 and err.strip().endswith(":2: a json puzzle where the format asked for "
                                              "is text")
    code, _out, err = run(capsys, monkeypatch, "solve", "str8ts", str(f), "--format", "json",
                          "--count", "--output", "json")
    assert code == 0, err


def test_unknown_format_is_one_line(capsys, monkeypatch):
    path = str(PUZZLES / "kakuro" / "small.txt")
    code, _out, err = run(capsys, monkeypatch, "solve", "kakuro", path, "--format", "line")
    assert code == 2 and len(err.strip().splitlines()) == 1
