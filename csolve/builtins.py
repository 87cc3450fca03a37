"""The core's own plugin: the generic all-different rules, the backends and the learning
engine.

It registers through the same hooks (and the same entry-point group) as any third party.
"""

from csolve.hookspecs import hookimpl
from csolve.rules import Rule

_ALLDIFF = "csolve.kernels.alldiff"
_SUBSETS = "csolve.kernels.subsets"
_FISH = "csolve.kernels.fish"
# the works the rules come from (docs/references.md)
_CNR = "Chiu, Nasiri & Rashid 2012"
_TARHINI = "Tarhini 2011"

RULES = (
    Rule("elimination", f"{_ALLDIFF}:elimination",
         "naked single: a cell's value is removed from its peers "
         f"({_CNR}, §2.1 rule 1)"),
    Rule("hidden-single", f"{_ALLDIFF}:hidden_single",
         "lone ranger: a value with one place left in a group goes there "
         f"({_CNR}, §2.1 rule 2)"),
    Rule("locked-candidates", f"{_ALLDIFF}:locked_candidates",
         "pointing / box-line: a value confined to the overlap of two groups leaves the rest"),
    Rule("naked-pair", f"{_SUBSETS}:naked_pair",
         f"twins ({_TARHINI}): two cells of a group holding only two values take them from "
         "the rest"),
    Rule("naked-triple", f"{_SUBSETS}:naked_triple",
         f"triplets ({_TARHINI}, all 3 variants): three cells holding only three values take them"),
    Rule("naked-quad", f"{_SUBSETS}:naked_quad",
         "four cells of a group holding only four values take them from the rest"),
    Rule("hidden-pair", f"{_SUBSETS}:hidden_pair",
         "two values with only the same two places in a group: those cells lose the rest"),
    Rule("hidden-triple", f"{_SUBSETS}:hidden_triple",
         "three values with only three places in a group: those cells lose the rest"),
    Rule("hidden-quad", f"{_SUBSETS}:hidden_quad",
         "four values with only four places in a group: those cells lose the rest"),
    Rule("x-wing", f"{_FISH}:x_wing",
         "fish of 2: a value's places in 2 parallel groups lie in 2 crossing groups"),
    Rule("swordfish", f"{_FISH}:swordfish",
         "fish of 3: a value's places in 3 parallel groups lie in 3 crossing groups"),
    Rule("jellyfish", f"{_FISH}:jellyfish",
         "fish of 4: a value's places in 4 parallel groups lie in 4 crossing groups"),
)


@hookimpl
def csolve_register_rules(register):
    for rule in RULES:
        register(rule)


@hookimpl
def csolve_register_backends(register):
    from csolve.backends.conflict import ConflictLock
    from csolve.backends.interleave import Interleave
    from csolve.backends.processes import ProcessPool
    from csolve.backends.ray_backend import RayBackend
    from csolve.backends.serial import SerialBackend
    from csolve.backends.sharing import BACKENDS

    register(SerialBackend())
    for cls in BACKENDS:
        register(cls())
    register(Interleave())
    register(ProcessPool())
    register(ConflictLock())
    register(RayBackend())


def _alldiff_only(model) -> bool:
    """Every group is all-different with no rule of a plugin's own (no sums, no straights,
    no constraint rule: the learning engine runs no rule), and fits a 64-bit mask."""
    import numpy as np

    from csolve.model import ALLDIFF

    k = model.kernel
    sizes = np.diff(k.group_ptr.astype(np.int64))
    if model.constraint_rules:
        return False
    return bool(np.all(k.group_flags & ALLDIFF) and not np.any(k.group_tag)
                and (sizes.size == 0 or sizes.max() <= 64))


@hookimpl
def csolve_register_engines(register):
    from csolve.engines import LEARNING, Engine

    register(Engine(
        LEARNING, "csolve.kernels.learning:search",
        "clause learning (CDCL): learns why each dead end failed; for the hardest puzzles",
        models="all-different models (Sudoku of any size, Latin squares)",
        fits=_alldiff_only, scratch="csolve.kernels.learning:scratch_words"))
