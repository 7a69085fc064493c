"""Beyond Baker Street choices at given entries of examples/beyond-baker-street-3p.txt: only the seat whose turn
it is, the one visible card at each position of a hand I see, my positions' possible cards, Assists as one tap,
and only the draw the table waits for."""

from __future__ import annotations

from tests.solver.choices_helpers import ends, session_at, words

EXAMPLE = "beyond-baker-street-3p.txt"
GAME = "beyond-baker-street"
COMMANDS = ["help", "quit", "show", "undo", "why", "empathy", "history", "edit", "drop", "advise"]


def test_setup_hides_what_is_answered() -> None:
    s = session_at(GAME, EXAMPLE, 4)  # players, me, case, start: Characters may still come before the hands
    assert words(s, "") == ["character 1", "character 2", "character 3", "hand 1", "hand 3", "lead", *COMMANDS]
    assert words(s, "hand ") == ["1", "3"]
    s = session_at(GAME, EXAMPLE, 5)  # a hand: the table plays without Characters
    assert words(s, "") == ["hand 3", "lead", *COMMANDS] and words(s, "hand ") == ["3"]
    s = session_at(GAME, EXAMPLE, 7)  # both hands and the 7D lead
    assert words(s, "")[:1] == ["lead"]
    assert "7D" not in words(s, "lead ") and "9W" in words(s, "lead ")


def test_only_the_seat_to_play_and_the_visible_card_of_each_position() -> None:
    s = session_at(GAME, EXAMPLE, 9)
    assert words(s, "") == ["assist 1", "investigate 1", "eliminate 1", "pursue 1", *COMMANDS]
    assert words(s, "eliminate ") == ["1"]
    assert ends(s, "eliminate 1 ") == ["1 5C", "2 1W", "3 3C", "4 3D"]
    assert words(s, "investigate 1 ") == ["1 5C", "2 1W", "3 3C", "4 3D"] and ends(s, "investigate 1 ") == []
    assert words(s, "eliminate 1 4 ") == ["3D"]  # the one card there, not every card


def test_a_pending_draw_is_the_only_entry_and_offers_the_unseen_cards() -> None:
    s = session_at(GAME, EXAMPLE, 10)
    assert words(s, "") == ["draw 1", *COMMANDS]
    assert ends(s, "draw 1 ") == ["1C", "4C", "6C", "1D", "2D", "4D", "5D", "6D", "2T", "3T", "4T", "6T", "3W", "4W",
                                  "5W", "6W"]


def test_assists_to_a_hand_i_see_are_one_tap_and_to_me_the_position_sets_that_fit() -> None:
    s = session_at(GAME, EXAMPLE, 17)
    assert words(s, "assist 3 ") == ["1", "2"]
    assert ends(s, "assist 3 1 ") == ["2 at 3", "3 at 1 2", "4 at 4", "Clue at 1", "Document at 2 3 4"]
    assert ends(s, "assist 3 2 5 ") == ["at 1", "at 2", "at 3", "at 4", "at 1 2", "at 1 3", "at 1 4", "at 2 3",
                                        "at 2 4", "at 3 4"]


def test_my_own_position_offers_the_cards_it_can_be() -> None:
    s = session_at(GAME, EXAMPLE, 19)
    assert words(s, "eliminate 2 ") == ["1", "2", "3", "4"]
    assert ends(s, "eliminate 2 2 ") == ["5D", "5W"]
    assert words(s, "why 2 ") == ["5D", "5W"]


CHARACTER_VERBS = {"Lady Hilda Hope": "assist",
                   "Lady Eva Blackwell": "bury", "Toby": "peek", "Langdale Pike": "swap", "Mrs Hudson": "return",
                   "Sir Henry Baskerville": "exchange", "Irene Adler": "advance"}


def test_character_games_are_entered_by_taps() -> None:
    """Random 3-player games with a Character that moves cards (the brute-force reference's games): every
    entry, the Character's own action included, has a tap path."""
    from bbs_reference import game_states

    from models.beyond_baker_street.observations import Drew
    from models.beyond_baker_street.session import BeyondBakerStreetSession
    from solver.session import tap_path

    for name, verb in CHARACTER_VERBS.items():
        chars = (name, "Lestrade", "Gregson")
        states = list(game_states(3, 1, 1500, characters=chars, seat=1, max_turns=60))
        kn = states[-1][1]
        lines = [str(e) for e in kn.entries if not (isinstance(e, Drew) and e.seat == 1)]
        assert any(line.startswith(verb + " ") and (verb != "assist" or " and " in line) for line in lines), name
        session = BeyondBakerStreetSession()
        for line in lines:
            assert tap_path(session, line) is not None, f"{name}: '{line}'"
            session.handle(line, show=False)
