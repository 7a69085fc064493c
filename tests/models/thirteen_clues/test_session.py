"""Session.handle on scripted lines: setup, observations, undo, what-ifs, why, errors, journal, completion.

Known values come from counting by hand on the table of ``helpers.SETUP`` (seat 1 sees Butcher and Rifle
behind the screen, Officer/Park/Blowgun, Sailor/Library/Knife, Dancer/Plaza/Gun on the other screens; 4
players leave 13 unseen cards: my mystery (3), players 2-4's private cards (2 each), informants A-D).
"""

from __future__ import annotations

import math

import pytest

from models.thirteen_clues.knowledge import MYSTERY
from models.thirteen_clues.session import JOURNAL_HEADER, ThirteenCluesSession
from solver.errors import AssistantError, ContradictionError, InvalidObservationError
from solver.knowledge import Count
from solver.session import Journal
from tests.models.thirteen_clues.helpers import SETUP, ready_session, text

# Mystery: 4 persons x 5 locations x 4 weapons; the other 10 cards fill 2+2+2 private cards and 4 informants.
START_WORLDS = 4 * 5 * 4 * math.factorial(10) // 2**3


def worlds(session: ThirteenCluesSession) -> int:
    assert session.knowledge is not None
    return int(session.knowledge.count().worlds)


def test_setup_dialogue_asks_each_setup_entry_in_turn() -> None:
    session = ThirteenCluesSession()
    answers = {"players": "4", "me": "1", "private": "Butcher Rifle", "screen 2": "Officer Park Blowgun",
               "screen 3": "Sailor Library Knife", "screen 4": "Dancer Plaza Gun"}
    asked = []
    while (question := session.setup_question()) is not None:
        asked.append(question.prefix)
        session.handle(question.line(answers[question.prefix]))
    assert asked == ["players", "me", "private", "screen 2", "screen 3", "screen 4"]
    assert session.lines == SETUP
    assert worlds(session) == START_WORLDS


def test_setup_answer_that_is_a_whole_command_passes_through() -> None:
    question = ThirteenCluesSession().setup_question()
    assert question is not None
    assert question.line("4") == "players 4"
    assert question.line("help") == "help"
    assert question.line("players 5") == "players 5"


def test_observation_rules_out_and_updates_exact_probabilities() -> None:
    session = ready_session()
    reply = session.handle("ask 2 Red 1")
    # Player 2 sees Library (Red) on screen 3, so neither Poison nor anything else Red is in my mystery or
    # behind their screen: Poison is ruled out, the other three weapons stay symmetric.
    assert session.knowledge is not None
    weapons = session.knowledge.mystery()["weapon"]
    assert weapons == pytest.approx({"Crossbow": 1 / 3, "Sword": 1 / 3, "Candlestick": 1 / 3})
    # Poison, one of the 10 non-mystery cards, avoids player 2's 2 slots: 8/10 of the fillings.
    assert worlds(session) == 4 * 5 * 3 * math.factorial(10) // 2**3 * 8 // 10
    assert reply.accepted
    assert reply.summary is not None and "ruled out Poison" in reply.summary
    assert "weapon now 3 candidates" in reply.summary
    shown = text(reply)
    assert "1/3" in shown and "Poison" not in shown.split("ruled out Poison")[1]
    assert f"{worlds(session):,}" in shown


def test_undo_restores_the_previous_state_and_journal() -> None:
    session = ready_session()
    session.handle("ask 2 Red 1")
    reply = session.handle("undo")
    assert worlds(session) == START_WORLDS
    assert session.lines == SETUP
    assert reply.summary is not None and "undid 'ask 2 Red 1'" in reply.summary
    assert "possible again: Poison" in reply.summary


def test_undo_of_a_setup_entry_reopens_the_setup() -> None:
    session = ready_session()
    session.handle("undo")
    assert session.knowledge is None
    assert session.setup.missing() == ["screen 4 PERSON LOCATION WEAPON"]
    with pytest.raises(AssistantError, match="finish the setup first"):
        session.handle("ask 2 Red 1")


def test_nothing_to_undo() -> None:
    with pytest.raises(AssistantError, match="nothing to undo"):
        ThirteenCluesSession().handle("undo")


