"""The Thirteen Clues rules engine, rule by rule (rulebook ``rules/thirteen-clues.txt``, RULES-NOTES)."""

from __future__ import annotations

import random

import pytest

from models.thirteen_clues.data import CARD_BY_NAME, SUITS_REMOVED
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.knowledge import TableSetup, ThirteenCluesKnowledge
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
)
from models.thirteen_clues.rules import ACT, TAKE, TableRules, ThirteenCluesState, new_game
from solver.errors import AssistantError, IllegalActionError


def make_state(players: int, seed: int = 1, first: int = 1, **rules: object) -> ThirteenCluesState:
    return ThirteenCluesState(TableRules(players, **rules), random_deal(players, random.Random(seed)), first)  # type: ignore[arg-type]


def drain(state: ThirteenCluesState) -> dict[int, list[object]]:
    return {s: state.take_observations(s) for s in state.seats}


def unseen_triple(state: ThirteenCluesState, seat: int, wrong: bool) -> Accuse:
    """A legal accusation for ``seat`` that is right (``wrong=False``) or wrong."""
    if not wrong:
        return Accuse(*state.deal.screens[seat])
    for action in state.legal_actions():
        if isinstance(action, Accuse) and set(action.cards) != set(state.deal.screens[seat]):
            return action
    raise AssertionError("no wrong accusation available")


# -- setup ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_by_player_count(players: int) -> None:
    state = make_state(players, seed=players)
    deal = state.deal
    removed = set(SUITS_REMOVED[players])
    dealt = [c for s in state.seats for c in (*deal.screens[s], *deal.private[s])] + list(deal.informants.values())
    assert len(dealt) == len(set(dealt)) == 30 - 3 * len(removed)
    assert not {CARD_BY_NAME[c].suit for c in dealt} & removed
    assert list(deal.informants) == [chr(ord("A") + i) for i in range(len(dealt) - 5 * players)]
    assert len(deal.informants) == {6: 0, 5: 2, 4: 4, 3: 6, 2: 8}[players]
    for seat in state.seats:
        assert sorted(CARD_BY_NAME[c].category for c in deal.screens[seat]) == ["Location", "Person", "Weapon"]
        assert len(set(dealt) - set(deal.visible_to(seat))) == 13  # the rulebook's "13 spaces"


def test_each_player_starts_with_exactly_their_setup_lines() -> None:
    state = make_state(4, seed=7)
    for seat, lines in drain(state).items():
        assert lines[0] == Players(4)
        assert lines[1] == Me(seat)
        assert lines[2] == Private(state.deal.private[seat])
        screens = [entry for entry in lines if isinstance(entry, Screen)]
        assert {s.seat for s in screens} == set(state.seats) - {seat}
        assert len(lines) == 3 + 3
        for entry in screens:
            assert set(entry.cards) == set(state.deal.screens[entry.seat])
        setup = TableSetup()
        for entry in lines:
            setup.apply(entry)  # type: ignore[arg-type]
        assert setup.complete()


def test_subcategory_house_rule_is_announced_first_and_widens_the_questions() -> None:
    plain = make_state(4)
    assert "Male" not in plain.rules.subjects()
    with pytest.raises(IllegalActionError, match="house rule"):
        plain.apply(Ask(2, "Male"))
    house = make_state(4, subcategories=True)
    assert house.take_observations(2)[0] == Subcategories(True)
    house.apply(Ask(2, "Male"))
    assert house.take_observations(3)[-1] == house.deal.answer(2, "Male", 1)


def test_first_player_is_drawn_from_the_seed() -> None:
    firsts = {new_game(TableRules(5), random.Random(seed)).first_player for seed in range(40)}
    assert firsts == {1, 2, 3, 4, 5}
    again = new_game(TableRules(5), random.Random(3))
    assert again.first_player == new_game(TableRules(5), random.Random(3)).first_player
    assert new_game(TableRules(5), random.Random(3), first_player=4).current_player() == 4


# -- magnifying glasses ----------------------------------------------------------------------------------------


def test_supply_holds_one_glass_per_player_and_the_first_player_takes_one() -> None:
    state = make_state(4, first=2)
    assert state.current_player() == 2
    assert state.supply == 3
    assert state.glasses == {1: 0, 2: 1, 3: 0, 4: 0}
    assert make_state(4, glasses=9).supply == 8


