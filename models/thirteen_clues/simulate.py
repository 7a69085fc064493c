"""``assist simulate thirteen-clues``: seeded bot-vs-bot games with a summary table per seat and per bot.

The other games' ``assist simulate`` commands live with their game (``simulate_command`` in its module); the
``simulate`` group in :mod:`assistant_cli.main` imports each one only when it runs.

Each game is reproducible from the run's seed and its index (the worker count never changes the results);
every game checks that each knowledge-keeping bot stays sound, and a failure stops the run with the game seed
that replays it (``--replay SEED``).
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from assistant_cli.companion import (
    ClusterOption,
    GamesOption,
    ReplayOption,
    SeedOption,
    SummaryJsonOption,
    WorkersOption,
    run_simulation,
    seat_bots,
    speed_text,
)
from models.thirteen_clues.bots import bot_factory, make_bot
from models.thirteen_clues.rules import TableRules, ThirteenCluesState, new_game
from solver.simulate import Matchup, Row, Summary, play_game, summarize


def _row_json(row: Row) -> dict[str, Any]:
    return {
        "label": row.label,
        "bot": row.bot,
        "seats": list(row.seats),
        "games": row.games,
        "wins": row.wins,
        "win_share": row.win_share,
        "win_share_stderr": row.win_share_stderr,
        "mean_turns_to_win": row.mean_turns_to_win,
        "mean": dict(row.means),
        "total": dict(row.totals),
    }


def _table(title: str, rows: list[Row]) -> Table:
    table = Table(title=title)
    table.add_column("Seat")
    table.add_column("Bot")
    for name in ("Wins", "Win %", "± s.e.", "Turns", "Asks", "Consults", "Wrong acc."):
        table.add_column(name, justify="right")
    for row in rows:
        turns = "-" if row.mean_turns_to_win is None else f"{row.mean_turns_to_win:.1f}"
        table.add_row(
            ",".join(str(s) for s in row.seats),
            row.bot,
            str(row.wins),
            f"{100 * row.win_share:.1f}",
            f"{100 * row.win_share_stderr:.1f}",
            turns,
            f"{row.means.get('questions', 0.0):.1f}",
            f"{row.means.get('consults', 0.0):.1f}",
            f"{row.totals.get('wrong_accusations', 0.0):.0f}",
        )
    return table


def _print_summary(summary: Summary, players: int, elapsed: float, where: str) -> None:
    out = Console()
    out.print(_table(f"Thirteen Clues, {players} players, {summary.games} games: by seat", summary.seats))
    if len(summary.bots) < len(summary.seats):
        out.print(_table("By bot (win share per seat it played)", summary.bots))
    out.print(
        f"Draws (turn limit): {summary.draws}. Turns: the winner's own turns. Asks, consults: mean per seat "
        f"and game. Wrong acc.: total. {speed_text(summary.games, elapsed, where)}."
    )


def thirteen_clues(
    games: GamesOption = 100,
    players: Annotated[int, typer.Option(help="Players at the table.", min=2, max=6)] = 4,
    bots: Annotated[
        str,
        typer.Option(help="Bots seat by seat (seat 1 first), comma-separated, or one name for every seat."),
    ] = "logic",
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    cluster: ClusterOption = None,
    as_json: SummaryJsonOption = False,
    max_rounds: Annotated[
        int, typer.Option(help="Rounds before a game with no winner is a draw.", min=1, max=1000)
    ] = 100,
    glasses: Annotated[
        int | None, typer.Option(help="Magnifying glasses in the game (default: one per player).", min=1, max=12)
    ] = None,
    subcategories: Annotated[bool, typer.Option(help="House rule: questions may name a sub-category.")] = False,
    deep_check: Annotated[
        bool, typer.Option(help="Also ask each bot's own solver that its true mystery is possible at the end.")
    ] = False,
    replay: ReplayOption = None,
) -> None:
    """Simulate Thirteen Clues games between bots (available: random, logic, advisor when installed)."""

    def build() -> Matchup:
        rules = TableRules(players, glasses, max_rounds, subcategories)
        return Matchup(functools.partial(new_game, rules), seat_bots(bots, players, bot_factory), make_bot, deep_check)

    run = run_simulation(
        build, games, seed, workers, replay, _replay,
        f"thirteen-clues --players {players} --bots {bots} --max-rounds {max_rounds}",
        progress=True, soft_wrap=False, cluster=cluster,
    )
    if run is None:
        return
    summary = summarize(run.records, run.matchup.bots)
    if as_json:
        payload = {
            "game": "thirteen-clues",
            "games": summary.games,
            "seed": seed,
            "players": players,
            "bots": list(run.matchup.bots),
            "draws": summary.draws,
            "seats": [_row_json(r) for r in summary.seats],
            "by_bot": [_row_json(r) for r in summary.bots],
        }
        typer.echo(json.dumps(payload, indent=2))
        return
    _print_summary(summary, players, run.elapsed, run.where)


def _replay(matchup: Matchup, seed: int) -> None:
    record, state = play_game(matchup, seed)
    assert isinstance(state, ThirteenCluesState)
    out = Console()
    out.print(f"Game seed {seed}: first player {state.first_player}; bots {', '.join(matchup.bots)}")
    for seat in state.seats:
        screen = " ".join(state.deal.screens[seat])
        private = " ".join(state.deal.private[seat])
        out.print(f"  player {seat} ({matchup.bots[seat - 1]}): mystery {screen}; private {private}")
    if state.deal.informants:
        out.print("  informants: " + ", ".join(f"{k} {v}" for k, v in state.deal.informants.items()))
    for line in state.log:
        out.print(line, highlight=False)
    result = f"player {record.winner} wins" if record.winner else "draw"
    out.print(f"Result: {result} after {state.turn} turns.")

