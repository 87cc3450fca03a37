"""Where compiled kernels are cached on disk, whether they can be, and saying once when not.

numba caches a kernel beside its source (``__pycache__``) or in a user cache directory; when
nothing is writable (a read-only install, a read-only home, no usable temporary directory)
``cache=True`` raises "no locator available". csolve then compiles in memory: it works, but
every run compiles again, so it says so once on stderr.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

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


_said_once: set[str] = set()


def say_once(message: str) -> None:
    """``message`` on stderr, once per process."""
    with _lock:
        if message in _said_once:
            return
        _said_once.add(message)
    sys.stderr.write(message + "\n")


def warned() -> bool:
    """True once :func:`memory_only` has spoken (for tests)."""
    return _said


def reset() -> None:
    global _said
    with _lock:
        _said = False


#: set by the command line: say on stderr when kernels are being compiled (the first run with
#: a set of rules takes seconds to a minute; solve's time limit starts after it)
announce_compiles = False
_listener = None
COMPILING = ("csolve: compiling kernels (the first run with these rules and puzzle types; "
             "cached for later runs)")
#: what the notice adds for the command that runs (``solve``: its time limit starts after)
compile_note = ""


def _to_stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


#: where the compile notice goes (the CLI's reporter prints it above its progress bar)
notify: Callable[[str], None] = _to_stderr

#: seconds numba spent compiling kernels since :func:`listen_for_compiles` (a command's
#: summary leaves them out of the time it reports, as results' seconds do)
compile_seconds = 0.0


@contextmanager
def preparing_kernels() -> Iterator[None]:
    """Around loading kernels before a clock starts: where that compiled anything, all of
    its time counts as compiling (importing numba, typing, writing the cache, not only
    numba's compile events), so a first run's puzzle times are what a later run's are."""
    global compile_seconds
    before = compile_seconds
    start = time.perf_counter()
    try:
        yield
    finally:
        compiled = compile_seconds - before
        if compiled > 0:
            compile_seconds += max(0.0, time.perf_counter() - start - compiled)


def listen_for_compiles() -> None:
    """Count the seconds numba spends compiling kernels (it compiles only what its disk
    cache lacks), and say once when it starts: on stderr with :data:`announce_compiles`
    set, else on the ``csolve`` logger at INFO level.
    Called when kernels are defined, so numba is already imported."""
    global _listener
    from numba.core import event

    class Notice(event.Listener):
        said = False  # on stderr, for the command line
        logged = False  # on the csolve logger, for Python
        depth = 0  # compiles nest (a kernel compiles the kernels it calls); numba's lock
        since = 0.0  # keeps them on one thread at a time

        def on_start(self, ev) -> None:
            if self.depth == 0:
                self.since = time.perf_counter()
            self.depth += 1
            if announce_compiles and not self.said:
                self.said = True
                notify(COMPILING + compile_note)
            elif not announce_compiles and not self.logged:
                self.logged = True  # from Python: to whoever listens to the csolve logger
                import logging

                logging.getLogger("csolve").info(COMPILING.removeprefix("csolve: "))

        def on_end(self, ev) -> None:
            global compile_seconds
            self.depth -= 1
            if self.depth == 0:
                compile_seconds += time.perf_counter() - self.since

    with _lock:
        if _listener is not None:
            return
        _listener = Notice()
    event.register("numba:compile", _listener)


def seconds_compiling() -> float:
    """Seconds numba has spent compiling kernels in this process, the compile under way
    included: what a clock that leaves compilation out subtracts."""
    listener = _listener
    if listener is None or listener.depth == 0:
        return compile_seconds
    return compile_seconds + time.perf_counter() - listener.since


def stop_listening() -> None:
    """Undo :func:`listen_for_compiles` (for tests)."""
    global _listener
    with _lock:
        listener, _listener = _listener, None
    if listener is not None:
        from numba.core import event

        event.unregister("numba:compile", listener)


# --- where compiled kernels go ---------------------------------------------------------

def cache_dir() -> Path:
    """Where generated kernel modules (and numba's cache of them) live."""
    for var in ("CSOLVE_CACHE_DIR",):
        if os.environ.get(var):
            return Path(os.environ[var])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "csolve"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "csolve" / "kernels"


def _usable(d: Path) -> bool:
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = d / f".probe-{os.getpid()}-{threading.get_ident()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


#: writable_cache_dir's answers, by cache directory and temporary directory: every kernel
#: defined asks (at import time too), and the answer is a directory written to and removed
_found: dict[tuple[Path, str | None], Path | None] = {}


def writable_cache_dir() -> Path | None:
    """The cache directory, else one under the temporary directory; None when neither can be
    written. A ``CSOLVE_CACHE_DIR`` that cannot be written is said once on stderr."""
    d = cache_dir()
    try:
        tmp_root: str | None = tempfile.gettempdir()
    except (OSError, FileNotFoundError):  # "no usable temporary directory"
        tmp_root = None
    key = (d, tmp_root)
    if key not in _found:
        _found[key] = _writable(d, tmp_root)
    return _found[key]


def _writable(d: Path, tmp_root: str | None) -> Path | None:
    if _usable(d):
        return d
    if tmp_root is None:
        return None
    tmp = Path(tmp_root) / f"csolve-kernels-{os.getuid()}"
    fallback = tmp if _usable(tmp) else None
    if os.environ.get("CSOLVE_CACHE_DIR") and fallback is not None:
        say_once(f"csolve: warning: CSOLVE_CACHE_DIR={d} cannot be written; compiled "
                 f"kernels go to {fallback}")
    return fallback


def write_whole(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` so that a reader (another process included) finds the old
    file or the new one, never part of one; False when it cannot be written (what is kept
    in the cache directory is an optimisation: the next run makes it again)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False
