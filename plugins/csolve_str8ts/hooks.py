"""The Str8ts plugin's entry point: its hooks, which import the plugin (numpy, the
PuzzleType in ``plugin.py``) only when called, so loading it costs ``csolve --help`` nothing."""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from .plugin import Str8ts

    register(Str8ts())


@hookimpl
def csolve_register_rules(register):
    from .plugin import STRAIGHT_RULE

    register(STRAIGHT_RULE)
