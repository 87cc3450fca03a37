"""The Killer Sudoku plugin's entry point: its hooks, and nothing heavy.

The plugin brings no rule of its own: a cage is an all-different group carrying Kakuro's
sum tag, and the ``kakuro-sum`` rule (found by name in the rule registry) propagates it.
"""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from csolve.puzzle import DeferredPuzzleType

    register(DeferredPuzzleType("killer", "csolve_killer.plugin:Killer"))
