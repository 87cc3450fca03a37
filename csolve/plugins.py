"""The plugin manager: one per process, loading the ``csolve`` entry points lazily, once.

Set ``CSOLVE_LOAD_PLUGINS`` to a comma-separated list of entry-point names to load only those
(an empty string loads none), e.g. to debug a misbehaving third-party plugin.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import pluggy

from csolve import hookspecs

ENTRY_POINT_GROUP = "csolve"

_pm: pluggy.PluginManager | None = None
_lock = threading.RLock()


def get_plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with every allowed entry point loaded."""
    global _pm
    with _lock:
        if _pm is None:
            pm = pluggy.PluginManager("csolve")
            pm.add_hookspecs(hookspecs)
            allow = os.environ.get("CSOLVE_LOAD_PLUGINS")
            if allow is None:
                pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
            else:
                names = {n.strip() for n in allow.split(",") if n.strip()}
                for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
                    if ep.name in names and pm.get_plugin(ep.name) is None:
                        pm.register(ep.load(), name=ep.name)
            pm.check_pending()
            _pm = pm
        return _pm


def _collect(hook_name: str) -> list[tuple[Any, str]]:
    """Call a ``register``-style hook; returns (item, plugin name) pairs."""
    pm = get_plugin_manager()
    items: list[tuple[Any, str]] = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        impl.function(lambda item, _n=impl.plugin_name: items.append((item, _n)))
    return items


@dataclass(frozen=True)
class PluginInfo:
    name: str
    version: str
    dist: str
    hooks: tuple[str, ...]


def list_plugins() -> list[PluginInfo]:
    """Every registered plugin, with the distribution it comes from and the hooks it uses."""
    pm = get_plugin_manager()
    dists = {id(p): d for p, d in pm.list_plugin_distinfo()}
    out = []
    for name, plugin in pm.list_name_plugin():
        dist = dists.get(id(plugin))
        hooks = tuple(sorted(h.name for h in pm.get_hookcallers(plugin) or []))
        out.append(PluginInfo(
            name=name,
            version=dist.version if dist else "",
            dist=dist.project_name if dist else "(registered in code)",
            hooks=hooks,
        ))
    return sorted(out, key=lambda p: p.name)
