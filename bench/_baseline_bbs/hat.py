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

from bench._baseline_bbs.advisor import (
    DEFAULT_WEIGHTS,
    ICON_OF,
    Advice,
    AdvisorBot,
    Situation,
    Weights,
    advise,
    best_own_play,
    masks_distribution,
    true_value,
)
from bench._baseline_bbs.knowledge import ICON_MASK, HandKnowledge
from models.beyond_baker_street.data import ICONS
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


class HatTable:
    """What the hat messages so far have told, as one player follows them: the icon of each card they fixed
    (by slot id, for every hand, mine included)."""

    def __init__(self) -> None:
        self.icons: dict[int, str] = {}

    def focus(self, kn: HandKnowledge, seat: int) -> int | None:
        """The index of ``seat``'s focus card, or None."""
        for i, slot in enumerate(kn.hands[seat]):
            if len(slot.icons) > 1 and slot.id not in self.icons:
                return i
        return None

    def seen_sum(self, kn: HandKnowledge, giver: int, skip: int | None = None) -> int:
        """The sum of the focus icons of every player but ``giver`` and ``skip`` (all must be hands I see)."""
        total = 0
        for seat in kn.hands:
            if seat in (giver, skip):
                continue
            f = self.focus(kn, seat)
            if f is not None:
                card = kn.hands[seat][f].card
                assert card is not None, "only the hands I see are summed"
                total += ICONS.index(card.icon)
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
        mine = (message - self.seen_sum(kn, event.giver, skip=kn.me)) % MESSAGES if event.giver != kn.me else None
        told: dict[int, str] = {}  # all read first: the focus cards are those before this message
        for seat in kn.hands:
            f = None if seat == event.giver else self.focus(kn, seat)
            if f is None:
                continue
            slot = kn.hands[seat][f]
            if seat == kn.me:
                assert mine is not None
                told[slot.id] = ICONS[mine]
            else:
                assert slot.card is not None
                told[slot.id] = slot.card.icon
        self.icons.update(told)

    def known(self, kn: HandKnowledge) -> list[int]:
        """Per position of my hand, the cards the hat messages allow there."""
        return [ICON_MASK[self.icons[s.id]] if s.id in self.icons else ALL_CARDS for s in kn.hands[kn.me]]

    def masks(self, kn: HandKnowledge, seat: int) -> tuple[int, ...]:
        """``seat``'s slot masks: its Assists and the icons hat messages fixed."""
        return tuple(s.mask & (ICON_MASK[self.icons[s.id]] if s.id in self.icons else ALL_CARDS)
                     for s in kn.hands[seat])


def hat_gains(sit: Situation, hat: HatTable) -> dict[int, float]:
    """What my hat message is worth to each player it tells an icon: the true value of the play the icon makes
    best for them, beyond what they would play anyway (the same whatever Assist carries the message)."""
    kn = sit.kn
    w = sit.weights
    gains: dict[int, float] = {}
    for seat, hand in sit.hands.items():
        f = hat.focus(kn, seat)
        if f is None:
            continue
        unseen = sit.unseen | sum(1 << c for c in hand)
        before = hat.masks(kn, seat)
        after = tuple(m & ICON_MASK[ICON_OF[hand[f]]] if i == f else m for i, m in enumerate(before))
        now = best_own_play(sit, masks_distribution(before, unseen))
        then = best_own_play(sit, masks_distribution(after, unseen))
        gain_now = true_value(sit, seat, now[0]) if now[0] is not None and now[1] >= w.min_play else 0.0
        gain_then = true_value(sit, seat, then[0]) if then[0] is not None and then[1] >= w.min_play else 0.0
        distance = (seat - sit.me) % sit.board.players - 1
        gains[seat] = (gain_then - max(gain_now, 0.0)) * w.hint_discount**distance
    return gains


def hat_advise(kn: HandKnowledge, hat: HatTable, weights: Weights = DEFAULT_WEIGHTS, reasons: bool = True
               ) -> list[Advice]:
    """:func:`advise` for a table that plays the convention: my cards narrowed by the icons the hat messages
    told me, and only the Assists that say the message my table needs now, each worth its hat message too.
    Outside the convention's games (:func:`in_play`) this is plain :func:`advise`."""
    advice = advise(kn, weights, reasons=reasons, known=hat.known(kn))
    if not in_play(kn):
        return advice
    sit = Situation.of(kn, weights)
    said = messages(kn.me, kn.players)[hat.seen_sum(kn, kn.me)]
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

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(seat, rng, weights)
        self.hat = HatTable()

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, Assisted) and self.hand.started:
            self.hat.read(self.hand, observation)
        super().inform(observation)

    def ranked(self) -> list[Advice]:
        return hat_advise(self.hand, self.hat, self.weights, reasons=False)


__all__ = ["HatBot", "HatTable", "hat_advise", "hat_table_of", "in_play", "messages"]