def test_whatif_is_marked_everywhere_and_clears() -> None:
    session = ready_session()
    reply = session.handle("whatif informant A Countess")
    shown = text(reply)
    assert "WHAT-IF, not a fact" in shown
    assert "what-if" in (reply.summary or "")
    assert session.lines[-1] == "whatif informant A Countess"
    assert session.knowledge is not None
    assert "Countess" not in session.knowledge.mystery()["person"]
    why = text(session.handle("why Countess"))
    assert "informant A Countess  (what-if, not a fact)" in why
    assert "what-if" in text(session.handle("locations"))
    assert "whatif informant A Countess" in text(session.handle("history"))
    reply = session.handle("whatif clear")
    assert session.lines == SETUP
    assert session.knowledge.mystery()["person"]["Countess"] == pytest.approx(1 / 4)
    assert "WHAT-IF" not in text(reply)
    assert session.summary()["whatifs"] == []


def test_whatif_rejects_setup_entries_and_empty_clear() -> None:
    session = ready_session()
    with pytest.raises(AssistantError, match="expected an observation"):
        session.handle("whatif screen 2 Officer Park Blowgun")
    with pytest.raises(AssistantError, match="no what-if to clear"):
        session.handle("whatif clear")


def test_why_lists_the_forcing_entries_or_the_setup() -> None:
    session = ready_session()
    session.handle("ask 2 Red 1")
    session.handle("ask 3 Person 3")
    assert "Poison cannot be in your mystery, because of:\n  1. ask 2 Red 1\n" in text(session.handle("why poi"))
    assert "Knife is on player 3's screen" in text(session.handle("why Knife"))
    open_reply = text(session.handle("why Sword"))
    assert "still possible" in open_reply and "33.3%" in open_reply
    # Player 3 sees Officer and Dancer plus my mystery's person: 3 means no person behind their screen.
    assert "Duke cannot be in player 3 (private cards), because of:\n  1. ask 3 Person 3" in text(
        session.handle("why Duke 3")
    )
    assert "Duke is still possible in player 2 (private cards)" in text(session.handle("why Duke 2"))
    assert "Poison cannot be in player 2 (private cards)" in text(session.handle("why Poison 2"))
    with pytest.raises(AssistantError, match="unknown place"):
        session.handle("why Duke Z")


def test_certain_card_is_explained() -> None:
    session = ready_session()
    for line in ["accuse 3 Duke Museum Crossbow wrong", "accuse 4 Nurse Harbor Sword wrong",
                 "accuse 2 Maid Market Poison wrong"]:
        session.handle(line)
    assert session.knowledge is not None
    assert session.knowledge.mystery()["person"] == {"Countess": 1.0}
    why = text(session.handle("why Countess"))
    assert "Countess is certainly in your mystery, because of:" in why
    for accusation in ("accuse 3 Duke", "accuse 4 Nurse", "accuse 2 Maid"):
        assert accusation in why


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ask 2 Knif 1", "unknown suit or category 'Knif'"),
        ("informant A Knfe", "did you mean 'Knife'"),
        ("ask 5 Red 1", "seat 5: expected 1 to 4"),
        ("ask 9 Red 1", "seat 9: expected a whole number from 1 to 4"),  # this table's range
        ("ask 2 Red 7", "count 7: there are only 3 Red cards"),
        ("ask 2 Red 2", "contradicts entry 7 'ask 2 Red 1'; if entry 7 is wrong, fix it with 'edit 7 ...' or 'drop 7'"),
        ("accuse 3 Duke Park Poison wrong", "player 3 cannot accuse 'Park': they can see it on player 2's screen"),
        ("informant E Duke", "expected a letter A to D"),
        ("frobnicate", "unknown entry 'frobnicate'"),
        ("show now", "unexpected 'now'"),
    ],
)
def test_bad_line_raises_one_clear_error_and_changes_nothing(line: str, message: str) -> None:
    session = ready_session()
    session.handle("ask 2 Red 1")
    before_lines, before_worlds = list(session.lines), worlds(session)
    with pytest.raises(AssistantError, match=message) as info:
        session.handle(line)
    assert "\n" not in str(info.value)
    assert session.lines == before_lines
    assert worlds(session) == before_worlds


