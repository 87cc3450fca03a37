"""Propagation rules: named numba kernels that models list and the core composes."""

from __future__ import annotations

from dataclasses import dataclass

from csolve.errors import UnknownNameError


@dataclass(frozen=True)
class Rule:
    """A propagation rule.

    ``kernel`` is ``"module:function"`` naming a numba kernel ``f(cand, m, ws) -> int`` that
    returns CONTRADICTION (-1), NO_CHANGE (0) or CHANGED (1); see :mod:`csolve.kernels.state`.
    """

    name: str
    kernel: str
    description: str
    origin: str = ""


def all_rules() -> dict[str, Rule]:
    return _rules_and_conflicts()[0]


def _rules_and_conflicts() -> tuple[dict[str, Rule], dict]:
    from csolve.plugins import collect_named

    found, conflicts = collect_named("csolve_register_rules", "rule")
    rules: dict[str, Rule] = {}
    for rule, plugin in found.values():
        if not rule.origin:
            rule = Rule(rule.name, rule.kernel, rule.description, plugin)
        rules[rule.name] = rule
    return rules, conflicts


def kernel_paths(names: tuple[str, ...]) -> tuple[str, ...]:
    """The kernel paths of rules given by name, in order."""
    rules, conflicts = _rules_and_conflicts()
    out = []
    for n in names:
        if n in conflicts:
            raise conflicts[n]
        if n not in rules:
            raise UnknownNameError(f"unknown rule {n!r} (known: {', '.join(sorted(rules))})"
                                   f"{_left_out_hint()}")
        out.append(rules[n].kernel)
    return tuple(out)


#: The rule that keeps all-different groups all different: every model propagates with it
#: (the search relies on it to keep its states consistent), whatever rules are chosen.
ALLDIFF_RULE = "elimination"


def with_constraints(rules: tuple[str, ...], constraint_rules: tuple[str, ...]) -> tuple[str, ...]:
    """The rules a model propagates with when ``rules`` are chosen: those rules in their
    order, :data:`ALLDIFF_RULE` first when they lack it, and then every constraint rule of the
    puzzle type they lack (the puzzle's own constraints: chosen rules add deductions, they
    never take a constraint away)."""
    out = list(dict.fromkeys(rules))
    if ALLDIFF_RULE not in out:
        out.insert(0, ALLDIFF_RULE)
    out += [r for r in constraint_rules if r not in out]
    return tuple(out)


def _left_out_hint() -> str:
    """Where ``CSOLVE_LOAD_PLUGINS`` names the plugins to load, the one that registers a rule
    (Killer uses Kakuro's sum rule) may be among those left out: say so."""
    import os

    allow = os.environ.get("CSOLVE_LOAD_PLUGINS")
    if allow is None:
        return ""
    return (f" (CSOLVE_LOAD_PLUGINS={allow} loads only those plugins: the one that registers "
            "it may be left out; see csolve list-plugins)")
