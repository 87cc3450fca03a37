"""Load a kernel's cached machine code without starting numba's compiler.

A ``cache=True`` dispatcher called for the first time in a process goes through
``Cache.load_overload``, which first refreshes the whole CPU target context: it imports every
extension registry numba has (typed containers, random, linalg, ... - and, through
``numba.np.arraymath``, scipy.linalg to probe for BLAS). That is ~0.25 s of a ~0.5 s CLI
run, spent on machinery a cached nopython kernel never uses: rebuilding it needs only the
code generator, the runtime's symbols and the object code on disk.

:func:`preload` does just that for one dispatcher and one set of arguments. It is an
optimisation with a safe way out: whenever it cannot be sure (no cache entry, a stale one,
object mode, a numba whose internals differ), it does nothing and the first ordinary call
loads or compiles the kernel the usual way. Anything that compiles later in the process
refreshes the context itself (numba's compiler does so before every compilation).
"""

from __future__ import annotations

from typing import Any


def preload(dispatcher: Any, args: tuple) -> bool:
    """Make ``dispatcher(*args)`` run cached code without a context refresh; True if it will.

    True also when a matching overload was already there; False leaves the work to the first
    call.
    """
    try:
        from numba import typeof
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.runtime import nrt
        from numba.core.typing.typeof import Purpose

        with global_compiler_lock:
            sig = tuple(typeof(a, Purpose.argument) for a in args)
            if sig in dispatcher.overloads:
                return True
            cache = getattr(dispatcher, "_cache", None)
            load = getattr(cache, "_load_overload", None)
            if load is None:  # caching off, or another numba
                return False
            ctx = dispatcher.targetctx
            # C symbols a refresh would have registered: the runtime's (NRT_*), in case a
            # rule was compiled with NRT, and the hash secrets, in case one hashes
            nrt.rtsys.initialize(ctx)
            import numba.cpython.hashing  # noqa: F401

            cres = load(sig, ctx)
            if cres is None or cres.objectmode:
                return False
            dispatcher._cache_hits[sig] += 1
            ctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
            dispatcher.add_overload(cres)
            return True
    except Exception:  # any surprise: the ordinary first call does it the usual way
        return False
