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

from ortools.sat.python import cp_model

from models.thirteen_clues.data import ALL_CARDS, CATEGORIES
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge
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
from solver.constraints import Constraint, CountEquals
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
        self._witness: MysteryWitness | None = None
        self.changed = True

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, SETUP_TYPES):
            self.setup.apply(observation)
            if self.knowledge is None and self.setup.complete():
                self.knowledge = ThirteenCluesKnowledge(self.setup, self.count_budget)
            return
        if self.knowledge is None:
            raise AssistantError(f"bot at seat {self.seat}: '{observation}' before the setup was complete")
        self.knowledge.add(observation)
        if isinstance(observation, InformantLook):
            self.looked[observation.letter] = observation.card
        self.changed = True

    def certain_mystery(self) -> tuple[str, str, str] | None:
        """My mystery if the knowledge model is ``solved()``, else None.

        ``solved()`` counts worlds exactly and costs tens of milliseconds, so a cheap filter goes first: two
        worlds satisfying every constraint of the knowledge model with different mysteries prove it is not
        solved (see :class:`MysteryWitness`). Only when the filter finds no such pair is ``solved()`` asked.
        """
        assert self.knowledge is not None
        if self._witness is None:
            self._witness = MysteryWitness(self.knowledge)
        if self._witness.proves_open():
            return None
        if not self.knowledge.solved():
            return None
        mystery = self.knowledge.mystery()
        person, location, weapon = (next(iter(mystery[cat.lower()])) for cat in CATEGORIES)
        return (person, location, weapon)


class MysteryWitness:
    """Finds worlds that keep a player's mystery open, incrementally and cheaply.

    It mirrors the knowledge model's constraints (read from its public ``entries``, which a bot only ever
    appends to) in its own CP-SAT model without gates, and keeps the last worlds found. Filtering those worlds
    by the new constraints costs microseconds; at most one solve per call looks for a world whose mystery
    differs from the surviving ones. It can only prove "still open": certainty is left to the knowledge model.
    """

    KEEP = 8  # worlds kept: more survive each new observation, so fewer solves are needed

    def __init__(self, knowledge: ThirteenCluesKnowledge) -> None:
        self.knowledge = knowledge.knowledge
        problem = self.knowledge.problem
        self.model = cp_model.CpModel()
        self.x = {lit: self.model.new_bool_var(f"{lit[0]}={lit[1]}") for lit in problem.literals()}
        for var, dom in problem.variables.items():
            self.model.add_exactly_one(self.x[(var, val)] for val in dom)
        for c in problem.structure:
            self._encode(c)
        self.synced = 0
        self.worlds: list[dict[str, str]] = []

    def _encode(self, c: Constraint) -> cp_model.Constraint | None:
        present = [self.x[t] for t in c.terms if t in self.x]
        if isinstance(c, CountEquals):
            return self.model.add(sum(present) == c.count)
        if len(present) < len(c.terms):
            return None  # a literal outside the domains is always false, so NotAll always holds
        return self.model.add_bool_or([v.Not() for v in present])

    @staticmethod
    def _mystery(world: dict[str, str]) -> frozenset[str]:
        return frozenset(card for card, place in world.items() if place == MYSTERY)

    def proves_open(self) -> bool:
        """True if two consistent worlds with different mysteries exist (found now or kept from before)."""
        new = [c for e in self.knowledge.entries[self.synced :] for c in e.constraints]
        self.synced = len(self.knowledge.entries)
        for c in new:
            self._encode(c)
        self.worlds = [w for w in self.worlds if all(c.holds(w) for c in new)]
        if len({self._mystery(w) for w in self.worlds}) >= 2:
            return True
        if not self.worlds and not self._solve(None):
            return False  # no world at all: let the knowledge model report it
        return self._solve(self._mystery(self.worlds[0]))

    def _solve(self, other_than: frozenset[str] | None) -> bool:
        """Find a world (with a mystery other than ``other_than``); keep it and say whether one exists."""
        self.model.clear_assumptions()
        if other_than is not None:
            gate = self.model.new_bool_var("other")
            self.model.add_bool_or([self.x[(card, MYSTERY)].Not() for card in other_than]).only_enforce_if(gate)
            self.model.add_assumptions([gate])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.cp_model_presolve = False  # tiny models: presolve costs more than it saves
        if solver.solve(self.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False
        world = {var: val for (var, val), v in self.x.items() if solver.boolean_value(v)}
        self.worlds = [*self.worlds[-(self.KEEP - 1) :], world]
        return True


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
