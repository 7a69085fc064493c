"""Thirteen Clues simulations as data: the matchup ``assist simulate thirteen-clues`` plays, its summary and the
log of one game (:mod:`solver.simulate`; the command line only draws them).

Each game is reproducible from the run's seed and its index (the worker count never changes the results);
every game checks that each knowledge-keeping bot stays sound, and a failure stops the run with the game seed
that replays it (``--replay SEED``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from models.thirteen_clues import ENTRY
from models.thirteen_clues.bots import bot_factory, make_bot
from models.thirteen_clues.rules import TableRules, ThirteenCluesState, new_game
from solver import view as v
from solver.conformance import ConformanceReport, check_game
from solver.simulate import GameRecord, Matchup, Row, SimulationSummary, play_game, row_json, seat_bots, summarize

COLUMNS = ("Wins", "Win %", "± s.e.", "Turns", "Asks", "Consults", "Wrong acc.")


def matchup(players: int, bots: str, max_rounds: int, glasses: int | None, subcategories: bool,
            deep_check: bool) -> Matchup:
    """The games to play (raises a one-line :class:`AssistantError` for a bad option)."""
    rules = TableRules(players, glasses, max_rounds, subcategories)
    return Matchup(functools.partial(new_game, rules), seat_bots(bots, players, bot_factory), make_bot, deep_check)


def _table(title: str, rows: list[Row]) -> v.Table:
    table = v.Table(title=title, boxed=True)
    table.add_column("Seat")
    table.add_column("Bot")
    for name in COLUMNS:
        table.add_column(name, align="right")
    for row in rows:
        turns = "-" if row.mean_turns_to_win is None else f"{row.mean_turns_to_win:.1f}"
        table.add_row(",".join(str(s) for s in row.seats), row.bot, str(row.wins), f"{100 * row.win_share:.1f}",
                      f"{100 * row.win_share_stderr:.1f}", turns, f"{row.means.get('questions', 0.0):.1f}",
                      f"{row.means.get('consults', 0.0):.1f}", f"{row.totals.get('wrong_accusations', 0.0):.0f}")
    return table


def summary(records: Sequence[GameRecord], played: Matchup, options: Mapping[str, Any]) -> SimulationSummary:
    """Per seat and per bot: wins, win share with its standard error, turns to win, questions, consults."""
    rows = summarize(records, played.bots)
    data = {"game": ENTRY.name, "games": rows.games, "seed": options["seed"], "players": options["players"],
            "bots": list(played.bots), "draws": rows.draws, "seats": [row_json(r) for r in rows.seats],
            "by_bot": [row_json(r) for r in rows.bots]}
    views: list[v.View] = [_table(f"Thirteen Clues, {options['players']} players, {rows.games} games: by seat",
                                  rows.seats)]
    if len(rows.bots) < len(rows.seats):
        views.append(_table("By bot (win share per seat it played)", rows.bots))
    views.append(v.Text(f"Draws (turn limit): {rows.draws}. Turns: the winner's own turns. Asks, consults: mean "
                        "per seat and game. Wrong acc.: total."))
    return SimulationSummary(data, tuple(views))


def replay(played: Matchup, seed: int) -> list[v.View]:
    """The log of the game seeded ``seed``: the deal, every action, the result."""
    record, state = play_game(played, seed)
    assert isinstance(state, ThirteenCluesState)
    lines = [f"Game seed {seed}: first player {state.first_player}; bots {', '.join(played.bots)}"]
    for seat in state.seats:
        screen = " ".join(state.deal.screens[seat])
        private = " ".join(state.deal.private[seat])
        lines.append(f"  player {seat} ({played.bots[seat - 1]}): mystery {screen}; private {private}")
    if state.deal.informants:
        lines.append("  informants: " + ", ".join(f"{k} {val}" for k, val in state.deal.informants.items()))
    lines.extend(state.log)
    result = f"player {record.winner} wins" if record.winner else "draw"
    lines.append(f"Result: {result} after {state.turn} turns.")
    return [v.Text(line) for line in lines]


def conformance(players: int, games: int, seed: int) -> ConformanceReport:
    """``games`` random legal games of ``players`` checked by :func:`solver.conformance.check_game` (interface,
    clones, every game ends, every bot's knowledge sound after every observation and by its solver at the end):
    what ``tests/test_games.py`` runs for every registered game. Short turn limits keep them brief (and reach
    the draw too)."""
    from models.thirteen_clues.bots import RandomBot

    rules = TableRules(players, max_rounds=5)
    return check_game(functools.partial(new_game, rules), functools.partial(RandomBot, keep_knowledge=True), games,
                      seed=seed, deep=True)
