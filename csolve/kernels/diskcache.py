"""Whether compiled kernels can be cached on disk, and saying once when they cannot.

numba caches a kernel beside its source (``__pycache__``) or in a user cache directory; when
nothing is writable (a read-only install, a read-only home, no usable temporary directory)
``cache=True`` raises "no locator available". csolve then compiles in memory: it works, but
every run compiles again, so it says so once on stderr.
"""

from __future__ import annotations

import sys
import threading

_lock = threading.Lock()
_said = False


def memory_only(reason: str) -> None:
    """Note that kernels are compiled in memory because of ``reason``; said once per process."""
    global _said
    with _lock:
        if _said:
            return
        _said = True
    sys.stderr.write(f"csolve: warning: {reason}; compiling kernels in memory (no disk cache: "
                     "every run compiles them again; set CSOLVE_CACHE_DIR to a writable "
                     "directory to keep them)\n")


def warned() -> bool:
    """True once :func:`memory_only` has spoken (for tests)."""
    return _said


def reset() -> None:
    global _said
    with _lock:
        _said = False
