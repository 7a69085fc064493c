"""Evidence knowledge model: one player's view as a :class:`solver.knowledge.Knowledge`.

The hidden variables are the physical rumour cards this player has not seen at setup: ``colour:value:k``,
copy k of that rumour (values may repeat within a mystery). Each takes one *place*: ``evidence`` (its
mystery's proof), ``p<seat>`` (another player's starting hand) or, with two players, ``u<seat>`` (a pile of
unknown rumours, mine included). Places hold a public number of cards of each colour (card backs show the
colour), so every rule speaks of one colour and the worlds factorise per colour: exact counts come from
:class:`solver.components.ComponentCounter`, which enumerates each colour's handful of cards on its own.

The rules, one method each (:meth:`EvidenceKnowledge.constraints_for`):

- a rumour played by another player was one of their cards: one not-yet-placed copy is pinned to their hand;
- an unknown rumour uncovered (two players) was in that pile: a copy is pinned to the pile;
- an uncovered evidence, or my Fortune-Teller look, pins a copy to the evidence;
- my own plays, search cards, time-outs and tools say nothing about hidden rumours.

Pinning *some* copy loses nothing: copies of one rumour are interchangeable. A world is a deal of the cards
still unseen into the places still hidden (equivalently, every physical deal, with which copy was played as
part of the world), all equally likely. So the evidence of a colour is a uniformly random one of that
colour's still-unplaced copies: :meth:`EvidenceKnowledge.distribution` uses this closed form (fast, for bots),
and the tests check it against the counter and against the brute-force reference.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from models.evidence.data import (
    CARDS_PER_MYSTERY,
    COLOURS,
    DEFAULT_DATA,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    UNKNOWN_PER_PLAYER,
    GameData,
    with_values,
)
from models.evidence.observations import (
    Card,
    Entry,
    EvidenceShown,
    Hand,
    Holds,
    Look,
    Me,
    Observation,
    Play,
    Players,
    Reveal,
    Search,
    SetupRumours,
    Start,
    TimeOut,
    ToolUsed,
    Unknown,
    Values,
    Variant,
)
from models.evidence.rules import Table, TrueWorld, score_cards
from solver.components import ComponentCounter
from solver.constraints import Constraint, CountEquals, Problem, require
from solver.errors import ContradictionError, IllegalActionError, InvalidObservationError
from solver.knowledge import Knowledge
from solver.text import plural

EVIDENCE = "evidence"


def hand_place(seat: int) -> str:
    return f"p{seat}"


def pile_place(seat: int) -> str:
    return f"u{seat}"


def place_label(place: str) -> str:
    """A place as a player would say it."""
    if place == EVIDENCE:
        return "the evidence"
    if place.startswith("p"):
        return f"player {place[1:]}'s hand"
    return f"player {place[1:]}'s unknown rumours"


def copy_name(colour: str, value: int, k: int) -> str:
    return f"{colour}:{value}:{k}"


def parse_copy(name: str) -> tuple[str, int]:
    colour, value, _ = name.split(":")
    return colour, int(value)


@dataclass
class TableSetup:
    """What a player enters before the first turn; built entry by entry and checked as it grows."""

    players: int | None = None
    me: int | None = None
    pro: bool = False
    start: int = 1
    data: GameData = DEFAULT_DATA
    setup_cards: list[Card] = field(default_factory=list)
    hand: tuple[Card, ...] | None = None
    holds: dict[int, Counter[str]] = field(default_factory=dict)
    unknown: dict[int, Counter[str]] = field(default_factory=dict)

    def apply(self, entry: Entry) -> None:
        """Record one setup entry, or raise :class:`InvalidObservationError` (the setup is then unchanged)."""
        if isinstance(entry, Players):
            if not MIN_PLAYERS <= entry.count <= MAX_PLAYERS:
                raise InvalidObservationError(f"players {entry.count}: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
            if self.players is not None and self.players != entry.count:
                raise InvalidObservationError(f"players already set to {self.players}: undo it first")
            for seat in [self.me or 1, self.start, *self.holds, *self.unknown]:
                if seat > entry.count:
                    raise InvalidObservationError(f"players {entry.count}: seat {seat} is already in use")
            if entry.count != 2 and self.unknown:
                raise InvalidObservationError(f"players {entry.count}: unknown rumours are only for two players")
            self.players = entry.count
            self._check_setup_cards(self.setup_cards, "players")
        elif isinstance(entry, Me):
            self._seat(entry.seat, str(entry))
            if entry.seat in self.holds:
                raise InvalidObservationError(f"me {entry.seat}: you entered 'holds {entry.seat}' for that seat")
            self.me = entry.seat
        elif isinstance(entry, Variant):
            self.pro = entry.pro
        elif isinstance(entry, Start):
            self._seat(entry.seat, str(entry))
            self.start = entry.seat
        elif isinstance(entry, Values):
            self._values(entry)
        elif isinstance(entry, SetupRumours):
            self._check_setup_cards(self.setup_cards + list(entry.cards), str(entry))
            self.setup_cards += list(entry.cards)
        elif isinstance(entry, Hand):
            self._hand(entry)
        elif isinstance(entry, Holds):
            self._seat(entry.seat, str(entry))
            if entry.seat == self.me:
                raise InvalidObservationError(f"'{entry}': that is your seat; enter your rumours with 'hand ...'")
            self._counts(entry.counts, HAND_SIZE, str(entry))
            self.holds[entry.seat] = Counter(dict(entry.counts))
        elif isinstance(entry, Unknown):
            self._seat(entry.seat, str(entry))
            if self.players is not None and self.players != 2:
                raise InvalidObservationError(f"'{entry}': unknown rumours are only in two-player games")
            self._counts(entry.counts, UNKNOWN_PER_PLAYER, str(entry))
            self.unknown[entry.seat] = Counter(dict(entry.counts))
        else:
            raise InvalidObservationError(f"'{entry}' is not a setup entry")

    def _seat(self, seat: int, what: str) -> None:
        top = self.players or MAX_PLAYERS
        if not 1 <= seat <= top:
            raise InvalidObservationError(f"'{what}': seat {seat}: expected 1 to {top}")

    def _values(self, entry: Values) -> None:
        if len(entry.values) != CARDS_PER_MYSTERY:
            raise InvalidObservationError(
                f"'{entry}': a mystery has {CARDS_PER_MYSTERY} rumours, got {len(entry.values)} values"
            )
        used = [c for c, _ in [*self.setup_cards, *(self.hand or ())]]
        if entry.colour in used:
            raise InvalidObservationError(f"'{entry}': enter a mystery's values before its rumours")
        self.data = with_values(self.data, entry.colour, entry.values)

    def _check_setup_cards(self, cards: list[Card], what: str) -> None:
        per = Counter(c for c, _ in cards)
        if self.players is not None:
            k = self.data.setup_revealed[self.players]
            for colour, n in per.items():
                if n > k:
                    raise InvalidObservationError(
                        f"'{what}': {plural(k, colour + ' rumour')} {'is' if k == 1 else 'are'} revealed at setup with "
                        f"{self.players} players, not {n}"
                    )
        self._check_copies([*cards, *(self.hand or ())], what)

    def _hand(self, entry: Hand) -> None:
        if len(entry.cards) != HAND_SIZE:
            raise InvalidObservationError(f"'{entry}': expected {HAND_SIZE} rumours, got {len(entry.cards)}")
        if self.hand is not None and self.hand != entry.cards:
            raise InvalidObservationError("your hand is already entered: undo it first")
        self._check_copies([*self.setup_cards, *entry.cards], str(entry))
        self.hand = entry.cards

    def _check_copies(self, cards: Iterable[Card], what: str) -> None:
        for (colour, value), n in Counter(cards).items():
            have = self.data.multiset(colour)[value]
            if have == 0:
                values = ", ".join(str(v) for v in self.data.distinct_values(colour))
                raise InvalidObservationError(f"'{what}': {colour} rumours have the values {values}, not {value}")
            if n > have:
                only = plural(have, f"{colour} {value} rumour")
                raise InvalidObservationError(f"'{what}': there {'is' if have == 1 else 'are'} only {only}, not {n}")

    @staticmethod
    def _counts(counts: tuple[tuple[str, int], ...], total: int, what: str) -> None:
        n = sum(k for _, k in counts)
        if n != total:
            raise InvalidObservationError(f"'{what}': the counts add up to {n}, expected {total}")

    def others(self) -> list[int]:
        assert self.players is not None
        return [s for s in range(1, self.players + 1) if s != self.me]

    def missing(self) -> list[str]:
        """What is still needed before the knowledge model can start, as the lines to type."""
        out = []
        if self.players is None:
            out.append("players N")
        if self.me is None:
            out.append("me SEAT")
        if self.players is not None:
            k = self.data.setup_revealed[self.players]
            per = Counter(c for c, _ in self.setup_cards)
            short = [c for c in COLOURS if per[c] < k]
            if short:
                out.append(f"setup COLOUR VALUE ... ({plural(k, 'rumour')} of each mystery; still {', '.join(short)})")
        if self.hand is None:
            out.append("hand COLOUR VALUE x6")
        if self.players is not None and self.me is not None:
            out += [f"holds {s} COLOUR COUNT ..." for s in self.others() if s not in self.holds]
            if self.players == 2:
                out += [f"unknown {s} COLOUR COUNT ..." for s in (1, 2) if s not in self.unknown]
        return out

    def complete(self) -> bool:
        return not self.missing()

    def check_totals(self) -> None:
        """Each colour's unseen rumours must fill exactly the hidden places: evidence, hands, unknown piles."""
        assert self.hand is not None
        for colour in COLOURS:
            seen = sum(1 for c, _ in [*self.setup_cards, *self.hand] if c == colour)
            hidden = 1 + sum(h[colour] for h in self.holds.values()) + sum(u[colour] for u in self.unknown.values())
            if CARDS_PER_MYSTERY - seen != hidden:
                raise InvalidObservationError(
                    f"{colour}: you have seen {seen} of the {CARDS_PER_MYSTERY} rumours, so {CARDS_PER_MYSTERY - seen}"
                    f" are hidden, but the evidence and the counts you entered hold {hidden}"
                )


