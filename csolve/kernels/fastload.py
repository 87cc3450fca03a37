"""Load a kernel's cached machine code without starting numba's compiler.

A ``cache=True`` dispatcher called for the first time in a process goes through
``Cache.load_overload``, which first refreshes the whole CPU target context: it imports every
extension registry numba has (typed containers, random, linalg, ... - and, through
``numba.np.arraymath``, scipy.linalg to probe for BLAS). That was ~0.25 s of a ~0.75 s CLI
run, spent on machinery a cached nopython kernel never uses: rebuilding it needs only the
code generator, the runtime's symbols and the object code on disk.

:func:`preload` does just that for one dispatcher and one set of arguments. It is an
optimisation with a safe way out: whenever it cannot be sure (no cache entry, a stale one,
object mode, a numba whose internals differ), it does nothing and the first ordinary call
loads or compiles the kernel the usual way. Anything that compiles later in the process
refreshes the context itself (numba's compiler does so before every compilation).
``CSOLVE_FASTLOAD=0`` in the environment turns it off (every kernel loads numba's own way).
"""

from __future__ import annotations

from typing import Any


def preload(dispatcher: Any, args: tuple) -> bool:
    """Make ``dispatcher(*args)`` run cached code without a context refresh; True if it will.

    True also when a matching overload was already there; False leaves the work to the first
    call.
    """
    from csolve.kernels import native
    from csolve.kernels.lazy import Kernel

    if not native.enabled():
        return False

    if isinstance(dispatcher, Kernel):  # saved machine code first, then numba's cache
        return dispatcher.preload(args)
    try:
        from numba import typeof
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.typing.typeof import Purpose

        with global_compiler_lock:
            _type_plain_arrays_directly()
            sig = tuple(typeof(a, Purpose.argument) for a in args)
            if sig in dispatcher.overloads:
                return True
            cache = dispatcher._cache
            if not getattr(cache, "_enabled", False):  # caching off (a NullCache)
                return False
            ctx = dispatcher.targetctx
            data = cache._cache_file.load(cache._index_key(sig, ctx.codegen()))
            if data is None:  # not cached, or cached from other sources
                return False
            _register_symbols(ctx, data)
            cres = cache._impl.rebuild(ctx, data)
            if cres is None or cres.objectmode:
                return False
            dispatcher._cache_hits[sig] += 1
            ctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
            dispatcher.add_overload(cres)
            return True
    except Exception:  # any surprise: the ordinary first call does it the usual way
        return False


#: numba's own typing of arrays, which plain ones bypass once set
_numbas: Any = None


def _type_plain_arrays_directly() -> None:
    """Have numba type a plain ``numpy.ndarray`` without first asking whether it is a masked
    array: that question imports ``numpy.ma`` (~10 ms), on the first call with a tuple of
    arrays (a model) if not before. Masked arrays and other subclasses still go to numba's
    own function, so every array is typed exactly as before."""
    global _numbas
    if _numbas is not None:
        return
    import numpy as np
    from numba.core import types
    from numba.core.typing.typeof import typeof_impl
    from numba.np import numpy_support

    numbas = _numbas = typeof_impl.dispatch(np.ndarray)

    @typeof_impl.register(np.ndarray)
    def _typeof_ndarray(val: Any, c: Any) -> Any:
        if type(val) is not np.ndarray:
            return numbas(val, c)
        try:
            dtype = numpy_support.from_dtype(val.dtype)
        except Exception:  # numba's function raises its own error for this array
            return numbas(val, c)
        return types.Array(dtype, val.ndim, numpy_support.map_layout(val),
                           readonly=not val.flags.writeable)


def _register_symbols(ctx: Any, data: tuple) -> None:
    """Register the C symbols a refresh would have and the cached code may use: the
    runtime's (``NRT_*``, for code compiled with NRT) and the hash secrets (for code that
    hashes). Kernels use neither, which saves ~20 ms; unless the object code plainly names
    neither, both are registered."""
    try:
        blobs = data[0][2]
        if not (blobs and all(isinstance(b, bytes) for b in blobs)):
            blobs = None
    except (TypeError, IndexError):
        blobs = None
    if blobs is None or any(b"NRT_" in b for b in blobs):
        from numba.core.runtime import nrt

        nrt.rtsys.initialize(ctx)
    if blobs is None or any(b"hashsecret" in b for b in blobs):
        import numba.cpython.hashing  # noqa: F401
