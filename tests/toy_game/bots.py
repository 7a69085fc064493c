"""Toy Cards bots: ``random`` asks random legal questions and keeps the exact knowledge (checked for soundness
by every simulation); it guesses the mystery as soon as its knowledge makes it certain."""

from __future__ import annotations

import random
from typing import Any

from solver.errors import AssistantError
from tests.toy_game.knowledge import ToyKnowledge
from tests.toy_game.observations import Answer, Ask, Entry, Guess, Hand, Me, Players
from tests.toy_game.rules import ToyView

BOTS = ("random",)


class RandomBot:
    name = "random"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        self.players: int | None = None
        self.knowledge: ToyKnowledge | None = None

    def inform(self, observation: Entry) -> None:
        if isinstance(observation, Players):
            self.players = observation.count
        elif isinstance(observation, Hand):
            assert self.players is not None
            self.knowledge = ToyKnowledge(self.players, self.seat, observation.card)
        elif isinstance(observation, Answer) and self.knowledge is not None:
            self.knowledge.add(observation)
        elif not isinstance(observation, Me | Answer):
            raise AssistantError(f"unexpected observation '{observation}'")

    def step(self, view: ToyView) -> Any:
        legal = list(view.legal_actions)
        known = self.knowledge.mystery() if self.knowledge is not None else None
        if known is not None and Guess(known) in legal:
            return Guess(known)
        return self.rng.choice([a for a in legal if isinstance(a, Ask)])


def check_bot(name: str) -> None:
    if name not in BOTS:
        raise AssistantError(f"unknown bot '{name[:40]}': expected one of {', '.join(BOTS)}")


def make_bot(name: str, seat: int, rng: random.Random) -> RandomBot:
    check_bot(name)
    return RandomBot(seat, rng)
