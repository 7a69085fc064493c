"""Time Bomb Evolution knowledge model: one player's view, hard facts and soft claims kept apart.

- **Hard facts** (my role and hands, every cut, every redeal) compile to constraints over the worlds of
  :mod:`models.time_bomb.counting` and live in a :class:`solver.knowledge.Knowledge` (CP-SAT, one gate per
  observation: contradictions and ``why`` name the observations) whose counter is the exact
  :class:`~models.time_bomb.counting.HardCounter`. Consistency is checked by the exact counter on every entry
  (cheap); the CP-SAT model is built only when an explanation is needed.
- **Soft claims** go through the bluff model (:mod:`models.time_bomb.bluff`) into exact role probabilities;
  :meth:`TimeBombKnowledge.belief` returns the current round's joint distribution either from hard facts alone
  (``soft=False``: role prior, claims ignored) or with the claims (``soft=True``), so every conclusion can be
  shown both ways. A claim the hard facts make impossible is *contradicted* and flagged.
"""

from __future__ import annotations

from collections import Counter as Multiset
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from models.time_bomb.belief import Belief
from models.time_bomb.bluff import (
    BluffModel,
    ClaimContext,
    NoRoleAssignmentError,
    RoundDefusers,
    RoundLayer,
    build_rounds,
    claim_truth,
    role_assignments,
    role_posterior,
)
from models.time_bomb.counting import (
    Carry,
    HandCard,
    HardCounter,
    HardPosterior,
    Holds,
    InPlay,
    Layout,
    Meaning,
    Meanings,
    SlotCard,
    posterior,
    summarize_meanings,
)
from models.time_bomb.data import DEFAULT_DATA, DEFUSE, MORIARTY, SHERLOCK, GameData, Setup
from models.time_bomb.observations import (
    Claim,
    Colours,
    Cover,
    Cut,
    Draw,
    Entry,
    Hand,
    Me,
    Observation,
    Players,
    Redeal,
    Role,
    Start,
    Uncover,
)
from models.time_bomb.rules import Table, TimeBombState
from models.time_bomb.variables import instance_variable, slot_value
from solver.constraints import Constraint, require
from solver.errors import ContradictionError, IllegalActionError, InvalidObservationError
from solver.knowledge import Knowledge
from solver.text import plural

__all__ = ["Fact", "TableSetup", "TimeBombKnowledge", "instance_variable", "slot_value"]


