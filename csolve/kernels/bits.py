"""Bit intrinsics the kernels lean on: one machine instruction each, and cache-friendly.

Candidate sets are ``uint64`` masks: bit ``v - 1`` set means value ``v`` is still possible.
"""

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


def kernel(func=None, **options):
    """The decorator for csolve kernels and rules: ``njit(cache=True, nogil=True)`` without
    numba's reference counting.

    Kernels allocate nothing (callers own every array), so NRT has nothing to do but
    increment and decrement counters on every array passed to every call - atomics that cost
    3-4x on small rules and bounce cache lines between threads. Rules written with plain
    ``njit`` still work; they are only slower.
    """
    opts = {"cache": True, "nogil": True, "_nrt": False, **options}
    if func is None:
        return lambda f: njit(**opts)(f)
    return njit(**opts)(func)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ``ctpop``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit (LLVM ``cttz``); undefined for 0."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def cycle_counter(typingctx):
    """The CPU's cycle counter (``llvm.readcyclecounter``); 0 where the CPU has none."""
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

