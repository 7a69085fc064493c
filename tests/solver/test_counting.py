"""The allocation counter: exact counts against the reference and CP-SAT enumeration, and its estimates."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.counting
from solver import reference
from solver.constraints import Constraint, CountEquals, NotAll, Problem, forbid, require
from solver.counting import MAX_ITEMS, AllocationCounter, UnsupportedShape
from solver.knowledge import enumerate_count

PIVOT = "M"


def allocation(capacities: dict[str, int], extra: tuple[Constraint, ...] = ()) -> Problem:
    """Items i0, i1, ... (as many as the capacities add up to) dealt into the bins, filled to capacity."""
    items = [f"i{k}" for k in range(sum(capacities.values()))]
    bins = tuple(capacities)
    capacity = tuple(CountEquals(tuple((i, b) for i in items), cap) for b, cap in capacities.items())
    return Problem({i: bins for i in items}, capacity + extra)


@st.composite
def allocation_cases(draw: st.DrawFn) -> tuple[dict[str, int], Problem, list[Constraint]]:
    """3 to 8 items into the pivot and 1 to 3 other bins, with the constraint shapes the counter supports:
    counts coupling the pivot with one other bin, pivot-only counts and NotAll, NotAll within one other bin,
    and single literals anywhere."""
    n = draw(st.integers(3, 8))
    others = [f"B{k}" for k in range(draw(st.integers(1, 3)))]
    bins = [PIVOT, *others]
    owner = draw(st.lists(st.sampled_from(bins), min_size=n, max_size=n))
    capacities = {b: owner.count(b) for b in bins}
    items = [f"i{k}" for k in range(n)]
    subset = st.lists(st.sampled_from(items), min_size=1, max_size=min(n, 4), unique=True)
    extra: tuple[Constraint, ...] = ()
    if draw(st.booleans()):  # like "the mystery holds exactly one Person"
        chosen = draw(subset)
        extra = (CountEquals(tuple((i, PIVOT) for i in chosen), draw(st.integers(0, 1))),)
    constraints: list[Constraint] = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["couple", "pivot", "pivot-notall", "bin-notall", "literal"]))
        if kind == "couple":
            b = draw(st.sampled_from(others))
            chosen = draw(subset)
            terms = tuple((i, p) for i in chosen for p in (PIVOT, b))
            constraints.append(CountEquals(terms, draw(st.integers(0, min(len(chosen), 3)))))
        elif kind == "pivot":
            chosen = draw(subset)
            constraints.append(CountEquals(tuple((i, PIVOT) for i in chosen), draw(st.integers(0, len(chosen)))))
        elif kind == "pivot-notall":
            constraints.append(NotAll(tuple((i, PIVOT) for i in draw(subset))))
        elif kind == "bin-notall":
            b = draw(st.sampled_from(others))
            constraints.append(NotAll(tuple((i, b) for i in draw(subset))))
        else:
            lit = (draw(st.sampled_from(items)), draw(st.sampled_from(bins)))
            constraints.append(require(*lit) if draw(st.booleans()) else forbid(*lit))
    return capacities, allocation(capacities, extra), constraints


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(allocation_cases())
def test_counter_reference_and_enumeration_agree(case: tuple[dict[str, int], Problem, list[Constraint]]) -> None:
    capacities, problem, constraints = case
    ref = reference.solve(problem, constraints)
    count = AllocationCounter(capacities, PIVOT)(problem, constraints, budget=60)
    enumerated = enumerate_count(problem, constraints, budget=60)
    assert count.exact and enumerated.exact
    assert count.worlds == ref.worlds == enumerated.worlds
    for lit in problem.literals():
        assert enumerated.weights[lit] == ref.weights[lit], lit
        if lit[1] == PIVOT:
            assert count.weights.get(lit, 0) == ref.weights[lit], lit
            assert count.probability(lit) == pytest.approx(ref.probability(lit))


def test_known_count_with_a_free_bin() -> None:
    """6 items: pivot 2, A 2, B 2; "i0 in A" leaves 5 items: C(5,2) pivots x C(3,1) for the rest of A = 30."""
    capacities = {PIVOT: 2, "A": 2, "B": 2}
    count = AllocationCounter(capacities, PIVOT)(allocation(capacities), [require("i0", "A")], budget=10)
    assert count.exact and count.worlds == 30
    assert count.weights[("i1", PIVOT)] == 4 * 3  # i1 with one of 4 others in the pivot, then 3 ways for A
    assert ("i0", PIVOT) not in count.weights


# -- shapes the counter refuses (the caller falls back to enumeration) -----------------------------------------
def test_unsupported_shapes() -> None:
    capacities = {PIVOT: 1, "A": 1, "B": 1}
    problem = allocation(capacities)
    counter = AllocationCounter(capacities, PIVOT)
    with pytest.raises(UnsupportedShape, match="several bins"):
        counter(problem, [CountEquals((("i0", "A"), ("i1", "B")), 1)], 1)
    with pytest.raises(UnsupportedShape, match="couples the pivot"):
        counter(problem, [NotAll((("i0", PIVOT), ("i1", "A")))], 1)
    with pytest.raises(UnsupportedShape, match="do not add up"):
        AllocationCounter({PIVOT: 1, "A": 1, "B": 2}, PIVOT)(problem, [], 1)
    with pytest.raises(UnsupportedShape, match="does not range over the bins"):
        counter(Problem({"i0": (PIVOT, "A"), "i1": capacities, "i2": capacities}), [], 1)
    big = {PIVOT: 3, "A": MAX_ITEMS - 2}
    with pytest.raises(UnsupportedShape, match=f"{MAX_ITEMS + 1} items"):
        AllocationCounter(big, PIVOT)(allocation(big), [], 1)


# -- estimates under a budget ----------------------------------------------------------------------------------
class FakeClock:
    """Stands in for the ``time`` module in :mod:`solver.counting`: every reading is one second later, so a
    budget of ``k + 0.5`` seconds lets the counter finish exactly ``k + 1`` groups, whatever the machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def six_player_like(seed: int) -> tuple[dict[str, int], Problem, list[Constraint]]:
    """13 unseen items: a pivot of 3 and five bins of 2, with random "witness" counts coupling the pivot and one
    bin over 3-item "suits", like a six-player Thirteen Clues state."""
    capacities = {PIVOT: 3, **{f"p{s}": 2 for s in range(2, 7)}}
    problem = allocation(capacities)
    items = list(problem.variables)
    rng = random.Random(seed)
    world = dict(zip(items, rng.sample([b for b, cap in capacities.items() for _ in range(cap)], len(items)),
                     strict=True))
    constraints: list[Constraint] = []
    for _ in range(6):
        b = rng.choice([b for b in capacities if b != PIVOT])
        suit = rng.sample(items, 3)
        terms = tuple((i, p) for i in suit for p in (PIVOT, b))
        constraints.append(CountEquals(terms, sum(world[i] in (PIVOT, b) for i in suit)))  # true in ``world``
    return capacities, problem, constraints