@dataclass
class TableSetup:
    """What a player knows before the first cut; built entry by entry and checked as it grows."""

    players: int | None = None
    me: int | None = None
    role: str | None = None
    start: int | None = None
    hand: tuple[str, ...] | None = None
    data: GameData = DEFAULT_DATA
    colours: tuple[str, ...] | None = None  # the bomb colours chosen ('colours ...'); None: the data's first N

    @property
    def game_data(self) -> GameData:
        """The component data with the chosen colours first, so that the setup of N players plays exactly them."""
        if self.colours is None:
            return self.data
        rest = tuple(c for c in self.data.colours if c not in self.colours)
        return replace(self.data, colours=(*self.colours, *rest))

    def apply(self, entry: Entry) -> None:
        """Record one setup entry, or raise :class:`InvalidObservationError` (the setup is then unchanged)."""
        if isinstance(entry, Colours):
            unknown = [c for c in entry.colours if c not in self.data.colours]
            if unknown:
                raise InvalidObservationError(f"{entry}: {', '.join(unknown)} is not a bomb colour of this game "
                                              f"({', '.join(self.data.colours)})")
            if self.players is not None:
                self._check_colours(entry.colours, self.players)
            if self.hand is not None:
                extra = sorted({c for c in self.hand if c != DEFUSE and c not in entry.colours})
                if extra:
                    raise InvalidObservationError(f"{entry}: your hand holds {', '.join(extra)}, not among them")
            self.colours = entry.colours
            return
        if isinstance(entry, Players):
            if self.colours is not None:
                self._check_colours(self.colours, entry.count)
            try:
                setup = self.game_data.setup(entry.count)
            except ValueError as exc:
                raise InvalidObservationError(str(exc)) from None
            for seat in (self.me, self.start):
                if seat is not None and seat > entry.count:
                    raise InvalidObservationError(f"players {entry.count}: seat {seat} would not exist")
            if self.hand is not None:
                self._check_hand(self.hand, setup)
            self.players = entry.count
        elif isinstance(entry, Me | Start):
            top = self.players or max(self.data.player_counts)
            if not 1 <= entry.seat <= top:
                raise InvalidObservationError(f"seat {entry.seat}: expected 1 to {top}")
            if isinstance(entry, Me):
                self.me = entry.seat
            else:
                self.start = entry.seat
        elif isinstance(entry, Role):
            self.role = entry.role
        elif isinstance(entry, Hand):
            if self.players is not None:
                self._check_hand(entry.cards, self.game_data.setup(self.players))
            self.hand = entry.cards
        else:
            raise InvalidObservationError(f"'{entry}' is not a setup entry; finish the setup first")

    def _check_colours(self, colours: Sequence[str], players: int) -> None:
        wanted = self.data.colours_in_play.get(players, players)
        if len(colours) != wanted:
            raise InvalidObservationError(f"colours {' '.join(colours)}: {len(colours)} colours, but {players} players "
                                          f"play with {wanted}")

    @staticmethod
    def _check_hand(cards: Sequence[str], setup: Setup) -> None:
        if len(cards) != setup.hand_sizes[0]:
            raise InvalidObservationError(
                f"hand: expected {setup.hand_sizes[0]} cards with {setup.players} players, got {len(cards)}"
            )
        for card in cards:
            if card not in setup.types:
                raise InvalidObservationError(f"hand: {card} is not in play with {setup.players} players")
        counts = Multiset(cards)
        if counts[DEFUSE] > setup.defusers:
            raise InvalidObservationError(f"hand: only {setup.defusers} defusing cards exist")
        for colour in setup.colours:
            if counts[colour] > setup.bombs_per_colour:
                raise InvalidObservationError(f"hand: only {setup.bombs_per_colour} {colour} cards exist")

    def missing(self) -> list[str]:
        out = []
        if self.players is None:
            out.append("players N")
        if self.me is None:
            out.append("me SEAT")
        if self.role is None:
            out.append("role sherlock|moriarty")
        if self.start is None:
            out.append("start SEAT")
        if self.hand is None:
            out.append("hand CARD CARD ...")
        return out

    def complete(self) -> bool:
        return not self.missing()

    def entries(self) -> list[Entry]:
        assert self.complete()
        assert self.players and self.me and self.role and self.start and self.hand is not None
        colours = [Colours(self.colours)] if self.colours is not None else []
        return [*colours, Players(self.players), Me(self.me), Role(self.role), Start(self.start), Hand(self.hand)]


@dataclass(frozen=True)
class Fact:
    """A hard observation with its position in the journal (so equal entries stay distinct)."""

    index: int
    entry: object  # an Entry, or a what-if being tested (a counting meaning)
    round: int = 1  # the round it belongs to (a redeal: the round it starts)

    def __str__(self) -> str:
        return str(self.entry)

    def located(self) -> str:
        """The entry with its round, so that equal entries (two identical cuts) read apart."""
        return f"'{self.entry}' (round {self.round})"


@dataclass(frozen=True)
class ClaimReport:
    """A claim judged: how likely it is true from hard facts alone and with the bluff model, and whether the
    hard facts contradict it (with a one-line reason)."""

    context: ClaimContext
    p_true_hard: float
    p_true_soft: float
    contradicted: bool
    reason: str

    def __str__(self) -> str:
        return f"claim {self.context.seat} {self.context.claimed}"


@dataclass
class _Snapshot:
    table: Table
    rounds: tuple[tuple[int, ...], ...]
    facts: int
    claims: int
    hands: int


