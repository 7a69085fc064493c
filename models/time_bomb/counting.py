"""The hard-fact model of Time Bomb Evolution as constraints, and the exact counter that exploits its shape.

**Worlds.** Every physical cable card is an *instance* (``red3``, ``defuse1``). For each round r played so far
each instance has one variable ``r<r>:<instance>`` whose value is ``out`` (removed at setup, or cut in an
earlier round) or a *slot* ``s<seat>.<k>``: the k-th card of that seat's hand that round, where the slots
that were cut come first in cut order (the cards are face down and shuffled, so which unrevealed slot a cut
takes is irrelevant and numbering them in cut order loses nothing). A uniform distribution over these worlds
is exactly the game's chance: the removed cards are a uniform subset of the bomb cards and every deal is a
uniform bijection of the remaining cards onto the slots.

**Constraints** (each built here with its *meaning*, a small value the counter reads instead of reverse
engineering the terms): every slot holds one instance (:class:`SlotFull`); N bomb cards are out in round 1
(:class:`Removed`); a cut shows a slot's card type (:class:`SlotCard`); my hand fixes how many of each type
my slots hold (:class:`HandCard`); a redeal carries every instance over (:class:`Carry`: out next round iff
out or cut this round). What-ifs add :class:`InPlay` (a colour has exactly k cards in play) and
:class:`Holds` (some of a seat's slots hold exactly k cards of a type).

**Counting.** Cards of one type are interchangeable, so the world count depends only on how many of each
colour were removed (a *composition*, at most 462 with 6 players). Given a composition, round r's pool has
``P_t`` cards of type t; a round whose revealed slots (others) show ``o_t`` and whose known hands hold
``m_t`` leaves ``u_t = P_t - o_t - m_t`` unseen cards in the U unrevealed slots of the other players, and
contributes ``prod_t P_t!/u_t! * prod_known (h-a)!/prod_t (m_t-a_t)! * U!`` bijections (a known hand of h
slots, a of them revealed). The count is the sum over compositions of ``prod_colours C(5, removed)`` times
the product over rounds: exact integers. Literal weights follow by symmetry inside each type.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from models.time_bomb.data import DEFUSE, Setup
from models.time_bomb.variables import OUT, Instance, instance_variable, slot_value
from solver.constraints import Constraint, CountEquals, Lit, Problem
from solver.counting import UnsupportedShape
from solver.knowledge import Count

# -- meanings -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SlotFull:
    """Structure: slot (round, seat, index) holds exactly one instance."""

    round: int
    seat: int
    index: int


@dataclass(frozen=True)
class Removed:
    """Structure: exactly ``count`` bomb instances are out in round 1 (removed unseen at setup)."""

    count: int


@dataclass(frozen=True)
class SlotCard:
    """A cut: slot (round, seat, index) holds a ``card`` (a type)."""

    round: int
    seat: int
    index: int
    card: str


@dataclass(frozen=True)
class HandCard:
    """A known hand: ``seat``'s slots in ``round`` hold exactly ``count`` cards of type ``card``."""

    round: int
    seat: int
    card: str
    count: int


@dataclass(frozen=True)
class Carry:
    """A redeal: ``instance`` is out in ``round`` iff it was out or cut in the round before."""

    round: int
    instance: Instance


@dataclass(frozen=True)
class InPlay:
    """What-if: ``count`` cards of ``colour`` are in play (the rest were removed)."""

    colour: str
    count: int


@dataclass(frozen=True)
class Holds:
    """What-if: ``seat``'s slots ``first..last`` of ``round`` hold exactly ``count`` cards of ``card``."""

    round: int
    seat: int
    card: str
    count: int
    first: int
    last: int


Meaning = SlotFull | Removed | SlotCard | HandCard | Carry | InPlay | Holds


