"""A broken third-party plugin cannot take csolve down.

Each test installs real plugins the way pip would leave them: a module and a ``*.dist-info``
folder whose ``entry_points.txt`` names it under the ``csolve`` group, on ``sys.path`` (or
on ``PYTHONPATH`` for the program run as a subprocess).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from csolve import plugins

from .helpers import PUZZLES

HARD = str(PUZZLES / "sudoku" / "9x9-hard.txt")

RAISES_ON_IMPORT = "raise RuntimeError('the plugin is broken')\n"
RAISES_IN_PUZZLES = """
from csolve.hookspecs import hookimpl
from csolve_sudoku.plugin import Sudoku as SudokuType


class Half(SudokuType):
    name = "half-registered"


@hookimpl
def csolve_register_puzzles(register):
    register(Half())
    raise ValueError("no puzzles today")
"""
RAISES_IN_COMMANDS = """
from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_commands(cli):
    raise KeyError("commands")
"""
UNKNOWN_HOOK = """
from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_everything(register):
    pass
"""
SAME_NAME = """
from csolve.hookspecs import hookimpl
from csolve.backends.serial import SerialBackend
from csolve_sudoku.plugin import Sudoku as SudokuType


@hookimpl
def csolve_register_puzzles(register):
    register(SudokuType())


class Imposter(SerialBackend):
    pass


@hookimpl
def csolve_register_backends(register):
    register(Imposter())
"""


def install(root: Path, dist: str, modules: dict[str, str]) -> Path:
    """A distribution ``dist`` 0.1 whose entry points are ``modules`` (name: source)."""
    root.mkdir(parents=True, exist_ok=True)
    info = root / f"{dist}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = ["[csolve]"]
    for name, source in modules.items():
        module = f"{dist}_{name}".replace("-", "_")
        (root / f"{module}.py").write_text(textwrap.dedent(source))
        lines.append(f"{name} = {module}")
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture()
def site(tmp_path, monkeypatch):
    """A fresh plugin manager that also sees the distributions installed under ``site``."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.delenv("CSOLVE_LOAD_PLUGINS", raising=False)
    monkeypatch.delenv("CSOLVE_DEBUG", raising=False)
    before = set(sys.modules)
    plugins.reset()
    yield root
    plugins.reset()
    for name in set(sys.modules) - before:
        if name.startswith("brokenplug"):
            del sys.modules[name]


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("csolve: warning:")]


def test_a_plugin_that_fails_to_import_is_reported_once_and_skipped(site, capsys):
    install(site, "brokenplug", {"broken": RAISES_ON_IMPORT})
    from csolve.backends import get_backend
    from csolve.puzzle import all_puzzle_types, get_puzzle_type

    assert get_puzzle_type("sudoku").name == "sudoku"
    assert {"sudoku", "kakuro", "str8ts"} <= set(all_puzzle_types())
    assert get_backend("serial").name == "serial"
    err = capsys.readouterr().err
    (line,) = warnings(err)
    assert "'broken'" in line and "brokenplug 0.1" in line and "the plugin is broken" in line
    assert "CSOLVE_DEBUG=1" in line and "Traceback" not in err
    names = [p.name for p in plugins.list_plugins()]
    assert "broken" not in names and {"core", "sudoku"} <= set(names)


def test_a_raising_hook_contributes_nothing_and_the_rest_works(site, capsys):
    install(site, "brokenplug", {"half": RAISES_IN_PUZZLES})
    from csolve.puzzle import all_puzzle_types
    from csolve.solver import SolveOptions, Status, solve_one

    types = all_puzzle_types()
    types = all_puzzle_types()  # asked twice, reported once
    assert "half-registered" not in types and "sudoku" in types
    (line,) = warnings(capsys.readouterr().err)
    assert "'half'" in line and "csolve_register_puzzles" in line and "no puzzles today" in line
    sudoku = types["sudoku"]
    p = sudoku.parse(open(HARD).read(), HARD)[0]
    r = solve_one(sudoku, p, SolveOptions())
    assert r.status is Status.SOLVED and sudoku.validate(p, r.solutions[0]) == []


