"""Evidence passes the shared conformance checks (interface, clones, observations, knowledge soundness)."""

from __future__ import annotations

import functools

import pytest

from models.evidence.bots import GreedyBot, RandomBot
from models.evidence.rules import new_game
from solver.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("pro", [False, True])
def test_random_games_conform(players: int, pro: bool) -> None:
    report = check_game(functools.partial(new_game, players=players, pro=pro), RandomBot, 2, seed=players, deep=True)
    assert report.games == 2 and report.knowledge_checks > 0 and report.actions > 0


def test_greedy_games_conform() -> None:
    report = check_game(functools.partial(new_game, players=4), GreedyBot, 2, seed=3, deep=False)
    assert report.games == 2
