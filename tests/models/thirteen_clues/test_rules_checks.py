"""Exact legal sets and exact refusals of the Thirteen Clues table's checks (what mutation testing asked for)."""

from __future__ import annotations

import random

import pytest

from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.observations import Accuse, Ask, TakeGlass
from models.thirteen_clues.rules import TAKE, TableRules, ThirteenCluesState
from solver.errors import IllegalActionError

SUITS_4 = ("Purple", "Pink", "Red", "Green", "Yellow", "Blue", "Orange", "White")
SUITS_2 = ("Purple", "Pink", "Red", "Green", "Yellow", "Blue")
CATEGORIES = ("Person", "Location", "Weapon")


def make_state(players: int, seed: int = 1, first: int = 1, **rules: object) -> ThirteenCluesState:
    return ThirteenCluesState(TableRules(players, **rules), random_deal(players, random.Random(seed)), first)  # type: ignore[arg-type]


def refusal(state: ThirteenCluesState, action: object) -> str:
    """The exact message ``check`` refuses ``action`` with; the state must be left as it was."""
    before = (state.current, state.phase, dict(state.glasses), state.supply)
    with pytest.raises(IllegalActionError) as caught:
        state.check(action)  # type: ignore[arg-type]
    assert (state.current, state.phase, dict(state.glasses), state.supply) == before
    return str(caught.value)


def in_take_phase() -> ThirteenCluesState:
    """Four players, two glasses: player 3 to move with none, an empty supply, players 1 and 4 holding one each."""
    state = make_state(4, seed=5, glasses=2)
    for action in (Ask(3, "Red"), Ask(4, "Blue"), Ask(1, "Green"), Ask(1, "Yellow"), Ask(2, "Red"), Ask(2, "Red"),
                   Ask(3, "Person"), Ask(4, "Person"), Ask(1, "Weapon"), Ask(1, "Weapon"), Ask(4, "Location"),
                   Ask(4, "Location"), TakeGlass(4), Ask(1, "Red")):
        state.apply(action)
    assert (state.current, state.phase, state.glasses, state.supply) == (3, TAKE, {1: 1, 2: 0, 3: 0, 4: 1}, 0)
    return state


def test_every_question_to_every_other_player_is_legal_and_nothing_else() -> None:
    state = make_state(4)
    asks = [a for a in state.legal_actions() if isinstance(a, Ask)]
    assert asks == [Ask(s, subject) for s in (2, 3, 4) for subject in (*SUITS_4, *CATEGORIES)]


def test_two_player_questions_name_both_sides() -> None:
    state = make_state(2)
    asks = [a for a in state.legal_actions() if isinstance(a, Ask)]
    assert asks == [Ask(2, subject, side) for subject in (*SUITS_2, *CATEGORIES) for side in ("left", "right")]


def test_a_glass_may_be_taken_from_every_player_holding_one() -> None:
    assert in_take_phase().legal_actions() == [TakeGlass(1), TakeGlass(4)]


def test_a_seat_that_does_not_exist_is_named_with_the_action() -> None:
    state = make_state(4)
    assert refusal(state, Ask(7, "Red")) == "'ask 7 Red': seat 7 does not exist (expected 1 to 4)"
    assert refusal(state, Ask(0, "Person")) == "'ask 0 Person': seat 0 does not exist (expected 1 to 4)"
    taking = in_take_phase()
    assert refusal(taking, TakeGlass(9)) == "'take 9': seat 9 does not exist (expected 1 to 4)"
    assert refusal(taking, TakeGlass(0)) == "'take 0': seat 0 does not exist (expected 1 to 4)"


def test_something_that_is_not_an_action_is_refused_by_name() -> None:
    assert refusal(make_state(4), "shout") == "'shout' is not a Thirteen Clues action"


def test_an_accusation_out_of_order_is_refused() -> None:
    state = make_state(4)
    person, location, weapon = (next(a for a in state.legal_actions() if isinstance(a, Accuse))).cards
    assert refusal(state, Accuse(location, person, weapon)) == (
        f"'accuse {location} {person} {weapon}': expected a Person, a Location and a Weapon, in that order")
