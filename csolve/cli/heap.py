"""Keep freed memory in the process for the next array instead of handing it back.

A whole file is solved as a few large arrays (candidates, solutions, checks), each freed
when its step ends. glibc's allocator maps blocks that large straight from the operating
system and returns them when freed, so every new array starts on fresh pages that fault in
one by one - on a file of easy puzzles that costs more than their search. A command-line
run is short-lived, so it keeps what it frees and reuses it.
"""

from __future__ import annotations

import ctypes
import sys

#: glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: the largest block glibc allows below its own mmap threshold on 64-bit systems
_MMAP_THRESHOLD = 32 * 1024 * 1024
_TRIM_THRESHOLD = 1024 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Ask glibc to serve blocks up to 32 MiB from the heap and to keep freed memory;
    False where the C library is not glibc (nothing changes there)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
