"""Beyond Baker Street knowledge model: what one player knows about their own hand, and what each other player
can know about theirs ("empathy").

You never see your own hand. Each position of it holds one Evidence card (number and icon jointly); the cards I
cannot see, the *unseen* cards, are exactly my hand plus the deck (every other card is in another hand, on a
Lead, in the Impossible, or confirmed face down, and I saw it get there). A world puts one unseen card on each
of my positions; the rest form the deck. Two things narrow a position:

- Assists: an Assist names *all* the target's cards of a number or icon, so it says "is a 3" of the positions
  it names and "is not a 3" of every other one. Such a constraint belongs to the card, not to the position
  number: when a card is played, the cards to its right move one place left and the new card goes to the right
  end, and the card keeps what it was told.
- Card histories: a card I have held since entry t was in my hand all along, so it is none of the cards I saw
  anywhere else at entry t or later (another hand, a Lead, the Impossible, a card played face up), even if a
  Dead Lead or a Pursue has shuffled that card back into the deck since. Every card's time in sight is kept as
  :class:`Span` records (where, from which entry to which); every position (:class:`Slot`) knows the entry
  that filled it and the cards seen elsewhere since (:attr:`Slot.seen`).

So a position's allowed cards are (numbers it may have) x (icons it may have) minus the cards seen since it was
filled, intersected with the unseen cards, and the worlds are the injections of my positions into the unseen
cards respecting those sets. That is exact, not an approximation: the hidden part of a whole game is which card
each of my draws (and my dealt positions) took, plus the order of each freshly shuffled deck; every card I
played was shown, so my past positions are known and a history is fixed by my current positions' cards and the
deck orders. A history is consistent with what I saw exactly when each current position's card was in the deck
when drawn (not seen, not in my hand) and stayed out of sight since (the per-position sets above, distinct
cards), and every consistent history has the same probability (deck sizes are public, so each draw has the same
number of equally likely outcomes in every history; the undrawn rest of each shuffled deck contributes the same
number of orders). Assists are taken at face value, with no reading of why a player chose them. So counting
histories is counting these injections (times a constant). :func:`hand_worlds` counts them exactly with
:mod:`solver.injections` (inclusion and exclusion over the set partitions of the positions), which gives each position's
possible cards (sound and complete) and their exact probabilities. The same model as gated CP-SAT observations
(:meth:`HandKnowledge.constraint_model`, on :class:`solver.knowledge.Knowledge`) answers ``why`` with a minimal
set of Assists and sightings (a past sighting names where and when the card was seen), and is what tests
cross-check; the brute-force history reference in the tests re-derives the counts by replaying the deck.

Character cards (``character SEAT NAME`` at setup) change the rules the table checks
(:class:`~models.beyond_baker_street.table.Board`) and add a few ways cards move, each entered with its true
meaning:

- An Assist restriction (Bradstreet, Hopkins, Jones, Forrester, Martin) limits what the giver may say; it is not
  information about any hand, so the model draws nothing from an Assist not given.
- Lady Eva Blackwell's draw of two: the card she keeps is a draw like any other (the others see it, she does
  not); the other goes face down to the bottom of the deck (``bury SEAT [CARD]``): the player on her right saw
  it, so for them it is a card in sight (at the bottom of the deck) until a shuffle or until it is drawn; for
  everyone else it is one of the unseen cards, and which one does not change the count of my hands (the choice
  is taken at face value, as Assists are; the number of cards it can be is the same in every world).
- Toby's look at the top card (``peek SEAT [CARD] top|bottom``): he sees it, so for him it is in sight in the
  deck (on top or at the bottom) until drawn or shuffled; when he draws it he knows the card in his hand. For
  the others, as with the buried card, nothing changes but the order of the deck.
- Langdale Pike's swap (``swap ...``): both cards are known to everyone; each of the two players knows the card
  they received (it was in sight in the other's hand), and sees the card they gave.
- Mrs Hudson's return of an Impossible card to the deck and Baskerville's exchange are public moves; a return
  shuffles the deck (its card is out of sight from then on, like the cards of a Dead Lead).

Empathy: for another player, the same count over *their* positions with the Assists they received and what they
saw since each card arrived (every sighting I made outside their own hand; they cannot see their own hand),
where the cards they cannot see are taken to be their hand, the deck and my hand (all that is unseen by me,
plus their hand). They also see my hand, which I cannot, so they may know a little more than this; what it
lists as impossible they certainly know to be impossible.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from models.beyond_baker_street.compiled import compiled
from models.beyond_baker_street.data import (
    DEFAULT_DATA,
    EVIDENCE,
    ICONS,
    NUMBERS,
    SECTIONS,
    Character,
    Evidence,
    GameData,
)
from models.beyond_baker_street.observations import (
    ASSISTED,
    PLAYED,
    SETUP_KINDS,
    Advanced,
    Assisted,
    Buried,
    Case,
    CharacterCard,
    Confirmed,
    DoubleAssisted,
    Drew,
    Entry,
    Exchanged,
    Hand,
    HandSwapped,
    Investigated,
    LeadRevealed,
    Me,
    Peeked,
    Players,
    Pursued,
    Returned,
    Start,
    Subject,
    matches,
    subject_plural,
)
from models.beyond_baker_street.table import Board, assist_positions
from solver.constraints import Constraint, CountEquals, Problem, require
from solver.errors import AssistantError, ContradictionError, InvalidObservationError
from solver.injections import PARTITION_LIMIT, InjectionCounter, unit_count, unit_marginals
from solver.knowledge import Explanation, Knowledge
from solver.text import plural

#: Kinds of entry :meth:`HandKnowledge.add` tells apart (tuples, as in :mod:`observations`): those that change
#: no Lead state (the board's copy shares them), those that may be refused after changing a hand, the Character
#: actions that move cards between the board's piles, and the two that end a Lead.
_DRAW_OR_ASSIST = (Drew, Assisted, DoubleAssisted)
_MOVES_SLOTS = (Assisted, DoubleAssisted, HandSwapped, Drew)
_BOARD_MOVES = (Advanced, Exchanged, Returned)
_LEAD_ENDS = (Confirmed, Pursued)

ALL_NUMBERS = frozenset(NUMBERS)
ALL_ICONS = frozenset(ICONS)

#: Cards as bits of a 24-bit mask, in :data:`EVIDENCE` order (the fast path of the counts and the advisor).
CARD_INDEX: dict[Evidence, int] = {c: i for i, c in enumerate(EVIDENCE)}
NUMBER_MASK: dict[int, int] = {n: sum(1 << i for i, c in enumerate(EVIDENCE) if c.number == n) for n in NUMBERS}
ICON_MASK: dict[str, int] = {ic: sum(1 << i for i, c in enumerate(EVIDENCE) if c.icon == ic) for ic in ICONS}
FULL_MASK = (1 << len(EVIDENCE)) - 1


#: Per icon, the index of its 1 less one: :data:`EVIDENCE` runs icon by icon through the numbers in order, so a
#: card's index is ``_ICON_BASE[icon] + number`` (checked below), without hashing the card (a dataclass).
_ICON_BASE: dict[str, int] = {ic: CARD_INDEX[Evidence(1, ic)] - 1 for ic in ICONS}
assert all(_ICON_BASE[c.icon] + c.number == i for i, c in enumerate(EVIDENCE))


def _trusted_check(entry: Entry) -> None:
    """The board's check of a trusted entry (:attr:`HandKnowledge.trusted`): none."""


def card_index(card: Evidence) -> int:
    """``CARD_INDEX[card]``, faster (:data:`_ICON_BASE`)."""
    return _ICON_BASE[card.icon] + card.number


