"""Thirteen Clues observations: what one player sees and hears at the table, as values.

Each type prints as the line a user types (``str``) and :func:`parse` reads it back, so the CLI journal, the
rules engine and the knowledge model speak one language. Seats are numbered 1..N clockwise. Parsing checks
names and shapes; whether an observation fits the game (cards in play, seats, counts) is checked by the
knowledge model, which knows the setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.thirteen_clues.data import (
    ALL_CARDS,
    CARD_BY_NAME,
    CATEGORIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUBCATEGORIES,
    SUITS,
)
from solver.errors import InvalidObservationError, UnknownEntryError
from solver.names import Names
from solver.parsing import Me, Players, expect_end, missing, parse_int, split_entry

CARD_NAMES = Names(CARD_BY_NAME, "card")
SUBJECT_NAMES = Names(
    [*SUITS, *CATEGORIES, *(s for pair in SUBCATEGORIES.values() for s in pair)], "suit or category"
)
SIDES = ("left", "right")


@dataclass(frozen=True)
class Subcategories:
    """House rule: witness questions may name a sub-category (male/female, indoor/outdoor, close/ranged)."""

    enabled: bool = True

    def __str__(self) -> str:
        return f"subcategories {'on' if self.enabled else 'off'}"


@dataclass(frozen=True)
class Private:
    """My two private cards, left then right (setup)."""

    cards: tuple[str, str]

    def __str__(self) -> str:
        return f"private {' '.join(self.cards)}"


@dataclass(frozen=True)
class Screen:
    """Another player's screen: the mystery I can see (setup), stored as Person, Location, Weapon."""

    seat: int
    cards: tuple[str, str, str]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.cards, key=lambda c: CATEGORIES.index(CARD_BY_NAME[c].category)))
        object.__setattr__(self, "cards", ordered)

    def __str__(self) -> str:
        return f"screen {self.seat} {' '.join(self.cards)}"


@dataclass(frozen=True)
class Witness:
    """Player ``seat`` answered that they see ``count`` cards of ``subject`` (a suit, category or
    sub-category); in two-player games ``side`` says which private card was counted."""

    seat: int
    subject: str
    count: int
    side: str | None = None

    def __str__(self) -> str:
        side = f" {self.side}" if self.side else ""
        return f"ask {self.seat} {self.subject}{side} {self.count}"


@dataclass(frozen=True)
class InformantLook:
    """I looked at Secret Informant ``letter`` and saw ``card``."""

    letter: str
    card: str

    def __str__(self) -> str:
        return f"informant {self.letter} {self.card}"


@dataclass(frozen=True)
class InformantBy:
    """Player ``seat`` looked at Secret Informant ``letter`` (I do not see the card)."""

    letter: str
    seat: int

    def __str__(self) -> str:
        return f"informant {self.letter} by {self.seat}"


@dataclass(frozen=True)
class Accusation:
    """Player ``seat`` accused (person, location, weapon); ``correct`` is the answer they got."""

    seat: int
    person: str
    location: str
    weapon: str
    correct: bool

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.person, self.location, self.weapon)

    def __str__(self) -> str:
        return f"accuse {self.seat} {self.person} {self.location} {self.weapon} {'right' if self.correct else 'wrong'}"


Setup = Players | Me | Private | Screen | Subcategories
Observation = Witness | InformantLook | InformantBy | Accusation
Entry = Setup | Observation


def _seat(token: str) -> int:
    """A seat number: 1 to the most players a table can have (the setup checks it against this table)."""
    return parse_int(token, "seat", 1, MAX_PLAYERS)


def _cards(tokens: list[str], start: int, n: int, what: str) -> tuple[list[str], int]:
    out = []
    i = start
    for _ in range(n):
        if i >= len(tokens):
            raise InvalidObservationError(f"{what}: expected {n} cards, got {len(out)}")
        card, i = CARD_NAMES.take(tokens, i)
        out.append(card)
    return out, i


def parse(line: str) -> Entry:
    """Read one entry line (comments after '#' are ignored)."""
    first, args = split_entry(line)
    verb = first.lower()
    if verb == "players":
        expect_end(args, 1 if args else 0, "players N")
        return Players(parse_int(args[0], "players", MIN_PLAYERS, MAX_PLAYERS) if args else missing("players N"))
    if verb == "me":
        expect_end(args, 1 if args else 0, "me SEAT")
        return Me(_seat(args[0]) if args else missing("me SEAT"))
    if verb == "subcategories":
        value = args[0].lower() if args else "on"
        if value not in ("on", "off") or len(args) > 1:
            raise InvalidObservationError(f"subcategories '{' '.join(args)}': expected 'on' or 'off'")
        return Subcategories(value == "on")
    if verb == "private":
        cards, i = _cards(args, 0, 2, "private")
        expect_end(args, i, "private CARD CARD")
        return Private((cards[0], cards[1]))
    if verb == "screen":
        if not args:
            missing("screen SEAT PERSON LOCATION WEAPON")
        seat = _seat(args[0])
        cards, i = _cards(args, 1, 3, "screen")
        expect_end(args, i, "screen SEAT PERSON LOCATION WEAPON")
        cats = sorted(CARD_BY_NAME[c].category for c in cards)
        if cats != sorted(CATEGORIES):
            raise InvalidObservationError(
                f"screen {seat} {' '.join(cards)}: expected one Person, one Location and one Weapon"
            )
        return Screen(seat, (cards[0], cards[1], cards[2]))
    if verb in ("ask", "witness", "sees"):
        return _parse_witness(args)
    if verb in ("informant", "inf"):
        return _parse_informant(args)
    if verb in ("accuse", "accusation"):
        return _parse_accusation(args)
    raise UnknownEntryError(first)


