"""What tests (and benchmarks) share: where the public data sets are, a brute-force counter
and random solved grids, all independent of csolve's own code."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


def shared_data(*parts: str) -> Path:
    """A path under the shared public data sets: ``$CSOLVE_SHARED_DATA`` if set, else
    ``../shared/data`` beside the repository. It may not exist; see :func:`shared_file`."""
    base = os.environ.get("CSOLVE_SHARED_DATA")
    root = Path(base) if base else ROOT.parent / "shared" / "data"
    return root.joinpath(*parts)


def shared_file(*parts: str) -> Path:
    """A file under the shared data sets, or skip the calling test when it is not there."""
    path = shared_data(*parts)
    if not path.exists():
        import pytest

        pytest.skip(f"shared data not available: {path}")
    return path


def ctrl_c_reaches_it() -> None:
    """``preexec_fn`` for a child that a test sends Ctrl-C (SIGINT): give it SIGINT's
    default action, as a terminal's foreground job has. A test runner started in the
    background (``pytest &``, ``nohup``) has SIGINT ignored, and its children inherit that:
    they would ignore the test's Ctrl-C as they should, and run on."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def pattern_grid(n: int, rng: random.Random) -> np.ndarray:
    """A random valid solved n×n grid (the base pattern, shuffled by symmetries)."""
    k = int(round(n**0.5))

    def pattern(r: int, c: int) -> int:
        return (k * (r % k) + r // k + c) % n

    def shuffled(s):
        return rng.sample(list(s), len(s))

    rows = [g * k + r for g in shuffled(range(k)) for r in shuffled(range(k))]
    cols = [g * k + c for g in shuffled(range(k)) for c in shuffled(range(k))]
    nums = shuffled(range(1, n + 1))
    return np.array([nums[pattern(r, c)] for r in rows for c in cols], dtype=np.int64)


def brute_force_count(grid: np.ndarray, n: int, cap: int = 10**9,
                      box: tuple[int, int] | None = None) -> int:
    """Count completions of ``grid`` (0 = blank) by plain backtracking, no csolve code;
    boxes of ``box`` (rows, columns), square by default."""
    k = int(round(n**0.5))
    bh, bw = box or (k, k)
    g = [int(x) for x in grid]
    blanks = [i for i, v in enumerate(g) if v == 0]

    def ok(i: int, v: int) -> bool:
        r, c = divmod(i, n)
        for j in range(n):
            if g[r * n + j] == v or g[j * n + c] == v:
                return False
        br, bc = r - r % bh, c - c % bw
        for dr in range(bh):
            for dc in range(bw):
                if g[(br + dr) * n + bc + dc] == v:
                    return False
        return True

    def rec(t: int) -> int:
        if t == len(blanks):
            return 1
        i = blanks[t]
        total = 0
        for v in range(1, n + 1):
            if ok(i, v):
                g[i] = v
                total += rec(t + 1)
                g[i] = 0
                if total >= cap:
                    break
        return total

    return rec(0)


def line_of(grid: np.ndarray) -> str:
    return "".join("." if v == 0 else "123456789ABCDEFG"[v - 1] for v in grid)


def run_cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """The csolve program in this process, as ``csolve ARGS``: (exit code, stdout, stderr).
    In process, so it shares the warm kernels (and any test cluster) with the test."""
    import contextlib
    import io
    import sys

    from csolve.cli import main

    out, err = io.StringIO(), io.StringIO()
    old, old_in = sys.argv, sys.stdin
    sys.argv = ["csolve", *args]
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
            except KeyboardInterrupt:  # as the program's entry point takes one (csolve.program)
                code = 130
    finally:
        sys.argv, sys.stdin = old, old_in
    return code, out.getvalue(), err.getvalue()


def write_package(site: Path, pkg: str, modules: dict[str, str]) -> None:
    """A package ``pkg`` under ``site`` (on ``sys.path`` in the test) holding ``modules``
    (name -> source), written over whatever a previous call left."""
    d = site / pkg
    d.mkdir(parents=True, exist_ok=True)
    (d / "__init__.py").write_text("")
    for name, source in modules.items():
        (d / f"{name}.py").write_text(source)


def svg_drawn(root, tag: str, defs=None) -> list:
    """The ``tag`` elements under an SVG ``root`` (an ElementTree element), each as a copy
    carrying the presentation attributes it inherits from the ``<g>`` groups around it:
    what a browser draws it with. A ``<use>`` draws the group it names, from ``<defs>`` in
    ``root`` or in ``defs`` (a web page's pictures use groups defined once for the page);
    ``<defs>`` themselves are not drawn."""
    import copy

    ns = "{http://www.w3.org/2000/svg}"
    out = []
    named = {el.get("id"): el for tree in (root, defs) if tree is not None
             for el in tree.iter() if el.get("id")}

    def walk(el, inherited: dict) -> None:
        for child in el:
            if child.tag == ns + "defs":
                continue
            if child.tag == ns + "use":
                target = named[child.get("href").removeprefix("#")]
                walk([target], inherited)
                continue
            if child.tag == ns + tag:
                drawn = copy.copy(child)
                drawn.attrib = {**inherited, **child.attrib}
                out.append(drawn)
            if child.tag == ns + "g":
                own = {k: v for k, v in child.attrib.items() if k != "id"}
                walk(child, {**inherited, **own})
            else:
                walk(child, inherited)

    walk(root, {})
    return out
