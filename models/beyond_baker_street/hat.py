"""The ``hat`` convention for Beyond Baker Street: one Assist tells every other player the icon of a card.

A table that agrees on it reads every Assist twice: literally (where the target's cards of a number or icon
are, as the knowledge model does) and as a *hat* message, as in the "hat guessing" strategies for Hanabi.

- Each player's **focus** is their leftmost card whose icon is not yet common knowledge (neither an Assist nor an
  earlier hat message has fixed it); a player with no such card has no focus.
- The giver adds up, over the players other than themself that have a focus, the index of the focus card's
  icon (Clue 0, Document 1, Track 2, Witness 3), modulo 4, and says the sum by *whom* they assist and *whether*
  they name a number or an icon: the targets in seat order from the giver's left, number before icon, give the
  messages 0, 1, 2, 3 (with 4 players the last two of six are never used; with 2 players there are only two
  messages, so the convention needs 3 or 4 players; see :func:`in_play` for the Case Files).
- Every other player sees all focus cards but their own, so subtracting the ones they see from the sum gives
  their own focus card's icon.

One Assist (one Holmes space) thus tells two players (three with 4) an icon each, besides its literal content:
Assists are what the hardest Case Files lack (README, "Why the hard cases are hard"). What the convention tells
is a fact only if the whole table follows it, so it never enters the exact knowledge model (which stays sound
whatever the others do); the bot uses it through ``advise(known=...)``.
"""

from __future__ import annotations

import random

import numpy as np

from models.beyond_baker_street.advisor import (
    DEFAULT_WEIGHTS,
    Advice,
    AdvisorBot,
    Outlook,
    Situation,
    Weights,
    advise,
    advise_in,
)
from models.beyond_baker_street.data import ICONS
from models.beyond_baker_street.knowledge import CARD_INDEX, ICON_MASK, HandKnowledge
from models.beyond_baker_street.observations import Assist, Assisted, Entry, Subject

MESSAGES = len(ICONS)
ALL_CARDS = (1 << 24) - 1
TIGHT_LIMIT = 2  # the convention is played in Case Files whose Impossible takes at most this many cards


def in_play(kn: HandKnowledge) -> bool:
    """Whether the table plays the convention: 3 or 4 players and a Case File where Assists are scarce (Case
    Files 3 to 6). In Case Files 1 and 2 Assists are plentiful and the fixed choice of whom to assist costs more
    than the icons tell (measured: README), so the hat table plays the plain advisor there."""
    return kn.board is not None and kn.players >= 3 and kn.board.case.limit <= TIGHT_LIMIT


def messages(giver: int, players: int) -> list[tuple[int, str]]:
    """The (target, "number" or "icon") pairs that say 0, 1, 2, 3 when ``giver`` assists."""
    targets = [(giver + k - 1) % players + 1 for k in range(1, players)]
    return [(t, kind) for t in targets for kind in ("number", "icon")][:MESSAGES]


def kind_of(subject: Subject) -> str:
    return "number" if isinstance(subject, int) else "icon"


def use_classes(sit: Situation) -> list[int]:
    """The ``use`` partition of the cards still in play, from public facts only (the board and which cards are
    still in play, so every player computes the same): a card's class is the open Lead it is best played to
    (the first :attr:`~Situation.sections` row with the highest value), if that value is positive, and the last
    class takes every other card (best eliminated, or of no positive use). Classes past the last open Lead
    are empty until Leads close; with fewer than three open Leads, eliminating (positive) gets its own class."""
    values = sit.values
    leads = len(sit.leads)
    classes = [0] * MESSAGES
    for i in range(len(values[0])):
        if not sit.live >> i & 1:
            continue
        column = values[:, i]
        row = int(column.argmax())
        if column[row] <= 0:
            c = MESSAGES - 1
        elif row < leads:
            c = min(row, MESSAGES - 1)
        else:  # eliminating is its best use
            c = min(leads, MESSAGES - 1)
        classes[c] |= 1 << i
    return classes


ICON_CLASSES = [ICON_MASK[ic] for ic in ICONS]


