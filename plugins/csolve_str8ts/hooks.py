"""The Str8ts plugin's entry point: its hooks, which import the plugin (numpy, the
PuzzleType in ``plugin.py``) only when called, so loading it costs ``csolve --help`` nothing."""

from csolve.hookspecs import hookimpl


@hookimpl
def csolve_register_puzzles(register):
    from csolve.puzzle import DeferredPuzzleType

    register(DeferredPuzzleType("str8ts", "csolve_str8ts.plugin:Str8ts"))


@hookimpl
def csolve_register_rules(register):
    from csolve.rules import Rule

    register(Rule("str8ts-straight", "csolve_str8ts.rules:straight",
                  "Str8ts: a compartment keeps the values of windows of consecutive values "
                  "it can hold; values every window holds leave its row or column"))
