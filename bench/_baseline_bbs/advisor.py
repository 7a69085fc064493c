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

from bench._baseline_bbs.knowledge import (
    CARD_INDEX,
    ICON_MASK,
    HandKnowledge,
    card_mask,
    mask_worlds,
    subject_mask,
)
from models.beyond_baker_street.data import EVIDENCE, ICONS, NUMBERS
from models.beyond_baker_street.observations import (
    Action,
    Assist,
    Confirm,
    Eliminate,
    Entry,
    Investigate,
    Pursue,
    Subject,
    subject_plural,
)
from models.beyond_baker_street.rules import TableView
from models.beyond_baker_street.table import Board, LeadState
from solver.errors import AssistantError

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
        if sum(NUMBER_OF[i] for i in range(len(EVIDENCE)) if sub >> i & 1) == first:
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
        if sum(NUMBER_OF[i] for i in range(len(EVIDENCE)) if sub >> i & 1) == first and jointly_reachable(
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
    _tables: dict[str, list[float]] = field(default_factory=dict)

    @staticmethod
    def of(kn: HandKnowledge, weights: Weights = DEFAULT_WEIGHTS) -> Situation:
        assert kn.board is not None
        unseen = card_mask(kn.unseen())
        hands = {s: [CARD_INDEX[c] for c in kn.visible_hand(s)] for s in kn.hands if s != kn.me}
        live = unseen
        for cards in hands.values():
            for i in cards:
                live |= 1 << i
        return Situation(kn, kn.board, kn.me, unseen, live, hands, weights)

    # -- the Leads ------------------------------------------------------------------------------------------
    def open_leads(self) -> list[LeadState]:
        return [ls for ls in self.board.leads.values() if not ls.confirmed and ls.lead is not None]

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
        over = max(0, len(self.board.impossible) + cards - self.board.case.limit)
        over -= max(0, len(self.board.impossible) - self.board.case.limit)
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
            free = self.board.case.limit - len(self.board.impossible)
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

    # -- expected values over a distribution -----------------------------------------------------------------
    def table(self, section: str | None) -> list[float]:
        """The value of each card index played to the Lead of ``section`` (None: eliminated); computed once."""
        key = section or ""
        if key not in self._tables:
            if section is None:
                self._tables[key] = [self.eliminate_value(i)[0] for i in range(len(EVIDENCE))]
            else:
                ls = self.board.leads[section]
                self._tables[key] = [self.play_value(i, ls)[0] for i in range(len(EVIDENCE))]
        return self._tables[key]

    def expected(self, dist: Sequence[tuple[int, float]], section: str | None) -> float:
        """Expected value of playing a card with distribution ``dist`` to ``section`` (None: eliminating it)."""
        table = self.table(section)
        return sum(p * table[card] for card, p in dist)


def my_distribution(kn: HandKnowledge, seat: int | None = None) -> list[list[tuple[int, float]]]:
    """Per position of ``seat`` (default me; others: empathy), (card index, probability) pairs."""
    seat = kn.me if seat is None else seat
    unseen = card_mask(kn.unseen())
    if seat != kn.me:
        unseen |= card_mask(kn.visible_hand(seat))
    return masks_distribution(tuple(s.mask for s in kn.hands[seat]), unseen)


def masks_distribution(masks: tuple[int, ...], unseen: int) -> list[list[tuple[int, float]]]:
    total, rows = mask_worlds(masks, unseen)
    if not total:
        return [[] for _ in masks]
    return [[(i, w / total) for i, w in row] for row in rows]


def narrowed(dist: Sequence[tuple[int, float]], mask: int) -> list[tuple[int, float]]:
    """``dist`` given that the card is one of ``mask`` (unchanged if none of its cards is)."""
    kept = [(c, p) for c, p in dist if mask >> c & 1]
    total = sum(p for _, p in kept)
    return [(c, p / total) for c, p in kept] if total else list(dist)


def best_own_play(sit: Situation, dists: list[list[tuple[int, float]]]) -> tuple[Action | None, float, str]:
    """The best Investigate or Eliminate for a hand with these distributions (expected value)."""
    best: tuple[Action | None, float, str] = (None, float("-inf"), "")
    for pos, dist in enumerate(dists, 1):
        if not dist:
            continue
        for ls in sit.open_leads():
            v = sit.expected(dist, ls.section)
            if v > best[1]:
                best = (Investigate(pos, ls.section), v, "")
        v = sit.expected(dist, None)
        if v > best[1]:
            best = (Eliminate(pos), v, "")
    return best


def true_value(sit: Situation, seat: int, action: Action) -> float:
    """What ``action`` by ``seat`` (whose cards I see) would really be worth."""
    hand = sit.hands[seat]
    if isinstance(action, Investigate):
        return sit.table(action.section)[hand[action.position - 1]]
    if isinstance(action, Eliminate):
        return sit.table(None)[hand[action.position - 1]]
    return 0.0


def hint_value(sit: Situation, target: int, subject: Subject) -> tuple[float, str]:
    """The value of telling ``target`` where their ``subject`` cards are (module docstring)."""
    kn = sit.kn
    hand = sit.hands[target]
    smask = subject_mask(subject)
    slots = kn.hands[target]
    before = tuple(s.mask for s in slots)
    after = tuple(m & smask if (1 << hand[i]) & smask else m & ~smask for i, m in enumerate(before))
    unseen = sit.unseen | card_mask([EVIDENCE[i] for i in hand])
    now = best_own_play(sit, masks_distribution(before, unseen))
    then_dists = masks_distribution(after, unseen)
    then = best_own_play(sit, then_dists)
    gain_now = true_value(sit, target, now[0]) if now[0] is not None and now[1] >= sit.weights.min_play else 0.0
    gain_then = true_value(sit, target, then[0]) if then[0] is not None and then[1] >= sit.weights.min_play else 0.0
    if sit.weights.second and then[0] is not None and isinstance(then[0], Investigate | Eliminate):
        rest = [d if i + 1 != then[0].position else [] for i, d in enumerate(then_dists)]
        other = best_own_play(sit, rest)
        if other[0] is not None and other[1] >= sit.weights.min_play:
            gain_then += sit.weights.second * max(0.0, true_value(sit, target, other[0]))
    if sit.weights.info:
        gain_then += sit.weights.info * _information(sit, hand, masks_distribution(before, unseen), then_dists,
                                                     then[0] if then[1] >= sit.weights.min_play else None)
    distance = (target - sit.me) % sit.board.players - 1
    value = (gain_then - max(gain_now, 0.0)) * sit.weights.hint_discount**distance
    if then[0] is not None and then[1] >= sit.weights.min_play:
        reason = f"then {then[0]} looks worth {then[1]:+.1f} to them"
    else:
        reason = "no play becomes clear for them yet"
    return value, reason


def _information(
    sit: Situation,
    hand: list[int],
    now: list[list[tuple[int, float]]],
    then: list[list[tuple[int, float]]],
    played: Action | None,
) -> float:
    """How much closer an Assist brings the told player to the good plays their cards really offer: for each
    card (but the one they will play at once), the value of its best use times the rise in the probability,
    as they see it, that the same use is good."""
    total = 0.0
    sections: list[str | None] = [ls.section for ls in sit.open_leads()]
    sections.append(None)
    for pos, card in enumerate(hand):
        if isinstance(played, Investigate | Eliminate) and played.position == pos + 1:
            continue
        best, value = max(((sec, sit.table(sec)[card]) for sec in sections), key=lambda kv: kv[1])
        if value <= 0:
            continue
        table = sit.table(best)
        before = sum(p for c, p in now[pos] if table[c] > 0)
        after = sum(p for c, p in then[pos] if table[c] > 0)
        total += value * max(0.0, after - before)
    return total


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
    sit = Situation.of(kn, weights)
    w = weights
    out: list[Advice] = []
    dists = my_distribution(kn)
    if known is not None:
        dists = [narrowed(dist, mask) for dist, mask in zip(dists, known, strict=True)]
    goal = board.data.goal
    for ls in sit.open_leads():
        if ls.need == 0:
            if sit.last_lead() and board.track != goal:
                out.append(Advice(Confirm(ls.section), -1000.0,
                                  f"the last Lead: confirming with the track on {board.track}, not {goal}, loses"))
            else:
                out.append(Advice(Confirm(ls.section), w.confirm, "confirms a Lead and moves Holmes back"))
    for pos, dist in enumerate(dists, 1):
        for ls in sit.open_leads():
            v = sit.expected(dist, ls.section)
            out.append(Advice(Investigate(pos, ls.section), v, _play_reason(sit, dist, ls) if reasons else ""))
        v = sit.expected(dist, None)
        out.append(Advice(Eliminate(pos), v, _elim_reason(sit, dist) if reasons else ""))
    hint_cost = sit.holmes_value() if board.holmes > 1 else 1000.0
    for target, hand in sit.hands.items():
        subjects: list[Subject] = [n for n in NUMBERS if any(NUMBER_OF[i] == n for i in hand)]
        subjects += [ic for ic in ICONS if any(ICON_OF[i] == ic for i in hand)]
        for subject in subjects:
            v, reason = hint_value(sit, target, subject)
            positions = [str(i + 1) for i, c in enumerate(hand) if (1 << c) & subject_mask(subject)]
            told = f"tells player {target} their {subject_plural(subject)} are at {', '.join(positions)}; {reason}"
            out.append(Advice(Assist(target, subject), v - hint_cost, told))
    for ls in sit.open_leads():
        out.append(Advice(Pursue(ls.section), _pursue_value(sit, ls), _pursue_reason(sit, ls)))
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
        legal = set(view.legal_actions)
        for advice in self.ranked():
            if advice.action in legal:
                return advice.action
        return view.legal_actions[0]


BOTS = ("random", "advisor", "hat")


def make_bot(name: str, seat: int, rng: random.Random) -> RandomBot | AdvisorBot:
    """A bot by name: ``random``, ``advisor``, or ``hat`` (the advisor playing the hat convention,
    :mod:`bench._baseline_bbs.hat`, which needs every seat to play it)."""
    if name == "random":
        return RandomBot(seat, rng)
    if name == "advisor":
        return AdvisorBot(seat, rng)
    if name == "hat":
        from bench._baseline_bbs.hat import HatBot  # it builds on this module

        return HatBot(seat, rng)
    raise AssistantError(f"unknown bot '{name}': expected one of {', '.join(BOTS)}")


__all__ = ["Advice", "AdvisorBot", "RandomBot", "Weights", "advise", "make_bot"]
