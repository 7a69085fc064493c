"""The Time Bomb soft layer (:mod:`models.time_bomb.bluff`) with exact values: the bluff model's likelihoods, the
defusing-card vectors and their hypergeometric prior, role assignments against an enumeration of the role
cards, the claim layers, and the posterior's normalisation against a brute force written here. Mutation testing
(``python bench/mutation.py models/time_bomb/bluff.py``) found the cases these pin down."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from models.time_bomb.bluff import (
    BluffModel,
    ClaimContext,
    NoRoleAssignmentError,
    RoundDefusers,
    RoundLayer,
    build_rounds,
    claim_truth,
    defuser_vectors,
    hypergeometric_prior,
    role_assignments,
    role_posterior,
)
from models.time_bomb.data import DEFAULT_DATA, MORIARTY, SHERLOCK, Setup
from solver.errors import AssistantError


def test_rates_are_probabilities() -> None:
    assert BluffModel() == BluffModel(0.1, 0.5)
    BluffModel(0.0, 1.0)  # the bounds are allowed
    for kwargs, message in [({"sherlock": -0.1}, "sherlock bluff rate -0.1: expected a probability from 0 to 1"),
                            ({"moriarty": 1.5}, "moriarty bluff rate 1.5: expected a probability from 0 to 1"),
                            ({"sherlock": 1.01}, "sherlock bluff rate 1.01: expected a probability from 0 to 1")]:
        with pytest.raises(AssistantError) as info:
            BluffModel(**kwargs)
        assert str(info.value) == message
    model = BluffModel(0.2, 0.7)
    assert model.rate(SHERLOCK) == 0.2 and model.rate(MORIARTY) == 0.7


def test_likelihood_of_a_claim() -> None:
    model = BluffModel(0.2, 0.6)
    truth = np.array([0, 1, 2, 3])
    assert model.likelihood(1, truth, 3, SHERLOCK).tolist() == pytest.approx([0.2 / 3, 0.8, 0.2 / 3, 0.2 / 3])
    assert model.likelihood(2, truth, 4, MORIARTY).tolist() == pytest.approx([0.15, 0.15, 0.4, 0.15])
    empty = model.likelihood(0, truth, 0, MORIARTY)  # an empty hand's claim says nothing
    assert empty.tolist() == [1.0, 1.0, 1.0, 1.0] and empty.dtype == float


def test_defuser_vectors_and_their_prior() -> None:
    vectors = defuser_vectors([2, 1, 2], 2)
    rows = [tuple(r) for r in vectors.tolist()]
    assert rows == [(0, 0, 2), (0, 1, 1), (1, 0, 1), (1, 1, 0), (2, 0, 0)]
    prior = hypergeometric_prior(vectors, [2, 1, 2])
    # a uniform choice of 2 of the 5 unrevealed slots: C(5, 2) = 10 ways
    weights = [math.prod(math.comb(s, d) for s, d in zip((2, 1, 2), r, strict=True)) for r in rows]
    assert weights == [1, 2, 4, 2, 1]
    assert prior.tolist() == pytest.approx([w / 10 for w in weights])
    assert defuser_vectors([1, 1], 3).shape == (0, 2)  # more cards than slots: no way
    none = defuser_vectors([2, 3], 0)
    assert none.tolist() == [[0, 0]] and hypergeometric_prior(none, [2, 3]).tolist() == [1.0]


def enumerated_roles(setup: Setup, me: int, role: str) -> dict[tuple[str, ...], Fraction]:
    """P(roles of the other seats | my role), by dealing every permutation of the role cards (the ones past the
    last seat stay unseen)."""
    players = setup.players
    cards = [SHERLOCK] * setup.sherlock_cards + [MORIARTY] * setup.moriarty_cards
    counts: dict[tuple[str, ...], int] = {}
    for deal in itertools.permutations(cards):
        if deal[me - 1] != role:
            continue
        others = tuple(deal[s - 1] for s in range(1, players + 1) if s != me)
        counts[others] = counts.get(others, 0) + 1
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize(("players", "me", "role"), [(4, 1, SHERLOCK), (4, 3, MORIARTY), (5, 2, SHERLOCK),
                                                      (5, 5, MORIARTY), (6, 4, SHERLOCK)])
def test_role_assignments_match_an_enumeration_of_the_role_cards(players: int, me: int, role: str) -> None:
    check_roles(DEFAULT_DATA.setup(players), me, role)


@pytest.mark.parametrize(("sherlock", "moriarty", "me", "role"), [(4, 2, 1, SHERLOCK), (3, 3, 2, MORIARTY),
                                                                  (5, 2, 4, MORIARTY)])
def test_role_assignments_with_several_unseen_role_cards(sherlock: int, moriarty: int, me: int, role: str) -> None:
    """Data files may deal more role cards than one past the players: assignments then differ in weight."""
    setup = dataclasses.replace(DEFAULT_DATA.setup(4), sherlock_cards=sherlock, moriarty_cards=moriarty)
    assignments, prior = check_roles(setup, me, role)
    assert len(set(prior.tolist())) > 1  # not all alike


def check_roles(setup: Setup, me: int, role: str) -> tuple[list[dict[int, str]], np.ndarray]:
    players = setup.players
    assignments, prior = role_assignments(setup, me, role)
    others = [s for s in range(1, players + 1) if s != me]
    got = {tuple(a[s] for s in others): float(p) for a, p in zip(assignments, prior, strict=True)}
    want = enumerated_roles(setup, me, role)
    assert set(got) == set(want)
    for roles, p in want.items():
        assert got[roles] == pytest.approx(float(p), abs=1e-12), roles
    assert all(set(a) == set(others) for a in assignments)
    return assignments, prior


def test_claim_truth_counts_the_cards_cut_after_the_claim() -> None:
    rd = RoundDefusers(1, seats=(2, 3), slots=(2, 1), defusers=2,
                       shown={2: ("defuse", "red", "defuse"), 3: ("defuse",)})
    vectors = defuser_vectors(rd.slots, rd.defusers)
    assert vectors.tolist() == [[1, 1], [2, 0]]
    # seat 2 claimed after 1 of its cards was cut: the defusing card cut later (slot 3) was in its hand then
    claim = ClaimContext(1, 1, 2, claimed=2, before=1, size=4)
    assert claim_truth(claim, vectors, rd).tolist() == [2, 3]
    early = ClaimContext(2, 1, 2, claimed=2, before=0, size=5)
    assert claim_truth(early, vectors, rd).tolist() == [3, 4]
    late = ClaimContext(3, 1, 3, claimed=1, before=1, size=1)
    assert claim_truth(late, vectors, rd).tolist() == [1, 0]
    unseen = ClaimContext(4, 1, 3, claimed=1, before=0, size=2)
    assert claim_truth(unseen, vectors, RoundDefusers(1, (2, 3), (2, 1), 2, {})).tolist() == [1, 0]


def test_build_rounds_multiplies_each_claim_s_likelihood() -> None:
    model = BluffModel(0.2, 0.6)
    assignments = [{2: SHERLOCK, 3: MORIARTY}, {2: MORIARTY, 3: SHERLOCK}]
    rounds = [RoundDefusers(1, (2, 3), (2, 1), 2, {}), RoundDefusers(2, (2, 3), (1, 1), 1, {})]
    claims = [ClaimContext(1, 1, 2, claimed=1, before=0, size=2),
              ClaimContext(2, 1, 3, claimed=1, before=0, size=1),
              ClaimContext(3, 1, 1, claimed=0, before=0, size=2),  # mine: ignored
              ClaimContext(4, 1, 4, claimed=0, before=0, size=2),  # a seat not in the round: ignored
              ClaimContext(5, 2, 2, claimed=0, before=0, size=1)]
    cache: dict[object, RoundLayer] = {}
    layers = build_rounds(rounds, claims, assignments, model, me=1, cache=cache)
    assert [layer.hard.round for layer in layers] == [1, 2]
    first = layers[0]
    assert first.vectors.tolist() == [[1, 1], [2, 0]] and first.prior.tolist() == pytest.approx([2 / 3, 1 / 3])
    # d = (1, 1): seat 2's claim 1 true, seat 3's claim 1 true; d = (2, 0): both false
    want = [[(1 - 0.2) * (1 - 0.6), (0.2 / 2) * 0.6], [(1 - 0.6) * (1 - 0.2), (0.6 / 2) * 0.2]]
    assert first.likelihood.ravel().tolist() == pytest.approx([w for row in want for w in row])
    assert first.evidence.tolist() == pytest.approx([sum(w * p for w, p in zip(row, (2 / 3, 1 / 3), strict=True))
                                                     for row in want])
    second = layers[1]
    assert second.vectors.tolist() == [[0, 1], [1, 0]]
    assert second.likelihood.ravel().tolist() == pytest.approx([1 - 0.2, 0.2, 1 - 0.6, 0.6])
    assert len(cache) == 1  # only the closed round is kept
    again = build_rounds(rounds, claims, assignments, model, me=1, cache=cache)
    assert again[0] is first and again[1] is not second
    assert build_rounds(rounds, claims, assignments, BluffModel(0.3, 0.6), me=1, cache=cache)[0] is not first
    # another claim in the closed round: its layer is worked out again, not taken from the cache
    more = [*claims, ClaimContext(6, 1, 3, claimed=0, before=0, size=1)]
    changed = build_rounds(rounds, more, assignments, model, me=1, cache=cache)[0]
    assert changed is not first
    # seat 3 (Moriarty in the first assignment, Sherlock in the second) claims none: true only if d = (2, 0)
    extra = [0.6, 1 - 0.6, 0.2, 1 - 0.2]
    assert changed.likelihood.ravel().tolist() == pytest.approx(
        [w * e for w, e in zip([w for row in want for w in row], extra, strict=True)])
    assert changed.likelihood.ravel().tolist() != first.likelihood.ravel().tolist()


def brute_posterior(prior: list[float], layers: list[RoundLayer]) -> list[float]:
    """P(assignment | claims) by summing every combination of the rounds' d-vectors (independent of
    role_posterior's product of per-round evidence)."""
    weights = []
    for a, p in enumerate(prior):
        total = 0.0
        for combination in itertools.product(*(range(len(layer.vectors)) for layer in layers)):
            term = p
            for layer, v in zip(layers, combination, strict=True):
                term *= layer.prior[v] * layer.likelihood[a, v]
            total += term
        weights.append(total)
    z = sum(weights)
    return [w / z for w in weights]


