"""Beyond Baker Street simulations as data: the matchup ``assist simulate beyond-baker-street`` plays, its summary
(cooperative: the table wins or loses together) and the log of one game (:mod:`solver.simulate`)."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models.beyond_baker_street import ENTRY
from models.beyond_baker_street.advisor import make_bot
from models.beyond_baker_street.rules import (
    LOSS_KINDS,
    BakerStreetState,
    TableRules,
    new_character_game,
    new_game,
    parse_characters,
)
from solver import view as v
from solver.conformance import ConformanceReport, check_game
from solver.errors import AssistantError
from solver.simulate import GameRecord, Matchup, SimulationSummary, play_game, seat_bots

MEANS = ("turns", "assists", "investigates", "mismatches", "eliminates", "pursues", "dead_leads")


@dataclass(frozen=True)
class TableFigures:
    """A cooperative run's figures: the table's wins, means per game (all seats together) and losses by kind."""

    games: int
    wins: int
    means: dict[str, float]  # per game, summed over the seats
    losses: dict[str, int]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def stderr(self) -> float:
        p = self.win_rate
        return math.sqrt(p * (1 - p) / self.games) if self.games else 0.0


def summarize_records(records: Sequence[GameRecord]) -> TableFigures:
    n = len(records)
    wins = sum(1 for r in records if r.stats[0].get("won", 0.0))
    table_keys = {"won", "holmes", "track", *LOSS_KINDS}
    keys = sorted({k for r in records for st in r.stats for k in st} - table_keys)
    means = {k: sum(st.get(k, 0.0) for r in records for st in r.stats) / n for k in keys} if n else {}
    for k in ("holmes", "track"):
        means[f"{k}_at_end"] = sum(r.stats[0].get(k, 0.0) for r in records) / n if n else 0.0
    losses = {k: int(sum(r.stats[0].get(k, 0.0) for r in records)) for k in LOSS_KINDS}
    return TableFigures(n, wins, means, losses)


def matchup(players: int, case: int, bots: str, characters: str, soundness: float = 1.0,
            check_every: bool = False) -> Matchup:
    """The games to play (raises a one-line :class:`AssistantError` for a bad option). ``soundness`` is the share
    of observations after which each bot's knowledge is checked (``Matchup.soundness``: 1, every one, unless a
    caller samples them, as ``assist simulate`` does by default); ``check_every`` checks every one whatever it
    says. The games and their records do not depend on either."""
    if not 0.0 <= soundness <= 1.0:  # NaN included
        raise AssistantError(f"--soundness {soundness}: expected a share from 0 to 1")
    share = 1.0 if check_every else float(soundness)
    rules = TableRules(players, case)
    names = seat_bots(bots, players, lambda name: make_bot(name, 1, random.Random(0)), counted=False)
    if "hat" in names and set(names) != {"hat"}:
        raise AssistantError(f"--bots '{bots}': hat is a convention the whole table plays; make every seat hat")
    if characters.strip():
        seats = parse_characters(characters, players, rules.data)
        return Matchup(functools.partial(new_character_game, rules, seats), names, make_bot, soundness=share)
    return Matchup(functools.partial(new_game, rules), names, make_bot, soundness=share)


def summary(records: Sequence[GameRecord], played: Matchup, options: Mapping[str, Any]) -> SimulationSummary:
    """The table's wins with the standard error, the means per game and the losses by kind."""
    figures = summarize_records(records)
    players, case, characters = options["players"], options["case"], options["characters"]
    data = {"game": ENTRY.name, "games": figures.games, "seed": options["seed"], "players": players, "case": case,
            "bots": list(played.bots), "characters": characters or None, "wins": figures.wins,
            "win_rate": figures.win_rate, "win_rate_stderr": figures.stderr, "mean_per_game": figures.means,
            "losses": figures.losses}
    chars = f"; characters {characters}" if characters.strip() else ""
    table = v.Table(title=f"Beyond Baker Street, {players} players, Case File {case}, {figures.games} games "
                          f"({', '.join(played.bots)}{chars})", boxed=True)
    for col in ("Wins", "Win %", "s.e.", "Turns", "Assist", "Invest", "Wrong", "Elim", "Pursue", "Dead"):
        table.add_column(col, align="right")
    m = figures.means
    table.add_row(str(figures.wins), f"{100 * figures.win_rate:.1f}", f"{100 * figures.stderr:.1f}",
                  *(f"{m.get(k, 0.0):.1f}" for k in MEANS))
    lost = ", ".join(f"{k.removeprefix('lost_').replace('_', ' ')} {n}" for k, n in figures.losses.items())
    note = v.Text(f"Losses: {lost}. Means are per game, all seats together (Wrong: investigated on the wrong icon; "
                  "Dead: Dead Leads).")
    return SimulationSummary(data, (table, note))


def replay(played: Matchup, seed: int) -> list[v.View]:
    """The log of the game seeded ``seed``: the deal, every action, the result."""
    record, state = play_game(played, seed)
    assert isinstance(state, BakerStreetState)
    chars = f"; characters {', '.join(state.rules.characters)}" if state.rules.characters else ""
    lines = [f"Game seed {seed}: bots {', '.join(played.bots)}; first player {state.first_player}{chars}"]
    for s in state.seats:
        lines.append(f"  player {s} was dealt {' '.join(c.code for c in state.hand_log[s][0])}")
    lines.extend(state.log)
    lines.append(f"Result: {state.board.result} ({state.board.reason}) after {record.actions} actions.")
    return [v.Text(line) for line in lines]


def _mixed_bot(seat: int, rng: random.Random) -> Any:
    """Random legal play at odd seats, the knowledge-keeping advisor at even ones (its knowledge is checked)."""
    return make_bot("random" if seat % 2 else "advisor", seat, rng)


def conformance(players: int, games: int, seed: int) -> ConformanceReport:
    """``games`` games of ``players`` checked by :func:`solver.conformance.check_game` (interface, clones, every
    game ends, the advisors' knowledge sound after every observation and at the end), random play beside
    knowledge-keeping advisors: what ``tests/test_games.py`` runs for every registered game."""
    rules = TableRules(players, 1 + players)
    return check_game(functools.partial(new_game, rules), _mixed_bot, games, seed=seed, deep=True)
