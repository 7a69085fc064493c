"""Time Bomb Evolution bots (the :mod:`solver.bots` protocol). All of them make claims.

- ``random``: random claims, random cuts, random covers.
- ``honest-sherlock``: tells the truth; cuts the player whose claim (less the defusing cards cut since) is the
  highest share of their hand; covers the colour nearest its threshold.
- ``bluffing-moriarty``: lies about its defusing cards with probability ``MORIARTY_BLUFF`` (a uniformly chosen
  false count, the bluff model's assumption); cuts the player whose claims promise the most bombs; covers the
  colour farthest from exploding and, after a blue bomb, exposes the most dangerous one.
- ``advisor``: keeps a :class:`TimeBombKnowledge` and follows :func:`models.time_bomb.advisor.advise` for its
  own role (either side). ``advisor-moriarty`` is the same player under the name of the Moriarty advisor's
  seat (``advisor/advisor-moriarty`` reads as the matchup of the Moriarty figures). It also records its role
  beliefs at every redeal and at its last decision (``role_beliefs``) so benchmarks can score them against the
  true roles.

A spec ``S/M`` (e.g. ``advisor/bluffing-moriarty``) plays bot S when dealt Sherlock and M when dealt Moriarty.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from models.time_bomb.advisor import Weights, advise, choose_claim, choose_cover, choose_uncover
from models.time_bomb.bluff import BluffModel
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import Claim, Cover, Cut, Entry, Hand, Redeal, Role, Say, Target, Uncover
from models.time_bomb.rules import Table, TableView
from solver.errors import AssistantError

MORIARTY_BLUFF = 0.5
SHERLOCK_BLUFF = 0.1
ADVISOR_TOLERANCE = 1e-3  # red chains less likely than this are not followed (see advisor.explosion)


class _Tracker:
    """What every bot needs to remember: role, current hand and this round's claims."""

    name = "base"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.role: str | None = None
        self.hand: list[str] = []
        self.claims: dict[int, tuple[int, int]] = {}  # seat -> (claimed, cards cut from them before the claim)
        self.cut_since: dict[int, list[str]] = {}
        self.knowledge: TimeBombKnowledge | None = None

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, Role):
            self.role = observation.role
        elif isinstance(observation, Hand | Redeal):
            self.hand = list(observation.cards)
            self.claims, self.cut_since = {}, {}
        elif isinstance(observation, Claim):
            self.claims[observation.seat] = (observation.defusers, len(self.cut_since.get(observation.seat, [])))
        elif isinstance(observation, Cut):
            self.cut_since.setdefault(observation.seat, []).append(observation.card)
            if observation.seat == self.seat and observation.card in self.hand:
                self.hand.remove(observation.card)

    def claimed_ratio(self, seat: int, table: Table) -> float | None:
        if seat not in self.claims or table.sizes[seat] == 0:
            return None
        claimed, before = self.claims[seat]
        later = self.cut_since.get(seat, [])[before:]
        left = claimed - sum(1 for c in later if c == DEFUSE)
        return max(0, min(left, table.sizes[seat])) / table.sizes[seat]

    def step(self, view: TableView) -> Any:
        legal = list(view.legal_actions)
        first = legal[0]
        if isinstance(first, Say):
            return self.say(view, legal)
        if isinstance(first, Target):
            return self.target(view, legal)
        if isinstance(first, Cover):
            return self.cover(view, legal)
        return self.uncover(view, legal)

    def say(self, view: TableView, legal: list[Any]) -> Any:
        return self.rng.choice(legal)

    def target(self, view: TableView, legal: list[Any]) -> Any:
        return self.rng.choice(legal)

    def cover(self, view: TableView, legal: list[Any]) -> Any:
        return self.rng.choice(legal)

    def uncover(self, view: TableView, legal: list[Any]) -> Any:
        return self.rng.choice(legal)

    def _best(self, legal: list[Any], key: Callable[[Any], float]) -> Any:
        top = max(key(a) for a in legal)
        return self.rng.choice([a for a in legal if key(a) == top])


class RandomBot(_Tracker):
    name = "random"


def _public_danger(table: Table, colour: str) -> float:
    return table.counts[colour] / table.setup.thresholds[colour]


class HonestSherlockBot(_Tracker):
    name = "honest-sherlock"

    def say(self, view: TableView, legal: list[Any]) -> Any:
        return Say(self.hand.count(DEFUSE))

    def target(self, view: TableView, legal: list[Any]) -> Any:
        def value(a: Target) -> float:
            ratio = self.claimed_ratio(a.seat, view.table)
            return 0.2 if ratio is None else ratio  # unknown: about the share of defusing cards in the deck

        return self._best(legal, value)

    def cover(self, view: TableView, legal: list[Any]) -> Any:
        return self._best(legal, lambda a: _public_danger(view.table, a.colour))

    def uncover(self, view: TableView, legal: list[Any]) -> Any:
        return self._best(legal, lambda a: -_public_danger(view.table, a.colour))


