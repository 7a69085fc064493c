"""Thirteen Clues observations: every type prints as the line a user types and parses back equal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.thirteen_clues.data import ALL_CARDS, CARD_BY_NAME, CATEGORIES, SUBCATEGORIES, SUITS
from models.thirteen_clues.observations import (
    Accusation,
    Accuse,
    Ask,
    Consult,
    InformantBy,
    InformantLook,
    Me,
    Players,
    Private,
    Screen,
    Subcategories,
    TakeGlass,
    Witness,
    parse,
    parse_action,
)
from solver.errors import InvalidObservationError

NAMES = [c.name for c in ALL_CARDS]
BY_CATEGORY = {cat: [c.name for c in ALL_CARDS if c.category == cat] for cat in CATEGORIES}
SUBJECTS = [*SUITS, *CATEGORIES, *(s for pair in SUBCATEGORIES.values() for s in pair)]

seats = st.integers(1, 6)
letters = st.sampled_from("ABCDEFGH")
sides = st.sampled_from([None, "left", "right"])
triples = st.tuples(*(st.sampled_from(BY_CATEGORY[cat]) for cat in CATEGORIES))

observations = st.one_of(
    st.builds(Players, st.integers(2, 6)),
    st.builds(Me, seats),
    st.builds(Subcategories, st.booleans()),
    st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True).map(lambda c: Private((c[0], c[1]))),
    st.builds(lambda s, t, order: Screen(s, tuple(t[i] for i in order)), seats, triples, st.permutations([0, 1, 2])),
    st.builds(Witness, seats, st.sampled_from(SUBJECTS), st.integers(0, 12), sides),
    st.builds(InformantLook, letters, st.sampled_from(NAMES)),
    st.builds(InformantBy, letters, seats),
    st.builds(lambda s, t, ok: Accusation(s, *t, ok), seats, triples, st.booleans()),
)


@settings(max_examples=300, deadline=None)
@given(observations)
def test_round_trip(obs: object) -> None:
    assert parse(str(obs)) == obs
    assert parse(str(obs).lower()) == obs
    assert parse(f"  {obs}   # a comment") == obs


@pytest.mark.parametrize(
    ("line", "obs"),
    [
        ("players 4", Players(4)),
        ("ME 2", Me(2)),
        ("subcategories", Subcategories(True)),
        ("subcategories off", Subcategories(False)),
        ("private railcar Race Course", Private(("Rail Car", "Race Course"))),
        ("screen 3 Sword park butch", Screen(3, ("Butcher", "Park", "Sword"))),
        ("witness 2 red 0", Witness(2, "Red", 0)),
        ("sees 2 pers right 1", Witness(2, "Person", 1, "right")),
        ("ask 5 female 2", Witness(5, "Female", 2)),
        ("inf c Knife", InformantLook("C", "Knife")),
        ("informant b BY 4", InformantBy("B", 4)),
        ("accusation 3 poison nurse parlor no", Accusation(3, "Nurse", "Parlor", "Poison", False)),
        ("accuse 3 Nurse Parlor Poison yes", Accusation(3, "Nurse", "Parlor", "Poison", True)),
        ("accuse 3 Nurse Parlor Poison correct", Accusation(3, "Nurse", "Parlor", "Poison", True)),
    ],
)
def test_accepted_spellings(line: str, obs: object) -> None:
    assert parse(line) == obs


def test_screen_is_stored_person_location_weapon() -> None:
    screen = Screen(2, ("Knife", "Officer", "Parlor"))
    assert screen.cards == ("Officer", "Parlor", "Knife")
    assert str(screen) == "screen 2 Officer Parlor Knife"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "empty line"),
        ("   # only a comment", "empty line"),
        ("guess 2", "unknown entry 'guess'"),
        ("players", "missing argument: expected 'players N'"),
        ("players four", "players 'four': expected a whole number"),
        ("players 4 5", "unexpected '5': expected 'players N'"),
        ("me", "missing argument: expected 'me SEAT'"),
        ("subcategories maybe", "subcategories 'maybe': expected 'on' or 'off'"),
        ("private Knife", "private: expected 2 cards, got 1"),
        ("private Knife Kinfe", r"unknown card 'Kinfe' \(did you mean 'Knife'\?\)"),
        ("private Knife Rope Sword", "unknown card 'Rope'"),
        ("private Knife Sword Gun", "unexpected 'Gun'"),
        ("screen", "missing argument"),
        ("screen 2 Butcher Duke Park", "expected one Person, one Location and one Weapon"),
        ("screen x Butcher Park Sword", "seat 'x': expected a whole number"),
        ("ask 2 Red", "expected 'ask SEAT SUIT|CATEGORY"),
        ("ask 2 Red left", "missing the count"),
        ("ask 2 Red -1", "count -1: expected a whole number from 0 to 30"),
        ("ask 2 Redd 1", "unknown suit or category 'Redd'"),
        ("ask 2 P 1", "ambiguous"),
        ("ask 2 Red 1 2", "unexpected '2'"),
        ("informant A", "expected 'informant LETTER CARD"),
        ("informant AB Knife", "informant letter 'AB': expected one letter"),
        ("informant 1 Knife", "informant letter '1'"),
        ("informant A by", "expected 'informant LETTER CARD"),
        ("informant A by x", "seat 'x'"),
        ("informant A Knife Sword", "unexpected 'Sword'"),
        ("accuse 2 Butcher Park", "expected 'accuse SEAT PERSON LOCATION WEAPON wrong|right'"),
        ("accuse 2 Butcher Duke Park Sword", "expected one Person, one Location and one Weapon"),
        ("accuse 2 Butcher Park Sword maybe", "expected 'wrong' or 'right' after the three cards"),
        ("accuse 2 Butcher Park Sword wrong now", "unexpected 'now'"),
    ],
)
def test_rejected_lines_say_what_was_expected(line: str, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message):
        parse(line)


# -- actions ---------------------------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(seats, st.sampled_from(SUBJECTS), sides, st.integers(0, 12))
def test_ask_prints_the_question_its_answer_completes(seat: int, subject: str, side: str | None, n: int) -> None:
    """An ``Ask`` is printed as the start of the witness line: adding the answer gives the observation."""
    assert parse(f"{Ask(seat, subject, side)} {n}") == Witness(seat, subject, n, side)


@given(triples, seats, st.booleans())
def test_accuse_prints_the_accusation_without_seat_and_answer(triple: tuple[str, str, str], seat: int,
                                                              ok: bool) -> None:
    action = Accuse(*triple)
    assert action.cards == triple
    verb, cards = str(action).split(" ", 1)
    assert parse(f"{verb} {seat} {cards} {'right' if ok else 'wrong'}") == Accusation(seat, *triple, ok)


def test_action_text() -> None:
    assert str(Ask(3, "Red")) == "ask 3 Red"
    assert str(Ask(2, "Weapon", "left")) == "ask 2 Weapon left"
    assert str(Consult("B")) == "consult B"
    assert str(Accuse("Butcher", "Park", "Sword")) == "accuse Butcher Park Sword"
    assert str(TakeGlass(4)) == "take 4"
    assert all(c in CARD_BY_NAME for c in Accuse("Butcher", "Park", "Sword").cards)


@pytest.mark.parametrize(
    "action",
    [Ask(3, "Red"), Ask(2, "Weapon", "left"), Ask(4, "Female"), Consult("B"), Accuse("Butcher", "Park", "Sword"),
     Accuse("Florist", "Race Course", "Bow"), TakeGlass(4)],
)
def test_action_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("line", "message"),
    [("consult", "unknown action"), ("accuse Butcher Park", "expected 3 cards"), ("fly 3", "unknown action"),
     ("accuse Butcher Officer Sword", "one Person, one Location and one Weapon")],
)
def test_bad_actions_say_what_was_expected(line: str, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message):
        parse_action(line)
