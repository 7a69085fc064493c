"""Toy Cards entries and actions: values whose ``str()`` is the line a player types, read back by :func:`parse`.

Setup entries: ``players N``, ``me SEAT``, ``hand CARD``. The one observation: ``ask ASKER SEAT CARD yes|no``.
Actions of the rules engine: :class:`Ask` (a question) and :class:`Guess` (the mystery, which ends the game).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InvalidObservationError, UnknownEntryError
from solver.parsing import Me, Players, expect_end, parse_int
from tests.toy_game.data import CARD_NAMES, CARDS

SEATS = 3  # the most players (seats are checked against the table's size by the session)


@dataclass(frozen=True)
class Hand:
    card: str

    def __str__(self) -> str:
        return f"hand {self.card}"


@dataclass(frozen=True)
class Answer:
    """``asker`` asked ``seat`` whether it holds ``card``; ``held`` is the answer."""

    asker: int
    seat: int
    card: str
    held: bool

    def __str__(self) -> str:
        return f"ask {self.asker} {self.seat} {self.card} {'yes' if self.held else 'no'}"


@dataclass(frozen=True)
class Ask:
    """The action: ask ``seat`` whether it holds ``card``."""

    seat: int
    card: str

    def __str__(self) -> str:
        return f"ask {self.seat} {self.card}"


@dataclass(frozen=True)
class Guess:
    """The action: name the mystery card (ends the game)."""

    card: str

    def __str__(self) -> str:
        return f"guess {self.card}"


Entry = Players | Me | Hand | Answer
USAGE = {
    "players": "players N",
    "me": "me SEAT",
    "hand": "hand CARD",
    "ask": "ask ASKER SEAT CARD yes|no",
}


def parse(text: str) -> Entry:
    """One entry from a typed line (a one-line :class:`InvalidObservationError` if it is not one)."""
    words = text.split()
    if not words:
        raise InvalidObservationError("empty entry: expected one of " + ", ".join(f"'{u}'" for u in USAGE.values()))
    verb, args = words[0].lower(), words[1:]
    if verb not in USAGE:
        raise UnknownEntryError(words[0], "(expected players, me, hand or ask)")
    usage = USAGE[verb]
    if not args:
        raise InvalidObservationError(f"{verb}: expected '{usage}'")
    if verb == "players":
        expect_end(args, 1, usage)
        return Players(parse_int(args[0], "players", 2, SEATS))
    if verb == "me":
        expect_end(args, 1, usage)
        return Me(parse_int(args[0], "me: seat", 1, SEATS))
    if verb == "hand":
        expect_end(args, 1, usage)
        return Hand(CARD_NAMES.resolve(args[0]))
    if len(args) < 4:
        raise InvalidObservationError(f"ask: expected '{usage}'")
    asker = parse_int(args[0], "ask: asker", 1, SEATS)
    seat = parse_int(args[1], "ask: seat", 1, SEATS)
    if seat == asker:
        raise InvalidObservationError(f"ask {asker} {seat}: a player asks another player, not themself")
    card = CARD_NAMES.resolve(args[2])
    answer = args[3].lower()
    if answer not in ("yes", "no"):
        raise InvalidObservationError(f"ask: answer '{args[3][:20]}': expected 'yes' or 'no'")
    expect_end(args, 4, usage)
    return Answer(asker, seat, card, answer == "yes")


__all__ = ["CARDS", "Answer", "Ask", "Entry", "Guess", "Hand", "Me", "Players", "parse"]
