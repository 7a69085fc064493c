"""Advisor tests: exact explosion probabilities on hand-built beliefs (red chains, covers, pink), advice
ranking from claims, covers and claims for both sides."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from models.time_bomb.advisor import (
    AVOID,
    MORIARTY_WEIGHTS,
    SEEK,
    Board,
    Weights,
    advise,
    choose_claim,
    choose_cover,
    choose_uncover,
    cut_options,
    explosion,
)
from models.time_bomb.belief import Belief
from models.time_bomb.data import DEFAULT_DATA, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import Claim, Cover, Cut, Hand, Me, Players, Role, Start

SETUP4 = DEFAULT_DATA.setup(4)  # pink, red, blue, green


def belief(known: dict[int, dict[str, int]], p_defuse: float = 0.0, shares: dict[str, float] | None = None,
           seat: int | None = None, slots: int = 2) -> Belief:
    """A belief with my known hands and at most one unknown seat whose next card has the given law."""
    colours = SETUP4.colours
    shares = shares or {c: 1 / len(colours) for c in colours}
    if seat is None:
        seats, vectors, joint, slot_arr = (), np.zeros((1, 0), dtype=np.int64), np.ones((1, 1)), np.zeros(0)
    else:
        # d = 0 or 1 defusing cards among ``slots`` cards: P(next is defusing) = E[d] / slots
        q = p_defuse * slots
        seats, vectors = (seat,), np.array([[0], [1]], dtype=np.int64)
        joint, slot_arr = np.array([[1 - q, q]]), np.array([slots], dtype=np.int64)
    unseen = np.array([[shares[c] * 1000 for c in colours]])
    return Belief(SETUP4, 1, SHERLOCK, seats, slot_arr, vectors, joint, [{}], np.ones(1), unseen, known, True)


def board(counts: dict[str, int] | None = None, covered: frozenset[str] = frozenset(), last: str | None = None,
          sizes: tuple[int, ...] = (5, 5, 5, 5)) -> Board:
    full = dict.fromkeys(SETUP4.colours, 0)
    full.update(counts or {})
    return Board(4, SETUP4.colours, SETUP4.thresholds, full, covered, last, sizes, 4)


def test_a_fourth_card_of_a_colour_explodes() -> None:
    b = belief({}, p_defuse=0.2, shares={"pink": 0.1, "red": 0.0, "blue": 0.6, "green": 0.3}, seat=2)
    p_blue = b.p_types(2)["blue"]
    assert p_blue == pytest.approx(0.8 * 0.6)
    assert explosion(b, board({"blue": 3}), 1, 2) == pytest.approx(p_blue)
    # a covered colour does not explode; but a blue card must remove a cover, here its own
    assert explosion(b, board({"green": 2}, covered=frozenset({"green"})), 1, 2) == 0.0
    assert explosion(b, board({"blue": 3}, covered=frozenset({"blue"})), 1, 2) == pytest.approx(p_blue)
    assert explosion(b, board({"green": 2}), 1, 2) == pytest.approx(0.8 * 0.3)  # green at 3


def test_pink_after_pink() -> None:
    b = belief({}, shares={"pink": 0.25, "red": 0.0, "blue": 0.5, "green": 0.25}, seat=3)
    assert explosion(b, board(last="pink"), 1, 3) == pytest.approx(0.25)
    assert explosion(b, board(last="blue"), 1, 3) == 0.0
    assert explosion(b, board(last="pink", covered=frozenset({"pink"})), 1, 3) == 0.0


def test_blue_removes_a_cover_the_sherlock_way_or_the_moriarty_way() -> None:
    b = belief({}, shares={"pink": 0.0, "red": 0.0, "blue": 1.0, "green": 0.0}, seat=2)
    exposed_only = board({"green": 3, "blue": 1}, covered=frozenset({"green"}))
    assert explosion(b, exposed_only, 1, 2, AVOID) == pytest.approx(1.0)
    with_spare = board({"green": 3, "pink": 1, "blue": 1}, covered=frozenset({"green", "pink"}))
    assert explosion(b, with_spare, 1, 2, AVOID) == 0.0
    assert explosion(b, with_spare, 1, 2, SEEK) == pytest.approx(1.0)


def test_red_chain_with_a_known_hand_is_exact() -> None:
    # I (seat 2) hold 5 red; nobody else has a card. Player 1 cuts me: red 1, then the numbered card must be
    # 1 (seat 1 + 1 = me) three times in a row for reds 2, 3, 4: probability (1/4)^3.
    b = belief({2: {"red": 5}})
    assert explosion(b, board(sizes=(0, 5, 0, 0)), 1, 2) == pytest.approx(1 / 64)
    # with red already at 2, two more are needed: one extra cut from me
    assert explosion(b, board({"red": 2}, sizes=(0, 5, 0, 0)), 1, 2) == pytest.approx(1 / 4)
    # a tolerance stops following unlikely chains: the value can only drop, by less than the tolerance
    rough = explosion(b, board(sizes=(0, 5, 0, 0)), 1, 2, tolerance=0.1)
    assert 0.0 <= rough <= 1 / 64


def five(hand=("defuse", "pink", "red", "blue", "green"), role: str = SHERLOCK, me: int = 1) -> TimeBombKnowledge:
    setup = TableSetup()
    for entry in (Players(5), Me(me), Role(role), Start(1), Hand(tuple(hand))):
        setup.apply(entry)
    return TimeBombKnowledge(setup)


def test_sherlock_cuts_the_honest_looking_claim_of_defusing_cards() -> None:
    kn = five()
    for entry in (Claim(1, 1), Claim(2, 0), Claim(3, 3), Claim(4, 2), Claim(5, 0)):
        kn.add(entry)
    # valuing who takes the cutter next: 2 of 5 is plausible, 3 of 5 smells of a bluff (a Moriarty next)
    options = cut_options(kn)
    assert [o.seat for o in options][0] == 4
    assert options[0].p_defuse > options[0].p_defuse_hard
    assert all(a.score >= b.score for a, b in zip(options, options[1:], strict=False))
    assert advise(kn).best == "cut player 4"
    # by the defusing chance and the explosion risk only (none yet), 3 of 5 has more
    ranked = cut_options(kn, weights=Weights(cutter=0.0))
    assert [o.seat for o in ranked] == sorted((o.seat for o in ranked), key=lambda s: -kn.belief().p_defuse(s))
    assert ranked[0].seat == 3 and ranked[0].p_defuse > options[0].p_defuse
    # the role beliefs after the cut: a defusing card makes player 4 look more like a Sherlock
    assert options[0].roles_if_defuse[4] < kn.roles()[4] < options[0].roles_if_bomb[4]


def test_moriarty_prefers_bombs_but_minds_suspicion() -> None:
    kn = five(role=MORIARTY)
    for entry in (Claim(2, 0), Claim(3, 2), Claim(4, 2), Claim(5, 0)):
        kn.add(entry)
    careful = cut_options(kn, weights=Weights(suspicion=0.5, cutter=0.6))[0]
    assert careful.seat in (3, 4)  # cutting a player who claimed no defusing card would look suspicious
    bold = cut_options(kn, weights=Weights(suspicion=0.0, cutter=0.0))[0]
    assert bold.seat in (2, 5) and bold.p_defuse < careful.p_defuse


def test_covers_and_claims() -> None:
    kn = five()
    kn.add(Cut(2, "green"))
    kn.add(Cut(3, "green"))
    kn.add(Cut(4, "pink"))
    kn.add(Cut(5, "defuse"))
    assert kn.table.phase == "cover"
    assert choose_cover(kn, SHERLOCK)[0] == "green"  # 2 of 3 cut
    assert choose_cover(kn, MORIARTY)[0] == "pink"
    kn.add(Cover("green"))
    assert choose_claim(kn, SHERLOCK) == (1, "tell the truth: the other Sherlocks can then cut your defusing cards")
    assert choose_claim(kn, MORIARTY) == (2, "you hold 1: claim 2 (the claim table's row for round 1: more than "
                                             "you hold, so the Sherlocks' cuts come to you; most of your cards are "
                                             "bombs, and each cut hands you the cutter)")
    assert choose_claim(kn, MORIARTY, replace(MORIARTY_WEIGHTS, claim_table=()))[0] == 0  # the ranked claim


def test_uncover_choice() -> None:
    kn = five()
    t = kn.table
    t.counts.update({"green": 3, "pink": 1, "blue": 1})
    t.covered.update({"green": "defuse", "pink": "defuse"})
    t.phase, t.pending = "uncover", "blue"  # as if a blue bomb was just cut
    assert choose_uncover(kn, MORIARTY)[0] == "green"  # at its threshold: explodes at once
    assert choose_uncover(kn, SHERLOCK)[0] == "pink"