def card_mask(cards: Collection[Evidence]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << _ICON_BASE[c.icon] + c.number
    return mask


def subject_mask(subject: Subject) -> int:
    return NUMBER_MASK[subject] if isinstance(subject, int) else ICON_MASK[subject]


@dataclass(frozen=True)
class Slot:
    """One card in a hand: its identity for me (None for my own), what the Assists to it allow, the entry that
    put it in the hand and the cards its holder saw elsewhere since (so it cannot be any of them)."""

    id: int
    card: Evidence | None = None
    numbers: frozenset[int] = ALL_NUMBERS
    icons: frozenset[str] = ALL_ICONS
    hints: tuple[tuple[int, bool], ...] = ()  # (entry index of the Assist, whether it named this card)
    filled: int = 0  # entry index of the deal or draw that put this card in the hand
    seen: int = 0  # bit mask: cards seen outside this hand at entry ``filled`` or later (as far as I know)
    #: The cards the Assists to this card allow (public: every player knows them), as a bit mask (see
    #: :data:`CARD_INDEX`); kept with the slot, as the counts read it after every entry.
    told_mask: int = field(init=False, repr=False, compare=False, default=FULL_MASK)
    #: The cards this position may hold: :attr:`told_mask` less every card seen elsewhere since it was filled.
    mask: int = field(init=False, repr=False, compare=False, default=FULL_MASK)
    #: :attr:`card` as a card mask of one bit (0 for a card I cannot see).
    bit: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        told = _allowed_mask(self.numbers, self.icons)
        object.__setattr__(self, "told_mask", told)
        object.__setattr__(self, "mask", told & ~self.seen)
        object.__setattr__(self, "bit", 0 if self.card is None else 1 << card_index(self.card))

    def allows(self, card: Evidence) -> bool:
        """Whether the Assists to this card allow ``card`` (sightings aside: see :attr:`mask`)."""
        return card.number in self.numbers and card.icon in self.icons

    def seeing(self, cards: int) -> Slot:
        """This card once its holder has also seen ``cards`` (a bit mask) elsewhere: ``replace(self, seen=...)``
        without its per-field checks (it runs for every card in every hand after every entry)."""
        if not cards & ~self.seen:
            return self
        new = object.__new__(Slot)
        new.__dict__.update(self.__dict__)
        new.__dict__["seen"] = seen = self.seen | cards
        new.__dict__["mask"] = self.told_mask & ~seen
        return new

    def told(self, subject: Subject, named: bool, entry: int) -> Slot:
        """This card after an Assist about ``subject`` that named it (or skipped it): a new slot with the fields
        :meth:`__post_init__` would give it, without a frozen dataclass's per-field set-up (every card of the
        target's hand, for every player, after every Assist)."""
        numbers, icons, hints = self.numbers, self.icons, (*self.hints, (entry, named))
        if isinstance(subject, int):
            numbers = frozenset({subject}) & numbers if named else numbers - {subject}
        else:
            icons = frozenset({subject}) & icons if named else icons - {subject}
        told = _allowed_mask(numbers, icons)
        new = object.__new__(Slot)
        d = new.__dict__
        d.update(self.__dict__)
        d["numbers"], d["icons"], d["hints"] = numbers, icons, hints
        d["told_mask"], d["mask"] = told, told & ~self.seen
        return new

    @staticmethod
    def drawn(id: int, card: Evidence | None, filled: int) -> Slot:  # noqa: A002 - the field's name
        """``Slot(id, card, filled=filled)``, a card no Assist has named yet, without a frozen dataclass's
        per-field set-up (every draw, for every player)."""
        new = object.__new__(Slot)
        new.__dict__.update(id=id, card=card, numbers=ALL_NUMBERS, icons=ALL_ICONS, hints=(), filled=filled, seen=0,
                            told_mask=FULL_MASK, mask=FULL_MASK, bit=0 if card is None else 1 << card_index(card))
        return new


@lru_cache(maxsize=4096)
def _allowed_mask(numbers: frozenset[int], icons: frozenset[str]) -> int:
    by_number = 0
    for n in numbers:
        by_number |= NUMBER_MASK[n]
    by_icon = 0
    for ic in icons:
        by_icon |= ICON_MASK[ic]
    return by_number & by_icon


assert _allowed_mask(ALL_NUMBERS, ALL_ICONS) == FULL_MASK  # what Slot.drawn gives a new card


@lru_cache(maxsize=65536)
def mask_worlds(slot_masks: tuple[int, ...], unseen: int) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
    """Exact counts on bit masks: the number of worlds (one unseen card per position, all different) and, per
    position, the (card index, worlds with that card there) pairs with a non-zero count.

    Counted by :func:`solver.injections.unit_marginals` (inclusion and exclusion over the set partitions of
    the positions; :func:`solver.injections.injection_counts`, which groups cards by the positions that allow
    them, gives the same numbers and is what the tests compare it with).
    """
    total, weights = mask_marginals(slot_masks, unseen)
    return total, tuple(tuple((int(i), int(row[i])) for i in np.flatnonzero(row)) for row in weights)


@lru_cache(maxsize=65536)
def mask_marginals(slot_masks: tuple[int, ...], unseen: int) -> tuple[int, np.ndarray]:
    """:func:`mask_worlds` as an array: the number of worlds and (positions x 24) worlds with each card at each
    position (read-only: it is shared by every caller of the same masks)."""
    total, weights = unit_marginals([m & unseen for m in slot_masks], len(EVIDENCE))
    weights.flags.writeable = False
    return total, weights


@lru_cache(maxsize=65536)
def mask_count(slot_masks: tuple[int, ...]) -> int:
    """The number of worlds alone (:func:`mask_marginals`' total), for masks already within the unseen cards: by
    the compiled loop once it is loaded (the same integers), else :func:`solver.injections.unit_count`."""
    kernels = compiled()
    if (kernels is not None and 0 < len(slot_masks) <= PARTITION_LIMIT and min(slot_masks) >= 0
            and max(slot_masks) <= FULL_MASK):
        return int(kernels.count(np.array(slot_masks, dtype=np.int64)))
    return unit_count(slot_masks)


@lru_cache(maxsize=65536)
def mask_distribution(slot_masks: tuple[int, ...], unseen: int) -> np.ndarray:
    """Per position, the probability of each card (positions x 24, read-only); all zeros if no world fits."""
    total, weights = mask_marginals(slot_masks, unseen)
    out = weights / total if total else np.zeros_like(weights)
    out.flags.writeable = False
    return out


def hand_worlds(slots: Sequence[Slot], unseen: Collection[Evidence]) -> tuple[int, list[dict[Evidence, int]]]:
    """The number of worlds (unseen cards placed one per position) and, per position, card -> worlds with it."""
    total, per_position = mask_worlds(tuple(s.mask for s in slots), card_mask(unseen))
    return total, [{EVIDENCE[i]: w for i, w in row} for row in per_position]


Place = tuple[str, int | str]  # ("hand", seat), ("lead", section), ("impossible", ""), ("confirmed", "")


def place_words(place: Place) -> str:
    """Where ``place`` is, in words ("in player 2's hand", "on the Motive Lead"): built only when a reason is
    shown, never while the game is followed."""
    kind, at = place
    if kind == "hand":
        return f"in player {at}'s hand"
    if kind == "lead":
        return "on a Lead that went dead" if at == DEAD else f"on the {at} Lead"
    if kind == "impossible":
        return "in the Impossible"
    if kind == "confirmed":
        return "confirmed (face down)"
    return "on top of the deck (you looked at it)" if at == "top" else "at the bottom of the deck (you saw it go there)"


DEAD = "dead"  # the place of a card played face up to a Lead that went dead at once: ("lead", DEAD)

#: The places as the card places name them, built once (every entry of every player reads them).
_HAND_PLACE: dict[int, Place] = {seat: ("hand", seat) for seat in range(1, 9)}
_LEAD_PLACE: dict[str, Place] = {section: ("lead", section) for section in SECTIONS}
_IMPOSSIBLE: Place = ("impossible", "")
_CONFIRMED: Place = ("confirmed", "")
_DECK_TOP: Place = ("deck", "top")


@dataclass(frozen=True)
class Span:
    """One stretch of a card's history in sight: at ``place`` during entries ``start`` to ``end`` (indexes
    into the entries, both included; ``end`` None: it is still there). A card played face up that a Dead Lead
    shuffles back at once has a span of one entry."""

    card: Evidence
    place: Place
    start: int
    end: int | None = None

    @property
    def where(self) -> str:
        """:attr:`place` in words."""
        return place_words(self.place)

    def seen_since(self, entry: int) -> bool:
        """Whether the card was in sight here at entry ``entry`` or later."""
        return self.end is None or self.end >= entry


def _span(card: Evidence, place: Place, start: int, end: int | None) -> Span:
    """``Span(card, place, start, end)`` without a frozen dataclass's per-field set-up (the card places make one
    for every card that moves, for every player)."""
    span = object.__new__(Span)
    span.__dict__.update(card=card, place=place, start=start, end=end)
    return span


@dataclass(frozen=True)
class Sighting:
    """A reason: I saw this card elsewhere. Now (``left`` empty): it is not in my hand at all. In the past
    (``left`` names the entry that took it out of sight): it is none of my cards at ``positions``, which I held
    already then."""

    card: Evidence
    where: str
    seen: str = ""  # the entry that showed it there, as "entry N 'line'"
    left: str = ""  # the entry after which it was out of sight again (back into the deck)
    positions: tuple[int, ...] = ()
    holder: int | None = None  # whose positions (None: mine; another seat for empathy)

    def __str__(self) -> str:
        if not self.left:
            return f"{self.card.code} is {self.where}"
        held = (f"card at position {self.positions[0]}" if len(self.positions) == 1
                else f"cards at positions {', '.join(map(str, self.positions))}")
        held = f"you already held your {held}" if self.holder is None else \
            f"player {self.holder} already held their {held}"
        if self.seen == self.left:  # played face up and shuffled back at once (a Dead Lead)
            return (f"{self.card.code} was shown {self.where} at {self.seen}, which shuffled it back into the deck, "
                    f"while {held}")
        return (f"{self.card.code} was {self.where} from {self.seen} until {self.left} shuffled it back into the "
                f"deck, while {held}")


@dataclass(frozen=True)
class Told:
    """A reason: an Assist to me named (or skipped) the card now at ``position``."""

    position: int
    assist: Assisted
    named: bool

    def __str__(self) -> str:
        verb = "is" if self.named else "is not"
        return f"position {self.position} {verb} a {self.assist.subject} ('{self.assist}')"


Reason = Sighting | Told


@dataclass
class _Setup:
    """Setup entries as they arrive, checked as they grow, until the table can start."""

    players: int | None = None
    me: int | None = None
    case: int | None = None
    start: int = 1
    hands: dict[int, tuple[Evidence, ...]] = field(default_factory=dict)
    leads: list[LeadRevealed] = field(default_factory=list)
    characters: dict[int, str] = field(default_factory=dict)
    start_given: bool = False
    no_characters: bool = False  # 'character SEAT none': the table plays without Character cards


class HandKnowledge:
    """One player's knowledge, built entry by entry (setup lines first, then what happens at the table).

    :meth:`add` checks an entry against the rules and against what this player can see, and raises an
    :class:`~solver.errors.AssistantError` (the state unchanged) when it cannot be right.
    """

    #: True: the entries come from a rules engine that has just played them (a simulation that samples its
    #: soundness checks: :meth:`~models.beyond_baker_street.plain.AdvisorBot.trust_observations`), so the checks
    #: that can only refuse a wrong entry (the rules, my hand's feasibility, an Assist against the hand I see, my
    #: played card against my hand) are skipped, and nothing is kept to put back. The knowledge after each entry
    #: is the same; a wrong entry would go unrefused, which the simulation's soundness checks look for.
    trusted = False

    def __init__(self, data: GameData = DEFAULT_DATA) -> None:
        self.data = data
        self.entries: list[Entry] = []
        self.setup = _Setup()
        self.board: Board | None = None
        self.hands: dict[int, list[Slot]] = {}
        self.spans: list[Span] = []  # every card's time in sight, in the order it began (module docstring)
        #: the spans the entry being added closed, each with its index and the open span it replaced (to put
        #: them back if the entry is refused)
        self._closed: list[tuple[int, Span]] = []
        #: the slots whose sightings the entry being added changed in place, with their ``seen`` and ``mask``
        #: before it (:meth:`_track`; a refused entry puts them back)
        self._seen_log: list[tuple[Slot, int, int]] = []
        self._open: dict[Evidence, int] = {}  # card -> index in ``spans`` of the span it is in sight in now
        self._open_at: dict[Place, int] = {}  # place -> the cards whose open span is there, as a card mask
        #: the cards in sight or out of play (not in my hand or the deck) as the last entry left them, as a card
        #: mask (None until the setup is complete)
        self._sighted: int | None = None
        self._next_id = 0
        self._cache: dict[object, object] = {}
        self.top: Evidence | None = None  # the card Toby put back on top, if I am Toby (board.top_known)
        self.buried: list[Evidence | None] = []  # cards at the bottom of the deck, bottom-most first, if I know them
        self._bury_hint: Evidence | None = None  # a card I know Lady Eva Blackwell's chooser must be burying

    # -- setup ------------------------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        assert self.setup.players is not None
        return self.setup.players

    @property
    def me(self) -> int:
        assert self.setup.me is not None
        return self.setup.me

    @property
    def started(self) -> bool:
        return self.board is not None

    def missing(self) -> list[str]:
        """What is still needed before play can start, as the lines to type."""
        s = self.setup
        out = []
        if s.players is None:
            out.append("players N")
        if s.me is None:
            out.append("me SEAT")
        if s.case is None:
            out.append("case N")
        if s.players is not None and s.me is not None:
            out += [f"hand {t} CARD ..." for t in range(1, s.players + 1) if t != s.me and t not in s.hands]
        have = {e.lead.section for e in s.leads}
        out += [f"lead CARD  (the face-up {sec} Lead)" for sec in SECTIONS if sec not in have]
        return out

    def _setup_complete(self) -> bool:
        """Whether :meth:`missing` is empty (without its words: every player's setup entries ask it)."""
        s = self.setup
        if s.players is None or s.me is None or s.case is None:
            return False
        if any(t not in s.hands for t in range(1, s.players + 1) if t != s.me):
            return False
        return len({e.lead.section for e in s.leads}) == len(SECTIONS)

    def _setup_entry(self, entry: Entry) -> None:
        s = self.setup
        if isinstance(entry, Players):
            if entry.count not in self.data.hand_sizes:
                raise InvalidObservationError(f"players {entry.count}: expected 2 to 4")
            if s.players is not None:
                raise InvalidObservationError(f"players is already {s.players}: undo it first")
            s.players = entry.count
        elif isinstance(entry, Me):
            if s.players is None:
                raise InvalidObservationError("enter 'players N' before 'me SEAT'")
            if not 1 <= entry.seat <= s.players:
                raise InvalidObservationError(f"me {entry.seat}: expected a seat 1 to {s.players}")
            if s.me is not None:
                raise InvalidObservationError(f"me is already {s.me}: undo it first")
            s.me = entry.seat
        elif isinstance(entry, Case):
            try:
                self.data.case(entry.number)
            except ValueError as exc:
                raise InvalidObservationError(str(exc)) from None
            s.case = entry.number
        elif isinstance(entry, Start):
            if s.players is None:
                raise InvalidObservationError("enter 'players N' before 'start SEAT'")
            if not 1 <= entry.seat <= s.players:
                raise InvalidObservationError(f"start {entry.seat}: expected a seat 1 to {s.players}")
            s.start = entry.seat
            s.start_given = True
        elif isinstance(entry, CharacterCard):
            self._character_entry(entry)
        elif isinstance(entry, Hand):
            if s.players is None or s.me is None:
                raise InvalidObservationError("enter 'players N' and 'me SEAT' before the hands you see")
            if not 1 <= entry.seat <= s.players:
                raise InvalidObservationError(f"hand {entry.seat}: expected a seat 1 to {s.players}")
            if entry.seat == s.me:
                raise InvalidObservationError(f"hand {entry.seat}: that is you, and you cannot see your own cards")
            size = self.data.hand_size(s.players)
            if len(entry.cards) != size:
                raise InvalidObservationError(
                    f"hand {entry.seat}: {plural(len(entry.cards), 'card')}, but each player starts with {size}"
                )
            if len(set(entry.cards)) != len(entry.cards):
                raise InvalidObservationError(f"hand {entry.seat}: a card is named twice")
            for seat, cards in s.hands.items():
                for card in entry.cards:
                    if seat != entry.seat and card in cards:
                        raise InvalidObservationError(f"hand {entry.seat}: {card.code} is in player {seat}'s hand")
            s.hands[entry.seat] = entry.cards
        elif isinstance(entry, LeadRevealed):
            if any(e.lead.section == entry.lead.section for e in s.leads):
                raise InvalidObservationError(f"'{entry}': the face-up {entry.lead.section} Lead is already entered")
            s.leads.append(entry)
        else:
            raise InvalidObservationError(f"'{entry}': the setup is not complete; still need "
                                          f"{'; '.join(self.missing())}")
        if self._setup_complete():
            self._begin()

    def _character_entry(self, entry: CharacterCard) -> None:
        s = self.setup
        if s.players is None:
            raise InvalidObservationError("enter 'players N' before 'character SEAT NAME'")
        if not 1 <= entry.seat <= s.players:
            raise InvalidObservationError(f"character {entry.seat}: expected a seat 1 to {s.players}")
        if entry.name.strip().lower() == "none":
            if s.characters:
                raise InvalidObservationError(f"'{entry}': Characters are entered already; undo them first")
            s.no_characters = True
            return
        if s.no_characters:
            raise InvalidObservationError(f"'{entry}': the table plays without Characters ('character N none')")
        try:
            name = self.data.character(entry.name).name
        except ValueError as exc:
            raise InvalidObservationError(str(exc)) from None
        other = next((t for t, n in s.characters.items() if n == name and t != entry.seat), None)
        if other is not None:
            raise InvalidObservationError(f"character {entry.seat} {name}: player {other} plays {name} already")
        s.characters[entry.seat] = name
        if self.board is not None:
            self.board.characters = self.character_cards()
            if len(s.characters) == s.players and not s.start_given:
                self.board.first = self.board.current = s.start = self.start_by_characters()

    def character_cards(self) -> dict[int, Character]:
        return {t: self.data.characters[n] for t, n in self.setup.characters.items()}

    def start_by_characters(self) -> int:
        """The seat with the lowest Character number (the rulebook's start player)."""
        cards = self.character_cards()
        return min(cards, key=lambda t: cards[t].order)

    def _begin(self) -> None:
        s = self.setup
        assert s.players is not None and s.case is not None
        if len(s.characters) == s.players and not s.start_given:
            s.start = self.start_by_characters()
        self.board = Board(s.players, self.data.case(s.case), s.start, self.data)
        self.board.characters = self.character_cards()
        deal = len(self.entries)  # the entry completing the setup: the deal happens there
        for seat in range(1, s.players + 1):
            cards = [None] * self.data.hand_size(s.players) if seat == s.me else list(s.hands[seat])
            self.hands[seat] = [self._slot(c, deal) for c in cards]
        for e in sorted(s.leads, key=lambda e: SECTIONS.index(e.lead.section)):
            self.board.apply(e)
        # another hand is in sight from its 'hand' line on
        shown = {e.seat: i for i, e in enumerate(self.entries) if isinstance(e, Hand)}
        for seat, dealt in s.hands.items():
            for card in dealt:
                self._open[card] = len(self.spans)
                self.spans.append(Span(card, ("hand", seat), shown.get(seat, deal)))
            self._open_at[("hand", seat)] = card_mask(dealt)
        self._track(deal)

    def _slot(self, card: Evidence | None, filled: int) -> Slot:
        self._next_id += 1
        return Slot.drawn(self._next_id, card, filled)

    # -- card histories ---------------------------------------------------------------------------------------
    def _place_masks(self) -> dict[Place, int]:
        """Where each card in sight is now: one card mask per place (a card is in one place: on a confirmed Lead
        rather than among the confirmed cards, at a known place in the deck rather than anywhere else)."""
        board = self.board
        assert board is not None
        out: dict[Place, int] = {}
        taken = 0
        for seat, hand in self.hands.items():
            mask = 0
            for slot in hand:
                mask |= slot.bit
            if mask:
                out[_HAND_PLACE[seat]] = mask
                taken |= mask
        base = _ICON_BASE
        for section, ls in board.leads.items():
            mask = 0
            for c in ls.evidence:
                mask |= 1 << base[c.icon] + c.number
            for c in ls.raised:
                mask |= 1 << base[c.icon] + c.number
            if mask:
                out[_LEAD_PLACE[section]] = mask
                taken |= mask
        mask = 0
        for c in board.impossible:
            if isinstance(c, Evidence):
                mask |= 1 << base[c.icon] + c.number
        if mask:
            out[_IMPOSSIBLE] = mask
            taken |= mask
        if board.confirmed_cards:
            mask = card_mask(board.confirmed_cards) & ~taken
            if mask:
                out[_CONFIRMED] = mask
                taken |= mask
        self._sighted = taken  # every card I see or saw leave play: what is not unseen (unseen_mask)
        if board.top_known or self.buried:
            for c, (place, _where) in self.in_deck().items():  # known in the deck: nowhere else
                bit = 1 << card_index(c)
                for other in out:
                    out[other] &= ~bit
                out[place] = out.get(place, 0) | bit
        return out

    def in_deck(self) -> dict[Evidence, tuple[Place, str]]:
        """The cards I know to lie at a known place in the deck (Toby's look, the card I buried for Lady Eva
        Blackwell)."""
        board = self.board
        out: dict[Evidence, tuple[Place, str]] = {}
        if board is None:
            return out
        if board.top_known and self.top is not None:
            out[self.top] = (("deck", "top"), "on top of the deck (you looked at it)")
        for c in self.buried:
            if c is not None:
                out[c] = (("deck", "bottom"), "at the bottom of the deck (you saw it go there)")
        return out

    def _track(self, entry: int, passing: Sequence[tuple[Evidence, Place]] = (),
               drawn: tuple[int, int] | None = None) -> None:
        """Update the spans after entry ``entry`` (``passing``: cards shown during it that are out of sight
        again after it), then add every card in sight during it to the ``seen`` of every slot, but a slot's own
        hand (its holder cannot see it). Only the cards whose place changed are touched: the places are card
        masks (:meth:`_place_masks`), compared with those of the open spans.

        ``drawn`` (seat, card bit, 0 for a card I do not see): the entry was a draw that moved no other card in
        sight (no card at a known place in the deck before or after it), so the places are the open spans' with
        that bit added to the drawer's hand, without rebuilding them from the board (a third of the entries)."""
        opened, spans, was = self._open, self.spans, self._open_at
        evidence = self.data.evidence
        if drawn is not None:
            self._track_draw(entry, *drawn)
            return
        now = self._place_masks()
        # every card seen since this entry, by place: the open spans (exactly the cards of ``now``) and the closed
        by_place = now
        if now != was:
            by_place = dict(now)
            for place, mask in was.items():
                gone = mask & ~now.get(place, 0)  # spans that end at this entry (entries only grow: no older one)
                if not gone:
                    continue
                by_place[place] = by_place.get(place, 0) | gone
                while gone:
                    low = gone & -gone
                    gone ^= low
                    card = evidence[low.bit_length() - 1]
                    index = opened.pop(card)
                    span = spans[index]
                    self._closed.append((index, span))
                    spans[index] = _span(card, span.place, span.start, entry)
            for place, mask in now.items():
                new = mask & ~was.get(place, 0)
                while new:
                    low = new & -new
                    new ^= low
                    card = evidence[low.bit_length() - 1]
                    opened[card] = len(spans)
                    spans.append(_span(card, place, entry, None))
            self._open_at = now
        if passing:
            in_sight = 0  # every card in sight after this entry
            for m in now.values():
                in_sight |= m
            by_place = dict(by_place)
            for card, place in passing:
                bit = 1 << card_index(card)
                if not in_sight & bit:
                    spans.append(_span(card, place, entry, entry))
                    by_place[place] = by_place.get(place, 0) | bit
        self._see(by_place)

    def _track_draw(self, entry: int, seat: int, bit: int) -> None:
        """:meth:`_track` after a draw by ``seat`` that moved no card in sight but the drawn one (``bit``, 0 for a
        card I do not see): every slot has seen every card of the places already (the last :meth:`_see` gave them
        all), so the other hands' slots see the drawn card, and the new slot (the last of ``seat``'s hand) every
        card in sight outside that hand, as :meth:`_see` would give them."""
        was = self._open_at
        me = self.setup.me
        seen = 0  # what the new slot's holder sees now, the drawn card aside
        for place, mask in was.items():
            kind = place[0]
            if kind == "hand":
                if place[1] != seat:
                    seen |= mask
            elif kind != "deck" or seat == me:
                seen |= mask
        if bit:
            place = _HAND_PLACE[seat]
            now = dict(was)
            now[place] = was.get(place, 0) | bit
            card = self.data.evidence[bit.bit_length() - 1]
            self._open[card] = len(self.spans)
            self.spans.append(_span(card, place, entry, None))
            self._open_at = now
            assert self._sighted is not None
            self._sighted |= bit
            for other, hand in self.hands.items():
                if other != seat:
                    self._sight(hand, bit)
        self._sight((self.hands[seat][-1],), seen)

    def _track_play(self, entry: int, seat: int, held: int, card: Evidence, place: Place) -> None:
        """:meth:`_track` after ``seat`` played ``card`` to ``place`` (a Lead or the Impossible) where it stays,
        and no other card moved (no card went back into the deck, none lies at a known place in it): its span in
        the hand ends (``held``: its bit, if I saw it there; 0 for mine) and one opens at ``place``, without
        rebuilding the places from the board (more than half of the entries); then the sightings as the full
        rebuild gives them, the played card's alone (the others are seen already), without :meth:`_see`'s walk of
        every place and slot."""
        was = self._open_at
        bit = 1 << card_index(card)
        now = dict(was)
        spans = self.spans
        hand = _HAND_PLACE[seat]
        if held:
            left = was[hand] & ~held
            if left:
                now[hand] = left
            else:
                del now[hand]
            index = self._open.pop(card)
            span = spans[index]
            self._closed.append((index, span))
            spans[index] = _span(card, span.place, span.start, entry)
        now[place] = now.get(place, 0) | bit
        self._open[card] = len(spans)
        spans.append(_span(card, place, entry, None))
        self._open_at = now
        assert self._sighted is not None
        self._sighted |= bit
        # the sightings, as :meth:`_see` gives them: every slot has seen every card in sight outside its own hand
        # already (the last :meth:`_see` or :meth:`_track_draw` gave them all), so only the played card is new, to
        # its holder's slots (the others saw it in that hand) or, a card of mine I did not see, to every slot
        for held_by in ((self.hands[seat],) if held else self.hands.values()):
            self._sight(held_by, bit)

    def _sight(self, slots: Iterable[Slot], bits: int) -> None:
        """Add the cards ``bits`` to the ``seen`` of each of ``slots`` that had not seen them all, and narrow its
        ``mask``; each change is logged (``_seen_log``) and put back if the entry is refused."""
        log = self._seen_log
        for s in slots:
            d = s.__dict__
            was_seen = d["seen"]
            if bits & ~was_seen:
                log.append((s, was_seen, d["mask"]))
                d["seen"] = now_seen = was_seen | bits
                d["mask"] = d["told_mask"] & ~now_seen

    def _see(self, by_place: dict[Place, int]) -> None:
        """Add the cards of ``by_place`` (every card in sight during an entry, by place) to the ``seen`` of every
        slot but those of the hand holding them (:meth:`_track`)."""
        shown, deck = 0, 0
        held: dict[int, int] = {}
        for place, mask in by_place.items():
            kind = place[0]
            if kind == "hand":
                held[place[1]] = mask  # type: ignore[index]
            elif kind == "deck":
                deck |= mask
            else:
                shown |= mask
        me = self.setup.me
        hands = self.hands
        for seat, hand in hands.items():
            seen = shown | deck if seat == me else shown  # a card only I know in the deck tells them nothing
            for other, mask in held.items():
                if other != seat:
                    seen |= mask
            self._sight(hand, seen)  # in place, each change logged for a refused entry to put back

    def sighting_spans(self, card: Evidence) -> list[Span]:
        """Every stretch of time ``card`` was in sight, oldest first."""
        return [span for span in self.spans if span.card == card]

    # -- entries ----------------------------------------------------------------------------------------------
    def add(self, entry: Entry) -> None:
        """Record one entry; raise :class:`AssistantError` (nothing changes) if it cannot be right."""
        if self.board is None:
            saved_setup = _Setup(self.setup.players, self.setup.me, self.setup.case, self.setup.start,
                                 dict(self.setup.hands), list(self.setup.leads), dict(self.setup.characters),
                                 self.setup.start_given, self.setup.no_characters)
            try:
                self._setup_entry(entry)
            except AssistantError:
                self.setup = saved_setup
                self.board, self.hands, self.spans, self._open, self._open_at = None, {}, [], {}, {}
                self._sighted = None
                raise
        elif isinstance(entry, Start) and self.board.turns == 0 and not self.board.pending:
            if not 1 <= entry.seat <= self.players:
                raise InvalidObservationError(f"start {entry.seat}: expected a seat 1 to {self.players}")
            self.setup.start = self.board.first = self.board.current = entry.seat
            self.setup.start_given = True
        elif isinstance(entry, CharacterCard) and self.board.turns == 0 and not self.board.pending:
            saved = dict(self.setup.characters), self.setup.start, self.board.first, self.board.current
            try:
                self._character_entry(entry)
            except AssistantError:
                self.setup.characters, self.setup.start, self.board.first, self.board.current = saved
                raise
        elif self.trusted:  # nothing to put back (the class's ``trusted``)
            self._closed = []
            self._seen_log = []
            self._play_entry(entry)
        else:
            # the board is copied only for the entries checked after it has taken them: any other refusal comes
            # before the board changes
            # (a draw or an Assist changes no Lead, Impossible or confirmed card: the copy shares them)
            board = (self.board.copy(leads=not isinstance(entry, _DRAW_OR_ASSIST))
                     if self._checked_late(entry) else self.board)
            # the hands are copied only for the entries that may be refused after changing them (an Assist's
            # second part or check of my hand, a swap, a draw's check of my hand); a play is refused, if at all,
            # before its card leaves the hand, and the other entries leave the hands alone
            moves = isinstance(entry, _MOVES_SLOTS)
            hands = {s: list(h) for s, h in self.hands.items()} if moves else self.hands
            next_id = self._next_id
            # the spans only grow or have open ones closed (each logged in ``_closed``), and so does ``_open`` (a
            # card's open span opened, or closed and logged): put back by those alone
            spans, open_at, sighted = len(self.spans), self._open_at, self._sighted
            pins = self.top, list(self.buried), self._bury_hint
            self._closed = []
            self._seen_log = []
            try:
                self._play_entry(entry)
            except AssistantError:
                for slot, seen, mask in reversed(self._seen_log):
                    slot.__dict__["seen"], slot.__dict__["mask"] = seen, mask
                opened = self._open
                for card in [c for c, i in opened.items() if i >= spans]:  # opened by this entry
                    del opened[card]
                for index, span in reversed(self._closed):
                    self.spans[index] = span
                    opened[span.card] = index
                del self.spans[spans:]
                self.board, self.hands, self._next_id = board, hands, next_id
                self._open_at, self._sighted = open_at, sighted
                self.top, self.buried, self._bury_hint = pins[0], pins[1], pins[2]
                self._cache.clear()
                raise
        self.entries.append(entry)
        self._fresh()

    def _checked_late(self, entry: Entry) -> bool:
        """Whether ``entry`` is checked against my hand after the board has taken it (:meth:`_check_feasible`:
        an Assist to me, a swap, another player's draw), so that refusing it must put back a copy of the board."""
        if isinstance(entry, Assisted):
            return entry.target == self.me
        if isinstance(entry, DoubleAssisted):
            return self.me in (entry.first.target, entry.second.target)
        return isinstance(entry, HandSwapped) or (isinstance(entry, Drew) and entry.seat != self.me)

    def undo(self) -> Entry:
        """Remove the last entry (by replaying the others) and return it."""
        if not self.entries:
            raise InvalidObservationError("nothing to undo")
        kept = self.entries[:-1]
        last = self.entries[-1]
        fresh = HandKnowledge(self.data)
        for e in kept:
            fresh.add(e)
        self.__dict__.update(fresh.__dict__)
        return last

    def _play_entry(self, entry: Entry) -> None:
        board = self.board
        assert board is not None
        if isinstance(entry, SETUP_KINDS):
            raise InvalidObservationError(f"'{entry}': the setup is complete and play has begun")
        index = len(self.entries)
        check = _trusted_check if self.trusted else board.check
        if isinstance(entry, ASSISTED):
            check(entry)
            parts = [entry] if isinstance(entry, Assisted) else [entry.first, entry.second]
            for part in parts:
                self._told(part, index)
            board.apply(entry, checked=True)
            # no card moves: every card in sight is where it was at the last entry, which every slot has seen
            # already (an Assist adds no slot), so the card places and the slots' sightings stand as they are
            if any(part.target == self.me for part in parts):
                self._check_feasible(entry)
        elif isinstance(entry, HandSwapped):
            check(entry)
            self._swap(entry, index)
            board.apply(entry, checked=True)
            self._track(index)
            self._check_feasible(entry)
        elif isinstance(entry, Peeked):
            check(entry)
            self._peek(entry)
            board.apply(entry, checked=True)
            self._track(index)
        elif isinstance(entry, Buried):
            check(entry)
            card = entry.card
            if entry.seat == self.me and card is None:
                raise InvalidObservationError(f"'{entry}': you saw both cards; type the one you buried: "
                                              f"'bury {self.me} CARD'")
            if card is not None and entry.seat != self.me:
                raise InvalidObservationError(f"'{entry}': only player {entry.seat} saw the buried card; type "
                                              f"'bury {entry.seat}'")
            if card is not None and card not in self.unseen():
                raise ContradictionError(entry, [], f"{card.code} is {self.where(card)}")
            self.buried.insert(0, card if card is not None else self._bury_hint)
            self._bury_hint = None
            board.apply(entry, checked=True)
            self._track(index)
        elif isinstance(entry, _BOARD_MOVES):
            passing: list[tuple[Evidence, Place]] = [(c, ("lead", DEAD)) for c in board.copy().apply(entry)]
            board.apply(entry)
            self._shuffled(bool(passing) or isinstance(entry, Returned))
            self._track(index, passing)
        elif isinstance(entry, PLAYED):
            check(entry)
            slot = self.hands[entry.seat][entry.position - 1]
            if entry.seat == self.me:
                self._check_my_card(entry, entry.position, entry.card)
            elif slot.card != entry.card:
                shown_by = [e for e in [self._filled_by(entry.seat, slot)] if e]
                raise ContradictionError(entry, shown_by, f"player {entry.seat}'s card at position {entry.position} "
                                                          f"is {slot.card.code if slot.card else '?'}")
            self.hands[entry.seat].pop(entry.position - 1)
            if isinstance(entry, Investigated):
                passing = [(entry.card, ("lead", entry.section))]
            else:
                passing = [(entry.card, ("impossible", ""))]
            returned = board.apply(entry, checked=True)
            self._shuffled(bool(returned))
            if returned or self.buried or self.top is not None:  # cards moved back, or known places in the deck
                self._track(index, passing)
            else:  # only the played card moved: from the hand (if I saw it there) to the Lead or the Impossible
                self._track_play(index, entry.seat, slot.bit, entry.card, passing[0][1])
        elif isinstance(entry, Drew):
            check(entry)
            if entry.seat == self.me:
                if entry.card is not None:
                    raise InvalidObservationError(f"'{entry}': you cannot see the card you draw; type 'draw {self.me}'")
            elif entry.card is None:
                raise InvalidObservationError(f"'{entry}': type the card player {entry.seat} drew: "
                                              f"'draw {entry.seat} CARD'")
            elif not self.unseen_mask() >> card_index(entry.card) & 1 and entry.card not in self.in_deck():
                raise ContradictionError(entry, [], f"{entry.card.code} is {self.where(entry.card)}")
            pin = self._pinned_draw(entry)
            slot = self._slot(entry.card, index)
            if pin is not None and entry.seat == self.me:  # I know the card I draw: I saw it in the deck
                slot = replace(slot, numbers=frozenset({pin.number}), icons=frozenset({pin.icon}))
                self._close(pin, index - 1)
            self.hands[entry.seat].append(slot)
            # no card at a known place in the deck (before or after): only the drawn card moves in sight
            plain = pin is None and not self.buried and _DECK_TOP not in self._open_at
            board.apply(entry, checked=True)
            self._track(index, drawn=(entry.seat, slot.bit) if plain else None)
            if entry.seat != self.me:
                self._check_feasible(entry)
        elif isinstance(entry, LeadRevealed):  # a Lead card: no Evidence card moves (as for an Assist, above)
            board.apply(entry)
        elif isinstance(entry, _LEAD_ENDS):
            self._shuffled(bool(board.apply(entry)))
            self._track(index)
        else:
            raise InvalidObservationError(f"'{entry}' is not a Beyond Baker Street entry")

    def _told(self, entry: Assisted, index: int) -> None:
        """An Assist: checked against the hand I see, then every card of the target's hand keeps what it says."""
        hand = self.hands[entry.target]
        if entry.target != self.me and not self.trusted:
            truth = assist_positions([s.card for s in hand if s.card is not None], entry.subject)
            if truth != entry.positions:
                shown = " ".join(map(str, truth)) or "none"
                wrong = [s for i, s in enumerate(hand) if (i + 1 in truth) != (i + 1 in entry.positions)]
                sources = list(dict.fromkeys(e for e in (self._filled_by(entry.target, s) for s in wrong) if e))
                raise ContradictionError(entry, sources, f"player {entry.target}'s {subject_plural(entry.subject)} "
                                                         f"are at {shown}")
        self.hands[entry.target] = [s.told(entry.subject, i + 1 in entry.positions, index) for i, s in enumerate(hand)]

    def _filled_by(self, seat: int, slot: Slot) -> Entry | None:
        """The entry that showed me the card of ``slot`` in ``seat``'s hand: its draw, or the 'hand' line of a
        dealt card (a contradiction names it: that is the entry to fix if the card was typed wrong)."""
        if slot.filled < len(self.entries) and isinstance(self.entries[slot.filled], Drew):
            return self.entries[slot.filled]
        return next((e for e in self.entries if isinstance(e, Hand) and e.seat == seat), None)

    def _known_slot(self, card: Evidence, index: int, mine: bool) -> Slot:
        """A card its holder knows (they saw it before it reached them): its numbers and icons are fixed."""
        slot = self._slot(None if mine else card, index)
        return replace(slot, numbers=frozenset({card.number}), icons=frozenset({card.icon}))

    def _swap(self, entry: HandSwapped, index: int) -> None:
        """Langdale Pike's swap: each card takes the other's place; a card I gave is shown to me now."""
        for seat, pos, card in ((entry.seat, entry.position, entry.given),
                                (entry.target, entry.target_position, entry.taken)):
            slot = self.hands[seat][pos - 1]
            if seat == self.me:
                self._check_my_card(entry, pos, card)
            elif slot.card != card:
                shown_by = [e for e in [self._filled_by(seat, slot)] if e]
                raise ContradictionError(entry, shown_by, f"player {seat}'s card at position {pos} is "
                                                          f"{slot.card.code if slot.card else '?'}")
        for seat, pos, card in ((entry.seat, entry.position, entry.taken),
                                (entry.target, entry.target_position, entry.given)):
            if seat == self.me:
                self._close(card, index - 1)  # in sight in the other hand until now; mine from now on
            self.hands[seat][pos - 1] = self._known_slot(card, index, seat == self.me)

    def _close(self, card: Evidence, end: int) -> None:
        """End ``card``'s time in sight at entry ``end`` (it goes into my hand, known to me)."""
        if card in self._open:
            i = self._open.pop(card)
            span = self.spans[i]
            self._closed.append((i, span))
            self.spans[i] = Span(card, span.place, span.start, end)
            self._open_at = {**self._open_at, span.place: self._open_at[span.place] & ~(1 << card_index(card))}

    def _peek(self, entry: Peeked) -> None:
        """Toby's look: the card he saw (None for the others) goes back on top or to the bottom."""
        board = self.board
        assert board is not None
        card = entry.card
        if entry.seat == self.me and card is None:
            raise InvalidObservationError(f"'{entry}': type the card you saw: 'peek {self.me} CARD top|bottom'")
        if entry.seat != self.me and card is not None:
            raise InvalidObservationError(f"'{entry}': only player {entry.seat} saw it; type 'peek {entry.seat} "
                                          f"{'bottom' if entry.bottom else 'top'}'")
        if card is not None and card not in self.unseen() and card not in self.in_deck():
            raise ContradictionError(entry, [], f"{card.code} is {self.where(card)}")
        pinned = not board.top_known and board.deck == board.bottom  # only buried cards are left
        if board.top_known:
            known = self.top
        elif not pinned:
            known = None
        else:  # the top one of the buried cards
            known = self.buried.pop()
        if card is not None and known is not None and card != known:
            raise ContradictionError(entry, [], f"the top card is {known.code}")
        card = card or known
        if entry.bottom:
            self.top = None
            self.buried.insert(0, card)
        elif pinned:  # back on top of the buried cards, where it was
            self.buried.append(card)
        else:
            self.top = card

    def _pinned_draw(self, entry: Drew) -> Evidence | None:
        """The card this draw takes if I know it (the top card Toby saw, a buried card now on top); checks a
        card I see drawn against it. Lady Eva Blackwell's two cards: a known top card is either the one she
        keeps or the one buried."""
        board = self.board
        assert board is not None
        if board.top_known:
            pin = self.top
        elif board.deck == board.bottom and self.buried:
            pin = self.buried.pop()
        else:
            pin = None
        self.top = None
        if pin is None:
            return None
        if board.draws_two(entry.seat):
            if entry.card is not None and entry.card != pin:
                self._bury_hint = pin  # she kept the other one: the known card is the one buried
                return None
            return pin if entry.card is not None or entry.seat != self.me else None
        if entry.card is not None and entry.card != pin:
            raise ContradictionError(entry, [], f"the card on top of the deck is {pin.code}")
        return pin

    def _shuffled(self, shuffled: bool) -> None:
        """Cards went back into the deck, shuffled: no card is at a known place in it any more."""
        if shuffled:
            self.top, self.buried = None, []

    def _check_my_card(self, entry: Entry, position: int, card: Evidence) -> None:
        """The card I just played was at ``position``: it must have been possible there."""
        if not self.trusted and not self._possible_at(position, card):
            conflicts = list(self.explain(position, card).reasons)  # never none: a card is possible anywhere unseen
            raise ContradictionError(entry, conflicts, f"{card.code} cannot be at your position {position}: " +
                                     "; ".join(map(str, conflicts)))

    def _possible_at(self, position: int, card: Evidence) -> bool:
        """Whether some world puts ``card`` at my ``position``: the worlds with it there (that position holding
        it, the others any other card they allow) are counted exactly, as :meth:`_counts` counts them all."""
        unseen = self.unseen_mask()
        bit = 1 << card_index(card)
        masks = [s.mask & unseen for s in self.hands[self.me]]
        if not masks[position - 1] & bit:
            return False
        return mask_count(tuple(bit if i == position - 1 else m & ~bit for i, m in enumerate(masks))) > 0

    def _check_feasible(self, entry: Entry) -> None:
        """Some hand of mine must still fit every entry (not asked of trusted entries: :attr:`trusted`)."""
        if self.trusted:
            return
        self._fresh()
        if self.worlds() == 0:
            raise ContradictionError(entry, [], "no hand fits it together with your earlier Assists and what you see")

    # -- what I can see -------------------------------------------------------------------------------------
    def sightings(self) -> dict[Evidence, str]:
        """Every card I can see or have seen leave play, with where it is."""
        board = self.board
        assert board is not None
        out: dict[Evidence, str] = {}
        for seat, hand in self.hands.items():
            for i, s in enumerate(hand):
                if s.card is not None:
                    out[s.card] = f"in player {seat}'s hand (position {i + 1})"
        for section, ls in board.leads.items():
            where = f"confirmed on the {section} Lead" if ls.confirmed else f"on the {section} Lead"
            for c in ls.evidence + ls.raised:
                out[c] = where
        for c in board.impossible:
            if isinstance(c, Evidence):
                out[c] = "in the Impossible"
        for c in board.confirmed_cards:
            out.setdefault(c, "confirmed (face down)")
        for c, (_place, where) in self.in_deck().items():
            out[c] = where
        return out

    def where(self, card: Evidence) -> str:
        return self.sightings().get(card, "unseen (in your hand or the deck)")

    def unseen(self) -> list[Evidence]:
        """The cards that are in my hand or the deck: every card I cannot see."""
        if "unseen" not in self._cache:
            mask = self.unseen_mask()
            self._cache["unseen"] = [c for i, c in enumerate(self.data.evidence) if mask >> i & 1]
        return self._cache["unseen"]  # type: ignore[return-value]

    def unseen_mask(self) -> int:
        """:meth:`unseen` as a bit mask (:data:`CARD_INDEX`): every card but those :meth:`sightings` lists (in
        another hand, on a Lead, in the Impossible, confirmed). After an entry it is the card places' own
        (:meth:`_track` keeps them); otherwise it is counted from the board and the hands."""
        if "unseen_mask" not in self._cache:
            board = self.board
            assert board is not None
            seen = 0
            for hand in self.hands.values():
                for slot in hand:
                    seen |= slot.bit
            for ls in board.leads.values():
                seen |= card_mask(ls.evidence) | card_mask(ls.raised)
            seen |= card_mask([c for c in board.impossible if isinstance(c, Evidence)])
            seen |= card_mask(board.confirmed_cards)
            self._cache["unseen_mask"] = FULL_MASK & ~seen
        return self._cache["unseen_mask"]  # type: ignore[return-value]

    def _fresh(self) -> None:
        """Forget every answer computed before the last change, but the unseen cards the card places know."""
        self._cache.clear()
        if self._sighted is not None:
            self._cache["unseen_mask"] = FULL_MASK & ~self._sighted

    def visible_hand(self, seat: int) -> list[Evidence]:
        return [s.card for s in self.hands[seat] if s.card is not None]

    # -- exact counts -----------------------------------------------------------------------------------------
    def _worlds(self, seat: int) -> tuple[int, list[dict[Evidence, int]]]:
        key = ("worlds", seat)
        if key not in self._cache:
            unseen = list(self.unseen())
            if seat != self.me:  # they see neither their hand nor the cards only I know in the deck
                unseen += self.visible_hand(seat) + list(self.in_deck())
            self._cache[key] = hand_worlds(self.hands[seat], unseen)
        return self._cache[key]  # type: ignore[return-value]

    def _counts(self, seat: int) -> tuple[int, np.ndarray]:
        """:func:`mask_marginals` of ``seat``'s hand: the worlds and (positions x 24) worlds per card."""
        unseen = self.unseen_mask()
        if seat != self.me:
            unseen |= card_mask(self.visible_hand(seat))
        return mask_marginals(tuple(s.mask for s in self.hands[seat]), unseen)

    def worlds(self) -> int:
        """How many ways the unseen cards can fill my hand (the deck takes the rest)."""
        unseen = self.unseen_mask()
        return mask_count(tuple(s.mask & unseen for s in self.hands[self.me]))

    def hand(self, seat: int | None = None) -> list[dict[Evidence, float]]:
        """Per position of ``seat``'s hand (mine by default: exact; another's: empathy, see module docstring),
        each possible card with its probability."""
        seat = self.me if seat is None else seat
        total, weights = self._worlds(seat)
        if not total:
            return [{} for _ in weights]
        return [{c: w / total for c, w in row.items()} for row in weights]

    def possible(self, seat: int | None = None) -> list[frozenset[Evidence]]:
        return [frozenset(d) for d in self.hand(seat)]

    def empathy(self, seat: int) -> list[dict[Evidence, float]]:
        """What player ``seat`` can know about their own hand (module docstring)."""
        if seat == self.me:
            raise InvalidObservationError("empathy is for the other players; your own hand is 'hand'")
        return self.hand(seat)

    def admits(self, true_hand: Sequence[Evidence]) -> str | None:
        """None if ``true_hand`` (my real cards, left to right) is one of the worlds; else what rules it out."""
        mine = self.hands[self.me]
        if len(mine) != len(true_hand):
            return f"player {self.me}'s knowledge has {len(mine)} cards, the real hand {len(true_hand)}"
        unseen = self.unseen_mask()
        for i, (slot, card) in enumerate(zip(mine, true_hand, strict=True)):
            bit = 1 << card_index(card)
            if not unseen & bit:
                return f"player {self.me} thinks {card.code} is {self.where(card)}, but it is at their position {i + 1}"
            if not slot.allows(card):
                return f"player {self.me}'s Assists rule out {card.code} at position {i + 1}, where it is"
            if not slot.mask & bit:
                return (f"player {self.me} saw {card.code} elsewhere since their position {i + 1} was filled, "
                        f"but it is there")
        if self.worlds() == 0:
            return f"player {self.me}'s knowledge admits no hand at all"
        return None

    # -- why -------------------------------------------------------------------------------------------------
    def hints_on(self, position: int, seat: int | None = None) -> list[tuple[Assisted, bool]]:
        """The Assists that reached the card now at ``position`` (with whether each named it)."""
        seat = self.me if seat is None else seat
        slot = self.hands[seat][position - 1]
        out = []
        for index, named in slot.hints:
            entry = self.entries[index]
            assert isinstance(entry, Assisted)
            out.append((entry, named))
        return out

    def _entry_text(self, index: int) -> str:
        return f"entry {index + 1} '{self.entries[index]}'"

    def sightings_of(self, seat: int | None = None) -> list[Sighting]:
        """Per card, the sighting that rules it out of the most positions of ``seat``'s hand (mine by default):
        where it is now if I see it, else its latest time in sight that some position already held, with those
        positions. For another seat, sightings in their own hand are left out (they cannot see it)."""
        seat = self.me if seat is None else seat
        hand = self.hands[seat]
        now = self.sightings()
        out: list[Sighting] = []
        for card in self.data.evidence:
            spans = [sp for sp in self.sighting_spans(card) if sp.place != ("hand", seat)]
            if card in now and (seat == self.me or any(sp.end is None for sp in spans)):
                out.append(Sighting(card, now[card]))
                continue
            past = [sp for sp in spans if sp.end is not None]
            if not past:
                continue
            last = max(past, key=lambda sp: (sp.end, sp.start))
            assert last.end is not None
            held = tuple(i for i, slot in enumerate(hand, 1) if slot.filled <= last.end)
            if held:
                out.append(Sighting(card, last.where, self._entry_text(last.start), self._entry_text(last.end), held,
                                    None if seat == self.me else seat))
        return out

    def sighted_at(self, position: int, seat: int | None = None) -> dict[Evidence, Sighting]:
        """The cards a sighting rules out at ``position`` of ``seat``'s hand, each with that sighting."""
        return {r.card: r for r in self.sightings_of(seat) if not r.left or position in r.positions}

    def reasons(self) -> list[Reason]:
        """Every fact that narrows my hand: the cards I see or saw while holding my cards, then the Assists to
        my current cards."""
        out: list[Reason] = list(self.sightings_of())
        for pos in range(1, len(self.hands[self.me]) + 1):
            out += [Told(pos, a, named) for a, named in self.hints_on(pos)]
        return out

    def constraint_model(self) -> Knowledge[Reason]:
        """My hand as a :class:`Knowledge` with one gated observation per reason (for ``why`` and tests).

        Variables are all 24 Evidence cards; values are my positions ``p1``.., ``deck`` and ``seen``.
        """
        if "model" in self._cache:
            return self._cache["model"]  # type: ignore[return-value]
        k = len(self.hands[self.me])
        units = [f"p{i}" for i in range(1, k + 1)]
        unseen = len(self.unseen())
        caps = {"deck": unseen - k, "seen": len(self.data.evidence) - unseen}
        values = (*units, *caps)
        codes = [c.code for c in self.data.evidence]
        structure = [CountEquals(tuple((c, u) for c in codes), 1) for u in units]
        structure += [CountEquals(tuple((c, b) for c in codes), cap) for b, cap in caps.items()]
        problem = Problem(dict.fromkeys(codes, values), tuple(structure))
        model: Knowledge[Reason] = Knowledge(problem, self._compile_reason, InjectionCounter(units, caps))
        for reason in self.reasons():
            model.add(reason)
        self._cache["model"] = model
        return model

    def _compile_reason(self, reason: Reason) -> list[Constraint]:
        if isinstance(reason, Sighting):
            if reason.left:
                return [CountEquals(((reason.card.code, f"p{pos}"),), 0) for pos in reason.positions]
            return [require(reason.card.code, "seen")]
        cards = [c.code for c in self.data.evidence if matches(c, reason.assist.subject)]
        return [CountEquals(tuple((c, f"p{reason.position}") for c in cards), 1 if reason.named else 0)]

    def explain(self, position: int, card: Evidence) -> Explanation[Reason]:
        """Why ``card`` is impossible, certain or open at my ``position``: a minimal set of reasons.

        The reasons are the cards I see and the Assists to my current cards (:meth:`reasons`). A set of them
        forces the answer when, keeping only those (an unsighted card may then be anywhere unseen, an Assist
        left out says nothing), the exact count still gives probability 0 (impossible) or 1 (certain). Reasons
        are dropped one at a time while the rest still force it, so the set is minimal: no reason can go.
        The same question on the CP-SAT model is :meth:`explain_cp_sat` (tests check they agree)."""
        k = len(self.hands[self.me])
        if not 1 <= position <= k:
            raise InvalidObservationError(f"position {position}: you hold {plural(k, 'card')}")
        lit = (card.code, f"p{position}")
        p = self.hand()[position - 1].get(card, 0.0)
        if 0.0 < p < 1.0:
            return Explanation(lit, "open")
        status = "certain" if p == 1.0 else "impossible"
        bit = 1 << CARD_INDEX[card]

        def forced(kept: Sequence[Reason]) -> bool:
            masks = [FULL_MASK] * k
            unseen = FULL_MASK
            for r in kept:
                if isinstance(r, Sighting) and r.left:
                    for pos in r.positions:
                        masks[pos - 1] &= ~(1 << CARD_INDEX[r.card])
                elif isinstance(r, Sighting):
                    unseen &= ~(1 << CARD_INDEX[r.card])
                else:
                    sm = subject_mask(r.assist.subject)
                    masks[r.position - 1] &= sm if r.named else ~sm
            total, rows = mask_worlds(tuple(masks), unseen)
            weight = next((w for i, w in rows[position - 1] if 1 << i == bit), 0)
            return weight == 0 if status == "impossible" else weight == total

        # Sightings of the card itself and Assists to this position first: they are the likeliest reasons,
        # and trying the others for removal first keeps them.
        core = sorted(self.reasons(), key=lambda r: not (
            (isinstance(r, Sighting) and r.card == card) or (isinstance(r, Told) and r.position == position)))
        i = len(core) - 1
        while i >= 0:
            trial = core[:i] + core[i + 1 :]
            if forced(trial):
                core = trial
            i -= 1
        return Explanation(lit, status, tuple(core))

    def explain_cp_sat(self, position: int, card: Evidence) -> Explanation[Reason]:
        """:meth:`explain` on the CP-SAT model (gated observations, infeasibility cores): slower, for checks."""
        k = len(self.hands[self.me])
        if not 1 <= position <= k:
            raise InvalidObservationError(f"position {position}: you hold {plural(k, 'card')}")
        return self.constraint_model().explain((card.code, f"p{position}"))
