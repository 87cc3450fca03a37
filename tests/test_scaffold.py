"""``csolve new-plugin``: the package it writes works, from sys.path and installed by pip."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from csolve.plugins import get_plugin_manager
from csolve.scaffold import write_plugin

from .test_cli import run


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_written_package_passes_its_own_tests(tmp_path, capsys):
    code, out, err = run(capsys, "new-plugin", "scaffolded", "--dir", str(tmp_path / "pkg"))
    assert code == 0, err
    root = tmp_path / "pkg"
    assert (root / "csolve_scaffolded" / "hooks.py").exists() and "pip install" in out
    sys.path.insert(0, str(root))
    pm = get_plugin_manager()
    try:
        hooks = _load(root / "csolve_scaffolded" / "hooks.py", "csolve_scaffolded.hooks")
        pm.register(hooks, name="scaffolded")
        tests = _load(root / "tests" / "test_csolve_scaffolded.py", "scaffolded_tests")
        ran = 0
        for name in dir(tests):
            if name.startswith("test_"):
                getattr(tests, name)()
                ran += 1
        assert ran == 4
        # and from the command line
        code, out, err = run(capsys, "solve", "scaffolded", str(root / "puzzles" / "sample.txt"),
                             "--output", "line")
        assert code == 0 and out.splitlines()[0].startswith("2134342142131342 ")
        code, out, err = run(capsys, "explain", "scaffolded",
                             str(root / "puzzles" / "sample.txt"), "--output", "line")
        assert code == 0 and "guess" not in out and "r1c1 < r2c1" in out, out
        code, out, err = run(capsys, "rate", "scaffolded", str(root / "puzzles" / "sample.txt"))
        assert code == 0 and "evil" not in out, out
        # the rule's level is the one its steps give, in the list and in a rating
        code, out, err = run(capsys, "list-tactics", "scaffolded")
        assert code == 0 and re.search(r"scaffolded-less-than\s.*\beasy\b", out), out
        # no values fit an inequality: the explanation ends there, saying so
        code, out, err = run(capsys, "explain", "scaffolded", ".... r1c1<r1c2 r1c2<r1c1",
                             "--output", "line")
        assert code == 1 and "no values fit r1c" in out + err, out + err
        assert "r1c1 = " not in out, out
    finally:
        pm.unregister(name="scaffolded")
        sys.path.remove(str(root))
        for mod in [m for m in sys.modules if m.startswith("csolve_scaffolded")]:
            del sys.modules[mod]


def test_the_written_package_is_clean_under_ruff(tmp_path, capsys):
    """A new plugin starts with nothing for its author's linter to complain about: pyflakes,
    import order, bugbear, pyupgrade and ruff's own rules (line length is the author's
    choice)."""
    pytest.importorskip("ruff")  # a development tool: CI installs it
    code, _, err = run(capsys, "new-plugin", "scaffolded", "--dir", str(tmp_path / "pkg"))
    assert code == 0, err
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select",
                        "E4,E7,E9,F,W,I,B,UP,RUF", "."], cwd=tmp_path / "pkg",
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_bad_names_and_used_folders_are_one_line_errors(tmp_path, capsys):
    code, out, err = run(capsys, "new-plugin", "Bad_Name", "--dir", str(tmp_path / "x"))
    assert code == 2 and "plugin name" in err and err.count("\n") == 1
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "f").write_text("")
    code, out, err = run(capsys, "new-plugin", "ok", "--dir", str(tmp_path / "used"))
    assert code == 2 and "not empty" in err
    (tmp_path / "afile").write_text("")
    code, out, err = run(capsys, "new-plugin", "ok", "--dir", str(tmp_path / "afile"))
    assert code == 2 and "is a file, not a folder" in err and err.count("\n") == 1
    for taken in ("sudoku", "killer", "core"):  # a built-in's name would shadow it
        code, out, err = run(capsys, "new-plugin", taken, "--dir", str(tmp_path / taken))
        assert code == 2 and "is taken by an installed plugin" in err and not out
        assert not (tmp_path / taken).exists()


@pytest.mark.slow
def test_pip_installs_the_package_and_its_tests_pass(tmp_path):
    """``csolve new-plugin demo && pip install demo && pytest demo``, installed into a
    folder of its own (the test environment itself stays as it was)."""
    write_plugin("demo", tmp_path / "demo")
    target = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                          "--target", str(target),
                          str(tmp_path / "demo")], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": str(target)}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        str(tmp_path / "demo")], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "4 passed" in r.stdout
    listed = subprocess.run([sys.executable, "-m", "csolve", "list-plugins"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert "demo" in listed.stdout
