"""What a kernel module depends on: every module it imports, and those import, as source.

numba keys a cached kernel on its own file's time stamp and size only, so an edited helper
that a kernel imports (and numba inlines) would keep serving the old machine code. The
composed kernel modules carry a hash of these sources in their names (see
:mod:`csolve.kernels.compose`), and :func:`csolve.kernels.bits.kernel` adds the same hash to
each kernel's cache stamp, so an edit anywhere below a kernel compiles it afresh.

Modules of the standard library, numba, numpy and llvmlite are not followed (numba's cache
already depends on its own version). Imports are found by a regular expression over the
source, lazy imports included; a name that is not a module is skipped.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import threading
from pathlib import Path

#: top-level packages whose edits are not csolve's to track (numba tracks its own version)
_NOT_TRACKED = {"numba", "numpy", "llvmlite", "__future__"}
_MAX_TRACKED = 400
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)"
                     r"|import[ \t]+([^\n#;]+))", re.M)
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def _tracked(name: str) -> bool:
    top = name.partition(".")[0]
    return bool(top) and top not in _NOT_TRACKED and top not in sys.stdlib_module_names


def _python_source(name: str) -> tuple[str, bool] | None:
    """(source, is a package) of a module that is a Python file; None otherwise."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    try:
        return (Path(spec.origin).read_text(encoding="utf-8"),
                spec.submodule_search_locations is not None)
    except OSError:
        return None


def _imports_of(name: str, text: str, is_package: bool) -> set[str]:
    """Modules ``text`` (module ``name``) imports, anywhere in it (lazy imports too); for
    ``from p import x`` both ``p`` and ``p.x`` (kept later only if it is a module)."""
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for m in _IMPORT.finditer(text):
        if m.group(3):
            out.update(part.split(" as ")[0].strip() for part in m.group(3).split(","))
            continue
        base = m.group(1)
        if base.startswith("."):
            try:
                base = importlib.util.resolve_name(base, package)
            except (ImportError, ValueError):
                continue
        out.add(base)
        for part in m.group(2).strip("()").split(","):
            sub = part.split(" as ")[0].strip()
            if sub and sub != "*":
                out.add(f"{base}.{sub}")
    return {n for n in out if _NAME.fullmatch(n) and _tracked(n)}


def dependency_sources(roots: set[str]) -> dict[str, str]:
    """The source of every module the ``roots`` import, directly or through one another
    (outside the standard library, numba and numpy): what a composed kernel depends on."""
    sources: dict[str, str] = {}
    package: dict[str, bool] = {}  # module name -> is a package
    todo = sorted(roots, reverse=True)
    seen = set(todo)
    while todo and len(sources) < _MAX_TRACKED:
        name = todo.pop()
        parent = name.rpartition(".")[0]
        if parent and name not in roots:
            if parent not in package:
                found = _python_source(parent)
                package[parent] = found is not None and found[1]
            if not package[parent]:
                continue  # ``from module import function``: not a module
        found = _python_source(name)
        if found is None:
            continue
        text, package[name] = found
        sources[name] = text
        for dep in sorted(_imports_of(name, text, package[name]), reverse=True):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sources


_digests: dict[str, str] = {}
_lock = threading.Lock()


def module_digest(name: str) -> str:
    """A hash of module ``name``'s source and of every module it depends on (once per process:
    sources are not expected to change under a running program)."""
    with _lock:
        digest = _digests.get(name)
    if digest is None:
        h = hashlib.sha256()
        deps = dependency_sources({name})
        for module in sorted(deps):
            h.update(f"\0{module}\0".encode())
            h.update(deps[module].encode())
        digest = h.hexdigest()[:20]
        with _lock:
            _digests[name] = digest
    return digest


def installation(package: str) -> str:
    """Which installation of ``package`` this is (its path and its ``__init__``'s time stamp
    and size), found without importing it: a reinstall, an upgrade among them, changes it."""
    spec = importlib.util.find_spec(package)
    origin = spec.origin if spec is not None and spec.origin else ""
    try:
        st = os.stat(origin)
    except OSError:
        return f"{package} ?"
    return f"{package} {origin} {st.st_mtime_ns} {st.st_size}"
