"""Defaults shared by the solver and the CLI's help, in a module light enough for start-up.

The CLI shows these in ``--help`` without importing the solver (which loads numba).
"""

import os

#: Nodes the model's own search spends on one puzzle before the puzzle moves to the
#: clause-learning engine: far more than any of the shared 9x9, 16x16 and MaaTec sets
#: needs, a fraction of a second of depth-first search.
ESCALATE_AFTER = 20_000

#: The same on grids of :data:`LARGE_GRID_CELLS` cells or more (25x25 and up): a node costs
#: far more there, the shared 25x25 and 36x36 sets end within a handful of nodes, and the
#: puzzles that need more (Frisch's minimal 25x25) need millions, so a larger budget only
#: delays the hand-over (benchmarks/README.md, the heavy tail).
ESCALATE_AFTER_LARGE = 2_000
LARGE_GRID_CELLS = 625


def escalate_budget(n_cells: int, escalate_after: int | None = None) -> int:
    """Depth-first nodes before a puzzle of ``n_cells`` cells moves to the learning engine:
    ``escalate_after`` when given, else the default for its size."""
    if escalate_after is not None:
        return escalate_after
    return ESCALATE_AFTER_LARGE if n_cells >= LARGE_GRID_CELLS else ESCALATE_AFTER

#: Nodes the batch kernel spends on each puzzle of a file before a backend other than
#: ``serial`` searches it on its workers: most puzzles end well within it, and sharing a
#: search between workers costs more than such a puzzle's whole search.
PROBE_NODES = 2_000

#: How long ``generate --difficulty`` goes on drawing puzzles for one when no ``--tries``
#: count is given: levels are far from equally common among minimal puzzles (a rare one
#: takes hundreds of tries), and a try costs milliseconds on a small grid but seconds on a
#: large one, so a time bound fits every size where a fixed count fits one.
DIFFICULTY_SECONDS = 10.0

#: the most workers one search or generate run takes: each costs a thread (or process, or
#: cluster task) and its scratch memory, so a slip of a few zeros is refused, not started
MAX_WORKERS = 1024

#: the largest solution limit or node budget a search takes, from the command line or
#: Python (the kernels count in 64-bit integers)
MAX_COUNT = 2**62

#: the most puzzles one ``generate`` makes (a slip of a few zeros is refused, not started)
MAX_PUZZLES = 10**9

#: the most solutions ``csolve.solve(limit=N)`` keeps per puzzle (room for them is set aside
#: up front; ``on_solution`` streams any number)
MAX_KEPT = 1000


def cores() -> int:
    """CPU cores this process may run on (its affinity, not the machine's count): the
    default number of workers everywhere."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
