"""Toy Cards knowledge: where each card can be, from my card and the answers heard (:class:`solver.knowledge.
Knowledge`, gated CP-SAT, counted by enumeration: at most 24 deals).

Each card is a hidden variable whose value is its place (a seat or the mystery); the deal's rule is that each
place holds exactly one card. ``hand CARD`` places my card at my seat; ``ask A S CARD yes`` places it at seat S,
``no`` rules that out.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.constraints import Constraint, CountEquals, Problem, forbid, require
from solver.knowledge import Explanation, Knowledge
from tests.toy_game.data import MYSTERY, cards_in_play, places
from tests.toy_game.observations import Answer, Hand

Observation = Hand | Answer


def problem(players: int) -> Problem:
    """The deal of ``players``: each card in one place, each place with exactly one card."""
    cards, where = cards_in_play(players), places(players)
    rules = tuple(CountEquals(tuple((card, place) for card in cards), 1) for place in where)
    return Problem({card: where for card in cards}, rules)


def compile_observation(obs: Observation) -> Sequence[Constraint]:
    if isinstance(obs, Hand):
        raise TypeError("a hand is compiled with its seat (ToyKnowledge)")
    return (require(obs.card, str(obs.seat)) if obs.held else forbid(obs.card, str(obs.seat)),)


class ToyKnowledge:
    """One player's knowledge: the table's size, my seat and card, then every answer heard."""

    def __init__(self, players: int, me: int, hand: str) -> None:
        if hand not in cards_in_play(players):
            raise ValueError(f"{hand} is not in a {players}-player game")
        self.players, self.me, self.hand = players, me, hand
        self.problem = problem(players)
        self.knowledge: Knowledge[Observation] = Knowledge(self.problem, self._compile)
        self.knowledge.add(Hand(hand))

    def _compile(self, obs: Observation) -> Sequence[Constraint]:
        if isinstance(obs, Hand):
            return (require(obs.card, str(self.me)),)
        return compile_observation(obs)

    @property
    def cards(self) -> tuple[str, ...]:
        return cards_in_play(self.players)

    @property
    def places(self) -> tuple[str, ...]:
        return places(self.players)

    def add(self, obs: Answer, hypothetical: bool = False) -> None:
        """Add an answer (raises :class:`solver.errors.ContradictionError`, unchanged, if it cannot be true)."""
        self.knowledge.add(obs, hypothetical)

    def possible(self) -> dict[str, frozenset[str]]:
        return self.knowledge.possible()

    def probabilities(self) -> dict[str, dict[str, float]]:
        """Each card's exact probability of being in each place (every deal that fits equally likely)."""
        count = self.knowledge.count()
        return {card: {place: count.probability((card, place)) for place in self.places} for card in self.cards}

    def worlds(self) -> int:
        return int(self.knowledge.count().worlds)

    def mystery(self) -> str | None:
        """The mystery card once it is certain."""
        found = [card for card, where in self.possible().items() if where == frozenset({MYSTERY})]
        return found[0] if found else None

    def explain(self, card: str, place: str) -> Explanation[Observation]:
        return self.knowledge.explain((card, place))
