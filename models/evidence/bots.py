"""Evidence bots and their registry (used by ``assist simulate evidence``).

- ``random``: a random legal action, a random *kind* first (take / done, time-out / tool / done) so that it does
  not use a time-out on almost every turn just because there are many ways to swap.
- ``greedy``: myopic expected value. It plays a random rumour (its own expected score does not depend on the
  order it plays its hand in); searches while the best available card is worth more than nothing now (evidence
  mean, +1 for a Hot Lead on top); takes a time-out when swapping one mystery's cards for the best available
  others raises its expected score now; with the tools, uses the one worth most now, if any is worth more than
  nothing (uncovering nothing by itself: the Fortune-Teller is worth its point).
- ``advisor``: :mod:`models.evidence.advisor` (registered there, imported on first use).

Every bot keeps the exact knowledge model (:class:`EvidenceKnowledge`, closed form only: no CP-SAT unless
asked) and exposes it as ``knowledge``, so every simulated game checks its soundness.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from models.evidence.data import COLOURS
from models.evidence.knowledge import EvidenceKnowledge, TableSetup
from models.evidence.observations import (
    SETUP_TYPES,
    Action,
    Card,
    Done,
    Entry,
    PlayRumour,
    Take,
    Uncover,
    UseTimeOut,
    UseTool,
)
from models.evidence.rules import PLAY, SEARCH, UNCOVER, EvidenceView, Table
from solver.bots import Bot, BotFactory
from solver.errors import AssistantError


class KnowledgeBot:
    """Base: collects the setup lines, builds the knowledge model, then adds every observation."""

    name = "knowledge"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.setup = TableSetup()
        self.knowledge: EvidenceKnowledge | None = None

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, SETUP_TYPES):
            self.setup.apply(observation)
            return
        if self.knowledge is None:
            self.knowledge = EvidenceKnowledge(self.setup, solver=False)
        self.knowledge.add(observation)

    def kn(self) -> EvidenceKnowledge:
        if self.knowledge is None:  # no event yet: the setup is complete once the game has started
            self.knowledge = EvidenceKnowledge(self.setup, solver=False)
        return self.knowledge


class RandomBot(KnowledgeBot):
    name = "random"

    def step(self, view: EvidenceView) -> Action:
        by_kind: dict[type, list[Action]] = {}
        for action in view.legal_actions:
            by_kind.setdefault(type(action), []).append(action)
        kind = self.rng.choice(list(by_kind))
        return self.rng.choice(by_kind[kind])


def card_value(table: Table, colour: str, means: Mapping[str, float], tools: list[str]) -> float:
    """Expected points of the next search card of ``colour`` now: the evidence mean, plus the Hot Lead bonus
    if the Hot Lead is on top."""
    bonus = (2 if "telescope" in tools else 1) if table.stacks[colour].hot else 0
    return means[colour] + bonus


def best_takes(
    table: Table, n: int, means: Mapping[str, float], tools: list[str], exclude: str | None = None
) -> tuple[list[str], float]:
    """The ``n`` most valuable search cards available now (Hot Leads first on their stacks), and their value."""
    hot_bonus = 2 if "telescope" in tools else 1
    left = {c: (table.stacks[c].hot, table.stacks[c].size) for c in COLOURS if c != exclude}
    taken: list[str] = []
    total = 0.0
    for _ in range(n):
        best, value = None, -1e9
        for c, (hot, size) in left.items():
            if size and means[c] + (hot_bonus if hot else 0) > value:
                best, value = c, means[c] + (hot_bonus if hot else 0)
        if best is None:
            break
        hot, size = left[best]
        left[best] = (False, size - 1)
        taken.append(best)
        total += value
    return taken, total


def extra_gains(table: Table, seat: int, means: Mapping[str, float]) -> list[tuple[float, Action]]:
    """Every time-out (best replacement per mystery) and tool with its expected gain now, myopically."""
    tools = table.tools_of(seat)
    if not table.can_extra(seat):
        return []
    hot_bonus = 2 if "telescope" in tools else 1
    arts = table.articles[seat]
    out: list[tuple[float, Action]] = []
    for colour in COLOURS:
        n = arts[colour]
        if not n or (not table.pro and colour not in table.timeouts) or (table.pro and "timeout" not in table.tools):
            continue
        take, value = best_takes(table, n, means, tools, exclude=colour)
        if len(take) < n:
            continue
        lose = n * means[colour] + (hot_bonus if colour in table.hot[seat] else 0)
        swap = tuple(sorted(take, key=COLOURS.index))  # the order the rules engine lists swaps in
        out.append((value - lose, UseTimeOut(colour, swap) if not table.pro else UseTool("timeout", colour, swap)))
    if not table.pro:
        return out
    owned = [c for c in COLOURS if arts[c]]
    for tool in sorted(table.tools):
        if tool == "telescope":
            out.append((float(len(table.hot[seat])), UseTool(tool)))
        elif tool == "plane":
            out.append((float(sum(1 for c in owned if arts[c] >= 2)), UseTool(tool)))
        elif tool == "fortune":
            covered = [c for c in COLOURS if table.evidence[c] is None]
            if covered:  # look where I hold the most cards (ties: the first mystery)
                out.append((1.0, UseTool(tool, max(covered, key=lambda c: arts[c]))))
        elif tool == "typewriter":
            out.append((max((means[c] for c in owned), default=0.0) - 1, UseTool(tool)))
        elif tool == "balloon":
            take, value = best_takes(table, 1, means, tools)
            if take:
                out.append((value, UseTool(tool, take[0])))
    return out


def greedy_choice(
    table: Table,
    seat: int,
    phase: str,
    hand: list[Card],
    means_of: Callable[[], Mapping[str, float]],
    rng: random.Random,
) -> Action:
    """The greedy policy (module docstring) from a player's own information: the public table, their hand and
    their evidence means (``means_of()``, asked only when needed). Shared by :class:`GreedyBot` and the
    advisor's rollouts, so they agree exactly."""
    if phase == UNCOVER:
        return Uncover(rng.choice(list(table.unknown[seat].elements())))
    if phase == PLAY:
        return PlayRumour(*rng.choice(hand))
    if phase == SEARCH:
        if table.room(seat) <= 0:
            return Done()
        take, value = best_takes(table, 1, means_of(), table.tools_of(seat))
        return Take(take[0]) if take and value > 0 else Done()
    best: Action = Done()
    best_gain = 0.0
    for gain, action in extra_gains(table, seat, means_of()):
        if gain > best_gain + 1e-9:
            best, best_gain = action, gain
    return best


class GreedyBot(KnowledgeBot):
    """Myopic expected value (see module docstring)."""

    name = "greedy"

    def step(self, view: EvidenceView) -> Action:
        kn = self.kn()
        return greedy_choice(kn.table, self.seat, view.phase, kn.hand, kn.means, self.rng)


#: name -> factory(seat, rng).
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
LAZY_BOTS: dict[str, str] = {"advisor": "models.evidence.advisor"}


def register_bot(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def bot_factory(name: str) -> BotFactory:
    if name not in BOTS and name in LAZY_BOTS:
        importlib.import_module(LAZY_BOTS[name])
    if name not in BOTS:
        known = ", ".join(sorted(set(BOTS) | set(LAZY_BOTS)))
        raise AssistantError(f"unknown bot '{name}': expected one of {known}")
    return BOTS[name]


def make_bot(name: str, seat: int, rng: random.Random) -> Bot:
    """A fresh bot ``name`` for ``seat`` (module level, so simulations can send it to worker processes)."""
    bot: Any = bot_factory(name)(seat, rng)
    return bot
