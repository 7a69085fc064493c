"""The brute-force reference on problems small enough to count by hand."""

from __future__ import annotations

import pytest

from solver import reference
from solver.constraints import CountEquals, NotAll, Problem, forbid, require


def three_into_two() -> Problem:
    """Items a, b, c into bin X (one item) and bin Y (two items): 3 worlds, one per item in X."""
    items = ("a", "b", "c")
    return Problem(
        {i: ("X", "Y") for i in items},
        (CountEquals(tuple((i, "X") for i in items), 1), CountEquals(tuple((i, "Y") for i in items), 2)),
    )


def test_counts_every_world_and_its_literals() -> None:
    ref = reference.solve(three_into_two(), [])
    assert ref.worlds == 3
    assert ref.weights[("a", "X")] == 1
    assert ref.weights[("a", "Y")] == 2
    assert ref.probability(("b", "Y")) == pytest.approx(2 / 3)
    assert ref.possible() == {i: frozenset({"X", "Y"}) for i in "abc"}


def test_observations_narrow_the_worlds() -> None:
    ref = reference.solve(three_into_two(), [forbid("a", "X"), NotAll((("b", "X"), ("a", "Y")))])
    # a is in Y; "not (b in X and a in Y)" then leaves c in X only.
    assert ref.worlds == 1
    assert ref.possible() == {"a": frozenset({"Y"}), "b": frozenset({"Y"}), "c": frozenset({"X"})}
    assert ref.probability(("c", "X")) == 1.0


def test_contradiction_gives_no_world() -> None:
    ref = reference.solve(three_into_two(), [require("a", "X"), require("b", "X")])
    assert ref.worlds == 0
    assert ref.possible() == {}
    assert ref.probability(("a", "X")) == 0.0


def test_terms_on_unknown_variables_are_never_true() -> None:
    """A literal on a variable outside the problem (a card I can see) counts as false."""
    problem = three_into_two()
    assert reference.solve(problem, [CountEquals((("a", "X"), ("seen", "X")), 1)]).worlds == 1
    assert reference.solve(problem, [forbid("seen", "X")]).worlds == 3
    assert reference.solve(problem, [require("seen", "X")]).worlds == 0


def test_limit_raises_overflow() -> None:
    problem = Problem({f"v{i}": ("0", "1") for i in range(10)})
    assert reference.solve(problem, [], limit=1024).worlds == 1024
    with pytest.raises(OverflowError, match="more than 1023 worlds"):
        reference.solve(problem, [], limit=1023)
