"""The hat convention: messages, decoding (every class a player reads of their own cards is true, in both
partitions), in which games it is played, conformance, and that it beats the plain advisor where Assists are
scarce."""

from __future__ import annotations

import functools
import random

import pytest

from models.beyond_baker_street.advisor import make_bot
from models.beyond_baker_street.hat import HatBot, in_play, messages
from models.beyond_baker_street.knowledge import CARD_INDEX
from models.beyond_baker_street.rules import TableRules, new_game
from solver.conformance import check_game
from solver.simulate import Matchup, bot_rng, game_seed, run_games


def test_messages_go_round_the_table_from_the_givers_left() -> None:
    assert messages(2, 3) == [(3, "number"), (3, "icon"), (1, "number"), (1, "icon")]
    assert messages(4, 4) == [(1, "number"), (1, "icon"), (2, "number"), (2, "icon")]
    assert messages(4, 4, 6)[4:] == [(3, "number"), (3, "icon")]


def _play(players: int, case: int, index: int, mode: str | None = None) -> tuple[list[HatBot], int, int]:
    """One hat game; the bots at the end, and how many classes they read of their own cards right and wrong."""
    seed = game_seed(7, index)
    state = new_game(TableRules(players, case), random.Random(seed))
    bots = [HatBot(s, bot_rng(seed, s), mode=mode) for s in range(1, players + 1)]
    right = wrong = 0
    while True:
        for seat, bot in enumerate(bots, 1):
            for obs in state.take_observations(seat):
                bot.inform(obs)
            if bot.hand.started:
                for slot, card in zip(bot.hand.hands[seat], state.hands[seat], strict=True):
                    if slot.id in bot.hat.fixed:
                        inside = bool(bot.hat.fixed[slot.id] >> CARD_INDEX[card] & 1)
                        right += inside
                        wrong += not inside
        if state.is_terminal():
            return bots, right, wrong
        seat = state.current_player()
        assert seat is not None
        state.apply(bots[seat - 1].step(state.view(seat)))


@pytest.mark.parametrize(("players", "case", "mode"),
                         [(3, 5, None), (4, 6, None), (3, 3, None), (4, 5, "icon"), (3, 6, "fine"), (3, 4, "use"),
                          (4, 5, "mid")])
def test_every_class_read_from_a_hat_message_is_true(players: int, case: int, mode: str | None) -> None:
    right = wrong = 0
    for index in range(3):
        _, r, w = _play(players, case, index, mode)
        right, wrong = right + r, wrong + w
    assert wrong == 0
    assert right > 10


def test_the_convention_is_off_with_two_players_and_in_easy_cases() -> None:
    for players, case, expected in [(2, 6, False), (3, 1, False), (4, 2, False), (3, 3, True), (4, 6, True)]:
        bots, right, _ = _play(players, case, 0)
        assert in_play(bots[0].hand) is expected
        assert (right > 0) is expected


def test_conformance() -> None:
    new_state = functools.partial(new_game, TableRules(3, 5))
    report = check_game(new_state, functools.partial(make_bot, "hat"), games=2, seed=5)
    assert report.knowledge_checks > 0 and report.actions > 0


def _wins(bot: str, players: int, case: int, games: int) -> float:
    matchup = Matchup(functools.partial(new_game, TableRules(players, case)), (bot,) * players, make_bot)
    return sum(r.stats[0]["won"] for r in run_games(matchup, games, seed=2024, executor=1))


def test_hat_beats_the_plain_advisor_on_a_small_seeded_sample() -> None:
    assert _wins("hat", 4, 4, 16) > _wins("advisor", 4, 4, 16)


@pytest.mark.slow
def test_hat_wins_hard_cases() -> None:
    hat = _wins("hat", 3, 5, 200)
    assert hat >= 10 and hat > _wins("advisor", 3, 5, 200)


@pytest.mark.parametrize("players", [3, 4])
def test_the_use_partition_is_public_and_splits_the_cards_in_play(players: int) -> None:
    """Every player computes the same classes (they depend only on the board and the cards still in play), the
    classes are disjoint and cover exactly the cards still in play, and there are 6 (the table's default: ``mid``
    with 3 players, ``use`` with 4), each with a label."""
    seed = game_seed(3, 0)
    state = new_game(TableRules(players, 5), random.Random(seed))
    bots = [HatBot(s, bot_rng(seed, s)) for s in range(1, players + 1)]
    checked = 0
    while not state.is_terminal():
        for seat, bot in enumerate(bots, 1):
            for obs in state.take_observations(seat):
                bot.inform(obs)
        parts = [bot.hat.classes(bot.hand) for bot in bots]
        classes, live = parts[0]
        assert all(p == parts[0] for p in parts)
        assert len(classes) == 6
        assert all(bots[0].hat.label(bots[0].hand, k) for k, c in enumerate(classes) if c)
        assert sum(bin(c).count("1") for c in classes) == bin(live).count("1")
        union = 0
        for c in classes:
            union |= c
        assert union == live
        checked += 1
        if state.is_terminal():
            break
        seat = state.current_player()
        assert seat is not None
        state.apply(bots[seat - 1].step(state.view(seat)))
    assert checked > 5