@dataclass
class TimeBombKnowledge:
    """What one player knows; build it from a complete :class:`TableSetup`."""

    table_setup: TableSetup
    bluff: BluffModel = field(default_factory=BluffModel)

    def __post_init__(self) -> None:
        ts = self.table_setup
        if not ts.complete():
            raise InvalidObservationError(f"setup incomplete: still need {', '.join(ts.missing())}")
        assert ts.players and ts.me and ts.role and ts.start and ts.hand is not None
        self.setup: Setup = ts.game_data.setup(ts.players)
        self.me: int = ts.me
        self.role: str = ts.role
        try:
            self.table = Table(self.setup, ts.start)
        except IllegalActionError as exc:
            raise InvalidObservationError(str(exc)) from None
        self.rounds: list[tuple[int, ...]] = [tuple(self.table.sizes[s] for s in self.table.seats)]
        self.facts: list[Fact] = []
        self.fact_constraints: list[tuple[Constraint, ...]] = []
        self.fact_meanings: list[tuple[Meaning, ...]] = []
        self.claims: list[ClaimContext] = []
        self.hands: list[dict[str, int]] = []
        self.entries: list[Observation] = []
        self._history: list[_Snapshot] = []
        self._cache: dict[str, object] = {}
        self._engine: Knowledge[Fact] | None = None
        self._engine_layout: Layout | None = None
        self._engine_constraints: dict[int, tuple[Constraint, ...]] = {}
        self._engine_meanings = Meanings()
        self._engine_facts = 0
        self._cores: dict[tuple[InPlay | Holds, tuple[tuple[int, ...], ...]], tuple[Fact, ...]] = {}
        self._layers: dict[object, RoundLayer] = {}
        self._sound_facts = 0
        self._known_vars: tuple[int, frozenset[str]] | None = None
        hand = Hand(ts.hand)
        self._add_fact(hand, self._hand_constraints(1, hand.cards))
        self.hands.append(self._counts(hand.cards))
        if not self.hard().consistent:  # pragma: no cover - TableSetup checks the hand against the deck
            raise ContradictionError(hand, [])

    # -- layout ---------------------------------------------------------------------------------------------
    @property
    def layout(self) -> Layout:
        return Layout(self.setup, tuple(self.rounds))

    def _counts(self, cards: Sequence[str]) -> dict[str, int]:
        counts = Multiset(cards)
        return {t: counts[t] for t in self.setup.types}

    @staticmethod
    def _constraint(layout: Layout, m: Meaning, revealed: Sequence[tuple[int, int]] = ()) -> tuple[Constraint, Meaning]:
        if isinstance(m, SlotCard):
            c: Constraint = layout.slot_card(m)
        elif isinstance(m, HandCard):
            c = layout.hand_card(m)
        elif isinstance(m, Carry):
            c = layout.carry(m, revealed)
        elif isinstance(m, InPlay):
            c = layout.in_play(m)
        elif isinstance(m, Holds):
            c = layout.holds(m)
        else:  # pragma: no cover - structure is built by Layout.problem
            raise TypeError(m)
        return c, m

    def _hand_constraints(
        self, round_: int, cards: Sequence[str], layout: Layout | None = None
    ) -> list[tuple[Constraint, Meaning]]:
        layout = layout or self.layout
        counts = self._counts(cards)
        return [self._constraint(layout, HandCard(round_, self.me, t, n)) for t, n in counts.items()]

    def _add_fact(self, entry: Entry, bound: Sequence[tuple[Constraint, Meaning]]) -> None:
        round_ = self.table.round + (1 if isinstance(entry, Redeal) else 0)
        self.facts.append(Fact(len(self.facts), entry, round_))
        self.fact_constraints.append(tuple(c for c, _ in bound))
        self.fact_meanings.append(tuple(m for _, m in bound))
        self._cache.clear()

    def _meanings(self, structure: Meanings, upto: int | None = None) -> Meanings:
        """The meanings of the structure and of the active facts only (an undone fact's meaning must not be
        read into an equal constraint of another fact)."""
        meanings = Meanings()
        meanings.update(structure)
        for cs, ms in zip(self.fact_constraints[:upto], self.fact_meanings[:upto], strict=True):
            for c, m in zip(cs, ms, strict=True):
                meanings.add(c, m)
        return meanings

    def constraints(self) -> list[Constraint]:
        return [c for cs in self.fact_constraints for c in cs]

    # -- observations ---------------------------------------------------------------------------------------
    def my_hand(self) -> dict[str, int]:
        """What I hold now: this round's hand minus my cards cut since."""
        hand = dict(self.hands[-1])
        for cut in self.table.round_cuts():
            if cut.seat == self.me:
                hand[cut.card] -= 1
        return hand

    def add(self, entry: Entry) -> None:
        """Add one observation; raise (state unchanged) if it is illegal or contradicts the hard facts."""
        if isinstance(entry, Players | Me | Role | Start | Hand):
            raise InvalidObservationError(f"'{entry}': the setup is complete (undo it to change it)")
        snapshot = _Snapshot(self.table.copy(), tuple(self.rounds), len(self.facts), len(self.claims), len(self.hands))
        try:
            self._apply(entry)
        except Exception:
            self._restore(snapshot)
            raise
        self._history.append(snapshot)
        self.entries.append(entry)
        if isinstance(entry, Claim):  # hard facts are unchanged (a new fact clears everything itself)
            for key in ("soft", "beliefTrue", "beliefFalse"):
                self._cache.pop(key, None)

    def _apply(self, entry: Entry) -> None:
        table = self.table
        if isinstance(entry, Claim):
            table.check_claim(entry)
            seat = entry.seat
            self.claims.append(
                ClaimContext(len(self.claims) + 1, table.round, seat, entry.defusers, table.cut_in_round[seat],
                             table.sizes[seat])
            )
            table.claim(entry)
        elif isinstance(entry, Cut):
            table.check_cut(entry)
            if entry.seat == self.me and self.my_hand()[entry.card] <= 0:
                # Said of the moment of the cut, not of now: an edit of a past entry replays it.
                raise ContradictionError(entry, [], f"your hand had no {entry.card} card left to cut in round "
                                                    f"{table.round}")
            m = SlotCard(table.round, entry.seat, table.cut_in_round[entry.seat] + 1, entry.card)
            self._add_checked(entry, [self._constraint(self.layout, m)], self._copies_rule(entry))
            table.cut(entry)
        elif isinstance(entry, Cover | Uncover | Draw):
            table.apply(entry)
        elif isinstance(entry, Redeal):
            table.check_redeal(len(entry.cards), self.me)
            for card in entry.cards:
                if card not in self.setup.types:
                    raise InvalidObservationError(f"redeal: {card} is not in play with {self.setup.players} players")
            sizes = table.next_sizes()
            revealed = [(c.seat, c.index) for c in table.round_cuts()]
            self.rounds.append(tuple(sizes[s] for s in table.seats))
            layout = self.layout
            new_round = len(self.rounds)
            constraints = [self._constraint(layout, Carry(new_round, i), revealed) for i in layout.instances]
            constraints += self._hand_constraints(new_round, entry.cards, layout)
            self._add_checked(entry, constraints)
            self.hands.append(self._counts(entry.cards))
            table.redeal()
        else:
            raise InvalidObservationError(f"'{entry}' is not an observation")

    def _copies_rule(self, cut: Cut) -> str | None:
        """The plain rule a cut breaks when every copy of its card is already cut or in my hand, else ``None``
        (subtler impossibilities are found by the exact counter alone; the CP-SAT core names the entries)."""
        if cut.seat == self.me:
            return None
        copies = self.setup.defusers if cut.card == DEFUSE else self.setup.bombs_per_colour
        cut_so_far = sum(1 for c in self.table.cuts if c.card == cut.card)
        mine = self.my_hand()[cut.card]
        if cut_so_far + mine < copies:
            return None
        where = f"{cut_so_far} cut" + (f" and {mine} in your hand" if mine else "")
        return f"all {copies} {cut.card} cards are accounted for: {where}"

    def _add_checked(self, entry: Entry, bound: Sequence[tuple[Constraint, Meaning]], rule: str | None = None) -> None:
        """Add a hard fact if some world satisfies it, else raise a contradiction naming earlier facts (and
        ``rule``, the plain reason, when the caller knows one)."""
        self._add_fact(entry, bound)
        if self.hard().consistent:
            return
        core = self._contradiction_core(len(self.facts) - 1)
        error = ContradictionError(entry, [f.entry for f in core])
        if rule:
            error.reason = rule  # a session that numbers the entries keeps the rule beside them
            error.args = (f"{error} ({rule})",)  # the entries and the rule in one line
        raise error

    def _restore(self, snapshot: _Snapshot) -> None:
        self.table = snapshot.table
        self.rounds = list(snapshot.rounds)
        del self.facts[snapshot.facts :]
        del self.fact_constraints[snapshot.facts :]
        del self.fact_meanings[snapshot.facts :]
        del self.claims[snapshot.claims :]
        del self.hands[snapshot.hands :]
        self._cache.clear()
        if self._engine is not None and (self._engine_facts > snapshot.facts or self._engine_layout != self.layout):
            self._engine = None

    def undo(self) -> Observation:
        """Remove the most recent observation and return it."""
        if not self.entries:
            raise IndexError("nothing to undo")
        self._restore(self._history.pop())
        return self.entries.pop()

    def set_bluff(self, bluff: BluffModel) -> None:
        self.bluff = bluff
        self._cache.clear()

    # -- the CP-SAT engine (explanations) -------------------------------------------------------------------
    def engine(self) -> Knowledge[Fact]:
        """The gated CP-SAT model of every hard fact, with the exact counter plugged in (built lazily)."""
        layout = self.layout
        if self._engine is None or self._engine_layout != layout:
            problem, structure = layout.problem()
            self._engine_constraints = {}
            self._engine_meanings = self._meanings(structure, 0)
            self._engine = Knowledge(
                problem, lambda fact: self._engine_constraints[fact.index], HardCounter(layout, self._engine_meanings)
            )
            self._engine_layout = layout
            self._engine_facts = 0
        start = self._engine_facts
        for fact, cs, ms in zip(
            self.facts[start:], self.fact_constraints[start:], self.fact_meanings[start:], strict=True
        ):
            self._engine_constraints[fact.index] = cs
            for c, m in zip(cs, ms, strict=True):
                self._engine_meanings.add(c, m)
            self._engine.add(fact, check=False)  # the exact counter already found each fact consistent
            self._engine_facts += 1
        return self._engine

    def _contradiction_core(self, last: int) -> list[Fact]:
        """A minimal set of earlier facts that the fact ``last`` cannot live with (CP-SAT core)."""
        keep = (self.facts, self.fact_constraints, self.fact_meanings)
        self.facts, self.fact_constraints, self.fact_meanings = (x[:last] for x in keep)
        try:
            engine = self.engine()
            self._engine_constraints[last] = keep[1][last]
            engine.add(keep[0][last])
        except ContradictionError as exc:
            return list(exc.conflicts)
        finally:
            self.facts, self.fact_constraints, self.fact_meanings = keep
            self._engine = None
        return []  # pragma: no cover - the counter and CP-SAT agree (cross-checked in the tests)

    def explain_whatif(self, meaning: InPlay | Holds) -> list[Fact] | None:
        """If the what-if ``meaning`` is impossible, a minimal set of facts that rule it out; else ``None``.

        A core found stays valid while its facts are all still active and the layout is the same (a minimal
        core is minimal whatever other facts are added), so it is kept and given again: the chain sweep and a
        player asking twice do not solve again.
        """
        layout, key = self.layout, (meaning, tuple(self.rounds))  # the setup is fixed: the rounds are the layout
        kept = self._cores.get(key)
        if kept is not None and all(f.index < len(self.facts) and self.facts[f.index] is f for f in kept):
            return list(kept)
        core = self.engine().core_against((self._constraint(layout, meaning)[0],))
        if core is not None:
            self._cores[key] = tuple(core)
        return core

    # -- hard queries ---------------------------------------------------------------------------------------
    def hard(self) -> HardPosterior:
        """The exact posterior over removed compositions and the current round's unseen cards."""
        if "hard" not in self._cache:
            # the active facts' meanings are the constraints' content (the counter's own reading of them is
            # cross-checked in the tests); the structure is built into the formula
            meanings = [m for ms in self.fact_meanings for m in ms]
            self._cache["hard"] = posterior(self.layout, summarize_meanings(self.layout, meanings))
        return self._cache["hard"]  # type: ignore[return-value]

    def in_play(self) -> dict[str, dict[int, float]]:
        """For each colour, P(k of its cards are in play) (hard facts only)."""
        hp = self.hard()
        return {c: hp.in_play_distribution(c) for c in self.setup.colours}

    def unseen(self) -> dict[str, dict[int, float]]:
        """For each type, P(k cards of it are unseen now: in the other players' unrevealed hands)."""
        hp = self.hard()
        probs = hp.probabilities()
        out: dict[str, dict[int, float]] = {}
        for ti, t in enumerate(self.setup.types):
            dist: dict[int, float] = {}
            for ci, p in enumerate(probs):
                if p > 0:
                    k = int(hp.unseen[ci, ti])
                    dist[k] = dist.get(k, 0.0) + float(p)
            out[t] = dict(sorted(dist.items()))
        return out

    # -- soft layer -----------------------------------------------------------------------------------------
    def _round_defusers(self) -> list[RoundDefusers]:
        hp = self.hard()
        out = []
        types = list(self.setup.types)
        for r, rnd in enumerate(hp.summary.rounds, start=1):
            pool = hp.round_pools[r - 1]
            defusers = int(pool[0, 0]) if len(pool) else 0
            seats, slots = [], []
            shown: dict[int, tuple[str, ...]] = {}
            for seat in range(1, self.setup.players + 1):
                size = rnd.sizes[seat - 1]
                cards = tuple(rnd.revealed[(seat, k)] for k in range(1, size + 1) if (seat, k) in rnd.revealed)
                shown[seat] = cards
                if seat in rnd.known:
                    defusers -= rnd.known[seat][DEFUSE]
                    continue
                seats.append(seat)
                slots.append(size - len(cards))
                defusers -= sum(1 for t in cards if t == types[0])
            out.append(RoundDefusers(r, tuple(seats), tuple(slots), defusers, shown))
        return out

    def _soft(self) -> tuple[list[dict[int, str]], np.ndarray, np.ndarray, list[RoundLayer]]:
        """Role assignments, their prior and posterior, and the per-round layers.

        With an extreme bluff rate (0 or 1) the claims can have probability 0 under every assignment; the soft
        layer then falls back to the hard one (posterior = prior) and :meth:`soft_note` says why, so the
        companion keeps going instead of refusing a claim that was truly made at the table.
        """
        if "soft" not in self._cache:
            assignments, prior = role_assignments(self.setup, self.me, self.role)
            layers = build_rounds(
                self._round_defusers(), self.claims, assignments, self.bluff, self.me, self._layers
            )
            try:
                post = role_posterior(prior, layers, self.bluff)
                self._cache.pop("soft_note", None)
            except NoRoleAssignmentError as exc:
                post = prior.copy()
                self._cache["soft_note"] = f"{exc}; showing hard facts only (change the rates: 'bluff S M')"
            self._cache["soft"] = (assignments, prior, post, layers)
        return self._cache["soft"]  # type: ignore[return-value]

    def soft_note(self) -> str | None:
        """One line if the soft layer fell back to hard facts (no role assignment explains the claims), else
        ``None``."""
        self._soft()
        return self._cache.get("soft_note")  # type: ignore[return-value]

    def belief(self, soft: bool = True) -> Belief:
        """The current round's exact joint distribution, with the claims (``soft``) or from hard facts only."""
        key = f"belief{soft}"
        if key not in self._cache:
            assignments, prior, post, layers = self._soft()
            layer = layers[-1]
            if soft and self.soft_note() is None:
                z = layer.evidence
                scaled = np.divide(post, z, out=np.zeros_like(post), where=z > 0)
                joint = scaled[:, None] * layer.likelihood * layer.prior[None, :]
            else:
                joint = prior[:, None] * layer.prior[None, :]
            joint = joint / joint.sum()
            hp = self.hard()
            probs = hp.probabilities()
            self._cache[key] = Belief(
                self.setup, self.me, self.role, layer.hard.seats, np.array(layer.hard.slots, dtype=np.int64),
                layer.vectors, joint, assignments, probs, hp.unseen[:, 1:].astype(float), dict(hp.known_left),
                soft,
            )
        return self._cache[key]  # type: ignore[return-value]

    def roles(self, soft: bool = True) -> dict[int, float]:
        """P(seat is Moriarty); without claims (``soft=False``) this is the role prior."""
        return self.belief(soft).roles()

    def claim_reports(self) -> list[ClaimReport]:
        """Every claim with P(true) from hard facts and with the bluff model; contradicted ones flagged."""
        assignments, _prior, post, layers = self._soft()
        out = []
        for claim in self.claims:
            if claim.seat == self.me:
                truth = self._my_count_at(claim)
                ok = float(truth == claim.claimed)
                reason = "" if ok else f"you held {truth} defusing cards"
                out.append(ClaimReport(claim, ok, ok, not ok, reason))
                continue
            layer = layers[claim.round - 1]
            truth = claim_truth(claim, layer.vectors, layer.hard)
            hits = (truth == claim.claimed).astype(float)
            p_hard = float(layer.prior @ hits)
            z = layer.evidence
            scaled = np.divide(post, z, out=np.zeros_like(post), where=z > 0)
            joint = scaled[:, None] * layer.likelihood * layer.prior[None, :]
            p_soft = float((joint.sum(axis=0) @ hits) / joint.sum()) if joint.sum() > 0 else 0.0
            if self.soft_note() is not None:
                p_soft = p_hard  # the soft layer fell back to hard facts
            contradicted = p_hard <= 0.0
            reason = self._contradiction_reason(claim, layer) if contradicted else ""
            out.append(ClaimReport(claim, p_hard, p_soft, contradicted, reason))
        return out

    def _my_count_at(self, claim: ClaimContext) -> int:
        cuts = [c for c in self.table.cuts if c.round == claim.round and c.seat == self.me]
        before = sum(1 for c in cuts[: claim.before] if c.card == DEFUSE)
        return self.hands[claim.round - 1][DEFUSE] - before

    def _contradiction_reason(self, claim: ClaimContext, layer: RoundLayer) -> str:
        shown = layer.hard.shown.get(claim.seat, ())[claim.before :]
        later_def = sum(1 for t in shown if t == DEFUSE)
        later_bombs = len(shown) - later_def
        who = f"player {claim.seat}"
        if later_def > claim.claimed:
            verb = "was" if later_def == 1 else "were"
            return f"{plural(later_def, 'defusing card')} {verb} cut from {who} after the claim of {claim.claimed}"
        if later_bombs > claim.size - claim.claimed:
            verb = "was" if later_bombs == 1 else "were"
            return (f"{plural(later_bombs, 'bomb')} {verb} cut from {who} after the claim, more than the "
                    f"{claim.size - claim.claimed} the claim leaves")
        j = layer.hard.seats.index(claim.seat)
        most = later_def + min(layer.hard.slots[j], layer.hard.defusers)
        least = later_def + int(layer.vectors[:, j].min()) if len(layer.vectors) else later_def
        if claim.claimed > most:
            return f"at most {most} defusing cards can have been in {who}'s hand then (the rest are cut or seen)"
        if claim.claimed < least:
            return f"at least {least} defusing cards must have been in {who}'s hand then (nowhere else to be)"
        return "no deal consistent with the cuts and your hands makes it true"  # pragma: no cover

    def why_role(self, seat: int) -> list[tuple[ClaimContext, float, float]]:
        """For each claim, P(``seat`` is Moriarty) without that claim and with all claims (exact)."""
        full = self.roles(True)[seat]
        out = []
        assignments, prior, _post, _layers = self._soft()
        for claim in self.claims:
            others = [c for c in self.claims if c.number != claim.number]
            layers = build_rounds(self._round_defusers(), others, assignments, self.bluff, self.me)
            try:
                post = role_posterior(prior, layers, self.bluff)
            except NoRoleAssignmentError:
                post = prior  # as in _soft: no assignment explains the other claims either
            without = float(sum(p for p, a in zip(post, assignments, strict=True)
                                if seat in a and a[seat] == MORIARTY))
            out.append((claim, without, full))
        return out

    # -- soundness (simulations) ----------------------------------------------------------------------------
    def rules_out(self, state: object, deep: bool = False) -> str | None:
        """``None`` if the true hidden world of ``state`` (a :class:`TimeBombState`) is still possible.

        Cheap by default (run after every observation in simulations): the facts not yet checked hold in the
        true world, and the true removed cards keep a positive weight in the exact counter. ``deep`` also checks
        every fact, each player's true hand against the exact distributions, and every true literal with the
        CP-SAT engine.
        """
        assert isinstance(state, TimeBombState)
        truth = state.true_world_view()
        known = self._known_variables()
        start = 0 if deep else min(self._sound_facts, len(self.facts))
        if deep:
            world = {v: val for v, val in truth.items() if v in known}
        else:  # only the variables the facts not yet checked mention (the same values, without the whole world)
            world = {
                v: truth[v]
                for cs in self.fact_constraints[start:]
                for c in cs
                for v, _ in c.terms
                if v in known and v in truth
            }
        for fact, cs in zip(self.facts[start:], self.fact_constraints[start:], strict=True):
            for c in cs:
                if not c.holds(world):
                    return f"'{fact}' rules out the true world"
        self._sound_facts = len(self.facts)
        hp = self.hard()
        removed = state.true_removed()
        comp = tuple(removed[c] for c in self.setup.colours)
        if comp not in hp.comps or not np.isfinite(hp.log_weights[hp.comps.index(comp)]):
            return f"the true removed cards {removed} have probability 0"
        if not deep:
            return None
        if len(state.rounds) == len(self.rounds) and state.table.cuts == self.table.cuts:
            belief = self.belief(soft=False)
            for seat in belief.seats:
                hand = Multiset(state.true_hand(seat))
                if belief.defuser_distribution(seat).get(hand[DEFUSE], 0.0) <= 0:
                    return f"player {seat} truly holds {hand[DEFUSE]} defusing cards, given probability 0"
                for colour in self.setup.colours:
                    if belief.colour_distribution(seat, colour).get(hand[colour], 0.0) <= 0:
                        return f"player {seat} truly holds {hand[colour]} {colour}, given probability 0"
        if self.engine().find([require(var, val) for var, val in world.items()]) is None:
            return "the CP-SAT engine rules out the true world"
        return None

    def _known_variables(self) -> frozenset[str]:
        """The world variables of every round so far (kept while the rounds are unchanged)."""
        rounds = len(self.rounds)
        if self._known_vars is None or self._known_vars[0] != rounds:
            instances = self.layout.instances  # the deck's cards: the same in every round
            names = frozenset(instance_variable(r, i) for r in range(1, rounds + 1) for i in instances)
            self._known_vars = (rounds, names)
        return self._known_vars[1]

    # -- summaries ------------------------------------------------------------------------------------------
    def role_of(self, seat: int) -> str | None:
        """My own role; ``None`` for anyone else (roles are never revealed)."""
        return self.role if seat == self.me else None

    def sides(self) -> tuple[str, str]:
        return (SHERLOCK, MORIARTY)
