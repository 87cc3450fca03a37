"""Loading cached kernels without numba's compiler (csolve.kernels.fastload)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from csolve.kernels.fastload import preload

from .helpers import PUZZLES

HARD = str(PUZZLES / "sudoku" / "9x9-hard.txt")

# In a fresh process: solve a file of puzzles (batch kernel) and one puzzle (search kernel),
# then report whether numba's compiler registries were imported on the way.
_CHILD = f"""
import sys
from csolve.puzzle import get_puzzle_type
from csolve.solver import solve_one, solve_puzzles
sudoku = get_puzzle_type("sudoku")
puzzles = sudoku.parse(open({HARD!r}).read(), "hard")
rows = [sudoku.format_line(p, r.solutions[0]) for p, r in
        zip(puzzles, solve_puzzles(sudoku, puzzles), strict=True)]
one = solve_one(sudoku, puzzles[0])
rows.append(sudoku.format_line(puzzles[0], one.solutions[0]))
print("\\n".join(rows))
print("registries", "numba.np.arraymath" in sys.modules)
print("masked arrays", "numpy.ma" in sys.modules)
"""


def _child() -> list[str]:
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_cached_kernels_load_without_the_compiler():
    first = _child()  # compiles and caches the kernels when this is a fresh cache
    second = _child()
    assert second[-2:] == ["registries False", "masked arrays False"]
    assert second[:-2] == first[:-2]
    assert len(second) == 8


def test_preload_declines_what_it_cannot_load():
    from numba import njit

    @njit(cache=False)
    def twice(x):
        return 2 * x

    assert not preload(twice, (np.zeros(3),))  # no disk cache: left to the first call
    assert twice(np.ones(3)).tolist() == [2.0, 2.0, 2.0]
    assert preload(twice, (np.zeros(3),))  # now compiled for float64 arrays
    assert not preload(object(), (1,))  # not a dispatcher at all


def test_plain_arrays_are_typed_as_numba_types_them():
    """The direct typing of plain arrays (which spares the ``numpy.ma`` import) gives numba's
    own type for every layout, dtype and flag; masked arrays are still refused."""
    import pytest
    from numba.core import errors
    from numba.core.typing.typeof import Purpose, _TypeofContext, typeof

    from csolve.kernels import fastload
    from csolve.kernels.fastload import _type_plain_arrays_directly

    base = np.arange(24, dtype=np.int64).reshape(4, 6)
    frozen = base.copy()
    frozen.flags.writeable = False
    arrays = [base, base.T, base[:, ::2], base[0], np.zeros(0, np.uint64), np.array(3.5),
              np.zeros((2, 3), np.bool_), np.zeros(5, np.uint8), frozen,
              np.asfortranarray(base), np.zeros((2, 2), np.complex128)]
    _type_plain_arrays_directly()
    numbas = fastload._numbas  # numba's own function, which the direct one stands before
    context = _TypeofContext(Purpose.argument)
    assert [typeof(a, Purpose.argument) for a in arrays] == [numbas(a, context) for a in arrays]
    class Tagged(np.ndarray):
        pass

    tagged = base.view(Tagged)  # a subclass: typed by numba's own function
    assert typeof(tagged, Purpose.argument) == numbas(tagged, context)
    with pytest.raises(errors.NumbaTypeError):
        typeof(np.ma.masked_array(base), Purpose.argument)
