"""Beyond Baker Street advisor: ranked actions with reasons, and the bots the simulations use.

The advisor looks one move ahead with exact probabilities. For each of my own plays it sums, over what the card
at that position can be (:meth:`HandKnowledge.hand`, exact), the value of what would happen: completing or
advancing a Lead, a Dead Lead, a mismatched icon raising the Lead, an Elimination moving the Investigation
track towards exactly 20 or past it. For each Assist it works out what the player told would then know about
their own hand (empathy: their Assists so far plus this one, and what both of us can see), which play that
knowledge makes safe or likely for them, and what that play would really do, since I can see their cards.
Confirm, Pursue and the Holmes track (an Assist costs a space, worth more as the marker drops, and at 1 it
loses) complete the picture. Leads that share an icon draw on the same cards, so whether they can still be
completed is checked jointly: disjoint sets of the cards still in play must add up to each one's need exactly.

The evaluation is array code (numpy): a :class:`Situation` holds one value table (each card index played to
each open Lead or eliminated), a hand's exact distributions are one (positions x cards) array, and every Assist
of a decision is one row of one :class:`Outlook` (the told player's distributions before and after it, their
best play and what it is really worth), so a decision costs a few dozen array operations rather than a loop per
Assist, position and card. The numbers are the same as the plain loops' (sums run card by card in index order).

Values are in "evidence points": a card's number moved onto a Lead or the track is worth about its number, a
completed Lead or an exact 20 a bonus, and a Dead Lead, a lost Holmes space or a stuck Lead a cost. They are
heuristics, tuned on simulations (README); only the probabilities are exact.

Bots: ``random`` (a random kind of legal action, then a random action of that kind), ``advisor`` (every seat
follows the top advice).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from models.beyond_baker_street.data import EVIDENCE, ICONS, NUMBERS
from models.beyond_baker_street.knowledge import (
    CARD_INDEX,
    ICON_MASK,
    HandKnowledge,
    card_mask,
    mask_distribution,
    subject_mask,
)
from models.beyond_baker_street.observations import (
    Action,
    Assist,
    Confirm,
    Eliminate,
    Entry,
    Investigate,
    Keep,
    Place,
    Pursue,
    Subject,
    subject_plural,
)
from models.beyond_baker_street.rules import TableView
from models.beyond_baker_street.table import Board, LeadState
from solver.errors import AssistantError
from solver.injections import unit_marginals_many

NUMBER_OF = [c.number for c in EVIDENCE]
ICON_OF = [c.icon for c in EVIDENCE]


@dataclass(frozen=True)
class Weights:
    """The heuristic values (see the module docstring); a bot may run with other weights to compare."""

    complete: float = 10.0  # bonus for a play that makes a Lead confirmable
    progress: float = 1.0  # per evidence point moved onto a Lead
    stuck: float = 6.0  # a Lead that can no longer be completed exactly with the cards still in play
    dead: float = 12.0  # a Dead Lead (besides the Impossible card it adds)
    mismatch: float = 1.0  # per point a mismatched icon adds to a Lead's value
    mismatch_base: float = 3.0
    eliminate: float = 1.0  # per point moved on the Investigation track
    finish: float = 8.0  # bonus for reaching exactly the goal
    holmes: float = 3.0  # a Holmes space (an Assist, an Impossible card beyond the limit)
    lead_card: float = 0.6  # per point, eliminating a card a Lead could still use
    confirm: float = 30.0
    hint_discount: float = 0.85  # per player acting between me and the player told
    min_play: float = 0.5  # a play must be worth this much to be preferred to an Assist
    slot: float = 0.0  # using up a free place in the Impossible
    second: float = 0.4  # share of a second play an Assist makes clear, besides the best one
    future: float = 0.0  # per Impossible card the rest of the track will likely need beyond the limit
    card_points: float = 5.0  # what an eliminated card is expected to be worth once players know their cards
    info: float = 0.3  # share of a good play's value per unit of probability an Assist adds to it
    tight: float = 0.0  # an icon's Leads with a single way left to complete them (less for more ways)
    scarce: float = 1.0  # a Holmes space is worth (1 + scarce * (15 - Holmes) / 15) times more as Holmes drops


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True)
class Advice:
    """One legal action with its value (higher is better) and a reason in words."""

    action: Action
    score: float
    reason: str

    def __str__(self) -> str:
        return f"{self.action}  ({self.score:+.1f}: {self.reason})"


@lru_cache(maxsize=1 << 16)
def _sums(mask: int) -> int:
    """Bit s is set when some cards of ``mask`` (each used once) add up to exactly s."""
    sums = 1
    while mask:
        low = mask & -mask
        sums |= sums << NUMBER_OF[low.bit_length() - 1]
        mask ^= low
    return sums


@lru_cache(maxsize=1 << 16)
def _points(mask: int) -> int:
    """The numbers of the cards of ``mask`` added up."""
    total = 0
    while mask:
        low = mask & -mask
        total += NUMBER_OF[low.bit_length() - 1]
        mask ^= low
    return total


def reachable(mask: int, target: int) -> bool:
    """Whether some cards of ``mask`` add up to exactly ``target``."""
    return target >= 0 and bool(_sums(mask) >> target & 1)


@lru_cache(maxsize=1 << 16)
def completions(mask: int, needs: tuple[int, ...], cap: int = 8) -> int:
    """In how many ways (up to ``cap``) disjoint sets of the cards of ``mask`` add up to each of ``needs``."""
    if not needs:
        return 1
    first, rest = needs[0], needs[1:]
    if first == 0:
        return completions(mask, rest, cap)
    total = 0
    sub = mask
    while sub:
        if _points(sub) == first:
            total += completions(mask & ~sub, rest, cap)
            if total >= cap:
                return cap
        sub = (sub - 1) & mask
    return total


@lru_cache(maxsize=1 << 16)
def jointly_reachable(mask: int, needs: tuple[int, ...]) -> bool:
    """Whether disjoint sets of the cards of ``mask`` add up to each of ``needs`` exactly (Leads that share
    an icon draw on the same cards)."""
    if len(needs) <= 1:
        return not needs or reachable(mask, needs[0])
    first, rest = needs[0], needs[1:]
    sub = mask
    while True:
        if _points(sub) == first and jointly_reachable(
            mask & ~sub, rest
        ):
            return True
        if sub == 0:
            return False
        sub = (sub - 1) & mask


@dataclass
class Situation:
    """What one player knows, in the form the evaluation needs (bit masks of card indices)."""

    kn: HandKnowledge
    board: Board
    me: int
    unseen: int  # cards in my hand or the deck
    live: int  # cards that can still be played: unseen by me or in another hand
    hands: dict[int, list[int]] = field(default_factory=dict)  # other seats: card indices, left to right
    weights: Weights = DEFAULT_WEIGHTS
    leads: list[LeadState] = field(default_factory=list)  # the open Leads, in board order
    _values: np.ndarray | None = None
    _icon_needs: dict[str, list[tuple[str, int]]] | None = None

    @staticmethod
    def of(kn: HandKnowledge, weights: Weights = DEFAULT_WEIGHTS) -> Situation:
        assert kn.board is not None
        unseen = kn.unseen_mask()
        hands = {s: [CARD_INDEX[c] for c in kn.visible_hand(s)] for s in kn.hands if s != kn.me}
        live = unseen
        for cards in hands.values():
            for i in cards:
                live |= 1 << i
        leads = [ls for ls in kn.board.leads.values() if not ls.confirmed and ls.lead is not None]
        return Situation(kn, kn.board, kn.me, unseen, live, hands, weights, leads)

    # -- the Leads ------------------------------------------------------------------------------------------
    def open_leads(self) -> list[LeadState]:
        return self.leads

    def last_lead(self) -> bool:
        return len(self.open_leads()) == 1

    def icon_feasible(self, icon: str, live: int, needs: dict[str, int] | None = None) -> bool:
        """Whether the open Leads of ``icon`` can all still be completed exactly from the ``live`` cards
        (``needs`` overrides some Leads' needs, by section)."""
        wanted = tuple(sorted(
            (needs or {}).get(ls.section, ls.need) for ls in self.open_leads() if ls.icon == icon
        ))
        return jointly_reachable(live & ICON_MASK[icon], wanted)

    def tightness(self, icon: str, live: int, needs: dict[str, int] | None = None) -> float:
        """How hard the open Leads of ``icon`` are to complete from the ``live`` cards: ``stuck`` when they
        cannot be, less the more ways remain (``tight`` for a single way), 0 from four ways on."""
        w = self.weights
        if not w.tight:
            return 0.0 if self.icon_feasible(icon, live, needs) else w.stuck
        wanted = tuple(sorted(
            (needs or {}).get(ls.section, ls.need) for ls in self.open_leads() if ls.icon == icon
        ))
        ways = completions(live & ICON_MASK[icon], wanted)
        if ways == 0:
            return w.stuck
        return w.tight * max(0.0, (4 - ways) / 3)

    def tension(self, icons: set[str], live: int, needs: dict[str, int] | None = None) -> float:
        """How much harder a change (cards left ``live``, new ``needs``) makes the Leads of ``icons``."""
        return sum(self.tightness(ic, live, needs) - self.tightness(ic, self.live) for ic in icons)

    def breaks(self, icons: set[str], live: int, needs: dict[str, int] | None = None) -> bool:
        """Whether a change (cards left ``live``, new ``needs``) makes some icon's Leads impossible that were
        possible before."""
        return any(
            self.icon_feasible(icon, self.live) and not self.icon_feasible(icon, live, needs) for icon in icons
        )

    def play_value(self, card: int, ls: LeadState) -> tuple[float, str]:
        """The value of card index ``card`` played to Lead ``ls``, and what happens, in words."""
        w = self.weights
        n, icon = NUMBER_OF[card], ICON_OF[card]
        need = ls.need
        live = self.live & ~(1 << card)
        if icon == ls.icon:
            if n == need:
                return w.complete + w.progress * n - self.tension({icon}, live, {ls.section: 0}), "completes the Lead"
            if n < need:
                if w.tight:
                    harder = self.tension({icon}, live, {ls.section: need - n})
                    what = "leaves the Lead impossible to complete exactly" if self.breaks(
                        {icon}, live, {ls.section: need - n}) else f"leaves the Lead {need - n} short"
                    return w.progress * n - harder, what
                if not self.breaks({icon}, live, {ls.section: need - n}):
                    return w.progress * n, f"leaves the Lead {need - n} short"
                return w.progress * n - w.stuck, "leaves the Lead impossible to complete exactly"
            if ls.pile == 0:
                return -1000.0, "kills the last Lead of its section, and the game is lost"
            return -w.dead - self.impossible_cost(1) - w.progress * ls.total * 0.5, "makes the Lead a Dead Lead"
        value = -w.mismatch_base - w.mismatch * n
        if w.tight:
            value -= self.tension({icon, ls.icon}, live, {ls.section: need + n})
        elif self.breaks({icon, ls.icon}, live, {ls.section: need + n}):
            value -= w.stuck
        return value, f"is the wrong icon and raises the Lead's target by {n}"

    def holmes_value(self) -> float:
        """What one Holmes space is worth now: more as the marker nears 0."""
        w = self.weights
        top = self.board.data.holmes_max
        return w.holmes * (1 + w.scarce * max(0, top - self.board.holmes) / top)

    def impossible_cost(self, cards: int) -> float:
        """Holmes spaces lost by adding ``cards`` to the Impossible, as value."""
        over = max(0, len(self.board.impossible) + cards - self.board.limit)
        over -= max(0, len(self.board.impossible) - self.board.limit)
        if self.board.holmes - over <= 0:
            return 1000.0
        return self.holmes_value() * over + self.weights.slot * (cards - over)

    def overflow(self, track: int, free: int) -> float:
        """Impossible cards beyond the limit that reaching the goal from ``track`` will likely take."""
        rest = self.board.data.goal - track
        return max(0.0, rest / self.weights.card_points - max(free, 0)) if rest > 0 else max(0.0, -free)

    def eliminate_value(self, card: int) -> tuple[float, str]:
        w = self.weights
        n = NUMBER_OF[card]
        goal, track = self.board.data.goal, self.board.track
        if track + n > goal:
            return -1000.0, f"takes the Investigation track past {goal}: the game is lost"
        value = w.eliminate * n - self.impossible_cost(1)
        if w.future:
            free = self.board.limit - len(self.board.impossible)
            value -= w.future * (self.overflow(track + n, free - 1) - self.overflow(track, free))
        rest = goal - track - n
        if rest == 0:
            value += w.finish
            reason = f"brings the Investigation track to exactly {goal}"
        else:
            if not reachable(self.live & ~(1 << card), rest):
                value -= w.stuck
            reason = f"moves the Investigation track to {track + n}"
        if self.breaks({ICON_OF[card]}, self.live & ~(1 << card)):
            value -= w.stuck
            reason += " (a card a Lead cannot do without)"
        elif w.tight and self.tension({ICON_OF[card]}, self.live & ~(1 << card)) > 0:
            value -= self.tension({ICON_OF[card]}, self.live & ~(1 << card))
            reason += " (fewer ways left to complete a Lead)"
        else:
            for ls in self.open_leads():
                if ICON_OF[card] == ls.icon and n <= ls.need:
                    value -= w.lead_card * n
                    reason += f" (a card the {ls.section} Lead could use)"
                    break
        return value, reason

    # -- value tables and expected values ---------------------------------------------------------------------
    @property
    def sections(self) -> list[str | None]:
        """The rows of :attr:`values`: each open Lead's section, then None (eliminating)."""
        return [ls.section for ls in self.leads] + [None]

    @property
    def values(self) -> np.ndarray:
        """The value of each card index (columns) played to each open Lead or eliminated (rows, as
        :attr:`sections`); computed once. Cards no longer in play (not :attr:`live`) are never drawn on and
        are left at 0."""
        if self._values is None:
            w = self.weights
            self._values = self._values_by_card() if w.tight or w.future else self._values_fast()
            self._values.flags.writeable = False
        return self._values

    def _values_by_card(self) -> np.ndarray:
        """:attr:`values` one card at a time through :meth:`play_value` and :meth:`eliminate_value`."""
        rows = [[self.play_value(i, ls)[0] for i in range(len(EVIDENCE))] for ls in self.leads]
        rows.append([self.eliminate_value(i)[0] for i in range(len(EVIDENCE))])
        return np.array(rows, dtype=np.float64)

    def _feasible(self, icon: str, live: int, section: str | None = None, need: int = 0) -> bool:
        """:meth:`icon_feasible` with at most one Lead's need overridden (the only case the tables ask)."""
        needs = self._needs[icon]
        if not needs:
            return True
        if len(needs) == 1:
            target = need if needs[0][0] == section else needs[0][1]
            return target >= 0 and bool(_sums(live & ICON_MASK[icon]) >> target & 1)
        wanted = tuple(sorted(need if sec == section else n for sec, n in needs))
        return jointly_reachable(live & ICON_MASK[icon], wanted)

    @property
    def _needs(self) -> dict[str, list[tuple[str, int]]]:
        """Per icon, the (section, need) of its open Leads (computed once)."""
        if self._icon_needs is None:
            self._icon_needs = {ic: [(ls.section, ls.need) for ls in self.leads if ls.icon == ic] for ic in ICONS}
        return self._icon_needs

    def _values_fast(self) -> np.ndarray:
        """:attr:`values` with the same numbers as :meth:`play_value` and :meth:`eliminate_value` (without the
        ``tight`` and ``future`` terms, which take :meth:`_values_by_card`), each feasibility asked once: a
        card's removal from play is the same question for every row, and a mismatched card raises a Lead by
        its number only, so those answers are shared."""
        w = self.weights
        live = self.live
        cards = [i for i in range(len(EVIDENCE)) if live >> i & 1]
        before = {ic: self._feasible(ic, live) for ic in ICONS}
        kept = {i: self._feasible(ICON_OF[i], live & ~(1 << i)) for i in cards}  # still feasible without i
        out = np.zeros((len(self.leads) + 1, len(EVIDENCE)))
        leads = [(ls.icon, ls.need, ls.section) for ls in self.leads]
        for row, ls in enumerate(self.leads):
            lead_icon, need, section = leads[row]
            dead = -1000.0 if ls.pile == 0 else -w.dead - self.impossible_cost(1) - w.progress * ls.total * 0.5
            raised: dict[int, bool] = {}
            values = out[row]
            for i in cards:
                n, icon = NUMBER_OF[i], ICON_OF[i]
                if icon == lead_icon:
                    if n == need:
                        after = self._feasible(icon, live & ~(1 << i), section, 0)
                        values[i] = w.complete + w.progress * n - (
                            (0.0 if after else w.stuck) - (0.0 if before[icon] else w.stuck))
                    elif n < need:
                        broke = before[icon] and not self._feasible(icon, live & ~(1 << i), section, need - n)
                        values[i] = w.progress * n - w.stuck if broke else w.progress * n
                    else:
                        values[i] = dead
                else:
                    if n not in raised:
                        raised[n] = self._feasible(lead_icon, live, section, need + n)
                    value = -w.mismatch_base - w.mismatch * n
                    if (before[icon] and not kept[i]) or (before[lead_icon] and not raised[n]):
                        value -= w.stuck
                    values[i] = value
        goal, track = self.board.data.goal, self.board.track
        cost = self.impossible_cost(1)
        values = out[-1]
        for i in cards:
            n, icon = NUMBER_OF[i], ICON_OF[i]
            if track + n > goal:
                values[i] = -1000.0
                continue
            value = w.eliminate * n - cost
            rest = goal - track - n
            if rest == 0:
                value += w.finish
            elif not reachable(live & ~(1 << i), rest):
                value -= w.stuck
            if before[icon] and not kept[i]:
                value -= w.stuck
            else:
                for lead_icon, need, _section in leads:
                    if icon == lead_icon and n <= need:
                        value -= w.lead_card * n
                        break
            values[i] = value
        return out

    def table(self, section: str | None) -> np.ndarray:
        """The value of each card index played to the Lead of ``section`` (None: eliminated)."""
        return self.values[self.sections.index(section)]

    def expected(self, dists: np.ndarray) -> np.ndarray:
        """Expected value of each play (positions x :attr:`sections`) for a hand with these distributions
        (positions x cards), summed card by card in index order, as a plain loop would."""
        return np.cumsum(dists[:, None, :] * self.values[None, :, :], axis=2)[:, :, -1]

    def play(self, position: int, row: int) -> Action:
        """The play at 0-based ``position`` to row ``row`` of :attr:`values`."""
        if row < len(self.leads):
            return Investigate(position + 1, self.leads[row].section)
        return Eliminate(position + 1)


def my_distribution(kn: HandKnowledge, seat: int | None = None) -> np.ndarray:
    """Per position of ``seat`` (default me; others: empathy), each card index's probability (positions x 24)."""
    seat = kn.me if seat is None else seat
    unseen = kn.unseen_mask()
    if seat != kn.me:
        unseen |= card_mask(kn.visible_hand(seat))
    return mask_distribution(tuple(s.mask for s in kn.hands[seat]), unseen)


_CARD_BITS = 1 << np.arange(len(EVIDENCE), dtype=np.int64)


def narrowed(dists: np.ndarray, masks: Sequence[int]) -> np.ndarray:
    """``dists`` given that each position's card is one of its mask (a row unchanged if none of its cards is)."""
    out = dists.copy()
    for pos, mask in enumerate(masks):
        kept = np.where(_CARD_BITS & mask, dists[pos], 0.0)
        total = float(np.cumsum(kept)[-1]) if len(kept) else 0.0
        if total:
            out[pos] = kept / total
    return out


def pairs(dist: np.ndarray) -> list[tuple[int, float]]:
    """One position's distribution as (card index, probability) pairs with a non-zero probability."""
    return [(int(i), float(dist[i])) for i in np.flatnonzero(dist)]


@dataclass
class Outlook:
    """How holders of hands I see would play under several states of knowledge, one row each (a hand of ``k``
    card indices, its slot masks and the cards its holder cannot see): their exact distributions (empathy),
    the expected value of each play, their best play (the first best in position order, then
    :attr:`Situation.sections` order; -1 when no world fits) and what it would really be worth to play it
    (0 unless its expected value is at least ``min_play``). All rows have the same number of positions."""

    dists: np.ndarray  # rows x positions x cards
    expected: np.ndarray  # rows x (positions * plays), position-major
    best: np.ndarray  # rows: flat index into ``expected``, -1 if no world fits
    best_value: np.ndarray  # rows: expected value of the best play (-inf if no world fits)
    truth: np.ndarray  # rows x (positions * plays): what each play is really worth
    gain: np.ndarray  # rows

    @staticmethod
    def of(sit: Situation, hands: np.ndarray, rows: np.ndarray, unseen: np.ndarray) -> Outlook:
        """``hands`` and ``rows`` (slot masks) are (rows x positions), ``unseen`` one mask per row."""
        n, k = rows.shape
        totals, weights = unit_marginals_many(rows & unseen[:, None], len(EVIDENCE))
        fits = totals > 0
        dists = weights / np.where(fits, totals, 1).astype(np.float64)[:, None, None]
        values = sit.values
        expected = np.cumsum(dists[:, :, None, :] * values[None, None, :, :], axis=3)[..., -1].reshape(n, -1)
        truth = values[:, hands].transpose(1, 2, 0).reshape(n, -1)
        if k:
            best = np.where(fits, np.argmax(expected, axis=1), -1)
            at = np.maximum(best, 0)
            best_value = np.where(fits, expected[np.arange(n), at], -np.inf)
            gain = np.where(best_value >= sit.weights.min_play, truth[np.arange(n), at], 0.0)
        else:
            best = np.full(n, -1)
            best_value = np.full(n, -np.inf)
            gain = np.zeros(n)
        return Outlook(dists, expected, best, best_value, truth, gain)


def hint_values(sit: Situation, target: int, subjects: Sequence[Subject], reasons: bool = True
                ) -> list[tuple[float, str]]:
    """The value of telling ``target`` where their cards of each of ``subjects`` are (:func:`assist_values`)."""
    return assist_values(sit, [(target, subjects)], reasons)[0]


def assist_values(sit: Situation, asks: Sequence[tuple[int, Sequence[Subject]]], reasons: bool = True
                  ) -> list[list[tuple[float, str]]]:
    """For each (target, subjects) of ``asks``, the value of telling ``target`` where their cards of each
    subject are, with a reason (module docstring; no reasons, only values, unless ``reasons``). Every Assist
    to targets holding as many cards is one row of one :class:`Outlook`, after a row for the target's
    knowledge now: the whole evaluation is array code."""
    out: list[list[tuple[float, str]]] = [[] for _ in asks]
    by_size: dict[int, list[int]] = {}
    for a, (target, _subjects) in enumerate(asks):
        by_size.setdefault(len(sit.hands[target]), []).append(a)
    for k, group in by_size.items():
        for a, result in zip(group, _assist_values(sit, k, [asks[a] for a in group], reasons), strict=True):
            out[a] = result
    return out


def _assist_values(sit: Situation, k: int, asks: Sequence[tuple[int, Sequence[Subject]]], reasons: bool
                   ) -> list[list[tuple[float, str]]]:
    """:func:`assist_values` for targets holding ``k`` cards each."""
    w = sit.weights
    plays = len(sit.leads) + 1
    rows: list[list[int]] = []
    hands: list[list[int]] = []
    unseen: list[int] = []
    base: list[int] = []  # per row: the row of its target's knowledge now
    distance: list[int] = []
    told: list[int] = []  # the rows of Assists, in the order of ``asks``
    for target, subjects in asks:
        hand = sit.hands[target]
        seen_by_them = sit.unseen | card_mask([EVIDENCE[i] for i in hand])
        before = [s.mask for s in sit.kn.hands[target]]
        first = len(rows)
        far = (target - sit.me) % sit.board.players - 1
        rows.append(before)
        for subject in subjects:
            smask = subject_mask(subject)
            told.append(len(rows))
            rows.append([m & smask if (1 << hand[i]) & smask else m & ~smask for i, m in enumerate(before)])
        hands += [hand] * (1 + len(subjects))
        unseen += [seen_by_them] * (1 + len(subjects))
        base += [first] * (1 + len(subjects))
        distance += [far] * (1 + len(subjects))
    n = len(rows)
    hand_rows = np.array(hands, dtype=np.intp).reshape(n, k)
    look = Outlook.of(sit, hand_rows, np.array(rows, dtype=np.int64).reshape(n, k), np.array(unseen, dtype=np.int64))
    base_rows = np.array(base)
    best, best_value = look.best, look.best_value
    clear = (best >= 0) & (best_value >= w.min_play)
    gain_then = look.gain
    every = np.arange(n)
    if w.second and k > 1:  # the best play once the best one is made, where one is
        others = look.expected.copy()
        positions = np.arange(k * plays) // plays
        others[positions[None, :] == (best // plays)[:, None]] = -np.inf
        other = np.argmax(others, axis=1)
        other_value = others[every, other]
        extra = w.second * np.maximum(0.0, look.truth[every, other])
        gain_then = np.where((best >= 0) & (other_value >= w.min_play), gain_then + extra, gain_then)
    if w.info and k:
        # each card's best use, and the probability, as its holder sees it, that the same use is good
        columns = sit.values[:, hand_rows]  # plays x rows x positions
        best_row = np.argmax(columns, axis=0)
        best_use = columns.max(axis=0)
        good = np.cumsum(np.where(sit.values[best_row] > 0, look.dists, 0.0), axis=2)[..., -1]
        rise = best_use * np.maximum(0.0, good - good[base_rows])
        played = np.where(clear, best // plays, -1)
        counted = (best_use > 0) & (np.arange(k)[None, :] != played[:, None])
        information = np.cumsum(np.where(counted, rise, 0.0), axis=1)[:, -1]
        gain_then = gain_then + w.info * information
    discount = np.array([w.hint_discount**d for d in distance])
    values = ((gain_then - np.maximum(look.gain[base_rows], 0.0)) * discount).tolist()
    out: list[list[tuple[float, str]]] = []
    r = 0
    for _target, subjects in asks:
        mine = []
        for _subject in subjects:
            row = told[r]
            r += 1
            if not reasons:
                mine.append((values[row], ""))
            elif clear[row]:
                b = int(best[row])
                play = sit.play(b // plays, b % plays)
                mine.append((values[row], f"then {play} looks worth {float(best_value[row]):+.1f} to them"))
            else:
                mine.append((values[row], "no play becomes clear for them yet"))
        out.append(mine)
    return out


def hint_value(sit: Situation, target: int, subject: Subject) -> tuple[float, str]:
    """The value of telling ``target`` where their ``subject`` cards are (:func:`assist_values`)."""
    return assist_values(sit, [(target, [subject])])[0][0]


def advise(
    kn: HandKnowledge,
    weights: Weights = DEFAULT_WEIGHTS,
    reasons: bool = True,
    known: Sequence[int] | None = None,
) -> list[Advice]:
    """Every legal action for me, best first, with a value and (unless ``reasons`` is False, as the bots ask)
    a reason. ``known`` (one card mask per position) asks "what if I also knew this much of my cards": each
    position's exact distribution is narrowed to the cards of its mask (``bench/beyond_baker_street_ceiling.py``
    measures what knowing one's icons, numbers or cards would be worth)."""
    if kn.board is None:
        raise AssistantError(f"advise: finish the setup first, still need {', '.join(kn.missing())}")
    board = kn.board
    if board.over:
        raise AssistantError(f"advise: the game is over ({board.result}: {board.reason})")
    return advise_in(Situation.of(kn, weights), reasons, known)


def advise_in(sit: Situation, reasons: bool = True, known: Sequence[int] | None = None) -> list[Advice]:
    """:func:`advise` in a :class:`Situation` already built (the hat convention reuses its value tables)."""
    kn, board, w = sit.kn, sit.board, sit.weights
    out: list[Advice] = []
    dists = my_distribution(kn)
    if known is not None:
        dists = narrowed(dists, known)
    goal = board.data.goal
    for ls in sit.open_leads():
        if ls.need == 0:
            if sit.last_lead() and board.track != goal:
                out.append(Advice(Confirm(ls.section), -1000.0,
                                  f"the last Lead: confirming with the track on {board.track}, not {goal}, loses"))
            else:
                out.append(Advice(Confirm(ls.section), w.confirm, "confirms a Lead and moves Holmes back"))
    expected = sit.expected(dists).tolist()
    for pos, dist in enumerate(dists):
        shown = pairs(dist) if reasons else []
        for row, ls in enumerate(sit.leads):
            out.append(Advice(Investigate(pos + 1, ls.section), expected[pos][row],
                              _play_reason(sit, shown, ls) if reasons else ""))
        out.append(Advice(Eliminate(pos + 1), expected[pos][-1], _elim_reason(sit, shown) if reasons else ""))
    hint_cost = sit.holmes_value() if board.holmes > 1 else 1000.0
    asks: list[tuple[int, list[Subject]]] = []
    for target, hand in sit.hands.items():
        numbers = {NUMBER_OF[i] for i in hand}
        icons = {ICON_OF[i] for i in hand}
        subjects: list[Subject] = [n for n in NUMBERS if n in numbers]
        subjects += [ic for ic in ICONS if ic in icons]
        asks.append((target, subjects))
    for (target, subjects), results in zip(asks, assist_values(sit, asks, reasons), strict=True):
        hand = sit.hands[target]
        for subject, (v, reason) in zip(subjects, results, strict=True):
            told = ""
            if reasons:
                positions = [str(i + 1) for i, c in enumerate(hand) if (1 << c) & subject_mask(subject)]
                told = f"tells player {target} their {subject_plural(subject)} are at {', '.join(positions)}; {reason}"
            out.append(Advice(Assist(target, subject), v - hint_cost, told))
    for ls in sit.open_leads():
        out.append(Advice(Pursue(ls.section), _pursue_value(sit, ls), _pursue_reason(sit, ls) if reasons else ""))
    if board.characters:  # Character cards: forbidden Assists out, passive rules, their actions
        from models.beyond_baker_street.characters import adjust

        out = adjust(sit, out, [pairs(d) for d in dists], hint_cost, reasons)  # type: ignore[assignment]
    out.sort(key=lambda a: -a.score)
    return out


def _pursue_value(sit: Situation, ls: LeadState) -> float:
    if ls.pile == 0:
        return -1000.0
    cost = sit.impossible_cost(1) + sit.weights.progress * ls.total
    if not sit.icon_feasible(ls.icon, sit.live):
        return sit.weights.stuck - cost
    if sit.weights.tight:
        others = {o.section: 0 for o in sit.open_leads() if o is ls}  # without it, the icon's other Leads
        relief = sit.tightness(ls.icon, sit.live) - sit.tightness(ls.icon, sit.live, others)
        return relief - sit.weights.dead * 0.5 - cost
    return -sit.weights.dead * 0.5 - cost


def _pursue_reason(sit: Situation, ls: LeadState) -> str:
    if ls.pile == 0:
        return "the last Lead of its section: pursuing it loses"
    if not sit.icon_feasible(ls.icon, sit.live):
        others = [o.section for o in sit.open_leads() if o.icon == ls.icon and o is not ls]
        shared = f" together with the {', '.join(others)} Lead" if others else ""
        return f"the {ls.icon} cards still in play cannot add up to the {ls.need} it needs{shared}"
    if not ls.total:
        return f"reveals the next {ls.section} Lead; no evidence is on this one to lose"
    return f"gives up the {ls.total} points of evidence on it and reveals the next {ls.section} Lead"


_NUMBER = re.compile(r"\d+")


def _outcomes_text(outcomes: dict[str, float]) -> str:
    """The likeliest outcomes as a sentence: "it completes the Lead" when certain, else "40% chance it ...".

    Outcomes that differ only in one number are one outcome with the range of that number ("raises the Lead's
    target by 1 to 6"), so a reason never repeats itself."""
    merged: dict[str, tuple[float, list[int]]] = {}
    for what, p in outcomes.items():
        m = _NUMBER.search(what)
        key = what[:m.start()] + "{}" + what[m.end():] if m else what
        total, numbers = merged.get(key, (0.0, []))
        merged[key] = (total + p, [*numbers, int(m.group())] if m else numbers)
    texts: dict[str, float] = {}
    for key, (p, numbers) in merged.items():
        lo, hi = (min(numbers), max(numbers)) if numbers else (0, 0)
        span = f"{lo}" if lo == hi else f"between {lo} and {hi}" if "to {}" in key else f"{lo} to {hi}"
        texts[key.replace("{}", span)] = p
    ranked = sorted(texts.items(), key=lambda kv: -kv[1])[:3]
    if len(ranked) == 1 and ranked[0][1] > 0.9995:
        return f"it {ranked[0][0]}"
    return "; ".join(f"{p:.0%} chance it {what}" for what, p in ranked)


def _play_reason(sit: Situation, dist: Sequence[tuple[int, float]], ls: LeadState) -> str:
    """What playing this card to the Lead would do, likeliest first."""
    outcomes: dict[str, float] = {}
    for card, p in dist:
        what = sit.play_value(card, ls)[1]
        outcomes[what] = outcomes.get(what, 0.0) + p
    return _outcomes_text(outcomes)


def _elim_reason(sit: Situation, dist: Sequence[tuple[int, float]]) -> str:
    outcomes: dict[str, float] = {}
    for card, p in dist:
        what = sit.eliminate_value(card)[1]
        outcomes[what] = outcomes.get(what, 0.0) + p
    return _outcomes_text(outcomes)


# -- bots -----------------------------------------------------------------------------------------------------


class RandomBot:
    """A random kind of legal action (assist, investigate, eliminate, confirm, pursue), then a random one."""

    name = "random"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def inform(self, observation: Entry) -> None:
        del observation

    def step(self, view: TableView) -> Action:
        kinds: dict[type, list[Action]] = {}
        for action in view.legal_actions:
            kinds.setdefault(type(action), []).append(action)
        kind = self.rng.choice(sorted(kinds, key=lambda k: k.__name__))
        return self.rng.choice(kinds[kind])


class AdvisorBot:
    """Keeps the exact hand knowledge and plays the top advice (ties broken by the legal-action order)."""

    name = "advisor"

    def __init__(self, seat: int, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.seat = seat
        self.rng = rng
        self.weights = weights
        self.hand = HandKnowledge()

    @property
    def knowledge(self) -> HandKnowledge | None:
        """The knowledge state, once the setup is complete (the simulation checks it for soundness)."""
        return self.hand if self.hand.started else None

    def inform(self, observation: Entry) -> None:
        self.hand.add(observation)

    def ranked(self) -> list[Advice]:
        """My advice, best first (what :meth:`step` plays the first legal action of)."""
        return advise(self.hand, self.weights, reasons=False)

    def step(self, view: TableView) -> Action:
        if view.legal_actions and isinstance(view.legal_actions[0], Keep | Place):
            from models.beyond_baker_street.characters import decide

            return decide(self.hand, view.legal_actions)
        legal = set(view.legal_actions)
        for advice in self.ranked():
            if advice.action in legal:
                return advice.action
        return view.legal_actions[0]


BOTS = ("random", "advisor", "hat")


def make_bot(name: str, seat: int, rng: random.Random) -> RandomBot | AdvisorBot:
    """A bot by name: ``random``, ``advisor``, or ``hat`` (the advisor playing the hat convention,
    :mod:`models.beyond_baker_street.hat`, which needs every seat to play it)."""
    if name == "random":
        return RandomBot(seat, rng)
    if name == "advisor":
        return AdvisorBot(seat, rng)
    if name == "hat":
        from models.beyond_baker_street.hat import HatBot  # it builds on this module

        return HatBot(seat, rng)
    raise AssistantError(f"unknown bot '{name}': expected one of {', '.join(BOTS)}")


__all__ = ["Advice", "AdvisorBot", "RandomBot", "Weights", "advise", "make_bot"]
