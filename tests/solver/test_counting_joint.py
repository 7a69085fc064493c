"""AllocationCounter.joint: exact counts by (pivot content, probe content), against the brute-force reference,
against recounting with the answer added as a constraint, and against the plain counter on game states."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.counting
from models.thirteen_clues.data import CATEGORIES
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge
from solver import reference
from solver.constraints import Constraint, CountEquals, Problem
from solver.counting import AllocationCounter
from tests.solver.test_counting import PIVOT, allocation, allocation_cases

Case = tuple[dict[str, int], Problem, list[Constraint]]


def exactly(items: tuple[str, ...], mask: int, place: str, pool: list[str]) -> list[Constraint]:
    """``place`` holds exactly the items of ``mask`` (out of ``pool``)."""
    inside = [items[i] for i in range(len(items)) if mask >> i & 1]
    return [CountEquals(tuple((i, place) for i in inside), len(inside)),
            CountEquals(tuple((i, place) for i in pool), len(inside))]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(allocation_cases(), st.randoms(use_true_random=False))
def test_joint_matches_the_reference(case: Case, rnd: random.Random) -> None:
    capacities, problem, constraints = case
    ref = reference.solve(problem, constraints)
    counter = AllocationCounter(capacities, PIVOT)
    pool = list(problem.variables)
    for probe in (b for b in capacities if b != PIVOT):
        joint = counter.joint(problem, constraints, probe)
        assert joint.total == ref.worlds
        for i, item in enumerate(joint.items):
            assert int(joint.counts[(joint.pivots >> i) & 1 == 1].sum()) == ref.weights[(item, PIVOT)]
            assert int(joint.counts[:, (joint.probes >> i) & 1 == 1].sum()) == ref.weights[(item, probe)]
        # A few single cells, each recounted by brute force with "pivot is exactly M, probe is exactly q".
        cells = [(r, c) for r in range(joint.pivots.size) for c in range(joint.probes.size)]
        for r, c in rnd.sample(cells, min(4, len(cells))):
            extra = exactly(joint.items, int(joint.pivots[r]), PIVOT, pool)
            extra += exactly(joint.items, int(joint.probes[c]), probe, pool)
            assert int(joint.counts[r, c]) == reference.solve(problem, [*constraints, *extra]).worlds


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(allocation_cases(), st.data())
def test_answer_distribution_equals_recounting_with_the_answer(case: Case, data: st.DataObject) -> None:
    """A question "how many of S are in the pivot or the probe" has answer |M & S| + |q & S|: the joint gives
    every answer's worlds and posterior pivot weights at once, equal to adding the answer and recounting."""
    capacities, problem, constraints = case
    probes = [b for b in capacities if b != PIVOT]
    probe = data.draw(st.sampled_from(probes))
    items = list(problem.variables)
    subject = data.draw(st.lists(st.sampled_from(items), min_size=1, max_size=4, unique=True))
    counter = AllocationCounter(capacities, PIVOT)
    joint = counter.joint(problem, constraints, probe)
    s_mask = sum(1 << joint.items.index(i) for i in subject)
    answer = np.array([bin(int(m) & s_mask).count("1") for m in joint.pivots])[:, None] + np.array(
        [bin(int(q) & s_mask).count("1") for q in joint.probes]
    )[None, :]
    for t in range(len(subject) + 1):
        asked = CountEquals(tuple((i, b) for i in subject for b in (PIVOT, probe)), t)
        recount = counter(problem, [*constraints, asked], budget=60)
        cells = np.where(answer == t, joint.counts, 0)
        assert recount.exact and int(cells.sum()) == recount.worlds
        for i, item in enumerate(joint.items):
            assert int(cells[(joint.pivots >> i) & 1 == 1].sum()) == recount.weights.get((item, PIVOT), 0)


def test_known_joint_by_hand() -> None:
    """4 items: pivot 2, A 1, B 1, and "i0 is in A": A holds i0 in all C(3,2) * 1 = 3 worlds."""
    capacities = {PIVOT: 2, "A": 1, "B": 1}
    problem = allocation(capacities)
    joint = AllocationCounter(capacities, PIVOT).joint(problem, [CountEquals((("i0", "A"),), 1)], "A")
    assert joint.total == 3
    assert joint.probe_counts().tolist() == [3, 0, 0, 0]  # probes are i0, i1, i2, i3 in that order
    assert sorted(joint.pivot_counts().tolist()) == [0, 0, 0, 1, 1, 1]  # pivots holding i0 have no world
    free = AllocationCounter(capacities, PIVOT).joint(problem, [], "B")  # B is unconstrained: 12 worlds
    assert free.total == 12 and free.counts.max() == 1


