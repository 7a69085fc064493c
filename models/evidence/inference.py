"""A soft layer on top of the exact knowledge: the other players modelled as the greedy bot.

The knowledge model (:mod:`models.evidence.knowledge`) is exact about hard facts only: every deal of the unseen
rumours consistent with what was shown is equally likely. A player who searches also tells something: the
greedy bot takes the card whose evidence mean *from its own hand* is best, so a greedy player taking blue over a
publicly better yellow must hold low blue rumours (or high yellow ones). This module keeps, for every other
player, each search decision it made (a card taken, or stopping with room left) with the public facts it was
made on, and samples deals in which a greedy player holding that hand would have made exactly those decisions.

Sampling is a Markov chain over deals (swap two hidden rumours of one colour between two places: the public
per-colour counts are kept), uniform over the consistent deals; it is kept from one decision to the next and
repaired when new facts arrive (a played rumour is moved into its player's hand; violated decisions are
removed by annealing). If no consistent deal is found in the budget, the others are evidently not greedy: the
model is dropped and the deals come from the exact knowledge alone, so the layer degrades to the facts, never
to an error.

This is a model of the other players, not a fact: the advisor bot uses it against greedy bots; the companion's
``advise`` uses the exact knowledge alone unless asked.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from models.evidence.data import COLOURS
from models.evidence.knowledge import EvidenceKnowledge
from models.evidence.observations import (
    Card,
    EvidenceShown,
    Look,
    Observation,
    Play,
    Reveal,
    Search,
    TimeOut,
    ToolUsed,
)
from models.evidence.rules import Table

C = len(COLOURS)
INDEX = {c: i for i, c in enumerate(COLOURS)}
T = TypeVar("T")
EVIDENCE = 0  # place codes: 0 the evidence, seat s -> s (a hand), -s (an unknown pile)
STOPPED, TOOK_OTHER, TOOK_THIS = 0, 1, 2  # the kinds of fit test (GreedyOpponents._fit_tests)


@dataclass
class Decision:
    """One search decision of a greedy player and the public facts it was made on.

    ``num[c]`` and ``den[c]`` are the sum and number of the rumours of colour c that the player could not see
    then, *before* removing its own hand: its mean for c was ``(num[c] - hand sum) / (den[c] - hand count)``.
    The hand is the one it holds now plus what it played since, so both are kept up to date as it plays.
    """

    seat: int
    num: list[int]
    den: list[int]
    colours: tuple[int, ...]  # the mysteries with a search card available then
    bonus: tuple[int, ...]  # the Hot Lead bonus per mystery (0 if its Hot Lead was gone)
    looked: tuple[bool, ...]
    outcome: int  # colour index taken, or -1: stopped with room left

    def played(self, ci: int, value: int) -> None:
        """The player played (ci, value) after this decision: it was in the hand the decision was made with."""
        self.num[ci] -= value
        self.den[ci] -= 1


def pick_two(below: Callable[[int], int], items: Sequence[T]) -> tuple[T, T]:
    """``random.sample(items, 2)`` drawn with ``below`` (the generator's ``_randbelow``): the same two items from
    the same random numbers (CPython's algorithm for k = 2: a pool for small populations, a set otherwise),
    without the generality that makes ``sample`` slow in the sampler's inner loop."""
    n = len(items)
    i = below(n)
    if n <= 21:  # sample's pool method: the first pick's place is refilled by the last item
        j = below(n - 1)
        return items[i], items[n - 1] if j == i else items[j]
    j = below(n)
    while j == i:
        j = below(n)
    return items[i], items[j]


class WordStream:
    """``rng._randbelow`` for a long run of draws, from the generator's 32-bit words fetched in blocks.

    CPython's ``_randbelow(n)`` (n < 2**32) takes one 32-bit word per try, keeps its top ``n.bit_length()``
    bits and tries again while they are >= n; ``getrandbits(32 * m)`` returns the next m words, the first in
    the lowest bits. So the draws here are the generator's own, and :meth:`close` leaves the generator
    exactly where the same draws made one by one would have (a test compares both, draw by draw and state).
    """

    BLOCK = 2048

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.state = rng.getstate()
        self.words: list[int] = []
        self.pos = 0

    def below(self, n: int) -> int:
        shift = 32 - n.bit_length()
        words = self.words
        while True:
            if self.pos == len(words):
                block = self.rng.getrandbits(32 * self.BLOCK).to_bytes(4 * self.BLOCK, "little")
                words += np.frombuffer(block, dtype="<u4").tolist()
            r = words[self.pos] >> shift
            self.pos += 1
            if r < n:
                return r

    def close(self) -> None:
        """Leave the generator just past the words used."""
        self.rng.setstate(self.state)
        if self.pos:
            self.rng.getrandbits(32 * self.pos)


class GreedyOpponents:
    """Records the others' search decisions and samples deals consistent with them (module docstring)."""

    def __init__(self, kn: EvidenceKnowledge, rng: random.Random, steps: int = 20) -> None:
        self.me = kn.me
        self.rng = rng
        self.steps = steps  # chain steps between two samples
        t = kn.table
        self.seats = [s for s in t.seats if s != kn.me]
        self.total_sum = [sum(t.data.values[c]) for c in COLOURS]
        self.total_n = [len(t.data.values[c]) for c in COLOURS]
        self.decisions: dict[int, list[Decision]] = {s: [] for s in self.seats}
        self.plays: dict[int, list[tuple[int, int]]] = {s: [] for s in self.seats}
        self.mover: int | None = None
        self.turn_closed = True
        self.falsified = False
        self.slots: list[list[list[int]]] = []  # per colour: [place, value] of every hidden rumour
        self._looked: tuple[int, list[set[int]]] | None = None
        self._recorded = 0  # decisions recorded so far (keys the looked seats)
        self._init_slots(kn)

    # -- recording ---------------------------------------------------------------------------------------------
    def observe(self, obs: Observation, kn: EvidenceKnowledge) -> None:
        """Add ``obs`` to ``kn`` and keep the model in step; if ``kn`` rejects it, the model is unchanged too."""
        table_before = kn.table.clone()
        kn.add(obs)
        self.before(obs, table_before)
        self.after(obs, kn)

    def before(self, obs: Observation, t: Table) -> None:
        """Called with each observation *before* the knowledge model takes it (``t`` is the table before)."""
        if isinstance(obs, Play | Reveal) and obs.seat != self.mover or isinstance(obs, TimeOut | ToolUsed):
            self._close_turn(t)
        if isinstance(obs, Play):
            if obs.seat != self.mover:
                self.mover, self.turn_closed = obs.seat, False
            if obs.seat in self.plays:
                ci = INDEX[obs.colour]
                self.plays[obs.seat].append((ci, obs.value))
                for d in self.decisions[obs.seat]:  # every recorded decision came before this rumour
                    d.played(ci, obs.value)
        if isinstance(obs, Search) and obs.seat in self.decisions:
            trial = t.clone()
            for colour in obs.colours:
                self.decisions[obs.seat].append(self._decision(trial, obs.seat, INDEX[colour]))
                self._recorded += 1
                trial.search(obs.seat, (colour,))

    def after(self, obs: Observation, kn: EvidenceKnowledge) -> None:
        """Called after the knowledge model took ``obs``: keep the chain's deal consistent with the facts."""
        if isinstance(obs, Play) and obs.seat != self.me:
            self._place(INDEX[obs.colour], obs.value, obs.seat, remove=True)
        elif isinstance(obs, Reveal):
            self._place(INDEX[obs.colour], obs.value, -obs.seat, remove=True)
        elif isinstance(obs, EvidenceShown | Look):
            ci = INDEX[obs.colour]
            if any(p == EVIDENCE for p, _ in self.slots[ci]):  # the evidence is a fact now, not part of the deal
                self._place(ci, obs.value, EVIDENCE, remove=True)

    def _close_turn(self, t: Table) -> None:
        q = self.mover
        if q is None or self.turn_closed:
            return
        self.turn_closed = True
        if q in self.decisions and t.room(q) > 0 and any(t.available(c) for c in COLOURS):
            self.decisions[q].append(self._decision(t, q, -1))
            self._recorded += 1

    def _decision(self, t: Table, q: int, outcome: int) -> Decision:
        looked = [False] * C
        for u in t.used[q]:
            if isinstance(u, ToolUsed) and u.tool == "fortune" and u.colour:
                looked[INDEX[u.colour]] = True
        hot_bonus = 2 if "telescope" in t.tools_of(q) else 1
        return Decision(
            q,
            [self.total_sum[i] - sum(t.displays[c]) for i, c in enumerate(COLOURS)],
            [self.total_n[i] - len(t.displays[c]) for i, c in enumerate(COLOURS)],
            tuple(i for i, c in enumerate(COLOURS) if t.available(c) > 0),
            tuple(hot_bonus if t.stacks[c].hot else 0 for c in COLOURS),
            tuple(looked),
            outcome,
        )

    # -- the deal ----------------------------------------------------------------------------------------------
    def _init_slots(self, kn: EvidenceKnowledge) -> None:
        self.slots = self._slots_of(kn, *kn.sample(self.rng))

    def _slots_of(
        self,
        kn: EvidenceKnowledge,
        evidence: Mapping[str, int],
        hands: Mapping[int, Iterable[Card]],
        piles: Mapping[int, Iterable[Card]],
    ) -> list[list[list[int]]]:
        """A deal (the evidence not yet known, the others' hands, the two-player piles) as the chain's slots."""
        slots: list[list[list[int]]] = [[] for _ in COLOURS]
        for c in COLOURS:
            if kn.evidence_known(c) is None:
                slots[INDEX[c]].append([EVIDENCE, evidence[c]])
        for s in self.seats:
            for c, v in hands[s]:
                slots[INDEX[c]].append([s, v])
        for s, cards in piles.items():
            for c, v in cards:
                slots[INDEX[c]].append([-s, v])
        return slots

    def fits(
        self,
        kn: EvidenceKnowledge,
        evidence: Mapping[str, int],
        hands: Mapping[int, Iterable[Card]],
        piles: Mapping[int, Iterable[Card]],
    ) -> bool:
        """Whether a deal (in tests and benchmarks: the true one) makes every recorded decision greedy."""
        saved, self.slots = self.slots, self._slots_of(kn, evidence, hands, piles)
        try:
            return self.consistent()
        finally:
            self.slots = saved

    def _place(self, ci: int, value: int, place: int, remove: bool) -> None:
        """Make ``place`` hold a ``value`` rumour of colour ``ci`` (swapping it in), then drop it if ``remove``."""
        slots = self.slots[ci]
        here = next((s for s in slots if s[0] == place and s[1] == value), None)
        if here is None:
            there = next(s for s in slots if s[1] == value)
            mine = next(s for s in slots if s[0] == place)
            there[1], mine[1] = mine[1], value
            here = mine
        if remove:
            slots.remove(here)

    def _violations(
        self, q: int, sums: list[int], counts: list[int], evidence: list[int | None], first: bool = False
    ) -> int:
        """How many of ``q``'s recorded decisions a greedy player with this hand would not have made (the
        same arithmetic and tie-breaks as :func:`models.evidence.bots.best_takes`); with ``first``, stop at the
        first one (1: some, 0: none), which is all the sampling moves need to know."""
        bad = 0
        for d in reversed(self.decisions[q]):  # the latest first: made on the most facts, the likeliest to fail
            num, den, bonus, looked = d.num, d.den, d.bonus, d.looked
            best, value = -1, -1e9
            for ci in d.colours:
                ev = evidence[ci]
                if looked[ci] and ev is not None:
                    mean = float(ev)
                else:
                    n = den[ci] - counts[ci]
                    mean = (num[ci] - sums[ci]) / n if n > 0 else 0.0
                val = mean + bonus[ci]
                if val > value:
                    best, value = ci, val
            if d.outcome < 0:
                bad += best >= 0 and value > 0
            else:
                bad += best != d.outcome or value <= 0
            if bad and first:
                return 1
        return bad

    def _rebuild(self) -> None:
        """Per-seat hand sums and counts by colour, and the evidence values, of the chain's deal (kept up to date
        by :meth:`_step`, rebuilt when the facts change the deal)."""
        self._sums = {q: [0] * C for q in self.seats}
        self._counts = {q: [0] * C for q in self.seats}
        self._ev: list[int | None] = [None] * C
        for ci in range(C):
            for place, v in self.slots[ci]:
                if place in self._sums:
                    self._sums[place][ci] += v
                    self._counts[place][ci] += 1
                elif place == EVIDENCE:
                    self._ev[ci] = v

    def _seat_violations(self, q: int) -> int:
        if not self.decisions[q]:
            return 0
        return self._violations(q, self._sums[q], self._counts[q], self._ev)

    def _energy(self) -> dict[int, int]:
        self._rebuild()
        return {q: self._seat_violations(q) for q in self.seats}

    def _move(self, ci: int, slot: list[int], value: int) -> None:
        old = slot[1]
        slot[1] = value
        place = slot[0]
        if place in self._sums:
            self._sums[place][ci] += value - old
        elif place == EVIDENCE:
            self._ev[ci] = value

    def _step(self, energy: dict[int, int], temperature: float) -> None:
        """One move: swap the values of two hidden rumours of one colour in two different places.

        The chain's hot loop, written for speed with the same random draws as ``rng.randrange(C)`` and
        ``rng.sample(slots, 2)`` (:func:`pick_two`; a test compares them), so the chain is the same chain."""
        rng = self.rng
        below = rng._randbelow  # what randrange and sample draw with
        ci = below(C)
        slots = self.slots[ci]
        if len(slots) < 2:
            return
        a, b = pick_two(below, slots)
        pa, va = a
        pb, vb = b
        if pa == pb or va == vb:
            return
        self._move(ci, a, vb)
        self._move(ci, b, va)
        if pa == EVIDENCE or pb == EVIDENCE:
            touched = {p for p in (pa, pb) if p in energy} | self._looked_seats(ci)
            new = {q: self._seat_violations(q) for q in touched}
            delta = sum(new[q] - energy[q] for q in touched)
        else:  # the usual case, without building sets: one or two seats' hands
            new = {}
            delta = 0
            for q in (pa, pb):
                if q in energy:
                    new[q] = v = self._seat_violations(q)
                    delta += v - energy[q]
        if delta <= 0 or (temperature > 0 and rng.random() < math.exp(-delta / temperature)):
            energy.update(new)
        else:
            self._move(ci, a, va)
            self._move(ci, b, vb)

    def _looked_seats(self, ci: int) -> set[int]:
        """The seats with a recorded decision made knowing the evidence of colour ``ci`` (Fortune-Teller); kept
        while the decisions are unchanged (counted by seat)."""
        if self._looked is None or self._looked[0] != self._recorded:
            looked = [{q for q in self.seats if any(d.looked[c] for d in self.decisions[q])} for c in range(C)]
            self._looked = (self._recorded, looked)
        return self._looked[1][ci]

    def sample(self, kn: EvidenceKnowledge, k: int, repair_steps: int = 3000) -> list[tuple]:
        """``k`` deals (evidence, hands, piles) from the chain, after repairing it to consistency. If no deal fits
        the decisions, the others are not playing greedily: the model is dropped for good (``falsified``) and the
        deals come from the exact knowledge alone."""
        if self.falsified:
            return [kn.sample(self.rng) for _ in range(k)]
        energy = self._energy()
        temperature = 1.0
        for _ in range(repair_steps):
            if not any(energy.values()):
                break
            self._step(energy, temperature)
            temperature = max(0.05, temperature * 0.998)
        if any(energy.values()):
            self.falsified = True
            return [kn.sample(self.rng) for _ in range(k)]
        out = []
        known = {c: v for c in COLOURS if (v := kn.evidence_known(c)) is not None}
        words = WordStream(self.rng)
        tests = self._fit_tests()
        try:
            for _ in range(k):
                self._chain(words, self.steps, tests)
                out.append(self._world(kn, known))
        finally:
            words.close()
        return out

    def _fit_tests(self) -> dict[tuple[int, int], list[tuple]]:
        """For each (seat q, colour ci), the tests that q's decisions still fit after a move that changed only
        colour ci (q's hand sum of ci, or the evidence of ci), given that they all fitted before (the sampling
        phase): the same test as :meth:`_violations` finding none, but only ci's value is new, so most
        decisions need one comparison. The chain's moves swap values only, so every hand's counts, and so each
        mean's divisor, are fixed while it runs: they are worked out here once per :meth:`sample`.

        A test is (looked, bonus, n, num, kind, checks): the decision's value of ci is ``float(evidence) +
        bonus`` if ``looked`` and the evidence is in the deal, else ``(num - hand sum) / n + bonus`` (0 + bonus if
        n <= 0). A stop's value must stay <= 0; a taken ci's must stay > 0. ``checks`` are the colours it must be
        compared with, each (c, looked, bonus, n, num, ci_first, took_c): the decision took c (ci must stay below
        it, or equal when ci comes after c) or took ci (c must stay below ci, or equal when c comes after ci)."""
        tests: dict[tuple[int, int], list[tuple]] = {}
        for q in self.seats:
            counts = self._counts[q]

            def term(d: Decision, c: int, counts: list[int] = counts) -> tuple[bool, int, int, int]:
                return d.looked[c], d.bonus[c], d.den[c] - counts[c], d.num[c]

            for ci in range(C):
                rows = []
                for d in reversed(self.decisions[q]):
                    if ci not in d.colours:
                        continue  # no card of ci was available: the decision does not depend on it
                    o = d.outcome
                    if o < 0:
                        kind, checks = STOPPED, ()
                    elif o != ci:
                        kind, checks = TOOK_OTHER, ((o, *term(d, o), ci < o, True),)
                    else:
                        kind, checks = TOOK_THIS, tuple((c, *term(d, c), ci < c, False) for c in d.colours if c != o)
                    rows.append((*term(d, ci), kind, checks))
                tests[(q, ci)] = rows
        return tests

    def _chain(self, words: WordStream, steps: int, tests: dict[tuple[int, int], list[tuple]]) -> None:
        """``steps`` moves at temperature 0 from a deal with no violation (the sampling phase): :meth:`_step`'s
        move (the same draws as ``rng.randrange(C)`` and ``rng.sample(slots, 2)``, taken from ``words``), kept
        exactly when the seats it touches still fit (``tests``, :meth:`_fit_tests`). The chain's hot loop:
        the draws and the tests are written out, with no call per move."""
        slots_all, sums, ev = self.slots, self._sums, self._ev
        looked = [tuple(self._looked_seats(c)) for c in range(C)]
        sizes = [len(s) for s in slots_all]
        below = words.below
        for _ in range(steps):
            ci = below(C)
            n = sizes[ci]
            if n < 2:
                continue
            slots = slots_all[ci]
            i = below(n)  # pick_two, inlined
            if n <= 21:
                j = below(n - 1)
                a, b = slots[i], slots[n - 1] if j == i else slots[j]
            else:
                j = below(n)
                while j == i:
                    j = below(n)
                a, b = slots[i], slots[j]
            pa, va = a
            pb, vb = b
            if pa == pb or va == vb:
                continue
            a[1], b[1] = vb, va
            ha, hb = sums.get(pa), sums.get(pb)
            if ha is not None:
                ha[ci] += vb - va
            elif pa == EVIDENCE:
                ev[ci] = vb
            if hb is not None:
                hb[ci] += va - vb
            elif pb == EVIDENCE:
                ev[ci] = va
            touched = [q for q, h in ((pa, ha), (pb, hb)) if h is not None]
            if (pa == EVIDENCE or pb == EVIDENCE) and looked[ci]:
                touched += [q for q in looked[ci] if q not in touched]
            e_ci = ev[ci]
            fits = True
            for q in touched:
                hand = sums[q]
                s_ci = hand[ci]
                for lk, bonus, dn, num, kind, checks in tests[(q, ci)]:
                    if lk and e_ci is not None:
                        v = float(e_ci) + bonus
                    else:
                        v = ((num - s_ci) / dn if dn > 0 else 0.0) + bonus
                    if (v > 0) if kind == STOPPED else (kind == TOOK_THIS and v <= 0):
                        fits = False  # a stop needs every value at most 0; a card taken needs a positive value
                        break
                    for c, lc, bc, nc, numc, ci_first, took_c in checks:
                        e_c = ev[c]
                        if lc and e_c is not None:
                            vc = float(e_c) + bc
                        else:
                            vc = ((numc - hand[c]) / nc if nc > 0 else 0.0) + bc
                        if (v > vc or (v == vc and ci_first)) if took_c else (vc > v or (vc == v and not ci_first)):
                            fits = False
                            break
                    if not fits:
                        break
                if not fits:
                    break
            if not fits:
                a[1], b[1] = va, vb
                if ha is not None:
                    ha[ci] -= vb - va
                elif pa == EVIDENCE:
                    ev[ci] = va
                if hb is not None:
                    hb[ci] -= va - vb
                elif pb == EVIDENCE:
                    ev[ci] = vb

    def consistent(self) -> bool:
        return not any(self._energy().values())

    def _world(
        self, kn: EvidenceKnowledge, known: dict[str, int] | None = None
    ) -> tuple[dict[str, int], dict[int, list[Card]], dict[int, list[Card]]]:
        """The chain's deal as (evidence, hands, piles); ``known``: the evidence already known (by colour), when
        the caller has it (sample asks once for all its deals)."""
        t = kn.table
        hands: dict[int, list[Card]] = {s: [] for s in t.seats}
        piles: dict[int, list[Card]] = {s: [] for s in t.seats}
        hands[kn.me] = list(kn.hand)
        if known is None:
            known = {c: v for c in COLOURS if (v := kn.evidence_known(c)) is not None}
        evidence = dict(known)
        for c, slots in zip(COLOURS, self.slots, strict=True):
            for place, v in slots:
                if place == EVIDENCE:
                    evidence[c] = v
                elif place > 0:
                    hands[place].append((c, v))
                else:
                    piles[-place].append((c, v))
        return {c: evidence[c] for c in COLOURS if c in evidence}, hands, piles
