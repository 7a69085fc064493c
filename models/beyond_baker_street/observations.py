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
from functools import lru_cache
from typing import TypeVar

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


# -- Character cards (RULES-NOTES "Beyond Baker Street Characters"; data in :mod:`...data`) ---------------


@dataclass(frozen=True)
class CharacterCard:
    """Setup: player ``seat`` plays the Character called ``name``."""

    seat: int
    name: str

    def __str__(self) -> str:
        return f"character {self.seat} {self.name}"


@dataclass(frozen=True)
class Advanced:
    """``seat`` used their action to move Holmes away from 0 (Irene Adler)."""

    seat: int

    def __str__(self) -> str:
        return f"advance {self.seat}"


@dataclass(frozen=True)
class DoubleAssisted:
    """Two Assists as one action (Lady Hilda Hope): Holmes moves once."""

    first: Assisted
    second: Assisted

    @property
    def giver(self) -> int:
        return self.first.giver

    def __str__(self) -> str:
        b = self.second
        return f"{self.first} and {b.target} {b.subject} at {' '.join(map(str, b.positions))}"


@dataclass(frozen=True)
class Exchanged:
    """``seat`` swapped ``out`` (an Evidence card in the Impossible) with ``card`` (on a Lead): Baskerville."""

    seat: int
    out: Evidence
    card: Evidence

    def __str__(self) -> str:
        return f"exchange {self.seat} {self.out.code} {self.card.code}"


@dataclass(frozen=True)
class HandSwapped:
    """``seat`` gave their card at ``position`` (``given``) to ``target`` for theirs at ``target_position``
    (``taken``), each card taking the other's place (Langdale Pike). Both cards are known to everyone then:
    each player saw the card they receive in the other's hand, and sees the card they gave in it afterwards."""

    seat: int
    position: int
    target: int
    target_position: int
    given: Evidence
    taken: Evidence

    def __str__(self) -> str:
        return (f"swap {self.seat} {self.position} {self.target} {self.target_position} {self.given.code} "
                f"{self.taken.code}")


@dataclass(frozen=True)
class Returned:
    """``seat`` returned ``card`` from the Impossible to the deck, shuffled (Mrs Hudson)."""

    seat: int
    card: Evidence

    def __str__(self) -> str:
        return f"return {self.seat} {self.card.code}"


@dataclass(frozen=True)
class Peeked:
    """``seat`` looked at the top card of the deck (``card``: None unless I am that player) and put it back on
    top or at the bottom (Toby); where it went is seen by everyone."""

    seat: int
    card: Evidence | None
    bottom: bool

    def __str__(self) -> str:
        card = f" {self.card.code}" if self.card else ""
        return f"peek {self.seat}{card} {'bottom' if self.bottom else 'top'}"


@dataclass(frozen=True)
class Buried:
    """After Lady Eva Blackwell drew two, ``seat`` (on her right) put the one she does not keep face down at the
    bottom of the deck; ``card`` is None unless I am that player (or can tell it)."""

    seat: int
    card: Evidence | None = None

    def __str__(self) -> str:
        return f"bury {self.seat}" + (f" {self.card.code}" if self.card else "")


Setup = Players | Me | Case | Start | Hand | CharacterCard
Event = (LeadRevealed | Assisted | Investigated | Eliminated | Confirmed | Pursued | Drew | Advanced | DoubleAssisted
         | Exchanged | HandSwapped | Returned | Peeked | Buried)
Entry = Setup | Event

#: Kinds of entries the knowledge, the board and the rules engine tell apart on every entry, as tuples:
#: ``isinstance(e, A | B)`` builds the union anew at each call (about three times the cost of a tuple's check).
SETUP_KINDS = (Players, Me, Case, Start, Hand, CharacterCard)  # the setup lines (:data:`Setup`)
ASSISTED = (Assisted, DoubleAssisted)
PLAYED = (Investigated, Eliminated)
FOLLOW_UPS = (LeadRevealed, Drew, Buried)  # what the table waits for before the next action
CHARACTER_EVENTS = (Advanced, Exchanged, HandSwapped, Returned, Peeked)

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


@dataclass(frozen=True)
class Advance:
    """Irene Adler: move Holmes away from 0."""

    def __str__(self) -> str:
        return "advance"