class Meanings:
    """What each constraint means. Equal constraints may carry several meanings (a one-card hand that was cut
    is both "my hand holds one green" and "my slot 1 is green"); the counter reads them all."""

    def __init__(self) -> None:
        self._by_constraint: dict[Constraint, tuple[Meaning, ...]] = {}

    def add(self, c: Constraint, m: Meaning) -> Constraint:
        known = self._by_constraint.get(c, ())
        if m not in known:
            self._by_constraint[c] = (*known, m)
        return c

    def get(self, c: Constraint) -> tuple[Meaning, ...]:
        return self._by_constraint.get(c, ())

    def update(self, other: Meanings) -> None:
        for c, ms in other._by_constraint.items():
            for m in ms:
                self.add(c, m)


# -- layout -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The shape of the worlds: the setup and each round's hand sizes (public)."""

    setup: Setup
    rounds: tuple[tuple[int, ...], ...]  # rounds[r-1][seat-1] = seat's hand size at the start of round r

    @cached_property
    def instances(self) -> tuple[Instance, ...]:
        s = self.setup
        bombs = [(c, i) for c in s.colours for i in range(1, s.bombs_per_colour + 1)]
        return tuple(bombs + [(DEFUSE, i) for i in range(1, s.defusers + 1)])

    def size(self, round_: int, seat: int) -> int:
        return self.rounds[round_ - 1][seat - 1]

    def slots(self, round_: int, seat: int) -> list[str]:
        return [slot_value(seat, k) for k in range(1, self.size(round_, seat) + 1)]

    def all_slots(self, round_: int) -> list[tuple[int, int]]:
        return [(s, k) for s in range(1, self.setup.players + 1) for k in range(1, self.size(round_, s) + 1)]

    def domain(self, round_: int, card: Instance) -> tuple[str, ...]:
        return _domain(self.rounds[round_ - 1], round_ == 1 and card[0] == DEFUSE)

    def problem(self) -> tuple[Problem, Meanings]:
        variables: dict[str, tuple[str, ...]] = {}
        for r in range(1, len(self.rounds) + 1):
            for card in self.instances:
                variables[instance_variable(r, card)] = self.domain(r, card)
        meanings = Meanings()
        bombs = [c for c in self.instances if c[0] != DEFUSE]
        structure = [
            meanings.add(
                CountEquals(tuple((instance_variable(1, c), OUT) for c in bombs), self.setup.removed),
                Removed(self.setup.removed),
            )
        ]
        for r in range(1, len(self.rounds) + 1):
            for seat, k in self.all_slots(r):
                c = CountEquals(tuple((instance_variable(r, i), slot_value(seat, k)) for i in self.instances), 1)
                structure.append(meanings.add(c, SlotFull(r, seat, k)))
        return Problem(variables, tuple(structure)), meanings

    # -- constraint builders (each returns the constraint with its meaning) ---------------------------------
    def of_type(self, card: str) -> list[Instance]:
        return [i for i in self.instances if i[0] == card]

    def slot_card(self, m: SlotCard) -> CountEquals:
        return CountEquals(
            tuple((instance_variable(m.round, i), slot_value(m.seat, m.index)) for i in self.of_type(m.card)), 1
        )

    def hand_card(self, m: HandCard) -> CountEquals:
        slots = self.slots(m.round, m.seat)
        return CountEquals(
            tuple((instance_variable(m.round, i), s) for i in self.of_type(m.card) for s in slots), m.count
        )

    def holds(self, m: Holds) -> CountEquals:
        slots = [slot_value(m.seat, k) for k in range(m.first, m.last + 1)]
        return CountEquals(
            tuple((instance_variable(m.round, i), s) for i in self.of_type(m.card) for s in slots), m.count
        )

    def carry(self, m: Carry, revealed: Sequence[tuple[int, int]]) -> CountEquals:
        """``revealed`` are the (seat, index) slots cut in round ``m.round - 1``."""
        now = instance_variable(m.round, m.instance)
        before = instance_variable(m.round - 1, m.instance)
        terms: list[Lit] = [(now, v) for v in self.domain(m.round, m.instance) if v != OUT]
        if OUT in self.domain(m.round - 1, m.instance):
            terms.append((before, OUT))
        terms += [(before, slot_value(s, k)) for s, k in revealed]
        return CountEquals(tuple(terms), 1)

    def in_play(self, m: InPlay) -> CountEquals:
        removed = self.setup.bombs_per_colour - m.count
        return CountEquals(tuple((instance_variable(1, i), OUT) for i in self.of_type(m.colour)), removed)


