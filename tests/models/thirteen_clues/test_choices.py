"""Thirteen Clues choices at given entries of examples/thirteen-clues-4p.txt: only unanswered setup, cards not
seen elsewhere, the counts the knowledge allows, informants' possible cards, accusations of unseen cards."""

from __future__ import annotations

from tests.solver.choices_helpers import ends, session_at, words

EXAMPLE = "thirteen-clues-4p.txt"
COMMANDS = ["help", "quit", "show", "undo", "why", "locations", "whatif", "history", "advise"]


def test_setup_offers_only_what_is_unanswered() -> None:
    fresh = session_at("thirteen-clues", EXAMPLE, 0)
    assert words(fresh, "") == ["players", "private", "subcategories", *COMMANDS]
    assert ends(fresh, "players ") == ["2", "3", "4", "5", "6"]
    after_me = session_at("thirteen-clues", EXAMPLE, 2)
    assert words(after_me, "") == ["private", "screen 2", "screen 3", "screen 4", *COMMANDS, "edit", "drop"]
    assert words(after_me, "me ") == ["1", "2", "3", "4"]
    last = session_at("thirteen-clues", EXAMPLE, 5)
    assert words(last, "")[:1] == ["screen 4"]
    # Persons not seen: my private Duke and the Maid and Dancer on the other screens are not offered.
    assert words(last, "screen 4 ") == ["Officer", "Butcher", "Countess", "Nurse", "Sailor"]
    assert "Duke" not in words(session_at("thirteen-clues", EXAMPLE, 3), "screen 2 ")


def test_play_offers_asks_informants_and_counts_from_their_range() -> None:
    s = session_at("thirteen-clues", EXAMPLE, 6)
    assert words(s, "")[:9] == ["ask 1", "ask 2", "ask 3", "ask 4", "informant A", "informant B", "informant C",
                                "informant D", "accuse"]
    assert words(s, "ask 4 ") == ["Purple", "Pink", "Red", "Green", "Yellow", "Blue", "Orange", "White", "Person",
                                  "Location", "Weapon"]
    assert ends(s, "ask 4 Green ") == ["1", "2"]
    assert ends(s, "ask 1 Orange ") == ["2"]  # asked me: the one count I see
    assert ends(s, "informant C by ") == ["2", "3", "4"]  # never me: I look with 'informant C CARD'
    assert words(s, "informant A ")[-3:] == ["by 2", "by 3", "by 4"]
    # Player 2 sees screens 3 and 4 (Dancer, Sailor) but not my private Duke nor their own screen (Maid).
    assert words(s, "accuse 2 ") == ["Officer", "Duke", "Butcher", "Countess", "Nurse", "Maid"]


def test_a_card_seen_at_an_informant_narrows_the_next_choices() -> None:
    before = session_at("thirteen-clues", EXAMPLE, 10)  # 'informant A Plaza' is entry 11
    after = session_at("thirteen-clues", EXAMPLE, 11)
    assert "Plaza" in words(before, "informant A ")
    assert [c for c in words(after, "informant A ") if not c.startswith("by")] == ["Plaza"]
    assert "Plaza" not in words(after, "informant B ")
