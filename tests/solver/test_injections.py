"""The injection counter against hand counts and the brute-force reference (solver/reference.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver import reference
from solver.constraints import CountEquals, NotAll, Problem, require
from solver.injections import (
    InjectionCounter,
    UnsupportedShape,
    injection_counts,
    item_distributions,
    unit_count,
    unit_marginals,
    unit_marginals_many,
)


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


def _brute_marginals(masks: list[int], width: int) -> tuple[int, list[list[int]]]:
    """Every injection of the positions into the items, one by one."""
    import itertools

    total = 0
    counts = [[0] * width for _ in masks]
    for items in itertools.permutations(range(width), len(masks)):
        if all(m >> i & 1 for m, i in zip(masks, items, strict=True)):
            total += 1
            for b, i in enumerate(items):
                counts[b][i] += 1
    return total, counts


def test_unit_marginals_by_hand() -> None:
    # positions 0 and 1 take items {0, 1} and {1, 2}: worlds (0,1) (0,2) (1,2)
    total, weights = unit_marginals([0b011, 0b110], 3)
    assert total == 3
    assert weights.tolist() == [[2, 1, 0], [0, 1, 2]]
    assert unit_count([0b011, 0b110]) == 3
    assert unit_count([0b1, 0b1]) == 0  # one item cannot fill two positions


def test_unit_marginals_against_brute_force_and_the_dp() -> None:
    rng = random.Random(7)
    for _ in range(150):
        k, width = rng.randint(0, 4), rng.randint(1, 7)
        masks = [rng.getrandbits(width) | rng.getrandbits(width) for _ in range(k)]
        total, weights = unit_marginals(masks, width)
        brute_total, brute = _brute_marginals(masks, width)
        assert total == brute_total == unit_count(masks)
        assert weights.tolist() == brute
        groups: dict[int, int] = {}
        for i in range(width):
            pattern = sum(1 << b for b, m in enumerate(masks) if m >> i & 1)
            if pattern:
                groups[pattern] = groups.get(pattern, 0) + 1
        assert injection_counts(list(groups.items()), k)[0] == total


def test_unit_marginals_many_rows_agree_with_one_at_a_time() -> None:
    rng = random.Random(11)
    for k in (1, 3, 6, 9):  # 9 positions: beyond the partition recursion, the DP answers
        rows = [[rng.getrandbits(24) | rng.getrandbits(24) for _ in range(k)] for _ in range(4)]
        totals, weights = unit_marginals_many(np.array(rows, dtype=np.int64), 24)
        for r, masks in enumerate(rows):
            total, one = unit_marginals(masks, 24)
            assert totals[r] == total == unit_count(masks)
            assert np.array_equal(weights[r], one)
