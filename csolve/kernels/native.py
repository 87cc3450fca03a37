"""Run a kernel's cached machine code without importing numba.

Importing numba costs more than half of a warm ``csolve solve`` (its compiler, typing tables
and extension registries load whether or not anything compiles). A kernel numba has already
compiled needs none of that to run: its object code, the few C helpers numba's entry wrapper
calls, and a linker: csolve's own for x86-64 objects (:mod:`csolve.kernels.elf`), else
llvmlite's JIT.

So whenever numba runs a kernel for a set of argument types, :func:`save` writes a
*snapshot* beside the disk cache: the object code of that overload (the kernel, everything it
calls, and numba's CPython entry wrapper), the wrapper's symbol and the symbols it needs.
A later process that calls the kernel with the same argument types
(:func:`csolve.kernels.argtypes.describe`) links the snapshot (:func:`load`) and calls the
wrapper directly, as numba's dispatcher would after its type check. numba is
imported only when something must compile (or a kernel raises, which unpickles its error
through numba).

A snapshot's file name hashes everything numba's choice of machine code depends on: the
kernel's file (its time stamp and size, as numba's cache keys it), the sources its module
imports (:func:`csolve.kernels.depends.module_digest`), numba's and llvmlite's installation,
Python's version, the CPU and every ``NUMBA_`` setting. Only what numba would cache on disk
is saved, and whatever this module cannot vouch for (an argument type it does not know, a
kernel without a source file, an object format other than ELF, a symbol nothing provides,
code that needs numba's runtime, a file whose contents do not match their hash) it leaves
to numba. ``CSOLVE_FASTLOAD=0`` turns it off, as it does :mod:`csolve.kernels.fastload`.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import struct
import sys
import threading
from pathlib import Path
from typing import Any

#: bumped whenever the snapshot layout or what it keys on changes
FORMAT = "csolve-native-3"
_ENV_PREFIX = b"_ZN08NumbaEnv"
_lock = threading.RLock()


def enabled() -> bool:
    """Whether snapshots are used (``CSOLVE_FASTLOAD=0`` says no)."""
    return os.environ.get("CSOLVE_FASTLOAD", "1") != "0"


# --- where snapshots live and what they are keyed by -----------------------------------

def _identity() -> str:
    """Everything outside a kernel's sources that decides its machine code."""
    global _identity_memo
    if _identity_memo is None:
        from csolve.kernels.bits import target_cpu
        from csolve.kernels.depends import installation

        parts = [FORMAT, sys.version, *target_cpu(), installation("numba"),
                 installation("llvmlite")]
        parts += sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("NUMBA_"))
        _identity_memo = "\n".join(parts)
    return _identity_memo


_identity_memo: str | None = None


def _sources(func: Any) -> str | None:
    """What stands for the kernel's sources: its file's stamp (what numba's cache keys on,
    so an edit or a reload shows) and the module's dependencies; None without a file (a
    notebook cell, a zip import), where nothing would show an edit."""
    filename = getattr(getattr(func, "__code__", None), "co_filename", "")
    try:
        st = os.stat(filename)
    except (OSError, ValueError):
        return None
    module = getattr(func, "__module__", "") or ""
    if module.startswith("csolve_kernels_"):  # generated: the name hashes its sources
        deps = module
    else:
        from csolve.kernels.depends import module_digest

        deps = module_digest(module)
    return f"{filename} {st.st_mtime_ns} {st.st_size} {deps}"


def snapshot_path(func: Any, types: str) -> Path | None:
    """Where the snapshot of kernel ``func`` (its Python function) for argument ``types``
    lives; None when it cannot have one (no writable cache directory, no source file)."""
    from csolve.kernels.diskcache import writable_cache_dir

    sources = _sources(func)
    root = writable_cache_dir() if sources is not None else None
    if root is None:
        return None
    h = hashlib.sha256("\0".join((_identity(), func.__module__, func.__qualname__, sources,
                                  types)).encode()).hexdigest()[:32]
    return root / "native" / f"{func.__name__[:40]}-{h}.bin"


# --- writing a snapshot (numba is loaded: it just ran the kernel) ----------------------