def test_a_question_gives_the_glass_to_the_asked_player_and_everyone_hears_the_answer() -> None:
    state = make_state(4, seed=3)
    drain(state)
    state.apply(Ask(3, "Red"))
    assert state.glasses == {1: 0, 2: 1, 3: 1, 4: 0}  # player 2 took one from the supply at the start of turn
    assert state.current_player() == 2
    answer = state.deal.answer(3, "Red", 1)
    seen = [c for c in state.deal.visible_to(3) if CARD_BY_NAME[c].suit == "Red"]
    assert answer == Witness(3, "Red", len(seen))
    assert drain(state) == {s: [answer] for s in state.seats}


def test_a_player_with_glasses_spends_them_all_before_the_turn_passes() -> None:
    state = make_state(4, seed=3)
    state.glasses = {1: 3, 2: 0, 3: 0, 4: 0}
    state.supply = 1
    state.apply(Ask(2, "Person"))
    state.apply(Ask(3, "Weapon"))
    assert state.current_player() == 1
    state.apply(Ask(2, "Location"))
    assert state.glasses[2] == 2
    assert state.current_player() == 2
    assert state.glasses[2] == 2 and state.supply == 1  # player 2 holds glasses: takes none from the supply
    assert state.player_stats(1)["questions"] == 3


def test_empty_supply_the_player_takes_a_glass_from_a_player_of_their_choice() -> None:
    state = make_state(4, seed=5, glasses=2)
    state.apply(Ask(3, "Red"))  # 1 -> 3; player 2 takes the last glass from the supply
    assert state.supply == 0 and state.glasses == {1: 0, 2: 1, 3: 1, 4: 0}
    state.apply(Ask(4, "Blue"))  # 2 -> 4; player 3 holds one already
    assert state.current_player() == 3 and state.phase == ACT
    state.apply(Ask(1, "Green"))  # 3 -> 1; player 4 holds one
    state.apply(Ask(1, "Yellow"))  # 4 -> 1; player 1 holds two
    state.apply(Ask(2, "Red"))
    state.apply(Ask(2, "Red"))  # player 2 now holds both glasses; player 3 has none and the supply is empty
    assert state.glasses == {1: 0, 2: 2, 3: 0, 4: 0}
    state.apply(Ask(3, "Person"))
    state.apply(Ask(4, "Person"))
    assert state.current_player() == 3 and state.phase == ACT  # player 2's question gave player 3 a glass
    state.apply(Ask(1, "Weapon"))
    assert state.current_player() == 4 and state.phase == ACT
    state.apply(Ask(1, "Weapon"))
    assert state.current_player() == 1 and state.glasses[1] == 2
    state.apply(Ask(4, "Location"))
    state.apply(Ask(4, "Location"))
    assert state.current_player() == 2
    assert state.phase == TAKE and state.glasses == {1: 0, 2: 0, 3: 0, 4: 2} and state.supply == 0
    assert state.legal_actions() == [TakeGlass(4)]
    with pytest.raises(IllegalActionError, match="take one from another player first"):
        state.apply(Ask(3, "Red"))
    with pytest.raises(IllegalActionError, match="player 3 has no magnifying glass"):
        state.apply(TakeGlass(3))
    with pytest.raises(IllegalActionError, match="from yourself"):
        state.apply(TakeGlass(2))
    state.apply(TakeGlass(4))
    assert state.glasses == {1: 0, 2: 1, 3: 0, 4: 1} and state.phase == ACT
    assert state.player_stats(2)["glasses_taken"] == 1
    with pytest.raises(IllegalActionError, match="only at the start of a turn"):
        state.apply(TakeGlass(4))


def test_consulting_gives_the_glass_to_the_nearest_player_clockwise_with_none() -> None:
    state = make_state(5, seed=2, first=2)
    state.glasses = {1: 0, 2: 3, 3: 1, 4: 0, 5: 0}
    state.supply = 1
    state.apply(Consult("A"))
    assert state.glasses == {1: 0, 2: 2, 3: 1, 4: 1, 5: 0}  # 4 and 5 and 1 had none: 4 is nearest after 2
    state.apply(Consult("B"))
    assert state.glasses == {1: 0, 2: 1, 3: 1, 4: 1, 5: 1}
    state.apply(Consult("A"))
    assert state.glasses == {1: 1, 2: 0, 3: 1, 4: 1, 5: 1}  # wraps past seat 5 to seat 1
    assert state.current_player() == 3


def test_consulting_when_everyone_else_holds_a_glass_discards_it_to_the_supply() -> None:
    state = make_state(4, seed=2)
    state.glasses = {1: 1, 2: 1, 3: 2, 4: 1}
    state.supply = 0
    state.apply(Consult("C"))
    assert state.glasses == {1: 0, 2: 1, 3: 2, 4: 1}
    assert state.supply == 1


