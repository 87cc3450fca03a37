"""Composed kernels are never stale, and csolve runs with nowhere to cache them.

A rule here is a real module on ``sys.path`` whose verdict comes from a helper module it
imports: numba alone keys its cache on the rule's own file, so only the composed module's
name (a hash over every module the kernels import) makes an edited helper count.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from csolve.kernels import compose, depends, diskcache
from csolve.kernels.state import CONTRADICTION, NO_CHANGE

from .helpers import PUZZLES, write_package

RULE = """
from csolve.kernels.bits import kernel
from {pkg}.helper import verdict


@kernel
def rule(cand, m, ws):
    return verdict()
"""
HELPER = """
from csolve.kernels.bits import kernel


@kernel
def verdict():
    return {value}
"""


def install_rule(site, pkg: str, value: int) -> str:
    write_package(site, pkg, {"rule": RULE.format(pkg=pkg),
                              "helper": HELPER.format(value=value)})
    return f"{pkg}.rule:rule"


def forget(pkg: str) -> None:
    """What a new process would not have: the imported rule and the composed module."""
    for name in [n for n in sys.modules if n == pkg or n.startswith(pkg + ".")]:
        del sys.modules[name]
    for key in [k for k in compose._loaded if any(p.startswith(pkg) for p in k[0])]:
        del compose._loaded[key]
    depends._digests.clear()
    importlib.invalidate_caches()


def propagate_says(sudoku, kernels) -> bool:
    from csolve.kernels.workspace import new_workspace

    (p,) = sudoku.parse("." * 16 + "\n", "<test>")
    model = sudoku.model(p)
    return bool(kernels.propagate(model.init.copy(), model.kernel,
                                  new_workspace(model.n_cells)))


@pytest.fixture()
def site(tmp_path, monkeypatch):
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("CSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    return root


def test_editing_a_helper_a_rule_imports_compiles_afresh(sudoku, site):
    path = install_rule(site, "csolve_test_staleness", NO_CHANGE)
    first = compose.kernels_for((path,))
    assert propagate_says(sudoku, first) is True
    install_rule(site, "csolve_test_staleness", CONTRADICTION)  # the helper only
    forget("csolve_test_staleness")
    second = compose.kernels_for((path,))
    assert second.__name__ != first.__name__
    assert propagate_says(sudoku, second) is False
    install_rule(site, "csolve_test_staleness", NO_CHANGE)  # back as it was: the first again
    forget("csolve_test_staleness")
    third = compose.kernels_for((path,))
    assert third.__name__ == first.__name__ and propagate_says(sudoku, third) is True


def test_every_compiled_kernel_goes_to_the_cache_dir(sudoku, site, tmp_path):
    """``CSOLVE_CACHE_DIR`` holds the plugin's own kernels too (the rule and its helper),
    not only the generated modules: nothing is written beside the plugin's sources. numba's
    own setting, which other code in the process may rely on, is left as it was."""
    from numba.core import config

    before = config.CACHE_DIR
    path = install_rule(site, "csolve_test_cachedir", NO_CHANGE)
    assert propagate_says(sudoku, compose.kernels_for((path,))) is True
    assert config.CACHE_DIR == before
    cached = {p.name.split(".")[0] for p in (tmp_path / "cache").glob("**/*.nbi")}
    assert {"rule", "helper"} <= cached
    assert not list(site.glob("**/__pycache__/*.nbi"))


def test_a_first_compile_is_announced_once(sudoku, site, monkeypatch, capsys):
    """The command line says when a run compiles kernels (time limits start after it)."""
    monkeypatch.setattr(diskcache, "announce_compiles", True)
    diskcache.stop_listening()  # a fresh notice (the command line, run in process, made one)
    diskcache.listen_for_compiles()
    before = diskcache.compile_seconds
    try:
        path = install_rule(site, "csolve_test_notice", NO_CHANGE)
        kernels = compose.kernels_for((path,))
        assert propagate_says(sudoku, kernels) is True
        compiled = diskcache.compile_seconds
        assert compiled > before  # counted, for the summary to leave out
        assert propagate_says(sudoku, kernels) is True  # compiled already: nothing to say
        assert diskcache.compile_seconds == compiled
    finally:
        diskcache.stop_listening()
    err = capsys.readouterr().err
    assert err.count(diskcache.COMPILING) == 1, err


def test_from_python_a_first_compile_is_logged_not_printed(sudoku, site, monkeypatch,
                                                           capsys, caplog):
    """A library does not write on stderr: Python hears of a compile on the csolve logger."""
    import logging

    monkeypatch.setattr(diskcache, "announce_compiles", False)
    diskcache.stop_listening()
    diskcache.listen_for_compiles()
    try:
        with caplog.at_level(logging.INFO, logger="csolve"):
            path = install_rule(site, "csolve_test_logged", NO_CHANGE)
            kernels = compose.kernels_for((path,))
            assert propagate_says(sudoku, kernels) is True
    finally:
        diskcache.stop_listening()
    said = [r for r in caplog.records if r.name == "csolve"]
    assert len(said) == 1 and said[0].getMessage().startswith("compiling kernels"), said
    assert diskcache.COMPILING not in capsys.readouterr().err


def test_a_warm_up_that_compiles_counts_as_compiling_whole(monkeypatch):
    """Importing numba, typing and writing the cache are a first run's too: where a warm-up
    compiled anything, all of its time is compiling; where it compiled nothing, none is."""
    import time

    monkeypatch.setattr(diskcache, "compile_seconds", 0.0)
    with diskcache.preparing_kernels():
        time.sleep(0.02)  # kernels loaded from the cache: nothing compiled
    assert diskcache.compile_seconds == 0.0
    with diskcache.preparing_kernels():
        diskcache.compile_seconds += 0.001  # numba's compile events ...
        time.sleep(0.05)  # ... and the rest of the warm-up around them
    assert diskcache.compile_seconds >= 0.05


def test_a_files_summary_says_the_compile_apart(sudoku, capsys):
    """The first run with new rules compiles for seconds; the summary's time and rate are
    the puzzles', as each result's seconds are, and the compile is said beside them."""
    from csolve.cli.report import Reporter

    reporter = Reporter(sudoku, "line", counting=False, show_stats=False, total=2)
    reporter.summary(0.02, 5.5)
    reporter.summary(0.02)
    reporter.summary(0.02, 5.5, 4.25)  # and starting worker processes, or a cluster
    first, second, third = capsys.readouterr().err.splitlines()
    assert first.endswith("in 20.0 ms (100 puzzles/s, after 5.50 s compiling kernels)")
    assert second.endswith("in 20.0 ms (100 puzzles/s)")
    assert third.endswith("in 20.0 ms (100 puzzles/s, after 5.50 s compiling kernels and "
                          "4.25 s starting workers)")


def test_the_dependencies_are_followed_through_imports():
    deps = compose.dependency_sources({"csolve.kernels.alldiff"})
    assert {"csolve.kernels.alldiff", "csolve.kernels.bits", "csolve.kernels.state"} <= set(deps)
    assert not any(n.startswith(("numba", "numpy", "os")) for n in deps)


def test_nothing_writable_compiles_in_memory_and_says_so_once(sudoku, site, tmp_path,
                                                               monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # nothing can be made below a file, not even by root
    monkeypatch.setenv("CSOLVE_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(blocker / "tmp"))
    monkeypatch.setattr(diskcache, "_said", False)
    path = install_rule(site, "csolve_test_readonly", NO_CHANGE)
    kernels = compose.kernels_for((path,))
    assert kernels.__name__.startswith("csolve_kernels_") and not hasattr(kernels, "__file__")
    assert propagate_says(sudoku, kernels) is True
    install_rule(site, "csolve_test_readonly", CONTRADICTION)
    forget("csolve_test_readonly")
    assert propagate_says(sudoku, compose.kernels_for((path,))) is False
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("csolve: warning:")]
    assert len(lines) == 1 and "compiling kernels in memory" in lines[0], err
    assert "Traceback" not in err
    assert not list(tmp_path.glob("**/csolve_kernels_*"))


def test_a_cache_dir_that_cannot_be_written_is_said_and_another_used(sudoku, site, tmp_path,
                                                                      monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CSOLVE_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    monkeypatch.setattr(diskcache, "_said_once", set())
    path = install_rule(site, "csolve_test_fallback", NO_CHANGE)
    kernels = compose.kernels_for((path,))
    assert propagate_says(sudoku, kernels) is True
    assert Path(kernels.__file__).parent == compose.writable_cache_dir()
    assert Path(kernels.__file__).is_relative_to(tmp_path / "tmp")
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("csolve: warn")]
    assert lines == [f"csolve: warning: CSOLVE_CACHE_DIR={blocker / 'cache'} cannot be "
                     f"written; compiled kernels go to {compose.writable_cache_dir()}"]


@pytest.mark.slow
def test_the_program_runs_with_nothing_writable(tmp_path):
    """A read-only install (numba may cache only in the user cache), a read-only home and no
    temporary directory: the solve works, compiled in memory, with one warning."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {k: v for k, v in os.environ.items()
           if k not in ("CSOLVE_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(HOME=str(blocker / "home"), XDG_CACHE_HOME=str(blocker / "cache"),
               TMPDIR=str(blocker / "tmp"), NUMBA_CACHE_LOCATOR_CLASSES="UserWideCacheLocator")
    # with $TMPDIR unusable Python falls back to /tmp, which may be writable: the program
    # is run with the temporary directory itself set to the unusable one
    run_without_tmp = ("import sys, tempfile; tempfile.tempdir = sys.argv.pop(1); "
                       "from csolve.program import run; run()")
    r = subprocess.run([sys.executable, "-c", run_without_tmp, str(blocker / "tmp"), "solve",
                        "sudoku", str(PUZZLES / "sudoku" / "4x4.txt"), "--output", "line"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    warnings = [x for x in r.stderr.splitlines() if x.startswith("csolve: warning:")]
    assert len(warnings) == 1 and "in memory" in warnings[0]
    assert len(r.stdout.split()) == len(
        [x for x in (PUZZLES / "sudoku" / "4x4.txt").read_text().splitlines()
         if x and not x.startswith("#")])


def test_a_files_summary_writes_counts_with_separators_and_no_rate_when_none_answered(
        sudoku, capsys):
    """"100,000 puzzles: 100000 solved" wrote one count two ways; and a run interrupted
    before any answer gave a rate of puzzles a second that no puzzle had."""
    from csolve.cli.report import Reporter
    from csolve.outcome import Status

    reporter = Reporter(sudoku, "line", counting=False, show_stats=False, total=100_000)
    reporter.statuses[Status.SOLVED] = 100_000
    reporter.summary(2.0)
    stopped = Reporter(sudoku, "line", counting=False, show_stats=False, total=2)
    stopped.statuses[Status.INTERRUPTED] = 2
    stopped.summary(0.0052)
    many, none = capsys.readouterr().err.splitlines()
    assert many == "100,000 puzzles: 100,000 solved in 2.00 s (50,000 puzzles/s)"
    assert none == "2 puzzles: 0 solved, 2 interrupted in 5.2 ms"