def test_role_posterior_against_a_brute_force() -> None:
    model = BluffModel(0.2, 0.6)
    assignments = [{2: SHERLOCK, 3: MORIARTY}, {2: MORIARTY, 3: SHERLOCK}, {2: MORIARTY, 3: MORIARTY}]
    rounds = [RoundDefusers(1, (2, 3), (2, 1), 2, {}), RoundDefusers(2, (2, 3), (1, 1), 1, {})]
    claims = [ClaimContext(1, 1, 2, 1, 0, 2), ClaimContext(2, 1, 3, 1, 0, 1), ClaimContext(3, 2, 2, 0, 0, 1)]
    layers = build_rounds(rounds, claims, assignments, model, me=1)
    prior = [0.5, 0.3, 0.2]
    post = role_posterior(np.array(prior), layers, model)
    assert post.tolist() == pytest.approx(brute_posterior(prior, layers), abs=1e-12)
    assert float(post.sum()) == pytest.approx(1.0, abs=1e-12)
    assert role_posterior(np.array(prior), [], model).tolist() == pytest.approx(prior)


def test_role_posterior_normalises_exactly() -> None:
    layer = RoundLayer(RoundDefusers(1, (2,), (1,), 1, {}), np.array([[1]]), np.array([1.0]),
                       np.array([[0.2], [0.6]]))
    post = role_posterior(np.array([0.5, 0.5]), [layer, layer], BluffModel())
    assert post.tolist() == pytest.approx([0.04 / 0.40, 0.36 / 0.40], abs=1e-12)
    prior = np.array([0.5, 0.5])
    role_posterior(prior, [layer], BluffModel())
    assert prior.tolist() == [0.5, 0.5]  # the prior is not changed in place


def test_no_assignment_explains_the_claims() -> None:
    layer = RoundLayer(RoundDefusers(1, (2,), (1,), 1, {}), np.array([[1]]), np.array([1.0]), np.array([[0.0],
                                                                                                       [0.0]]))
    with pytest.raises(NoRoleAssignmentError) as info:
        role_posterior(np.array([0.5, 0.5]), [layer], BluffModel(0.0, 1.0))
    assert str(info.value) == ("no role assignment explains these claims at bluff rates Sherlock 0, Moriarty 1 (0 "
                               "forbids lying, 1 the truth)")
