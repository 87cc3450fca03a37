"""The core's own plugin: the generic all-different rules and the serial backend.

It registers through the same hooks (and the same entry-point group) as any third party.
"""

from csolve.hookspecs import hookimpl
from csolve.rules import Rule

_ALLDIFF = "csolve.kernels.alldiff"

RULES = (
    Rule("elimination", f"{_ALLDIFF}:elimination",
         "naked single: a cell's value is removed from its peers (seed 000 rule 1)"),
    Rule("hidden-single", f"{_ALLDIFF}:hidden_single",
         "lone ranger: a value with one place left in a group goes there (seed 000 rule 2)"),
    Rule("locked-candidates", f"{_ALLDIFF}:locked_candidates",
         "pointing / box-line: a value confined to the overlap of two groups leaves the rest"),
    Rule("naked-pair", f"{_ALLDIFF}:naked_pair",
         "twins: two cells of a group holding the same two values take them from the rest"),
)


@hookimpl
def csolve_register_rules(register):
    for rule in RULES:
        register(rule)


@hookimpl
def csolve_register_backends(register):
    from csolve.backends.conflict import ConflictLock
    from csolve.backends.processes import ProcessPool
    from csolve.backends.serial import SerialBackend
    from csolve.backends.sharing import BACKENDS

    register(SerialBackend())
    for cls in BACKENDS:
        register(cls())
    register(ProcessPool())
    register(ConflictLock())
