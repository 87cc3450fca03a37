"""The installed plugins' entry points, remembered between runs while nothing is installed.

Finding the ``csolve`` entry points takes :mod:`importlib.metadata`, whose import (it brings
the e-mail parser, ``csv`` and ``zipfile``) and scan of every installed distribution are a
sizeable part of a warm command. What they find changes only when a distribution is
installed, removed or reinstalled, or the import path changes, and each of those shows in
the path's folders: so the answer is kept in the cache directory under a fingerprint of
``sys.path`` (every entry, the ``*.dist-info`` and ``*.egg-info`` folders in each and an
egg's own, and the stamps of their ``entry_points.txt`` and ``METADATA`` or ``PKG-INFO``),
which takes a directory listing per entry to check. Where another kind of finder could
supply distributions, or nothing can be written, :mod:`importlib.metadata` is asked every
time.
"""

from __future__ import annotations

import hashlib
import json
import os
import pkgutil
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_FORMAT = "csolve-entry-points-1"
#: answers kept, the latest written (older ones are scanned for again when met)
_KEEP = 16
#: the files of a distribution's metadata folder that the answer is read from
_METADATA_FILES = ("entry_points.txt", "METADATA", "PKG-INFO")
_lock = threading.Lock()
#: what importlib.metadata makes of an entry point's value: ``module:attr.attr [extras]``
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?(\[.*\])?\s*$")


@dataclass(frozen=True)
class EntryPoint:
    """An installed entry point: its name and value, and the distribution (name, version)
    that declares it."""

    name: str
    value: str
    dist: tuple[str, str]

    def load(self) -> Any:
        """The object the value names, imported as :meth:`importlib.metadata.EntryPoint.load`
        imports it."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name!r} has a malformed value {self.value!r}")
        return pkgutil.resolve_name(f"{match['module']}:{match['attr'] or ''}")


def entry_points(group: str) -> list[EntryPoint]:
    """Every installed entry point of ``group``, in :mod:`importlib.metadata`'s order."""
    with _lock:
        path = _remembered_at(group)
        found = _read(path) if path is not None else None
        if found is None:
            found = _scan(group)
            if path is not None:
                _write(path, found)
        return found


def _scan(group: str) -> list[EntryPoint]:
    from importlib import metadata

    found = []
    for ep in metadata.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        try:
            about = (str(dist.name or "unknown distribution"), str(dist.version or ""))
        except Exception:  # no distribution, or unreadable metadata
            about = ("unknown distribution", "")
        found.append(EntryPoint(ep.name, ep.value, about))
    return found


def _remembered_at(group: str) -> Path | None:
    """Where the answer for the installation as it is now is kept; None when it cannot be
    told from the import path alone."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:  # only the path finder yields distributions, as usual
        if hasattr(finder, "find_distributions") and finder is not PathFinder:
            return None
    from csolve.kernels.diskcache import writable_cache_dir

    root = writable_cache_dir()
    if root is None:
        return None
    return root / "entry-points" / f"{_fingerprint(group)}.json"


def _fingerprint(group: str) -> str:
    digest = hashlib.sha256(f"{_FORMAT}\0{group}\0{sys.version}".encode())
    for entry in sys.path:
        where = entry or "."
        digest.update(b"\0path\0" + os.fsencode(entry))
        try:
            with os.scandir(where) as listing:
                names = sorted(e.name for e in listing
                               if e.name.lower().endswith((".dist-info", ".egg-info")))
        except OSError:  # a file (a zip archive), or nothing
            digest.update(_stamp(where).encode())
            continue
        folders = [os.path.join(where, name) for name in names]
        if where.lower().endswith(".egg"):  # an egg on the path: its own metadata folder
            folders.append(os.path.join(where, "EGG-INFO"))
        for folder in folders:
            digest.update(f"\0{folder}".encode())
            for name in _METADATA_FILES:
                digest.update(f"\0{_stamp(os.path.join(folder, name))}".encode())
    return digest.hexdigest()[:32]


def _stamp(path: str) -> str:
    """What changes when a file is rewritten, replaced or linked anew."""
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns} {st.st_size} {st.st_ino}"


def _read(path: Path) -> list[EntryPoint] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, list) or not all(
            isinstance(item, list) and len(item) == 4 and all(isinstance(x, str) for x in item)
            for item in data):
        return None
    return [EntryPoint(name, value, (dist, version)) for name, value, dist, version in data]


def _write(path: Path, found: list[EntryPoint]) -> None:
    from csolve.kernels.diskcache import write_whole

    if write_whole(path, json.dumps([[ep.name, ep.value, *ep.dist] for ep in found]).encode()):
        for old in sorted(path.parent.glob("*.json"), key=_age)[:-_KEEP]:
            try:
                old.unlink(missing_ok=True)
            except OSError:  # another process's, or not ours to remove
                pass


def _age(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
