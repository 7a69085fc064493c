"""Beyond Baker Street observations and actions: what one player sees and hears at the table, as values.

Each type prints as the line a user types (``str``) and :func:`parse` / :func:`parse_action` read it back, so
the CLI journal, the rules engine and the knowledge model speak one language. Seats are numbered 1..N
clockwise; hand positions 1..K from the left, a drawn card going to the right end (RULES-NOTES).

Cards are typed as number and icon, ``3W``, ``3w``, ``3Witness`` or ``3 Witness``; they print as ``3W``. Lead
cards likewise (``12S`` is not a thing: the letter is the icon, ``12W`` is the Suspect 12 Witness; the section
follows from the value). Sections and icons accept unique prefixes (``s`` = Suspect, ``w`` = Witness).

Parsing checks names and shapes only; whether an entry fits the game (seats, positions, what is visible) is
checked by the table model (:mod:`models.beyond_baker_street.table`), which knows the state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.beyond_baker_street.data import (
    CASE_FILES,
    HAND_SIZES,
    ICONS,
    LEAD_VALUES,
    NUMBERS,
    SECTIONS,
    Evidence,
    Lead,
    section_of,
)
from solver.errors import InvalidObservationError, UnknownEntryError
from solver.names import Names
from solver.parsing import Me, Players, Start, expect_end, is_whole, missing, parse_int, shown, split_entry

ICON_NAMES = Names(ICONS, "icon")
SECTION_NAMES = Names(SECTIONS, "lead section")

Subject = int | str  # an Evidence number (1-6) or an icon name


def subject_text(subject: Subject) -> str:
    return str(subject)


def subject_plural(subject: Subject) -> str:
    """How an Assist names it: "3s", "Clues", "Witnesses"."""
    if isinstance(subject, int):
        return f"{subject}s"
    return f"{subject}es" if subject.endswith("s") else f"{subject}s"


def matches(card: Evidence, subject: Subject) -> bool:
    """Whether an Assist about ``subject`` names ``card``."""
    return card.number == subject if isinstance(subject, int) else card.icon == subject


# -- setup ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """The Case File in play (1 to 6)."""

    number: int

    def __str__(self) -> str:
        return f"case {self.number}"


@dataclass(frozen=True)
class Hand:
    """Another player's starting hand as I see it, left to right."""

    seat: int
    cards: tuple[Evidence, ...]

    def __str__(self) -> str:
        return f"hand {self.seat} {' '.join(c.code for c in self.cards)}"


# -- during play (setup and play share LeadRevealed) -------------------------------------------------------


@dataclass(frozen=True)
class LeadRevealed:
    """A Lead card turned face up (at setup, and after a Dead Lead or a Pursue)."""

    lead: Lead

    def __str__(self) -> str:
        return f"lead {self.lead.code}"


@dataclass(frozen=True)
class Assisted:
    """``giver`` told ``target`` that the cards at ``positions`` are all their cards of ``subject``."""

    giver: int
    target: int
    subject: Subject
    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "positions", tuple(sorted(self.positions)))

    def __str__(self) -> str:
        return f"assist {self.giver} {self.target} {self.subject} at {' '.join(map(str, self.positions))}"


@dataclass(frozen=True)
class Investigated:
    """``seat`` played the card at ``position`` (now face up: ``card``) to the Lead of ``section``."""

    seat: int
    position: int
    card: Evidence
    section: str

    def __str__(self) -> str:
        return f"investigate {self.seat} {self.position} {self.card.code} {self.section}"


@dataclass(frozen=True)
class Eliminated:
    """``seat`` played the card at ``position`` (``card``) to the Impossible."""

    seat: int
    position: int
    card: Evidence

    def __str__(self) -> str:
        return f"eliminate {self.seat} {self.position} {self.card.code}"


@dataclass(frozen=True)
class Confirmed:
    """``seat`` confirmed the Lead of ``section``."""

    seat: int
    section: str

    def __str__(self) -> str:
        return f"confirm {self.seat} {self.section}"


@dataclass(frozen=True)
class Pursued:
    """``seat`` discarded the top Lead of ``section`` to the Impossible."""

    seat: int
    section: str

    def __str__(self) -> str:
        return f"pursue {self.seat} {self.section}"


@dataclass(frozen=True)
class Drew:
    """``seat`` drew a card to the right end of their hand; ``card`` is None when I cannot see it (my own)."""

    seat: int
    card: Evidence | None = None

    def __str__(self) -> str:
        return f"draw {self.seat}" + (f" {self.card.code}" if self.card else "")


Setup = Players | Me | Case | Start | Hand
Event = LeadRevealed | Assisted | Investigated | Eliminated | Confirmed | Pursued | Drew
Entry = Setup | Event

# -- actions: what the player to move does (the rules engine and the advisor speak these) -----------------


@dataclass(frozen=True)
class Assist:
    """Tell player ``target`` where all their cards of ``subject`` are."""

    target: int
    subject: Subject

    def __str__(self) -> str:
        return f"assist {self.target} {self.subject}"


