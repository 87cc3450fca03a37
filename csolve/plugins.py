"""The plugin manager: one per process, loading the ``csolve`` entry points lazily, once.

Set ``CSOLVE_LOAD_PLUGINS`` to a comma-separated list of entry-point names to load only those
(an empty string loads only the core), e.g. to debug a misbehaving third-party plugin. The
core plugin (``csolve.builtins``: the generic rules, the backends, the learning engine) is
always loaded.

A plugin cannot take csolve down: one that fails to import, or whose hook raises, is reported
once on stderr in one line naming the plugin and its distribution (``CSOLVE_DEBUG=1`` adds the
traceback), and everything else keeps working. Two plugins registering the same name (puzzle
type, rule, engine, backend) is an error naming both, raised when that name is used.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Any

import pluggy

from csolve import hookspecs
from csolve.entrypoints import EntryPoint, entry_points
from csolve.errors import CsolveError

ENTRY_POINT_GROUP = "csolve"
CORE = "core"
CORE_MODULE = "csolve.builtins"

_pm: pluggy.PluginManager | None = None
_lock = threading.RLock()
#: plugin name -> (distribution, version)
_dists: dict[str, tuple[str, str]] = {}
_reported: set[str] = set()


class PluginConflictError(CsolveError):
    """Two plugins registered the same name."""


def debug_enabled() -> bool:
    return os.environ.get("CSOLVE_DEBUG", "") not in ("", "0")


def _dist_of(plugin_name: str, default: tuple[str, str]) -> tuple[str, str]:
    """(distribution, version) of a plugin; ``default`` for one no entry point declares."""
    with _lock:
        return _dists.get(plugin_name, default)


def describe(plugin_name: str) -> str:
    """``'name' (distribution version)``: how messages name a plugin."""
    dist, version = _dist_of(plugin_name, ("registered in code", ""))
    return f"plugin {plugin_name!r} ({dist}{' ' + version if version else ''})"


def blamed_plugin(error: BaseException) -> str | None:
    """How messages name the plugin (not csolve's own) whose code raised ``error``, with the
    function it raised in (``plugin 'latin' (csolve-latin 0.1), in latin.types.Latin.parse``);
    None when the innermost frame of csolve's or a plugin's code is csolve's (a bug that
    plugin code only led to) or there is none."""
    if _pm is None:
        return None
    packages: dict[str, str | None] = {"csolve": None}  # package -> plugin (None: csolve's)
    for name, plugin in _pm.list_name_plugin():
        module = getattr(plugin, "__name__", "")
        if not module or name == CORE:
            continue
        package = module.rpartition(".")[0] or module
        ours = _dist_of(name, ("", ""))[0] == "csolve"  # a plugin csolve ships
        packages.setdefault(package, None if ours else name)
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    by_length = sorted(packages, key=len, reverse=True)
    for frame in reversed(frames):  # the innermost first
        module = frame.f_globals.get("__name__", "")
        package = next((p for p in by_length if module == p or module.startswith(p + ".")),
                       None)
        if package is None:
            continue  # the standard library's, numpy's, ...
        owner = packages[package]
        if owner is None:
            return None
        return f"{describe(owner)}, in {module}.{frame.f_code.co_qualname}"
    return None


def type_in_use_from_plugin() -> str | None:
    """How messages name the puzzle type in use and the installed plugin (not csolve's own)
    it comes from, when there is one: a bug may be in that plugin's code even where no frame
    of a traceback is (a method that returned the wrong thing)."""
    from csolve.puzzle import used

    for name, plugin in used.items():
        if plugin != CORE and _dist_of(plugin, ("", ""))[0] != "csolve":
            return f"puzzle type {name!r} comes from {describe(plugin)}"
    return None


def report_failure(plugin_name: str, what: str, error: BaseException) -> None:
    """One line on stderr, once per plugin and stage; the traceback with ``CSOLVE_DEBUG=1``."""
    key = f"{plugin_name}\0{what}"
    with _lock:
        if key in _reported:
            return
        _reported.add(key)
    # every line of the message, on one line: pluggy says *why* a hook is refused on its
    # last line ("Argument(s) {'reg'} are declared in the hookimpl but ...")
    msg = "; ".join(line.strip() for line in str(error).splitlines() if line.strip())
    if len(msg) > 400:
        msg = msg[:400] + "..."
    detail = f"{type(error).__name__}: {msg}" if msg else type(error).__name__
    hint = "" if debug_enabled() else " (CSOLVE_DEBUG=1 shows the traceback)"
    sys.stderr.write(f"csolve: warning: {describe(plugin_name)} {what}: {detail}; "
                     f"skipped{hint}\n")
    if debug_enabled():
        traceback.print_exception(error, file=sys.stderr)


def _entry_points() -> list[EntryPoint]:
    """The group's entry points, first of each name (a name installed twice counts once)."""
    seen: dict[str, EntryPoint] = {}
    try:
        eps = entry_points(ENTRY_POINT_GROUP)
    except Exception as e:  # a broken distribution's metadata
        report_failure("?", "metadata could not be read", e)
        return []
    for ep in eps:
        seen.setdefault(ep.name, ep)
    return list(seen.values())


def _register(pm: pluggy.PluginManager, name: str, load: Any) -> None:
    try:
        plugin = load()
        pm.register(plugin, name=name)
    except Exception as e:
        report_failure(name, "failed to load", e)
        if pm.get_plugin(name) is not None:
            pm.unregister(name=name)
        return
    unmarked = [attr for attr in dir(plugin) if attr.startswith("csolve_")
                and hasattr(pm.hook, attr) and callable(getattr(plugin, attr, None))
                and not hasattr(getattr(plugin, attr), "csolve_impl")]
    if unmarked:  # pluggy passes over them without a word
        _warn_once(f"unmarked\0{name}", f"{describe(name)} defines {', '.join(unmarked)} "
                   "without @hookimpl (from csolve.hookspecs import hookimpl), so csolve "
                   "does not call it")


def _check_pending(pm: pluggy.PluginManager) -> None:
    """Drop the plugins that implement hooks csolve does not have (a typo, an old API)."""
    while True:
        try:
            pm.check_pending()
            return
        except pluggy.PluginValidationError as e:
            name = pm.get_name(e.plugin) or "?"
            report_failure(name, "failed to load", e)
            pm.unregister(e.plugin)


def get_plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, with the core and every allowed entry point loaded."""
    global _pm
    with _lock:
        if _pm is None:
            pm = pluggy.PluginManager("csolve")
            pm.add_hookspecs(hookspecs)
            allow = os.environ.get("CSOLVE_LOAD_PLUGINS")
            names = None if allow is None else {n.strip() for n in allow.split(",") if n.strip()}
            _dists.clear()

            def core() -> Any:
                import importlib

                return importlib.import_module(CORE_MODULE)

            eps = _entry_points()
            unknown = sorted((names or set()) - {ep.name for ep in eps} - {CORE})
            if unknown:  # a misspelt name would load nothing, without a word
                sys.stderr.write(f"csolve: warning: CSOLVE_LOAD_PLUGINS names "
                                 f"{', '.join(map(repr, unknown))}, which no installed plugin "
                                 f"is (installed: {', '.join(sorted(e.name for e in eps))})\n")
            for ep in eps:
                _dists[ep.name] = ep.dist
                if ep.value == CORE_MODULE:  # registered below under its own name
                    _dists[CORE] = _dists.pop(ep.name)
                    continue
                if names is None or ep.name in names:
                    _register(pm, ep.name, ep.load)
            _dists.setdefault(CORE, ("csolve", _version()))
            _register(pm, CORE, core)
            _check_pending(pm)
            _pm = pm
        return _pm


def _version() -> str:
    from csolve import __version__

    return __version__


def reset() -> None:
    """Forget the plugin manager (and which failures were reported): the next use loads the
    entry points again. For tests that install plugins on the fly."""
    global _pm
    with _lock:
        _pm = None
        _reported.clear()


def call_hook(hook_name: str, **kwargs: Any) -> None:
    """Call every plugin's ``hook_name``; a plugin whose hook raises is reported and skipped."""
    pm = get_plugin_manager()
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        try:
            impl.function(**kwargs)
        except Exception as e:
            report_failure(impl.plugin_name, f"failed in {hook_name}", e)


def _collect(hook_name: str) -> list[tuple[Any, str]]:
    """Call a ``register``-style hook; returns (item, plugin name) pairs. A plugin whose hook
    raises contributes nothing (not even what it registered before raising)."""
    pm = get_plugin_manager()
    items: list[tuple[Any, str]] = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        mine: list[Any] = []
        try:
            impl.function(mine.append)
        except Exception as e:
            report_failure(impl.plugin_name, f"failed in {hook_name}", e)
            continue
        items.extend((item, impl.plugin_name) for item in mine)
    return items


def collect_named(hook_name: str, what: str, asked: str | None = None
                  ) -> tuple[dict[str, tuple[Any, str]], dict[str, PluginConflictError]]:
    """A ``register``-style hook's items by ``name``: ({name: (item, plugin)}, {name: error})
    where the errors are the names two plugins registered (neither is used). Each conflict is
    reported once on stderr, but for the name ``asked`` (the caller raises its error, the one
    line said of it); using the name raises its error. A name the core has stays the core's
    (it is always loaded, and other plugins' models name its rules): another plugin's item of
    that name is skipped, with a warning."""
    found: dict[str, tuple[Any, str]] = {}
    owners: dict[str, list[str]] = {}
    core_items: dict[str, Any] = {}
    for item, plugin in _collect(hook_name):
        name = getattr(item, "name", None)
        if isinstance(item, type) or not isinstance(name, str) or not name:
            report_failure(plugin, f"failed in {hook_name}", TypeError(
                f"it registered {item!r}: register an instance with a name, "
                f"register(MyType()), not a class or a nameless object"))
            continue
        owners.setdefault(name, [])
        if plugin not in owners[name]:
            owners[name].append(plugin)
        found.setdefault(name, (item, plugin))
        if plugin == CORE:
            core_items.setdefault(name, item)
    conflicts: dict[str, PluginConflictError] = {}
    for name, who in owners.items():
        if len(who) > 1 and name in core_items:
            found[name] = (core_items[name], CORE)
            for other in who:
                if other != CORE:
                    _warn_once(f"core\0{what}\0{name}\0{other}",
                               f"{describe(other)} registers {what} {name!r}, a name the "
                               f"core has: the core's is used and this one skipped")
        elif len(who) > 1:
            plugins = " and ".join(describe(p) for p in who)
            conflicts[name] = PluginConflictError(
                f"{what} {name!r} is registered by both {plugins}; remove one, or choose "
                f"with CSOLVE_LOAD_PLUGINS")
            del found[name]
            if name != asked:
                _warn_once(f"conflict\0{what}\0{name}", str(conflicts[name]))
    return found, conflicts


def _warn_once(key: str, message: str) -> None:
    with _lock:
        first = key not in _reported
        _reported.add(key)
    if first:
        sys.stderr.write(f"csolve: warning: {message}\n")


@dataclass(frozen=True)
class PluginInfo:
    name: str
    version: str
    dist: str
    hooks: tuple[str, ...]


def list_plugins() -> list[PluginInfo]:
    """Every registered plugin, with the distribution it comes from and the hooks it uses."""
    pm = get_plugin_manager()
    out = []
    for name, plugin in pm.list_name_plugin():
        dist, version = _dist_of(name, ("(registered in code)", ""))
        hooks = tuple(sorted(h.name for h in pm.get_hookcallers(plugin) or []))
        out.append(PluginInfo(name=name, version=version, dist=dist, hooks=hooks))
    return sorted(out, key=lambda p: p.name)
