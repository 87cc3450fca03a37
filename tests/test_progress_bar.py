"""The progress bar on a real terminal (a pseudo-terminal): drawn while a file of puzzles is
solved, gone at the end, and never counting fewer puzzles than are printed above it."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest

from .helpers import PUZZLES

pty = pytest.importorskip("pty", reason="pseudo-terminals are a POSIX feature")

EASY = "..687....43.1.9.87....24.162.1.........91...8..8437.9..2..51.....4..31.516574..2."
#: past 3 depth-first nodes: with --escalate-after 3 the learning engine takes it over,
#: after the easy one above it has been printed
HANDED_OVER = "9......8...429.3..8......6.6....429....7....1..3.....64.....5...82.73....7..6...."
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BAR = re.compile(r"^solving\b.*?(\d+)/(\d+)")


def on_a_terminal(*args: str, seconds: float = 300.0) -> str:
    """What ``csolve ARGS`` writes to a terminal (stdout and stderr both), control
    sequences taken out; the run killed past ``seconds`` (a first run compiles kernels)."""
    try:
        leader, follower = pty.openpty()
    except OSError as error:  # no pseudo-terminal device in this container
        pytest.skip(f"no pseudo-terminal here: {error}")
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_INTERACTIVE", "TTY_COMPATIBLE")}
    env.update(COLUMNS="120", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "csolve", *args], stdin=subprocess.DEVNULL,
                            stdout=follower, stderr=follower, env=env, cwd=PUZZLES.parent)
    os.close(follower)
    chunks = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"csolve {' '.join(args)} still running after {seconds:g} s"
            ready, _, _ = select.select([leader], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(leader, 65536)
            except OSError:  # the child closed the terminal (EIO on Linux)
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(leader)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert proc.returncode == 0
    return ANSI.sub("", b"".join(chunks).decode("utf-8", "replace"))


def test_the_bar_never_counts_fewer_than_are_printed(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{EASY}\n{HANDED_OVER}\n")
    screen = on_a_terminal("solve", "sudoku", str(path), "--escalate-after", "3",
                           "--output", "line")
    printed = 0
    bars = []
    for piece in re.split(r"[\r\n]", screen):
        piece = piece.strip()
        bar = BAR.match(piece)
        if bar:
            assert int(bar.group(2)) == 2
            bars.append(int(bar.group(1)))
            assert bars[-1] >= printed, screen  # the bar under a printed result counts it
        elif re.fullmatch(r"[1-9]{81}", piece):
            printed += 1
    assert printed == 2 and bars, screen
    last = [p.strip() for p in re.split(r"[\r\n]", screen) if p.strip()][-1]
    assert last.startswith("2 puzzles: 2 solved"), screen  # the bar is gone at the end
