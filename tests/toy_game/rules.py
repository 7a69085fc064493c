"""The Toy Cards rules engine (the :class:`solver.game.State` interface): the deal, turns, answers, the end.

Every seat is told ``players N``, ``me SEAT`` and ``hand CARD`` first; every answer is heard by all. A guess
ends the game (a right one wins); after :data:`tests.toy_game.data.MAX_TURNS` turns it is a draw.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.errors import IllegalActionError
from tests.toy_game.data import MAX_TURNS, MYSTERY, cards_in_play
from tests.toy_game.observations import Answer, Ask, Entry, Guess, Hand, Me, Players


@dataclass(frozen=True)
class ToyView:
    """What a seat sees besides its observations: whose turn, how many turns were played, its legal actions."""

    seat: int
    turn: int
    current: int | None
    legal_actions: tuple[Ask | Guess, ...]


class ToyState:
    """A game of Toy Cards, the true deal included."""

    def __init__(self, players: int, rng: random.Random) -> None:
        cards = list(cards_in_play(players))
        rng.shuffle(cards)
        self.num_players = players
        self.deal = {seat: cards[seat - 1] for seat in range(1, players + 1)}
        self.mystery = cards[players]
        self.current = rng.randint(1, players)
        self.turn = 0
        self.over = False
        self._winner: int | None = None
        self.asks = dict.fromkeys(self.deal, 0)
        self.queues: dict[int, list[Entry]] = {
            seat: [Players(players), Me(seat), Hand(card)] for seat, card in self.deal.items()}

    def current_player(self) -> int | None:
        return None if self.over else self.current

    def legal_actions(self) -> list[Ask | Guess]:
        if self.over:
            return []
        mine = self.deal[self.current]
        others = [card for card in cards_in_play(self.num_players) if card != mine]
        asks: list[Ask | Guess] = [Ask(seat, card) for seat in self.deal if seat != self.current for card in others]
        return [*asks, *(Guess(card) for card in others)]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not a legal action of player {self.current}")
        if isinstance(action, Guess):
            self.over = True
            self._winner = self.current if action.card == self.mystery else None
            return
        answer = Answer(self.current, action.seat, action.card, self.deal[action.seat] == action.card)
        for queue in self.queues.values():
            queue.append(answer)
        self.asks[self.current] += 1
        self.turn += 1
        self.current = self.current % self.num_players + 1
        if self.turn >= MAX_TURNS:
            self.over = True

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        return [1.0 if seat == self._winner else 0.0 for seat in self.deal]

    def winner(self) -> int | None:
        return self._winner

    def clone(self) -> ToyState:
        return copy.deepcopy(self)

    def take_observations(self, seat: int) -> list[Entry]:
        queue = self.queues[seat]
        taken, queue[:] = list(queue), []
        return taken

    def view(self, seat: int) -> ToyView:
        legal = tuple(self.legal_actions()) if seat == self.current_player() else ()
        return ToyView(seat, self.turn, self.current_player(), legal)

    def player_stats(self, seat: int) -> Mapping[str, float]:
        return {"asks": float(self.asks[seat]), "won": float(self._winner == seat)}

    def world(self) -> dict[str, str]:
        """The true place of every card."""
        return {**{card: str(seat) for seat, card in self.deal.items()}, self.mystery: MYSTERY}

    def soundness_failure(self, seat: int, knowledge: Any, deep: bool = False) -> str | None:
        """Whether the knowledge ``seat`` keeps rules out the true deal (its constraints; ``deep``: its solver)."""
        world = self.world()
        for constraint in knowledge.knowledge.constraints():
            if not constraint.holds(world):
                return f"player {seat}'s knowledge breaks the true deal: {constraint}"
        if deep:
            possible = knowledge.possible()
            for card, place in world.items():
                if place not in possible[card]:
                    return f"player {seat}'s solver rules out that {card} is at {place}"
        return None


def new_game(rng: random.Random, players: int) -> ToyState:
    """A fresh game of ``players`` dealt from ``rng`` (module level: worker processes run it)."""
    return ToyState(players, rng)
