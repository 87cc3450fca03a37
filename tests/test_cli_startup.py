"""The program builds only the command it runs (csolve.cli.app_for), and that changes
nothing a user sees."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from csolve.cli import app, app_for

from .helpers import PUZZLES

FOUR = str(PUZZLES / "sudoku" / "4x4.txt")


def _names() -> list[str]:
    return sorted(c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands)


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["solv", "sudoku", FOUR],
                                  ["-h"]])
def test_without_a_command_name_the_whole_app_runs(args):
    assert app_for(args) is app


def test_a_command_name_gives_an_app_of_that_command():
    for name in _names():
        one = app_for([name, "x"])
        assert [c.callback for c in one.registered_commands] == [
            c.callback for c in app.registered_commands
            if (c.name or c.callback.__name__.replace("_", "-")) == name][-1:]
    assert app.registered_commands != app_for(["solve"]).registered_commands  # a copy


def test_every_commands_help_reads_the_same():
    runner = CliRunner()
    for name in _names():
        whole = runner.invoke(app, [name, "--help"])
        alone = runner.invoke(app_for([name, "--help"]), [name, "--help"])
        assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output), name


@pytest.mark.parametrize("args", [
    ["solve", "sudoku", FOUR, "--count", "--output", "json"],
    ["solve", "sudoku", FOUR, "--workers", "-1"],
    ["solve", "sudoku", FOUR, "--bogus"],
    ["validate", "sudoku", FOUR],
])
def test_a_command_reads_the_same(args):
    """Same exit code and output (timings aside) from the one-command app."""
    runner = CliRunner()
    whole = runner.invoke(app, args)
    alone = runner.invoke(app_for(args), args)
    assert alone.exit_code == whole.exit_code

    def untimed(text: str) -> list:
        out = []
        for line in text.splitlines():
            if line.startswith("{"):
                obj = json.loads(line)
                obj["stats"].pop("seconds")
                out.append(obj)
            elif "puzzles/s" not in line:
                out.append(line)
        return out

    assert untimed(alone.output) == untimed(whole.output)


def test_the_program_asks_numpy_for_one_blas_thread_unless_told(monkeypatch):
    from csolve.cli import program_defaults

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    program_defaults()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")  # the user's choice stands
    program_defaults()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "2"


def test_the_program_runs_with_one_blas_thread(tmp_path):
    """Through the real entry point: set by the time the run (which loads numpy) is done."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    script = ("import sys, atexit\n"
              "atexit.register(lambda: print('numpy' in sys.modules,"
              " __import__('os').environ['OPENBLAS_NUM_THREADS']))\n"
              f"sys.argv = ['csolve', 'solve', 'sudoku', {FOUR!r}, '--output', 'line']\n"
              "from csolve.cli import run\nrun()\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "True 1"


def test_the_program_collects_garbage_less_often(tmp_path):
    """Through the real entry point: the young generation is larger once the run is done,
    the older generations' thresholds are Python's."""
    import gc

    from csolve.cli import YOUNG_COLLECTION_THRESHOLD

    script = ("import gc, sys, atexit\n"
              "atexit.register(lambda: print(*gc.get_threshold()))\n"
              f"sys.argv = ['csolve', 'solve', 'sudoku', {FOUR!r}, '--output', 'line']\n"
              "from csolve.cli import run\nrun()\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    young, *older = map(int, r.stdout.splitlines()[-1].split())
    assert young == YOUNG_COLLECTION_THRESHOLD > gc.get_threshold()[0]
    assert older == list(gc.get_threshold()[1:])
