"""The ``hat`` convention for Beyond Baker Street: one Assist tells every other player where a card is best used.

A table that agrees on it reads every Assist twice: literally (where the target's cards of a number or icon
are, as the knowledge model does) and as a *hat* message, as in the "hat guessing" strategies for Hanabi.

- The cards still in play are split into **classes** by a partition every player computes alike from public
  facts (:meth:`HatTable.classes`). The table's partition is ``use`` (:func:`use_classes`): the open Lead a card
  is best played to, from the board as it is when the Assist is given (the advisor's own value table, which
  depends only on the board and on which cards are still in play), or, for a card with no Lead to go to, "best
  eliminated" and "no good use", split by number 1 to 3 and 4 to 6: six classes. The first version of the
  convention used the icons (``icon``); ``use`` tells a player what to do with the card, not only which Lead
  matches its icon (docs/beyond-baker-street.md, "Hard cases: what was tried").
- Each player's **focus** is their rightmost (newest) card not fixed by an earlier hat message whose Assists
  (public) still leave it in two classes or more; a player with no such card has no focus. (The first version
  took the leftmost; the newest is the card the table knows least about.)
- The giver adds up, over the players other than themself that have a focus, the index of the focus card's
  class, modulo the number of messages (6), and says the sum by *whom* they assist and *what kind* of subject
  they name: the targets in seat order from the giver's left, and for each a number or an icon with 4 players,
  a number 1 to 3, a number 4 to 6 or an icon with 3 (``mid``), give the messages 0, 1, 2, ... (with 2 players
  there are too few, so the convention needs 3 or 4 players; see :func:`in_play` for the Case Files).
- Every other player sees all focus cards but their own, so subtracting the ones they see from the sum gives
  their own focus card's class.

One Assist (one Holmes space) thus tells two players (three with 4) a class each, besides its literal content:
Assists are what the hardest Case Files lack (docs, "Why the hard cases are hard").

**Plays are messages too** (:attr:`HatTable.plays`, :meth:`HatTable.play_part`): an Investigate or an
Eliminate costs no Holmes space, and which position the card is played from is a choice the player hardly
knows how to make anyway. So the player to move plays from the position that says the sum, modulo the number
of positions, of the other players' focus classes in a partition with as many classes as positions
(:func:`play_classes`: the open Leads, then the cards of no good play by number); the positions public facts
already show to be bad plays are left out, and a player who public facts show holds a good play plays freely
(no message). Every player reads the same classes from the position, as from an Assist. Most turns are plays,
so this is where most of what the table learns now comes from (docs, "Hard cases: what was tried").

What the convention tells is a fact only if the whole table follows it, so it never enters the exact knowledge
model (which stays sound whatever the others do); the bot uses it through ``advise(known=...)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from types import ModuleType
from typing import cast

import numpy as np

from models.beyond_baker_street.advice import (
    DEFAULT_WEIGHTS,
    ICON_OF,
    NUMBER_OF,
    Advice,
    Situation,
    Weights,
)
from models.beyond_baker_street.characters import hat_off_reason
from models.beyond_baker_street.compiled import compiled
from models.beyond_baker_street.data import ICONS, NUMBERS
from models.beyond_baker_street.knowledge import CARD_INDEX, ICON_MASK, HandKnowledge, subject_mask
from models.beyond_baker_street.observations import (
    Action,
    Assist,
    Assisted,
    Confirm,
    Eliminate,
    Eliminated,
    Entry,
    Investigate,
    Investigated,
    Pursue,
    Subject,
    shared,
)
from models.beyond_baker_street.plain import (
    AdvisorBot,
    _plays_from,
    advise,
    advise_in,
    assist_numbers,
    pursue_kept,
    scores_in,
)
from solver.injections import PARTITION_LIMIT

MESSAGES = len(ICONS)
ALL_CARDS = (1 << 24) - 1
TIGHT_LIMIT = 2  # the convention is played in Case Files whose Impossible takes at most this many cards


def in_play(kn: HandKnowledge) -> bool:
    """Whether the table plays the convention: 3 or 4 players and a Case File where Assists are scarce (Case
    Files 3 to 6). In Case Files 1 and 2 Assists are plentiful and the fixed choice of whom to assist costs more
    than the messages tell (measured with the icon partition: docs), so the hat table plays the plain advisor
    there."""
    board = kn.board  # without Character cards the convention is never off (hat_off_reason: none to ask)
    return (board is not None and kn.players >= 3 and board.case.limit <= TIGHT_LIMIT
            and (not board.characters or hat_off_reason(kn) is None))


KINDS = ("number", "icon")
#: The finer kinds of the ``fine`` mode: a number 1 to 3 or 4 to 6, an icon of the first two or the last two.
FINE_KINDS = ("low", "high", "icon-a", "icon-b")
#: The kinds of the ``mid`` mode: a number 1 to 3, a number 4 to 6, an icon.
MID_KINDS = ("low", "high", "icon")


def messages(giver: int, players: int, count: int = MESSAGES, kinds: tuple[str, ...] = KINDS
             ) -> list[tuple[int, str]]:
    """The (target, kind of subject) pairs that say 0, 1, ... ``count - 1`` when ``giver`` assists."""
    return list(_messages(giver, players, count, kinds))


@lru_cache(maxsize=256)
def _messages(giver: int, players: int, count: int, kinds: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """:func:`messages` as a tuple, built once per giver, table and partition (every decision reads it)."""
    targets = [(giver + k - 1) % players + 1 for k in range(1, players)]
    return tuple([(t, kind) for t in targets for kind in kinds][:count])


def kind_of(subject: Subject, kinds: tuple[str, ...] = KINDS) -> str:
    """The kind of an Assist's subject: number or icon, or with :data:`FINE_KINDS` which half of them."""
    if kinds == KINDS:
        return "number" if isinstance(subject, int) else "icon"
    if isinstance(subject, int):
        return "low" if subject <= 3 else "high"
    return "icon" if kinds == MID_KINDS else "icon-a" if ICONS.index(subject) < 2 else "icon-b"


