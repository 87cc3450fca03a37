"""A puzzle's constraint rules are part of its model: chosen rules and tactics add
deductions on top and never drop the puzzle's own constraints (Kakuro's sums, Str8ts'
straights), so every answer under every option still passes the validator."""

from __future__ import annotations

import json

import numpy as np
import pytest

from csolve.model import Model, ModelBuilder
from csolve.puzzle import Puzzle, PuzzleType, get_puzzle_type
from csolve.rules import all_rules, with_constraints
from csolve.solver import SolveOptions, solve_one

from .helpers import PUZZLES, run_cli

FILES = {"sudoku": PUZZLES / "sudoku" / "9x9-easy.txt",
         "kakuro": PUZZLES / "kakuro" / "small.txt",
         "str8ts": PUZZLES / "str8ts" / "small.txt"}


def run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """The program in this process (see helpers.run_cli)."""
    return run_cli(*args)


def solve_and_validate(capsys, monkeypatch, kind: str, *options: str) -> None:
    """Solve the bundled file with ``options``; every answer is checked by the validator."""
    ptype = get_puzzle_type(kind)
    puzzles = ptype.parse(FILES[kind].read_text(), str(FILES[kind]))
    code, out, err = run(capsys, monkeypatch, "solve", kind, str(FILES[kind]), "--count",
                         "--output", "json", *options)
    assert code == 0, err
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(puzzles)
    for r in results:
        assert r["status"] == "solved" and r["count"] == 1, (options, r)
    code, out, err = run(capsys, monkeypatch, "solve", kind, str(FILES[kind]), "--output",
                         "json", *options)
    assert code == 0, err
    for p, line in zip(puzzles, out.splitlines(), strict=True):
        solution = np.array(json.loads(line)["solution"])
        if kind == "sudoku":
            solution = solution.reshape(-1)
        assert ptype.validate(p, solution) == [], (options, p.where)


def test_with_constraints_adds_elimination_and_the_constraint_rules():
    assert with_constraints(("hidden-single",), ("kakuro-sum",)) == (
        "elimination", "hidden-single", "kakuro-sum")
    assert with_constraints(("kakuro-sum", "elimination"), ("kakuro-sum",)) == (
        "kakuro-sum", "elimination")


@pytest.mark.parametrize("kind", ["kakuro", "str8ts"])
def test_models_keep_the_constraint_rule_whatever_the_rules(kind):
    ptype = get_puzzle_type(kind)
    (rule,) = ptype.constraint_rules
    p = ptype.parse(FILES[kind].read_text(), "x")[0]
    for rules in (None, ("elimination", "hidden-single"), ("naked-pair",)):
        model = ptype.model(p, rules)
        assert rule in model.rules and model.rules[0] == "elimination"
        assert model.constraint_rules == (rule,)
        for _start, _stop, m, _inits in ptype.model_runs([p, p], rules):
            assert rule in m.rules


@pytest.mark.parametrize("kind,options", [
    ("kakuro", ("--rules", "elimination,hidden-single")),
    ("kakuro", ("--tactics", "naked-pair")),
    ("str8ts", ("--rules", "elimination,hidden-single")),
    ("str8ts", ("--tactics", "naked-pair")),
    ("sudoku", ("--rules", "naked-pair")),
    ("kakuro", ("--engine", "dfs")),
])
def test_chosen_rules_give_validated_answers(capsys, monkeypatch, kind, options):
    solve_and_validate(capsys, monkeypatch, kind, *options)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(FILES))
def test_every_rule_and_tactic_gives_validated_answers(capsys, monkeypatch, kind):
    """Each registered rule alone and each of the type's tactics alone; another type's
    constraint rule is refused by name (on this type's groups it would change nothing)."""
    from csolve.puzzle import all_puzzle_types

    own = set(get_puzzle_type(kind).constraint_rules)
    others = {r for t in all_puzzle_types().values() for r in t.constraint_rules} - own
    for rule in sorted(all_rules()):
        if rule in others:
            code, _, err = run(capsys, monkeypatch, "solve", kind, str(FILES[kind]), "--rules",
                               rule)
            assert code == 2 and f"rule {rule!r} is the constraint of" in err, err
            continue
        solve_and_validate(capsys, monkeypatch, kind, "--rules", rule)
    for tactic in get_puzzle_type(kind).tactics:
        solve_and_validate(capsys, monkeypatch, kind, "--tactics", tactic)


@pytest.mark.parametrize("kind", ["kakuro", "str8ts"])
def test_the_learning_engine_refuses_constraint_rules(capsys, monkeypatch, kind):
    code, _out, err = run(capsys, monkeypatch, "solve", kind, str(FILES[kind]),
                          "--engine", "learning")
    assert code == 2 and "cannot search this puzzle" in err
    rule = {"kakuro": "kakuro-sum", "str8ts": "str8ts-straight"}[kind]
    assert f"has the constraint rule(s) {rule}, which it does not run" in err
    assert len(err.strip().splitlines()) == 1


class _Pairs(PuzzleType):
    """A third-party type whose own constraint is a rule its default rules forget: four cells
    in a row, all different (values 1..4), with the sum rule of Kakuro as its constraint."""

    name = "pairs-test"
    default_rules = ("elimination",)
    constraint_rules = ("kakuro-sum",)

    def model(self, puzzle: Puzzle, rules: tuple[str, ...] | None = None) -> Model:
        from csolve_kakuro.rules import KAKURO_SUM, combo_tables

        b = ModelBuilder(4, 9)
        b.add_group(range(4), tag=KAKURO_SUM, param=puzzle.data)
        b.aux_i64, b.aux_u64 = combo_tables()
        return b.build(rules or self.default_rules)

    def decode(self, puzzle, masks):
        return np.array([int(m).bit_length() for m in masks])

    def validate(self, puzzle, solution):
        ok = len(set(solution.tolist())) == 4 and int(solution.sum()) == puzzle.data
        return [] if ok else [f"{solution.tolist()} is not four digits adding up to 10"]


def test_a_third_party_type_gets_its_constraint_rules_by_declaring_them():
    ptype = _Pairs()
    p = Puzzle(ptype.name, "<test>", 1, 0, 10)
    assert ptype.model(p).rules == ("elimination", "kakuro-sum")
    assert ptype.model(p, ("hidden-single",)).rules == (
        "elimination", "hidden-single", "kakuro-sum")
    r = solve_one(ptype, p, SolveOptions(limit=0, rules=("hidden-single",)))
    assert r.count == 24  # the orders of {1, 2, 3, 4}: the sum is kept
    for s in r.solutions:
        assert ptype.validate(p, s) == []
