"""Search backends: work-sharing policies that run the search kernels on workers."""

from __future__ import annotations

from csolve.backends.base import Backend, SearchJob, SearchOutcome
from csolve.errors import UnknownNameError

__all__ = ["Backend", "SearchJob", "SearchOutcome", "all_backends", "get_backend"]


def _registered() -> dict[str, Backend]:
    from csolve.plugins import _collect

    out: dict[str, Backend] = {}
    for backend, _plugin in _collect("csolve_register_backends"):
        out[backend.name] = backend
    return out


def all_backends() -> dict[str, Backend]:
    """The backends that can run here (those whose optional dependencies are installed)."""
    return {name: b for name, b in _registered().items() if b.available()}


def get_backend(name: str) -> Backend:
    backends = _registered()
    backend = backends.get(name)
    if backend is None:
        known = sorted(n for n, b in backends.items() if b.available())
        raise UnknownNameError(f"unknown backend {name!r} (known: {', '.join(known)})")
    if not backend.available():
        raise UnknownNameError(f"backend {name!r} is not installed: {backend.requires}")
    return backend
