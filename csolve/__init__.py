"""csolve: fast, parallel, pluggable constraint-puzzle solving.

The core knows cells, candidate bitmasks, groups and rules; puzzles, extra rules and
work-sharing backends arrive as plugins through the ``csolve`` entry-point group.

From Python (see docs/api.md)::

    import csolve
    hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    result = csolve.solve("sudoku", hard)[0]
    print(result.status, result.solution_line)

``import csolve`` stays light: the solver (numpy, numba) loads on the first call.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> module that defines it, imported on first use
_LAZY = {
    "solve": "csolve.api", "Solver": "csolve.api", "count": "csolve.api",
    "rate": "csolve.api", "explain": "csolve.api", "generate": "csolve.api",
    "validate": "csolve.api", "read": "csolve.api", "puzzle_types": "csolve.api",
    "puzzle_type": "csolve.api", "backends": "csolve.api",
    "Result": "csolve.outcome", "ResultBlock": "csolve.outcome", "Status": "csolve.outcome",
    "End": "csolve.outcome",
    "Stats": "csolve.outcome", "Puzzle": "csolve.puzzle", "PuzzleBatch": "csolve.puzzle",
    "PuzzleType": "csolve.puzzle",
    "CsolveError": "csolve.errors", "PuzzleInputError": "csolve.errors",
    "OptionError": "csolve.errors", "UnknownNameError": "csolve.errors",
    "NoSolutionError": "csolve.errors", "SearchTimeoutError": "csolve.errors",
    "RuleError": "csolve.errors", "UnsoundStepError": "csolve.errors",
    "GenerationError": "csolve.generate", "GenerationTimeoutError": "csolve.generate",
    "new_ctrl": "csolve.search",
    "hookimpl": "csolve.hookspecs",
}

__all__ = [
    "CsolveError", "End", "GenerationError", "GenerationTimeoutError", "NoSolutionError",
    "OptionError", "Puzzle", "PuzzleBatch", "PuzzleInputError", "PuzzleType", "Result",
    "ResultBlock", "RuleError", "SearchTimeoutError", "Solver", "Stats", "Status",
    "UnknownNameError", "UnsoundStepError", "__version__", "backends", "count", "explain",
    "generate", "hookimpl", "new_ctrl", "puzzle_type", "puzzle_types", "rate", "read", "solve",
    "validate",
]

if TYPE_CHECKING:
    from csolve.api import (
        Solver,
        backends,
        count,
        explain,
        generate,
        puzzle_type,
        puzzle_types,
        rate,
        read,
        solve,
        validate,
    )
    from csolve.errors import (
        CsolveError,
        NoSolutionError,
        OptionError,
        PuzzleInputError,
        RuleError,
        SearchTimeoutError,
        UnknownNameError,
        UnsoundStepError,
    )
    from csolve.generate import GenerationError, GenerationTimeoutError
    from csolve.hookspecs import hookimpl
    from csolve.outcome import End, Result, ResultBlock, Stats, Status
    from csolve.puzzle import Puzzle, PuzzleBatch, PuzzleType
    from csolve.search import new_ctrl


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'csolve' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


#: API functions named like a submodule (csolve/generate.py, csolve/backends/)
_SHADOWED = frozenset({"generate", "backends"})


class _Package(types.ModuleType):
    """The ``csolve`` package: importing ``csolve.generate`` or ``csolve.backends`` (which
    Python records as an attribute of the package) must not hide the API's functions of
    the same names; the submodules stay in ``sys.modules``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
