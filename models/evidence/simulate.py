"""Evidence simulations as data: the matchup ``assist simulate evidence`` plays, its summary per seat and per
bot, and the log of one game (:mod:`solver.simulate`). Every bot's knowledge is checked for soundness after
every event."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from models.evidence import ENTRY
from models.evidence.bots import bot_factory, make_bot
from models.evidence.rules import EvidenceState, new_game
from solver import view as v
from solver.conformance import ConformanceReport, check_game
from solver.errors import AssistantError
from solver.simulate import GameRecord, Matchup, Row, SimulationSummary, play_game, row_json, seat_bots, summarize

COLUMNS = ("Wins", "Win %", "±", "Score", "Cards", "HL", "T-outs", "Tools")


def matchup(players: int, bots: str, variant: str, deep_check: bool) -> Matchup:
    """The games to play (raises a one-line :class:`AssistantError` for a bad option)."""
    if variant not in ("basic", "pro"):
        raise AssistantError(f"--variant '{variant}': expected basic or pro")
    low, high = ENTRY.players
    if not low <= players <= high:
        raise AssistantError(f"--players {players}: expected {low} to {high}")
    names = seat_bots(bots, players, bot_factory)
    return Matchup(functools.partial(new_game, players=players, pro=variant == "pro"), names, make_bot, deep_check)


def _table(title: str, rows: list[Row]) -> v.Table:
    table = v.Table(title=title, boxed=True)
    table.add_column("Seat")
    table.add_column("Bot")
    for name in COLUMNS:
        table.add_column(name, align="right")
    for row in rows:
        m = row.means
        table.add_row(",".join(str(s) for s in row.seats), row.bot, str(row.wins), f"{100 * row.win_share:.1f}",
                      f"{100 * row.win_share_stderr:.1f}", f"{m.get('score', 0):.2f}", f"{m.get('articles', 0):.2f}",
                      f"{m.get('hot_leads', 0):.2f}", f"{m.get('timeouts', 0):.2f}", f"{m.get('tools', 0):.2f}")
    return table


def summary(records: Sequence[GameRecord], played: Matchup, options: Mapping[str, Any]) -> SimulationSummary:
    """Per seat and per bot: wins, win share with its standard error, and the means of a game."""
    rows = summarize(records, played.bots)
    players, variant = options["players"], options["variant"]
    data = {"game": ENTRY.name, "games": rows.games, "seed": options["seed"], "players": players,
            "variant": variant, "bots": list(played.bots), "shared_victories": rows.draws,
            "seats": [row_json(r) for r in rows.seats], "by_bot": [row_json(r) for r in rows.bots]}
    views: list[v.View] = [_table(f"Evidence ({variant}), {players} players, {rows.games} games: by seat", rows.seats)]
    if len(rows.bots) < len(rows.seats):
        views.append(_table("By bot (win share per seat it played)", rows.bots))
    views.append(v.Text(f"Shared victories (no single winner): {rows.draws}. ± is the standard error of the win "
                        "share. Means per seat and game: final score, search cards, Hot Leads, time-outs, tools."))
    return SimulationSummary(data, tuple(views))


def replay(played: Matchup, seed: int) -> list[v.View]:
    """The log of the game seeded ``seed``: the deal, every action, the result."""
    record, state = play_game(played, seed)
    assert isinstance(state, EvidenceState)
    t = state.table
    lines = [f"Game seed {seed}: bots {', '.join(played.bots)}; start player {t.start}; "
             f"{'pro' if t.pro else 'basic'} variant",
             "  evidence: " + ", ".join(f"{c} {val}" for c, val in state.evidence.items()),
             "  setup rumours: " + (", ".join(f"{c} {val}" for c, val in state.setup_cards) or "none")]
    for s in t.seats:
        hand = " ".join(f"{c} {val}" for c, val in state.initial_hands[s])
        pile = " ".join(f"{c} {val}" for c, val in state.initial_unknown.get(s, ()))
        lines.append(f"  player {s} ({played.bots[s - 1]}): {hand}" + (f"; unknown {pile}" if pile else ""))
    lines.extend(state.log)
    result = f"player {record.winner} wins" if record.winner else f"shared victory {state.winners}"
    lines.append(f"Result: {result}.")
    return [v.Text(line) for line in lines]


def conformance(players: int, games: int, seed: int) -> ConformanceReport:
    """``games`` random legal games of ``players`` checked by :func:`solver.conformance.check_game` (interface,
    clones, every game ends, every bot's knowledge sound after every observation and by its solver at the end):
    what ``tests/test_games.py`` runs for every registered game."""
    from models.evidence.bots import RandomBot

    return check_game(functools.partial(new_game, players=players), RandomBot, games, seed=seed, deep=True)
