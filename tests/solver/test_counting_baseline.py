"""AllocationCounter.joints against the frozen pre-issue-12 implementation (bench/_baseline_tc/counting.py) that
the speed bench plays against: the faster joints must give the very same arrays (pivots, probes, counts and
dtype) on random allocations, on game-like states with looked-at informant letters, and on every call of a real
four-player advisor game."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from bench._baseline_tc.counting import AllocationCounter as BaselineCounter
from models.thirteen_clues.bots import make_bot
from models.thirteen_clues.rules import TableRules, new_game
from solver.constraints import Constraint, CountEquals, NotAll, Problem, forbid, require
from solver.counting import AllocationCounter, JointCount
from solver.simulate import Matchup, game_seed, play_game
from tests.solver.test_counting import PIVOT, allocation, allocation_cases

Case = tuple[dict[str, int], Problem, list[Constraint]]


def assert_same(new: dict[str, JointCount], old: dict[str, JointCount]) -> None:
    assert list(new) == list(old)
    for probe, joint in new.items():
        base = old[probe]
        assert joint.items == base.items
        assert np.array_equal(joint.pivots, base.pivots) and np.array_equal(joint.probes, base.probes)
        assert joint.counts.dtype == base.counts.dtype, probe
        assert np.array_equal(joint.counts, base.counts), probe


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(allocation_cases())
def test_joints_equal_the_baseline_on_random_allocations(case: Case) -> None:
    capacities, problem, constraints = case
    probes = [b for b in capacities if b != PIVOT]
    new = AllocationCounter(capacities, PIVOT).joints(problem, constraints, probes)
    assert_same(new, BaselineCounter(capacities, PIVOT).joints(problem, constraints, probes))


def _table_like(seed: int) -> Case:
    """13 items like a Thirteen Clues table seen by one player: a pivot of 3, rivals of 2, letters of 1, true
    witness counts coupling the pivot with a rival, looked-at letters (fixed bins), a few forbidden places and
    not-all constraints on a rival (some cases have no world: two letters required to hold one item)."""
    rng = random.Random(seed)
    rivals = rng.choice([2, 3, 4, 5])
    capacities = {PIVOT: 3, **{f"p{s}": 2 for s in range(rivals)}}
    capacities.update({f"L{k}": 1 for k in range(13 - sum(capacities.values()))})
    problem = allocation(capacities)
    items = list(problem.variables)
    places = [b for b, cap in capacities.items() for _ in range(cap)]
    rng.shuffle(places)
    world = dict(zip(items, places, strict=True))
    letters = [b for b in capacities if b.startswith("L")]
    constraints: list[Constraint] = []
    for _ in range(rng.randint(0, 6)):
        b = rng.choice([f"p{s}" for s in range(rivals)])
        suit = rng.sample(items, rng.randint(2, 4))
        terms = tuple((i, p) for i in suit for p in (PIVOT, b))
        constraints.append(CountEquals(terms, sum(world[i] in (PIVOT, b) for i in suit)))
    for letter in rng.sample(letters, rng.randint(0, len(letters))):
        truth = next(i for i in items if world[i] == letter)
        constraints.append(require(rng.choice(items) if rng.random() < 0.1 else truth, letter))
    for _ in range(rng.randint(0, 2)):
        item = rng.choice(items)
        constraints.append(forbid(item, rng.choice([b for b in capacities if b != world[item]])))
    if rng.random() < 0.3:
        constraints.append(NotAll(tuple((i, "p0") for i in rng.sample(items, 2))))
    return capacities, problem, constraints


def test_joints_equal_the_baseline_on_table_like_states() -> None:
    for seed in range(25):
        capacities, problem, constraints = _table_like(seed)
        probes = [b for b in capacities if b != PIVOT]
        random.Random(seed).shuffle(probes)
        for subset in (probes, probes[-2:]):
            new = AllocationCounter(capacities, PIVOT).joints(problem, constraints, subset)
            assert_same(new, BaselineCounter(capacities, PIVOT).joints(problem, constraints, subset))


def test_joints_equal_the_baseline_in_a_four_player_advisor_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every joints call of a seeded four-player advisor game, recomputed by the baseline."""
    calls: list[int] = []
    fast = AllocationCounter.joints

    def checked(
        self: AllocationCounter, problem: Problem, constraints: Sequence[Constraint], probes: Sequence[str]
    ) -> dict[str, JointCount]:
        new = fast(self, problem, constraints, probes)
        old = BaselineCounter(self.capacities, self.pivot).joints(problem, constraints, probes)
        assert_same(new, old)
        calls.append(len(probes))
        return new

    monkeypatch.setattr(AllocationCounter, "joints", checked)
    matchup = Matchup(functools.partial(new_game, TableRules(4)), ("advisor",) * 4, make_bot)
    play_game(matchup, game_seed(3, 0), 0)
    assert len(calls) >= 10
