"""Evidence component data (rulebook "Game Components", "Setup of the Game"; RULES-NOTES "Evidence").

Six mysteries, one per colour, each with six rumour cards whose values are data: the rulebook says "-1 to 4",
the printed overview cards may differ, so every mystery takes any multiset of six integers (duplicates
included). The setup tables by player count live here too, so a game-data file can override them
(:func:`load_game_data`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

COLOURS: tuple[str, ...] = ("white", "blue", "yellow", "pink", "green", "brown")

#: Mystery names: the first three are in the rulebook; the last three are cosmetic (configurable).
MYSTERY_NAMES: dict[str, str] = {
    "white": "Yeti",
    "blue": "Sea Monster",
    "yellow": "Mummy",
    "pink": "Pink Mystery",
    "green": "Green Mystery",
    "brown": "Brown Mystery",
}

DEFAULT_VALUES: tuple[int, ...] = (-1, 0, 1, 2, 3, 4)
CARDS_PER_MYSTERY = 6

#: players -> search cards per mystery besides the Hot Lead ("Setup of the Game").
SEARCH_CARDS: dict[int, int] = {2: 3, 3: 4, 4: 5, 5: 6}
#: players -> rumours per mystery revealed at setup.
SETUP_REVEALED: dict[int, int] = {2: 1, 3: 2, 4: 1, 5: 0}

HAND_SIZE = 6
UNKNOWN_PER_PLAYER = 6  # two players only: "6 additional rumours to both players"
CARD_LIMIT = 6
ROUNDS = 6
REVEAL_AT = 5  # "If this is the 5th revealed rumour of a mystery, uncover the ... evidence"
MIN_PLAYERS, MAX_PLAYERS = 2, 5

TOOLS: tuple[str, ...] = ("plane", "telescope", "fortune", "timeout", "balloon", "typewriter")
TOOL_NAMES: dict[str, str] = {
    "plane": "Plane Tickets",
    "telescope": "Telescope",
    "fortune": "Fortune-Teller",
    "timeout": "Take a Time-Out",
    "balloon": "Balloon Ride",
    "typewriter": "Typewriter",
}


@dataclass(frozen=True)
class GameData:
    """Rumour values per mystery and the setup tables; the default is the rulebook's -1..4 everywhere."""

    values: dict[str, tuple[int, ...]] = field(default_factory=lambda: dict.fromkeys(COLOURS, DEFAULT_VALUES))
    names: dict[str, str] = field(default_factory=lambda: dict(MYSTERY_NAMES))
    search_cards: dict[int, int] = field(default_factory=lambda: dict(SEARCH_CARDS))
    setup_revealed: dict[int, int] = field(default_factory=lambda: dict(SETUP_REVEALED))

    def __post_init__(self) -> None:
        for colour in COLOURS:
            vals = self.values.get(colour)
            if vals is None or len(vals) != CARDS_PER_MYSTERY:
                raise ValueError(f"rumour values of {colour}: expected {CARDS_PER_MYSTERY} values, got {vals}")
            object.__setattr__(self, "values", {**self.values, colour: tuple(sorted(int(v) for v in vals))})
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            if players not in self.search_cards or players not in self.setup_revealed:
                raise ValueError(f"setup tables: missing an entry for {players} players")
            hidden = len(COLOURS) * (CARDS_PER_MYSTERY - 1 - self.setup_revealed[players])
            dealt = players * HAND_SIZE + (players * UNKNOWN_PER_PLAYER if players == 2 else 0)
            if hidden != dealt:
                raise ValueError(f"setup tables: {players} players would deal {dealt} rumours but {hidden} remain")

    def multiset(self, colour: str) -> Counter[int]:
        return Counter(self.values[colour])

    def distinct_values(self, colour: str) -> list[int]:
        return sorted(set(self.values[colour]))

    def is_default(self) -> bool:
        return all(self.values[c] == DEFAULT_VALUES for c in COLOURS)

    def stack_size(self, players: int) -> int:
        """Search cards per mystery, the Hot Lead included."""
        return self.search_cards[players] + 1


def timeouts_allowed(players: int) -> int:
    """Time-outs (or professional tools) one player may use per game: 2 with two players, else 1."""
    return 2 if players == 2 else 1


DEFAULT_DATA = GameData()


def with_values(data: GameData, colour: str, values: tuple[int, ...]) -> GameData:
    """A copy of ``data`` whose mystery ``colour`` has the rumour values ``values``."""
    return GameData({**data.values, colour: values}, data.names, data.search_cards, data.setup_revealed)


def load_game_data(path: str | Path) -> GameData:
    """Read ``{"values": {"blue": [-1, 0, 1, 2, 3, 4], ...}, "names": {"pink": "..."}}``; missing keys keep
    their defaults."""
    try:
        raw = json.loads(Path(path).read_text())
        values = dict.fromkeys(COLOURS, DEFAULT_VALUES)
        for colour, vals in raw.get("values", {}).items():
            if colour not in COLOURS:
                raise ValueError(f"unknown mystery colour '{colour}'")
            values[colour] = tuple(int(v) for v in vals)
        names = {**MYSTERY_NAMES, **raw.get("names", {})}
        return GameData(values, names)
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"game data file '{path}': {exc}") from exc