def use_classes(sit: Situation, count: int = MESSAGES) -> list[int]:
    """The ``use`` partition of the cards still in play into ``count`` classes (4, or 6 with 4 players), from
    public facts only (the board and which cards are still in play, so every player computes the same): a
    card's class is the open Lead it is best played to (the first :attr:`~Situation.sections` row with the
    highest value) if that value is positive. With 4 classes the last takes every other card (with fewer than
    three open Leads, eliminating with a positive value gets the class after the Leads); with 6, class 3 is
    "best eliminated", 4 "of no positive use, number 1 to 3" and 5 the same with 4 to 6. The ``fine`` mode's 8
    (3 players) and 12 (4 players) classes also split each Lead's class by number (see the code). Computed once
    per value table (every seat reads the same)."""
    memo = sit.value_table.memo
    key = ("use", count)
    if key not in memo:
        memo[key] = _use_classes(sit, count)
    return list(cast(list[int], memo[key]))


def _use_classes(sit: Situation, count: int) -> list[int]:
    table = sit.value_table
    kernels = compiled()
    if kernels is not None and table.uses is not None:  # the same classes by the compiled loop
        return kernels.use_classes(table.uses, table.live, table.leads, count).tolist()  # type: ignore[no-any-return]
    leads = len(sit.leads)
    classes = [0] * count
    for i, row, worth in best_uses(sit):
        n = NUMBER_OF[i]
        if count == 8:  # each Lead by number 1 to 3 and 4 to 6, then best eliminated, then of no good use
            c = 2 * row + (n >= 4) if worth and row < leads else 6 if worth else 7
        elif count == 9:  # each Lead by number 1 to 3 and 4 to 6, best eliminated, no good use 1-3 and 4-6
            c = 2 * row + (n >= 4) if worth and row < leads else 6 if worth else 7 + (n >= 4)
        elif count == 12:  # each Lead by number 1-2, 3-4, 5-6, best eliminated, no good use 1-3 and 4-6
            c = 3 * row + (n - 1) // 2 if worth and row < leads else 9 if worth else 10 + (n >= 4)
        elif worth and row < leads:
            c = row
        elif count == 6:
            c = 3 if worth else (4 if n <= 3 else 5)
        elif worth and leads < count - 1:
            c = leads
        else:
            c = count - 1
        classes[c] |= 1 << i
    return classes


def best_uses(sit: Situation) -> Iterator[tuple[int, int, bool]]:
    """For each card still in play (public, so every player gets the same): its index, the first
    :attr:`~Situation.sections` row of highest value (an open Lead, or eliminating it), and whether that value is
    positive. Both partitions, :func:`use_classes` and :func:`play_classes`, start from it (computed once per
    value table: :attr:`~models.beyond_baker_street.advice.ValueTable.best_uses`)."""
    return iter(sit.value_table.best_uses)


def play_classes(sit: Situation, count: int) -> list[int]:
    """The partition a *played* card's position tells (:attr:`HatTable.plays`): ``count`` classes (the player's
    hand size), public like :func:`use_classes`. A card in play goes to the class of the open Lead it is best
    played to (if that is worth anything), the others are split by number into the classes left (with as many
    open Leads as classes, the last Lead's class takes them too). Computed once per value table."""
    memo = sit.value_table.memo
    key = ("play", count)
    if key not in memo:
        memo[key] = _play_classes(sit, count)
    return list(cast(list[int], memo[key]))