@dataclass(frozen=True)
class Investigate:
    """Play my card at ``position`` to the Lead of ``section``."""

    position: int
    section: str

    def __str__(self) -> str:
        return f"investigate {self.position} {self.section}"


@dataclass(frozen=True)
class Eliminate:
    """Play my card at ``position`` to the Impossible."""

    position: int

    def __str__(self) -> str:
        return f"eliminate {self.position}"


@dataclass(frozen=True)
class Confirm:
    """Confirm the Lead of ``section``."""

    section: str

    def __str__(self) -> str:
        return f"confirm {self.section}"


@dataclass(frozen=True)
class Pursue:
    """Discard the top Lead of ``section`` to the Impossible and reveal the next."""

    section: str

    def __str__(self) -> str:
        return f"pursue {self.section}"


Action = Assist | Investigate | Eliminate | Confirm | Pursue

# -- parsing ----------------------------------------------------------------------------------------------

_CARD = re.compile(r"^([0-9]+)([a-z]*)$", re.IGNORECASE)
#: The ranges of the numbers an entry takes (the widest any table allows; the game checks its own table).
MIN_PLAYERS, MAX_PLAYERS = min(HAND_SIZES), max(HAND_SIZES)
RANGES: dict[str, tuple[int, int]] = {
    "players": (MIN_PLAYERS, MAX_PLAYERS),
    "seat": (1, 99),  # any plausible seat: the table names a seat it does not have ("there is no player 5")
    "case": (min(CASE_FILES), max(CASE_FILES)),
    "position": (1, 99),  # the table checks a position against the hand it names ("player 3 holds 4 cards")
}
LEAD_RANGE = (min(v for vs in LEAD_VALUES.values() for v in vs), max(v for vs in LEAD_VALUES.values() for v in vs))


def _positive(token: str, what: str) -> int:
    """A players count, seat, case number or hand position (``what``), in its range."""
    return parse_int(token, what, *RANGES[what])


def _need(tokens: list[str], i: int, usage: str) -> str:
    if i >= len(tokens):
        missing(usage)
    return tokens[i]


def _number_icon(tokens: list[str], i: int, what: str, usage: str, lo: int, hi: int) -> tuple[int, str, int]:
    """Read ``3W`` / ``3 Witness`` starting at ``tokens[i]``, its number from ``lo`` to ``hi``; returns number,
    icon and the next index."""
    token = _need(tokens, i, usage)
    m = _CARD.match(token)
    if not m:
        raise InvalidObservationError(f"{what} '{token}': expected a number and an icon, like 3W or '3 Witness'")
    number, letters = parse_int(m.group(1), f"{what} '{shown(token)}': number", lo, hi), m.group(2)
    if letters:
        return number, ICON_NAMES.resolve(letters), i + 1
    icon_token = _need(tokens, i + 1, usage)
    return number, ICON_NAMES.resolve(icon_token), i + 2


def take_evidence(tokens: list[str], i: int, usage: str = "CARD") -> tuple[Evidence, int]:
    number, icon, j = _number_icon(tokens, i, "evidence card", usage, min(NUMBERS), max(NUMBERS))
    return Evidence(number, icon), j


def take_lead(tokens: list[str], i: int, usage: str = "LEAD") -> tuple[Lead, int]:
    value, icon, j = _number_icon(tokens, i, "lead card", usage, *LEAD_RANGE)
    try:
        section_of(value)
    except ValueError:
        raise InvalidObservationError(f"lead card '{value}{icon[0]}': lead values go from 7 to 13") from None
    return Lead(value, icon), j


def parse_evidence(text: str) -> Evidence:
    tokens = text.split()
    card, i = take_evidence(tokens, 0)
    expect_end(tokens, i, "CARD")
    return card


def parse_subject(token: str) -> Subject:
    """An Assist subject: a number 1-6 or an icon; plurals ("3s", "Clues", "Witnesses") are accepted."""
    text = token.strip()
    low = text.lower()
    for candidate in (low, low[:-1] if low.endswith("s") else None, low[:-2] if low.endswith("es") else None):
        if not candidate:
            continue
        if is_whole(candidate):
            number = parse_int(candidate, "assist subject", min(NUMBERS), max(NUMBERS))
            if number not in NUMBERS:
                raise InvalidObservationError(f"assist subject '{token}': numbers go from 1 to 6")
            return number
        if candidate in ICON_NAMES:
            return ICON_NAMES.resolve(candidate)
    try:
        return ICON_NAMES.resolve(text)
    except InvalidObservationError as exc:
        raise InvalidObservationError(f"{exc}; an Assist names a number 1-6 or an icon ({', '.join(ICONS)})") from None


