"""A refused entry leaves the knowledge exactly as it was (:meth:`HandKnowledge.add`), whatever it changed before
it was refused: the board, my hand's slots, the card places and sightings, the setup; the message names the
entry and what it contradicts; and the next true entry gives the knowledge a fresh replay of the true entries
gives. Also the setup lines that may still come at turn 0 (the start player, Character cards)."""

from __future__ import annotations

import copy

import pytest
from bbs_helpers import table
from bbs_reference import game_states

from models.beyond_baker_street.knowledge import HandKnowledge
from models.beyond_baker_street.observations import Assist, CharacterCard, Eliminate, Entry, Start, parse
from solver.errors import AssistantError, ContradictionError, InvalidObservationError

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}
HANDS = {1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}  # I am player 2
INFEASIBLE = "no hand fits it together with your earlier Assists and what you see"


def snapshot(kn: HandKnowledge) -> tuple[object, ...]:
    """Everything the knowledge holds, copied (slots and the board change in place)."""
    return (copy.deepcopy(vars(kn.setup)), kn.board.copy() if kn.board else None,
            {s: [dict(slot.__dict__) for slot in h] for s, h in kn.hands.items()}, list(kn.spans),
            dict(kn._open), dict(kn._open_at), kn._sighted, kn.top, list(kn.buried), kn._bury_hint, kn._next_id,
            list(kn.entries))


def refused(kn: HandKnowledge, line: str | Entry, kind: type[AssistantError] = ContradictionError
            ) -> AssistantError:
    """Add ``line`` (a line or an entry); it must be refused with ``kind`` and leave ``kn`` as it was."""
    before = snapshot(kn)
    entry = parse(line) if isinstance(line, str) else line
    with pytest.raises(kind) as caught:
        kn.add(entry)
    assert snapshot(kn) == before, line
    return caught.value


def replayed(entries: list[object]) -> HandKnowledge:
    fresh = HandKnowledge()
    for e in entries:
        fresh.add(e)  # type: ignore[arg-type]
    return fresh


def _told_game() -> tuple[HandKnowledge, list[object]]:
    """Player 2's knowledge after: player 1 says my Tracks are at 1 2 3, I tell player 3 their Witnesses, player
    3 says my 6 is at 3 (so 6T is certainly my third card), player 1 eliminates 3W; and the draw that follows."""
    st = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    for action in (Assist(2, "Track"), Assist(3, "Witness"), Assist(2, 6), Eliminate(1)):
        st.apply(action)
    observed = st.take_observations(2)
    kn = replayed(observed[:-1])
    assert str(observed[-1]) == "draw 1 3D" and kn.hand()[2] == {parse("hand 1 6T").cards[0]: 1.0}
    return kn, observed


def test_a_draw_refused_after_the_board_and_the_sightings_took_it_puts_everything_back() -> None:
    """Another player's draw of the card my Assists put in my hand: the board, the card places and every slot's
    sightings have taken it when my hand's feasibility refuses it (a late check); all of it is put back."""
    kn, observed = _told_game()
    exc = refused(kn, "draw 1 6T")
    assert isinstance(exc, ContradictionError)
    assert (str(exc), exc.observation, exc.conflicts, exc.reason) == (
        f"'draw 1 6T' contradicts what you can see: {INFEASIBLE}", parse("draw 1 6T"), [], INFEASIBLE)
    kn.add(observed[-1])  # the true draw: as if the refused one had never been typed
    assert snapshot(kn) == snapshot(replayed(observed))


def test_an_assist_to_me_refused_after_the_board_took_it_puts_back_the_holmes_marker_and_my_slots() -> None:
    st = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    kn = replayed(st.take_observations(2))
    # player 1 (to move) tells me that all four of my cards are 1s: two 1s are unseen (1C, 1D), so no hand fits
    exc = refused(kn, "assist 1 2 1 at 1 2 3 4")
    assert isinstance(exc, ContradictionError) and (exc.reason, exc.conflicts) == (INFEASIBLE, [])
    assert kn.board is not None and kn.board.holmes == 15 and kn.board.current == 1
    kn.add(parse("assist 1 2 1 at 4"))  # the truth: my 1C
    assert kn.hand()[3] == {parse("hand 1 1C").cards[0]: 0.5, parse("hand 1 1D").cards[0]: 0.5}