# -- the summary the counter reads --------------------------------------------------------------------------


@dataclass
class _Round:
    sizes: tuple[int, ...]
    revealed: dict[tuple[int, int], str]  # (seat, index) -> card type
    known: dict[int, dict[str, int]]  # seat -> full hand counts


@dataclass
class Summary:
    """The hard facts, type level: what each round revealed and which hands are known, plus what-if filters."""

    setup: Setup
    rounds: list[_Round]
    in_play: dict[str, int]
    contradiction: bool = False  # two observations disagree outright (e.g. a slot shown as two types)


def summarize(layout: Layout, constraints: Sequence[Constraint], meanings: Meanings) -> Summary:
    """Read the constraints through their meanings; raise :class:`UnsupportedShape` for anything else."""
    read: list[Meaning] = []
    for c in constraints:
        found = meanings.get(c)
        if not found:
            raise UnsupportedShape(f"a constraint the Time Bomb counter does not know: {c}")
        read += found
    return summarize_meanings(layout, read)


def summarize_meanings(layout: Layout, read: Iterable[Meaning]) -> Summary:
    """The type-level summary of a set of meanings (the constraints' content)."""
    setup = layout.setup
    rounds = [_Round(sizes, {}, {}) for sizes in layout.rounds]
    in_play: dict[str, int] = {}
    carried: set[tuple[int, Instance]] = set()
    partial_hands: dict[tuple[int, int], dict[str, int]] = {}
    contradiction = False
    for m in read:
        if isinstance(m, SlotFull | Removed):
            continue
        if isinstance(m, SlotCard):
            slots = rounds[m.round - 1].revealed
            if slots.get((m.seat, m.index), m.card) != m.card:
                contradiction = True
            slots[(m.seat, m.index)] = m.card
        elif isinstance(m, HandCard):
            hand = partial_hands.setdefault((m.round, m.seat), {})
            if hand.get(m.card, m.count) != m.count:
                contradiction = True
            hand[m.card] = m.count
        elif isinstance(m, Carry):
            carried.add((m.round, m.instance))
        elif isinstance(m, InPlay):
            if in_play.get(m.colour, m.count) != m.count:
                contradiction = True
            in_play[m.colour] = m.count
        else:
            raise UnsupportedShape(f"the Time Bomb counter does not count what-ifs like {m}")
    for (r, seat), hand in partial_hands.items():
        if set(hand) != set(setup.types) and sum(hand.values()) == layout.size(r, seat):
            # equal constraints share one meaning (e.g. every type's "0 in an empty hand"): the rest are 0
            hand.update({t: 0 for t in setup.types if t not in hand})
        if set(hand) != set(setup.types):
            raise UnsupportedShape(f"round {r}: player {seat}'s hand is only partly known")
        rounds[r - 1].known[seat] = hand
    for r in range(2, len(rounds) + 1):
        for inst in layout.instances:
            if (r, inst) not in carried:
                raise UnsupportedShape(f"round {r} is not linked to round {r - 1} (no redeal observation)")
    return Summary(setup, rounds, in_play, contradiction)


# -- compositions -------------------------------------------------------------------------------------------


def compositions(setup: Setup, in_play: Mapping[str, int] | None = None) -> list[tuple[int, ...]]:
    """Every way to remove ``setup.removed`` bomb cards, as removed counts per colour (in colour order)."""
    return list(_compositions(len(setup.colours), setup.removed, setup.bombs_per_colour, _fixed(setup, in_play)))


def _fixed(setup: Setup, in_play: Mapping[str, int] | None) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((setup.colours.index(c), k) for c, k in (in_play or {}).items()))


