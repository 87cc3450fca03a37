"""The help: an example for every command, choices listed, no markup leaking, completion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from csolve.cli.app import app

from .test_cli import run

COMMANDS = sorted(c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands
                  if c.callback.__module__.startswith("csolve."))
# ``solve``'s help is worded in csolve/cli/solve.py, which gets its examples separately
CSOLVE = str(Path(sys.executable).with_name("csolve"))


def help_of(capsys, *args: str) -> str:
    os.environ["COLUMNS"] = "200"  # one line per option: the checks below read whole phrases
    try:
        code, out, err = run(capsys, *args, "--help")
    finally:
        del os.environ["COLUMNS"]
    assert code == 0, err
    return out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_shows_an_example(capsys, command):
    out = help_of(capsys, command)
    assert "Examples:" in out
    assert f"csolve {command}" in out.split("Examples:", 1)[1]
    assert "``" not in out  # reStructuredText markup would show literally


@pytest.mark.parametrize("command", COMMANDS)
def test_every_example_shows_as_written(capsys, command):
    """An example's ``[extra]`` is text, not rich markup that the help would swallow."""
    out = " ".join(help_of(capsys, command).split())
    registered = next(c for c in app.registered_commands
                      if (c.name or c.callback.__name__.replace("_", "-")) == command)
    epilog = registered.epilog or ""
    for example in epilog.split("Examples:", 1)[-1].split("\n\n"):
        if example.startswith("csolve "):
            assert " ".join(example.replace("\\[", "[").split()) in out


def test_no_markup_leaks_from_any_help(capsys):
    for command in COMMANDS:
        assert "``" not in help_of(capsys, command)


def test_root_help_and_version(capsys):
    out = help_of(capsys)
    assert "Examples:" in out and "``" not in out
    assert "--install-completion" in out and "--show-completion" in out
    for flag in ("-V", "--version"):
        code, out, _ = run(capsys, flag)
        assert code == 0 and out.startswith("csolve ")


@pytest.mark.parametrize(("args", "choices"), [
    (("explain",), "pretty|line|json|svg|html"),
    (("render",), "svg|html"),
    (("generate",), "none|rot180|rot90|mirror|diagonal"),
    (("bench",), "work-stealing"),
    (("rate",), "pretty|line|json"),
])
def test_choices_are_listed(capsys, args, choices):
    assert choices in help_of(capsys, *args)


def test_shell_completion_completes_choices():
    env = dict(os.environ, _CSOLVE_COMPLETE="complete_bash",
               COMP_WORDS="csolve render sudoku x.txt --output ", COMP_CWORD="5")
    r = subprocess.run([CSOLVE], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["svg", "html"]
    env.update(COMP_WORDS="csolve ren", COMP_CWORD="1")
    r = subprocess.run([CSOLVE], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.stdout.split() == ["render"]


def test_listings_cite_works_by_author(capsys):
    os.environ["COLUMNS"] = "250"
    try:
        outs = {cmd: run(capsys, cmd)[1] for cmd in ("list-backends", "list-rules")}
    finally:
        del os.environ["COLUMNS"]
    for out in outs.values():
        assert "seed" not in out.lower()
    assert "Chiu, Nasiri & Rashid 2012" in outs["list-backends"]
    assert "Vandecasteele & Trappett 2021" in outs["list-backends"]
    assert "Tarhini 2011" in outs["list-rules"]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_bound_too_long_to_read_in_any_help(capsys, command):
    """Counts bounded at 2**62 say so when passed, not as a 19-digit range in the help."""
    assert "4611686018427387904" not in help_of(capsys, command)


@pytest.mark.parametrize("option", ["--limit", "--escalate-after"])
def test_counts_past_the_bound_are_one_line(capsys, option):
    code, out, err = run(capsys, "solve", "sudoku", "puzzles/sudoku/9x9-hard.txt", option,
                         str(2**63))
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {option} must be at most 4,611,686,018,427,387,904 "
                   "(2**62), got 9,223,372,036,854,775,808\n")