def test_a_wrong_assist_about_a_hand_i_see_names_the_positions_and_the_hand_line() -> None:
    """An Assist about player 3's hand that the hand I see does not give: the true positions in the message,
    the 'hand' line that showed me the cards it gets wrong as the conflict."""
    st = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    kn = replayed(st.take_observations(2))
    hand3 = next(e for e in kn.entries if str(e).startswith("hand 3"))
    exc = refused(kn, "assist 1 3 Witness at 1 2")
    assert isinstance(exc, ContradictionError)
    assert (exc.reason, exc.conflicts) == ("player 3's Witnesses are at 1 2 3 4", [hand3])
    exc = refused(kn, "assist 1 3 3 at 2")
    assert isinstance(exc, ContradictionError) and (exc.reason, exc.conflicts) == ("player 3's 3s are at none",
                                                                                   [hand3])
    exc = refused(kn, "assist 1 3 5 at 2 3")  # right at 3, wrong at 2: the hand line still the source
    assert isinstance(exc, ContradictionError) and exc.reason == "player 3's 5s are at 3"


def test_my_played_card_where_it_cannot_be_names_the_assist_that_rules_it_out() -> None:
    st = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    st.apply(Assist(2, "Track"))
    kn = replayed(st.take_observations(2))
    told = kn.entries[-1]
    assert str(told) == "assist 1 2 Track at 1 2 3" and kn.board is not None and kn.board.current == 2
    exc = refused(kn, "eliminate 2 1 1C")
    assert isinstance(exc, ContradictionError)
    assert (exc.reason, exc.conflicts) == (f"1C cannot be at your position 1: {exc.conflicts[0]}", exc.conflicts)
    assert exc.reason == "1C cannot be at your position 1: position 1 is a Track ('assist 1 2 Track at 1 2 3')"
    assert [(c.position, c.assist, c.named) for c in exc.conflicts] == [(1, told, True)]  # type: ignore[attr-defined]
    exc = refused(kn, "eliminate 2 4 2T")  # 2T is a Track: not at position 4, which is not one
    assert isinstance(exc, ContradictionError) and exc.reason is not None
    assert exc.reason.startswith("2T cannot be at your position 4: ") and len(exc.conflicts) == 1
    kn.add(parse("eliminate 2 4 1C"))
    assert [str(e) for e in kn.entries[-2:]] == ["assist 1 2 Track at 1 2 3", "eliminate 2 4 1C"]


def _setup_lines() -> list[str]:
    return ["players 3", "me 2", "case 1", "start 3", "hand 1 3W 4W 1T 6C", "hand 3 1W 2W 5W 6W",
            "lead 7W", "lead 9T", "lead 11W"]


def test_a_refused_setup_line_puts_back_the_whole_setup() -> None:
    kn = HandKnowledge()
    for line in ["players 3", "me 2", "case 5", "start 3", "character 1 none", "hand 1 3W 4W 1T 6C"]:
        kn.add(parse(line))
    assert (kn.setup.case, kn.setup.start, kn.setup.start_given, kn.setup.no_characters) == (5, 3, True, True)
    exc = refused(kn, "hand 3 3W 2W 5W 6W", InvalidObservationError)  # 3W is in player 1's hand
    assert "3W" in str(exc) and "player 1's hand" in str(exc)
    refused(kn, "character 2 Toby", InvalidObservationError)
    kn.add(parse("hand 3 1W 2W 5W 6W"))
    assert kn.setup.hands[3] == parse("hand 3 1W 2W 5W 6W").cards


def test_the_start_player_may_still_change_at_turn_0_and_not_after() -> None:
    kn = HandKnowledge()
    for line in _setup_lines():
        kn.add(parse(line))
    assert kn.board is not None and (kn.board.first, kn.board.current, kn.board.turns) == (3, 3, 0)
    for seat in (1, 3, 2):  # both ends of the range, then a seat between
        kn.add(Start(seat))
        assert (kn.setup.start, kn.board.first, kn.board.current, kn.setup.start_given) == (seat, seat, seat, True)
    for seat in (0, 4):
        assert str(refused(kn, Start(seat), InvalidObservationError)) == f"start {seat}: expected a seat 1 to 3"
    kn.add(parse("assist 2 1 Witness at 1 2"))
    exc = refused(kn, "start 1", InvalidObservationError)
    assert str(exc) == "'start 1': the setup is complete and play has begun"