@dataclass(frozen=True)
class DoubleAssist:
    """Lady Hilda Hope: two Assists as one action."""

    first: Assist
    second: Assist

    def __str__(self) -> str:
        return f"{self.first} and {self.second.target} {self.second.subject}"


@dataclass(frozen=True)
class Exchange:
    """Sir Henry Baskerville: swap ``out`` (in the Impossible) with ``card`` (on a Lead)."""

    out: Evidence
    card: Evidence

    def __str__(self) -> str:
        return f"exchange {self.out.code} {self.card.code}"


@dataclass(frozen=True)
class SwapCards:
    """Langdale Pike: my card at ``position`` for ``target``'s at ``target_position``."""

    position: int
    target: int
    target_position: int

    def __str__(self) -> str:
        return f"swap {self.position} {self.target} {self.target_position}"


@dataclass(frozen=True)
class ReturnCard:
    """Mrs Hudson: ``card`` from the Impossible back into the deck."""

    card: Evidence

    def __str__(self) -> str:
        return f"return {self.card.code}"


@dataclass(frozen=True)
class Peek:
    """Toby: look at the top card of the deck (then :class:`Place` it)."""

    def __str__(self) -> str:
        return "peek"


@dataclass(frozen=True)
class Place:
    """Toby, after a Peek: the card goes back on top or to the bottom."""

    bottom: bool

    def __str__(self) -> str:
        return f"place {'bottom' if self.bottom else 'top'}"


@dataclass(frozen=True)
class Keep:
    """The player on Lady Eva Blackwell's right: she keeps ``card`` of the two she drew."""

    card: Evidence

    def __str__(self) -> str:
        return f"keep {self.card.code}"


Action = (Assist | Investigate | Eliminate | Confirm | Pursue | Advance | DoubleAssist | Exchange | SwapCards
          | ReturnCard | Peek | Place | Keep)

PLAYS = (Investigate, Eliminate)  # the actions that play a card from the hand (as tuples: see SETUP_KINDS)
ANSWERS = (Keep, Place)  # the choices a Character's action waits for

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


A = TypeVar("A")


@lru_cache(maxsize=4096, typed=True)
def shared(cls: type[A], *fields: object) -> A:
    """The one shared instance of the value ``cls(*fields)`` (an action): actions are frozen values, so sharing
    one is safe, and the legal actions and the advice build the same few dozen of them every turn."""
    return cls(*fields)


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
        token = _need(args, 0, usage)  # a table's own Case Files come from its session (table_ranges)
        what = {"players": "players", "case": "case"}.get(verb, "seat")
        # A Case File is read in any range and checked by the game data (which may add Case Files); the error
        # for a token that is no number names the data's range (the session's table_ranges).
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
        # The Lead may come before the card: at the table it is chosen first, the card seen as it lands (a card
        # always starts with its number, a Lead's name never does).
        usage = "investigate SEAT POSITION CARD SECTION (or SECTION CARD)"
        seat = _positive(_need(args, 0, usage), "seat")
        position = _positive(_need(args, 1, usage), "position")
        if _need(args, 2, usage)[:1].isdigit():
            card, i = take_evidence(args, 2, usage)
            section = SECTION_NAMES.resolve(_need(args, i, usage))
            expect_end(args, i + 1, usage)
        else:
            section = SECTION_NAMES.resolve(args[2])
            card, i = take_evidence(args, 3, usage)
            expect_end(args, i, usage)
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
    if verb == "character":
        usage = "character SEAT NAME"
        seat = _positive(_need(args, 0, usage), "seat")
        name = " ".join(args[1:])
        if not name:
            missing(usage)
        return CharacterCard(seat, name)  # the game data resolves the name
    if verb == "advance":
        usage = "advance SEAT"
        seat = _positive(_need(args, 0, usage), "seat")
        expect_end(args, 1, usage)
        return Advanced(seat)
    if verb == "exchange":
        usage = "exchange SEAT IMPOSSIBLE-CARD LEAD-CARD"
        seat = _positive(_need(args, 0, usage), "seat")
        out, i = take_evidence(args, 1, usage)
        card, i = take_evidence(args, i, usage)
        expect_end(args, i, usage)
        return Exchanged(seat, out, card)
    if verb == "swap":
        usage = "swap SEAT POSITION TARGET TARGET-POSITION GIVEN TAKEN"
        seat = _positive(_need(args, 0, usage), "seat")
        position = _positive(_need(args, 1, usage), "position")
        target = _positive(_need(args, 2, usage), "seat")
        target_position = _positive(_need(args, 3, usage), "position")
        given, i = take_evidence(args, 4, usage)
        taken, i = take_evidence(args, i, usage)
        expect_end(args, i, usage)
        return HandSwapped(seat, position, target, target_position, given, taken)
    if verb == "return":
        usage = "return SEAT CARD"
        seat = _positive(_need(args, 0, usage), "seat")
        card, i = take_evidence(args, 1, usage)
        expect_end(args, i, usage)
        return Returned(seat, card)
    if verb == "peek":
        usage = "peek SEAT [CARD] top|bottom"
        seat = _positive(_need(args, 0, usage), "seat")
        seen: Evidence | None = None
        i = 1
        if len(args) > 2:
            seen, i = take_evidence(args, 1, usage)
        return Peeked(seat, seen, _top_bottom(_need(args, i, usage), usage, args, i))
    if verb == "bury":
        usage = "bury SEAT [CARD]"
        seat = _positive(_need(args, 0, usage), "seat")
        if len(args) == 1:
            return Buried(seat, None)
        card, i = take_evidence(args, 1, usage)
        expect_end(args, i, usage)
        return Buried(seat, card)
    raise UnknownEntryError(first, "(expected players, me, case, start, hand, character, lead, assist, "
                                   "investigate, eliminate, confirm, pursue, draw, advance, exchange, swap, return, "
                                   "peek or bury)")


