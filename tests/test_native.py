"""Kernels run the machine code an earlier process saved, without importing numba
(csolve.kernels.native, csolve.kernels.lazy), and never code that is stale."""

from __future__ import annotations

import os
import pickle
import platform
import subprocess
import sys

import numpy as np
import pytest

from csolve.kernels import native
from csolve.kernels.argtypes import describe
from csolve.kernels.bits import target_cpu

from .helpers import PUZZLES, write_package

KERNEL = """
import numpy as np

from csolve.kernels.bits import kernel
from {pkg}.helper import weight

LARGE = np.arange(300_000)  # 2.4 MB: numba bakes its address into the code, and caches nothing


@kernel
def total(values):
    s = 0
    for v in values:
        s += weight(v)
    return s


@kernel
def ratio(values):
    return values[0] // values[1]


@kernel
def large_sum(k):
    return LARGE[:k].sum()
"""
HELPER = """
from csolve.kernels.bits import kernel


@kernel(inline="always")
def weight(v):
    return v * {factor}
"""
CHILD = """
import sys
import numpy as np
from {pkg}.kernel import total
print(total(np.arange(5, dtype=np.int64)), total(np.arange(3, dtype=np.int32)))
print("numba", "numba" in sys.modules)
"""
# saved code first, then a type nothing saved: numba loads after numba's C helpers were
MIXED = """
import numpy as np
from {pkg}.kernel import total
print(total(np.arange(5, dtype=np.int64)), total(np.arange(4, dtype=np.float64)),
      total(np.arange(3, dtype=np.int32)))
"""


def install(site, pkg: str, factor: int) -> None:
    write_package(site, pkg, {"kernel": KERNEL.format(pkg=pkg),
                              "helper": HELPER.format(factor=factor)})


def run_child(site, pkg: str, cache, script: str = CHILD, **env) -> list[str]:
    full = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path]),
            "CSOLVE_CACHE_DIR": str(cache), **env}
    full.pop("NUMBA_CACHE_DIR", None)
    r = subprocess.run([sys.executable, "-c", script.format(pkg=pkg)], capture_output=True,
                       text=True, timeout=600, env=full)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def snapshots(cache, name: str = "total") -> list:
    return sorted((cache / "native").glob(f"{name}-*.bin"))


def test_a_kernel_runs_saved_code_without_numba_and_never_stale_code(tmp_path):
    site, cache, pkg = tmp_path / "site", tmp_path / "cache", "csolve_test_native"
    install(site, pkg, 2)
    assert run_child(site, pkg, cache) == ["20", "6", "numba", "True"]  # compiles, saves
    assert len(snapshots(cache)) == 2  # one for each argument type
    assert run_child(site, pkg, cache) == ["20", "6", "numba", "False"]

    install(site, pkg, 3)  # the helper the kernel inlines, not the kernel's own file
    assert run_child(site, pkg, cache) == ["30", "9", "numba", "True"]
    assert run_child(site, pkg, cache) == ["30", "9", "numba", "False"]

    for path in snapshots(cache):  # damaged files: numba runs the kernel and saves anew
        path.write_bytes(path.read_bytes()[:200])
    assert run_child(site, pkg, cache) == ["30", "9", "numba", "True"]
    assert run_child(site, pkg, cache) == ["30", "9", "numba", "False"]


# errors raised by saved code; code numba would not cache; a kernel with no source file
EDGES = """
import sys
import numpy as np
from csolve.kernels.bits import kernel
from {pkg}.kernel import large_sum, ratio

@kernel
def inline_script(x):
    return x + 1

values = np.array([7, 0], dtype=np.int64)
try:
    ratio(values)
except ZeroDivisionError:
    print("ZeroDivisionError")
print(ratio(np.array([7, 2], dtype=np.int64)), large_sum(4), inline_script(1))
"""


def test_saved_code_raises_as_numba_would_and_only_what_numba_caches_is_saved(tmp_path):
    site, cache, pkg = tmp_path / "site", tmp_path / "cache", "csolve_test_native_edges"
    install(site, pkg, 2)
    for _ in range(2):  # the second run's ratio is saved code
        assert run_child(site, pkg, cache, EDGES) == ["ZeroDivisionError", "3", "6", "2"]
    assert len(snapshots(cache, "ratio")) == 1
    assert snapshots(cache, "large_sum") == []  # its code holds this process's addresses
    assert snapshots(cache, "inline_script") == []  # "<string>": an edit would not show


def test_saved_code_and_numba_run_side_by_side(tmp_path):
    site, cache, pkg = tmp_path / "site", tmp_path / "cache", "csolve_test_native_mixed"
    install(site, pkg, 2)
    run_child(site, pkg, cache)
    assert run_child(site, pkg, cache, MIXED) == ["20", "12.0", "6"]
    assert run_child(site, pkg, cache, MIXED) == ["20", "12.0", "6"]  # all three saved


def test_with_fastload_off_numba_runs_every_kernel(tmp_path):
    site, cache, pkg = tmp_path / "site", tmp_path / "cache", "csolve_test_native_off"
    install(site, pkg, 2)
    run_child(site, pkg, cache)
    assert run_child(site, pkg, cache, CSOLVE_FASTLOAD="0") == ["20", "6", "numba", "True"]