@pytest.mark.parametrize("seed", range(6))
def test_budget_gives_an_estimate_within_a_few_standard_errors(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    capacities, problem, constraints = six_player_like(seed)
    exact = AllocationCounter(capacities, PIVOT, seed=seed)(problem, constraints, budget=600)
    groups = AllocationCounter(capacities, PIVOT, seed=seed)
    groups(problem, constraints, budget=600)
    assert exact.exact and exact.worlds > 0
    assert groups.last_groups >= 40, "too few groups for a sampling test"
    monkeypatch.setattr(solver.counting, "time", FakeClock())
    counter = AllocationCounter(capacities, PIVOT, seed=seed)
    estimate = counter(problem, constraints, budget=11.5)
    assert not estimate.exact
    # 12 groups fit in the budget, more if fewer than two of those had worlds.
    done = re.fullmatch(rf"estimate from (\d+) of {counter.last_groups} groups of mysteries \(11.5 s budget\)",
                        estimate.note)
    assert done is not None and 12 <= int(done[1]) < counter.last_groups
    assert estimate.stderr > 0
    assert abs(estimate.worlds - exact.worlds) <= 4 * estimate.stderr
    # Literal weights are scaled like the total, so probabilities stay those of the sampled groups.
    assert sum(estimate.weights.values()) == pytest.approx(3 * estimate.worlds)


@pytest.mark.parametrize("seed", range(6))
def test_budget_spent_at_once_still_gives_a_count_and_an_error(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither a count nor its error can be estimated from one group, nor from groups without worlds (many
    groups have none): the counter goes on until two groups have worlds rather than claim "0 worlds, no error"."""
    capacities, problem, constraints = six_player_like(seed)
    monkeypatch.setattr(solver.counting, "time", FakeClock())
    estimate = AllocationCounter(capacities, PIVOT, seed=seed)(problem, constraints, budget=0)
    assert not estimate.exact
    assert estimate.worlds > 0
    assert estimate.stderr > 0
    assert math.isfinite(estimate.stderr)