@dataclass(frozen=True)
class Why:
    """Why a mystery's evidence can or cannot have a value: ``status`` is impossible, certain or open."""

    colour: str
    value: int
    status: str
    probability: float
    reasons: tuple[str, ...]

    def __str__(self) -> str:
        head = {
            "impossible": f"the {self.colour} evidence cannot be {self.value}",
            "certain": f"the {self.colour} evidence is certainly {self.value}",
            "open": f"the {self.colour} evidence is {self.value} with probability {self.probability:.3f}",
        }[self.status]
        return head + (": " + "; ".join(self.reasons) if self.reasons else "")


@dataclass(frozen=True)
class ScoreEstimate:
    """A player's final score for their current search cards: exact mean and standard deviation."""

    mean: float
    sd: float
    low: int
    high: int


class EvidenceKnowledge:
    """What one player knows (see module docstring). ``solver=True`` keeps the CP-SAT knowledge model in step
    with every entry (the companion); otherwise it is built on first use (bots only need the closed form)."""

    def __init__(self, setup: TableSetup, solver: bool = True) -> None:
        if not setup.complete():
            raise InvalidObservationError(f"setup incomplete: still need {'; '.join(setup.missing())}")
        setup.check_totals()
        assert setup.players is not None and setup.me is not None and setup.hand is not None
        self.setup = setup
        self.players, self.me, self.data = setup.players, setup.me, setup.data
        self.keep_solver = solver
        self._reset()

    def _reset(self) -> None:
        setup = self.setup
        assert setup.hand is not None
        table = Table(self.players, self.data, setup.pro, setup.start)
        for colour, value in setup.setup_cards:
            table.setup_rumour(colour, value)
        for seat in table.seats:
            table.hands[seat] = Counter(c for c, _ in setup.hand) if seat == self.me else Counter(setup.holds[seat])
            table.unknown[seat] = Counter(setup.unknown.get(seat, Counter()))
        self.table = table
        self.hand: list[Card] = list(setup.hand)
        self.events: list[Observation] = []
        self.looked: dict[str, int] = {}
        seen = Counter([*setup.setup_cards, *setup.hand])
        self.copies: dict[Card, list[str]] = {}
        for colour in COLOURS:
            for value, m in sorted(self.data.multiset(colour).items()):
                first = seen[(colour, value)] + 1
                self.copies[(colour, value)] = [copy_name(colour, value, k) for k in range(first, m + 1)]
        self.capacity: dict[tuple[str, str], int] = {}
        for colour in COLOURS:
            self.capacity[(EVIDENCE, colour)] = 1
            for seat in table.seats:
                if seat != self.me and table.hands[seat][colour]:
                    self.capacity[(hand_place(seat), colour)] = table.hands[seat][colour]
                if table.unknown[seat][colour]:
                    self.capacity[(pile_place(seat), colour)] = table.unknown[seat][colour]
        self.pins: dict[str, tuple[str, int]] = {}  # copy -> (place, index of the event that placed it)
        # kept in step with the pins (the bots' fast path): unplaced copies by value, placed evidence values
        self._free: dict[str, Counter[int]] = {
            colour: Counter({v: len(self.copies[(colour, v)]) for v in self.data.distinct_values(colour)})
            for colour in COLOURS
        }
        self._evidence: dict[str, int] = {}
        self._knowledge: Knowledge[Observation] | None = None
        self._pending: list[Constraint] = []
        if self.keep_solver:
            self.solver_knowledge()

    # -- the constraint model --------------------------------------------------------------------------------
    def places(self, colour: str) -> list[str]:
        return [p for (p, c) in self.capacity if c == colour]

    def problem(self) -> Problem:
        variables: dict[str, tuple[str, ...]] = {}
        structure: list[Constraint] = []
        for colour in COLOURS:
            cards = [v for (c, _), names in self.copies.items() if c == colour for v in names]
            places = tuple(self.places(colour))
            variables.update(dict.fromkeys(cards, places))
            for place in places:
                structure.append(CountEquals(tuple((v, place) for v in cards), self.capacity[(place, colour)]))
        return Problem(variables, tuple(structure))

    def solver_knowledge(self) -> Knowledge[Observation]:
        """The CP-SAT knowledge state over the rumour events so far (built on first use)."""
        if self._knowledge is None:
            kn: Knowledge[Observation] = Knowledge(self.problem(), self._compile, ComponentCounter())
            for copy_, (place, index) in sorted(self.pins.items(), key=lambda kv: kv[1][1]):
                self._pending = [require(copy_, place)]
                kn.add(self.events[index])
            self._knowledge = kn
        return self._knowledge

    def _compile(self, obs: Observation) -> list[Constraint]:
        del obs  # the constraints were worked out by constraints_for, which knows which copy is free
        return self._pending

    def constraints_for(self, obs: Observation) -> list[Constraint]:
        """The rules, one branch each (see module docstring); also checks the entry against the public table."""
        if isinstance(obs, Play):
            if obs.seat == self.me:
                return []
            return self._pin(obs, obs.colour, obs.value, hand_place(obs.seat))
        if isinstance(obs, Reveal):
            return self._pin(obs, obs.colour, obs.value, pile_place(obs.seat))
        if isinstance(obs, EvidenceShown | Look):
            if self._evidence_pin(obs.colour) is not None:
                return []  # already placed (my look, then the uncovering): checked in _check_evidence
            return self._pin(obs, obs.colour, obs.value, EVIDENCE)
        return []

    def _evidence_pin(self, colour: str) -> int | None:
        return self._evidence.get(colour)

    def _pin(self, obs: Observation, colour: str, value: int, place: str) -> list[Constraint]:
        if self._room(place, colour) < 1:
            holder = "player " + place[1:]
            what = f"holds no {colour} rumour" if place.startswith("p") else f"has no unknown {colour} rumour left"
            raise IllegalActionError(f"'{obs}': {holder} {what}")
        if value not in self.data.multiset(colour):
            values = ", ".join(str(v) for v in self.data.distinct_values(colour))
            raise IllegalActionError(f"'{obs}': {colour} rumours have the values {values}")
        free = [v for v in self.copies[(colour, value)] if v not in self.pins]
        if not free:
            used = [self.events[i] for v, (_, i) in self.pins.items() if parse_copy(v) == (colour, value)]
            raise ContradictionError(obs, used, self._accounted(colour, value))
        return [require(free[0], place)]

    def _accounted(self, colour: str, value: int) -> str:
        """Where every copy of (colour, value) is, for a contradiction message."""
        where = []
        assert self.setup.hand is not None
        where += ["revealed at setup"] * sum(1 for c in self.setup.setup_cards if c == (colour, value))
        dealt = sum(1 for c in self.setup.hand if c == (colour, value))
        held = sum(1 for c in self.hand if c == (colour, value))
        where += ["in your hand"] * held + ["played by you"] * (dealt - held)
        where += [f"'{self.events[i]}'" for v, (_, i) in self.pins.items() if parse_copy(v) == (colour, value)]
        n = self.data.multiset(colour)[value]
        return f"every {colour} {value} ({n} in the game) is accounted for: {', '.join(where)}"

    # -- entries ---------------------------------------------------------------------------------------------
    def add(self, obs: Observation) -> None:
        """Add one observation; raise an :class:`AssistantError` (state unchanged) if it breaks a rule or
        contradicts what is known."""
        if not isinstance(obs, Play | Reveal | EvidenceShown | Look | Search | TimeOut | ToolUsed):
            raise InvalidObservationError(f"'{obs}' is a setup entry: the game has started (undo to change setup)")
        if isinstance(obs, Play) and obs.seat == self.me and (obs.colour, obs.value) not in self.hand:
            mine = ", ".join(f"{c} {v}" for c, v in self.hand) or "none"
            raise InvalidObservationError(f"'{obs}': you do not hold {obs.colour} {obs.value} (your hand: {mine})")
        if isinstance(obs, Play | Reveal):
            self.table.check_seat(obs.seat, str(obs))
        constraints = self.constraints_for(obs)  # first: its messages name the entries that used the cards up
        trial = self.table.clone()
        self._check_table(trial, obs)
        if constraints and self._knowledge is not None:
            self._pending = constraints
            self._knowledge.add(obs)  # raises ContradictionError with the conflicting entries
        self.table = trial
        index = len(self.events)
        self.events.append(obs)
        for c in constraints:
            (var, place), = c.terms
            self.pins[var] = (place, index)
            colour, value = parse_copy(var)
            self._free[colour][value] -= 1
            if place == EVIDENCE:
                self._evidence[colour] = value
        if isinstance(obs, Play) and obs.seat == self.me:
            self.hand.remove((obs.colour, obs.value))
        if isinstance(obs, Look):
            self.looked[obs.colour] = obs.value

    def _check_table(self, trial: Table, obs: Observation) -> None:
        if isinstance(obs, Play):
            trial.play(obs.seat, obs.colour, obs.value)
        elif isinstance(obs, Reveal):
            trial.reveal(obs.seat, obs.colour, obs.value)
        elif isinstance(obs, EvidenceShown):
            self._check_evidence(obs.colour, obs.value, obs)
            trial.show_evidence(obs.colour, obs.value)
        elif isinstance(obs, Look):
            self._check_evidence(obs.colour, obs.value, obs)
            mine = [u for u in trial.used[self.me] if isinstance(u, ToolUsed) and u.tool == "fortune"]
            if not mine or mine[-1].colour != obs.colour:
                raise InvalidObservationError(f"'{obs}': enter your Fortune-Teller first: 'tool {self.me} fortune "
                                              f"{obs.colour}'")
        elif isinstance(obs, Search):
            trial.search(obs.seat, obs.colours)
        elif isinstance(obs, TimeOut):
            trial.timeout(obs.seat, obs.colour, obs.take)
        elif isinstance(obs, ToolUsed):
            trial.use_tool(obs.seat, obs.tool, obs.colour, obs.take)

    def _check_evidence(self, colour: str, value: int, obs: Observation) -> None:
        known = self._evidence_pin(colour)
        if known is not None and known != value:
            raise ContradictionError(obs, [], f"the {colour} evidence is {known}")

    def undo(self) -> Observation:
        """Remove the most recent observation and return it (the model is rebuilt from the rest)."""
        if not self.events:
            raise IndexError("nothing to undo")
        events = self.events[:-1]
        last = self.events[-1]
        self._reset()
        for obs in events:
            self.add(obs)
        return last

    # -- what is known ---------------------------------------------------------------------------------------
    def free_copies(self, colour: str) -> Counter[int]:
        """Rumours of ``colour`` not seen and not placed: the cards still hidden somewhere."""
        return +self._free[colour]

    def evidence_known(self, colour: str) -> int | None:
        return self._evidence_pin(colour)

    def distribution_exact(self) -> dict[str, dict[int, Fraction]]:
        """Per mystery, each possible evidence value with its exact probability (closed form, see docstring)."""
        out: dict[str, dict[int, Fraction]] = {}
        for colour in COLOURS:
            known = self._evidence_pin(colour)
            if known is not None:
                out[colour] = {known: Fraction(1)}
                continue
            free = self.free_copies(colour)
            n = sum(free.values())
            out[colour] = {v: Fraction(k, n) for v, k in sorted(free.items())}
        return out

    def distribution(self) -> dict[str, dict[int, float]]:
        return {c: {v: float(p) for v, p in d.items()} for c, d in self.distribution_exact().items()}

    def counted_distribution(self) -> dict[str, dict[int, float]]:
        """The same probabilities from the knowledge engine: world counts by :class:`ComponentCounter`."""
        kn = self.solver_knowledge()
        count = kn.count()
        out: dict[str, dict[int, float]] = {c: {} for c in COLOURS}
        for (colour, value), names in self.copies.items():
            p = sum(count.probability((n, EVIDENCE)) for n in names)
            if p > 0:
                out[colour][value] = out[colour].get(value, 0.0) + p
        return {c: dict(sorted(d.items())) for c, d in out.items()}

    def possible(self) -> dict[str, list[int]]:
        """Per mystery, every evidence value some consistent world gives it (from the CP-SAT model)."""
        poss = self.solver_knowledge().possible()
        out: dict[str, set[int]] = {c: set() for c in COLOURS}
        for (colour, value), names in self.copies.items():
            if any(EVIDENCE in poss[n] for n in names):
                out[colour].add(value)
        return {c: sorted(v) for c, v in out.items()}

    def means(self) -> dict[str, float]:
        """Each mystery's expected evidence value (the bots' fast path: no fractions)."""
        out = {}
        for colour in COLOURS:
            known = self._evidence.get(colour)
            if known is not None:
                out[colour] = float(known)
                continue
            free = self._free[colour]
            n = sum(free.values())
            out[colour] = sum(v * k for v, k in free.items()) / n
        return out

    def why(self, colour: str, value: int) -> Why:
        """Why the ``colour`` evidence can or cannot be ``value``: the observations (and setup facts) forcing it."""
        multiset = self.data.multiset(colour)
        if value not in multiset:
            values = ", ".join(str(v) for v in self.data.distinct_values(colour))
            raise InvalidObservationError(f"{colour} rumours have the values {values}, not {value}")
        dist = self.distribution_exact()[colour]
        p = float(dist.get(value, 0))
        if p == 0:
            return Why(colour, value, "impossible", 0.0, tuple(self._reasons_not(colour, value)))
        if p == 1:
            known = [f"'{self.events[i]}'" for v, (place, i) in self.pins.items()
                     if place == EVIDENCE and parse_copy(v)[0] == colour]
            if known:
                return Why(colour, value, "certain", 1.0, tuple(known))
            reasons: list[str] = []
            for other in self.data.distinct_values(colour):
                if other != value:
                    reasons += [r for r in self._reasons_not(colour, other) if r not in reasons]
            return Why(colour, value, "certain", 1.0, tuple(reasons))
        free = self.free_copies(colour)
        where = ", ".join(place_label(pl) for pl in self.places(colour) if self._room(pl, colour))
        reason = (f"{free[value]} of the {sum(free.values())} {colour} rumours nobody has shown you "
                  f"(hidden in {where}) is a {value}")
        return Why(colour, value, "open", p, (reason,))

    def _room(self, place: str, colour: str) -> int:
        used = sum(1 for v, (pl, _) in self.pins.items() if pl == place and parse_copy(v)[0] == colour)
        return self.capacity.get((place, colour), 0) - used

    def _reasons_not(self, colour: str, value: int) -> list[str]:
        assert self.setup.hand is not None
        out = []
        n_setup = sum(1 for c in self.setup.setup_cards if c == (colour, value))
        n_hand = sum(1 for c in self.setup.hand if c == (colour, value))
        if n_setup:
            out.append(f"{colour} {value} was revealed at setup" + (f" ({n_setup}x)" if n_setup > 1 else ""))
        if n_hand:
            out.append(f"{colour} {value} was dealt to you" + (f" ({n_hand}x)" if n_hand > 1 else ""))
        kn = self.solver_knowledge()
        for name in self.copies[(colour, value)]:
            explanation = kn.explain((name, EVIDENCE))
            for obs in explanation.reasons:
                text = f"'{obs}'"
                if text not in out:
                    out.append(text)
        return out

    def sample(self, rng: random.Random) -> tuple[dict[str, int], dict[int, list[Card]], dict[int, list[Card]]]:
        """A hidden world drawn uniformly: each colour's free rumours shuffled into the evidence, the other hands
        (by their public colour counts) and the unknown piles. Returns (evidence, hands, piles); my hand is mine."""
        t = self.table
        hands: dict[int, list[Card]] = {s: [] for s in t.seats}
        piles: dict[int, list[Card]] = {s: [] for s in t.seats}
        hands[self.me] = list(self.hand)
        evidence: dict[str, int] = {}
        for colour in COLOURS:
            cards = list(self.free_copies(colour).elements())
            rng.shuffle(cards)
            known = self._evidence.get(colour)
            evidence[colour] = known if known is not None else cards.pop()
            for seat in t.seats:
                if seat != self.me:
                    hands[seat] += [(colour, cards.pop()) for _ in range(t.hands[seat][colour])]
                piles[seat] += [(colour, cards.pop()) for _ in range(t.unknown[seat][colour])]
            if cards:  # pragma: no cover - the setup checks make the counts add up
                raise RuntimeError(f"{colour}: {len(cards)} unseen rumours have no hidden place")
        return evidence, hands, piles

    # -- scores ----------------------------------------------------------------------------------------------
    def score_estimate(self, seat: int) -> ScoreEstimate:
        """``seat``'s final score if they kept their current search cards (exact over the evidence)."""
        t = self.table
        dist = score_distribution(t.articles[seat], t.hot[seat], t.tools_of(seat), self.distribution_exact())
        mean = sum(s * p for s, p in dist.items())
        var = sum((s - mean) ** 2 * p for s, p in dist.items())
        return ScoreEstimate(float(mean), math.sqrt(float(var)), min(dist), max(dist))

    def expected_scores(self) -> dict[int, ScoreEstimate]:
        return {s: self.score_estimate(s) for s in self.table.seats}

    # -- soundness -------------------------------------------------------------------------------------------
    def admits(self, world: TrueWorld, deep: bool = False) -> str | None:
        """None if the true deal is one of my worlds, else what I wrongly rule out (simulation soundness)."""
        for colour in COLOURS:
            truth = world.evidence[colour]
            known = self._evidence.get(colour)
            if (known is not None and known != truth) or (known is None and self._free[colour][truth] <= 0):
                return f"player {self.me} rules out the true {colour} evidence {truth}"
        assignment = self._true_assignment(world)
        if isinstance(assignment, str):
            return assignment
        if deep:
            kn = self.solver_knowledge()
            broken = [c for c in kn.constraints() if not c.holds(assignment)]
            if broken:
                return f"player {self.me}: the true deal breaks {broken[0]}"
            poss = self.possible()
            for colour in COLOURS:
                if world.evidence[colour] not in poss[colour]:
                    return f"player {self.me}'s solver rules out the true {colour} evidence {world.evidence[colour]}"
            counted = self.counted_distribution()
            for colour, d in self.distribution().items():
                for v, p in d.items():
                    if abs(counted[colour].get(v, 0.0) - p) > 1e-9:
                        return f"player {self.me}: counted P({colour}={v}) {counted[colour].get(v)} != {p}"
        return None

    def _true_assignment(self, world: TrueWorld) -> dict[str, str] | str:
        """The true deal in my variables: pinned copies where I placed them, the others where they truly were."""
        key = (id(world.evidence), id(world.hands), id(world.unknown))
        if getattr(self, "_truth_key", None) != key:
            where: dict[Card, list[str]] = {}
            for colour in COLOURS:
                where.setdefault((colour, world.evidence[colour]), []).append(EVIDENCE)
            for seat, cards in world.hands.items():
                if seat != self.me:
                    for card in cards:
                        where.setdefault(card, []).append(hand_place(seat))
            for seat, cards in world.unknown.items():
                for card in cards:
                    where.setdefault(card, []).append(pile_place(seat))
            self._truth_key, self._truth = key, where
        out: dict[str, str] = {}
        for card, names in self.copies.items():
            places = list(self._truth.get(card, ()))
            if len(places) != len(names):
                return f"player {self.me} thinks {len(names)} {card[0]} {card[1]} are hidden, truly {len(places)}"
            for name in names:
                if name in self.pins:
                    place = self.pins[name][0]
                    if place not in places:
                        return f"player {self.me} placed {card[0]} {card[1]} in {place_label(place)}: it was not there"
                    places.remove(place)
                    out[name] = place
            for name in names:
                if name not in self.pins:
                    out[name] = places.pop()
        return out


