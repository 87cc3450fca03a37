"""Reaching Ray from the calling process: a running cluster, or a local one started here.

Ray is an optional dependency (``pip install 'csolve[ray]'``), imported only when a Ray
backend runs. ``address`` (``-O address=auto|HOST:PORT``, else ``RAY_ADDRESS``) joins a
running cluster, which csolve never shuts down; without one, csolve starts a local cluster
with this machine's cores and shuts it down when the process exits (or at :func:`shutdown`),
so no Ray process outlives it.
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from csolve.defaults import cores
from csolve.errors import CsolveError

INSTALL_HINT = "pip install 'csolve[ray]'"
_lock = threading.Lock()
#: what this process connected to: None (nothing), "" (a local cluster it started) or an address
_connected: list[str | None] = [None]


class RayUnavailableError(CsolveError):
    """Ray is not installed, or the cluster asked for cannot be reached."""


def ray_installed() -> bool:
    """True when Ray can be imported (looked up without importing it)."""
    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        return False


def ray_module() -> ModuleType:
    """``import ray``, with Ray's usage reporting off (csolve runs where nothing is reachable)."""
    if not ray_installed():
        raise RayUnavailableError(f"the ray backend needs Ray: {INSTALL_HINT}")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    return ray


@contextmanager
def _own_sigterm() -> Iterator[None]:
    """Keep this process's SIGTERM handling across ``ray.init``, which puts in one of its
    own that exits where it stands, halfway through the start, with Ray's stack dump (the
    command line stops its search, writes what it found and says ``csolve: terminated``).
    A handler of the process's own is not replaced even while ``ray.init`` runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    utils = sys.modules.get("ray._private.utils")
    rays = getattr(utils, "set_sigterm_handler", None)
    if rays is not None and callable(previous):  # (the default stays Ray's to replace)
        utils.set_sigterm_handler = lambda handler: None
    try:
        yield
    finally:
        if rays is not None:
            utils.set_sigterm_handler = rays
        if previous is not None:  # again even where Python's record is unchanged: Ray's
            signal.signal(signal.SIGTERM, previous)  # core worker puts in a handler in C++


def connect(address: str | None = None) -> ModuleType:
    """The ``ray`` module, connected: to ``address`` (or ``RAY_ADDRESS``) when given, else to
    the cluster this process already uses, else to a local cluster started now."""
    ray = ray_module()
    given = "address" if address else "RAY_ADDRESS"  # where an address came from, if any
    address = str(address) if address else os.environ.get("RAY_ADDRESS") or None
    with _lock:
        if ray.is_initialized():
            mine = _connected[0]
            if mine is None or address is None or address == mine:
                return ray  # the caller's own connection, or the one asked for
            ray.shutdown()  # another cluster was asked for: leave this one
            _connected[0] = None
        quiet = {"include_dashboard": False, "log_to_driver": False,
                 "logging_level": logging.ERROR}
        try:
            with _own_sigterm():
                if address:
                    _reachable(address)
                    ray.init(address=address, **quiet)
                else:
                    before = _processes_below(os.getpid())
                    try:
                        ray.init(address="local", num_cpus=cores(),
                                 _node_ip_address="127.0.0.1", **quiet)  # this machine only
                    except BaseException:  # Ctrl-C, a stop or a failure halfway through
                        _end_local_start(ray, before)
                        raise
        except (OSError, ValueError, RuntimeError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if address == "auto" and "Could not find any running Ray instance" in first:
                # Ray's words name its own flag (--address), which csolve has not
                without = "unset RAY_ADDRESS" if given == "RAY_ADDRESS" else "give no address"
                raise RayUnavailableError(
                    f"no Ray cluster is running on this machine to join ({given}=auto): start "
                    f"one with `ray start --head`, or {without} for csolve to start its own"
                ) from None
            where = f"at {address}" if address else "locally"
            raise RayUnavailableError(f"cannot start or reach a Ray cluster {where}: {first}"
                                      ) from None
        if _connected[0] is None and not getattr(connect, "_atexit", False):
            atexit.register(shutdown)
            connect._atexit = True  # type: ignore[attr-defined]
        _connected[0] = address or ""
    return ray


#: what an HTTP/2 client sends first; a gRPC server (Ray's) answers with a SETTINGS frame
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
HTTP2_SETTINGS = 4


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Fail fast when ``HOST:PORT`` does not answer, or answers as something other than a
    gRPC server (a web server, a database on a mistyped port): Ray itself retries for
    minutes, or tens of seconds with a screen of its own warnings, deaf to Ctrl-C."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):
        return  # "auto", or a form Ray resolves itself
    host = host.removeprefix("[").removesuffix("]")  # an IPv6 address: [::1]:6379
    with socket.create_connection((host, int(port)), timeout=seconds) as conn:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return  # a TLS handshake comes first: nothing to tell from plain bytes
        head = b""
        try:
            conn.sendall(HTTP2_PREFACE)
            conn.settimeout(min(seconds, 2.0))
            while len(head) < 4:  # a frame's type is its fourth byte; it may come in pieces
                more = conn.recv(9 - len(head))
                if not more:
                    break
                head += more
        except TimeoutError:
            return  # a slow server says nothing either way: Ray will tell
        if len(head) < 4 or head[3] != HTTP2_SETTINGS:
            raise ConnectionError(f"{host}:{port} answers, but not as a Ray cluster (no gRPC "
                                  "server there)")


def _end_local_start(ray: ModuleType, before: dict[int, bytes]) -> None:
    """Stop what a local start cut short has started. Its processes may not be Ray's to stop
    yet (cut short before Ray recorded them), and the agents its raylet started wait a minute
    or more for a cluster that is gone: every Ray process that appeared below this one since
    ``before`` (pid: start time) is ended too."""
    started = {pid: since for pid, since in _processes_below(os.getpid()).items()
               if before.get(pid) != since and _is_ray(pid)}
    try:
        ray.shutdown()
    except Exception:  # noqa: BLE001 (already stopping: what is left is ended below)
        pass
    for pid, since in started.items():
        if _start_time(pid) == since:  # the same process, not another given its pid since
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # gone meanwhile
                pass


def _stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the process name, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _start_time(pid: int) -> bytes | None:
    fields = _stat(pid)
    return fields[19] if fields and len(fields) > 19 else None


def _processes_below(root: int) -> dict[int, bytes]:
    """The descendants of ``root`` and their start times, where ``/proc`` tells (Linux);
    elsewhere none."""
    if not os.path.isdir("/proc"):
        return {}
    children: dict[int, list[tuple[int, bytes]]] = {}
    for entry in os.scandir("/proc"):
        fields = _stat(int(entry.name)) if entry.name.isdigit() else None
        if fields and len(fields) > 19:
            children.setdefault(int(fields[1]), []).append((int(entry.name), fields[19]))
    below: dict[int, bytes] = {}
    frontier = [root]
    while frontier:
        for pid, since in children.get(frontier.pop(), ()):
            below[pid] = since
            frontier.append(pid)
    return below


def _is_ray(pid: int) -> bool:
    """Whether ``pid`` runs one of Ray's programs: its raylet or GCS server, or a process
    that names itself ``ray::...`` (its agents and workers), or a script of the ray package."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    program = os.path.basename(argv[0])
    return (program in (b"raylet", b"gcs_server") or argv[0].startswith(b"ray::")
            or any(b"/ray/" in arg and arg.endswith(b".py") for arg in argv[1:3]))


def shutdown() -> None:
    """Disconnect from Ray; a local cluster this process started stops with it."""
    with _lock:
        if _connected[0] is None:
            return
        _connected[0] = None
    import ray

    if ray.is_initialized():
        ray.shutdown()


def cluster_cpus(ray: ModuleType) -> int:
    """CPUs of the whole cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
