"""Determinized rollouts for the Moriarty advisor (:mod:`models.time_bomb.rollout`, off by default): sampled
worlds agree with the belief they come from, the table's reading of a claim is the claim ranking's, and a
seeded position gets the same rollout values every time, which rank the Moriarty's cuts when switched on."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from models.time_bomb.advisor import (
    MORIARTY_WEIGHTS,
    SHERLOCK_WEIGHTS,
    advise,
    choose_claim,
    claim_options,
    claim_rollouts,
    cut_options,
    table_reads,
)
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.observations import Claim, Cut, Redeal
from models.time_bomb.rollout import RolloutModel, claim_reading, claim_values, cut_values, sample_world
from solver.text import percent

from .test_advisor_moriarty import knowledge

HAND = ("defuse", "pink", "red", "blue", "green")


def claimed_position():
    """4 players, I am seat 1, Moriarty, holding one defusing card; everyone has claimed this round."""
    kn = knowledge(4, HAND)
    for entry in (Claim(1, 0), Claim(2, 2), Claim(3, 0), Claim(4, 1)):
        kn.add(entry)
    return kn


def test_a_claim_is_read_as_the_claim_ranking_reads_it() -> None:
    kn = knowledge(4, HAND)
    for option in claim_options(kn):
        expected, suspicion = claim_reading(20, 4, 5, option.claimed, 0.1, 0.5)
        assert expected / 5 == pytest.approx(option.lure, abs=1e-12)
        assert suspicion == pytest.approx(option.suspicion, abs=1e-12)
    # by hand: a claim of 0 of 5 from 20 cards with 4 defusing cards, at rates 0.1 / 0.5
    prior = [4368, 4 * 1820, 6 * 560, 4 * 120, 16, 0]  # C(4, d) C(16, 5 - d) for d = 0..5
    like_s = [0.9] + [0.02] * 5
    like_m = [0.5] + [0.1] * 5
    p_s = sum(w * x for w, x in zip(prior, like_s, strict=True))
    p_m = sum(w * x for w, x in zip(prior, like_m, strict=True))
    both = [w * (x + y) / 2 for w, x, y in zip(prior, like_s, like_m, strict=True)]
    assert claim_reading(20, 4, 5, 0, 0.1, 0.5) == pytest.approx(
        (sum(d * b for d, b in enumerate(both)) / sum(both), p_m / (p_s + p_m)), abs=1e-12)


def test_the_table_reads_this_rounds_claims_less_the_defusing_cards_cut_since() -> None:
    kn = claimed_position()
    reads = table_reads(kn)
    two = claim_reading(20, 4, 5, 2, 0.1, 0.5)
    assert reads[2] == pytest.approx(two, abs=1e-12)
    assert reads[4] == pytest.approx(claim_reading(20, 4, 5, 1, 0.1, 0.5), abs=1e-12)
    kn.add(Cut(2, DEFUSE))  # player 1 cut a defusing card of player 2: one fewer promised, same suspicion
    after = table_reads(kn)
    assert after[2] == pytest.approx((two[0] - 1.0, two[1]), abs=1e-12)
    assert after[4] == reads[4]


def test_a_sampled_world_is_one_the_belief_allows() -> None:
    kn = claimed_position()
    kn.add(Cut(2, "pink"))
    belief = kn.belief(soft=True)
    rng = random.Random(5)
    for _ in range(200):
        roles, hands = sample_world(belief, rng)
        assert roles[1] == MORIARTY and set(roles) == {1, 2, 3, 4}
        assert 1 <= sum(r == MORIARTY for r in roles.values()) <= 2  # 2 of the 5 role cards, one card unseen
        assert {s: len(h) for s, h in hands.items()} == kn.table.sizes
        assert sorted(hands[1]) == sorted(HAND)
        assert sum(h.count(DEFUSE) for h in hands.values()) == kn.table.defusers_left() == 4
        assert sum(h.count("pink") for h in hands.values()) <= 5 - 1  # one pink is cut
    assert sample_world(belief, random.Random(5)) == (
        {2: SHERLOCK, 3: SHERLOCK, 4: MORIARTY, 1: MORIARTY},
        {1: list(HAND), 2: ["defuse", "defuse", "pink", "red"], 3: ["red", "blue", "green", "pink", "blue"],
         4: ["defuse", "blue", "pink", "green", "green"]},
    )


def test_rollout_values_of_a_seeded_position_are_exact_and_rank_the_cuts_when_switched_on() -> None:
    kn = claimed_position()
    belief, reads = kn.belief(soft=True), table_reads(kn)
    model = RolloutModel(16)
    values = cut_values(kn.table, belief, reads, model, 7)
    assert values == {2: 14 / 16, 3: 14 / 16, 4: 16 / 16}
    assert cut_values(kn.table, belief, reads, model, 7) == values  # seeded: the same every time
    assert claim_values(kn.table, belief, {}, 1, [2, 3, 4], model, 7) == {0: 15 / 16, 1: 1.0, 2: 1.0, 3: 1.0,
                                                                          4: 1.0, 5: 1.0}
    assert MORIARTY_WEIGHTS.rollouts == 0  # off by default: measured no gain (docs/time-bomb.md)
    weights = replace(MORIARTY_WEIGHTS, rollouts=16)
    options = cut_options(kn, weights=weights)
    plain = {o.seat: o.score for o in cut_options(kn)}
    assert [o.seat for o in options] == [3, 2, 4]
    assert "Moriarty wins 94% of 16 rollouts" in options[0].reason
    for o in options:  # the rollout share decides; the greedy score only breaks ties
        share = round(o.score - 1e-3 * plain[o.seat], 9)
        assert share * 16 == pytest.approx(round(share * 16), abs=1e-6)
    cuts_only = replace(weights, claim_table=())  # rollouts for cuts only: the claim is the ranked one
    assert choose_claim(knowledge(4, HAND), weights=cuts_only) == choose_claim(knowledge(4, HAND), weights=replace(
        MORIARTY_WEIGHTS, claim_table=()))
    weights = replace(weights, claim_rollouts=True, claim_table=())  # a claim table's row would decide first
    claims = claim_rollouts(knowledge(4, HAND), weights)
    pick, why = choose_claim(knowledge(4, HAND), weights=weights)
    assert claims == {0: 13 / 16, 1: 14 / 16, 2: 12 / 16, 3: 14 / 16, 4: 15 / 16, 5: 15 / 16}
    # 4 and 5 tie on the rollouts; the ranked score (4 reads less suspicious than 5) breaks the tie
    assert (pick, why) == (4, "Moriarty wins 94% of 16 rollouts after this claim")


def test_a_relative_claim_draws_the_next_cut_or_tells_the_truth_when_another_draws_it() -> None:
    """``claims="relative"`` (not the default): the Sherlocks' value of a claimer is ``P(defusing) + 0.3
    P(Sherlock)`` as :func:`claim_reading` reads the claim; from 20 cards with 4 defusing cards a claim of 0, 1,
    2, 3 of 5 is worth 0.217, 0.380, 0.499, 0.388. I am seat 3, player 1 holds the cutter (not a target)."""
    values = {k: claim_reading(20, 4, 5, k, 0.1, 0.5) for k in range(4)}
    assert SHERLOCK_WEIGHTS.cutter == 0.3
    worth = {k: round(e / 5 + 0.3 * (1 - q), 3) for k, (e, q) in values.items()}
    assert worth == {0: 0.217, 1: 0.38, 2: 0.499, 3: 0.388}
    weights = replace(MORIARTY_WEIGHTS, claims="relative", claim_table=())
    bombs = ("pink", "red", "blue", "green", "green")

    def claim(hand: tuple[str, ...], before: list[Claim]) -> int:
        kn = knowledge(4, hand, me=3)
        for entry in before:
            kn.add(entry)
        return choose_claim(kn, weights=weights)[0]

    assert claim(bombs, [Claim(1, 0)]) == 1  # only the cutter has claimed: the ranked claim
    assert claim(bombs, [Claim(2, 2)]) == 2  # 1 (0.380) would lose to player 2's 2 (0.499): claim 2
    assert claim(bombs, [Claim(2, 3)]) == 2  # 1 (0.380) would lose to a claim of 3 (0.388) too
    assert claim(bombs, [Claim(2, 0)]) == 1  # 1 beats a claim of none (0.217): 1 is enough
    assert claim(HAND, [Claim(2, 2)]) == 1  # the truth (0.380) leaves player 2 the target: no lie needed
    assert claim(HAND, [Claim(2, 0)]) == 0  # the truth would draw the cut: the ranked claim, none


def test_a_claim_table_row_fixes_the_claim_in_its_situation_only() -> None:
    weights = replace(MORIARTY_WEIGHTS, claim_table=((1, 1, 1),))
    # round 1 holding one: the row's claim (the truth here, so no word of drawing cuts)
    assert choose_claim(knowledge(4, HAND), weights=weights) == (1, "you hold 1: claim 1 (the claim table's row for "
                                                                    "round 1)")
    ranked = replace(MORIARTY_WEIGHTS, claim_table=())
    assert choose_claim(knowledge(4, HAND), weights=ranked)[0] == 0  # no table: the ranked claim
    bombs = knowledge(4, ("pink", "red", "blue", "green", "green"))
    assert choose_claim(bombs, weights=weights)[0] == choose_claim(bombs)[0] == 1  # no row: ranked
    # a row above my cards: "most of your cards are bombs" only while fewer than half are defusing cards
    two = knowledge(4, ("defuse", "defuse", "red", "blue", "green"))
    assert "; most of your cards are bombs, and each cut" in choose_claim(two, weights=replace(
        MORIARTY_WEIGHTS, claim_table=((1, 2, 3),)))[1]
    three = knowledge(4, ("defuse", "defuse", "defuse", "red", "blue"))
    assert choose_claim(three, weights=replace(MORIARTY_WEIGHTS, claim_table=((1, 3, 4),))) == (
        4, "you hold 3: claim 4 (the claim table's row for round 1: more than you hold, so the Sherlocks' cuts come "
           "to you; each cut hands you the cutter)")
    # the default table: holding one defusing card in round 1 or 2, claim two; the claim ranking puts it first
    assert MORIARTY_WEIGHTS.claim_table == ((1, 1, 2), (2, 1, 2), (1, 2, 1))
    kn = knowledge(4, HAND)
    assert choose_claim(kn)[0] == 2
    plain = claim_options(kn, weights=ranked)
    booked = claim_options(kn)
    assert [o.claimed for o in plain][:2] == [0, 1] and [o.claimed for o in booked][:3] == [2, 0, 1]
    two = next(o for o in plain if o.claimed == 2)
    assert booked[0] == replace(two, score=plain[0].score + 1.0, reason=(
        "the claim table's row for round 1: more than you hold, so the Sherlocks' cuts come to you; most of your "
        f"cards are bombs, and each cut hands you the cutter; read as {percent(two.lure)} defusing per card, "
        f"{percent(two.suspicion)} Moriarty"))
    assert (percent(two.lure), percent(two.suspicion)) == ("34%", "47%")
    assert booked[1:] == [o for o in plain if o.claimed != 2]
    assert advise(kn, claim_pending=True).best == "claim 1 2"
    for seat, card in ((2, "green"), (3, "pink"), (4, "green"), (1, "pink")):  # the round's four cuts
        kn.add(Cut(seat, card))
    kn.add(Redeal(("defuse", "red", "blue", "green")))
    assert (kn.table.round, choose_claim(kn)[0]) == (2, 2)
    half = knowledge(4, HAND)  # round 2 holding two of four: half, not most, of my cards are bombs
    for seat, card in ((2, "green"), (3, "pink"), (4, "green"), (1, "pink")):
        half.add(Cut(seat, card))
    half.add(Redeal(("defuse", "defuse", "red", "blue")))
    assert choose_claim(half, weights=replace(MORIARTY_WEIGHTS, claim_table=((2, 2, 3),))) == (
        3, "you hold 2: claim 3 (the claim table's row for round 2: more than you hold, so the Sherlocks' cuts come "
           "to you; each cut hands you the cutter)")
