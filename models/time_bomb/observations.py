"""Time Bomb Evolution observations and actions: what one player sees and hears at the table, as values.

Each type prints as the line a user types (``str``) and :func:`parse` reads it back, so the CLI journal, the
rules engine and the knowledge model speak one language. Seats are numbered 1..N clockwise; "left" is the
next seat up (seat N's left is seat 1). Parsing checks names and shapes only; whether an entry fits the game
(seat numbers, hand sizes, whose turn) is checked by the rules tracker (:class:`models.time_bomb.rules.Table`).

Setup: ``players N``, ``me SEAT``, ``role sherlock|moriarty``, ``start SEAT`` (who holds the cutter first) and
``hand CARD ...`` (my first hand). During play: ``claim SEAT K`` (SEAT says they hold K defusing cards),
``cut SEAT CARD`` (the cutter cut SEAT's card and it was CARD), ``cover COLOUR`` / ``uncover COLOUR`` (the
cutter's choice after a defusing, yellow or blue card), ``draw K`` (the red bomb's numbered card) and
``redeal CARD ...`` (my new hand after a round). Cards are ``defuse`` or a colour; prefixes work (``def``,
``pi``), and ``2xred`` or ``red*2`` repeat a card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.time_bomb.data import COLOURS, DEFAULT_DATA, DEFUSE, ROLE_CARDS, ROLES
from solver.errors import InvalidObservationError, UnknownEntryError
from solver.names import Names
from solver.parsing import Me, Players, Start, parse_int, shown, split_entry

CARD_NAMES = Names([DEFUSE, *COLOURS], "card", table="card")  # a mistyped card: the table's cards suggested
COLOUR_NAMES = Names(COLOURS, "colour", table="colour")  # cover / uncover: the bomb colours in play
BOMB_COLOURS = Names(COLOURS, "colour")  # the 'colours' entry, which chooses among them all
ROLE_NAMES = Names(ROLES, "role")


def _sorted_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    order = [DEFUSE, *COLOURS]
    return tuple(sorted(cards, key=order.index))


@dataclass(frozen=True)
class Role:
    """My role card (setup)."""

    role: str

    def __str__(self) -> str:
        return f"role {self.role}"


@dataclass(frozen=True)
class Colours:
    """The bomb colours in play (setup; RULES-NOTES: by default the first N of pink, red, blue, green, yellow,
    orange, the rulebook's example), in the order the table names them."""

    colours: tuple[str, ...]

    def __str__(self) -> str:
        return f"colours {' '.join(self.colours)}"


@dataclass(frozen=True)
class Hand:
    """My cable cards for the first round (setup); stored sorted, defusing cards first."""

    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_cards(self.cards))

    def __str__(self) -> str:
        return f"hand {' '.join(self.cards)}"


@dataclass(frozen=True)
class Redeal:
    """My cable cards for the next round, after the remaining cards were collected and dealt again."""

    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_cards(self.cards))

    def __str__(self) -> str:
        return f"redeal {' '.join(self.cards)}" if self.cards else "redeal none"


@dataclass(frozen=True)
class Claim:
    """Player ``seat`` says they hold ``defusers`` defusing cards now (the rest bombs): soft evidence."""

    seat: int
    defusers: int

    def __str__(self) -> str:
        return f"claim {self.seat} {self.defusers}"


@dataclass(frozen=True)
class Cut:
    """The player holding the cutter cut one of ``seat``'s cards, and it was ``card`` (public)."""

    seat: int
    card: str

    def __str__(self) -> str:
        return f"cut {self.seat} {self.card}"


@dataclass(frozen=True)
class Cover:
    """The cutter placed the defusing (or yellow) card on ``colour``; an action and an observation."""

    colour: str

    def __str__(self) -> str:
        return f"cover {self.colour}"


@dataclass(frozen=True)
class Uncover:
    """The cutter of a blue bomb removed the cover from ``colour``; an action and an observation."""

    colour: str

    def __str__(self) -> str:
        return f"uncover {self.colour}"


@dataclass(frozen=True)
class Draw:
    """The cutter of a red bomb drew numbered card ``number``: the extra cut is the number-th player to the
    left (0: the cutter)."""

    number: int

    def __str__(self) -> str:
        return f"draw {self.number}"


Setup = Players | Me | Role | Start | Hand | Colours
Observation = Claim | Cut | Cover | Uncover | Draw | Redeal
Entry = Setup | Observation


# -- actions: what the player to move decides (the rules engine and the advisor speak these) ---------------


@dataclass(frozen=True)
class Target:
    """Cut one (random, face-down) card of player ``seat``."""

    seat: int

    def __str__(self) -> str:
        return f"target {self.seat}"


@dataclass(frozen=True)
class Say:
    """Announce how many defusing cards I hold (truly or not)."""

    defusers: int

    def __str__(self) -> str:
        return f"say {self.defusers}"


