"""Bit intrinsics the kernels lean on: one machine instruction each, and cache-friendly.

Candidate sets are ``uint64`` masks: bit ``v - 1`` set means value ``v`` is still possible.
"""

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from csolve.kernels.lazy import Kernel, Lazy


def kernel(func: Callable | None = None, **options: Any) -> Any:
    """The decorator for csolve kernels and rules: ``njit(cache=True, nogil=True)`` without
    numba's reference counting.

    Kernels allocate nothing (callers own every array), so NRT has nothing to do but
    increment and decrement counters on every array passed to every call - atomics that cost
    3-4x on small rules and bounce cache lines between threads. Rules written with plain
    ``njit`` still work; they are only slower.

    It returns a :class:`~csolve.kernels.lazy.Kernel`, which imports numba only when the
    kernel must be compiled or loaded numba's way (machine code saved by an earlier run needs
    no numba).
    """
    opts = {"cache": True, "nogil": True, "_nrt": False, **options}
    if func is None:
        return lambda f: Kernel(f, lambda g: _njit(g, opts))
    return Kernel(func, lambda g: _njit(g, opts))


def intrinsic(func: Callable) -> Lazy:
    """numba's ``intrinsic``, made when a kernel that uses it is compiled."""
    def make(f: Callable) -> Any:
        from numba.extending import intrinsic as numba_intrinsic

        return numba_intrinsic(f)

    return Lazy(func, make)


def _njit(func, opts: dict):
    """``njit(**opts)(func)``; with nowhere to cache it (numba: "no locator available"), the
    same kernel compiled in memory only, said once on stderr."""
    from numba import njit

    from csolve.kernels.diskcache import listen_for_compiles

    listen_for_compiles()
    try:
        with _in_cache_dir(bool(opts.get("cache"))):
            dispatcher = njit(**opts)(func)
    except RuntimeError as e:
        if not opts.get("cache") or "no locator available" not in str(e):
            raise
        from csolve.kernels.diskcache import memory_only

        memory_only("no writable directory to cache compiled kernels in")
        return njit(**{**opts, "cache": False})(func)
    if opts.get("cache"):
        _stamp_dependencies(dispatcher, func)
    return dispatcher


@contextmanager
def _in_cache_dir(caching: bool) -> Iterator[None]:
    """While a kernel is defined (when numba picks where to cache it), numba's cache
    directory is ``CSOLVE_CACHE_DIR``, so that it holds every compiled kernel, not only the
    generated ones (:func:`csolve.kernels.diskcache.cache_dir`); numba would keep the others
    beside their sources. Only then: other numba code in the process keeps its own setting,
    and ``NUMBA_CACHE_DIR``, when set, wins."""
    chosen = os.environ.get("CSOLVE_CACHE_DIR")
    if not caching or not chosen or os.environ.get("NUMBA_CACHE_DIR"):
        yield
        return
    from numba.core import config

    from csolve.kernels.diskcache import writable_cache_dir

    usable = writable_cache_dir()  # the directory asked for, or where kernels go instead
    before = config.CACHE_DIR
    config.CACHE_DIR = str(usable) if usable is not None else chosen
    try:
        yield
    finally:
        config.CACHE_DIR = before


def _stamp_dependencies(dispatcher, func) -> None:
    """Make the kernel's disk cache stale when any module its module imports changes, not
    only its own file (see :mod:`csolve.kernels.depends`). Generated kernel modules are
    skipped: their names already carry that hash."""
    name = getattr(func, "__module__", None) or ""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if not name or name.startswith("csolve_kernels_") or cache_file is None:
        return
    try:
        from csolve.kernels.depends import module_digest

        cache_file._source_stamp = (cache_file._source_stamp, module_digest(name))
    except Exception:  # a numba whose cache differs: numba's own stamp, as before
        pass


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ``ctpop``)."""
    from numba import types

    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit (LLVM ``cttz``); undefined for 0."""
    from llvmlite import ir
    from numba import types

    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


#: CPUs whose BMI2 ``pext`` is slow (microcoded: tens to hundreds of cycles, by the mask),
#: and ``generic``, LLVM's name for a CPU it does not know (Hygon's Zen 1 among them)
SLOW_PEXT_CPUS = frozenset({"bdver4", "znver1", "znver2", "generic"})


def target_cpu() -> tuple[str, str]:
    """The CPU name and feature string numba compiles for: ``NUMBA_CPU_NAME`` and
    ``NUMBA_CPU_FEATURES`` when set, else this machine's (numba keys its disk cache by them).
    Read the way numba's configuration reads them, without importing numba (nor, once
    remembered, LLVM: :mod:`csolve.kernels.hostcpu`)."""
    from csolve.kernels.hostcpu import host_cpu

    name = os.environ.get("NUMBA_CPU_NAME") or None
    features = os.environ.get("NUMBA_CPU_FEATURES")
    if features is None and str(name).lower() == "generic":
        features = ""
    host_name, host = host_cpu() if features is None or name is None else (name, None)
    if features is None:
        if host is not None and not _avx_enabled(name or host_name, host):
            host = {k: (False if k.startswith("avx") else v) for k, v in host.items()}
        # as llvmlite's FeatureMap.flatten writes them
        features = ",".join(f"{'+' if v else '-'}{k}" for k, v in sorted((host or {}).items()))
    return name or host_name, features


def _avx_enabled(cpu_name: str, host_features: Any) -> bool:
    """numba's ``NUMBA_ENABLE_AVX``: the variable when set, else on except on the CPUs numba
    turns it off for (and where the CPU has no AVX, which the flag then does not change)."""
    setting = os.environ.get("NUMBA_ENABLE_AVX")
    if setting is not None:
        try:
            return bool(int(setting))
        except ValueError:
            pass
    if not host_features.get("avx", False):
        return True  # nothing to turn off
    return cpu_name not in {"corei7-avx", "core-avx-i", "sandybridge", "ivybridge"}


def has_bmi2(features: str | None = None) -> bool:
    """Whether the target CPU (:func:`target_cpu`) has BMI2, so :func:`pext` runs at all."""
    if features is None:
        features = target_cpu()[1]
    return "+bmi2" in features.split(",")


def fast_pext(cpu_name: str | None = None, features: str | None = None) -> bool:
    """Whether a kernel should use :func:`pext`: the target CPU has BMI2 and runs ``pext``
    in one instruction. Kernels that use it keep a portable version for other CPUs and
    choose at import; since numba's disk cache is keyed by the same CPU name and features,
    a cached kernel never meets a CPU that would have chosen the other version."""
    if cpu_name is None or features is None:
        name, feats = target_cpu()
        cpu_name = name if cpu_name is None else cpu_name
        features = feats if features is None else features
    return has_bmi2(features) and cpu_name not in SLOW_PEXT_CPUS


@intrinsic
def pext(typingctx, x, mask):
    """The bits of ``x`` under ``mask``, packed at the bottom (BMI2 ``pext``). Correct
    wherever :func:`has_bmi2`; worth using only where :func:`fast_pext`."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, list(args))

    return sig, codegen


@intrinsic
def cycle_counter(typingctx):
    """The CPU's cycle counter (``llvm.readcyclecounter``); 0 where the CPU has none."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    sig = types.uint64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen



@kernel(inline="always")
def is_single(mask):
    """True when exactly one bit is set."""
    return mask != 0 and (mask & (mask - 1)) == 0