def test_joint_chunks_and_python_integers_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory-bounded chunking and the big-number path give the same counts as the default path."""
    capacities, problem, constraints = _six_player_like(3)
    counter = AllocationCounter(capacities, PIVOT)
    base = counter.joint(problem, constraints, "p2")
    monkeypatch.setattr(solver.counting, "_CHUNK", 1 << 12)  # 4 pivots a chunk (10 items outside a pivot)
    assert np.array_equal(counter.joint(problem, constraints, "p2").counts, base.counts)
    monkeypatch.setattr(solver.counting, "_INT64_BOUND", 0)
    big = counter.joint(problem, constraints, "p2")
    assert big.counts.dtype == object
    assert [[int(x) for x in row] for row in big.counts] == base.counts.tolist()


def test_probe_must_be_another_bin() -> None:
    capacities = {PIVOT: 1, "A": 1}
    with pytest.raises(ValueError, match="probe 'M'"):
        AllocationCounter(capacities, PIVOT).joint(allocation(capacities), [], PIVOT)


def _six_player_like(seed: int) -> Case:
    """13 items: a pivot of 3, five bins of 2, and six true "witness" counts over random 3-item suits."""
    capacities = {PIVOT: 3, **{f"p{s}": 2 for s in range(2, 7)}}
    problem = allocation(capacities)
    items = list(problem.variables)
    rng = random.Random(seed)
    places = rng.sample([b for b, cap in capacities.items() for _ in range(cap)], len(items))
    world = dict(zip(items, places, strict=True))
    constraints: list[Constraint] = []
    for _ in range(6):
        b = rng.choice([b for b in capacities if b != PIVOT])
        suit = rng.sample(items, 3)
        terms = tuple((i, p) for i in suit for p in (PIVOT, b))
        constraints.append(CountEquals(terms, sum(world[i] in (PIVOT, b) for i in suit)))
    return capacities, problem, constraints


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_joint_totals_match_the_counter_on_game_states(players: int) -> None:
    """On real Thirteen Clues states (13 unseen cards, true answers from a deal) every probe's joint has the
    counter's total and the counter's mystery weights."""
    rng = random.Random(players)
    deal = random_deal(players, rng)
    setup = TableSetup()
    for line in deal.setup_lines(1):
        setup.apply(line)
    kn = ThirteenCluesKnowledge(setup)
    subjects = [*setup.data.suits_in_play(players), *CATEGORIES]
    for _ in range(8):
        seat = rng.randint(2, players)
        side = rng.choice(["left", "right"]) if players == 2 else None
        kn.add(deal.answer(seat, rng.choice(subjects), asker=1, side=side))
    count = kn.count()
    counter = AllocationCounter(kn.capacities, MYSTERY)
    problem = kn.knowledge.problem
    observed = [c for e in kn.knowledge.entries for c in e.constraints]
    probes = [b for b in kn.capacities if b != MYSTERY]
    for probe, joint in counter.joints(problem, observed, probes).items():
        assert joint.total == count.worlds, probe
        for i, card in enumerate(joint.items):
            assert int(joint.counts[(joint.pivots >> i) & 1 == 1].sum()) == count.weights.get((card, MYSTERY), 0)


@pytest.mark.parametrize("shape", [(1,), (2,), (3, 32), (2, 3, 64), (5, 1024)])
def test_zeta_transforms_are_subset_sums(shape: tuple[int, ...]) -> None:
    """``_zeta`` (last axis, low bits in a transposed copy), ``_zeta_columns`` (first axis) and a strided view
    (no copy trick) all give every subset sum, in int64 and in Python integers."""
    rnd = np.random.default_rng(7)
    values = rnd.integers(-5, 6, size=shape).astype(np.int64)
    size = shape[-1]
    expected = np.zeros_like(values)
    for s in range(size):
        expected[..., s] = sum(values[..., t] for t in range(size) if t & s == t)
    for dtype in (np.int64, object):
        h = values.astype(dtype)
        solver.counting._zeta(h)
        assert h.tolist() == expected.tolist()
        wide = np.zeros((*shape[:-1], 2 * size), dtype=dtype)
        wide[..., ::2] = values
        strided = wide[..., ::2]  # not contiguous
        solver.counting._zeta(strided)
        assert strided.tolist() == expected.tolist()
        columns = np.ascontiguousarray(values.reshape(-1, size).T.astype(dtype))
        solver.counting._zeta_columns(columns)
        assert columns.T.tolist() == expected.reshape(-1, size).tolist()