Action = Target | Say | Cover | Uncover

_REPEAT = re.compile(r"^(?:([0-9]+)[x*](.+)|(.+?)[x*]([0-9]+))$", re.IGNORECASE)
MIN_PLAYERS, MAX_PLAYERS = min(ROLE_CARDS), max(ROLE_CARDS)
HAND_SIZE_MAX = max(DEFAULT_DATA.hand_sizes)  # the first round's hand


def _seat(token: str) -> int:
    """A seat number: 1 to the most players a table can have (the setup checks it against this table)."""
    return parse_int(token, "seat", 1, MAX_PLAYERS)


def _defusers(token: str) -> int:
    """A number of defusing cards claimed: 0 to the largest hand."""
    return parse_int(token, "defusers", 0, HAND_SIZE_MAX)


def _cards(tokens: list[str], what: str) -> tuple[str, ...]:
    if len(tokens) == 1 and tokens[0].lower() in ("none", "-"):
        return ()
    out: list[str] = []
    for token in tokens:
        match = _REPEAT.match(token)
        if match:
            times = parse_int(match.group(1) or match.group(4), f"{what} '{shown(token)}': repeat", 1, HAND_SIZE_MAX)
            name = match.group(2) or match.group(3)
            out += [CARD_NAMES.resolve(name)] * times
        else:
            out.append(CARD_NAMES.resolve(token))
    if not out:
        raise InvalidObservationError(f"{what}: expected at least one card (or 'none')")
    return tuple(out)


def colours_of(tokens: list[str]) -> tuple[str, ...]:
    """Bomb colours named once each (prefixes work; commas may separate them)."""
    words = [w for token in tokens for w in token.split(",") if w]
    if not words:
        raise InvalidObservationError(f"colours: expected the bomb colours in play, e.g. 'colours "
                                      f"{' '.join(COLOURS[:5])}'")
    out = tuple(BOMB_COLOURS.resolve(w) for w in words)
    twice = sorted({c for c in out if out.count(c) > 1})
    if twice:
        raise InvalidObservationError(f"colours {' '.join(words)}: {', '.join(twice)} named twice; expected each "
                                      "colour once")
    return out


def _done(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        got = " ".join(args) or "nothing"
        raise InvalidObservationError(f"got '{got}': expected '{usage}'")


def parse(line: str) -> Entry:
    """Read one entry line (comments after '#' are ignored)."""
    first, args = split_entry(line)
    verb = first.lower()
    if verb == "players":
        _done(args, 1, "players N")
        return Players(parse_int(args[0], "players", MIN_PLAYERS, MAX_PLAYERS))
    if verb == "me":
        _done(args, 1, "me SEAT")
        return Me(_seat(args[0]))
    if verb == "role":
        _done(args, 1, "role sherlock|moriarty")
        return Role(ROLE_NAMES.resolve(args[0]))
    if verb == "start":
        _done(args, 1, "start SEAT")
        return Start(_seat(args[0]))
    if verb == "hand":
        return Hand(_cards(args, "hand"))
    if verb in ("colours", "colors"):
        return Colours(colours_of(args))
    if verb == "redeal":
        if not args:
            raise InvalidObservationError("redeal: expected my new cards, e.g. 'redeal defuse red blue green'")
        return Redeal(_cards(args, "redeal"))
    if verb == "claim":
        _done(args, 2, "claim SEAT DEFUSERS")
        count = _defusers(args[1])
        return Claim(_seat(args[0]), count)
    if verb == "cut":
        _done(args, 2, "cut SEAT CARD")
        return Cut(_seat(args[0]), CARD_NAMES.resolve(args[1]))
    if verb == "cover":
        _done(args, 1, "cover COLOUR")
        return Cover(COLOUR_NAMES.resolve(args[0]))
    if verb == "uncover":
        _done(args, 1, "uncover COLOUR")
        return Uncover(COLOUR_NAMES.resolve(args[0]))
    if verb == "draw":
        _done(args, 1, "draw NUMBER")
        return Draw(parse_int(args[0], "number", 0, MAX_PLAYERS - 1))
    raise UnknownEntryError(first, "(expected players, me, role, start, hand, claim, cut, cover, uncover, draw "
                                   "or redeal)")


def parse_action(line: str) -> Action:
    """Read an action (``target SEAT``, ``say K``, ``cover COLOUR``, ``uncover COLOUR``)."""
    first, args = split_entry(line, "action")
    verb = first.lower()
    if verb == "target":
        _done(args, 1, "target SEAT")
        return Target(_seat(args[0]))
    if verb == "say":
        _done(args, 1, "say DEFUSERS")
        return Say(_defusers(args[0]))
    if verb in ("cover", "uncover"):
        entry = parse(line)
        assert isinstance(entry, Cover | Uncover)
        return entry
    raise InvalidObservationError(f"unknown action '{first}': expected target, say, cover or uncover")
