"""Bots: the shared conformance checks (interface, clones, observations, soundness), claims, role pairs."""

from __future__ import annotations

import functools
import random

import pytest

from models.time_bomb.bots import BOTS, AdvisorBot, BluffingMoriartyBot, RoleBot, check_spec, make_bot
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.rules import TableRules, TimeBombState, new_game
from solver.conformance import check_game
from solver.errors import AssistantError
from solver.simulate import Matchup, play_game


def _new(rng: random.Random, players: int) -> TimeBombState:
    return new_game(TableRules(players), rng)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_games_conform(players: int) -> None:
    report = check_game(functools.partial(_new, players=players), functools.partial(make_bot, "random"), 2,
                        seed=players, deep=False)
    assert report.games == 2 and report.actions > 0


def test_advisor_games_conform_with_deep_soundness() -> None:
    report = check_game(functools.partial(_new, players=5),
                        functools.partial(make_bot, "advisor/bluffing-moriarty"), 1, seed=2, deep=True)
    assert report.knowledge_checks > 0


@pytest.mark.parametrize("spec", [*BOTS, "honest-sherlock/bluffing-moriarty", "advisor/advisor"])
def test_every_bot_plays_legal_games(spec: str) -> None:
    matchup = Matchup(functools.partial(_new, players=5), (spec,) * 5, make_bot)
    for seed in range(2):
        record, state = play_game(matchup, seed)
        assert state.is_terminal() and record.stats[0]["sherlock_win"] in (0, 1)


def test_role_pairs_play_the_dealt_role() -> None:
    state = TimeBombState(TableRules(5), random.Random(4))
    bots = {s: make_bot("advisor/bluffing-moriarty", s, random.Random(s)) for s in state.seats}
    for s, bot in bots.items():
        for obs in state.take_observations(s):
            bot.inform(obs)
        assert isinstance(bot, RoleBot)
        want = AdvisorBot if state.roles[s] == SHERLOCK else BluffingMoriartyBot
        assert isinstance(bot.inner, want)
        assert (bot.knowledge is not None) == (state.roles[s] == SHERLOCK)


def test_claims_honest_and_bluffing() -> None:
    lies = {SHERLOCK: 0, MORIARTY: 0}
    claims = {SHERLOCK: 0, MORIARTY: 0}
    matchup = Matchup(functools.partial(_new, players=5), ("honest-sherlock/bluffing-moriarty",) * 5, make_bot)
    for seed in range(30):
        record, state = play_game(matchup, seed)
        for s in state.seats:
            role = state.roles[s]
            lies[role] += record.stats[s - 1]["claims_false"]
            claims[role] += state.table.round
    assert lies[SHERLOCK] == 0
    assert 0.3 < lies[MORIARTY] / claims[MORIARTY] < 0.7  # the bluff rate is 0.5


def test_specs() -> None:
    check_spec("advisor/random")
    with pytest.raises(AssistantError, match="unknown bot 'smart'"):
        check_spec("smart")
    with pytest.raises(AssistantError, match="expected NAME or SHERLOCK_BOT/MORIARTY_BOT"):
        check_spec("random/random/random")


def test_advisor_records_role_beliefs() -> None:
    created = []

    def recording(name, seat, rng):
        bot = make_bot(name, seat, rng)
        created.append(bot)
        return bot

    matchup = Matchup(functools.partial(_new, players=5), ("advisor",) * 5, recording)
    _record, state = play_game(matchup, 1)
    assert all(isinstance(b, AdvisorBot) for b in created)
    assert any(b.role_beliefs or getattr(b, "last_beliefs", None) for b in created)
    for b in created:
        assert b.knowledge is not None and b.knowledge.my_hand()[DEFUSE] >= 0
