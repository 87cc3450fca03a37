"""Kernels that import numba only when they must compile.

:func:`csolve.kernels.bits.kernel` returns a :class:`Kernel`: a stand-in for the numba
dispatcher it would have made. Called from Python, it first runs the machine code numba saved
for those argument types in an earlier process (:mod:`csolve.kernels.native`), without
importing numba. Otherwise, and for anything else asked of it (its overloads, its cache, its
options), it makes the real dispatcher (imports numba, loads or compiles) and hands over.

Kernels call each other by their module globals, which hold stand-ins: before the first
dispatcher is made, numba is taught to type a stand-in as what it stands for (the dispatcher
or intrinsic), so it types, inlines and links the callees it would have met with plain
``njit``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from csolve.errors import OptionError
from csolve.kernels import native
from csolve.kernels.argtypes import describe

_lock = threading.RLock()
_taught = False
#: what a kernel keeps per argument types: the saved code's entry; the path numba's code is
#: to be saved to once it has run them (none saved yet), or ``False`` where it cannot be saved;
#: or ``_NUMBA``, numba runs them from now on (it has them loaded, and saved them if it could)
_NUMBA = "numba"


class Lazy:
    """Something numba makes, made on first need; ``real`` is what ``make`` returned."""

    def __init__(self, func: Callable, make: Callable[[Callable], Any]) -> None:
        self.py_func = func
        self._make = make
        self._real: Any = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__

    @property
    def real(self) -> Any:
        """The numba object (imports numba, and loads or compiles nothing yet)."""
        real = self._real
        if real is None:
            from numba.core import config
            from numba.core.compiler_lock import global_compiler_lock

            if config.DISABLE_JIT:
                raise JitDisabledError()

            # numba's lock first, as a compile that meets a stand-in takes them: either
            # order alone could deadlock two threads
            with global_compiler_lock, _lock:
                if self._real is None:
                    _teach_numba()
                    self._real = self._make(self.py_func)
                real = self._real
        return real

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.real(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # public names make numba's object; private ones only reach one already made, so
        # that a probe (pytest's, asyncio's, inspect's) does not import numba
        if name.startswith("_") and (name.startswith("__") or self.__dict__.get("_real") is None):
            raise AttributeError(name)
        return getattr(self.real, name)

    def __reduce__(self) -> tuple:
        return (_named, (self.__module__, self.__qualname__))

    def __repr__(self) -> str:
        state = "made" if self._real is not None else "not made yet"
        return f"<{type(self).__name__} {self.__module__}.{self.__qualname__} ({state})>"


class JitDisabledError(OptionError):
    """numba was told to run kernels as plain Python (``NUMBA_DISABLE_JIT``), which csolve's
    cannot do: their intrinsics (bit counts, ``pext``, prefetches) exist only as LLVM code.
    Said in one line, as a setting the user chose, not as the traceback of a bug."""

    def __init__(self) -> None:
        super().__init__("NUMBA_DISABLE_JIT is set, but csolve's kernels run only compiled "
                         "(their LLVM intrinsics have no Python form): unset it")


class Kernel(Lazy):
    """A kernel (a numba dispatcher to be): runs saved machine code when it can."""

    def __init__(self, func: Callable, make: Callable[[Callable], Any]) -> None:
        super().__init__(func, make)
        self._native: dict[str, Any] = {}  # argument types -> entry, Path, False or _NUMBA

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        types, entry = self._saved(args) if not kwargs else (None, None)
        if entry:
            return entry(None, args, None)
        result = self.real(*args, **kwargs)
        if types is not None:
            pending = self._native.get(types)
            if pending is not _NUMBA:
                self._native[types] = _NUMBA  # numba has it loaded now: it keeps running it
                if pending:
                    native.save(self._real, args, pending)
        return result

    def preload(self, args: tuple) -> bool:
        """Make ``self(*args)`` ready to run without compiling, if saved or cached; True if
        it will be (see :func:`csolve.kernels.fastload.preload`)."""
        if self._saved(args)[1]:
            return True
        from csolve.kernels.fastload import preload

        return preload(self.real, args)  # a dispatcher: numba's way

    def _saved(self, args: tuple) -> tuple[str | None, Any]:
        """(the arguments' types, the saved code to run for them, or None)."""
        if not native.enabled():
            return None, None
        types = describe(args)
        if types is None:
            return None, None
        entry = self._native.get(types)
        if entry is None:
            path = native.snapshot_path(self.py_func, types)
            entry = native.load(path) if path is not None else None
            self._native[types] = entry or path or False
        return types, (entry if callable(entry) else None)


def _named(module: str, qualname: str) -> Any:
    """Unpickle a stand-in by name, as numba does its dispatchers."""
    import pkgutil

    return pkgutil.resolve_name(f"{module}:{qualname}")


def _teach_numba() -> None:
    """Type a stand-in as what it stands for, wherever numba meets one."""
    global _taught
    if _taught:
        return
    from numba.core.registry import cpu_target
    from numba.core.typing.typeof import typeof_impl

    @typeof_impl.register(Lazy)
    def _typeof_lazy(val: Lazy, c: Any) -> Any:
        real = val.real
        context = cpu_target.typing_context
        try:
            return context.resolve_value_type(real)
        except (ValueError, TypeError):  # made mid-compile: its typing is not installed yet
            context.refresh()
            return context.resolve_value_type(real)

    _taught = True