def _parse_witness(args: list[str]) -> Witness:
    usage = "ask SEAT SUIT|CATEGORY [left|right] COUNT"
    if len(args) < 3:
        raise InvalidObservationError(f"ask {' '.join(args)}: expected '{usage}'")
    seat = _seat(args[0])
    subject, i = SUBJECT_NAMES.take(args, 1)
    side = None
    if i < len(args) and args[i].lower() in SIDES:
        side = args[i].lower()
        i += 1
    if i >= len(args):
        raise InvalidObservationError(f"ask {' '.join(args)}: missing the count, expected '{usage}'")
    count = parse_int(args[i], "count", 0, len(ALL_CARDS))
    expect_end(args, i + 1, usage)
    return Witness(seat, subject, count, side)


def _parse_informant(args: list[str]) -> InformantLook | InformantBy:
    usage = "informant LETTER CARD  or  informant LETTER by SEAT"
    if len(args) < 2:
        raise InvalidObservationError(f"informant {' '.join(args)}: expected '{usage}'")
    letter = args[0].upper()
    if len(letter) != 1 or not letter.isalpha():
        raise InvalidObservationError(f"informant letter '{args[0]}': expected one letter A, B, C, ...")
    if args[1].lower() == "by":
        if len(args) != 3:
            raise InvalidObservationError(f"informant {' '.join(args)}: expected '{usage}'")
        return InformantBy(letter, _seat(args[2]))
    card, i = CARD_NAMES.take(args, 1)
    expect_end(args, i, usage)
    return InformantLook(letter, card)


def _parse_accusation(args: list[str]) -> Accusation:
    usage = "accuse SEAT PERSON LOCATION WEAPON wrong|right"
    if len(args) < 5:
        raise InvalidObservationError(f"accuse {' '.join(args)}: expected '{usage}'")
    seat = _seat(args[0])
    cards, i = _cards(args, 1, 3, "accuse")
    by_cat = {CARD_BY_NAME[c].category: c for c in cards}
    if len(by_cat) != 3:
        raise InvalidObservationError(
            f"accuse {' '.join(cards)}: expected one Person, one Location and one Weapon"
        )
    if i >= len(args) or args[i].lower() not in ("wrong", "right", "correct", "no", "yes"):
        raise InvalidObservationError(f"accuse: expected 'wrong' or 'right' after the three cards, '{usage}'")
    correct = args[i].lower() in ("right", "correct", "yes")
    expect_end(args, i + 1, usage)
    return Accusation(seat, by_cat["Person"], by_cat["Location"], by_cat["Weapon"], correct)


# -- actions: what the player to move does (the rules engine and the advisor speak these) -----------------


@dataclass(frozen=True)
class Ask:
    """Question a witness: ask ``seat`` how many ``subject`` cards they see (two players: name a side)."""

    seat: int
    subject: str
    side: str | None = None

    def __str__(self) -> str:
        return f"ask {self.seat} {self.subject}" + (f" {self.side}" if self.side else "")


@dataclass(frozen=True)
class Consult:
    """Consult Secret Informant ``letter``."""

    letter: str

    def __str__(self) -> str:
        return f"consult {self.letter}"


@dataclass(frozen=True)
class Accuse:
    """Accuse: name a Person, a Location and a Weapon as my own mystery."""

    person: str
    location: str
    weapon: str

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.person, self.location, self.weapon)

    def __str__(self) -> str:
        return f"accuse {self.person} {self.location} {self.weapon}"


@dataclass(frozen=True)
class TakeGlass:
    """At the start of a turn with no glass and an empty supply: take a glass from ``seat``."""

    seat: int

    def __str__(self) -> str:
        return f"take {self.seat}"


Action = Ask | Consult | Accuse | TakeGlass


def parse_action(line: str) -> Action:
    """Read an action as :meth:`Ask.__str__` and friends print it: ``ask 3 Red``, ``ask 2 Red left``,
    ``consult C``, ``accuse Butcher Park Sword``, ``take 3``."""
    first, args = split_entry(line, "action")
    verb = first.lower()
    if verb == "ask":
        usage = "ask SEAT SUIT|CATEGORY [left|right]"
        if len(args) < 2:
            raise InvalidObservationError(f"ask {' '.join(args)}: expected '{usage}'")
        subject, i = SUBJECT_NAMES.take(args, 1)
        side = args[i].lower() if i < len(args) and args[i].lower() in SIDES else None
        expect_end(args, i + (side is not None), usage)
        return Ask(_seat(args[0]), subject, side)
    if verb == "consult" and len(args) == 1 and len(args[0]) == 1 and args[0].isalpha():
        return Consult(args[0].upper())
    if verb == "accuse":
        cards, i = _cards(args, 0, 3, "accuse")
        expect_end(args, i, "accuse PERSON LOCATION WEAPON")
        by_cat = {CARD_BY_NAME[c].category: c for c in cards}
        if len(by_cat) != 3:
            raise InvalidObservationError(f"accuse {' '.join(cards)}: expected one Person, one Location and one Weapon")
        return Accuse(by_cat["Person"], by_cat["Location"], by_cat["Weapon"])
    if verb == "take" and len(args) == 1:
        return TakeGlass(_seat(args[0]))
    raise InvalidObservationError(
        f"unknown action '{line.strip()}': expected 'ask SEAT SUBJECT [side]', 'consult LETTER', "
        "'accuse PERSON LOCATION WEAPON' or 'take SEAT'"
    )
