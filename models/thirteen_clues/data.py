"""Thirteen Clues component data (RULES-NOTES, "Thirteen Clues").

The 30 cards, their suits and sub-categories, and the setup table by player count. The setup table is marked
*configurable* in the notes, so it lives here as data and can be overridden from a JSON file
(:func:`load_game_data`), never as literals scattered through the code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES: tuple[str, ...] = ("Person", "Location", "Weapon")

#: Sub-categories per category (an optional house rule, off by default).
SUBCATEGORIES: dict[str, tuple[str, str]] = {
    "Person": ("Male", "Female"),
    "Location": ("Indoor", "Outdoor"),
    "Weapon": ("Close", "Ranged"),
}

#: suit -> ((person, sub), (location, sub), (weapon, sub))
SUITS: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "Purple": (("Officer", "Male"), ("Parlor", "Indoor"), ("Knife", "Close")),
    "Pink": (("Duke", "Male"), ("Market", "Outdoor"), ("Crossbow", "Ranged")),
    "Red": (("Butcher", "Male"), ("Library", "Indoor"), ("Poison", "Close")),
    "Green": (("Countess", "Female"), ("Park", "Outdoor"), ("Sword", "Close")),
    "Yellow": (("Nurse", "Female"), ("Museum", "Indoor"), ("Blowgun", "Ranged")),
    "Blue": (("Maid", "Female"), ("Harbor", "Outdoor"), ("Rifle", "Ranged")),
    "Orange": (("Dancer", "Female"), ("Theater", "Indoor"), ("Gun", "Ranged")),
    "White": (("Sailor", "Male"), ("Plaza", "Outdoor"), ("Candlestick", "Close")),
    "Brown": (("Florist", "Female"), ("Rail Car", "Indoor"), ("Hammer", "Close")),
    "Gray": (("Coachman", "Male"), ("Race Course", "Outdoor"), ("Bow", "Ranged")),
}

#: players -> suits removed (configurable).
SUITS_REMOVED: dict[int, tuple[str, ...]] = {
    6: (),
    5: ("Gray",),
    4: ("Gray", "Brown"),
    3: ("Gray", "Brown", "White"),
    2: ("Gray", "Brown", "White", "Orange"),
}

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class Card:
    """One Thirteen Clues card; its name is unique across the deck."""

    name: str
    suit: str
    category: str
    subcategory: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class GameData:
    """The deck and the setup table; the default is RULES-NOTES, a JSON file may override the table."""

    suits_removed: dict[int, tuple[str, ...]] = field(default_factory=lambda: dict(SUITS_REMOVED))

    @property
    def deck(self) -> tuple[Card, ...]:
        return ALL_CARDS

    def suits_in_play(self, players: int) -> tuple[str, ...]:
        if players not in self.suits_removed:
            raise ValueError(f"players {players}: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
        removed = set(self.suits_removed[players])
        return tuple(s for s in SUITS if s not in removed)

    def cards_in_play(self, players: int) -> tuple[Card, ...]:
        suits = set(self.suits_in_play(players))
        return tuple(c for c in ALL_CARDS if c.suit in suits)

    def informant_letters(self, players: int) -> tuple[str, ...]:
        n = len(self.cards_in_play(players)) - 5 * players
        return tuple(chr(ord("A") + i) for i in range(max(n, 0)))


def _build_cards() -> tuple[Card, ...]:
    cards = []
    for suit, triple in SUITS.items():
        for category, (name, sub) in zip(CATEGORIES, triple, strict=True):
            cards.append(Card(name, suit, category, sub))
    return tuple(cards)


ALL_CARDS: tuple[Card, ...] = _build_cards()
CARD_BY_NAME: dict[str, Card] = {c.name: c for c in ALL_CARDS}
DEFAULT_DATA = GameData()


def load_game_data(path: str | Path) -> GameData:
    """Read a setup-table override: ``{"suits_removed": {"4": ["Gray", "Brown"], ...}}``."""
    try:
        raw = json.loads(Path(path).read_text())
        table = {int(k): tuple(v) for k, v in raw["suits_removed"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"game data file '{path}': expected JSON with a 'suits_removed' table ({exc})") from exc
    merged = dict(SUITS_REMOVED)
    merged.update(table)
    for players, removed in merged.items():
        for suit in removed:
            if suit not in SUITS:
                raise ValueError(f"game data file '{path}': unknown suit '{suit}' for {players} players")
    return GameData(merged)
