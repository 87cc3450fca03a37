"""Group families (parallel groups, for fish) in the model builder."""

from __future__ import annotations

import pytest

from csolve.grading import rate
from csolve.model import ModelBuilder


def test_family_arrays_and_ranks():
    b = ModelBuilder(4, 2)
    r0 = b.add_group([0, 1], required=[1, 2], family=1)
    r1 = b.add_group([2, 3], required=[1, 2], family=1)
    c0 = b.add_group([0, 2], required=[1, 2], family=2)
    c1 = b.add_group([1, 3], required=[1, 2], family=2)
    km = b.build(("elimination",)).kernel
    assert km.group_family.tolist() == [1, 1, 2, 2]
    assert km.group_rank.tolist() == [0, 1, 0, 1]
    fam1 = km.family_groups[km.family_ptr[1]:km.family_ptr[2]].tolist()
    fam2 = km.family_groups[km.family_ptr[2]:km.family_ptr[3]].tolist()
    assert fam1 == [r0, r1] and fam2 == [c0, c1]


def test_overlapping_groups_in_one_family_are_refused():
    b = ModelBuilder(3, 2)
    b.add_group([0, 1], family=1)
    b.add_group([1, 2], family=1)
    with pytest.raises(ValueError, match="family 1 overlap"):
        b.build(("elimination",))


def test_rate_api_on_a_16x16(sudoku):
    from .helpers import PUZZLES

    text = (PUZZLES / "sudoku" / "16x16.txt").read_text()
    p = sudoku.parse(text, "16x16.txt")[0]
    r = rate(sudoku, p)
    assert r.level in ("easy", "medium", "hard", "expert", "evil")
    assert r.steps > 0 and r.solutions == 1
    assert r.to_json()["level"] == r.level


@pytest.mark.parametrize("build, message", [
    (lambda b: b.add_group([0, 9]), "cell 9 is out of range 0..3"),
    (lambda b: b.add_group([0, 0]), "lists a cell twice"),
    (lambda b: b.add_group([0, 1], required=[5]), "required values are 1..4"),
    (lambda b: b.restrict(0, [7]), "values are 1..4, got 7 for cell 0"),
    (lambda b: b.restrict(-1, [1]), "cell -1 is out of range"),
    (lambda b: b.set_mask(2, 1 << 4), "a mask of 4 values is 0..15"),
])
def test_model_builder_names_a_plugins_mistake_where_it_is_made(build, message):
    """A cell or value out of range is a ValueError at the call that made it, not an
    IndexError in build() or a cell left silently empty."""
    with pytest.raises(ValueError, match=message):
        build(ModelBuilder(4, 4))
