"""Search backends: work-sharing policies that run the search kernels on workers."""

from __future__ import annotations

from csolve.backends.base import Backend, GroupJob, SearchJob, SearchOutcome
from csolve.errors import UnknownNameError

__all__ = ["Backend", "GroupJob", "SearchJob", "SearchOutcome", "all_backends", "get_backend"]


def all_backends() -> dict[str, Backend]:
    from csolve.plugins import _collect

    out: dict[str, Backend] = {}
    for backend, _plugin in _collect("csolve_register_backends"):
        out[backend.name] = backend
    return out


def get_backend(name: str) -> Backend:
    backends = all_backends()
    try:
        return backends[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown backend {name!r} (known: {', '.join(sorted(backends))})"
        ) from None