def test_a_hook_csolve_does_not_have_unloads_that_plugin_only(site, capsys):
    install(site, "brokenplug", {"typo": UNKNOWN_HOOK})
    from csolve.rules import all_rules

    assert "hidden-single" in all_rules()
    (line,) = warnings(capsys.readouterr().err)
    assert "'typo'" in line and "csolve_register_everything" in line
    assert "typo" not in [p.name for p in plugins.list_plugins()]


WRONG_ARGUMENT = """
from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(reg):
    pass
"""


def test_a_hook_with_a_wrong_argument_name_says_which(site, capsys):
    """pluggy says why it refuses a hook implementation on the last line of its message:
    the one-line warning keeps it."""
    install(site, "brokenplug", {"argname": WRONG_ARGUMENT})
    from csolve.puzzle import all_puzzle_types

    assert "sudoku" in all_puzzle_types()
    (line,) = warnings(capsys.readouterr().err)
    assert "'argname'" in line and "csolve_register_puzzles" in line
    assert "Argument(s) {'reg'} are declared in the hookimpl but can not be found" in line


REGISTERS_A_CLASS = """
from csolve.hookspecs import hookimpl
from csolve_sudoku.plugin import Sudoku


class Mine(Sudoku):
    name = "mine"


class Nameless(Sudoku):
    name = ""


@hookimpl
def csolve_register_puzzles(register):
    register(Mine)
    register(Nameless())
"""


def test_registering_a_class_or_a_nameless_type_is_said(site, capsys):
    install(site, "brokenplug", {"klass": REGISTERS_A_CLASS})
    from csolve.puzzle import all_puzzle_types

    types = all_puzzle_types()
    assert "sudoku" in types and "mine" not in types and "" not in types
    lines = warnings(capsys.readouterr().err)
    assert len(lines) == 1 and "'klass'" in lines[0]  # once per plugin and stage
    assert "register an instance with a name, register(MyType()), not a class" in lines[0]


def test_a_name_registered_twice_is_an_error_naming_both(site, capsys):
    install(site, "brokenplug", {"dupe": SAME_NAME})
    from csolve.backends import get_backend
    from csolve.plugins import PluginConflictError
    from csolve.puzzle import get_puzzle_type

    with pytest.raises(PluginConflictError) as e:
        get_puzzle_type("sudoku")
    assert "'sudoku'" in str(e.value) and "'dupe' (brokenplug 0.1)" in str(e.value)
    from csolve.backends.serial import SerialBackend

    # a name the core has stays the core's: the other plugin's is skipped
    assert type(get_backend("serial")) is SerialBackend
    assert get_puzzle_type("kakuro").name == "kakuro"  # the rest keeps working
    assert get_backend("locked-pool").name == "locked-pool"
    err = capsys.readouterr().err
    lines = warnings(err)
    assert len(lines) == 2  # one per name, once each
    assert any("'dupe'" in x and "backend 'serial'" in x and "the core's is used" in x
               for x in lines)


def test_a_name_registered_twice_and_used_is_one_error_line(site):
    """The name asked for is said once, as the error (it was a warning, then the same text
    again as the error); another type's run still warns of it."""
    install(site, "brokenplug", {"dupe": SAME_NAME})
    r = program(site, "solve", "sudoku", HARD)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("csolve: error: puzzle type 'sudoku' is registered by both ")
    assert r.stderr.count("\n") == 1, r.stderr
    r = program(site, "solve", "kakuro", str(PUZZLES / "kakuro" / "small.txt"))
    assert r.returncode == 0 and "warning: puzzle type 'sudoku' is registered by both" in r.stderr


def test_a_rule_left_out_with_its_plugin_says_why(tmp_path):
    """Killer sums its cages with Kakuro's rule: run without the kakuro plugin, the error
    says that plugins were left out, not only that the rule is unknown (a fresh process:
    this one has built Killer models with the rule already)."""
    import os

    f = tmp_path / "k.txt"
    f.write_text("AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3\n")
    env = {**os.environ, "CSOLVE_LOAD_PLUGINS": "killer"}
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "killer", str(f)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2 and not r.stdout
    assert "the puzzle type builds its model with an unknown rule 'kakuro-sum'" in r.stderr
    assert "CSOLVE_LOAD_PLUGINS=killer loads only those plugins" in r.stderr
    env["CSOLVE_LOAD_PLUGINS"] = "killer,kakuro"
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "killer", str(f), "--count"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.split() == ["16"], r.stderr  # as brute force


