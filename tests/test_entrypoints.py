"""The ``csolve`` entry points, remembered between runs (csolve.entrypoints): the same answer
importlib.metadata gives, and a new one as soon as anything is installed or changed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib import metadata

import pytest

from csolve import entrypoints
from csolve.entrypoints import EntryPoint


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    """An empty cache directory, and a folder on sys.path to install distributions into."""
    monkeypatch.setenv("CSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    return tmp_path / "cache", site


def install(site, dist: str, lines: list[str]) -> None:
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("\n".join(["[csolve]", *lines]) + "\n")


def expected() -> list[tuple]:
    return [(ep.name, ep.value, (ep.dist.name, ep.dist.version))
            for ep in metadata.entry_points(group="csolve")]


def found() -> list[tuple]:
    return [(ep.name, ep.value, ep.dist) for ep in entrypoints.entry_points("csolve")]


def test_the_answer_is_importlib_metadatas_and_is_read_back(cache):
    root, _site = cache
    assert found() == expected()
    assert {"core", "sudoku"} <= {name for name, _v, _d in found()}
    (path,) = (root / "entry-points").glob("*.json")
    # a later run reads the file, not the installation: shown by a file that says otherwise
    path.write_text(json.dumps([["only", "mod:attr", "dist", "1"]]))
    assert found() == [("only", "mod:attr", ("dist", "1"))]
    for junk in ("", "[", '{"a": 1}', '[["a", "b", "c"]]', '[[1, 2, 3, 4]]'):
        path.write_text(junk)  # unreadable: scanned again, and written anew
        assert found() == expected()
        assert found() == expected()


def test_installing_removing_or_editing_a_distribution_shows_at_once(cache):
    _root, site = cache
    before = found()
    install(site, "csolve-extra", ["extra = extra_plugin"])
    assert found() == expected() != before
    assert ("extra", "extra_plugin", ("csolve-extra", "0.1")) in found()
    install(site, "csolve-extra", ["extra = extra_plugin.hooks"])  # edited in place
    assert ("extra", "extra_plugin.hooks", ("csolve-extra", "0.1")) in found()
    assert found() == expected()
    for path in (site / "csolve-extra-0.1.dist-info").iterdir():
        path.unlink()
    (site / "csolve-extra-0.1.dist-info").rmdir()
    assert found() == expected() == before


def test_another_kind_of_finder_is_asked_every_time(cache, monkeypatch):
    class Finder:
        @staticmethod
        def find_spec(*args, **kwargs):
            return None

        @staticmethod
        def find_distributions(*args, **kwargs):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert entrypoints._remembered_at("csolve") is None
    assert found() == expected()
    assert not (cache[0] / "entry-points").exists()


def test_old_answers_are_pruned(cache, monkeypatch):
    root, site = cache
    for k in range(entrypoints._KEEP + 5):
        install(site, f"csolve-n{k}", [f"n{k} = n{k}_plugin"])
        found()
    assert len(list((root / "entry-points").glob("*.json"))) == entrypoints._KEEP


def test_an_entry_point_loads_as_importlib_metadata_loads_it(cache):
    _root, site = cache
    (site / "ep_target.py").write_text(textwrap.dedent("""
        class Outer:
            class Inner:
                pass
    """))
    for value in ("ep_target", "ep_target:Outer", "ep_target:Outer.Inner",
                  "ep_target : Outer.Inner [extra]"):
        ours = EntryPoint("x", value, ("d", "1")).load()
        theirs = metadata.EntryPoint("x", value, "csolve").load()
        assert ours is theirs
    with pytest.raises(ValueError):
        EntryPoint("x", "not a value!", ("d", "1")).load()


def test_a_warm_run_does_not_import_importlib_metadata(tmp_path):
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    script = (f"import sys, csolve; csolve.solve('sudoku', {puzzle!r}); "
              "print('importlib.metadata' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=600, cwd=tmp_path) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[-1].stderr
    assert runs[1].stdout.split() == ["False"]  # the first may have scanned and remembered