def _top_bottom(token: str, usage: str, args: list[str], i: int) -> bool:
    word = token.lower()
    if word not in ("top", "bottom", "t", "b"):
        raise InvalidObservationError(f"'{token}': expected top or bottom ({usage})")
    expect_end(args, i + 1, usage)
    return word.startswith("b")


def _parse_assisted(args: list[str]) -> Assisted | DoubleAssisted:
    lowered = [a.lower() for a in args]
    if "and" in lowered:  # Lady Hilda Hope: "assist 1 2 Clue at 1 3 and 3 4 at 2"
        cut = lowered.index("and")
        first = _parse_assisted(args[:cut])
        second = _parse_assisted([args[0], *args[cut + 1:]])
        assert isinstance(first, Assisted) and isinstance(second, Assisted)
        return DoubleAssisted(first, second)
    usage = "assist GIVER TARGET NUMBER|ICON at POSITION ... [and TARGET NUMBER|ICON at POSITION ...]"
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
    if verb in ("assist", "hint") and "and" in [a.lower() for a in args]:
        cut = [a.lower() for a in args].index("and")
        one, two = parse_action(" ".join([first, *args[:cut]])), parse_action(" ".join([first, *args[cut + 1:]]))
        assert isinstance(one, Assist) and isinstance(two, Assist)
        return DoubleAssist(one, two)
    if verb in ("assist", "hint"):
        usage = "assist SEAT NUMBER|ICON [and SEAT NUMBER|ICON]"
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
    if verb in ("advance", "peek"):
        expect_end(args, 0, verb)
        return Advance() if verb == "advance" else Peek()
    if verb == "place":
        usage = "place top|bottom"
        return Place(_top_bottom(_need(args, 0, usage), usage, args, 0))
    if verb in ("return", "keep"):
        usage = f"{verb} CARD"
        card, i = take_evidence(args, 0, usage)
        expect_end(args, i, usage)
        return ReturnCard(card) if verb == "return" else Keep(card)
    if verb == "exchange":
        usage = "exchange IMPOSSIBLE-CARD LEAD-CARD"
        out, i = take_evidence(args, 0, usage)
        card, i = take_evidence(args, i, usage)
        expect_end(args, i, usage)
        return Exchange(out, card)
    if verb == "swap":
        usage = "swap POSITION TARGET TARGET-POSITION"
        nums = [_positive(_need(args, k, usage), "position" if k != 1 else "seat") for k in range(3)]
        expect_end(args, 3, usage)
        return SwapCards(*nums)
    raise InvalidObservationError(
        f"unknown action '{first}' (expected assist, investigate, eliminate, confirm, pursue, advance, exchange, "
        f"swap, return, peek, place or keep)"
    )
