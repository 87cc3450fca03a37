"""The Sudoku plugin's entry point: its hooks, and nothing heavy.

Every ``csolve`` run loads every plugin (``csolve --help`` too, for the commands plugins may
add), so this module imports only the hook marker; each hook imports the plugin's machinery
(numpy, the PuzzleType in ``plugin.py``) when it is called.
"""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from csolve.puzzle import DeferredPuzzleType

    register(DeferredPuzzleType("sudoku", "csolve_sudoku.plugin:Sudoku"))


@hookimpl
def csolve_register_engines(register):
    from csolve.engines import Engine

    from .plugin import BANDS_ENGINE, is_9x9

    register(Engine(BANDS_ENGINE, "csolve_sudoku.bands:search",
                    "digit bitboards per band: band locked candidates, singles; branching on "
                    "the band or stack with the fewest digit configurations (as tdoku)",
                    models="9x9 sudoku", fits=is_9x9))


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("xy-wing", "csolve_sudoku.kernels:xy_wing",
                  "pivot {a,b} sees pincers {a,c}, {b,c}: c leaves cells seeing both pincers"))
