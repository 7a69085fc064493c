"""A dealt table (the true hidden world) and the truthful answers it gives."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, SUBCATEGORIES, SUITS
from models.thirteen_clues.deal import Deal, matcher, random_deal
from models.thirteen_clues.observations import Me, Players, Private, Screen, Witness

SUBJECTS = [*SUITS, *CATEGORIES, *(s for pair in SUBCATEGORIES.values() for s in pair)]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_every_card_in_play_is_dealt_once(players: int, seed: int) -> None:
    deal = random_deal(players, random.Random(seed))
    placed = [c for s in deal.seats for c in (*deal.screens[s], *deal.private[s])] + list(deal.informants.values())
    assert Counter(placed) == Counter(c.name for c in DEFAULT_DATA.cards_in_play(players))
    assert tuple(deal.informants) == DEFAULT_DATA.informant_letters(players)
    for s in deal.seats:
        assert [CARD_BY_NAME[c].category for c in deal.screens[s]] == list(CATEGORIES)
        assert len(deal.private[s]) == 2


def test_seeded_deals_repeat() -> None:
    assert random_deal(4, random.Random(7)) == random_deal(4, random.Random(7))
    assert random_deal(4, random.Random(7)) != random_deal(4, random.Random(8))


def test_mystery_comes_from_the_right_neighbours_hand() -> None:
    """Each hand is one Person, Location and Weapon plus two cards; seat s's hand is s's private cards plus the
    mystery handed to seat s - 1, so those five cards hold at least one card of each category."""
    for seed in range(50):
        deal = random_deal(5, random.Random(seed))
        for s in deal.seats:
            left = 5 if s == 1 else s - 1
            hand = [*deal.private[s], *deal.screens[left]]
            assert {CARD_BY_NAME[c].category for c in hand} == set(CATEGORIES)


def test_visible_to_and_setup_lines() -> None:
    deal = random_deal(4, random.Random(3))
    seen = deal.visible_to(2)
    assert len(seen) == 2 + 3 * 3
    assert not set(seen) & set(deal.screens[2])
    assert set(deal.private[2]) <= set(seen)
    lines = deal.setup_lines(2)
    assert lines[:3] == [Players(4), Me(2), Private(deal.private[2])]
    assert lines[3:] == [Screen(s, deal.screens[s]) for s in (1, 3, 4)]


def fixed_two_player() -> Deal:
    return Deal(
        players=2,
        screens={1: ("Butcher", "Park", "Sword"), 2: ("Nurse", "Harbor", "Knife")},
        private={1: ("Duke", "Library"), 2: ("Countess", "Poison")},
        informants=dict(zip("ABCDEFGH", ["Officer", "Maid", "Parlor", "Market", "Museum", "Crossbow", "Blowgun",
                                         "Rifle"], strict=True)),
    )


def test_answers_count_what_the_witness_sees() -> None:
    deal = fixed_two_player()
    # Seat 2, asked by seat 1 about its left card, counts seat 1's screen and Countess.
    assert deal.answer(2, "Green", 1, "left") == Witness(2, "Green", 3, "left")  # Park, Sword, Countess
    assert deal.answer(2, "Green", 1, "right") == Witness(2, "Green", 2, "right")
    assert deal.answer(2, "Red", 1, "right") == Witness(2, "Red", 2, "right")  # Butcher, Poison
    assert deal.answer(1, "Person", 2, "left") == Witness(1, "Person", 2, "left")  # Nurse, Duke
    assert deal.answer(1, "Female", 2, "right") == Witness(1, "Female", 1, "right")  # Nurse


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32), st.sampled_from(SUBJECTS), st.data())
def test_answers_do_not_depend_on_the_asker(players: int, seed: int, subject: str, data: st.DataObject) -> None:
    deal = random_deal(players, random.Random(seed))
    seat = data.draw(st.integers(1, players))
    answers = {deal.answer(seat, subject, asker) for asker in deal.seats if asker != seat}
    match = matcher(subject)
    assert answers == {Witness(seat, subject, sum(1 for c in deal.visible_to(seat) if match(c)))}


@pytest.mark.parametrize(("subject", "count"), [("Red", 3), ("Person", 10), ("Female", 5), ("Ranged", 5)])
def test_matcher(subject: str, count: int) -> None:
    assert sum(1 for c in CARD_BY_NAME if matcher(subject)(c)) == count
