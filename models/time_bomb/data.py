"""Time Bomb Evolution component data (rulebook ``rules/time-bomb-evolution.txt``, RULES-NOTES "Time Bomb
Evolution").

Everything the notes mark *configurable* lives here as data: the colours in play by player count, bomb cards
per colour, how many bomb cards are removed unseen, how many defusing cards are added, the hand size of each
round (and so the number of rounds), each colour's explosion threshold and the role cards used. A JSON file
can override any of it (:func:`load_game_data`); the engine and the knowledge model only read a
:class:`Setup` derived from it, so small variants (used by the brute-force cross-checks) need no other code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: Bomb colours in the order they join the game: N players use the first N (RULES-NOTES).
COLOURS: tuple[str, ...] = ("pink", "red", "blue", "green", "yellow", "orange")
DEFUSE = "defuse"
SHERLOCK = "sherlock"
MORIARTY = "moriarty"
ROLES: tuple[str, str] = (SHERLOCK, MORIARTY)

#: A colour explodes when this many of its cards are cut and it is not covered (green: 3, the rest: 4).
THRESHOLDS: dict[str, int] = {"pink": 4, "red": 4, "blue": 4, "green": 3, "yellow": 4, "orange": 4}

#: players -> (Sherlock cards, Moriarty cards) shuffled for the deal; with 4 players one card stays unseen.
ROLE_CARDS: dict[int, tuple[int, int]] = {4: (3, 2), 5: (3, 2), 6: (4, 2)}


@dataclass(frozen=True)
class Setup:
    """Everything that depends on the player count, resolved from :class:`GameData`."""

    players: int
    colours: tuple[str, ...]
    bombs_per_colour: int
    removed: int
    defusers: int
    hand_sizes: tuple[int, ...]
    thresholds: Mapping[str, int]
    sherlock_cards: int
    moriarty_cards: int

    @property
    def rounds(self) -> int:
        return len(self.hand_sizes)

    @property
    def types(self) -> tuple[str, ...]:
        """Card types in play: the defusing card first, then the colours."""
        return (DEFUSE, *self.colours)

    @property
    def deck_size(self) -> int:
        return len(self.colours) * self.bombs_per_colour - self.removed + self.defusers

    @property
    def turns_per_round(self) -> int:
        """One turn token per player (rulebook: as many tokens as players)."""
        return self.players

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbered cards of the red bomb: 0 to N-1."""
        return tuple(range(self.players))

    @property
    def role_cards(self) -> int:
        return self.sherlock_cards + self.moriarty_cards


@dataclass(frozen=True)
class GameData:
    """Component data; defaults are RULES-NOTES. ``colours_in_play`` / ``removed`` / ``defusers`` map a player
    count to a value and default to "the first N colours" / N / N."""

    colours: tuple[str, ...] = COLOURS
    bombs_per_colour: int = 5
    hand_sizes: tuple[int, ...] = (5, 4, 3, 2)
    thresholds: Mapping[str, int] = field(default_factory=lambda: dict(THRESHOLDS))
    role_cards: Mapping[int, tuple[int, int]] = field(default_factory=lambda: dict(ROLE_CARDS))
    colours_in_play: Mapping[int, int] = field(default_factory=dict)
    removed: Mapping[int, int] = field(default_factory=dict)
    defusers: Mapping[int, int] = field(default_factory=dict)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.role_cards))

    def setup(self, players: int) -> Setup:
        """The setup for ``players``; raises ``ValueError`` for an unsupported count or inconsistent data."""
        if players not in self.role_cards:
            counts = self.player_counts
            raise ValueError(f"players {players}: expected {counts[0]} to {counts[-1]}")
        n_colours = self.colours_in_play.get(players, players)
        if not 1 <= n_colours <= len(self.colours):
            raise ValueError(f"{n_colours} colours for {players} players: only {len(self.colours)} exist")
        colours = self.colours[:n_colours]
        sherlock, moriarty = self.role_cards[players]
        setup = Setup(
            players=players,
            colours=colours,
            bombs_per_colour=self.bombs_per_colour,
            removed=self.removed.get(players, players),
            defusers=self.defusers.get(players, players),
            hand_sizes=tuple(self.hand_sizes),
            thresholds={c: self.thresholds.get(c, 4) for c in colours},
            sherlock_cards=sherlock,
            moriarty_cards=moriarty,
        )
        bombs = n_colours * self.bombs_per_colour
        if not 0 <= setup.removed <= bombs:
            raise ValueError(f"{setup.removed} bomb cards removed of {bombs}")
        if setup.deck_size != players * setup.hand_sizes[0]:
            raise ValueError(
                f"{players} players: {setup.deck_size} cable cards in play, but hands of {setup.hand_sizes[0]} "
                f"need {players * setup.hand_sizes[0]}"
            )
        if any(a <= b for a, b in zip(setup.hand_sizes, setup.hand_sizes[1:], strict=False)):
            raise ValueError(f"hand sizes {setup.hand_sizes}: expected them to decrease round by round")
        if sherlock + moriarty < players or moriarty < 1 or sherlock < 1:
            raise ValueError(f"role cards {sherlock}+{moriarty}: not enough for {players} players")
        return setup


DEFAULT_DATA = GameData()


def load_game_data(path: str | Path) -> GameData:
    """Read overrides from JSON, e.g. ``{"thresholds": {"green": 3}, "hand_sizes": [5, 4, 3, 2],
    "removed": {"5": 5}}``; unknown keys are an error so a typo is not silently ignored."""
    known = {"colours", "bombs_per_colour", "hand_sizes", "thresholds", "role_cards", "colours_in_play",
             "removed", "defusers"}
    try:
        raw = json.loads(Path(path).read_text())
        if not isinstance(raw, dict):
            raise TypeError("expected a JSON object")
        unknown = set(raw) - known
        if unknown:
            raise KeyError(f"unknown keys {sorted(unknown)}")
        base = DEFAULT_DATA
        thresholds = dict(base.thresholds)
        thresholds.update({str(k): int(v) for k, v in raw.get("thresholds", {}).items()})
        data = GameData(
            colours=tuple(raw.get("colours", base.colours)),
            bombs_per_colour=int(raw.get("bombs_per_colour", base.bombs_per_colour)),
            hand_sizes=tuple(int(h) for h in raw.get("hand_sizes", base.hand_sizes)),
            thresholds=thresholds,
            role_cards={int(k): (int(v[0]), int(v[1])) for k, v in raw.get("role_cards", base.role_cards).items()},
            colours_in_play={int(k): int(v) for k, v in raw.get("colours_in_play", {}).items()},
            removed={int(k): int(v) for k, v in raw.get("removed", {}).items()},
            defusers={int(k): int(v) for k, v in raw.get("defusers", {}).items()},
        )
        for players in data.player_counts:
            data.setup(players)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"game data file '{path}': {exc}") from exc
    return data
