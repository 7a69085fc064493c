"""Evidence choices at given entries of examples/evidence-4p.txt: the unanswered setup, the turn's player only,
my rumours as one tap, another player's colours and the values with a copy unseen, a search or a time-out by the
player who played, the next player's rumour."""

from __future__ import annotations

from tests.solver.choices_helpers import ends, session_at, words

EXAMPLE = "evidence-4p.txt"
GAME = "evidence"
COLOURS = ["white", "blue", "yellow", "pink", "green", "brown"]
COMMANDS = ["help", "quit", "show", "undo", "why", "history", "edit", "drop", "advise"]


def test_setup_offers_only_the_unanswered_entries() -> None:
    s = session_at(GAME, EXAMPLE, 4)  # players, me, variant, start
    assert words(s, "") == ["setup", "hand", "holds 2", "holds 3", "holds 4", *COMMANDS]
    assert words(s, "setup ") == COLOURS
    assert words(s, "setup white 3 ") == COLOURS[1:]  # one rumour per mystery at 4 players
    assert words(s, "holds ") == ["2", "3", "4"]  # never my own seat


def test_the_turns_player_and_the_values_left() -> None:
    s = session_at(GAME, EXAMPLE, 9)
    assert words(s, "") == ["play 2", *COMMANDS]
    assert words(s, "play 2 ") == ["white", "pink", "green", "brown"]  # the colours player 2 holds
    assert ends(s, "play 2 brown ") == ["-1", "0", "1", "2", "3"]  # brown 4 was revealed at setup
    assert words(s, "play 3 ") == []
    s = session_at(GAME, EXAMPLE, 10)  # 'play 2 brown 2': player 2 may search, player 3 may begin
    assert words(s, "")[:2] == ["play 3", "search 2"]
    assert ends(s, "search 2 ") == COLOURS


def test_my_rumours_are_one_tap_and_a_time_out_is_offered_whole() -> None:
    s = session_at(GAME, EXAMPLE, 15)
    assert words(s, "")[:1] == ["play 1"]
    assert ends(s, "play 1 ") == ["blue 4", "white 1", "yellow 3", "blue 0", "blue 3", "white 0"]
    s = session_at(GAME, EXAMPLE, 26)  # after 'search 1 pink'
    assert words(s, "")[:2] == ["play 2", "timeout 1"]
    assert ends(s, "timeout 1 ") == ["white for blue", "white for yellow", "white for pink", "white for green",
                                     "white for brown", "pink for white", "pink for blue", "pink for yellow",
                                     "pink for green", "pink for brown"]
