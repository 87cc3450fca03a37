"""Search engines: specialised search kernels that a model can name instead of the generic DFS.

The generic search (:mod:`csolve.kernels.search_template`) works on any model through its
rules. An engine is a plugin's search for one model structure it knows, with the same
signature and contract: it takes and leaves the stack in the core's one-mask-per-cell layout
whenever it returns, so backends can share its nodes, batches and the generator can call it,
and a time-out or Ctrl-C stops it like any search. Inside one call it may keep its own layout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import import_module
from typing import TYPE_CHECKING

from csolve.errors import OptionError, UnknownNameError

if TYPE_CHECKING:
    from csolve.kernels.workspace import Workspace
    from csolve.model import Model

#: The name that selects the generic search over the model's rules.
GENERIC = "dfs"
#: the clause-learning engine the core registers: hard puzzles move to it, and it searches
#: one node at a time, cutting it in two when asked to share
LEARNING = "learning"


@dataclass(frozen=True)
class Engine:
    """A search engine.

    ``kernel`` is ``"module:function"`` naming a numba kernel with the signature of
    :func:`csolve.kernels.search_template.search`. ``models`` says in words which models it
    can search and ``fits(model)`` decides it, so asking for it elsewhere is a clear error.
    ``scratch``, if given, is ``"module:function"`` naming ``f(model) -> (int64 words,
    uint64 words)``: the workspace scratch the engine needs, for memory it keeps between
    calls.
    """

    name: str
    kernel: str
    description: str
    models: str = ""
    fits: Callable[[Model], bool] | None = None
    origin: str = ""
    scratch: str = ""


def all_engines() -> dict[str, Engine]:
    return _engines_and_conflicts()[0]


def _engines_and_conflicts(asked: str | None = None) -> tuple[dict[str, Engine], dict]:
    from csolve.plugins import collect_named

    found, conflicts = collect_named("csolve_register_engines", "engine", asked)
    engines: dict[str, Engine] = {}
    for engine, plugin in found.values():
        if not engine.origin:
            engine = replace(engine, origin=plugin)
        engines[engine.name] = engine
    return engines, conflicts


def get_engine(name: str) -> Engine:
    """A registered engine by name; an unknown name is a one-line error."""
    engines, conflicts = _engines_and_conflicts(asked=name)
    if name in conflicts:
        raise conflicts[name]
    if name not in engines:
        known = ", ".join(sorted({GENERIC, *engines}))
        raise UnknownNameError(f"unknown engine {name!r} (known: {known})")
    return engines[name]


def engine_path(name: str) -> str:
    """The kernel path of an engine given by name ("" for the generic search)."""
    if not name or name == GENERIC:
        return ""
    kernel = get_engine(name).kernel
    if ":" not in kernel:
        raise UnknownNameError(f"engine {name!r} names no kernel (want 'module:function', "
                               f"got {kernel!r})")
    return kernel


def with_engine(model: Model, name: str | None) -> Model:
    """``model`` searched by the engine ``name`` (``None``: the model's own choice; "dfs":
    the generic search); an engine that cannot search this model is an error."""
    if name is None:
        return model
    if name == GENERIC:
        return model.with_engine("")
    engine = get_engine(name)
    if engine.fits is not None and not engine.fits(model):
        own = (f" (this puzzle also has the constraint rule(s) "
               f"{', '.join(model.constraint_rules)}, which it does not run)"
               if model.constraint_rules else "")
        raise OptionError(f"engine {name!r} cannot search this puzzle; it searches "
                          f"{engine.models or 'other models'}{own}")
    return model.with_engine(name)


def workspace_for(model: Model) -> Workspace:
    """A workspace for searching ``model``: with the scratch its engine asks for, if any."""
    from csolve.kernels.workspace import new_workspace

    if model.engine:
        scratch = get_engine(model.engine).scratch
        if scratch:
            module, _, func = scratch.partition(":")
            i64, u64 = getattr(import_module(module), func)(model)
            return new_workspace(model.n_cells, int(i64), int(u64))
    return new_workspace(model.n_cells)
