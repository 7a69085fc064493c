"""Time Bomb choices at given entries of examples/time-bomb-5p.txt: the unanswered setup, only the players the
cutter may cut, my own cut only from the cards I hold, the step the table waits for (a cover) alone."""

from __future__ import annotations

from tests.solver.choices_helpers import ends, session_at, words

EXAMPLE = "time-bomb-5p.txt"
GAME = "time-bomb"
COMMANDS = ["help", "quit", "show", "undo", "why", "history", "edit", "drop", "advise", "holdings", "claims", "bluff"]


def test_setup_offers_only_the_unanswered_entry_and_the_hands_cards() -> None:
    s = session_at(GAME, EXAMPLE, 4)
    assert words(s, "") == ["hand", "colours", *COMMANDS]
    assert words(s, "hand ") == ["defuse", "pink", "red", "blue", "green", "yellow"]
    assert ends(s, "hand pink red red ") == []  # five cards: the fifth ends the entry
    assert ends(s, "hand pink red red blue ") == ["defuse", "pink", "red", "blue", "green", "yellow"]


def test_cuts_of_the_players_the_cutter_may_cut_and_the_claims_still_due() -> None:
    s = session_at(GAME, EXAMPLE, 5)  # player 1 holds the cutter
    assert words(s, "")[:9] == ["cut 2", "cut 3", "cut 4", "cut 5", "claim 1", "claim 2", "claim 3", "claim 4",
                                "claim 5"]
    assert ends(s, "claim 1 ") == ["0", "1", "2", "3", "4", "5"]
    assert [c.label for c in s.choices("claim 2 ")][:2] == ["0", "1 (a bluff)"]  # I hold no defusing card
    s = session_at(GAME, EXAMPLE, 10)  # every claim made
    assert words(s, "")[:4] == ["cut 2", "cut 3", "cut 4", "cut 5"] and "claim 1" not in words(s, "")
    assert ends(s, "cut 2 ") == ["pink", "red", "blue", "green"]  # my cards: no defusing, no yellow
    assert ends(s, "cut 5 ") == ["defuse", "pink", "red", "blue", "green", "yellow"]
    assert words(s, "cut 1 ") == []  # the cutter never cuts their own card


def test_a_pending_cover_is_the_only_entry() -> None:
    s = session_at(GAME, EXAMPLE, 11)  # 'cut 5 yellow': the yellow card waits to be placed
    assert words(s, "") == ["cover yellow", *COMMANDS]
    assert words(s, "cut ") == []
