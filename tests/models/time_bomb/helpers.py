"""Shared helpers for the Time Bomb tests: a tiny variant of the game (small enough for brute force) and a
driver that plays engine games while every seat keeps its knowledge."""

from __future__ import annotations

import random
from collections.abc import Callable

from models.time_bomb.data import GameData
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.rules import TableRules, TimeBombState

#: 3 players, 3 colours of 2 cards, 2 removed, 2 defusing cards, hands of 2 then 1: brute-forceable.
TINY = GameData(
    colours=("pink", "red", "blue"),
    bombs_per_colour=2,
    hand_sizes=(2, 1),
    thresholds={"pink": 2, "red": 2, "blue": 2},
    role_cards={3: (2, 1)},
    removed={3: 2},
    defusers={3: 2},
)

#: 4 players, 4 colours of 2 cards with green at 3: exercises four colours and the unseen role card.
SMALL = GameData(
    colours=("pink", "red", "blue", "green"),
    bombs_per_colour=2,
    hand_sizes=(2, 1),
    thresholds={"pink": 2, "red": 2, "blue": 2, "green": 2},
    role_cards={4: (3, 2)},
    removed={4: 2},
    defusers={4: 2},
)


def play(
    rules: TableRules,
    seed: int,
    on_observation: Callable[[TimeBombState, int, TimeBombKnowledge], None] | None = None,
    stop: Callable[[TimeBombState], bool] | None = None,
) -> tuple[TimeBombState, dict[int, TimeBombKnowledge]]:
    """Play random legal actions from ``seed``; every seat's knowledge follows its observations."""
    state = TimeBombState(rules, random.Random(seed))
    chooser = random.Random(seed + 7)
    setups = {s: TableSetup(data=rules.data) for s in state.seats}
    knowledge: dict[int, TimeBombKnowledge] = {}

    def deliver() -> None:
        for s in state.seats:
            for obs in state.take_observations(s):
                if s in knowledge:
                    knowledge[s].add(obs)
                else:
                    setups[s].apply(obs)
                    if setups[s].complete():
                        knowledge[s] = TimeBombKnowledge(setups[s])
                if s in knowledge and on_observation:
                    on_observation(state, s, knowledge[s])

    deliver()
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply(chooser.choice(state.legal_actions()))
        deliver()
    return state, knowledge