class BluffingMoriartyBot(_Tracker):
    name = "bluffing-moriarty"
    bluff = MORIARTY_BLUFF

    def say(self, view: TableView, legal: list[Any]) -> Any:
        truth = self.hand.count(DEFUSE)
        lies = [a for a in legal if a.defusers != truth]
        if lies and self.rng.random() < self.bluff:
            return self.rng.choice(lies)
        return Say(truth)

    def target(self, view: TableView, legal: list[Any]) -> Any:
        def value(a: Target) -> float:
            ratio = self.claimed_ratio(a.seat, view.table)
            return 1.0 - (0.2 if ratio is None else ratio)

        return self._best(legal, value)

    def cover(self, view: TableView, legal: list[Any]) -> Any:
        return self._best(legal, lambda a: -_public_danger(view.table, a.colour))

    def uncover(self, view: TableView, legal: list[Any]) -> Any:
        return self._best(legal, lambda a: _public_danger(view.table, a.colour))


class AdvisorBot(_Tracker):
    """Follows the advisor for its own role; its knowledge is checked for soundness by the simulation."""

    name = "advisor"
    weights: Weights | None = None  # None: the advisor's weights for its side (advisor.WEIGHTS)
    rates: tuple[float, float] = (SHERLOCK_BLUFF, MORIARTY_BLUFF)  # the bluff model it reads claims with

    def __init__(self, seat: int, rng: random.Random, bluff: BluffModel | None = None) -> None:
        super().__init__(seat, rng)
        self.bluff = bluff or BluffModel(*self.rates)
        self.setup = TableSetup()
        self.role_beliefs: list[tuple[int, dict[int, float]]] = []  # (round, P(Moriarty) per seat)

    def inform(self, observation: Entry) -> None:
        super().inform(observation)
        if self.knowledge is None:
            self.setup.apply(observation)
            if self.setup.complete():
                self.knowledge = TimeBombKnowledge(self.setup, self.bluff)
            return
        if isinstance(observation, Redeal):
            self.role_beliefs.append((self.knowledge.table.round, self.knowledge.roles()))
        self.knowledge.add(observation)

    def step(self, view: TableView) -> Any:
        kn = self.knowledge
        assert kn is not None
        self.last_beliefs = (kn.table.round, kn.roles())
        legal = list(view.legal_actions)
        first = legal[0]
        w = self.weights
        if isinstance(first, Say):
            k, _ = choose_claim(kn, weights=w)
            return Say(k)
        if isinstance(first, Cover):
            return Cover(choose_cover(kn, weights=w)[0])
        if isinstance(first, Uncover):
            return Uncover(choose_uncover(kn, weights=w)[0])
        advice = advise(kn, tolerance=ADVISOR_TOLERANCE, detail=False, weights=w)  # the ranking only
        pick = Target(advice.options[0].seat)
        return pick if pick in legal else self.rng.choice(legal)


class AdvisorMoriartyBot(AdvisorBot):
    """The Moriarty advisor's seat (``advisor-moriarty``): when dealt Moriarty it follows ``advise`` for
    Moriarty (claims ranked as the Sherlocks read them, cuts for explosions; docs/time-bomb.md says what it
    assumes about the Sherlocks); when dealt Sherlock it plays the Sherlock advisor, as ``advisor`` does."""

    name = "advisor-moriarty"


BOTS: dict[str, type[_Tracker]] = {
    cls.name: cls for cls in (RandomBot, HonestSherlockBot, BluffingMoriartyBot, AdvisorBot, AdvisorMoriartyBot)
}


class RoleBot:
    """Plays one bot when dealt Sherlock and another when dealt Moriarty (spec ``S/M``)."""

    def __init__(self, seat: int, rng: random.Random, sherlock: str, moriarty: str) -> None:
        self.seat, self.rng = seat, rng
        self.names = {SHERLOCK: sherlock, MORIARTY: moriarty}
        self.name = f"{sherlock}/{moriarty}"
        self.inner: _Tracker | None = None
        self._buffer: list[Entry] = []

    @property
    def knowledge(self) -> TimeBombKnowledge | None:
        return None if self.inner is None else self.inner.knowledge

    def inform(self, observation: Entry) -> None:
        if self.inner is None:
            self._buffer.append(observation)
            if isinstance(observation, Role):
                self.inner = BOTS[self.names[observation.role]](self.seat, self.rng)
                for obs in self._buffer:
                    self.inner.inform(obs)
                self._buffer = []
            return
        self.inner.inform(observation)

    def step(self, view: TableView) -> Any:
        assert self.inner is not None
        return self.inner.step(view)


def check_spec(spec: str) -> None:
    """Raise :class:`AssistantError` unless ``spec`` names a bot or an ``S/M`` pair of bots."""
    for name in spec.split("/"):
        if name not in BOTS:
            raise AssistantError(f"unknown bot '{name}': expected {', '.join(BOTS)} (or SHERLOCK/MORIARTY pairs)")
    if spec.count("/") > 1:
        raise AssistantError(f"bot '{spec}': expected NAME or SHERLOCK_BOT/MORIARTY_BOT")


def make_bot(spec: str, seat: int, rng: random.Random) -> Any:
    """The bot for ``spec`` at ``seat`` (module docstring)."""
    check_spec(spec)
    if "/" in spec:
        sherlock, moriarty = spec.split("/")
        return RoleBot(seat, rng, sherlock, moriarty)
    return BOTS[spec](seat, rng)


