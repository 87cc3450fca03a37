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
        assert entrypoints._read(path) == [EntryPoint(*item[:2], item[2])
                                           for item in found()]


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


def test_a_new_version_an_egg_and_a_nameless_distribution_show_at_once(cache):
    _root, site = cache
    install(site, "csolve-ver", ["ver = ver_plugin"])
    assert ("ver", "ver_plugin", ("csolve-ver", "0.1")) in found()
    info = site / "csolve-ver-0.1.dist-info"  # only the version changes
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: csolve-ver\nVersion: 0.2\n")
    assert ("ver", "ver_plugin", ("csolve-ver", "0.2")) in found()

    upper = site / "csolve-up-0.1.DIST-INFO"  # matched whatever the case, as importlib does
    upper.mkdir()
    (upper / "METADATA").write_text("Metadata-Version: 2.1\nName: csolve-up\nVersion: 1\n")
    (upper / "entry_points.txt").write_text("[csolve]\nup = up_plugin\n")
    assert found() == expected()
    (upper / "entry_points.txt").write_text("[csolve]\nup = up_plugin.hooks\n")
    assert ("up", "up_plugin.hooks", ("csolve-up", "1")) in found() and found() == expected()

    egg = site / "csolve_egg-0.1.egg"  # an egg folder on the path holds its own metadata
    (egg / "EGG-INFO").mkdir(parents=True)
    (egg / "EGG-INFO" / "PKG-INFO").write_text("Metadata-Version: 1.0\nName: csolve-egg\n"
                                               "Version: 0.1\n")
    (egg / "EGG-INFO" / "entry_points.txt").write_text("[csolve]\negg = egg_plugin\n")
    sys.path.insert(0, str(egg))
    try:
        assert ("egg", "egg_plugin", ("csolve-egg", "0.1")) in found()
        (egg / "EGG-INFO" / "entry_points.txt").write_text("[csolve]\negg = egg_plugin.x\n")
        assert ("egg", "egg_plugin.x", ("csolve-egg", "0.1")) in found()
        assert found() == expected()
    finally:
        sys.path.remove(str(egg))

    nameless = site / "nameless-0.1.dist-info"  # remembered, not scanned again every run
    nameless.mkdir()
    (nameless / "METADATA").write_text("Metadata-Version: 2.1\n")
    (nameless / "entry_points.txt").write_text("[csolve]\nnameless = nameless_plugin\n")
    assert ("nameless", "nameless_plugin", ("unknown distribution", "")) in found()
    newest = max((_root / "entry-points").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    assert "nameless" in newest.read_text() and entrypoints._read(newest) is not None


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


def test_an_entry_point_loads_as_importlib_metadata_loads_it(cache, request):
    _root, site = cache
    request.addfinalizer(lambda: sys.modules.pop("ep_target", None))
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
