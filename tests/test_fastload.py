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
"""


def _child() -> list[str]:
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_cached_kernels_load_without_the_compiler():
    first = _child()  # compiles and caches the kernels when this is a fresh cache
    second = _child()
    assert second[-1] == "registries False"
    assert second[:-1] == first[:-1]
    assert len(second) == 7


def test_preload_declines_what_it_cannot_load():
    from numba import njit

    @njit(cache=False)
    def twice(x):
        return 2 * x

    assert not preload(twice, (np.zeros(3),))  # no disk cache: left to the first call
    assert twice(np.ones(3)).tolist() == [2.0, 2.0, 2.0]
    assert preload(twice, (np.zeros(3),))  # now compiled for float64 arrays
    assert not preload(object(), (1,))  # not a dispatcher at all