def test_contradiction_names_the_minimal_earlier_entries() -> None:
    session = ready_session()
    for line in ["ask 2 Red 1", "ask 3 Person 3", "ask 3 Red 1"]:
        session.handle(line)
    # Red unseen by me: only Poison. Player 2 sees Library and says 1, so Poison is not in my mystery or
    # their hand; player 3 (Library is on their own screen) says 1, so Poison is behind player 3's screen.
    # Player 4 sees Library, and 2 would need Poison in my mystery or their hand: those two entries conflict
    # with it, 'ask 3 Person 3' is not part of the reason.
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 4 Red 2")
    assert [str(o) for o in info.value.conflicts] == ["ask 2 Red 1", "ask 3 Red 1"]
    assert info.value.entries == [7, 9]
    assert str(info.value) == ("'ask 4 Red 2' contradicts entries 7 'ask 2 Red 1' and 9 'ask 3 Red 1'; fix the wrong "
                               "one with 'edit N ...' or 'drop N' (N: 7 or 9)")


def test_setup_error_leaves_the_setup_unchanged() -> None:
    session = ThirteenCluesSession()
    session.handle("private Florist Park")  # fine while the player count is unknown
    with pytest.raises(InvalidObservationError, match="'Florist' is not in play with 4 players"):
        session.handle("players 4")
    assert session.setup.players is None
    assert session.lines == ["private Florist Park"]


def test_setup_correction_rechecks_every_observation() -> None:
    session = ready_session()
    session.handle("ask 2 Red 1")
    # Poison on screen 4 would make player 2 see 2 Red cards: the correction is refused.
    with pytest.raises(ContradictionError, match="ask 2 Red 1"):
        session.handle("screen 4 Dancer Plaza Poison")
    assert session.setup.screens[4] == ("Dancer", "Plaza", "Gun")
    reply = session.handle("screen 4 Dancer Plaza Candlestick")
    assert reply.accepted and session.setup.screens[4] == ("Dancer", "Plaza", "Candlestick")
    assert session.knowledge is not None
    assert "Gun" in session.knowledge.unseen and "Candlestick" not in session.knowledge.unseen
    session.handle("undo")
    assert session.setup.screens[4] == ("Dancer", "Plaza", "Gun")
    assert session.lines == [*SETUP, "ask 2 Red 1"]


def test_two_player_questions_name_a_side() -> None:
    session = ThirteenCluesSession()
    for line in ["players 2", "me 1", "private Butcher Harbor", "screen 2 Maid Park Knife"]:
        session.handle(line)
    with pytest.raises(AssistantError, match="two-player questions name 'left' or 'right'"):
        session.handle("ask 2 Red 1")
    session.handle("ask 2 Red left 0")
    assert session.lines[-1] == "ask 2 Red left 0"
    assert session.knowledge is not None
    assert "Poison" not in session.knowledge.mystery()["weapon"]
    assert "Library" not in session.knowledge.mystery()["location"]


def test_subcategories_house_rule() -> None:
    session = ready_session()
    with pytest.raises(AssistantError, match="subcategories on"):
        session.handle("ask 2 Female 1")
    session.handle("subcategories on")
    # Player 2 sees Dancer (Female) on screen 4: one Female in all, so none in my mystery.
    session.handle("ask 2 Female 1")
    assert session.knowledge is not None
    assert session.knowledge.mystery()["person"] == {"Duke": 1.0}


