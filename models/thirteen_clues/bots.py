"""Thirteen Clues bots and the bot registry used by ``assist simulate thirteen-clues``.

- ``random``: a random legal action: first a random kind (take, ask, consult, accuse: whichever are legal), then
  a random action of that kind, so it does not accuse on almost every move just because there are many
  accusation triples. Every accusation it can make names only cards it cannot see (the legal ones).
- ``logic``: keeps the exact knowledge model (:class:`ThirteenCluesKnowledge`), accuses only when certain
  (its knowledge is ``solved()``), otherwise picks uniformly among every legal question and every consultation
  of an informant it has not looked at yet. Facing an empty supply it takes a glass from the player holding
  the most (ties at random).

The registry maps a name to a :data:`solver.bots.BotFactory`. Bots defined in other modules register
themselves with :func:`register_bot`; a name listed in :data:`LAZY_BOTS` is imported on first use, so
``advisor`` (in :mod:`models.thirteen_clues.advisor`, which may import this module) needs no import here.
"""

from __future__ import annotations

import importlib
import itertools
import random
from typing import Any

from models.thirteen_clues.data import ALL_CARDS, CATEGORIES
from models.thirteen_clues.knowledge import TableSetup, ThirteenCluesKnowledge
from models.thirteen_clues.observations import (
    Accuse,
    Action,
    Ask,
    Consult,
    Entry,
    InformantLook,
    Me,
    Players,
    Private,
    Screen,
    Subcategories,
    TakeGlass,
)
from models.thirteen_clues.rules import TAKE, TableView
from solver.bots import Bot, BotFactory
from solver.errors import AssistantError

SETUP_TYPES = (Players, Me, Private, Screen, Subcategories)
_CATEGORY: dict[str, frozenset[str]] = {
    cat: frozenset(c.name for c in ALL_CARDS if c.category == cat) for cat in CATEGORIES
}


class KnowledgeBot:
    """Base for bots that keep the exact knowledge model: collects the setup lines, builds
    :class:`ThirteenCluesKnowledge` as soon as the setup is complete, then adds every observation.

    ``knowledge`` is ``None`` until built (the simulation checks soundness only once it exists). ``changed``
    is set by every observation so that subclasses recompute costly queries only when something new arrived.
    """

    name = "knowledge"

    def __init__(self, seat: int, rng: random.Random, count_budget: float = 2.0) -> None:
        self.seat = seat
        self.rng = rng
        self.count_budget = count_budget
        self.setup = TableSetup()
        self.knowledge: ThirteenCluesKnowledge | None = None
        self.looked: dict[str, str] = {}  # informant letter -> card I saw there
        self.changed = True

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, SETUP_TYPES):
            self.setup.apply(observation)
            if self.knowledge is None and self.setup.complete():
                self.knowledge = ThirteenCluesKnowledge(self.setup, self.count_budget)
            return
        if self.knowledge is None:
            raise AssistantError(f"bot at seat {self.seat}: '{observation}' before the setup was complete")
        self.knowledge.add(observation, check=False)  # the rules engine emits only true observations
        if isinstance(observation, InformantLook):
            self.looked[observation.letter] = observation.card
        self.changed = True

    def certain_mystery(self) -> tuple[str, str, str] | None:
        """My mystery if the knowledge model has it determined, else None (a cheap check: no counting)."""
        assert self.knowledge is not None
        return self.knowledge.certain_mystery()


class RandomBot(KnowledgeBot):
    """Random legal actions (see module docstring). With ``keep_knowledge`` it also keeps the knowledge model,
    without using it, so that random games test the model's soundness."""

    name = "random"

    def __init__(self, seat: int, rng: random.Random, keep_knowledge: bool = False) -> None:
        super().__init__(seat, rng)
        self.keep_knowledge = keep_knowledge

    def inform(self, observation: Entry) -> None:
        if self.keep_knowledge:
            super().inform(observation)

    def step(self, view: TableView) -> Action:
        # legal actions come grouped by kind (take, ask, consult, accuse), so grouping is one pass
        by_kind = [list(group) for _, group in itertools.groupby(view.legal_actions, key=type)]
        kind = self.rng.randrange(len(by_kind))
        return self.rng.choice(by_kind[kind])


class LogicBot(KnowledgeBot):
    """Exact knowledge, random questions, accuses only when certain (see module docstring)."""

    name = "logic"

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.solution: tuple[str, str, str] | None = None

    def step(self, view: TableView) -> Action:
        legal = view.legal_actions
        if view.phase == TAKE:
            most = max(view.glasses[a.seat - 1] for a in legal if isinstance(a, TakeGlass))
            return self.rng.choice([a for a in legal if isinstance(a, TakeGlass) and view.glasses[a.seat - 1] == most])
        if self.changed:  # the certainty check is the costly part of a turn: only when something new arrived
            self.changed = False
            self.solution = self.certain_mystery()
        if self.solution is not None:
            return Accuse(*self.solution)
        options = [a for a in legal if isinstance(a, Ask) or (isinstance(a, Consult) and a.letter not in self.looked)]
        return self.rng.choice(options)


#: name -> factory(seat, rng). Other modules add theirs with :func:`register_bot`.
BOTS: dict[str, BotFactory] = {"random": RandomBot, "logic": LogicBot}

#: name -> module that registers it when imported (kept out of the imports above to avoid cycles).
LAZY_BOTS: dict[str, str] = {"advisor": "models.thirteen_clues.advisor"}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory`` available as ``name`` (e.g. ``register_bot("advisor", AdvisorBot)`` in advisor.py)."""
    BOTS[name] = factory


def bot_factory(name: str) -> BotFactory:
    """The factory registered as ``name``, importing its module first if it is a lazy one."""
    if name not in BOTS and name in LAZY_BOTS:
        module = LAZY_BOTS[name]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            raise AssistantError(f"bot '{name}' is not available ({module} is missing)") from None
    if name not in BOTS:
        known = ", ".join(sorted(set(BOTS) | set(LAZY_BOTS)))
        raise AssistantError(f"unknown bot '{name}': expected one of {known}")
    return BOTS[name]


def make_bot(name: str, seat: int, rng: random.Random) -> Bot:
    """A fresh bot ``name`` for ``seat``; a module-level function so simulations can send it to workers."""
    bot: Any = bot_factory(name)(seat, rng)
    return bot


def available_bots() -> list[str]:
    """Every bot name that can be built now (lazy ones only if their module imports)."""
    out = []
    for name in sorted(set(BOTS) | set(LAZY_BOTS)):
        try:
            bot_factory(name)
        except AssistantError:
            continue
        out.append(name)
    return out