# A whole solve in a fresh process: a file of puzzles (batch kernel), one puzzle on two
# threads (search kernel) and a count on each; every solution checked against its givens.
HARD = str(PUZZLES / "sudoku" / "9x9-hard.txt")
#: the count of part 3's puzzle with its first two rows filled in: 5,668 solutions
UNDER = "561382479472695138..8....6........2.....53..1....2........3.2.4......6.5.4.2....."
SOLVE = f"""
import sys
import csolve
sudoku = csolve.puzzle_type("sudoku")
results = csolve.solve("sudoku", {HARD!r}) + csolve.solve("sudoku", {HARD!r},
                                                            backend="locked-pool", workers=2)
for r in results:
    assert csolve.validate(sudoku, r.solutions[0], r.puzzle) == [], r
    print(sudoku.format_line(r.puzzle, r.solutions[0]))
for backend, workers in (("serial", 1), ("locked-pool", 2), ("work-stealing", 2)):
    r = csolve.count("sudoku", {UNDER!r}, backend=backend, workers=workers)
    assert csolve.validate(sudoku, r.solutions[0], r.puzzle) == [], r
    print("count", r.count, r.exact)
print("numba", "numba" in sys.modules)
print("llvmlite", "llvmlite" in sys.modules)
"""
#: where saved code is linked without LLVM (csolve.kernels.elf)
LINKED_ALONE = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


def test_a_warm_solve_imports_no_numba():
    runs = []
    for _ in range(2):  # the first may compile and save; the second runs what was saved
        r = subprocess.run([sys.executable, "-c", SOLVE], capture_output=True, text=True,
                           timeout=900)
        assert r.returncode == 0, r.stderr
        runs.append(r.stdout.splitlines())
    assert runs[1][-2] == "numba False"
    assert runs[1][-1] == f"llvmlite {not LINKED_ALONE}"  # nor LLVM, where linked alone
    assert runs[1][:-2] == runs[0][:-2]
    assert runs[1][-5:-2] == ["count 5668 True"] * 3
    assert len(runs[1]) == 10 + 3 + 2


def test_argument_types_are_told_apart_as_numba_tells_them():
    from collections import namedtuple

    from numba import typeof
    from numba.core.typing.typeof import Purpose

    Pair = namedtuple("Pair", "a b")
    base = np.arange(24, dtype=np.int64).reshape(4, 6)
    frozen = base.copy()
    frozen.flags.writeable = False
    values = [base, base.T, base[:, ::2], base[0], frozen, np.asfortranarray(base),
              np.zeros(5, np.uint8), np.zeros(5, np.int8), np.zeros(5, np.uint64),
              np.zeros(5, np.float32), np.zeros(5, np.bool_), np.zeros((2, 2, 2)),
              np.array(3), 1, -1, 2**40, 2**63, True, 2.5, None, np.int32(3), np.uint64(3),
              np.float64(1), (base, 1), (1, 2), (1, True), Pair(base, 1), Pair(1, 2),
              (base, (1, 2)), ()]
    described = [describe((v,)) for v in values]
    assert None not in described
    typed = [typeof(v, Purpose.argument) for v in values]
    for i in range(len(values)):
        for j in range(len(values)):
            assert (described[i] == described[j]) == (typed[i] == typed[j]), (values[i],
                                                                              values[j])
    for unknown in ([1, 2], {"a": 1}, "text", 2**64, np.zeros(2, np.complex128),
                    np.zeros(2, ">i8"), object()):
        assert describe((unknown,)) is None


def test_the_target_cpu_is_the_one_numba_compiles_for():
    import llvmlite.binding as ll
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    name = config.CPU_NAME or ll.get_host_cpu_name()
    features = (config.CPU_FEATURES if config.CPU_FEATURES is not None
                else get_host_cpu_features())
    assert target_cpu() == (name, features)


def test_the_target_cpu_follows_numbas_settings(monkeypatch):
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    monkeypatch.delenv("NUMBA_CPU_FEATURES", raising=False)
    assert target_cpu() == ("generic", "")
    monkeypatch.setenv("NUMBA_CPU_NAME", "znver2")
    monkeypatch.setenv("NUMBA_CPU_FEATURES", "+bmi2,+avx2")
    assert target_cpu() == ("znver2", "+bmi2,+avx2")
    monkeypatch.delenv("NUMBA_CPU_NAME")
    monkeypatch.delenv("NUMBA_CPU_FEATURES")
    monkeypatch.setenv("NUMBA_ENABLE_AVX", "0")
    assert "+avx" not in target_cpu()[1].split(",")


def test_a_kernel_pickles_as_itself():
    from csolve_sudoku import bands

    assert pickle.loads(pickle.dumps(bands.search)) is bands.search


@pytest.mark.parametrize("blob", [b"", b"\0\0\0\0", b"\x10\0\0\0{}", b"junk" * 10])
def test_a_snapshot_that_is_not_one_loads_as_nothing(tmp_path, blob):
    path = tmp_path / "x.bin"
    path.write_bytes(blob)
    assert native.load(path) is None
    assert native.load(tmp_path / "missing.bin") is None


def test_numba_told_to_run_kernels_as_python_is_one_line_of_usage():
    # NUMBA_DISABLE_JIT turns kernels into Python functions, which the intrinsics cannot be:
    # the program says so as a setting the user chose (exit 2), not as a bug's traceback
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    r = subprocess.run([sys.executable, "-m", "csolve", "solve", "sudoku",
                        str(PUZZLES / "sudoku" / "4x4.txt")],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines() == [
        "csolve: error: NUMBA_DISABLE_JIT is set, but csolve's kernels run only compiled "
        "(their LLVM intrinsics have no Python form): unset it"]
    assert r.stdout == ""