def score_distribution(
    articles: Mapping[str, int],
    hot: set[str] | frozenset[str],
    tools: list[str],
    dists: Mapping[str, Mapping[int, Fraction]],
) -> dict[int, Fraction]:
    """The exact distribution of a player's final score for these search cards, the mysteries independent."""
    owned = [c for c in COLOURS if articles.get(c)]
    if "typewriter" in tools:  # the best owned evidence couples the colours: enumerate them jointly
        out: dict[int, Fraction] = {}
        for combo in itertools.product(*(list(dists[c].items()) for c in owned)):
            evidence = {c: v for c, (v, _) in zip(owned, combo, strict=True)}
            p = math.prod((q for _, q in combo), start=Fraction(1))
            s = score_cards(articles, hot, tools, {**dict.fromkeys(COLOURS, 0), **evidence})
            out[s] = out.get(s, Fraction(0)) + p
        return out
    base = score_cards(articles, hot, tools, dict.fromkeys(COLOURS, 0))
    dist: dict[int, Fraction] = {base: Fraction(1)}
    for c in owned:
        step: dict[int, Fraction] = {}
        for s, p in dist.items():
            for v, q in dists[c].items():
                key = s + articles[c] * v
                step[key] = step.get(key, Fraction(0)) + p * q
        dist = step
    return dist

