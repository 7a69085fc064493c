"""A dealt Thirteen Clues table (the true hidden world) and the truthful answers it implies.

Used by the rules engine, the simulations and the soundness tests: the knowledge model never sees a
:class:`Deal`, only the observations derived from it here.

Deal procedure (RULES-NOTES "Deal"): each player is dealt one Person, one Location, one Weapon and two more
random cards, chooses one card of each category as the mystery of the player on their left, and keeps the
other two as private cards. :func:`random_deal` chooses the mystery uniformly among the valid choices.
Seat ``s``'s left neighbour is ``s - 1`` (clockwise play goes 1, 2, 3, ...); the rules are silent on the
direction, and any fixed convention gives the same distribution of hidden worlds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA, GameData
from models.thirteen_clues.observations import Me, Players, Private, Screen, Witness


@dataclass(frozen=True)
class Deal:
    """The whole table: ``screens[s]`` is seat s's mystery (P, L, W), ``private[s]`` its (left, right)."""

    players: int
    screens: dict[int, tuple[str, str, str]]
    private: dict[int, tuple[str, str]]
    informants: dict[str, str]

    @property
    def seats(self) -> list[int]:
        return list(range(1, self.players + 1))

    def visible_to(self, seat: int) -> list[str]:
        """Every card ``seat`` can see: the other screens and their own private cards."""
        out = list(self.private[seat])
        for s, screen in self.screens.items():
            if s != seat:
                out += screen
        return out

    def setup_lines(self, seat: int) -> list[Players | Me | Private | Screen]:
        """The setup entries ``seat`` types at the table."""
        lines: list[Players | Me | Private | Screen] = [Players(self.players), Me(seat), Private(self.private[seat])]
        lines += [Screen(s, self.screens[s]) for s in self.seats if s != seat]
        return lines

    def answer(self, seat: int, subject: str, asker: int, side: str | None = None) -> Witness:
        """``seat``'s truthful answer to ``asker``'s question about ``subject`` (two players: ``side``)."""
        match = matcher(subject)
        if side is None:
            seen = self.visible_to(seat)
        else:
            seen = list(self.screens[asker]) + [self.private[seat][0 if side == "left" else 1]]
        return Witness(seat, subject, sum(1 for c in seen if match(c)), side)


def matcher(subject: str) -> Callable[[str], bool]:
    """Whether a card counts for a question about a suit, category or sub-category."""

    def match(card: str) -> bool:
        c = CARD_BY_NAME[card]
        return subject in (c.suit, c.category, c.subcategory)

    return match


def random_deal(players: int, rng: random.Random, data: GameData = DEFAULT_DATA) -> Deal:
    """Deal a table as the rulebook describes (see module docstring)."""
    cards = [c.name for c in data.cards_in_play(players)]
    by_cat = {cat: [c for c in cards if CARD_BY_NAME[c].category == cat] for cat in CATEGORIES}
    for pile in by_cat.values():
        rng.shuffle(pile)
    hands: dict[int, list[str]] = {s: [by_cat[cat].pop() for cat in CATEGORIES] for s in range(1, players + 1)}
    rest = [c for pile in by_cat.values() for c in pile]
    rng.shuffle(rest)
    for s in hands:
        hands[s] += [rest.pop(), rest.pop()]
    screens: dict[int, tuple[str, str, str]] = {}
    private: dict[int, tuple[str, str]] = {}
    for s, hand in hands.items():
        left = players if s == 1 else s - 1
        choice = tuple(rng.choice([c for c in hand if CARD_BY_NAME[c].category == cat]) for cat in CATEGORIES)
        screens[left] = (choice[0], choice[1], choice[2])
        kept = [c for c in hand if c not in choice]
        private[s] = (kept[0], kept[1])
    letters = data.informant_letters(players)
    informants = dict(zip(letters, rest, strict=True))
    return Deal(players, screens, private, informants)
