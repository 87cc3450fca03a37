"""Search backends: work-sharing policies that run the search kernels on workers."""

from __future__ import annotations

from csolve.backends.base import Backend, GroupJob, SearchJob, SearchOutcome
from csolve.errors import UnknownNameError

__all__ = ["Backend", "GroupJob", "SearchJob", "SearchOutcome", "all_backends", "get_backend"]


def all_backends() -> dict[str, Backend]:
    return _backends_and_conflicts()[0]


def _backends_and_conflicts() -> tuple[dict[str, Backend], dict]:
    from csolve.plugins import collect_named

    found, conflicts = collect_named("csolve_register_backends", "backend")
    return {name: b for name, (b, _plugin) in found.items()}, conflicts


def get_backend(name: str) -> Backend:
    backends, conflicts = _backends_and_conflicts()
    try:
        return backends[name]
    except KeyError:
        if name in conflicts:
            raise conflicts[name] from None
        raise UnknownNameError(
            f"unknown backend {name!r} (known: {', '.join(sorted(backends))})"
        ) from None
