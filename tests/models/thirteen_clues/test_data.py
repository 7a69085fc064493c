"""Thirteen Clues component data against RULES-NOTES: the 30 cards and the setup table."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from models.thirteen_clues.data import (
    ALL_CARDS,
    CARD_BY_NAME,
    CATEGORIES,
    DEFAULT_DATA,
    SUBCATEGORIES,
    SUITS,
    load_game_data,
)


def test_thirty_cards_one_per_suit_and_category() -> None:
    assert len(ALL_CARDS) == 30
    assert len(CARD_BY_NAME) == 30  # names are unique
    assert Counter((c.suit, c.category) for c in ALL_CARDS) == {(s, cat): 1 for s in SUITS for cat in CATEGORIES}
    for card in ALL_CARDS:
        assert card.subcategory in SUBCATEGORIES[card.category]
        assert str(card) == card.name


def test_table_rows_from_the_notes() -> None:
    assert [CARD_BY_NAME[n].suit for n in ("Officer", "Parlor", "Knife")] == ["Purple"] * 3
    assert (CARD_BY_NAME["Rail Car"].suit, CARD_BY_NAME["Rail Car"].subcategory) == ("Brown", "Indoor")
    assert (CARD_BY_NAME["Race Course"].category, CARD_BY_NAME["Bow"].subcategory) == ("Location", "Ranged")
    assert CARD_BY_NAME["Countess"].subcategory == "Female"
    assert Counter(c.subcategory for c in ALL_CARDS) == {
        "Male": 5, "Female": 5, "Indoor": 5, "Outdoor": 5, "Close": 5, "Ranged": 5,
    }


@pytest.mark.parametrize(
    ("players", "removed", "in_play", "informants"),
    [(6, set(), 30, 0), (5, {"Gray"}, 27, 2), (4, {"Gray", "Brown"}, 24, 4), (3, {"Gray", "Brown", "White"}, 21, 6),
     (2, {"Gray", "Brown", "White", "Orange"}, 18, 8)],
)
def test_setup_table(players: int, removed: set[str], in_play: int, informants: int) -> None:
    assert set(SUITS) - set(DEFAULT_DATA.suits_in_play(players)) == removed
    cards = DEFAULT_DATA.cards_in_play(players)
    assert len(cards) == in_play
    assert all(c.suit not in removed for c in cards)
    letters = DEFAULT_DATA.informant_letters(players)
    assert letters == tuple("ABCDEFGH"[:informants])
    # Rulebook hint: everyone has 13 unseen cards (own mystery, the others' private cards, the informants).
    seen = 2 + 3 * (players - 1)
    assert in_play - seen == 13
    assert 3 + 2 * (players - 1) + informants == 13


def test_unknown_player_count() -> None:
    with pytest.raises(ValueError, match="players 7: expected 2 to 6"):
        DEFAULT_DATA.suits_in_play(7)


def test_override_file(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"suits_removed": {"4": ["Gray"]}}))
    data = load_game_data(path)
    assert data.suits_removed[4] == ("Gray",)
    assert data.suits_removed[5] == ("Gray",)  # rows not in the file keep their defaults
    assert len(data.cards_in_play(4)) == 27
    assert data.informant_letters(4) == tuple("ABCDEFG")
    assert DEFAULT_DATA.suits_removed[4] == ("Gray", "Brown")  # the default is untouched


@pytest.mark.parametrize(
    ("text", "message"),
    [("not json", "expected JSON with a 'suits_removed' table"), ('{"other": 1}', "'suits_removed'"),
     ('{"suits_removed": {"4": ["Grey"]}}', "unknown suit 'Grey' for 4 players"),
     ('{"suits_removed": {"four": []}}', "expected JSON")],
)
def test_bad_override_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_game_data(path)


def test_missing_override_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="game data file"):
        load_game_data(tmp_path / "absent.json")