def _play_classes(sit: Situation, count: int) -> list[int]:
    table = sit.value_table
    kernels = compiled()
    if kernels is not None and table.uses is not None:  # the same classes by the compiled loop
        return kernels.play_classes(table.uses, table.live, table.leads, count).tolist()  # type: ignore[no-any-return]
    leads = len(sit.leads)
    rest = max(1, count - leads)
    classes = [0] * count
    for i, row, worth in best_uses(sit):
        c = min(count - 1, row if worth and row < leads else leads + (NUMBER_OF[i] - 1) * rest // 6)
        classes[c] |= 1 << i
    return classes


def play_label(kn: HandKnowledge, count: int, index: int) -> str:
    """Class ``index`` of :func:`play_classes` with ``count`` classes, in words, for the companion."""
    assert kn.board is not None
    leads = [ls.section for ls in kn.board.leads.values() if not ls.confirmed and ls.lead is not None]
    if index < min(len(leads), count - 1):
        return f"best on the {leads[index]} Lead"
    if count <= len(leads):
        return f"best on the {' or '.join(leads[index:])} Lead, or no good play"
    rest = count - len(leads)
    numbers = [n for n in range(1, 7) if len(leads) + (n - 1) * rest // 6 == index]
    return f"no good play, a {numbers[0]} to {numbers[-1]}"


def good_cards(sit: Situation) -> int:
    """The cards in play that are worth playing to some open Lead now (public, as :func:`use_classes`)."""
    return sit.value_table.good


ICON_CLASSES = [ICON_MASK[ic] for ic in ICONS]
MODES = ("use", "icon", "fine", "mid")
#: :attr:`HatTable.plays` for "every play carries a message" (above any Holmes marker)
PLAYS_ALWAYS = 99
#: Plays carry messages at a table of this many players in Case Files whose Impossible takes at most this many
#: cards: with 3 players in every Case File the convention is played in; with 4 only in Case Files 5 and 6, as
#: with 4 players (three cards a hand) it lost 5 to 10 points in Case Files 3 and 4 (docs, "Hard cases").
PLAYS_LIMIT = {3: 2, 4: 1}
#: The partition a table plays when none is named: the best measured at each player count (docs).
DEFAULT_MODE = {3: "mid", 4: "use"}


class HatTable:
    """What the hat messages so far have told, as one player follows them: for each card they fixed (by slot id,
    for every hand, mine included), the class it was told to be in, as a card mask (:attr:`fixed`) and in words
    (:attr:`labels`).

    ``mode`` is the partition the table agrees on (None: :data:`DEFAULT_MODE` for the player count): ``use``
    (:func:`use_classes` with 4 messages, 6 with 4 players), ``fine`` (the same split by number, with 8 or 12
    messages told apart by half kinds of subject: a 1 to 3 or a 4 to 6, an icon of the first or last two),
    ``mid`` (6 or 9 messages: a low number, a high number, an icon) or ``icon`` (a card's icon, the first
    version). The others are kept to compare them (docs/beyond-baker-street.md, "Hard cases: what was
    tried")."""

    def __init__(self, mode: str | None = None, weights: Weights = DEFAULT_WEIGHTS, again: bool = False,
                 newest: bool = True) -> None:
        if mode is not None and mode not in MODES:
            raise ValueError(f"hat mode {mode!r}: expected one of {', '.join(MODES)}")
        self.mode = mode
        self.again = again  # a fixed card may be the focus again once the partition has changed
        self.newest = newest  # the focus is the rightmost (newest) card rather than the leftmost
        self.weights = weights
        #: plays carry a message too while the Holmes marker is at most this (0: never; see :meth:`play_part`)
        self.plays = PLAYS_ALWAYS
        #: per player count, the Case Files (by Impossible limit) where plays carry messages; None: all of them
        self.plays_limit: dict[int, int] | None = PLAYS_LIMIT
        #: a player whose hand holds a card publicly known to be a good play plays freely (no message)
        self.free = True
        #: a play's position tells each other player where a good card of theirs is (else the class of a card)
        self.where = False
        #: a play's message leaves out the positions public facts already show to be bad plays
        self.skip_bad = True
        self.fixed: dict[int, int] = {}
        self.labels: dict[int, str] = {}
        #: counts the messages taken in (:attr:`fixed` changes only with it): with the knowledge state, it keys
        #: the memo of :meth:`play_part`
        self.version = 0

    def mode_for(self, kn: HandKnowledge) -> str:
        """The partition played at ``kn``'s table."""
        return self.mode or DEFAULT_MODE.get(kn.players, "use")

    def count(self, kn: HandKnowledge) -> int:
        """How many messages the table uses: 4, or 6 with 4 players in ``use``; ``fine`` 8 (12), ``mid`` 6 (9)."""
        mode = self.mode_for(kn)
        if mode == "fine":
            return 4 * (kn.players - 1)
        if mode == "mid":
            return 6 if kn.players == 3 else 9
        return 6 if mode == "use" and kn.players == 4 else MESSAGES

    def kinds(self, kn: HandKnowledge) -> tuple[str, ...]:
        """The kinds of subject that tell messages apart."""
        mode = self.mode_for(kn)
        return FINE_KINDS if mode == "fine" else MID_KINDS if mode == "mid" else KINDS

    def classes(self, kn: HandKnowledge, sit: Situation | None = None) -> tuple[list[int], int]:
        """The partition's classes as card masks, and the cards a focus must still be uncertain among (``sit``:
        ``kn``'s situation if it is built already, with the table's weights)."""
        if self.mode_for(kn) == "icon":
            return ICON_CLASSES, ALL_CARDS
        if sit is None or (sit.weights is not self.weights and sit.weights != self.weights):
            sit = Situation.kept(kn, self.weights)
        return use_classes(sit, self.count(kn)), sit.live

    def label(self, kn: HandKnowledge, index: int) -> str:
        """Class ``index`` of the partition (as it is now) in words, for the companion."""
        if self.mode_for(kn) == "icon":
            return ICONS[index]
        assert kn.board is not None
        leads = [ls.section for ls in kn.board.leads.values() if not ls.confirmed and ls.lead is not None]
        count = self.count(kn)
        if count in (8, 9, 12):
            per = 3 if count == 12 else 2  # classes per Lead: numbers 1-3 and 4-6, or 1-2, 3-4 and 5-6
            if index < 3 * per:
                lo = 1 + (index % per) * (6 // per)
                return f"best on the {leads[index // per]} Lead, a {lo} to {lo + 6 // per - 1}"
            rest = ("best eliminated", "of no good use") if count == 8 else (
                "best eliminated", "of no good use, a 1 to 3", "of no good use, a 4 to 6")
            return rest[index - 3 * per]
        if index < len(leads):
            return f"best on the {leads[index]} Lead"
        if self.count(kn) == 6 and index >= 3:
            return ("best eliminated", "of no good use, a 1 to 3", "of no good use, a 4 to 6")[index - 3]
        if index == len(leads) and index < MESSAGES - 1:
            return "best eliminated"
        return "of no good use (or best eliminated)" if len(leads) == MESSAGES - 1 else "of no good use"

    def focus(self, kn: HandKnowledge, seat: int, part: tuple[list[int], int] | None = None) -> int | None:
        """The index of ``seat``'s focus card, or None: the rightmost (newest) card (the leftmost, if not
        :attr:`newest`) not fixed yet whose Assists (public) leave it in two classes or more."""
        classes, live = part or self.classes(kn)
        slots = kn.hands[seat]
        fixed, again = self.fixed, self.again
        n = len(slots)
        for j in range(n):  # by index, newest first (no list of pairs: it runs for every hand, every play)
            i = n - 1 - j if self.newest else j
            slot = slots[i]
            sid = slot.id
            if not again and sid in fixed:
                continue
            allowed = slot.told_mask & live & fixed.get(sid, ALL_CARDS)
            among = False  # whether one class it may be in is found already
            for c in classes:
                if c & allowed:
                    if among:
                        return i
                    among = True
        return None

    @staticmethod
    def class_of(classes: list[int], card: int) -> int:
        """The index of the class holding card index ``card``."""
        for k, c in enumerate(classes):
            if c >> card & 1:
                return k
        raise ValueError(f"card {card} is in no class")

    def seen_sum(self, kn: HandKnowledge, giver: int, skip: int | None = None,
                 part: tuple[list[int], int] | None = None, foci: dict[int, int | None] | None = None) -> int:
        """The sum of the focus classes of every player but ``giver`` and ``skip`` (all must be hands I see;
        ``foci``: their focus cards in ``part``, if the caller has them already)."""
        part = part or self.classes(kn)
        total = 0
        for seat in kn.hands:
            if seat in (giver, skip):
                continue
            f = foci[seat] if foci is not None else self.focus(kn, seat, part)
            if f is not None:
                card = kn.hands[seat][f].card
                assert card is not None, "only the hands I see are summed"
                total += self.class_of(part[0], CARD_INDEX[card])
        return total % len(part[0])

    def read(self, kn: HandKnowledge, event: Assisted) -> None:
        """Take in an Assist (before the knowledge model does: the focus cards are those it was given on)."""
        if not in_play(kn):
            return
        said = messages(event.giver, kn.players, self.count(kn), self.kinds(kn))
        key = (event.target, kind_of(event.subject, self.kinds(kn)))
        if key not in said:
            return
        self._take(kn, event.giver, said.index(key), self.classes(kn), lambda index: self.label(kn, index))

    def _take(self, kn: HandKnowledge, giver: int, message: int, part: tuple[list[int], int],
              label: Callable[[int], str]) -> None:
        """Fix every focus card but the giver's to the class that ``message`` (the sum) says."""
        classes = part[0]
        foci = {seat: self.focus(kn, seat, part) for seat in kn.hands if seat != giver}
        mine = (message - self.seen_sum(kn, giver, kn.me, part, foci)) % len(classes) if giver != kn.me else None
        told: dict[int, int] = {}  # all read first: the focus cards are those before this message
        for seat in kn.hands:
            f = None if seat == giver else foci[seat]
            if f is None:
                continue
            slot = kn.hands[seat][f]
            if seat == kn.me:
                assert mine is not None
                told[slot.id] = mine
            else:
                assert slot.card is not None
                told[slot.id] = self.class_of(classes, CARD_INDEX[slot.card])
        for slot_id, index in told.items():
            self.fixed[slot_id] = self.fixed.get(slot_id, ALL_CARDS) & classes[index]
            self.labels[slot_id] = label(index)
        self.version += 1

    def certain_play(self, kn: HandKnowledge, seat: int, sit: Situation) -> bool:
        """Whether public facts alone (Assists and hat messages) make one of ``seat``'s cards a good play to
        one open Lead whatever it is."""
        positive = sit.value_table.positive  # per open Lead, the cards worth something on it
        for slot in kn.hands[seat]:
            allowed = slot.told_mask & sit.live & self.fixed.get(slot.id, ALL_CARDS)
            if not allowed:
                continue
            if self.where:
                if not allowed & ~good_cards(sit):
                    return True
                continue
            for mask in positive:  # every card it may be is good on that Lead (a loop: every play asks it)
                if not allowed & ~mask:
                    return True
        return False

    def where_candidates(self, kn: HandKnowledge, seat: int, sit: Situation, count: int) -> list[int]:
        """The positions of ``seat``'s hand a *where* message speaks of, newest first: those public facts leave
        either a good play or not (:func:`good_cards`), at most ``count - 1`` of them."""
        good = good_cards(sit)
        out = []
        for i in reversed(range(len(kn.hands[seat]))):
            slot = kn.hands[seat][i]
            allowed = slot.told_mask & sit.live & self.fixed.get(slot.id, ALL_CARDS)
            if allowed & good and allowed & ~good:
                out.append(i)
        return out[:count - 1]

    def where_value(self, kn: HandKnowledge, seat: int, sit: Situation, count: int) -> int:
        """What a *where* message tells ``seat`` (a hand I see): k for the k-th candidate position (1-based) if
        it is the first good one, 0 if none is."""
        good = good_cards(sit)
        for k, i in enumerate(self.where_candidates(kn, seat, sit, count), 1):
            card = kn.hands[seat][i].card
            assert card is not None, "only the hands I see are valued"
            if good >> CARD_INDEX[card] & 1:
                return k
        return 0

    def where_sum(self, kn: HandKnowledge, giver: int, sit: Situation, count: int) -> int:
        """The sum of the *where* values of every player but ``giver`` and me, modulo ``count``."""
        return sum(self.where_value(kn, seat, sit, count) for seat in kn.hands if seat not in (giver, kn.me)) % count

    def take_where(self, kn: HandKnowledge, giver: int, message: int, sit: Situation, count: int) -> None:
        """Fix, for every player but ``giver``, the candidate positions a *where* message spoke of."""
        good = good_cards(sit)
        told: dict[int, tuple[list[int], int]] = {}
        for seat in kn.hands:
            if seat == giver:
                continue
            if seat == kn.me:
                value = (message - self.where_sum(kn, giver, sit, count)) % count
            else:
                value = self.where_value(kn, seat, sit, count)
            told[seat] = (self.where_candidates(kn, seat, sit, count), value)
        self.version += 1
        for seat, (candidates, value) in told.items():
            for k, i in enumerate(candidates, 1):
                slot = kn.hands[seat][i]
                if k == value:
                    self.fixed[slot.id] = self.fixed.get(slot.id, ALL_CARDS) & good
                    self.labels[slot.id] = "a good play"
                    break
                self.fixed[slot.id] = self.fixed.get(slot.id, ALL_CARDS) & ~good & ALL_CARDS
                self.labels[slot.id] = "not a good play"

    def play_part(self, kn: HandKnowledge, seat: int, sit: Situation | None = None
                  ) -> tuple[tuple[list[int], int], list[int]] | None:
        """What ``seat``'s next play (Investigate or Eliminate) tells by its position: the partition, and the
        positions (0-based) that say 0, 1, ... in turn; None when that play tells nothing. Plays carry a message
        while the Holmes marker is at most :attr:`plays`, in the Case Files :attr:`plays_limit` names, and the
        player holds two cards or more that public facts do not already show to be bad plays (with
        :attr:`skip_bad`: those are left out), unless :attr:`free` and public facts already give them a good
        play. All public, so every player agrees whether a play is a message.

        Shared by every seat of a process: the answer is a function of public facts alone (the value table,
        which also fixes the cards in play and the Holmes marker, and the cards ``seat``'s Assists and the hat
        messages allow at each position), so it is kept in the value table's memo by those masks and the settings;
        every seat reads every play, and the player to move asks it again for its own decision."""
        board = kn.board
        if not self.plays or board is None or board.holmes > self.plays or not in_play(kn):
            return None
        if self.plays_limit is not None and board.case.limit > self.plays_limit.get(kn.players, -1):
            return None
        if sit is None or (sit.weights is not self.weights and sit.weights != self.weights):
            sit = Situation.kept(kn, self.weights)
        live, fixed = sit.live, self.fixed
        masks = tuple([slot.told_mask & live & fixed.get(slot.id, ALL_CARDS) for slot in kn.hands[seat]])
        key = ("play_part", masks, self.free, self.skip_bad, self.where)
        memo = sit.value_table.memo
        if key not in memo:
            memo[key] = self._play_part_of(masks, sit)
        return memo[key]  # type: ignore[return-value]

    def _play_part_of(self, masks: tuple[int, ...], sit: Situation
                      ) -> tuple[tuple[list[int], int], list[int]] | None:
        """:meth:`play_part` once its checks have passed, from the cards it found allowed at each position
        (``masks``): the positions kept, and None if :meth:`certain_play` (with :attr:`free`) would say so."""
        table = sit.value_table
        if self.skip_bad:
            good = table.good
            positions = [i for i, allowed in enumerate(masks) if allowed & good]
        else:
            positions = list(range(len(masks)))
        if len(positions) < 2:
            return None
        if self.free:  # certain_play: a card public facts already show to be a good play
            positive = table.positive
            for allowed in masks:
                if not allowed:
                    continue
                if self.where:
                    if not allowed & ~table.good:
                        return None
                    continue
                for mask in positive:
                    if not allowed & ~mask:
                        return None
        return (play_classes(sit, len(positions)), sit.live), positions

    def read_play(self, kn: HandKnowledge, event: Investigated | Eliminated) -> None:
        """Take in a play (before the knowledge model does): its position says the sum of the focus classes."""
        if not self.plays or not kn.started:
            return
        sit = Situation.kept(kn, self.weights)
        play = self.play_part(kn, event.seat, sit)
        if play is None or event.position - 1 not in play[1]:
            return
        part, positions = play
        message = positions.index(event.position - 1)
        if self.where:
            self.take_where(kn, event.seat, message, sit, len(positions))
        else:
            self._take(kn, event.seat, message, part, lambda index: play_label(kn, len(positions), index))

    def known(self, kn: HandKnowledge) -> list[int]:
        """Per position of my hand, the cards the hat messages allow there."""
        return [self.fixed.get(s.id, ALL_CARDS) for s in kn.hands[kn.me]]

    def masks(self, kn: HandKnowledge, seat: int) -> tuple[int, ...]:
        """``seat``'s slot masks: its Assists and the classes hat messages fixed."""
        return tuple(s.mask & self.fixed.get(s.id, ALL_CARDS) for s in kn.hands[seat])


#: per row count n, the base row of each pair of rows (0, 0, 2, 2, ...): :func:`hat_gains`' rows come in pairs
#: (writable, as the compiled loop was compiled for; never written)
_PAIR_BASE = [np.arange(n, dtype=np.intp) // 2 * 2 for n in range(16)]


def hat_gains(sit: Situation, hat: HatTable, part: tuple[list[int], int] | None = None,
              foci: dict[int, int | None] | None = None) -> dict[int, float]:
    """What my hat message is worth to each player it tells a class: the true value of the play the class makes
    best for them, beyond what they would play anyway (the same whatever Assist carries the message; ``foci``:
    each other player's focus card in ``part``, if the caller has them already)."""
    return hat_gains_many(sit, hat, [(part or hat.classes(sit.kn, sit), foci)])[0]


def hat_gains_many(sit: Situation, hat: HatTable,
                   parts: Sequence[tuple[tuple[list[int], int], dict[int, int | None] | None]]
                   ) -> list[dict[int, float]]:
    """:func:`hat_gains` for each (partition, focus cards) of ``parts``, all their rows valued in one evaluation
    (a row's value depends on its own pair of rows alone, so each is the number a call of its own gives): the
    hat decision values my Assist's message and my play's in one call."""
    kn = sit.kn
    w = sit.weights
    # per hand size, one row each of every focus holder's knowledge before and after my message
    groups: dict[int, tuple[list[tuple[int, int]], list[int], list[int], list[int], list[float]]] = {}
    fixed = hat.fixed
    players = sit.board.players
    for tag, (part, foci) in enumerate(parts):
        classes = part[0]
        for seat, hand in sit.hands.items():
            f = foci[seat] if foci is not None else hat.focus(kn, seat, part)
            if f is None:
                continue
            slots = kn.hands[seat]
            before = [s.mask & fixed.get(s.id, ALL_CARDS) for s in slots]  # hat.masks(kn, seat)
            told = classes[hat.class_of(classes, hand[f])]
            after = list(before)
            after[f] &= told
            k = len(hand)
            group = groups.get(k)
            if group is None:
                group = groups[k] = ([], [], [], [], [])
            group[0].append((tag, seat))
            group[1].extend(before + after)
            group[2].extend(hand + hand)
            cannot = sit.unseen
            for c in hand:
                cannot |= 1 << c
            group[3].extend((cannot, cannot))
            d = w.hint_discount ** ((seat - sit.me) % players - 1)
            group[4].extend((d, d))
    gains: list[dict[int, float]] = [{} for _ in parts]
    for k, (group_seats, masks, hands, unseen, discount) in groups.items():
        n = 2 * len(group_seats)
        values, _best, _value = assist_numbers(
            sit, np.array(masks, dtype=np.int64).reshape(n, k), np.array(unseen, dtype=np.int64),
            np.array(hands, dtype=np.intp).reshape(n, k), _PAIR_BASE[n], np.array(discount), terms=False)
        for g, (tag, seat) in enumerate(group_seats):
            gains[tag][seat] = values[2 * g + 1]  # the gain of the play it makes best, less the gain of the one before
    return [{seat: found[seat] for seat in sit.hands if seat in found} for found in gains]


#: the plays whose position may carry a message (a tuple: ``isinstance`` with ``A | B`` builds the union each time)
_PLAYS = (Investigate, Eliminate)


def hat_scores(kn: HandKnowledge, hat: HatTable, weights: Weights = DEFAULT_WEIGHTS
               ) -> tuple[list[Action], list[float]]:
    """:func:`hat_advise`'s actions and values alone, unranked (:func:`~models.beyond_baker_street.plain.scores_in`):
    what the hat bot plays the best legal one of, at a table without Character cards whose game is not over."""
    sit = Situation.kept(kn, weights)
    if not in_play(kn):
        return scores_in(sit)
    kernels = compiled()
    if kernels is not None and not hat.where and (sit.weights is hat.weights or sit.weights == hat.weights):
        fast = _hat_scores_compiled(kernels, kn, hat, sit)
        if fast is not None:
            return fast
    return _hat_scores_in(kn, hat, sit)


def _hat_scores_in(kn: HandKnowledge, hat: HatTable, sit: Situation) -> tuple[list[Action], list[float]]:
    """:func:`hat_scores` by the general path (:func:`scores_in` and :func:`hat_gains_many`): any hand sizes,
    the ``where`` messages, and the array code before the compiled loops are loaded."""
    kinds = hat.kinds(kn)
    classes = hat.classes(kn, sit)
    others = [seat for seat in kn.hands if seat != kn.me]  # each focus read once, for the sum and the gains
    foci = {seat: hat.focus(kn, seat, classes) for seat in others}
    said = messages(kn.me, kn.players, hat.count(kn), kinds)[hat.seen_sum(kn, kn.me, part=classes, foci=foci)]
    play = hat.play_part(kn, kn.me, sit)
    position = None
    play_foci = None
    if play is not None:
        part, positions = play
        play_foci = {seat: hat.focus(kn, seat, part) for seat in others}
        at = (hat.where_sum(kn, kn.me, sit, len(positions)) if hat.where
              else hat.seen_sum(kn, kn.me, part=part, foci=play_foci))
        position = positions[at] + 1
    said_target, said_kind = said  # the target first: no subject's kind is read for the other targets
    actions, scores = scores_in(sit, known=hat.known(kn),
                                assists=lambda target, subject: target == said_target
                                and kind_of(subject, kinds) == said_kind,
                                positions={position} if position is not None else None, target=said_target)
    if play is None or hat.where:
        gains, played = hat_gains(sit, hat, classes, foci), 0.0
    else:  # my Assist's message and my play's valued in one evaluation
        gains, play_gains = hat_gains_many(sit, hat, [(classes, foci), (play[0], play_foci)])
        played = sum(play_gains.values())
    for i, action in enumerate(actions):  # as hat_advise adds them: every Assist kept says the message
        if isinstance(action, Assist):
            scores[i] = scores[i] + sum(g for seat, g in gains.items() if seat != action.target)
        elif play is not None and isinstance(action, _PLAYS):
            scores[i] = scores[i] + played
    return actions, scores


def _hat_scores_compiled(kernels: ModuleType, kn: HandKnowledge, hat: HatTable, sit: Situation
                         ) -> tuple[list[Action], list[float]] | None:
    """:func:`hat_scores` with both evaluations of a decision (the literal Assists that say my message, and
    what my Assist's and my play's messages are worth) in one compiled call (:func:`~models.beyond_baker_street.
    kernels.hat_values`), and :func:`~models.beyond_baker_street.plain.scores_in`'s actions built here for the one
    target and kind of subject the message names: the same actions in the same order with the same numbers,
    without a lambda, a dict or a list of rows per candidate. None (the caller then takes the general path)
    unless every other hand holds as many cards, at most the compiled loops' limit."""
    me = kn.me
    sit_hands = sit.hands
    others = list(sit_hands)  # the other seats in seat order (the hands I see)
    sizes = [len(sit_hands[seat]) for seat in others]
    k = max(sizes, default=0)
    if not k or k > PARTITION_LIMIT or len(kn.hands[me]) > PARTITION_LIMIT or any(
            len(kn.hands[seat]) != size for seat, size in zip(others, sizes, strict=True)):
        return None  # (the last: a card I do not see in another hand; never at a table of bots)
    kinds = hat.kinds(kn)
    classes = hat.classes(kn, sit)
    foci_rows: list[int] = []  # per partition, per other seat: the focus position (-1: none)
    told: list[int] = []  # and the class mask it is told (0: none)
    total = _reads(kn, hat, others, classes, foci_rows, told)  # seen_sum, each focus read once
    said_target, said_kind = _messages(me, kn.players, hat.count(kn), kinds)[total]
    play = hat.play_part(kn, me, sit)
    parts = 1
    position = None
    if play is not None:
        part, positions = play
        position = positions[_reads(kn, hat, others, part, foci_rows, told)] + 1
        parts = 2
    # scores_in(sit, known=hat.known(kn), assists=<the message's target and kind>, positions={position},
    # target=said_target), in its order: Confirms, plays, the Assists kept, Pursues
    board, w = sit.board, sit.weights
    actions: list[Action] = []
    scores: list[float] = []
    leads = sit.leads
    for ls in leads:
        if ls.need == 0:
            actions.append(shared(Confirm, ls.section))
            scores.append(-1000.0 if len(leads) == 1 and board.track != board.data.goal else w.confirm)
    sections = tuple([ls.section for ls in leads])
    hint_cost = sit.holmes_value() if board.holmes > 1 else 1000.0
    hand = sit_hands[said_target]
    numbers = {NUMBER_OF[i] for i in hand}
    icons = {ICON_OF[i] for i in hand}
    subjects: list[Subject] = [n for n in NUMBERS if n in numbers and kind_of(n, kinds) == said_kind]
    subjects += [ic for ic in ICONS if ic in icons and kind_of(ic, kinds) == said_kind]
    fixed = hat.fixed
    masks = []
    fixes = []
    cards = []
    for seat, size in zip(others, sizes, strict=True):  # each hand's row padded to the largest hand
        for slot in kn.hands[seat]:
            masks.append(slot.mask)
            fixes.append(fixed.get(slot.id, ALL_CARDS))
        cards += sit_hands[seat]
        if size < k:
            masks += [0] * (k - size)
            fixes += [0] * (k - size)
            cards += [0] * (k - size)
    players = board.players
    discount = [w.hint_discount ** ((seat - me) % players - 1) for seat in others]
    seats = len(others)
    hand_me = kn.hands[me]
    n = len(subjects)
    head = [len(hand_me), seats, k, others.index(said_target), n, parts]
    ints = (head + [slot.mask for slot in hand_me] + [fixed.get(slot.id, ALL_CARDS) for slot in hand_me]  # known
            + masks + fixes + cards + sizes + [subject_mask(x) for x in subjects] + foci_rows + told)
    out = kernels.hat_packed(np.array(ints, dtype=np.int64), np.array(discount), sit.unseen, sit.values,
                             float(w.min_play), float(w.second), float(w.info)).tolist()
    plays = len(leads) + 1
    at = len(hand_me) * plays
    assist = out[at:at + n]
    gains_rows = [out[at + n + p * seats:at + n + (p + 1) * seats] for p in range(parts)]
    played = None
    if play is not None:  # what my play's position tells, added to each play kept
        played = sum([g for g, f in zip(gains_rows[1], foci_rows[seats:], strict=True) if f >= 0])
    for pos in range(len(hand_me)):  # per position: each open Lead, then eliminating
        if position is not None and pos + 1 != position:
            continue
        row = out[pos * plays:(pos + 1) * plays]
        actions += _plays_from(pos + 1, sections)
        scores += row if played is None else [v + played for v in row]
    told_gains = [(seat, g) for seat, g, f in zip(others, gains_rows[0], foci_rows[:seats], strict=True) if f >= 0]
    for subject, v in zip(subjects, assist, strict=True):  # every Assist kept says the message
        actions.append(shared(Assist, said_target, subject))
        scores.append(v - hint_cost + sum(g for seat, g in told_gains if seat != said_target))
    for ls in leads:
        actions.append(shared(Pursue, ls.section))
    scores += pursue_kept(sit)
    return actions, scores


def _reads(kn: HandKnowledge, hat: HatTable, others: list[int], part: tuple[list[int], int], foci: list[int],
           told: list[int]) -> int:
    """For :func:`_hat_scores_compiled`: each other seat's focus in ``part`` (:meth:`HatTable.focus`) added to
    ``foci`` (-1: none) and the class it is in to ``told`` (as a card mask, 0: none), and the sum of those classes
    modulo their number, as :meth:`HatTable.seen_sum` gives it (each focus and class read once)."""
    classes = part[0]
    hands = kn.hands
    total = 0
    for seat in others:
        f = hat.focus(kn, seat, part)
        if f is None:
            foci.append(-1)
            told.append(0)
            continue
        card = hands[seat][f].card
        assert card is not None, "only the hands I see are summed"
        c = hat.class_of(classes, CARD_INDEX[card])
        total += c
        foci.append(f)
        told.append(classes[c])
    return total % len(classes)


def hat_advise(kn: HandKnowledge, hat: HatTable, weights: Weights = DEFAULT_WEIGHTS, reasons: bool = True
               ) -> list[Advice]:
    """:func:`advise` for a table that plays the convention: my cards narrowed by the icons the hat messages
    told me, and only the Assists that say the message my table needs now, each worth its hat message too.
    Outside the convention's games (:func:`in_play`) this is plain :func:`advise`."""
    if kn.board is None or kn.board.over:
        return advise(kn, weights, reasons=reasons, known=hat.known(kn))  # its error says why
    sit = Situation.kept(kn, weights)
    if not in_play(kn):  # the plain advisor's ranking, to the last bit (no narrowing by all-card masks)
        return advise_in(sit, reasons=reasons)
    kinds = hat.kinds(kn)
    said = messages(kn.me, kn.players, hat.count(kn), kinds)[hat.seen_sum(kn, kn.me, part=hat.classes(kn, sit))]
    play = hat.play_part(kn, kn.me, sit)
    position = None
    if play is not None:  # my play's position says a message: only the plays from that position
        part, positions = play
        at = hat.where_sum(kn, kn.me, sit, len(positions)) if hat.where else hat.seen_sum(kn, kn.me, part=part)
        position = positions[at] + 1
    # Only the advice the convention keeps is valued (the same numbers: each Assist and each position is valued
    # on its own), unless Characters add actions built on every Assist.
    narrow = not kn.board.characters
    advice = advise_in(sit, reasons=reasons, known=hat.known(kn),
                       assists=(lambda target, subject: (target, kind_of(subject, kinds)) == said) if narrow else None,
                       positions={position} if narrow and position is not None else None)
    gains = hat_gains(sit, hat)
    told = f"; hat: tells players {', '.join(map(str, gains))} an icon each" if reasons else ""
    out = []
    for a in advice:
        if not isinstance(a.action, Assist):
            out.append(a)
        elif (a.action.target, kind_of(a.action.subject, kinds)) == said:
            # the target's literal Assist is valued by the advisor already
            gain = sum(g for seat, g in gains.items() if seat != a.action.target)
            out.append(Advice(a.action, a.score + gain, a.reason + told if reasons else ""))
    if play is not None:
        gain = 0.0 if hat.where else sum(hat_gains(sit, hat, play[0]).values())
        note = "; hat: its position tells the others a class each" if reasons else ""
        kept = []
        for a in out:
            if isinstance(a.action, Investigate | Eliminate):
                if a.action.position != position:
                    continue
                a = Advice(a.action, a.score + gain, a.reason + note)
            kept.append(a)
        out = kept
    out.sort(key=lambda a: -a.score)
    return out


def hat_table_of(kn: HandKnowledge) -> HatTable:
    """The hat messages in ``kn``'s entries, read in order (for the companion, which keeps only the entries)."""
    hat = HatTable()
    replay = HandKnowledge(kn.data)
    for entry in kn.entries:
        if isinstance(entry, Assisted) and replay.started:
            hat.read(replay, entry)
        elif isinstance(entry, Investigated | Eliminated) and replay.started:
            hat.read_play(replay, entry)
        replay.add(entry)
    return hat


class HatBot(AdvisorBot):
    """The advisor bot, playing the hat convention with the rest of the table (module docstring)."""

    name = "hat"

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS, mode: str | None = None
                 ) -> None:
        super().__init__(seat, rng, weights)
        self.hat = HatTable(mode, weights)

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, Assisted) and self.hand.started:
            self.hat.read(self.hand, observation)
        elif isinstance(observation, Investigated | Eliminated) and self.hand.started:
            self.hat.read_play(self.hand, observation)
        super().inform(observation)

    def ranked(self) -> list[Advice]:
        return hat_advise(self.hand, self.hat, self.weights, reasons=False)

    def scores(self) -> tuple[list[Action], list[float]]:
        return hat_scores(self.hand, self.hat, self.weights)


__all__ = ["HatBot", "HatTable", "hat_advise", "hat_table_of", "in_play", "messages", "play_classes", "play_label"]