def save(dispatcher: Any, args: tuple, path: Path) -> bool:
    """Write the snapshot of the overload ``dispatcher`` chose for ``args``; True if written.
    Skipped (False) for code numba would not cache on disk (it holds addresses of this
    process: large global arrays, ctypes pointers, lifted loops) and for code this module
    could not run the way numba does."""
    from csolve.kernels.diskcache import write_whole
    from csolve.kernels.elf import is_elf

    try:
        from numba import typeof
        from numba.core.typing.typeof import Purpose

        sig = tuple(typeof(a, Purpose.argument) for a in args)
        cres = dispatcher.overloads.get(sig)
        if (cres is None or cres.objectmode or cres.lifted
                or cres.library.has_dynamic_globals
                or getattr(cres.environment, "consts", None)):
            return False
        obj = _object_code(dispatcher, cres, sig)
        if obj is None or not is_elf(obj):
            return False
        undefined, envs = _elf_symbols(obj)
        if any(s.startswith(b"NRT_") or b"hashsecret" in s for s in undefined):
            return False
        header = json.dumps({
            "wrapper": cres.fndesc.llvm_cpython_wrapper_name,
            "envs": sorted(e.decode() for e in envs),
            "undefined": sorted(s.decode() for s in undefined),
            "sha256": hashlib.sha256(obj).hexdigest(),
        }).encode()
    except Exception:  # a snapshot is an optimisation: numba keeps running the kernel
        return False
    return write_whole(path, struct.pack("<I", len(header)) + header + obj)


def _object_code(dispatcher: Any, cres: Any, sig: tuple) -> bytes | None:
    """The overload's object code: kept by its library after a compile, read back from
    numba's disk cache after a load (numba hands the buffer to its JIT and drops it)."""
    try:
        return bytes(cres.library.serialize_using_object_code()[2][0])
    except Exception:  # loaded from the disk cache
        pass
    cache = getattr(dispatcher, "_cache", None)
    if not getattr(cache, "_enabled", False):
        return None
    data = cache._cache_file.load(cache._index_key(sig, cres.target_context.codegen()))
    if data is None:
        return None
    libdata = data[0]
    if libdata[1] != "object":
        return None
    return bytes(libdata[2][0])


def _elf_symbols(obj: bytes) -> tuple[set[bytes], set[bytes]]:
    """(undefined symbols, numba environment symbols) of a 64-bit little-endian ELF object."""
    from csolve.kernels.elf import symbols

    undefined: set[bytes] = set()
    envs: set[bytes] = set()
    for name, _binding, shndx in symbols(obj):
        if shndx == 0:
            undefined.add(name)
        elif name.startswith(_ENV_PREFIX):
            envs.add(name)
    return undefined, envs


# --- loading a snapshot (numba need not be loaded) -------------------------------------

class _Environment:
    """numba's environment object as its entry wrapper reads it: after the object header,
    the globals, then the constants (CPython lays ``__slots__`` out in sorted order, hence
    the names). The wrapper refuses to run without one; kernels saved here use neither."""

    __slots__ = ("a_globals", "b_consts")

    def __init__(self) -> None:
        self.a_globals: dict = {}
        self.b_consts: list = []


_ENTRY = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object, ctypes.py_object,
                           ctypes.py_object)
_engine: Any = None
_environment = _Environment()
_keep: list = []  # object files stay alive as long as the process
_linked: dict[str, Any] = {}  # snapshot path -> its entry, or None


def load(path: Path) -> Any:
    """The entry wrapper in the snapshot at ``path``, callable as ``f(None, args, None)``;
    None when there is none or it cannot be linked here."""
    with _lock:  # each file linked once: a second copy would define its symbols again
        key = str(path)
        if key not in _linked:
            try:
                _linked[key] = _link(path.read_bytes())
            except Exception:  # missing, damaged or foreign: numba runs the kernel instead
                _linked[key] = None
        return _linked[key]


def _link(blob: bytes) -> Any:
    n, = struct.unpack_from("<I", blob, 0)
    header = json.loads(blob[4:4 + n])
    obj = blob[4 + n:]
    if hashlib.sha256(obj).hexdigest() != header["sha256"]:
        return None  # damaged: LLVM would not say so, it would abort
    wanted = [header["wrapper"], *header["envs"]]
    found = _link_alone(obj, wanted)
    if found is None:
        found = _link_with_llvm(obj, header["undefined"], wanted)
    if found is None:
        return None
    for env in header["envs"]:
        if not found.get(env):
            return None
        slot = ctypes.c_void_p.from_address(found[env])
        if not slot.value:
            slot.value = id(_environment)
    entry = found.get(header["wrapper"])
    return _ENTRY(entry) if entry else None


