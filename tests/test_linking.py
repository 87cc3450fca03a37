"""Saved machine code linked without LLVM (csolve.kernels.elf), and the host CPU remembered
without asking LLVM (csolve.kernels.hostcpu)."""

from __future__ import annotations

import ctypes
import json
import os
import platform
import struct
import subprocess
import sys

import numpy as np
import pytest

from csolve.kernels import elf, hostcpu, native

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"),
    reason="csolve's linker takes x86-64 objects; elsewhere LLVM links saved code")


def weigh(values, k):
    """A kernel with a loop, a branch and an error path (numba's wrapper raises)."""
    s = 0
    for v in values:
        s += v * k if v % 2 else v // k
    return s


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory):
    """(header, object code, arguments, numba's result) of ``weigh`` saved as numba ran it."""
    import numba

    dispatcher = numba.njit(nogil=True, _nrt=False)(weigh)
    args = (np.arange(7, dtype=np.int64), 3)
    expected = dispatcher(*args)
    path = tmp_path_factory.mktemp("snap") / "weigh.bin"
    assert native.save(dispatcher, args, path)
    blob = path.read_bytes()
    n, = struct.unpack_from("<I", blob, 0)
    assert elf.link(blob[4 + n:], native._address_of, []) is not None
    return json.loads(blob[4:4 + n]), blob, args, expected


def test_saved_code_linked_alone_runs_as_numba_ran_it(snapshot, monkeypatch):
    header, blob, args, expected = snapshot
    monkeypatch.delenv("CSOLVE_ELF_LINKER", raising=False)
    monkeypatch.setattr(native, "_link_with_llvm", None)  # csolve's linker, or nothing
    entry = native._link(blob)
    assert entry(None, args, None) == expected == weigh(*args)
    other = (np.arange(100, dtype=np.int64), 7)
    assert entry(None, other, None) == weigh(*other)
    with pytest.raises(ZeroDivisionError):  # the error path reaches Python's exceptions
        entry(None, (np.arange(3, dtype=np.int64), 0), None)


def test_the_linker_finds_what_was_asked_for_and_llvm_links_the_same(snapshot):
    header, blob, args, expected = snapshot
    n, = struct.unpack_from("<I", blob, 0)
    obj = blob[4 + n:]
    wanted = [header["wrapper"], *header["envs"]]
    alone = native._link_alone(obj, wanted)
    assert set(alone) == set(wanted) and all(alone.values())
    by_llvm = native._link_with_llvm(obj, header["undefined"], wanted)
    assert set(by_llvm) == set(wanted) and all(by_llvm.values())
    for env in header["envs"]:  # as native._link sets them
        ctypes.c_void_p.from_address(by_llvm[env]).value = id(native._environment)
    assert native._ENTRY(by_llvm[header["wrapper"]])(None, args, None) == expected


def _relocations(obj: bytes) -> list[int]:
    """Offsets in ``obj`` of the relocation entries of its loaded sections."""
    sections = elf._sections(obj)
    found = []
    for sh in sections:
        if sh[1] == elf._SHT_RELA and sections[sh[7]][1] != elf._SHT_X86_64_UNWIND:
            found += range(sh[4], sh[4] + sh[5], elf._RELA.size)
    return found


def test_what_the_linker_does_not_handle_is_left_to_llvm(snapshot):
    header, blob, _args, _expected = snapshot
    n, = struct.unpack_from("<I", blob, 0)
    obj = bytearray(blob[4 + n:])
    wanted = [header["wrapper"].encode()]
    assert elf.link(bytes(obj), native._address_of, wanted)

    at = _relocations(bytes(obj))[0]  # a 32-bit PC-relative relocation
    pc32 = bytearray(obj)
    struct.pack_into("<Q", pc32, at + 8,
                     (struct.unpack_from("<Q", obj, at + 8)[0] & ~0xFFFFFFFF) | 2)
    assert elf.link(bytes(pc32), native._address_of, wanted) is None

    arm = bytearray(obj)
    struct.pack_into("<H", arm, 18, 183)  # EM_AARCH64
    assert elf.link(bytes(arm), native._address_of, wanted) is None

    assert elf.link(bytes(obj), lambda name: None, wanted) is None  # nothing resolves

    no_symbol = bytearray(obj)  # a relocation against symbol 0
    struct.pack_into("<Q", no_symbol, at + 8, struct.unpack_from("<Q", obj, at + 8)[0]
                     & 0xFFFFFFFF)
    assert elf.link(bytes(no_symbol), native._address_of, wanted) is None

    no_sections = bytearray(obj[:64])
    struct.pack_into("<H", no_sections, 0x3C, 0)  # e_shnum
    assert elf.link(bytes(no_sections), native._address_of, wanted) is None
    with pytest.raises(ValueError):
        list(elf.symbols(b"not an object"))


def test_exceptions_are_found_only_under_the_names_numba_gives_them():
    assert native._address_of(b"PyExc_OSError") == id(OSError)
    assert native._address_of(b"PyExc_IOError") is None  # CPython's pointer, not the object
    assert native._address_of(b"_Py_NoneStruct") == id(None)
    assert native._address_of(b"PyLong_FromLongLong")
    assert native._address_of(b"no_such_symbol_anywhere") is None


def test_with_the_linker_off_llvm_links_saved_code():
    # a solve in fresh processes: the first may compile and save, the second links alone,
    # the third with LLVM (CSOLVE_ELF_LINKER=0); the same solution every time
    import csolve

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    script = (f"import sys, csolve; r = csolve.solve('sudoku', {puzzle!r}); "
              "print(''.join(map(str, r[0].solutions[0])), 'llvmlite' in sys.modules, "
              "'numba' in sys.modules)")
    runs = []
    for linker in ("1", "1", "0"):
        r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=600, env={**os.environ, "CSOLVE_ELF_LINKER": linker})
        assert r.returncode == 0, r.stderr
        runs.append(r.stdout.split())
    grid = runs[0][0]
    assert csolve.validate("sudoku", np.array([int(c) for c in grid]), puzzle) == []
    assert [run[0] for run in runs] == [grid] * 3
    assert runs[1][1:] == ["False", "False"]  # warm and linked alone: LLVM never loaded
    assert runs[2][1:] == ["True", "False"]  # saved code linked by LLVM, not numba's own


def test_the_host_cpu_remembered_is_llvms(tmp_path, monkeypatch):
    monkeypatch.setenv("CSOLVE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(hostcpu, "_memo", None)
    asked = hostcpu._ask_llvm()
    assert hostcpu.host_cpu() == asked
    path = hostcpu._remembered_at()
    assert path is not None and path.parent.parent == tmp_path and path.exists()

    # a later process reads the file, not LLVM: shown by a file that says otherwise
    path.write_text(json.dumps({"name": "remembered", "features": {"sse2": True}}))
    monkeypatch.setattr(hostcpu, "_memo", None)
    assert hostcpu.host_cpu() == ("remembered", {"sse2": True})

    for junk in ("", "{", '{"name": 3, "features": {}}', '{"features": null}', "[]"):
        path.write_text(junk)  # unreadable: LLVM is asked, and the file written anew
        monkeypatch.setattr(hostcpu, "_memo", None)
        assert hostcpu.host_cpu() == asked
        assert hostcpu._read(path) == asked


def test_a_cpu_that_reports_nothing_is_asked_of_llvm_each_time(monkeypatch):
    monkeypatch.setattr(hostcpu, "_memo", None)
    monkeypatch.setattr(hostcpu, "_remembered_at", lambda: None)
    assert hostcpu.host_cpu() == hostcpu._ask_llvm()
