"""Every game must pass :func:`solver.conformance.check_game`; Thirteen Clues is checked here."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

from models.thirteen_clues.bots import LogicBot, RandomBot
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.observations import Action, Witness
from models.thirteen_clues.rules import TableRules, ThirteenCluesState, new_game
from solver.conformance import ConformanceError, check_game

knowing_random = functools.partial(RandomBot, keep_knowledge=True)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_thirteen_clues_games_conform(players: int) -> None:
    # a short turn limit keeps random games brief; it also exercises the draw
    report = check_game(functools.partial(new_game, TableRules(players, max_rounds=5)), knowing_random, 2, seed=players)
    assert report.games == 2 and report.wins + report.draws == 2
    assert report.knowledge_checks > 0 and report.actions > 0


def test_random_games_with_house_rule_and_a_scarce_supply_conform() -> None:
    rules = TableRules(5, glasses=2, subcategories=True, max_rounds=6)
    report = check_game(functools.partial(new_game, rules), knowing_random, 2, seed=9)
    assert report.games == 2


@pytest.mark.parametrize("players", [3, 6])
def test_logic_games_conform(players: int) -> None:
    report = check_game(functools.partial(new_game, TableRules(players)), LogicBot, 1, seed=1)
    assert report.wins == 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_random_games_conform(players: int) -> None:
    report = check_game(functools.partial(new_game, TableRules(players, max_rounds=20)), knowing_random, 20, seed=100)
    assert report.games == 20


class LeakyCloneState(ThirteenCluesState):
    """A broken engine: its clone shares the glasses with the original."""

    def clone(self) -> ThirteenCluesState:
        twin = super().clone()
        twin.glasses = self.glasses
        return twin


class WrongAnswerState(ThirteenCluesState):
    """A broken engine: every witness answer is one too many."""

    def apply(self, action: Action) -> None:
        super().apply(action)
        for queue in self.queues.values():
            queue[:] = [replace(o, count=o.count + 1) if isinstance(o, Witness) else o for o in queue]


def _broken(cls: type[ThirteenCluesState], rng: random.Random) -> ThirteenCluesState:
    return cls(TableRules(4, max_rounds=5), random_deal(4, rng), 1)


def test_conformance_catches_a_clone_that_shares_state() -> None:
    with pytest.raises(ConformanceError, match="game seed \\d+: applying .* to a clone changed the original"):
        check_game(functools.partial(_broken, LeakyCloneState), knowing_random, 3, seed=0)


def test_conformance_catches_observations_that_contradict_the_truth() -> None:
    with pytest.raises(ConformanceError, match="game seed \\d+: (unsound|player \\d rejected)"):
        check_game(functools.partial(_broken, WrongAnswerState), knowing_random, 3, seed=0)
