"""The Kakuro plugin's entry point: its hooks, which import the plugin (numpy, the
PuzzleType in ``plugin.py``) only when called, so loading it costs ``csolve --help`` nothing."""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from csolve.puzzle import DeferredPuzzleType

    register(DeferredPuzzleType("kakuro", "csolve_kakuro.plugin:Kakuro"))


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("kakuro-sum", "csolve_kakuro.rules:kakuro_sum",
                  "sum groups (Kakuro runs, Killer cages): each keeps digits of a "
                  "distinct-digit set with its length and sum"))
