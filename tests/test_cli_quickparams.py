"""The command line's direct option conversion (csolve/cli/quickparams.py) gives every
option the value typer's own conversion gives, errors included, and keeps pydantic out of a
solve."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer.main

from csolve.cli import app
from csolve.cli.quickparams import _KNOWN, QuickGroup, QuickParam, converter

pytestmark = pytest.mark.skipif(not _KNOWN, reason="typer without per-option runtime coercion")

SAMPLES = ["0", "1", "7", "-1", "+3", " 3", "3_000", "3.0", "2.5", ".5", "1e3", "-2E-1",
           "inf", "nan", "", "abc", "serial", "json", "JSON", "spin", "4611686018427387905",
           0, 1, 2.5, True, False, ["a", "b"], ("x",), "٣", "9" * 5000]


def _commands():
    group = typer.main.get_command(app)
    return group, sorted(group.commands.items())


def _typer_value(param, value):
    """typer's own conversion of ``value``: the value, or the error's text."""
    from typer._coercion import build_runtime_param

    try:
        return ("ok", build_runtime_param(param.type_descriptor).coerce(value, param=param,
                                                                        ctx=None))
    except Exception as e:  # typer's BadParameter (or a type error on odd input)
        return ("error", type(e).__name__, str(e))


def _quick_value(param, value):
    quick = QuickParam(converter(param.type_descriptor), param.type_descriptor)
    try:
        return ("ok", quick.coerce(value, param=param, ctx=None))
    except Exception as e:
        return ("error", type(e).__name__, str(e))


def test_the_group_is_quick():
    group, _ = _commands()
    assert isinstance(group, QuickGroup)


def test_every_plain_option_converts_as_typer_does():
    _, commands = _commands()
    checked = 0
    for name, command in commands:
        for param in command.params:
            if not hasattr(param, "type_descriptor") or converter(param.type_descriptor) is None:
                continue
            for value in SAMPLES:
                want = _typer_value(param, value)
                got = _quick_value(param, value)
                assert got == want, (name, param.name, value)
                if want[0] == "ok":
                    assert type(got[1]) is type(want[1]), (name, param.name, value)
                checked += 1
    assert checked > 500


def test_bad_values_get_typers_message():
    from tests.helpers import run_cli

    code, _, err = run_cli("solve", "sudoku", "puzzles/sudoku/4x4.txt", "--workers", "-1")
    assert code == 2
    assert "Invalid value for '--workers'" in err and "greater than or equal to 0" in err
    code, _, err = run_cli("solve", "sudoku", "puzzles/sudoku/4x4.txt", "--output", "JSON")
    assert code == 2 and "'JSON' is not one of" in err


def test_a_solve_does_not_import_pydantic(tmp_path):
    """Every option of a plain solve is converted without pydantic (its import and the
    per-option models are a large part of a short run)."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    script = ("import sys\n"
              "from csolve.cli import main\n"
              f"sys.argv = ['csolve', 'solve', 'sudoku', {puzzle!r}, '--count', '--backend',"
              " 'locked-pool', '--workers', '2', '--timeout', '30', '--output', 'line',"
              " '-O', 'probe=0']\n"
              "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
              "print('pydantic' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout.split()
    assert out == ["1", "False"]
