"""The advisor's fast playouts agree with the rules engine and the greedy bot, move by move."""

from __future__ import annotations

import random

import pytest

from models.evidence.bots import GreedyBot
from models.evidence.data import COLOURS
from models.evidence.observations import Done, Take, UseTimeOut, UseTool
from models.evidence.rollout import Playout
from models.evidence.rules import EXTRA, SEARCH, new_game


@pytest.mark.parametrize(("players", "pro"), [(2, False), (3, True), (4, False), (5, True), (4, True)])
def test_playout_follows_real_greedy_games(players: int, pro: bool) -> None:
    for seed in range(4):
        st = new_game(random.Random(seed), players, pro=pro)
        bots = {s: GreedyBot(s, random.Random(seed * 10 + s)) for s in range(1, players + 1)}
        game = Playout(st.table.clone(), st.evidence, st.hands, st.unknown, 1, st.current_player(), st.phase)
        compared = 0
        while not st.is_terminal():
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
            seat = st.current_player()
            assert game.cur == seat - 1 and game.phase == st.phase and game.round == st.round
            action = bots[seat].step(st.view(seat))
            if st.phase in (SEARCH, EXTRA):
                assert game.greedy_action() == action
                compared += 1
            st.apply(action)
            game.apply(action)
            if st.current_player() != seat or st.is_terminal():
                game.next_turn()
            else:
                game.phase = st.phase
            t = st.table
            assert game.art == [[t.articles[s][c] for c in COLOURS] for s in t.seats]
            assert game.hl == [[c in t.hot[s] for c in COLOURS] for s in t.seats]
            assert game.reg == [t.stacks[c].regular for c in COLOURS]
            assert game.disp_sum == [sum(t.displays[c]) for c in COLOURS]
        scores, winners = game.results()
        assert scores == [st.stats[s]["score"] for s in st.table.seats]
        assert winners == st.winners
        assert compared > 10


def test_playout_runs_to_the_end_from_any_position() -> None:
    rng = random.Random(1)
    for seed in range(20):
        st = new_game(random.Random(seed), 2 + seed % 4, pro=seed % 2 == 0)
        for _ in range(rng.randint(0, 60)):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
        if st.is_terminal():
            continue
        game = Playout(st.table.clone(), st.evidence, st.hands, st.unknown, st.round, st.current_player(), st.phase)
        action = rng.choice(st.legal_actions())
        game.apply(action)
        if isinstance(action, Take | Done | UseTimeOut | UseTool) and game.phase == "end":
            game.next_turn()
        game.run(random.Random(seed))
        scores, winners = game.results()
        assert len(scores) == st.num_players and winners
        assert all(sum(a) <= lim for a, lim in zip(game.art, game.limit, strict=True))
        assert all(not h for h in game.hand) and all(not p for p in game.pile)