def test_the_core_is_always_loaded(site, monkeypatch):
    monkeypatch.setenv("CSOLVE_LOAD_PLUGINS", "sudoku")
    plugins.reset()
    from csolve.backends import get_backend
    from csolve.puzzle import all_puzzle_types
    from csolve.rules import all_rules

    assert set(all_puzzle_types()) == {"sudoku"}
    assert get_backend("serial").name == "serial"
    assert "elimination" in all_rules()
    monkeypatch.setenv("CSOLVE_LOAD_PLUGINS", "")
    plugins.reset()
    assert all_puzzle_types() == {} and get_backend("serial").name == "serial"


def test_a_plugin_name_no_plugin_has_is_a_warning(site, monkeypatch, capsys):
    monkeypatch.setenv("CSOLVE_LOAD_PLUGINS", "sudoku,sudokku")
    plugins.reset()
    from csolve.puzzle import all_puzzle_types

    assert set(all_puzzle_types()) == {"sudoku"}
    (line,) = warnings(capsys.readouterr().err)
    assert "CSOLVE_LOAD_PLUGINS names 'sudokku', which no installed plugin is" in line
    assert "sudoku" in line.split("installed: ")[1]


def program(site: Path, *args: str, debug: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CSOLVE_LOAD_PLUGINS", "CSOLVE_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    if debug:
        env["CSOLVE_DEBUG"] = "1"
    return subprocess.run([sys.executable, "-m", "csolve", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_program_survives_every_kind_of_broken_plugin(site):
    install(site, "brokenplug", {"broken": RAISES_ON_IMPORT, "half": RAISES_IN_PUZZLES,
                                 "cmds": RAISES_IN_COMMANDS})
    r = program(site, "--version")
    assert r.returncode == 0 and r.stdout.startswith("csolve ")
    lines = warnings(r.stderr)
    assert len(lines) == 2 and "Traceback" not in r.stderr  # import, commands; once each
    assert any("'broken'" in x for x in lines) and any("'cmds'" in x for x in lines)
    r = program(site, "list-plugins")
    assert r.returncode == 0 and "sudoku" in r.stdout and "'half'" in r.stderr
    r = program(site, "solve", "sudoku", HARD, "--output", "line")
    assert r.returncode == 0 and len(r.stdout.split()) == 5
    r = program(site, "--version", debug=True)
    assert r.returncode == 0 and "Traceback" in r.stderr and "the plugin is broken" in r.stderr


A_STRING = """
from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    register("a-string")
"""
A_GHOST = """
from csolve.hookspecs import hookimpl
from csolve.puzzle import DeferredPuzzleType


@hookimpl
def csolve_register_puzzles(register):
    register(DeferredPuzzleType("ghost", "brokenplug_no_such_module:Ghost"))
"""


def test_list_plugins_reports_what_cannot_be_used_and_lists_the_rest(site):
    install(site, "brokenplug", {"odd": A_STRING, "deferred": A_GHOST})
    r = program(site, "list-plugins")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "sudoku" in r.stdout and "ghost" not in r.stdout
    lines = warnings(r.stderr)
    assert any("'a-string'" in x and "register an instance with a name" in x for x in lines)
    assert any("brokenplug_no_such_module" in x for x in lines)


CORE_RULE_NAME = """
from csolve.hookspecs import hookimpl
from csolve.rules import Rule


@hookimpl
def csolve_register_rules(register):
    register(Rule("elimination", "brokenplug_nowhere:propagate", "a rule named as the core's"))
"""


def test_a_plugin_naming_a_core_rule_is_skipped_and_every_type_still_solves(site):
    install(site, "brokenplug", {"dup": CORE_RULE_NAME})
    r = program(site, "list-plugins")
    assert r.returncode == 0
    (line,) = warnings(r.stderr)
    assert "'dup'" in line and "rule 'elimination'" in line and "the core's is used" in line
    r = program(site, "solve", "sudoku", HARD, "--output", "line")
    assert r.returncode == 0 and len(r.stdout.split()) == 5, r.stderr
    assert len(warnings(r.stderr)) == 1


BAD_PARSER = """
from csolve.hookspecs import hookimpl
from csolve.puzzle import PuzzleType


class BadParser(PuzzleType):
    name = "bad-parser"
    description = "a puzzle type whose reader has a bug"

    def parse(self, text, source, fmt=None):
        raise TypeError("a bug in the reader")


@hookimpl
def csolve_register_puzzles(register):
    register(BadParser())
"""


def solve_with_bad_parser(tmp_path, monkeypatch, capsys) -> tuple[int, str, Path]:
    """``csolve solve bad-parser FILE`` run in process: (exit code, stderr, FILE)."""
    from csolve.cli import main

    puzzle = tmp_path / "p.txt"
    puzzle.write_text("anything\n")
    monkeypatch.setattr(sys, "argv", ["csolve", "solve", "bad-parser", str(puzzle)])
    with pytest.raises(SystemExit) as e:
        main()
    return e.value.code, capsys.readouterr().err, puzzle


def test_a_plugins_bug_at_run_time_is_one_line_and_exit_4(site, tmp_path, monkeypatch, capsys):
    install(site, "brokenplug", {"badparse": BAD_PARSER})
    from csolve.cli import main

    code, err, _ = solve_with_bad_parser(tmp_path, monkeypatch, capsys)
    assert code == 4 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("csolve: error in plugin 'badparse' (brokenplug 0.1), in "
                          "brokenplug_badparse.BadParser.parse: TypeError: a bug in the reader "
                          "(a bug in that plugin; ")
    monkeypatch.setenv("CSOLVE_DEBUG", "1")  # the traceback, on request
    with pytest.raises(TypeError):
        main()


def test_a_parsers_value_error_is_the_inputs_and_names_the_plugin(site, tmp_path,
                                                                    monkeypatch, capsys):
    # a third party's parse that let int()'s ValueError out read as the user's bad input
    # with no word of whose reader it was
    install(site, "brokenplug", {"badparse": BAD_PARSER.replace(
        'raise TypeError("a bug in the reader")', 'int("x" + text[:0])')})
    code, err, puzzle = solve_with_bad_parser(tmp_path, monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"csolve: error: {puzzle}: cannot parse: invalid literal")
    assert ("(ValueError in plugin 'badparse' (brokenplug 0.1), in brokenplug_badparse."
            "BadParser.parse, not a PuzzleInputError)") in err


WRONG_RETURN = """
from csolve.hookspecs import hookimpl
from csolve_sudoku.plugin import Sudoku


class Odd(Sudoku):
    name = "odd-sudoku"

    def validate_many(self, puzzles, solutions):
        return None  # a list of lists of problems, by the contract


@hookimpl
def csolve_register_puzzles(register):
    register(Odd())
"""


def test_a_bug_with_a_plugins_type_in_use_names_the_plugin(site):
    """A plugin method that returns the wrong thing fails in csolve's code, where no frame
    is the plugin's: the line still says whose type was in use."""
    install(site, "brokenplug", {"odd": WRONG_RETURN})
    r = program(site, "solve", "odd-sudoku", HARD, "--output", "line")
    assert r.returncode == 4 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("csolve: internal error: TypeError: ")
    assert ("(puzzle type 'odd-sudoku' comes from plugin 'odd' (brokenplug 0.1): a bug there "
            "or in csolve; CSOLVE_DEBUG=1 shows the traceback)") in r.stderr
    r = program(site, "solve", "sudoku", HARD, "--output", "line")  # csolve's own: as it was
    assert r.returncode == 0


NONE_FROM = """
from csolve.hookspecs import hookimpl
from csolve_sudoku.plugin import Sudoku


class Odd(Sudoku):
    name = "odd-sudoku"

    def {method}(self, *args, **kwargs):
        return None


@hookimpl
def csolve_register_puzzles(register):
    register(Odd())
"""


@pytest.mark.parametrize("method, words", [
    ("parse", "parse returned None, not a list of puzzles"),  # was "no puzzle found"
    ("validate", "validate returned None, not a list of problems"),  # was taken as valid
])
def test_a_plugin_method_returning_none_is_its_bug_not_the_inputs(site, method, words):
    install(site, "brokenplug", {"odd": NONE_FROM.replace("{method}", method)})
    one = open(HARD).read().splitlines()[1]  # one puzzle: the path that checks it alone
    r = program(site, "solve", "odd-sudoku", one, "--backend", "locked-pool", "--workers", "2")
    assert r.returncode == 4 and r.stderr.count("\n") == 1, r.stderr
    assert f"puzzle type 'odd-sudoku': {words}" in r.stderr and "brokenplug" in r.stderr


NO_MARKER = """
from csolve_sudoku.plugin import Sudoku


class Odd(Sudoku):
    name = "odd-sudoku"


def csolve_register_puzzles(register):  # no @hookimpl: pluggy passes over it
    register(Odd())
"""


def test_a_hook_without_its_marker_is_named(site):
    install(site, "brokenplug", {"nodeco": NO_MARKER})
    r = program(site, "list-plugins")
    assert r.returncode == 0
    (line,) = warnings(r.stderr)
    assert ("plugin 'nodeco' (brokenplug 0.1) defines csolve_register_puzzles without "
            "@hookimpl") in line


BAD_RULE = """
import numpy as np

from csolve.hookspecs import hookimpl
from csolve.kernels.bits import kernel
from csolve.kernels.state import NO_CHANGE


@kernel
def bad_rule(cand, m, ws):
    BROKEN_LINE  # numba cannot type this
    return NO_CHANGE


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("bad-rule", "brokenplug_badrule:bad_rule", "a rule numba cannot compile"))
"""


@pytest.mark.parametrize("broken", ['scratch = np.zeros("many")',  # a call
                                    "cand[0] = (1, 2)",  # a store
                                    "n = m.no_such_field",  # an attribute
                                    "n = no_such_name + 1"])  # an undefined name
def test_a_plugin_kernel_that_does_not_compile_is_named_in_one_line(site, monkeypatch, capsys,
                                                                    broken):
    install(site, "brokenplug", {"badrule": BAD_RULE.replace("BROKEN_LINE", broken)})
    from csolve.cli import main

    monkeypatch.setattr(sys, "argv", ["csolve", "solve", "sudoku", HARD,
                                      "--rules", "elimination,bad-rule"])
    with pytest.raises(SystemExit) as e:
        main()
    err = capsys.readouterr().err.splitlines()[-1]  # after "compiling kernels" (first run)
    assert e.value.code == 4 and "Traceback" not in err
    assert err.startswith("csolve: error: ") and "brokenplug_badrule.py:11:" in err
    assert "a kernel does not compile" in err


SPINNING_RULE = """
from csolve.hookspecs import hookimpl
from csolve.kernels.bits import kernel
from csolve.kernels.state import CHANGED


@kernel
def spin(cand, m, ws):
    return CHANGED  # says it changed something, every time: never a fixpoint


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("spin", "brokenplug_spin:spin", "a rule that never settles"))
"""


@pytest.mark.parametrize("backend", ["serial", "locked-pool", "conflict-lock", "path-stack"])
def test_a_rule_that_never_settles_is_named_not_a_hang(site, monkeypatch, capsys, backend):
    """Propagation stops a rule that keeps saying CHANGED (it would loop inside the kernel,
    out of reach of --timeout and Ctrl-C) and the command names it: exit 4, one line."""
    install(site, "brokenplug", {"spin": SPINNING_RULE})
    from csolve.cli import main

    monkeypatch.setattr(sys, "argv", ["csolve", "solve", "sudoku", HARD, "--rules",
                                      "elimination,spin", "--backend", backend,
                                      "--workers", "2"])
    with pytest.raises(SystemExit) as e:
        main()
    err = capsys.readouterr().err.splitlines()[-1]  # after "compiling kernels" (first run)
    assert e.value.code == 4 and "Traceback" not in err
    assert err.startswith("csolve: error: rule 'spin' (brokenplug_spin:spin) kept returning "
                          "CHANGED without taking a candidate away")


MISNAMED_RULES = """
from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("nomodule", "brokenplug_nosuch:spin", "a kernel path with no module"))
    register(Rule("nofunc", "brokenplug_misnamed:spin", "a kernel path with no function"))
"""


@pytest.mark.parametrize("rule, why", [
    ("nomodule", "brokenplug_nosuch:spin, but its module cannot be imported "
                 "(ModuleNotFoundError"),
    ("nofunc", "brokenplug_misnamed:spin, but 'brokenplug_misnamed' defines no 'spin'"),
])
def test_a_rule_whose_kernel_path_names_nothing_is_named(site, monkeypatch, capsys, rule, why):
    """A registered kernel path with no module or no such function is the plugin's error,
    named by rule and plugin (exit 4), not a failure of the generated kernel module."""
    install(site, "brokenplug", {"misnamed": MISNAMED_RULES})
    from csolve.cli import main

    monkeypatch.setattr(sys, "argv", ["csolve", "solve", "sudoku", HARD, "--rules",
                                      f"elimination,{rule}"])
    with pytest.raises(SystemExit) as e:
        main()
    err = capsys.readouterr().err
    assert e.value.code == 4 and "Traceback" not in err and "internal error" not in err
    assert err.startswith(f"csolve: error: rule {rule!r} (plugin misnamed) names the "
                          f"kernel {why}"), err


UNTYPABLE_RULES = """
from csolve.hookspecs import hookimpl
from csolve.kernels.bits import kernel
from csolve.kernels.state import NO_CHANGE


def _helper(x):  # plain Python: numba cannot call it from a kernel
    return x


@kernel
def undefined_call(cand, m, ws):
    n = no_such_function(3)
    return NO_CHANGE


@kernel
def plain_call(cand, m, ws):
    n = _helper(3)
    return NO_CHANGE


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("undef", "brokenplug_untypable:undefined_call", "an undefined name"))
    register(Rule("plain", "brokenplug_untypable:plain_call", "a Python function call"))
"""


@pytest.mark.parametrize("rule, why", [
    ("undef", "NameError: name 'no_such_function' is not defined"),
    ("plain", "Untyped global name '_helper'"),
])
def test_a_kernel_numba_gives_no_line_for_is_named_by_its_path(site, rule, why):
    """An undefined name or a plain Python function stops numba before it has a line to
    point at: the message names the rule's kernel, in plain text (no terminal colours)."""
    install(site, "brokenplug", {"untypable": UNTYPABLE_RULES})
    r = program(site, "solve", "sudoku", HARD, "--rules", f"elimination,{rule}")
    err = r.stderr.splitlines()[-1]
    assert r.returncode == 4 and "\x1b" not in err and "Traceback" not in r.stderr
    kernel = {"undef": "undefined_call", "plain": "plain_call"}[rule]
    assert err.startswith(f"csolve: error: kernel brokenplug_untypable:{kernel} does not "
                          f"compile: {why}")


DEFERRED = """
from csolve.hookspecs import hookimpl
from csolve.puzzle import DeferredPuzzleType


@hookimpl
def csolve_register_puzzles(register):
    register(DeferredPuzzleType("later", "brokenplug_laterimpl:Later"))
    register(DeferredPuzzleType("never", "brokenplug_nowhere:Never"))
"""
LATER_IMPL = """
from csolve_sudoku.plugin import Sudoku


class Later(Sudoku):
    name = "later"
"""


def test_a_deferred_puzzle_type_is_imported_when_used(site, capsys):
    install(site, "brokenplug", {"later": DEFERRED})
    (site / "brokenplug_laterimpl.py").write_text(LATER_IMPL)
    from csolve.puzzle import PuzzleType, all_puzzle_types, get_puzzle_type

    assert get_puzzle_type("sudoku").name == "sudoku"
    assert "brokenplug_laterimpl" not in sys.modules  # not imported for another type
    later = get_puzzle_type("later")
    assert isinstance(later, PuzzleType) and later.name == "later"
    assert get_puzzle_type("later") is later  # imported and built once
    with pytest.raises(Exception, match="unknown puzzle type 'never'"):
        get_puzzle_type("never")
    types = all_puzzle_types()
    assert "later" in types and "never" not in types
    assert all(isinstance(t, PuzzleType) for t in types.values())
    (line,) = warnings(capsys.readouterr().err)  # the missing module, reported once
    assert "'later'" in line and "brokenplug_nowhere" in line


def test_a_run_of_one_puzzle_type_imports_no_other_plugin(tmp_path):
    script = ("import sys\nfrom csolve.cli import main\n"
              f"sys.argv = ['csolve', 'solve', 'sudoku', {HARD!r}, '--output', 'line']\n"
              "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code\n"
              "print(sorted(m for m in sys.modules if m.endswith('.plugin')))\n")
    import tomllib

    from .helpers import ROOT

    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    env = {**os.environ, "CSOLVE_LOAD_PLUGINS": ",".join(ours["csolve"])}  # not a user's
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "['csolve_sudoku.plugin']"


NO_GENERATOR = """
from csolve.hookspecs import hookimpl
from csolve.puzzle import PuzzleType


class NoGenerator(PuzzleType):
    name = "no-generator"
    description = "a puzzle type that cannot make puzzles"


@hookimpl
def csolve_register_puzzles(register):
    register(NoGenerator())
"""


def test_generate_for_a_type_without_a_generator_is_one_line(site, monkeypatch, capsys):
    install(site, "brokenplug", {"nogen": NO_GENERATOR})
    from csolve.cli import main

    monkeypatch.setattr(sys, "argv", ["csolve", "generate", "no-generator"])
    with pytest.raises(SystemExit) as e:
        main()
    err = capsys.readouterr().err
    assert e.value.code == 2  # one line, and no seed told for puzzles that cannot be made
    assert err == "csolve: error: csolve cannot generate no-generator puzzles\n"
    import csolve

    with pytest.raises(csolve.GenerationError, match="cannot generate no-generator"):
        csolve.generate("no-generator")


CONSTRAINED = """
from csolve.hookspecs import hookimpl
from csolve_sudoku.plugin import Sudoku as SudokuType


class Constrained(SudokuType):
    name = "constrained"
    default_rules = ("elimination",)
    constraint_rules = ("naked-pair",)


@hookimpl
def csolve_register_puzzles(register):
    register(Constrained())
"""


def test_list_tactics_names_the_constraint_rules_a_model_adds(site, monkeypatch, capsys):
    """The header's default rules are those a model propagates with: the type's constraint
    rules are added to its defaults, so they are listed too."""
    install(site, "brokenplug", {"constrained": CONSTRAINED})
    from csolve.cli import main

    monkeypatch.setattr(sys, "argv", ["csolve", "list-tactics", "constrained"])
    main()
    out = capsys.readouterr().out
    assert "default rules: elimination,naked-pair)" in out.replace("\n", "")


def test_a_validator_returning_a_string_is_its_bug_in_validate_too(site, tmp_path):
    # csolve validate took the string's first letter as the problem: "invalid (complete): a"
    source = NONE_FROM.replace("return None", "return 'a problem'").replace("{method}",
                                                                             "validate")
    install(site, "brokenplug", {"odd": source})
    solved = tmp_path / "solved.txt"
    solved.write_text("479126385538497621162583794381759246795642813624318957953274168"
                      "816935472247861539\n")
    r = program(site, "validate", "odd-sudoku", str(solved))
    assert r.returncode == 4 and r.stderr.count("\n") == 1, r.stderr
    assert "validate returned 'a problem', not a list of problems" in r.stderr
    assert "brokenplug" in r.stderr and "invalid" not in r.stdout


def test_the_wrong_type_guess_keeps_a_broken_plugin_quiet(site):
    """A file given with the wrong type is one error line, even where trying the other
    types would import a plugin's type that cannot be imported ("never")."""
    from .helpers import run_cli

    install(site, "brokenplug", {"later": DEFERRED})
    (site / "brokenplug_laterimpl.py").write_text(LATER_IMPL)
    code, out, err = run_cli("solve", "sudoku", str(PUZZLES / "kakuro" / "small.txt"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("csolve: error: ")
    assert err.endswith("(it reads as kakuro puzzles: is the puzzle type right?)\n")


def test_the_wrong_type_guess_names_every_type_that_reads_the_file(site):
    """A lenient third-party reader does not hide the type a file was written for: every
    installed type that reads it is named ("aaa-sudoku or sudoku", not the first in order)."""
    from .helpers import run_cli

    lenient = (NONE_FROM.replace('"odd-sudoku"', '"aaa-sudoku"')
               .replace("    def {method}(self, *args, **kwargs):\n        return None\n", ""))
    install(site, "lenientplug", {"lenient": lenient})
    code, out, err = run_cli("solve", "kakuro", HARD)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.endswith("(it reads as aaa-sudoku or sudoku puzzles: is the puzzle type right?)\n")