def test_journal_is_saved_atomically_after_every_accepted_entry(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "game.journal"
    session = ThirteenCluesSession(journal=Journal(path, JOURNAL_HEADER))
    for line in SETUP:
        session.handle(line)
    session.handle("ask 2 re 1")
    with pytest.raises(AssistantError):
        session.handle("ask 2 Red 2")
    assert path.read_text().splitlines() == [JOURNAL_HEADER, *SETUP, "ask 2 Red 1"]
    assert Journal.is_journal(path, JOURNAL_HEADER)
    assert [p.name for p in tmp_path.iterdir()] == ["game.journal"]  # no temp file left behind
    session.handle("undo")
    assert path.read_text().splitlines() == [JOURNAL_HEADER, *SETUP]
    resumed = ThirteenCluesSession()
    resumed.replay(path.read_text().splitlines())
    assert resumed.lines == session.lines and worlds(resumed) == START_WORLDS


def test_summary_is_plain_data() -> None:
    session = ready_session()
    session.handle("ask 2 Red 1")
    summary = session.summary()
    assert summary["worlds"] == worlds(session) and summary["exact"] is True and summary["solved"] is False
    mystery = summary["mystery"]
    assert isinstance(mystery, dict)
    assert set(mystery) == {"person", "location", "weapon"}
    assert sum(mystery["location"].values()) == pytest.approx(1.0)
    locations = summary["locations"]
    assert isinstance(locations, dict)
    assert "your mystery" not in locations["Poison"] and "player 2 (private cards)" not in locations["Poison"]
    assert summary["entries"] == [*SETUP, "ask 2 Red 1"]


def test_completion_of_commands_and_card_names() -> None:
    session = ready_session()
    assert "ask" in session.completions("") and "why" in session.completions("")
    assert session.completions("ask 2 Re") == ["Red"]
    assert session.completions("why Sw") == ["Sword"]
    assert session.completions("accuse ") == ["1", "2", "3", "4"]
    # Player 2 sees screens 3 and 4 (Dancer, Sailor): an accusation never names a card its maker sees.
    assert session.completions("accuse 2 ") == ["Officer", "Duke", "Butcher", "Countess", "Nurse", "Maid"]
    assert session.completions("accuse 2 C") == ["Countess"]
    assert session.completions("accuse 2 Duke Park Sword ") == ["wrong"]  # their mystery is the screen I see
    assert "Florist" not in session.completions("private F")  # Brown is removed with 4 players
    assert session.completions("informant ") == ["A", "B", "C", "D"]
    assert session.completions("whatif ask 3 Pu") == ["Purple"]


def test_help_history_and_advise_hook() -> None:
    session = ready_session()
    assert "informant LETTER by SEAT" in text(session.handle("help"))
    assert "screen 4 Dancer Plaza Gun" in text(session.handle("history"))
    session.handle("ask 2 Red 1")
    advice = text(session.handle("advise"))
    try:
        from models.thirteen_clues.advisor import advise
    except ModuleNotFoundError:
        assert "advisor is not available yet" in advice
    else:
        assert "not available" not in advice
        assert session.knowledge is not None
        ranked = advise(session.knowledge)
        assert "Advice, best first" in advice and str(ranked[0].action) in advice
        assert f"{len(ranked) - 8} more" in advice
        assert "more:" not in text(session.handle("advise all"))
    with pytest.raises(AssistantError, match="expected 'advise \\[all\\] \\[glasses N\\]'"):
        session.handle("advise please")
    assert session.handle("quit").quit and session.handle("exit").quit


def test_state_shows_an_estimate_with_its_error() -> None:
    from models.thirteen_clues import views as tc_views
    from solver.session import Reply

    count = Count(1234567.0, {("Sword", MYSTERY): 600000.0}, exact=False, stderr=8901.0, note="sampled 3 of 9")
    view = tc_views.state_view({"weapon": {"Sword": 0.486, "Knife": 0.514}}, count, (), None)
    shown = text(Reply([view]))
    assert "estimate 1,234,567 ± 8,901 (sampled 3 of 9)" in shown
    assert "~51.4%" in shown


def test_locations_lists_every_unseen_card_with_its_places() -> None:
    from models.thirteen_clues.views import places_text

    session = ready_session()
    everywhere = list(session.knowledge.capacities) if session.knowledge else []
    assert "anywhere (8 places)" in text(session.handle("locations"))
    session.handle("informant C Sword")
    session.handle("ask 3 Person 3")
    assert session.knowledge is not None
    places = session.knowledge.locations()
    assert len(places) == 13
    assert places["Sword"] == ["C"]
    # Player 3 holds no person (their answer counts Officer, Dancer and my mystery's person).
    assert places["Duke"] == ["mystery", "p2", "p4", "A", "B", "D"]
    assert places_text(places["Duke"], everywhere) == (
        "your mystery, player 2 (private cards), player 4 (private cards), informants A, B, D"
    )
    shown = text(session.handle("locations"))
    assert "Sword         Weapon     informant C" in shown
