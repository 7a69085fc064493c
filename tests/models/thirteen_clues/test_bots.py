"""Thirteen Clues bots (random, logic) and the bot registry."""

from __future__ import annotations

import functools
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from models.thirteen_clues import bots as registry
from models.thirteen_clues.bots import LogicBot, RandomBot, bot_factory, make_bot, register_bot
from models.thirteen_clues.deal import random_deal
from models.thirteen_clues.observations import Accuse, Action, Ask, Consult, InformantLook, TakeGlass, Witness
from models.thirteen_clues.rules import TableRules, TableView, ThirteenCluesState, new_game
from solver.errors import AssistantError
from solver.simulate import Matchup, play_game


def fed(bot: RandomBot | LogicBot, state: ThirteenCluesState) -> None:
    for obs in state.take_observations(bot.seat):
        bot.inform(obs)


# -- registry -------------------------------------------------------------------------------------------------------


def test_registry_builds_the_named_bots_and_names_the_known_ones_on_error() -> None:
    assert isinstance(make_bot("random", 2, random.Random(0)), RandomBot)
    assert isinstance(make_bot("logic", 2, random.Random(0)), LogicBot)
    with pytest.raises(AssistantError, match="unknown bot 'clever': expected one of .*logic.*random"):
        bot_factory("clever")


def test_register_bot_and_lazy_bots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(registry, "BOTS", dict(registry.BOTS))
    monkeypatch.setattr(registry, "LAZY_BOTS", {"late": "late_bot_module", "ghost": "no_such_bot_module"})
    register_bot("again", LogicBot)
    assert bot_factory("again") is LogicBot
    (tmp_path / "late_bot_module.py").write_text(
        "from models.thirteen_clues.bots import RandomBot, register_bot\nregister_bot('late', RandomBot)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "late_bot_module", raising=False)
    assert bot_factory("late") is RandomBot
    with pytest.raises(AssistantError, match="bot 'ghost' is not available"):
        bot_factory("ghost")
    assert "late" in registry.available_bots() and "ghost" not in registry.available_bots()


# -- random ---------------------------------------------------------------------------------------------------------


def test_random_bot_plays_legal_actions_of_every_kind_and_accuses_only_unseen_cards() -> None:
    state = new_game(TableRules(4), random.Random(2), first_player=1)
    bot = RandomBot(1, random.Random(3))
    fed(bot, state)
    view = state.view(1)
    visible = set(state.deal.visible_to(1))
    kinds: Counter[type] = Counter()
    for _ in range(300):
        action = bot.step(view)
        assert action in view.legal_actions
        if isinstance(action, Accuse):
            assert not set(action.cards) & visible
        kinds[type(action)] += 1
    assert set(kinds) == {Ask, Consult, Accuse}
    assert all(60 <= n <= 140 for n in kinds.values()), kinds  # a random kind first, then a random action
    assert bot.knowledge is None


def test_random_bot_can_keep_knowledge_for_soundness_tests() -> None:
    state = new_game(TableRules(3), random.Random(4))
    bot = RandomBot(2, random.Random(0), keep_knowledge=True)
    fed(bot, state)
    assert bot.knowledge is not None and bot.knowledge.me == 2


# -- logic ----------------------------------------------------------------------------------------------------------


class CheckedLogicBot(LogicBot):
    """A logic bot that asks ``solved()`` at every decision, to check that the cheap filter never skips it."""

    decisions: list[tuple[bool, Action]]

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.decisions = []

    def step(self, view: TableView) -> Action:
        action = super().step(view)
        if view.phase != "take":
            assert self.knowledge is not None
            self.decisions.append((self.knowledge.solved(), action))
        return action


def _checked(name: str, seat: int, rng: random.Random) -> CheckedLogicBot:
    del name
    return CheckedLogicBot(seat, rng)


@pytest.mark.parametrize("players", [2, 3])
def test_logic_bot_accuses_exactly_when_solved_and_only_rightly(players: int) -> None:
    bots: list[CheckedLogicBot] = []

    def factory(name: str, seat: int, rng: random.Random) -> CheckedLogicBot:
        bots.append(_checked(name, seat, rng))
        return bots[-1]

    matchup = Matchup(functools.partial(new_game, TableRules(players)), ("logic",) * players, factory)
    record, state = play_game(matchup, seed=players)
    assert record.winner is not None
    for bot in bots:
        assert state.player_stats(bot.seat)["wrong_accusations"] == 0
        for solved, action in bot.decisions:
            assert solved == isinstance(action, Accuse), (solved, action)
        consulted = [a.letter for _, a in bot.decisions if isinstance(a, Consult)]
        assert len(consulted) == len(set(consulted))  # only informants it has not looked at
    winner = bots[record.winner - 1]
    assert winner.decisions[-1][1] == Accuse(*state.deal.screens[record.winner])


def test_logic_bot_takes_a_glass_from_the_player_holding_the_most() -> None:
    view = TableView(2, 4, 2, 9, "take", (1, 0, 3, 0), 0, ("A", "B", "C", "D"), (), (TakeGlass(1), TakeGlass(3)))
    bot = LogicBot(2, random.Random(0))
    assert bot.step(view) == TakeGlass(3)


def test_certain_mystery_is_none_until_the_knowledge_is_solved() -> None:
    state = ThirteenCluesState(TableRules(3), random_deal(3, random.Random(5)), 1)
    bot = LogicBot(1, random.Random(1))
    fed(bot, state)
    assert bot.knowledge is not None
    assert bot.certain_mystery() is None and not bot.knowledge.solved()
    # feed player 1 every informant and every private card count until the mystery is pinned down
    for letter, card in state.deal.informants.items():
        bot.inform(InformantLook(letter, card))
    for seat in (2, 3):
        for subject in TableRules(3).subjects():
            bot.inform(state.deal.answer(seat, subject, 1))
    assert bot.knowledge.solved()
    assert bot.certain_mystery() == state.deal.screens[1]


def test_knowledge_bot_rejects_play_before_setup() -> None:
    bot = LogicBot(1, random.Random(0))
    with pytest.raises(AssistantError, match="before the setup was complete"):
        bot.inform(Witness(2, "Red", 1))
