"""The plugin tutorial's Latin-square plugin, registered in code, works end to end."""

from __future__ import annotations

import re
import sys
import types

import pytest

import csolve.puzzle
from csolve.plugins import get_plugin_manager
from csolve.solver import SolveOptions, Status, solve_one

from .helpers import ROOT


@pytest.fixture()
def latin(monkeypatch):
    """The tutorial's two modules as the package ``csolve_latin`` (its ``plugin`` module
    where the entry point's deferred registration looks), the entry point registered."""
    doc = (ROOT / "docs" / "plugins.md").read_text()
    code = re.search(r"```python\n# csolve_latin/plugin.py\n(.*?)```", doc, re.S).group(1)
    hooks = re.search(r"```python\n# csolve_latin/hooks.py\n(.*?)```", doc, re.S).group(1)
    package = types.ModuleType("csolve_latin")
    package.__path__ = []
    plugin = types.ModuleType("csolve_latin.plugin")
    exec(compile(code, "csolve_latin/plugin.py", "exec"), plugin.__dict__)
    monkeypatch.setitem(sys.modules, "csolve_latin", package)
    monkeypatch.setitem(sys.modules, "csolve_latin.plugin", plugin)
    monkeypatch.setattr(csolve.puzzle, "_loaded", {})  # this test's Latin, not an earlier one
    hooks_ns: dict = {"__name__": "csolve_latin.hooks", "__package__": "csolve_latin"}
    exec(compile(hooks, "csolve_latin/hooks.py", "exec"), hooks_ns)
    module = type("Plugin", (), {"csolve_register_puzzles":
                                 staticmethod(hooks_ns["csolve_register_puzzles"])})
    pm = get_plugin_manager()
    pm.register(module, name="latin-tutorial")
    try:
        yield plugin.Latin()
    finally:
        pm.unregister(name="latin-tutorial")


def test_tutorial_plugin_counts_latin_squares(latin):
    from csolve.puzzle import get_puzzle_type

    ptype = get_puzzle_type("latin")
    (p,) = ptype.parse("." * 16 + "\n", "<t>")
    r = solve_one(ptype, p, SolveOptions(limit=0))
    assert r.count == 576 and r.exact  # there are 576 Latin squares of order 4
    (q,) = ptype.parse("12..\n", "<t>")
    r = solve_one(ptype, q, SolveOptions(limit=1))
    assert r.status is Status.SOLVED and ptype.validate(q, r.solutions[0]) == []


def test_the_tutorial_plugin_keeps_the_contract(latin):
    """The contract kit, called as plugins.md shows (without the entry point: the tutorial
    class is registered in code here, not installed)."""
    from csolve.puzzle import get_puzzle_type
    from csolve.testing import check_puzzle_type

    doc = (ROOT / "docs" / "plugins.md").read_text()
    call = re.search(r"check_puzzle_type\(get_puzzle_type\(\"latin\"\), (.*?)\)\n", doc,
                     re.S).group(1)
    kwargs = eval(re.sub(r',\s*entry_point="latin"', "", f"dict(puzzles={call})"))
    assert kwargs["conflicting"]  # the tutorial's check refuses clashing givens
    check_puzzle_type(get_puzzle_type("latin"), **kwargs)
