"""The command line: outputs, exit codes, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import PUZZLES, ctrl_c_reaches_it, run_cli

HARD = str(PUZZLES / "sudoku" / "9x9-hard.txt")


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_cli(*args)


def write(tmp_path, text: str, name: str = "p.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_version_and_lists(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("csolve ")
    code, out, _ = run(capsys, "list-backends")
    assert code == 0 and "serial" in out
    code, out, _ = run(capsys, "list-plugins")
    assert code == 0 and "sudoku" in out
    code, out, _ = run(capsys, "list-rules")
    assert code == 0 and "hidden-single" in out
    code, out, _ = run(capsys, "list-engines")
    assert code == 0 and "sudoku9-bands" in out and "dfs" in out


def test_engine_option(capsys, sudoku, tmp_path):
    outs = []
    for engine in ("dfs", "sudoku9-bands"):
        code, out, _ = run(capsys, "solve", "sudoku", HARD, "--output", "line",
                           "--engine", engine)
        assert code == 0
        outs.append(out)
    assert outs[0] == outs[1]
    code, _, err = run(capsys, "solve", "sudoku", HARD, "--engine", "nope")
    assert code == 2 and "unknown engine" in err
    sixteen = str(PUZZLES / "sudoku" / "16x16.txt")
    code, _, err = run(capsys, "solve", "sudoku", sixteen, "--engine", "sudoku9-bands")
    assert code == 2 and err.count("\n") == 1 and "cannot search" in err
    mixed = write(tmp_path, open(HARD).read() + "1..4..2..3..4..1\n")
    code, out, err = run(capsys, "solve", "sudoku", mixed, "--engine", "sudoku9-bands")
    assert code == 2 and out == "" and "cannot search" in err  # refused before solving
    code, _, err = run(capsys, "solve", "sudoku", HARD, "--engine", "sudoku9-bands",
                       "--tactics", "singles")
    assert code == 2 and "generic search" in err


def test_solve_line_output_is_validated(capsys, sudoku):
    code, out, _ = run(capsys, "solve", "sudoku", HARD, "--output", "line")
    assert code == 0
    lines = out.split()
    puzzles = sudoku.parse(open(HARD).read(), HARD)
    assert len(lines) == len(puzzles)
    for p, line in zip(puzzles, lines, strict=True):
        (sol,) = sudoku.parse(line + "\n", "<out>")
        assert sudoku.validate(p, sol.data) == []


_DEPTH_FIRST = "a count, or a search for more than two solutions, stays depth-first"


@pytest.mark.parametrize(("kind", "file", "extra", "why"), [
    ("sudoku", "4x4.txt", ["--count"], _DEPTH_FIRST),
    ("sudoku", "4x4.txt", ["--limit", "3"], _DEPTH_FIRST),
    ("sudoku", "4x4.txt", ["--engine", "dfs"], "engine dfs searches every puzzle from the start"),
    ("sudoku", "4x4.txt", ["--all", "--limit", "2"],
     "a search that hands over each solution as it is found stays depth-first"),
    ("sudoku", "4x4.txt", ["--explain"], "--explain follows the steps of the generic search"),
    ("kakuro", "small.txt", [], "the learning engine cannot search kakuro puzzles"),
])
def test_escalate_after_that_changes_nothing_gets_a_note(capsys, kind, file, extra, why):
    """As ``--workers`` on a one-worker backend: a note on stderr, and the solve as before."""
    path = str(PUZZLES / kind / file)
    code, out, err = run(capsys, "solve", kind, path, "--escalate-after", "5", "--output",
                         "line", *extra)
    assert code == 0 and out
    assert f"csolve: note: --escalate-after changes nothing: {why}\n" in err
    _, _, err = run(capsys, "solve", kind, path, "--output", "line", *extra)
    assert "--escalate-after" not in err
    _, _, err = run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                    "--escalate-after", "5")
    assert "--escalate-after" not in err  # where it takes effect: no note


@pytest.mark.parametrize("escalate, moved", [(None, 3), ("0", 0), ("1000000", 0)])
def test_escalate_after_option(capsys, sudoku, escalate, moved):
    """Three of the bundled evil 16x16 puzzles need more than the default budget of
    depth-first nodes and move to the learning engine; ``--escalate-after 0`` (never) or a
    budget above their needs keeps them on depth-first search."""
    path = str(PUZZLES / "sudoku" / "16x16-generated-minimal.txt")
    extra = [] if escalate is None else ["--escalate-after", escalate]
    code, out, _ = run(capsys, "solve", "sudoku", path, "--output", "json", *extra)
    assert code == 0
    puzzles = sudoku.parse(open(path).read(), path)
    objs = [json.loads(line) for line in out.splitlines()]
    assert len(objs) == len(puzzles)
    for p, obj in zip(puzzles, objs, strict=True):
        assert obj["status"] == "solved"
        assert sudoku.validate(p, np.array(obj["solution"], dtype=np.int64).ravel()) == []
    assert sum(obj.get("took_over_from") == "dfs" for obj in objs) == moved


def test_solve_json_output(capsys):
    code, out, _ = run(capsys, "solve", "sudoku", HARD, "--output", "json", "--count")
    assert code == 0
    for line in out.splitlines():
        obj = json.loads(line)
        assert obj["status"] == "solved" and obj["count"] == 1 and obj["exact"]
        assert len(obj["solution"]) == 9 and "nodes" in obj["stats"]


def test_pretty_output_draws_a_grid(capsys):
    code, out, _ = run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                       "--output", "pretty")
    assert code == 0 and "┏" in out and "solved" in out


def test_count_limit_and_all(capsys, tmp_path):
    f = write(tmp_path, "." * 16 + "\n")
    code, out, _ = run(capsys, "solve", "sudoku", f, "--count", "--output", "line")
    assert code == 0 and out.strip() == "288"
    code, out, _ = run(capsys, "solve", "sudoku", f, "--count", "--limit", "2",
                       "--output", "line")
    assert code == 0 and out.strip() == "2+"
    code, out, _ = run(capsys, "solve", "sudoku", f, "--all", "--output", "line")
    assert code == 0 and len(set(out.split())) == 288


def test_counts_for_people_have_thousands_separated(capsys, tmp_path):
    # a 6x6 with only its first row given: 28,200,960 / 6! solutions
    f = write(tmp_path, " ".join(["1", "2", "3", "4", "5", "6"] + ["0"] * 30) + "\n")
    code, out, _ = run(capsys, "solve", "sudoku", f, "--count", "--output", "pretty")
    assert code == 0 and "39,168 solutions" in out
    code, out, _ = run(capsys, "solve", "sudoku", f, "--count", "--output", "line")
    assert code == 0 and out.strip() == "39168"  # for programs: a plain number


@pytest.mark.parametrize("command", ["validate", "solve", "explain"])
def test_a_file_name_is_printed_as_it_is(capsys, tmp_path, command):
    """Not read as markup ("[red]") or an emoji code (":thumbs_up:", or ":100:" that a
    file's hundredth line and the colon after it make)."""
    name = "[red]a:thumbs_up:.txt"
    f = write(tmp_path, "1234341221434321\n", name)
    args = ("--output", "pretty") if command != "validate" else ()
    code, out, _ = run(capsys, command, "sudoku", f, *args)
    assert code == 0 and f"{name}:1" in out


def test_no_solution_exit_code(capsys, tmp_path):
    f = write(tmp_path, "1..4..2..3..4..1\n")
    code, out, _ = run(capsys, "solve", "sudoku", f, "--output", "line")
    assert code == 1 and "no-solution" in out


def test_timeout_exit_code(capsys, tmp_path):
    f = write(tmp_path, " ".join(["0"] * 625) + "\n")
    code, out, err = run(capsys, "solve", "sudoku", f, "--count", "--timeout", "0.2",
                         "--output", "line")
    assert code == 3 and out.strip().endswith("+")
    assert "1 puzzle: 0 solved, 1 timed out in " in err  # not only the exit code says so


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("4..1..2x..3..4..\n", ":1:8:", "unknown symbol 'x'"),
        ("123\n", ":1:", "3 symbols"),
        ("# c\n11..............\n", ":2:", "conflicting givens"),
        # a grid over several lines: the line of the row where the value repeats
        ("1 . . .\n. . . .\n. . . .\n1 . . .\n", ":4:", "value 1 twice in column 1"),
        ("1 0 0 0\n0 0 0 0\n0 0 2 2\n0 0 0 0\n", ":3:", "value 2 twice in row 3"),
        ("+-----+-----+\n| 1 . | . . |\n| . 1 | . . |\n+-----+-----+\n"
         "| . . | . . |\n| . . | . . |\n+-----+-----+\n", ":3:", "value 1 twice in box 1"),
        ("1 2 3\n", ":1:", "3 numbers"),
        ("", "", "no puzzle"),
        ("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17\n", ":1:", "out of range"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, tmp_path, text, where, words):
    f = write(tmp_path, text)
    code, out, err = run(capsys, "solve", "sudoku", f)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f + where in err and words in err


def test_missing_file_and_unknown_names(capsys, tmp_path):
    code, _, err = run(capsys, "solve", "sudoku", str(tmp_path / "nope.txt"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "solve", "nonogram", HARD)
    assert code == 2 and "unknown puzzle type" in err
    code, _, err = run(capsys, "solve", "sudoku", HARD, "--backend", "nope")
    assert code == 2 and "unknown backend" in err
    code, _, err = run(capsys, "solve", "sudoku", HARD, "--rules", "nope")
    assert code == 2 and "unknown rule" in err


def test_validate_reads_standard_input_once():
    """``validate KIND - --against -``: the second read found nothing, "the input is
    empty"; the two cannot share standard input, and the error says so."""
    r = subprocess.run([sys.executable, "-m", "csolve", "validate", "sudoku", "-", "--against",
                        "-"], input="1234341221434321\n", capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("csolve: error: FILE and --against cannot both be standard input "
                        "('-'): it is read once; pass a file for one of them\n")


def test_validate_command(capsys, tmp_path):
    good = "4231314223141423"
    bad = "4231314223141432"
    f = write(tmp_path, good + "\n")
    code, out, _ = run(capsys, "validate", "sudoku", f)
    assert code == 0 and "valid" in out
    f2 = write(tmp_path, bad + "\n", "bad.txt")
    code, out, _ = run(capsys, "validate", "sudoku", f2)
    assert code == 1 and "invalid" in out
    givens = write(tmp_path, "3...............\n", "givens.txt")
    code, out, _ = run(capsys, "validate", "sudoku", f, "--against", givens)
    assert code == 1 and "given" in out  # r1c1 = 3 was changed to 4
    # grids of another size than their puzzles: the files do not pair up, before any output
    nine = write(tmp_path, "3" + "." * 80 + "\n", "nine.txt")
    code, out, err = run(capsys, "validate", "sudoku", f, "--against", nine)
    assert (code, out) == (2, "")
    assert err == (f"csolve: error: {f}:1: 16 cells, against 81 cells in {nine}:1: is it the "
                   "right --against file?\n")


def test_stdin(tmp_path):
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku", "-", "--output",
                        "line"], input="." * 16 + "\n", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and len(r.stdout.strip()) == 16


def test_program_exit_codes_and_flushed_output(tmp_path):
    """The program (``python -m csolve``, the ``csolve`` script) ends quickly once a command
    is done: every line printed reaches the pipe, and the exit code is the command's."""
    def program(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "csolve", *args], capture_output=True,
                              text=True, timeout=300)

    r = program("solve", "sudoku", HARD, "--output", "json")
    assert r.returncode == 0
    assert [json.loads(line)["status"] for line in r.stdout.splitlines()] == ["solved"] * 5
    assert "5 solved" in r.stderr
    r = program("solve", "sudoku", str(tmp_path / "missing.txt"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such file" in r.stderr
    conflicting = write(tmp_path, "11" + "." * 79 + "\n")
    assert program("solve", "sudoku", conflicting).returncode == 2
    r = program("--version")
    assert r.returncode == 0 and r.stdout.startswith("csolve ")


@pytest.mark.parametrize("args", [("explain", "sudoku", HARD), ("rate", "sudoku", HARD),
                                  ("solve", "sudoku", HARD, "--output", "line"),
                                  ("list-backends",)])
def test_a_closed_output_pipe_ends_quietly_with_141(args):
    """``csolve explain ... | head -1``: once the reader is gone the program stops with the
    status a program ended by SIGPIPE has (not 1, which says "no solution") and no message.
    The pipe's reading end is closed before the program starts, so every write meets it."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([sys.executable, "-m", "csolve", *args], stdout=write_end,
                           stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    assert r.returncode == 141, r.stderr
    assert "Traceback" not in r.stderr and "error" not in r.stderr


@pytest.mark.parametrize("args", [("solve", "sudoku", HARD, "--output", "json"),
                                  ("explain", "sudoku", HARD), ("list-backends",)])
def test_output_that_cannot_be_written_is_one_line_and_exit_5(args):
    """``csolve solve ... > /dev/full``: a full disk is said as such, not called a bug."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "csolve", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode == 5, r.stderr
    # (after a note that a first run compiles the kernels, where the cache is cold)
    assert r.stderr.endswith("csolve: error: cannot write: No space left on device\n")
    assert r.stderr.count("error") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("args,code", [
    (("solve", "sudoku", HARD, "--output", "line"), 0),
    (("solve", "sudoku", "no-such-file.txt"), 2),
    (("rate", "sudoku", HARD, "--timeout", "1e-9", "--output", "line"), 3)])
def test_a_full_stderr_keeps_the_exit_code_of_what_happened(tmp_path, args, code):
    """``2>/dev/full``: stderr's notes (the kernels compiling, the file's summary, what ran
    out of time) and errors are lost, but the output is written and the exit code is the
    outcome's: never 1 (a puzzle has no solution) or 5 (the output could not be written)."""
    out = tmp_path / "out.txt"
    with open("/dev/full", "w") as full, open(out, "w") as stdout:
        r = subprocess.run([sys.executable, "-m", "csolve", *args], stdout=stdout,
                           stderr=full, timeout=300)
    assert r.returncode == code
    if args[0] == "solve" and code == 0:  # every solution written
        assert len(out.read_text().splitlines()) == 5


def test_help_loads_every_plugin_but_no_numerics():
    """``csolve --help`` loads every plugin (they may add commands); their entry-point
    modules import numpy and numba only when a hook is called, so help stays instant."""
    code = ("import sys; from csolve.cli import main; sys.argv = ['csolve', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "from csolve.plugins import get_plugin_manager\n"
            "names = sorted(n for n, _ in get_plugin_manager().list_name_plugin())\n"
            "print(names, 'numpy' in sys.modules, 'numba' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.endswith("False False") and all(
        name in last for name in ("'core'", "'kakuro'", "'str8ts'", "'sudoku'"))


def test_quick_exit_only_after_csolves_own_commands():
    from csolve.cli import _own_command
    from csolve.cli.app import app

    assert _own_command(["solve", "sudoku", "x.txt"]) and _own_command(["list-rules"])
    assert _own_command(["--help"]) and _own_command([])

    def plugin_cmd() -> None:
        """A command a plugin adds."""

    plugin_cmd.__module__ = "some_plugin.commands"
    app.command("plugin-cmd")(plugin_cmd)
    try:
        assert not _own_command(["plugin-cmd"])
    finally:
        app.registered_commands.pop()
    assert not _own_command(["plugin-cmd"])  # unknown: the ordinary exit too


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.sampled_from(list("0123456789.abcdefgABCDEFG#| -\n\t\x00é")),
                    max_size=400))
def test_garbage_never_raises_a_traceback(capsys, tmp_path, text):
    f = write(tmp_path, text, "garbage.txt")
    code, _, err = run(capsys, "solve", "sudoku", f, "--output", "line", "--timeout", "2")
    assert code in (0, 1, 2, 3)
    assert "Traceback" not in err


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_that_leaves_after_one_line_ends_the_program_with_141(tmp_path, unbuffered):
    """``csolve solve big.txt | head -1``: more output than a pipe holds, and the reader
    gone after one line. Unbuffered output (``PYTHONUNBUFFERED``, common in containers)
    writes a big text in one call that the pipe takes only in part; the rest must not be
    dropped without a word (exit 0) either."""
    lines = [x for x in (PUZZLES / "sudoku" / "9x9-easy.txt").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    big = tmp_path / "big.txt"
    big.write_text("\n".join(lines[i % len(lines)] for i in range(20_000)) + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    proc = subprocess.Popen([sys.executable, "-m", "csolve", "solve", "sudoku", str(big),
                             "--output", "line"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    first = proc.stdout.readline()
    proc.stdout.close()  # 1.6 MB to come: more than a pipe holds
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert len(first.strip()) == 81 and "Traceback" not in err


def _children(pid: int) -> list[str]:
    """The process ids of ``pid``'s children (Linux's /proc)."""
    from pathlib import Path

    return [c for f in Path(f"/proc/{pid}/task").glob("*/children")
            for c in f.read_text().split()]


@pytest.mark.parametrize("backend", ["serial", "locked-pool", "process-pool"])
def test_ctrl_c_writes_the_answers_found_and_reports_the_rest_interrupted(tmp_path, backend):
    """Ctrl-C as a terminal sends it (to every process of the job) while the second puzzle
    of a file is counted: the first puzzle's answer is written, the second comes back
    ``interrupted`` with what it had counted, one line says so, and the exit code is 130."""
    import signal

    endless = "5..........2.95.....8....6........2.....53..1....2........3.2.4......" + "." * 12
    f = tmp_path / "two.txt"
    f.write_text("2.....3.........\n" + endless + "\n")  # a 4x4 first: written at once
    proc = subprocess.Popen([sys.executable, "-m", "csolve", "solve", "sudoku", str(f),
                             "--count", "--output", "json", "--backend", backend,
                             "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=ctrl_c_reaches_it)
    first = json.loads(proc.stdout.readline())  # the 4x4 is done; the count has begun
    assert first["count"] == 12 and first["exact"]
    while backend == "process-pool" and proc.poll() is None and not _children(proc.pid):
        time.sleep(0.01)  # the pool's workers are starting: Ctrl-C reaches them as they do
    os.killpg(proc.pid, signal.SIGINT)
    rest, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    (second,) = [json.loads(line) for line in rest.splitlines()]
    assert second["status"] == "interrupted" and not second["exact"]
    assert err.splitlines()[-1] == "csolve: interrupted" and "Traceback" not in err


def test_a_files_summary_says_apart_the_kernels_compiled_during_the_run(capsys, monkeypatch):
    """Seconds spent compiling while the file is solved (counted by the compile listener)
    are said beside the puzzles' time, not in it."""
    import csolve.api
    from csolve.kernels import diskcache

    real = csolve.api.Solver.iter_blocks

    def compiling_first(self, *args, **kwargs):  # as the first run with new rules does
        monkeypatch.setattr(diskcache, "compile_seconds", diskcache.compile_seconds + 2e-6)
        yield from real(self, *args, **kwargs)

    monkeypatch.setattr(csolve.api.Solver, "iter_blocks", compiling_first)
    code, out, err = run(capsys, "solve", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                         "--output", "line")
    assert code == 0 and len(out.splitlines()) == 3, err
    assert re.fullmatch(r"3 puzzles: 3 solved in \S+ \S+ \(\S+ puzzles/s, after 2 .s "
                        r"compiling kernels\)", err.splitlines()[-1]), err


@pytest.mark.parametrize(("args", "said"), [
    (("--timeout", "nan"), "Invalid value for '--timeout': 'nan' is not a number"),
    (("--output", "nope"), "Invalid value for '--output': 'nope' is not one of 'pretty',"),
])
def test_a_bad_option_value_reads_as_plain_words(capsys, args, said):
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........", *args)
    assert code == 2 and not out and len(err.splitlines()) == 1
    assert err.startswith(f"csolve: error: {said}") and "Value error" not in err


def test_a_mistyped_option_given_as_a_backend_option_names_the_command_option(capsys):
    """``-O timout=5`` is no option of the backend but is close to ``--timeout``: one line
    that names it, exit 2 (not a slip of csolve's own)."""
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........", "-O", "timout=5")
    assert (code, out) == (2, "")
    assert err == ("csolve: error: -O timout: backend serial has no such option; did you "
                   "mean --timeout?\n")
    code, _, err = run(capsys, "solve", "sudoku", "2.....3.........", "-O", "zzz=5")
    assert code == 2 and err == ("csolve: error: backend 'serial' has no option 'zzz' (its "
                                 "options: none)\n")


def test_one_ctrl_c_sent_twice_is_one_interrupt_and_a_later_one_a_second(monkeypatch):
    """``timeout -s INT`` sends SIGINT to the command and again to its process group: the
    two are one Ctrl-C, which stops the search so that the answers found are written, not
    a Ctrl-C and a second one that interrupts at once and loses them. A second Ctrl-C
    that comes later still interrupts at once."""
    import signal

    import csolve.cli
    from csolve.cli.solve import stop_on_interrupt
    from csolve.kernels.abi import CTRL_STOP
    from csolve.search import new_ctrl

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal's
    try:
        monkeypatch.setattr(csolve.cli, "SAME_INTERRUPT_S", 3600.0)  # however slow the test
        ctrl = new_ctrl()
        with stop_on_interrupt(ctrl) as interrupted:
            signal.raise_signal(signal.SIGINT)  # its handler has run when this returns
            assert ctrl[CTRL_STOP] == 1 and interrupted()
            signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        monkeypatch.setattr(csolve.cli, "SAME_INTERRUPT_S", 0.0)  # the second comes later
        with pytest.raises(KeyboardInterrupt), stop_on_interrupt(new_ctrl()):
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_one_ctrl_c_sent_twice_as_the_command_winds_down_is_one(monkeypatch, capsys):
    """The same in the teardown: two at once are one Ctrl-C (the program still winds down
    in order and exits 130), where a second one later would end it at once."""
    import signal

    import csolve.cli

    monkeypatch.setattr(csolve.cli, "SAME_INTERRUPT_S", 3600.0)
    monkeypatch.setattr(csolve.cli, "_late_interrupts", [])
    csolve.cli._interrupted_in_teardown(signal.SIGINT, None)
    csolve.cli._interrupted_in_teardown(signal.SIGINT, None)  # returns: not a second Ctrl-C
    assert csolve.cli._after_late_interrupts(0) == 130
    assert capsys.readouterr().err == "csolve: interrupted\n"


def test_ctrl_c_once_the_command_is_done_is_one_line_not_a_traceback(tmp_path):
    """Ctrl-C that lands while the program winds down (here: as it stops the process
    pool, when it used to print a traceback or leave the pool's workers waiting forever):
    the pool still stops in order, the answers are written, one line says the program was
    interrupted, and the exit code is 130."""
    script = (
        "import importlib, os, signal, sys\n"
        "pools = importlib.import_module('csolve.backends.processes')\n"
        "from csolve.cli import run\n"
        "stop = pools.shutdown_all\n"
        "def interrupted_while_stopping():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    stop()\n"
        "pools.shutdown_all = interrupted_while_stopping\n"
        f"sys.argv = ['csolve', 'solve', 'sudoku', {HARD!r}, '--backend', 'process-pool',"
        " '--workers', '2', '--output', 'line']\n"
        "run()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, start_new_session=True, cwd=tmp_path,
                          preexec_fn=ctrl_c_reaches_it)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.splitlines()[-1] == "csolve: interrupted"
    assert "Traceback" not in proc.stderr
    assert len(proc.stdout.split()) == 5  # every answer written before
    from csolve.puzzle import get_puzzle_type

    sudoku = get_puzzle_type("sudoku")
    for puzzle, line in zip(sudoku.parse(open(HARD).read(), HARD), proc.stdout.split(),
                            strict=True):
        (answer,) = sudoku.parse(line + "\n", "<out>")
        assert sudoku.validate(puzzle, answer.data) == []


def test_all_with_a_limit_prints_solutions_only(capsys):
    code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--all", "--limit", "3",
                       "--output", "line")
    lines = out.split()
    assert code == 0 and len(lines) == 3 and len(set(lines)) == 3
    for line in lines:  # every line a solution that reads back and validates
        assert run(capsys, "validate", "sudoku", line)[0] == 0


def test_all_as_grids_reads_back_as_the_solutions_only(capsys, tmp_path):
    """``--all --output grid`` ends each puzzle with a comment, not the puzzle's grid again
    (which would read back as one more puzzle)."""
    _code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--all", "--limit", "3",
                        "--output", "grid")
    path = tmp_path / "grids.txt"
    path.write_text(out)
    code, out, _ = run(capsys, "solve", "sudoku", str(path), "--count", "--output", "line")
    assert code == 0 and out.split() == ["1", "1", "1"]
    lines = run(capsys, "solve", "sudoku", str(path), "--output", "line")[1].split()
    assert len(set(lines)) == 3
    for line in lines:  # each a valid grid that keeps the givens
        assert run(capsys, "validate", "sudoku", line)[0] == 0
        assert line[0] == "2" and line[6] == "3"


def test_a_count_as_grids_shows_the_first_solution_as_json_and_svg_do(capsys, tmp_path):
    """``--count --output grid``: the count in the header and the first solution below it
    (it drew the givens again, where json gives the solution and svg draws it)."""
    hard = str(PUZZLES / "sudoku" / "9x9-hard.txt")
    code, out, _ = run(capsys, "solve", "sudoku", hard, "--count", "--output", "grid")
    assert code == 0 and out.count(" solved, 1 solution\n") == 5
    path = tmp_path / "grids.txt"
    path.write_text(out)
    assert run(capsys, "validate", "sudoku", str(path), "--against", hard)[0] == 0
    code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--count", "--output",
                       "grid")
    assert code == 0 and out.startswith("# <text>:1 multiple, 12 solutions\n2 ")
    (path := tmp_path / "first.txt").write_text(out)
    assert run(capsys, "validate", "sudoku", str(path), "--against", "2.....3.........")[0] == 0


def test_all_pretty_says_whether_the_solutions_shown_are_all(capsys):
    """The closing line of ``--all --output pretty``: "in all" only when the count is whole."""
    _code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--all", "--limit", "3",
                        "--output", "pretty")
    assert out.rstrip().endswith("at least 3 solutions (limit reached)")
    _code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--all", "--output",
                        "pretty")
    assert out.rstrip().endswith("solutions in all") and "limit" not in out


@pytest.mark.parametrize("args, message", [
    (("--explain", "--count"), "--count, --all and --limit do not go with it"),
    (("--explain", "--all"), "do not go with it"),
    (("--workers", "5000", "--backend", "locked-pool"), "less than or equal to 1024"),
])
def test_options_that_cannot_be_honoured_are_refused(capsys, args, message):
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out


def test_long_lines_are_not_wrapped_in_a_pipe(capsys, tmp_path):
    """validate's problems and --stats lines are one line each, however long."""
    bad = "4231314223141432"
    code, out, _ = run(capsys, "validate", "sudoku", bad)
    assert code == 1 and all(len(line) > 0 for line in out.splitlines())
    code, out, err = run(capsys, "solve", "sudoku", HARD, "--stats", "--output", "line")
    stats = [line for line in err.splitlines() if "nodes" in line]
    assert len(stats) == 5 and all("backend serial" in line and "time" in line
                                   for line in stats)


def test_bench_of_a_puzzle_without_a_solution_agrees_and_a_bad_report_path_is_said_first(
        capsys, tmp_path):
    """A puzzle with no solution is an answer every backend must agree on, not a wrong
    one (exit 0, counted in the row); a ``--json`` path that cannot be written is a usage
    error before any run."""
    unsolvable = "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3.."
    f = tmp_path / "none.txt"
    f.write_text(unsolvable + "\n" + (PUZZLES / "sudoku" / "4x4.txt").read_text())
    report = tmp_path / "bench.json"
    code, out, err = run(capsys, "bench", "sudoku", str(f), "--repeat", "1", "--backends",
                         "serial,locked-pool", "--workers", "2", "--json", str(report))
    assert code == 0, err
    rows = json.loads(report.read_text())["files"][str(f)]
    assert [(r["backend"], r["ok"], r["unsolvable"]) for r in rows] == [
        ("serial", True, 1), ("locked-pool", True, 1)]
    assert "without a solution" in out
    code, out, err = run(capsys, "bench", "sudoku", str(f), "--repeat", "1", "--backends",
                         "serial", "--json", str(tmp_path))
    assert code == 2 and not out
    assert err == f"csolve: error: --json {tmp_path}: cannot write it (Is a directory)\n"
    code, out, err = run(capsys, "bench", "sudoku", str(f), "--json", "")
    assert code == 2 and not out and err == "csolve: error: --json needs a file name\n"


def test_bench_options_go_to_the_backends_that_read_them(capsys, tmp_path):
    """``-O`` reaches the backends that read it (the serial baseline reads none); one that no
    named backend reads, or a value out of range, is said before any run."""
    report = tmp_path / "bench.json"
    code, out, err = run(capsys, "bench", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                         "--repeat", "1", "--backends", "static-partition", "--workers", "2",
                         "-O", "k=2", "--json", str(report))
    assert code == 0, err
    rows = json.loads(report.read_text())["files"][str(PUZZLES / "sudoku" / "4x4.txt")]
    assert [(r["backend"], r["ok"]) for r in rows] == [("serial", True),
                                                        ("static-partition", True)]
    for option, words in (("probe=1", "none of the backends serial reads it"),
                          ("k=0", "option k wants a whole number >= 1")):
        backends = "serial" if option.startswith("probe") else "static-partition"
        code, out, err = run(capsys, "bench", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                             "--repeat", "1", "--backends", backends, "-O", option)
        assert code == 2 and words in err and err.count("\n") == 1 and not out


def test_a_ctrl_c_that_breaks_an_import_is_an_interrupt_not_a_bug(capsys, monkeypatch):
    """Ctrl-C while a module loads (numba's, say) can come back as an ImportError raised
    from the KeyboardInterrupt: that is the user's Ctrl-C, not an internal error."""
    import csolve.api

    def broken_import(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise ImportError("numba._devicearray failed to import") from e

    monkeypatch.setattr(csolve.api, "Solver", broken_import)
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........")
    assert code == 130 and err == "csolve: interrupted\n"


@pytest.mark.parametrize("then", ["fails", "goes-on"])
def test_a_ctrl_c_swallowed_by_a_compile_is_an_interrupt_not_a_bug(capsys, monkeypatch, then):
    """Ctrl-C in a callback from compiled code (llvmlite's, while numba compiles) cannot be
    raised there: Python reports it as "Exception ignored" with a traceback, and the compile
    then fails with an error of its own, or goes on as if nothing had been pressed. Either
    way it is the user's Ctrl-C: one line, exit 130."""
    import ctypes
    import time

    import csolve.api

    def interrupted_compile(*args, **kwargs):
        def callback():
            raise KeyboardInterrupt

        ctypes.CFUNCTYPE(None)(callback)()  # Python ignores it, as in llvmlite's callback
        if then == "fails":
            raise RuntimeError("no compiled object yet for <Library '_backtrack'>")
        for _ in range(60_000):  # the compile goes on; the Ctrl-C comes back and ends it
            time.sleep(0.001)
        raise AssertionError("the Ctrl-C was lost")

    monkeypatch.setattr(csolve.api, "Solver", interrupted_compile)
    hook = sys.unraisablehook
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........")
    assert code == 130 and err == "csolve: interrupted\n"
    assert sys.unraisablehook is hook  # the program's own hook goes with it


def test_a_ctrl_c_while_the_program_loads_is_one_line(tmp_path):
    """The program's entry point loads the command line inside its own Ctrl-C handling."""
    script = ("import builtins, signal, os\n"
              "real = builtins.__import__\n"
              "def interrupted(name, *args, **kwargs):\n"
              "    if name == 'csolve.cli':\n"
              "        os.kill(os.getpid(), signal.SIGINT)\n"
              "    return real(name, *args, **kwargs)\n"
              "builtins.__import__ = interrupted\n"
              "from csolve.program import run\n"
              "run()\n")
    proc = subprocess.run([sys.executable, "-c", script, "solve", "sudoku", "2.....3........."],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          preexec_fn=ctrl_c_reaches_it)
    assert proc.returncode == 130 and proc.stderr == "csolve: interrupted\n"
    assert not proc.stdout


def test_bench_with_workers_0_uses_one_per_core(capsys, tmp_path):
    from csolve.defaults import cores

    report = tmp_path / "bench.json"
    code, out, err = run(capsys, "bench", "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"),
                         "--workers", "0", "--repeat", "1", "--backends", "locked-pool",
                         "--json", str(report))
    assert code == 0, err
    rows = json.loads(report.read_text())["files"]
    (row,) = [r for f in rows.values() for r in f if r["backend"] == "locked-pool"]
    assert row["workers"] == cores() and row["ok"]
    if row["wall_s"] < 0.05:  # a 4x4 file: the ratios are fixed costs, and the table says so
        assert "ratios measure fixed costs, not the search" in " ".join(err.split())


def test_bench_counts_only_when_asked(capsys, tmp_path):
    """Without --count, bench times the first solution (a loop variable named as the flag
    made every bench count); with it, every solution."""
    many = "2.....3........."  # an under-constrained 4x4: several solutions
    for flag, want in (((), 1), (("--count",), 12)):
        report = tmp_path / f"bench{len(flag)}.json"
        code, _, err = run(capsys, "bench", "sudoku", many, "--workers", "2", "--repeat", "1",
                           "--backends", "locked-pool", "--json", str(report), *flag)
        assert code == 0, err
        rows = [r for f in json.loads(report.read_text())["files"].values() for r in f]
        assert {r["solutions"] for r in rows} == {want}


def test_an_output_encoding_too_narrow_is_one_line(tmp_path):
    """PYTHONIOENCODING=ascii: pretty grids need box-drawing characters; line output and
    the timings (µs written "us") need none."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    argv = [sys.executable, "-m", "csolve", "solve", "sudoku", HARD]
    pretty = subprocess.run([*argv, "--output", "pretty"], capture_output=True, text=True,
                            env=env, timeout=300)
    assert pretty.returncode == 2 and "Traceback" not in pretty.stderr
    assert pretty.stderr.splitlines()[-1].startswith(
        "csolve: error: the output's encoding (ascii) cannot write")
    line = subprocess.run([*argv, "--output", "line", "--stats"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert line.returncode == 0 and len(line.stdout.split()) == 5, line.stderr


def test_explain_lines_of_several_puzzles_say_whose_steps_they_are(tmp_path):
    """``explain --output line`` on a file of puzzles heads each one's steps with where it
    is; each puzzle's placements, applied to its givens, give a grid the validator passes."""
    import re

    from csolve.puzzle import get_puzzle_type

    lines = (PUZZLES / "sudoku" / "9x9-easy.txt").read_text().splitlines()[1:3]
    f = tmp_path / "two.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli("explain", "sudoku", str(f), "--output", "line")
    assert code == 0, err
    heads = [i for i, row in enumerate(out.splitlines()) if row.startswith(str(f))]
    assert [out.splitlines()[i] for i in heads] == [f"{f}:1", f"{f}:2"]
    sudoku = get_puzzle_type("sudoku")
    puzzles = sudoku.parse(f.read_text(), str(f))
    parts = out.split(f"{f}:2\n")
    for puzzle, text, part in zip(puzzles, lines, parts, strict=True):
        grid = [int(ch) if ch.isdigit() else 0 for ch in text]
        for r, c, v in re.findall(r"^r(\d)c(\d) = (\d):", part, re.M):
            grid[(int(r) - 1) * 9 + int(c) - 1] = int(v)
        solution = np.array(grid, dtype=np.int64)
        assert 0 not in solution
        assert sudoku.validate(puzzle, solution) == []


# each text is well past a pipe's 64 KiB, so the reader goes while csolve still writes
@pytest.mark.parametrize("args", [("render", "sudoku",
                                   str(PUZZLES / "sudoku" / "16x16-generated-minimal.txt"),
                                   "--solve"),
                                  ("explain", "sudoku", str(PUZZLES / "sudoku" / "16x16.txt"),
                                   "--output", "html"),
                                  ("generate", "sudoku", "--count", "300", "--seed", "1",
                                   "--output", "svg")])
def test_a_picture_cut_short_by_its_reader_ends_with_141(args):
    """A picture or page is one big text: unbuffered, the pipe took its first part and the
    rest was dropped with exit 0, as if the whole had been written."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "csolve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    first = proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert first.startswith(b"<") and "Traceback" not in err


# two 4x4 puzzles of 12 solutions each, and one with none
MIXED = "2.....3.........\n1234............\n12....3.........\n"


def test_all_as_lines_says_whose_solutions_follow_and_reads_back(capsys, tmp_path):
    # the solutions of several puzzles ran together, and a puzzle with none was left out
    from csolve.puzzle import get_puzzle_type

    f = write(tmp_path, MIXED)
    code, out, _ = run(capsys, "solve", "sudoku", f, "--all", "--output", "line")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"# {f}:1" and lines[13] == f"# {f}:2"
    assert lines[-1] == "12....3......... # no-solution" and len(lines) == 27
    sudoku = get_puzzle_type("sudoku")
    givens = sudoku.parse(MIXED, "lines")
    for k, block in enumerate((lines[1:13], lines[14:26])):
        assert len(set(block)) == 12
        for line in block:
            solution = sudoku.parse(line, "lines")[0]
            assert sudoku.validate(givens[k], sudoku.as_solution(solution)) == []
    assert len(sudoku.parse(out, "lines")) == 25  # the comments are skipped
    code, out, _ = run(capsys, "solve", "sudoku", MIXED.split()[0], "--all", "--output", "line")
    assert code == 0 and len(out.splitlines()) == 12 and "#" not in out  # one puzzle: bare


def test_json_says_why_each_search_ended(capsys, tmp_path):
    f = write(tmp_path, MIXED)
    code, out, _ = run(capsys, "solve", "sudoku", f, "--all", "--output", "json")
    last = [json.loads(x) for x in out.splitlines() if "solution_index" not in x]
    assert [(o["end"], o["count"], o["exact"]) for o in last] == [
        ("exhausted", 12, True), ("exhausted", 12, True), ("exhausted", 0, True)]
    code, out, _ = run(capsys, "solve", "sudoku", f, "--count", "--limit", "3", "--output",
                       "json")
    assert [(json.loads(x)["end"], json.loads(x)["exact"]) for x in out.splitlines()] == [
        ("limit", False), ("limit", False), ("exhausted", True)]


def test_bench_runs_cut_short_by_the_time_limit_give_no_speedup(capsys, tmp_path):
    # speedups were worked out from runs that all timed out (the limit over the limit), and
    # the bench exited 0
    big = "5..........2.95.....8....6........2.....53..1....2........3.2.4......6.5.4.2....."
    report = tmp_path / "bench.json"
    code, _, err = run(capsys, "bench", "sudoku", big, "--count", "--timeout", "0.05",
                       "--backends", "locked-pool", "--workers", "2", "--repeat", "1",
                       "--json", str(report))
    rows = [r for f in json.loads(report.read_text())["files"].values() for r in f]
    assert code == 3 and len(rows) == 2 and all(r["timeouts"] for r in rows)
    assert all(r["speedup"] is None and r["efficiency"] is None for r in rows)
    assert "no speedup is given" in " ".join(err.split())


@pytest.mark.parametrize("backend", ["serial", "locked-pool", "process-pool"])
def test_sigterm_stops_every_worker_and_says_terminated(tmp_path, backend):
    # timeout(1) or a process manager: the worker processes were killed mid-write and
    # Python warned of their leaked semaphores; now the workers stop as on Ctrl-C, and the
    # answers found are written (they were lost: nothing at all on stdout with one worker)
    import signal

    endless = "5..........2.95.....8....6........2.....53..1....2........3.2.4......" + "." * 12
    f = tmp_path / "two.txt"
    f.write_text("2.....3.........\n" + endless + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "csolve", "solve", "sudoku", str(f),
                             "--count", "--output", "json", "--backend", backend,
                             "--workers", "1" if backend == "serial" else "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert json.loads(proc.stdout.readline())["count"] == 12  # the count has begun
    while backend == "process-pool" and proc.poll() is None and not _children(proc.pid):
        time.sleep(0.01)  # the pool's workers are starting
    proc.send_signal(signal.SIGTERM)
    proc.send_signal(signal.SIGTERM)  # as timeout(1) sends it: to the command, to its group
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 143, err
    assert err.endswith("csolve: terminated\n"), err
    assert " 1 multiple, 1 interrupted in " in err.splitlines()[-2], err  # the summary
    stopped = json.loads(out)
    assert (stopped["puzzle"], stopped["status"], stopped["exact"]) == (2, "interrupted", False)
    for _ in range(6000):  # nothing of the job is left (its helpers end as they see it go)
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    else:
        raise AssertionError("processes of the job are left after a minute")


def test_list_types_names_every_type_its_formats_and_what_else_it_does(capsys, monkeypatch):
    """Where a user finds the puzzle types (they were in list-plugins' table only)."""
    import csolve

    monkeypatch.setenv("COLUMNS", "250")  # one line a type
    code, out, _ = run(capsys, "list-types")
    assert code == 0
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in out.splitlines() if line.startswith("│")}
    assert set(rows) == set(csolve.puzzle_types())
    for name, ptype in csolve.puzzle_types().items():
        plugin, formats, also, what = rows[name]
        assert formats == ", ".join(ptype.formats) and what == ptype.description
    assert rows["sudoku"][:3] == ["sudoku", "line, numbers, grid, sdk",
                                  "generate, pictures, grid output"]


def test_process_pool_shows_its_one_row_of_shared_work(capsys):
    """process-pool reports its workers as one "pool" row: a single row was taken for a
    search alone and left out, so its JSON had no workers and --stats no table."""
    code, out, err = run(capsys, "solve", "sudoku", "." * 16, "--count", "--backend",
                         "process-pool", "--workers", "2", "-O", "probe=0", "--output", "json",
                         "--stats")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["count"] == 288 and obj["exact"]
    (row,) = obj["workers"]
    assert row["worker"] == "pool" and row["calls"] >= 1 and row["nodes"] == obj["stats"]["nodes"]
    assert "per worker" in err
    code, out, _ = run(capsys, "solve", "sudoku", "2.....3.........", "--count", "--output",
                       "json")
    assert code == 0 and "workers" not in json.loads(out)  # a search alone: no rows
