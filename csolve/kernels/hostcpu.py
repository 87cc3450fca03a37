"""This machine's CPU as LLVM names it, remembered so that a warm command need not load LLVM.

numba compiles for LLVM's name and feature list of the host CPU, and csolve keys saved
machine code by them (:func:`csolve.kernels.bits.target_cpu`). Asking LLVM means loading
it, which costs a warm command more than linking all of its kernels, so the answer is kept
in the cache directory, under a hash of what the operating system reports of every core
(vendor, family, model, stepping and flags in ``/proc/cpuinfo``: the CPUID answers LLVM
reads), of this boot (a machine, virtual or not, whose CPU changes under the same report is
asked again after a restart) and of llvmlite's installation. Where there is no
``/proc/cpuinfo`` or nothing can be written, LLVM is asked every time.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

#: the lines of ``/proc/cpuinfo`` that tell one CPU model and feature set from another
_IDENTITY_KEYS = frozenset({
    "vendor_id", "cpu family", "model", "model name", "stepping", "flags", "cpuid level",
    "features", "cpu implementer", "cpu architecture", "cpu variant", "cpu part",
    "cpu revision", "cpu", "isa"})  # compared in lower case: x86, Arm, POWER
_FORMAT = "csolve-hostcpu-1"
_lock = threading.Lock()
_memo: tuple[str, dict[str, bool] | None] | None = None


def host_cpu() -> tuple[str, dict[str, bool] | None]:
    """(LLVM's name of this CPU, its features as LLVM lists them, or None where LLVM cannot
    tell them)."""
    global _memo
    with _lock:
        if _memo is None:
            path = _remembered_at()
            _memo = _read(path) if path is not None else None
            if _memo is None:
                _memo = _ask_llvm()
                if path is not None:
                    _write(path, _memo)
        return _memo


def _ask_llvm() -> tuple[str, dict[str, bool] | None]:
    import llvmlite.binding as ll

    try:
        features: dict[str, bool] | None = dict(ll.get_host_cpu_features())
    except RuntimeError:
        features = None
    return ll.get_host_cpu_name(), features


def _remembered_at() -> Path | None:
    """Where this CPU's answer is kept; None when it cannot be told apart from others."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            cpuinfo = f.read()
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
    except OSError:
        return None
    identity = sorted({f"{key.strip()}:{value.strip()}"  # every core's, as LLVM may read
                       for key, _, value in (line.partition(":") for line in cpuinfo.splitlines())
                       if key.strip().lower() in _IDENTITY_KEYS})
    if not identity or not boot:
        return None
    from csolve.kernels.depends import installation
    from csolve.kernels.diskcache import writable_cache_dir

    root = writable_cache_dir()
    if root is None:
        return None
    digest = hashlib.sha256("\n".join([_FORMAT, installation("llvmlite"), boot, *identity])
                            .encode()).hexdigest()[:32]
    return root / "hostcpu" / f"{digest}.json"


def _read(path: Path) -> tuple[str, dict[str, bool] | None] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        name, features = data["name"], data["features"]
        if not isinstance(name, str) or not (features is None or isinstance(features, dict)):
            return None
        return name, features
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(path: Path, answer: tuple[str, dict[str, bool] | None]) -> None:
    from csolve.kernels.diskcache import write_whole

    write_whole(path, json.dumps({"name": answer[0], "features": answer[1]}).encode())
