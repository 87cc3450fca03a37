"""Search backends: work-sharing policies that run the search kernels on workers."""

from __future__ import annotations

from csolve.backends.base import Backend, GroupJob, SearchJob, SearchOutcome
from csolve.errors import UnknownNameError

__all__ = ["Backend", "GroupJob", "SearchJob", "SearchOutcome", "all_backends", "get_backend"]


def _registered() -> dict[str, Backend]:
    """Every registered backend, available here or not."""
    return _backends_and_conflicts()[0]


def _backends_and_conflicts(asked: str | None = None) -> tuple[dict[str, Backend], dict]:
    from csolve.plugins import collect_named

    found, conflicts = collect_named("csolve_register_backends", "backend", asked)
    return {name: b for name, (b, _plugin) in found.items()}, conflicts


def all_backends() -> dict[str, Backend]:
    """The backends that can run here (those whose optional dependencies are installed)."""
    return {name: b for name, b in _registered().items() if b.available()}


def get_backend(name: str) -> Backend:
    backends, conflicts = _backends_and_conflicts(asked=name)
    backend = backends.get(name)
    if backend is None:
        if name in conflicts:
            raise conflicts[name]
        known = sorted(n for n, b in backends.items() if b.available())
        raise UnknownNameError(f"unknown backend {name!r} (known: {', '.join(known)})")
    if not backend.available():
        raise UnknownNameError(f"backend {name!r} is not installed: {backend.requires}")
    return backend