@dataclass
class HardPosterior:
    """The exact posterior over compositions, and what it implies for the current round.

    ``log_weights[i]`` is the log of the world count of composition ``comps[i]`` (``-inf`` if none);
    ``exact_weights`` are those counts as integers when asked for (the generic :class:`Count`). ``unseen[i]``
    are, for the current round, the unseen cards of each type (``setup.types`` order) in the other players'
    unrevealed slots; ``unknown_slots[seat]`` how many unrevealed slots each seat with an unknown hand has;
    ``known_left[seat]`` what a known hand (mine) still holds; ``round_pools[r-1]`` each round's pool.
    """

    setup: Setup
    summary: Summary
    comps: list[tuple[int, ...]]
    log_weights: np.ndarray
    exact_weights: list[int] | None
    unseen: np.ndarray
    unknown_slots: dict[int, int]
    known_left: dict[int, dict[str, int]]
    round_pools: list[np.ndarray]
    _probs: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _table: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def consistent(self) -> bool:
        return bool(np.isfinite(self.log_weights).any())

    @property
    def worlds(self) -> float:
        """The number of worlds: exact when ``exact_weights`` were computed, else from the logs."""
        if self.exact_weights is not None:
            return sum(self.exact_weights)
        if not self.consistent:
            return 0
        top = float(self.log_weights.max())
        return float(math.exp(top) * np.exp(self.log_weights - top).sum())

    def probabilities(self) -> np.ndarray:
        if self.exact_weights is not None:
            total = sum(self.exact_weights)
            if total == 0:
                return np.zeros(len(self.comps))
            return np.array([w / total for w in self.exact_weights], dtype=float)
        if not self.consistent:
            return np.zeros(len(self.comps))
        w = np.exp(self.log_weights - self.log_weights.max())
        return w / w.sum()

    def removed_distribution(self, colour: str) -> dict[int, float]:
        """P(k cards of ``colour`` were removed) for every k with positive probability."""
        i = self.setup.colours.index(colour)
        if self._probs is None:  # once per posterior: the cover choice asks for every colour, often twice
            self._probs = self.probabilities()
            self._table = np.array(self.comps, dtype=np.int64).reshape(len(self.comps), len(self.setup.colours))
        probs, column = self._probs, self._table[:, i]
        if not len(probs):
            return {}
        positive = probs > 0
        # bincount adds the weights in composition order: the same sums as a loop over the compositions
        sums = np.bincount(column[positive], weights=probs[positive])
        present = np.bincount(column[positive])
        return {k: float(sums[k]) for k in range(len(sums)) if present[k]}

    def in_play_distribution(self, colour: str) -> dict[int, float]:
        cap = self.setup.bombs_per_colour
        return {cap - k: p for k, p in sorted(self.removed_distribution(colour).items(), reverse=True)}

    def count(self, layout: Layout) -> Count:
        """The generic :class:`Count`: exact world count and the weight of every literal."""
        assert self.exact_weights is not None, "count() needs posterior(..., exact=True)"
        total = sum(self.exact_weights)
        setup = self.setup
        types = list(setup.types)
        per_type = {t: len(layout.of_type(t)) for t in types}
        weights: dict[Lit, float] = {}
        if total == 0:
            return Count(0.0, {})
        # expected number of type-t instances at each value, per round, mixed over compositions
        for r, rnd in enumerate(self.summary.rounds, start=1):
            pools = self.round_pools[r - 1]
            shown, unknown = _round_shown(setup, rnd)
            expect: dict[tuple[str, str], float] = {}
            for ci, w in enumerate(self.exact_weights):
                if not w:
                    continue
                pool = pools[ci]
                unseen = pool - shown
                for ti, t in enumerate(types):
                    outs = per_type[t] - int(pool[ti])
                    expect[(t, OUT)] = expect.get((t, OUT), 0.0) + w * outs
                    for seat in range(1, setup.players + 1):
                        size = rnd.sizes[seat - 1]
                        known = rnd.known.get(seat)
                        revealed = [k for k in range(1, size + 1) if (seat, k) in rnd.revealed]
                        hidden = size - len(revealed)
                        for k in range(1, size + 1):
                            key = (t, slot_value(seat, k))
                            if (seat, k) in rnd.revealed:
                                share = 1.0 if rnd.revealed[(seat, k)] == t else 0.0
                            elif known is not None:
                                seen = sum(1 for j in revealed if rnd.revealed[(seat, j)] == t)
                                share = (known[t] - seen) / hidden
                            else:
                                share = float(unseen[ti]) / unknown if unknown else 0.0
                            expect[key] = expect.get(key, 0.0) + w * share
            for card in layout.instances:
                var = instance_variable(r, card)
                for value in layout.domain(r, card):
                    weights[(var, value)] = expect.get((card[0], value), 0.0) / per_type[card[0]]
        return Count(float(total), weights)


