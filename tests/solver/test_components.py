"""ComponentCounter: exact counts by independent blocks, checked against the brute-force reference."""

from __future__ import annotations

import random

import pytest

from solver import reference
from solver.components import BlockTooLarge, ComponentCounter, blocks
from solver.constraints import Constraint, CountEquals, NotAll, Problem, forbid, require


def _random_problem(rng: random.Random) -> tuple[Problem, list[Constraint]]:
    """A few independent groups of variables with count, NotAll and single-literal constraints."""
    variables: dict[str, tuple[str, ...]] = {}
    structure: list[Constraint] = []
    extra: list[Constraint] = []
    for g in range(rng.randint(1, 4)):
        names = [f"g{g}v{i}" for i in range(rng.randint(1, 4))]
        dom = tuple(f"b{j}" for j in range(rng.randint(1, 3)))
        for n in names:
            variables[n] = dom
        for b in dom:
            if rng.random() < 0.6:
                structure.append(CountEquals(tuple((n, b) for n in names), rng.randint(0, len(names))))
        if rng.random() < 0.5:
            extra.append(NotAll(tuple((n, rng.choice(dom)) for n in rng.sample(names, min(2, len(names))))))
        if rng.random() < 0.4:
            extra.append(require(rng.choice(names), rng.choice(dom)))
        if rng.random() < 0.4:
            extra.append(forbid(rng.choice(names), rng.choice(dom)))
    return Problem(variables, tuple(structure)), extra


def test_matches_reference_on_random_problems() -> None:
    rng = random.Random(3)
    nonempty = 0
    for _ in range(300):
        problem, extra = _random_problem(rng)
        ref = reference.solve(problem, extra)
        count = ComponentCounter()(problem, extra, 1.0)
        assert count.worlds == ref.worlds
        for lit, w in ref.weights.items():
            assert count.weights.get(lit, 0.0) == w
        nonempty += ref.worlds > 0
    assert nonempty > 40


def test_blocks_split_by_shared_constraints() -> None:
    problem = Problem({"a": ("x", "y"), "b": ("x", "y"), "c": ("x", "y")}, (CountEquals((("a", "x"), ("b", "x")), 1),))
    assert blocks(problem, list(problem.structure)) == [["a", "b"], ["c"]]
    count = ComponentCounter()(problem, [], 1.0)
    assert count.worlds == 4 and count.probability(("a", "x")) == 0.5


def test_block_limit() -> None:
    names = [f"v{i}" for i in range(5)]
    problem = Problem(dict.fromkeys(names, ("x", "y")), (CountEquals(tuple((n, "x") for n in names), 2),))
    with pytest.raises(BlockTooLarge, match="5 linked variables"):
        ComponentCounter(max_block=4)(problem, [], 1.0)