def test_the_spender_never_receives_their_own_glass() -> None:
    state = make_state(3, seed=2)
    state.glasses = {1: 1, 2: 1, 3: 1}
    state.supply = 0
    state.apply(Consult("A"))  # player 1 is left with none, but the glass goes to the supply
    assert state.glasses == {1: 0, 2: 1, 3: 1} and state.supply == 1


# -- the Secret Informant --------------------------------------------------------------------------------------


def test_the_informant_shows_the_card_to_the_consulter_and_only_the_letter_to_the_others() -> None:
    state = make_state(4, seed=11, first=3)
    drain(state)
    state.apply(Consult("B"))
    obs = drain(state)
    assert obs[3] == [InformantLook("B", state.deal.informants["B"])]
    for seat in (1, 2, 4):
        assert obs[seat] == [InformantBy("B", 3)]
    assert state.player_stats(3)["consults"] == 1


def test_no_informant_in_a_six_player_game() -> None:
    state = make_state(6)
    assert not any(isinstance(a, Consult) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="six-player"):
        state.apply(Consult("A"))
    four = make_state(4)
    assert [a for a in four.legal_actions() if isinstance(a, Consult)] == [Consult(x) for x in "ABCD"]
    with pytest.raises(IllegalActionError, match="A to D"):
        four.apply(Consult("E"))


# -- accusations --------------------------------------------------------------------------------------------------


def test_an_accusation_may_not_name_a_visible_card() -> None:
    state = make_state(4, seed=4)
    private = state.deal.private[1]
    screen2 = state.deal.screens[2]
    person, location, weapon = state.deal.screens[1]
    with pytest.raises(IllegalActionError, match="on player 2's screen"):
        state.apply(Accuse(screen2[0], location, weapon))
    visible_private = private[0]
    cat = CARD_BY_NAME[visible_private].category
    triple = {"Person": person, "Location": location, "Weapon": weapon} | {cat: visible_private}
    with pytest.raises(IllegalActionError, match="behind your screen"):
        state.apply(Accuse(triple["Person"], triple["Location"], triple["Weapon"]))
    with pytest.raises(IllegalActionError, match="Person, a Location and a Weapon"):
        state.apply(Accuse(location, person, weapon))
    with pytest.raises(IllegalActionError, match="not in play"):
        state.apply(Accuse("Coachman", location, weapon))  # the Gray suit is removed with 4 players
    visible = set(state.deal.visible_to(1))
    accusations = [a for a in state.legal_actions() if isinstance(a, Accuse)]
    assert accusations and all(not set(a.cards) & visible for a in accusations)
    assert Accuse(person, location, weapon) in accusations
    assert state.current_player() == 1 and state.glasses[1] == 1  # illegal actions change nothing


def test_a_wrong_accusation_is_public_ends_the_turn_and_discards_the_remaining_glasses() -> None:
    state = make_state(4, seed=8)
    state.glasses = {1: 3, 2: 1, 3: 0, 4: 1}
    state.supply = 0
    drain(state)
    wrong = unseen_triple(state, 1, wrong=True)
    state.apply(wrong)
    assert drain(state) == {s: [Accusation(1, *wrong.cards, False)] for s in state.seats}
    # one glass went to player 3 (the only one with none), the other two to the supply; player 2 moves
    assert state.glasses == {1: 0, 2: 1, 3: 1, 4: 1}
    assert state.supply == 2
    assert state.current_player() == 2 and not state.is_terminal()
    assert state.player_stats(1)["wrong_accusations"] == 1


def test_wrong_accusers_stay_in_the_game_and_may_accuse_again() -> None:
    state = make_state(3, seed=9)
    for _ in range(6):  # two full rounds of wrong accusations: everybody has accused wrongly, twice
        seat = state.current_player()
        assert seat is not None
        state.apply(unseen_triple(state, seat, wrong=True))
    assert not state.is_terminal()
    assert all(state.player_stats(s)["wrong_accusations"] == 2 for s in state.seats)
    seat = state.current_player()
    assert seat is not None
    state.apply(unseen_triple(state, seat, wrong=False))
    assert state.is_terminal() and state.winner() == seat


def test_a_right_accusation_wins_the_game() -> None:
    state = make_state(5, seed=10, first=4)
    drain(state)
    state.apply(Accuse(*state.deal.screens[4]))
    assert state.is_terminal()
    assert state.winner() == 4
    assert state.returns() == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert state.legal_actions() == []
    assert drain(state)[2] == [Accusation(4, *state.deal.screens[4], True)]
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(Ask(1, "Red"))


