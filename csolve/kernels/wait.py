"""Busy-waiting outside the GIL, for the ``spin`` wait of the message-passing backend.

A spin loop written in Python holds the GIL until the interpreter's switch interval (5 ms),
starving the very worker that is to hand work over. This loop runs in numba with the GIL
released; re-reading the cycle counter each round keeps LLVM from hoisting the flag load.
"""

from csolve.kernels.bits import cycle_counter, kernel


@kernel
def spin_until_set(flags, i, max_cycles):
    """Spin until ``flags[i] != 0`` (returns 1) or ``max_cycles`` CPU cycles passed (0)."""
    t0 = cycle_counter()
    while flags[i] == 0:
        if cycle_counter() - t0 > max_cycles:
            return 0
    return 1