def parse(line: str) -> Entry:
    """Read one entry line (comments after '#' are ignored)."""
    first, args = split_entry(line)
    verb = first.lower()
    simple = {"players": (Players, "players N"), "me": (Me, "me SEAT"), "case": (Case, "case N"),
              "start": (Start, "start SEAT")}
    if verb in simple:
        cls, usage = simple[verb]
        token = _need(args, 0, usage)  # the Case File's range is the game data's to check
        what = {"players": "players", "case": "case"}.get(verb, "seat")
        value = parse_int(token, what, -999, 999) if verb == "case" else _positive(token, what)
        expect_end(args, 1, usage)
        return cls(value)
    if verb == "hand":
        usage = "hand SEAT CARD CARD ..."
        seat = _positive(_need(args, 0, usage), "seat")
        cards = []
        i = 1
        while i < len(args):
            card, i = take_evidence(args, i, usage)
            cards.append(card)
        if not cards:
            raise InvalidObservationError(f"hand {seat}: expected the cards left to right, like 'hand {seat} 3W 5C'")
        return Hand(seat, tuple(cards))
    if verb == "lead":
        usage = "lead VALUE+ICON (e.g. lead 12W)"
        lead, i = take_lead(args, 0, usage)
        expect_end(args, i, usage)
        return LeadRevealed(lead)
    if verb in ("assist", "hint"):
        return _parse_assisted(args)
    if verb in ("investigate", "inv"):
        usage = "investigate SEAT POSITION CARD SECTION"
        seat = _positive(_need(args, 0, usage), "seat")
        position = _positive(_need(args, 1, usage), "position")
        card, i = take_evidence(args, 2, usage)
        section = SECTION_NAMES.resolve(_need(args, i, usage))
        expect_end(args, i + 1, usage)
        return Investigated(seat, position, card, section)
    if verb in ("eliminate", "elim"):
        usage = "eliminate SEAT POSITION CARD"
        seat = _positive(_need(args, 0, usage), "seat")
        position = _positive(_need(args, 1, usage), "position")
        card, i = take_evidence(args, 2, usage)
        expect_end(args, i, usage)
        return Eliminated(seat, position, card)
    if verb in ("confirm", "pursue"):
        usage = f"{verb} SEAT SECTION"
        seat = _positive(_need(args, 0, usage), "seat")
        section = SECTION_NAMES.resolve(_need(args, 1, usage))
        expect_end(args, 2, usage)
        return (Confirmed if verb == "confirm" else Pursued)(seat, section)
    if verb == "draw":
        usage = "draw SEAT [CARD]"
        seat = _positive(_need(args, 0, usage), "seat")
        if len(args) == 1:
            return Drew(seat, None)
        card, i = take_evidence(args, 1, usage)
        expect_end(args, i, usage)
        return Drew(seat, card)
    raise UnknownEntryError(first, "(expected players, me, case, start, hand, lead, assist, investigate, "
                                   "eliminate, confirm, pursue or draw)")


def _parse_assisted(args: list[str]) -> Assisted:
    usage = "assist GIVER TARGET NUMBER|ICON at POSITION ..."
    giver = _positive(_need(args, 0, usage), "seat")
    target = _positive(_need(args, 1, usage), "seat")
    subject = parse_subject(_need(args, 2, usage))
    rest = args[3:]
    if rest and rest[0].lower() == "at":
        rest = rest[1:]
    if not rest:
        raise InvalidObservationError(
            f"assist {giver} {target} {subject}: which positions? expected '{usage}' (an Assist never names none)"
        )
    positions = tuple(_positive(tok, "position") for tok in rest)
    if len(set(positions)) != len(positions):
        raise InvalidObservationError(f"assist {giver} {target} {subject}: a position is named twice")
    return Assisted(giver, target, subject, tuple(sorted(positions)))


def parse_action(line: str) -> Action:
    """Read an action of the player to move (``assist 2 Clue``, ``investigate 3 Suspect``, ...)."""
    first, args = split_entry(line, "action")
    verb = first.lower()
    if verb in ("assist", "hint"):
        usage = "assist SEAT NUMBER|ICON"
        target = _positive(_need(args, 0, usage), "seat")
        subject = parse_subject(_need(args, 1, usage))
        expect_end(args, 2, usage)
        return Assist(target, subject)
    if verb in ("investigate", "inv"):
        usage = "investigate POSITION SECTION"
        position = _positive(_need(args, 0, usage), "position")
        section = SECTION_NAMES.resolve(_need(args, 1, usage))
        expect_end(args, 2, usage)
        return Investigate(position, section)
    if verb in ("eliminate", "elim"):
        usage = "eliminate POSITION"
        position = _positive(_need(args, 0, usage), "position")
        expect_end(args, 1, usage)
        return Eliminate(position)
    if verb in ("confirm", "pursue"):
        usage = f"{verb} SECTION"
        section = SECTION_NAMES.resolve(_need(args, 0, usage))
        expect_end(args, 1, usage)
        return Confirm(section) if verb == "confirm" else Pursue(section)
    raise InvalidObservationError(
        f"unknown action '{first}' (expected assist, investigate, eliminate, confirm or pursue)"
    )