# -- questions ----------------------------------------------------------------------------------------------------


def test_illegal_questions_name_the_problem() -> None:
    state = make_state(4)
    with pytest.raises(IllegalActionError, match="cannot question yourself"):
        state.apply(Ask(1, "Red"))
    with pytest.raises(IllegalActionError, match="seat 7 does not exist"):
        state.apply(Ask(7, "Red"))
    with pytest.raises(IllegalActionError, match="'Gray' is not a suit in play"):
        state.apply(Ask(2, "Gray"))
    with pytest.raises(IllegalActionError, match="only for two-player"):
        state.apply(Ask(2, "Red", "left"))
    asks = [a for a in state.legal_actions() if isinstance(a, Ask)]
    assert len(asks) == 3 * (8 + 3)  # three other players, eight suits in play and three categories


# -- two players ----------------------------------------------------------------------------------------------------


def test_two_players_play_one_action_a_turn_without_glasses_and_name_a_side() -> None:
    state = make_state(2, seed=12)
    assert state.supply == 0 and state.glasses == {1: 0, 2: 0}
    with pytest.raises(IllegalActionError, match="name 'left' or 'right'"):
        state.apply(Ask(2, "Red"))
    drain(state)
    state.apply(Ask(2, "Person", "right"))
    right = state.deal.private[2][1]
    expected = sum(1 for c in [*state.deal.screens[1], right] if CARD_BY_NAME[c].category == "Person")
    assert drain(state) == {1: [Witness(2, "Person", expected, "right")], 2: [Witness(2, "Person", expected, "right")]}
    assert state.current_player() == 2 and state.glasses == {1: 0, 2: 0}
    state.apply(Consult("H"))
    assert state.current_player() == 1
    assert {type(a) for a in state.legal_actions()} == {Ask, Consult, Accuse}
    assert all(a.side in ("left", "right") for a in state.legal_actions() if isinstance(a, Ask))


def test_two_player_answers_match_the_knowledge_model_sides() -> None:
    state = make_state(2, seed=13)
    setup = TableSetup()
    for entry in state.take_observations(1):
        setup.apply(entry)  # type: ignore[arg-type]
    knowledge = ThirteenCluesKnowledge(setup)
    for subject in ("Red", "Location", "Blue", "Weapon"):
        for side in ("left", "right"):
            seat = state.current_player()
            assert seat is not None
            state.apply(Ask(3 - seat, subject, side))
            for obs in state.take_observations(1):
                knowledge.add(obs)  # type: ignore[arg-type]
            assert state.soundness_failure(1, knowledge) is None


# -- turn limit, clone, soundness ------------------------------------------------------------------------------------


def test_nobody_solving_ends_in_a_draw_at_the_turn_limit() -> None:
    state = make_state(3, max_rounds=2)
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        state.apply(Ask(seat % 3 + 1, "Person"))
    assert state.turn == 6
    assert state.winner() is None and state.drawn
    assert state.returns() == [0.0, 0.0, 0.0]
    assert all(state.player_stats(s)["turns"] == 2 for s in state.seats)


def test_clone_is_independent() -> None:
    state = make_state(4, seed=14)
    twin = state.clone()
    twin.apply(Ask(2, "Red"))
    assert state.glasses == {1: 1, 2: 0, 3: 0, 4: 0} and state.current_player() == 1
    assert twin.current_player() == 2
    assert len(state.take_observations(1)) == 6 and len(twin.take_observations(1)) == 7


def test_table_rules_reject_bad_options() -> None:
    with pytest.raises(AssistantError, match="players 7"):
        TableRules(7)
    with pytest.raises(AssistantError, match="glasses 0"):
        TableRules(4, glasses=0)
    with pytest.raises(AssistantError, match="first player 5"):
        make_state(4, first=5)


def test_soundness_check_catches_a_knowledge_state_that_rules_out_the_truth() -> None:
    state = make_state(4, seed=15)
    setup = TableSetup()
    for entry in state.take_observations(1):
        setup.apply(entry)  # type: ignore[arg-type]
    knowledge = ThirteenCluesKnowledge(setup)
    assert state.soundness_failure(1, knowledge, deep=True) is None
    true_card = state.deal.informants["A"]
    other = next(c for c in knowledge.unseen if c != true_card)
    knowledge.add(InformantLook("A", other))  # consistent with the setup, but false
    failure = state.soundness_failure(1, knowledge)
    assert failure is not None and f"informant A {other}" in failure
