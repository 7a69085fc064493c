"""Toy Cards simulations as data (:mod:`solver.simulate`): the matchup, its summary, one game's log, and the
conformance games every registered game provides."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from solver import view as v
from solver.conformance import ConformanceReport, check_game
from solver.errors import AssistantError
from solver.simulate import GameRecord, Matchup, SimulationSummary, play_game, seat_bots
from tests.toy_game import ENTRY
from tests.toy_game.bots import check_bot, make_bot
from tests.toy_game.rules import ToyState, new_game


def matchup(players: int, bots: str) -> Matchup:
    low, high = ENTRY.players
    if not low <= players <= high:
        raise AssistantError(f"--players {players}: expected {low} to {high}")
    return Matchup(functools.partial(new_game, players=players), seat_bots(bots, players, check_bot), make_bot)


def summary(records: Sequence[GameRecord], played: Matchup, options: Mapping[str, Any]) -> SimulationSummary:
    """Wins per seat and draws."""
    wins = [sum(1 for r in records if r.winner == seat) for seat in range(1, len(played.bots) + 1)]
    draws = sum(1 for r in records if r.winner is None)
    data = {"game": ENTRY.name, "games": len(records), "seed": options["seed"], "bots": list(played.bots),
            "wins": wins, "draws": draws}
    table = v.Table(title=f"Toy Cards, {len(records)} games", boxed=True)
    table.add_column("Seat")
    table.add_column("Wins", align="right")
    for seat, n in enumerate(wins, 1):
        table.add_row(str(seat), str(n))
    return SimulationSummary(data, (table, v.Text(f"{draws} draws; every game sound.")))


def replay(played: Matchup, seed: int) -> list[v.View]:
    record, state = play_game(played, seed)
    assert isinstance(state, ToyState)
    deal = ", ".join(f"{seat}: {card}" for seat, card in state.deal.items())
    return [v.Text(f"Game seed {seed}: deal {deal}; mystery {state.mystery}; {record.actions} actions; winner "
                   f"{record.winner}")]


def conformance(players: int, games: int, seed: int) -> ConformanceReport:
    """Random games checked by :func:`solver.conformance.check_game`, every bot's knowledge included."""
    return check_game(functools.partial(new_game, players=players), functools.partial(make_bot, "random"), games,
                      seed=seed, deep=True)
