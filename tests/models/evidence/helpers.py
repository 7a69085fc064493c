"""Helpers for the Evidence tests: hand-built tables and a bot-free game driver."""

from __future__ import annotations

import random
from collections import Counter

from models.evidence.data import COLOURS, DEFAULT_DATA, GameData
from models.evidence.knowledge import EvidenceKnowledge, TableSetup
from models.evidence.observations import SETUP_TYPES, Card, Entry
from models.evidence.rules import EvidenceState, Table, new_game


def make_state(
    players: int,
    hands: dict[int, list[Card]],
    evidence: dict[str, int],
    displays: dict[str, list[int]] | None = None,
    unknown: dict[int, list[Card]] | None = None,
    pro: bool = False,
    start: int = 1,
    data: GameData = DEFAULT_DATA,
) -> EvidenceState:
    """A state with a chosen deal (the caller keeps the card totals consistent)."""
    table = Table(players, data, pro, start)
    for colour in COLOURS:
        table.displays[colour] = list((displays or {}).get(colour, []))
    return EvidenceState(table, dict(evidence), {s: list(h) for s, h in hands.items()}, dict(unknown or {}))


def knowledge_for(entries: list[Entry], solver: bool = True) -> EvidenceKnowledge:
    setup = TableSetup()
    kn: EvidenceKnowledge | None = None
    for e in entries:
        if isinstance(e, SETUP_TYPES):
            setup.apply(e)
        else:
            if kn is None:
                kn = EvidenceKnowledge(setup, solver)
            kn.add(e)
    return kn if kn is not None else EvidenceKnowledge(setup, solver)


def random_playout(state: EvidenceState, rng: random.Random, stop_round: int | None = None) -> None:
    """Random legal actions until the end (or until ``stop_round`` begins)."""
    while not state.is_terminal() and (stop_round is None or state.round < stop_round):
        state.apply(rng.choice(state.legal_actions()))


def game(seed: int, players: int, pro: bool = False) -> EvidenceState:
    return new_game(random.Random(seed), players, pro)


def colour_counts(cards: list[Card]) -> Counter[str]:
    return Counter(c for c, _ in cards)