def _link_alone(obj: bytes, wanted: list[str]) -> dict[str, int] | None:
    """The ``wanted`` symbols' addresses, the object linked by :mod:`csolve.kernels.elf`
    (x86-64 Linux; no LLVM to load); None where that linker does not take it."""
    if not sys.platform.startswith("linux") or os.environ.get("CSOLVE_ELF_LINKER") == "0":
        return None
    from csolve.kernels import elf

    found = elf.link(obj, _address_of, (w.encode() for w in wanted))
    return None if found is None else {k.decode(): v for k, v in found.items()}


def _link_with_llvm(obj: bytes, undefined: list[str],
                    wanted: list[str]) -> dict[str, int] | None:
    """The ``wanted`` symbols' addresses, the object added to llvmlite's JIT."""
    import llvmlite.binding as ll

    engine = _jit()
    for name in undefined:
        if ll.address_of_symbol(name) is None:
            return None  # linking would abort the process: leave it to numba
    _keep.append(obj)
    engine.add_object_file(ll.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    found = {name: engine.get_global_value_address(name) for name in wanted[1:]}
    found[wanted[0]] = engine.get_function_address(wanted[0])
    return found


def _jit() -> Any:
    """The process's LLVM JIT (an llvmlite MCJIT engine), with :func:`_given_symbols`."""
    global _engine
    if _engine is None:
        import llvmlite.binding as ll

        for name, address in _given_symbols().items():
            ll.add_symbol(name, address)
        ll.initialize_native_target()
        ll.initialize_native_asmprinter()
        target = ll.Target.from_default_triple()
        machine = target.create_target_machine(jit=True)
        _engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)
    return _engine


_given: dict[str, int] | None = None


def _given_symbols() -> dict[str, int]:
    """The symbols numba gives compiled code (its C helpers, the built-in exceptions,
    ``None``), under the names and at the addresses numba gives them when it loads."""
    global _given
    if _given is None:
        import builtins

        env = _Environment()  # the wrapper reads the globals one word past the header
        header = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
        if ctypes.c_void_p.from_address(id(env) + header).value != id(env.a_globals):
            raise RuntimeError("unexpected object layout")
        given = {"_Py_NoneStruct": id(None)}
        given.update(("numba_" + name, address) for name, address in _helpers().items())
        for obj in vars(builtins).values():
            if isinstance(obj, type) and issubclass(obj, BaseException):
                given[f"PyExc_{obj.__name__}"] = id(obj)
        _given = given
    return _given


_dlsym: Any = None


def _address_of(name: bytes) -> int | None:
    """Where symbol ``name`` is for compiled code: one numba gives it, else the process's
    (Python's C API, the C library), as a dynamic loader finds it; None when nowhere."""
    text = name.decode(errors="replace")
    given = _given_symbols().get(text)
    if given is not None or text.startswith("PyExc_"):
        # an exception under another name (PyExc_IOError) would find CPython's pointer to
        # the object, not the object numba's code expects
        return given
    global _dlsym
    if _dlsym is None:
        try:
            process = ctypes.CDLL(None)
            dlsym = process.dlsym
        except (OSError, AttributeError):
            _dlsym = False
        else:
            dlsym.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
            dlsym.restype = ctypes.c_void_p
            _dlsym = (dlsym, process._handle)
    if not _dlsym:
        return None
    dlsym, handle = _dlsym
    return dlsym(handle, name)


def _helpers() -> dict[str, int]:
    """numba's C helpers (``numba._helperlib.c_helpers``), without importing numba: the
    extension module is loaded from its file under the same name; numba, imported later,
    gets the same module."""
    if "numba" in sys.modules:
        from numba import _helperlib

        return dict(_helperlib.c_helpers)
    import importlib.machinery
    import importlib.util

    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("numba is not installed")
    for directory in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            candidate = os.path.join(directory, "_helperlib" + suffix)
            if os.path.exists(candidate):
                loader = importlib.machinery.ExtensionFileLoader("numba._helperlib", candidate)
                found = importlib.util.spec_from_file_location("numba._helperlib", candidate,
                                                               loader=loader)
                module = importlib.util.module_from_spec(found)
                loader.exec_module(module)
                return dict(module.c_helpers)
    raise ImportError("numba._helperlib not found")