class HatTable:
    """What the hat messages so far have told, as one player follows them: for each card they fixed (by slot id,
    for every hand, mine included), the class of the partition it was told to be in, as a card mask.

    ``mode`` is the partition the table agrees on: ``icon`` (a card's icon) or ``use`` (:func:`use_classes`:
    where the card is best played, computed from the board when the Assist is given)."""

    def __init__(self, mode: str = "icon", weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.mode = mode
        self.weights = weights
        self.fixed: dict[int, int] = {}

    def classes(self, kn: HandKnowledge) -> tuple[list[int], int]:
        """The partition's classes as card masks, and the cards a focus must still be uncertain among."""
        if self.mode == "icon":
            return ICON_CLASSES, ALL_CARDS
        sit = Situation.of(kn, self.weights)
        return use_classes(sit), sit.live

    def focus(self, kn: HandKnowledge, seat: int, part: tuple[list[int], int] | None = None) -> int | None:
        """The index of ``seat``'s focus card, or None: the leftmost card not fixed yet whose Assists (public)
        leave it in two classes or more."""
        classes, live = part or self.classes(kn)
        for i, slot in enumerate(kn.hands[seat]):
            if slot.id in self.fixed:
                continue
            allowed = slot.told_mask & live
            if sum(1 for c in classes if c & allowed) > 1:
                return i
        return None

    @staticmethod
    def class_of(classes: list[int], card: int) -> int:
        return next(k for k, c in enumerate(classes) if c >> card & 1)

    def seen_sum(self, kn: HandKnowledge, giver: int, skip: int | None = None,
                 part: tuple[list[int], int] | None = None) -> int:
        """The sum of the focus classes of every player but ``giver`` and ``skip`` (all must be hands I see)."""
        part = part or self.classes(kn)
        total = 0
        for seat in kn.hands:
            if seat in (giver, skip):
                continue
            f = self.focus(kn, seat, part)
            if f is not None:
                card = kn.hands[seat][f].card
                assert card is not None, "only the hands I see are summed"
                total += self.class_of(part[0], CARD_INDEX[card])
        return total % MESSAGES

    def read(self, kn: HandKnowledge, event: Assisted) -> None:
        """Take in an Assist (before the knowledge model does: the focus cards are those it was given on)."""
        if not in_play(kn):
            return
        said = messages(event.giver, kn.players)
        key = (event.target, kind_of(event.subject))
        if key not in said:
            return
        message = said.index(key)
        part = self.classes(kn)
        classes = part[0]
        mine = (message - self.seen_sum(kn, event.giver, kn.me, part)) % MESSAGES if event.giver != kn.me else None
        told: dict[int, int] = {}  # all read first: the focus cards are those before this message
        for seat in kn.hands:
            f = None if seat == event.giver else self.focus(kn, seat, part)
            if f is None:
                continue
            slot = kn.hands[seat][f]
            if seat == kn.me:
                assert mine is not None
                told[slot.id] = classes[mine]
            else:
                assert slot.card is not None
                told[slot.id] = classes[self.class_of(classes, CARD_INDEX[slot.card])]
        self.fixed.update(told)

    def known(self, kn: HandKnowledge) -> list[int]:
        """Per position of my hand, the cards the hat messages allow there."""
        return [self.fixed.get(s.id, ALL_CARDS) for s in kn.hands[kn.me]]

    def masks(self, kn: HandKnowledge, seat: int) -> tuple[int, ...]:
        """``seat``'s slot masks: its Assists and the classes hat messages fixed."""
        return tuple(s.mask & self.fixed.get(s.id, ALL_CARDS) for s in kn.hands[seat])


def hat_gains(sit: Situation, hat: HatTable) -> dict[int, float]:
    """What my hat message is worth to each player it tells an icon: the true value of the play the icon makes
    best for them, beyond what they would play anyway (the same whatever Assist carries the message)."""
    kn = sit.kn
    w = sit.weights
    gains: dict[int, float] = {}
    part = hat.classes(kn)
    for seat, hand in sit.hands.items():
        f = hat.focus(kn, seat, part)
        if f is None:
            continue
        unseen = sit.unseen | sum(1 << c for c in hand)
        before = hat.masks(kn, seat)
        told = part[0][hat.class_of(part[0], hand[f])]
        after = tuple(m & told if i == f else m for i, m in enumerate(before))
        look = Outlook.of(sit, np.array([hand, hand], dtype=np.intp), np.array([before, after], dtype=np.int64),
                          np.array([unseen, unseen], dtype=np.int64))
        gain_now, gain_then = float(look.gain[0]), float(look.gain[1])
        distance = (seat - sit.me) % sit.board.players - 1
        gains[seat] = (gain_then - max(gain_now, 0.0)) * w.hint_discount**distance
    return gains


def hat_advise(kn: HandKnowledge, hat: HatTable, weights: Weights = DEFAULT_WEIGHTS, reasons: bool = True
               ) -> list[Advice]:
    """:func:`advise` for a table that plays the convention: my cards narrowed by the icons the hat messages
    told me, and only the Assists that say the message my table needs now, each worth its hat message too.
    Outside the convention's games (:func:`in_play`) this is plain :func:`advise`."""
    if kn.board is None or kn.board.over:
        return advise(kn, weights, reasons=reasons, known=hat.known(kn))  # its error says why
    sit = Situation.of(kn, weights)
    advice = advise_in(sit, reasons=reasons, known=hat.known(kn))
    if not in_play(kn):
        return advice
    said = messages(kn.me, kn.players)[hat.seen_sum(kn, kn.me, part=hat.classes(kn))]
    gains = hat_gains(sit, hat)
    told = f"; hat: tells players {', '.join(map(str, gains))} an icon each" if reasons else ""
    out = []
    for a in advice:
        if not isinstance(a.action, Assist):
            out.append(a)
        elif (a.action.target, kind_of(a.action.subject)) == said:
            # the target's literal Assist is valued by the advisor already
            gain = sum(g for seat, g in gains.items() if seat != a.action.target)
            out.append(Advice(a.action, a.score + gain, a.reason + told if reasons else ""))
    out.sort(key=lambda a: -a.score)
    return out


def hat_table_of(kn: HandKnowledge) -> HatTable:
    """The hat messages in ``kn``'s entries, read in order (for the companion, which keeps only the entries)."""
    hat = HatTable()
    replay = HandKnowledge(kn.data)
    for entry in kn.entries:
        if isinstance(entry, Assisted) and replay.started:
            hat.read(replay, entry)
        replay.add(entry)
    return hat


class HatBot(AdvisorBot):
    """The advisor bot, playing the hat convention with the rest of the table (module docstring)."""

    name = "hat"

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS, mode: str = "icon") -> None:
        super().__init__(seat, rng, weights)
        self.hat = HatTable(mode, weights)

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, Assisted) and self.hand.started:
            self.hat.read(self.hand, observation)
        super().inform(observation)

    def ranked(self) -> list[Advice]:
        return hat_advise(self.hand, self.hat, self.weights, reasons=False)


__all__ = ["HatBot", "HatTable", "hat_advise", "hat_table_of", "in_play", "messages"]
