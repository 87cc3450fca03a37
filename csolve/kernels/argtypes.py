"""Argument types named as numba's dispatcher types them, without importing numba.

:func:`describe` gives two calls the same name exactly when numba would type their arguments
the same, so machine code saved for one (:mod:`csolve.kernels.native`) is the code numba
would run for the other. Kinds of argument it does not know are left to numba (None).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def describe(args: tuple) -> str | None:
    """A string that names the numba types of ``args`` (for a call with no keywords), or
    None when an argument is of a kind this module leaves to numba."""
    parts: list[str] = []
    for a in args:
        if not _describe(a, parts):
            return None
    return "".join(parts)


def _describe(a: Any, out: list[str]) -> bool:
    t = type(a)
    if t is np.ndarray:
        dt = a.dtype
        if dt.kind not in "biuf" or not dt.isnative or dt.fields is not None:
            return False
        f = a.flags
        layout = "C" if f.c_contiguous else ("F" if f.f_contiguous else "A")
        out.append(f"A{dt.str[1:]}{a.ndim}{layout}{'w' if f.writeable else 'r'}"
                   f"{'a' if f.aligned else 'u'};")
    elif t is bool:  # Python scalars are named as the NumPy scalars numba types the same
        out.append("Sb1;")
    elif t is int:
        # numba's typeof: int64 below 2**63, uint64 up to 2**64, else an error
        if -(1 << 63) <= a < (1 << 63):
            out.append("Si8;")
        elif 0 <= a < (1 << 64):
            out.append("Su8;")
        else:
            return False
    elif t is float:
        out.append("Sf8;")
    elif a is None:
        out.append("n;")
    elif isinstance(a, np.generic) and a.dtype.kind in "biuf" and a.dtype.isnative:
        out.append(f"S{a.dtype.str[1:]};")
    elif isinstance(a, tuple):
        if t is not tuple:
            fields = getattr(t, "_fields", None)
            if fields is None:
                return False
            out.append(f"N{t.__module__}.{t.__qualname__}({','.join(fields)})")
        out.append("(")
        for item in a:
            if not _describe(item, out):
                return False
        out.append(");")
    else:
        return False
    return True
