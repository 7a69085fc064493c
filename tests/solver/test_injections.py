"""The injection counter against hand counts and the brute-force reference (solver/reference.py)."""

from __future__ import annotations

import random

import pytest

from solver import reference
from solver.constraints import CountEquals, NotAll, Problem, require
from solver.injections import InjectionCounter, UnsupportedShape, injection_counts, item_distributions


def test_three_items_two_free_bins() -> None:
    total, weights = injection_counts([(0b11, 3)], 2)
    assert total == 6  # 3 * 2 ordered choices
    assert weights == [[6, 6]]


def test_groups_with_different_masks() -> None:
    # bin 0 takes only group A (2 items), bin 1 takes A or B (1 item): A->0 (2 ways), then 1 from A or B (2)
    total, weights = injection_counts([(0b11, 2), (0b10, 1)], 2)
    assert total == 4
    assert weights[0] == [4, 2] and weights[1] == [0, 2]


def test_item_distributions_per_item() -> None:
    total, per_bin = item_distributions([{"a", "b"}, {"b", "c"}], ["a", "b", "c"])
    # worlds: (a,b) (a,c) (b,c)
    assert total == 3
    assert per_bin[0] == {"a": 2, "b": 1}
    assert per_bin[1] == {"b": 1, "c": 2}


def _random_problem(rng: random.Random) -> tuple[Problem, list, list[str], dict[str, int]]:
    n = rng.randint(3, 8)
    k = rng.randint(1, min(3, n))
    items = [f"c{i}" for i in range(n)]
    units = [f"p{i}" for i in range(k)]
    seen = rng.randint(0, n - k)
    caps = {"deck": n - k - seen, "seen": seen}
    dom = (*units, *caps)
    structure = [CountEquals(tuple((it, b) for it in items), 1) for b in units]
    structure += [CountEquals(tuple((it, b) for it in items), c) for b, c in caps.items()]
    cons: list = [require(it, "seen") for it in rng.sample(items, rng.randint(0, seen))]
    for _ in range(rng.randint(0, 3)):
        b = rng.choice(units)
        cons.append(CountEquals(tuple((it, b) for it in rng.sample(items, rng.randint(1, n))), rng.choice([0, 1])))
    if rng.random() < 0.3:
        cons.append(NotAll(((rng.choice(items), rng.choice(units)),)))
    return Problem(dict.fromkeys(items, dom), tuple(structure)), cons, units, caps


@pytest.mark.parametrize("seed", range(40))
def test_matches_reference(seed: int) -> None:
    rng = random.Random(seed)
    problem, cons, units, caps = _random_problem(rng)
    ref = reference.solve(problem, cons)
    got = InjectionCounter(units, caps)(problem, cons, 1.0)
    assert got.worlds == ref.worlds
    for lit, w in ref.weights.items():
        assert got.weights.get(lit, 0.0) == pytest.approx(w)


def test_unsupported_shape() -> None:
    problem = Problem({"a": ("p0", "deck"), "b": ("p0", "deck")})
    two_bins = CountEquals((("a", "p0"), ("b", "deck")), 1)
    with pytest.raises(UnsupportedShape):
        InjectionCounter(["p0"], {"deck": 1})(problem, [two_bins], 1.0)