def _round_shown(setup: Setup, rnd: _Round) -> tuple[np.ndarray, int]:
    """Per type, the cards of a round that are not unseen (known hands, revealed cards of unknown hands), and
    how many unrevealed slots the unknown hands have."""
    types = list(setup.types)
    shown = np.zeros(len(types), dtype=np.int64)
    slots = 0
    for seat in range(1, setup.players + 1):
        known = rnd.known.get(seat)
        if known is not None:
            shown += np.array([known[t] for t in types], dtype=np.int64)
            continue
        for k in range(1, rnd.sizes[seat - 1] + 1):
            card = rnd.revealed.get((seat, k))
            if card is None:
                slots += 1
            else:
                shown[types.index(card)] += 1
    return shown, slots


@functools.lru_cache(maxsize=64)
def _compositions(colours: int, removed: int, cap: int, in_play: tuple[tuple[int, int], ...]) -> tuple:
    out = []
    for combo in itertools.combinations_with_replacement(range(colours), removed):
        counts = [0] * colours
        for i in combo:
            counts[i] += 1
        if max(counts, default=0) > cap or any(cap - counts[i] != k for i, k in in_play):
            continue
        out.append(tuple(counts))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _prior(colours: int, removed: int, cap: int, comps: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The number of ways to pick the removed cards of each composition: prod_colours C(cap, removed)."""
    del colours, removed  # part of the cache key only
    return tuple(math.prod(math.comb(cap, k) for k in comp) for comp in comps)


@functools.lru_cache(maxsize=256)
def _domain(sizes: tuple[int, ...], never_out: bool) -> tuple[str, ...]:
    """A card's values in a round with these hand sizes: every slot, and ``out`` unless it is never removed
    (a defusing card in round 1)."""
    slots = tuple(slot_value(s, k) for s, size in enumerate(sizes, start=1) for k in range(1, size + 1))
    return slots if never_out else (OUT, *slots)


@functools.lru_cache(maxsize=64)
def _comp_table(
    colours: int, removed: int, cap: int, in_play: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], np.ndarray, np.ndarray]:
    """The compositions, their prior counts, the compositions as an array (one row each) and the log of the
    counts: built once per setup and in-play facts (the arrays are shared and read-only)."""
    comps = _compositions(colours, removed, cap, in_play)
    prior = _prior(colours, removed, cap, comps)
    table = np.array(comps, dtype=np.int64).reshape(len(comps), colours)
    logs = np.log(np.array(prior, dtype=float)) if comps else np.zeros(0)
    table.flags.writeable = False
    logs.flags.writeable = False
    return comps, prior, table, logs


_FACTORIALS = [math.factorial(n) for n in range(64)]
_LOG_FACTORIALS = np.array([math.lgamma(n + 1) for n in range(64)])


def _known_factor(types: Sequence[str], rnd: _Round) -> int:
    """prod over known hands of the arrangements of their unrevealed slots (0 if a hand is inconsistent)."""
    const = 1
    for seat, hand in rnd.known.items():
        size = rnd.sizes[seat - 1]
        shown = dict.fromkeys(types, 0)
        for (s, _), t in rnd.revealed.items():
            if s == seat:
                shown[t] += 1
        if sum(hand.values()) != size or any(hand[t] < shown[t] for t in types):
            return 0
        const *= _FACTORIALS[size - sum(shown.values())] // math.prod(_FACTORIALS[hand[t] - shown[t]] for t in types)
    return const


def posterior(layout: Layout, summary: Summary, exact: bool = False) -> HardPosterior:
    """The composition posterior (module docstring): log weights always, exact integers if ``exact``."""
    setup = layout.setup
    types = list(setup.types)
    cap = setup.bombs_per_colour
    n_types = len(types)
    comps_t, prior, removed, log_prior = _comp_table(
        len(setup.colours), setup.removed, cap, _fixed(setup, summary.in_play)
    )
    comps = list(comps_t)
    pool = np.zeros((len(comps), n_types), dtype=np.int64)
    pool[:, 0] = setup.defusers
    pool[:, 1:] = cap - removed
    log_w = log_prior.copy() if comps else np.zeros(0)
    exact_w = list(prior) if exact else None
    if summary.contradiction:
        log_w = np.full(len(comps), -np.inf)
        exact_w = [0] * len(comps) if exact else None
    round_pools: list[np.ndarray] = []
    unseen = pool
    for r, rnd in enumerate(summary.rounds, start=1):
        round_pools.append(pool)
        if comps and sum(rnd.sizes) != int(pool[0].sum()):
            raise UnsupportedShape(f"round {r}: {sum(rnd.sizes)} slots for {int(pool[0].sum())} cards")
        const = _known_factor(types, rnd)
        shown, unknown = _round_shown(setup, rnd)
        unseen = pool - shown
        ok = (unseen >= 0).all(axis=1) & (const > 0)
        safe = np.where(unseen >= 0, unseen, 0)
        lf = _LOG_FACTORIALS
        round_log = (lf[pool] - lf[safe]).sum(axis=1) + lf[unknown] + (math.log(const) if const else 0.0)
        log_w = np.where(ok, log_w + round_log, -np.inf)
        if exact_w is not None:
            base = _FACTORIALS[unknown] * const
            rows, urows = pool.tolist(), unseen.tolist()
            for ci in range(len(comps)):
                if not exact_w[ci] or not ok[ci]:
                    exact_w[ci] = 0
                    continue
                factor = base
                for p_t, u_t in zip(rows[ci], urows[ci], strict=True):
                    if p_t != u_t:
                        factor *= _FACTORIALS[p_t] // _FACTORIALS[u_t]
                exact_w[ci] *= factor
        revealed = np.zeros(n_types, dtype=np.int64)
        for t in rnd.revealed.values():
            revealed[types.index(t)] += 1
        pool = pool - revealed
    last = summary.rounds[-1]
    unknown_slots: dict[int, int] = {}
    known_left: dict[int, dict[str, int]] = {}
    for seat in range(1, setup.players + 1):
        size = last.sizes[seat - 1]
        shown_cards = [last.revealed[(seat, k)] for k in range(1, size + 1) if (seat, k) in last.revealed]
        if seat in last.known:
            left = dict(last.known[seat])
            for t in shown_cards:
                left[t] -= 1
            known_left[seat] = left
        else:
            unknown_slots[seat] = size - len(shown_cards)
    return HardPosterior(setup, summary, comps, log_w, exact_w, unseen, unknown_slots, known_left, round_pools)


class HardCounter:
    """A :class:`solver.knowledge.Counter` for one :class:`Layout`: exact, by compositions (module docstring)."""

    def __init__(self, layout: Layout, meanings: Meanings) -> None:
        self.layout = layout
        self.meanings = meanings

    def posterior(self, constraints: Sequence[Constraint], exact: bool = False) -> HardPosterior:
        return posterior(self.layout, summarize(self.layout, constraints, self.meanings), exact)

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
        del budget  # exact and fast: at most a few hundred compositions
        return self.posterior([*problem.structure, *constraints], exact=True).count(self.layout)