def test_the_start_line_before_the_leads_are_revealed_is_a_setup_line() -> None:
    kn = HandKnowledge()
    for line in _setup_lines()[:-1]:
        kn.add(parse(line))
    assert kn.board is None
    kn.add(Start(1))
    kn.add(parse("lead 11W"))
    assert kn.board is not None and (kn.board.first, kn.board.current) == (1, 1)


def test_character_cards_at_turn_0_set_the_start_player_and_a_refused_one_changes_nothing() -> None:
    kn = HandKnowledge()
    for line in [line for line in _setup_lines() if not line.startswith("start")]:
        kn.add(parse(line))
    assert kn.board is not None and kn.board.turns == 0 and kn.setup.start_given is False
    kn.add(CharacterCard(1, "Toby"))
    kn.add(CharacterCard(2, "Lestrade"))
    exc = refused(kn, "character 3 Toby", InvalidObservationError)
    assert str(exc) == "character 3 Toby: player 1 plays Toby already"
    kn.add(CharacterCard(3, "Gregson"))
    # Lestrade has the lowest Character number (1): I start
    assert (kn.setup.start, kn.board.first, kn.board.current) == (2, 2, 2)
    assert {s: c.name for s, c in kn.board.characters.items()} == {1: "Toby", 2: "Lestrade", 3: "Gregson"}
    kn.add(parse("assist 2 3 Witness at 1 2 3 4"))
    exc = refused(kn, "character 3 Lestrade", InvalidObservationError)
    assert str(exc) == "'character 3 Lestrade': the setup is complete and play has begun"


def test_a_wrong_assist_about_a_drawn_card_names_the_draw() -> None:
    """The entry that showed me a wrong card is the conflict: the 'hand' line for a dealt card, the draw for a
    drawn one (player 1 holds 4W 1T 6C and the 3D just drawn)."""
    kn, observed = _told_game()
    kn.add(observed[-1])
    hand1 = next(e for e in kn.entries if str(e).startswith("hand 1"))
    exc = refused(kn, "assist 2 1 3 at 1 4")  # wrong at 1 only (a dealt card)
    assert isinstance(exc, ContradictionError) and (exc.reason, exc.conflicts) == ("player 1's 3s are at 4", [hand1])
    exc = refused(kn, "assist 2 1 3 at 1")  # wrong at 1 and at 4 (the drawn 3D)
    assert isinstance(exc, ContradictionError)
    assert (exc.reason, exc.conflicts) == ("player 1's 3s are at 4", [hand1, observed[-1]])


def test_a_played_card_ruled_out_by_two_assists_names_both() -> None:
    """A seeded game where player 1's 2C is ruled out at position 4 only by two Assists together."""
    kn = None
    for _state, kn in game_states(3, 1, 46, max_turns=40):
        if len(kn.entries) == 30:
            break
    assert kn is not None and kn.me == 1 and kn.board is not None and kn.board.current == 1
    exc = refused(kn, "eliminate 1 4 2C")
    assert str(exc) == ("'eliminate 1 4 2C' contradicts what you can see: 2C cannot be at your position 4: "
                        "position 2 is a Clue ('assist 3 1 Clue at 1 3'); position 2 is a 2 ('assist 2 1 2 at 3')")
    assert exc.observation == parse("eliminate 1 4 2C") and len(exc.conflicts) == 2  # type: ignore[attr-defined]


def test_a_card_i_see_elsewhere_cannot_be_mine() -> None:
    kn, observed = _told_game()
    kn.add(observed[-1])
    exc = refused(kn, "eliminate 2 1 6W")
    assert str(exc) == ("'eliminate 2 1 6W' contradicts what you can see: 6W cannot be at your position 1: 6W is in "
                        "player 3's hand (position 4)")
