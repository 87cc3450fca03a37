"""Joining a Ray cluster by address: what ``_reachable`` refuses at once, without Ray."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from csolve.backends.ray_cluster import _reachable


def _listener(answer: bytes | tuple[bytes, ...] | None):
    """A local TCP server that reads what comes and sends ``answer`` (pieces a moment
    apart when a tuple; None: says nothing; b"": hangs up at once)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    done = threading.Event()

    def serve() -> None:
        conn, _ = srv.accept()
        with conn:
            conn.recv(100)
            for piece in (answer if isinstance(answer, tuple) else
                          () if answer is None else (answer,)):
                conn.sendall(piece)
                time.sleep(0.05)  # (pieces, if the network keeps them apart: either way)
            if answer != b"":
                done.wait(5)
        srv.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"127.0.0.1:{srv.getsockname()[1]}", done


SETTINGS = bytes([0, 0, 0x18, 4, 0, 0, 0, 0, 0])  # a gRPC server's first frame: Ray's


@pytest.mark.parametrize("answer,refused", [
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", True),  # a web server on a mistyped port
    (b"-ERR unknown command\r\n", True),  # a database
    (b"", True),  # one that hangs up at once
    (SETTINGS, False),
    ((SETTINGS[:2], SETTINGS[2:]), False),  # the same frame in two pieces
    (None, False),  # one that says nothing in time: Ray is left to tell
])
def test_an_address_that_is_no_ray_cluster_is_refused_at_once(answer, refused):
    address, done = _listener(answer)
    try:
        if refused:
            with pytest.raises(ConnectionError, match="answers, but not as a Ray cluster"):
                _reachable(address, seconds=0.5)
        else:
            _reachable(address, seconds=0.5)
    finally:
        done.set()


def test_an_ipv6_address_is_reached_without_its_brackets():
    try:
        srv = socket.socket(socket.AF_INET6)
        srv.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    srv.listen(1)
    port = srv.getsockname()[1]
    accepted = threading.Event()

    def serve() -> None:
        conn, _ = srv.accept()
        with conn:
            conn.recv(100)
            conn.sendall(SETTINGS)
            accepted.set()
        srv.close()

    threading.Thread(target=serve, daemon=True).start()
    _reachable(f"[::1]:{port}", seconds=0.5)
    assert accepted.wait(5)


def test_address_auto_with_no_cluster_is_said_in_csolve_words(monkeypatch):
    """Ray's own words name its command's flag (``--address``), which csolve has not."""
    import importlib

    cluster = importlib.import_module("csolve.backends.ray_cluster")  # (csolve.backends is
                                                                       # also the API's function)

    class NoCluster:  # Ray as it answers where no cluster runs (without starting one)
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**_kwargs) -> None:
            raise ConnectionError("Could not find any running Ray instance. Please specify the "
                                  "one to connect to by setting the `--address` flag or "
                                  "`RAY_ADDRESS` environment variable.")

    monkeypatch.setattr(cluster, "ray_module", lambda: NoCluster)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(cluster.RayUnavailableError) as caught:
        cluster.connect("auto")
    assert str(caught.value) == (
        "no Ray cluster is running on this machine to join (address=auto): start one with "
        "`ray start --head`, or give no address for csolve to start its own")
    monkeypatch.setenv("RAY_ADDRESS", "auto")  # the same address from the environment
    with pytest.raises(cluster.RayUnavailableError) as caught:
        cluster.connect(None)
    assert str(caught.value) == (
        "no Ray cluster is running on this machine to join (RAY_ADDRESS=auto): start one with "
        "`ray start --head`, or unset RAY_ADDRESS for csolve to start its own")


def _ended(pid: int) -> bool:
    """Gone, or a zombie (ended, not yet reaped by whoever adopted it)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
    except OSError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc (Linux)")
def test_a_local_start_cut_short_leaves_no_process_behind(monkeypatch):
    """Ctrl-C halfway through starting a local cluster: the processes the start began (here
    a stand-in raylet with an agent of its own, as Ray's raylet starts its agents) are ended,
    whether or not Ray had recorded them, and the interrupt goes on. A process below this
    one from before the start is left alone, even one that looks like Ray's."""
    import importlib
    import subprocess
    import sys

    cluster = importlib.import_module("csolve.backends.ray_cluster")
    sleeper = "import time; time.sleep(600)"
    python = sys.executable
    started: list[int] = []

    def like_ray(name: str, code: str, **kw) -> subprocess.Popen:
        """``python -c CODE`` that calls itself ``name``, as Ray's processes do."""
        return subprocess.Popen([name, "-c", code], executable=python, **kw)

    class CutShort:  # Ray whose start is interrupted once its processes are up
        shut_down = False

        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**_kwargs) -> None:
            raylet = like_ray("raylet", f"""
import subprocess
agent = subprocess.Popen(["ray::DashboardAgent", "-c", "{sleeper}"], executable={python!r})
print(agent.pid, flush=True)
{sleeper}
""", stdout=subprocess.PIPE, text=True)
            started.extend([raylet.pid, int(raylet.stdout.readline())])  # the agent is up
            raise KeyboardInterrupt

        @classmethod
        def shutdown(cls) -> None:
            cls.shut_down = True

    other = like_ray("raylet", sleeper)  # (another cluster's, say: not this start's)
    try:
        monkeypatch.setattr(cluster, "ray_module", lambda: CutShort)
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
        with pytest.raises(KeyboardInterrupt):
            cluster.connect(None)
        assert CutShort.shut_down and len(started) == 2
        for _ in range(6000):  # the agent is not this process's child: watch them end
            if all(_ended(pid) for pid in started):
                break
            time.sleep(0.01)
        assert [_ended(pid) for pid in started] == [True, True]
        assert other.poll() is None
    finally:
        other.kill()
        for pid in started:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
