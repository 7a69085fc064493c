"""Time Bomb Evolution simulations as data: the matchup ``assist simulate time-bomb`` plays, its summary (the
Sherlock team's win rate, how games ended, false claims) and the log of one game (:mod:`solver.simulate`); and
:func:`role_ranking`, how well the advisor's role beliefs find the Moriarty players (``bench/time_bomb.py``).
Each knowledge-keeping bot's hard knowledge is checked for soundness after every observation."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from models.time_bomb import ENTRY
from models.time_bomb.bots import AdvisorBot, RoleBot, check_spec, make_bot
from models.time_bomb.data import MORIARTY, SHERLOCK
from models.time_bomb.rules import TableRules, TimeBombState, new_game
from solver import view as v
from solver.conformance import ConformanceReport, check_game
from solver.errors import AssistantError
from solver.parallel import Backend, run_jobs
from solver.simulate import GameRecord, Matchup, SimulationSummary, game_seed, play_game, seat_bots


def new_state(rng: random.Random, players: int) -> TimeBombState:
    """A new game of ``players`` dealt from ``rng`` (module level, so worker processes can run it)."""
    return new_game(TableRules(players), rng)


@dataclass(frozen=True)
class TeamFigures:
    """A run's figures: Sherlock's win rate (with its standard error) and how games ended."""

    games: int
    sherlock_wins: int
    explosions: int
    time_outs: int
    mean_rounds: float
    false_claims_moriarty: float
    false_claims_sherlock: float

    @property
    def sherlock_rate(self) -> float:
        return self.sherlock_wins / self.games if self.games else 0.0

    @property
    def stderr(self) -> float:
        p = self.sherlock_rate
        return (p * (1 - p) / self.games) ** 0.5 if self.games else 0.0


def summarize_records(records: Sequence[GameRecord]) -> TeamFigures:
    n = len(records)
    wins = sum(int(r.stats[0]["sherlock_win"]) for r in records)
    booms = sum(int(r.stats[0]["exploded"]) for r in records)
    rounds = sum(r.stats[0]["rounds"] for r in records) / n if n else 0.0
    false_m = [s["claims_false"] for r in records for s in r.stats if s["moriarty"]]
    false_s = [s["claims_false"] for r in records for s in r.stats if not s["moriarty"]]
    return TeamFigures(n, wins, booms, n - wins - booms, rounds,
                       sum(false_m) / len(false_m) if false_m else 0.0,
                       sum(false_s) / len(false_s) if false_s else 0.0)


def matchup(players: int, bots: str, deep_check: bool) -> Matchup:
    """The games to play (raises a one-line :class:`AssistantError` for a bad option)."""
    low, high = ENTRY.players
    if not low <= players <= high:
        raise AssistantError(f"--players {players}: expected {low} to {high}")
    names = seat_bots(bots, players, check_spec, noun="spec")  # each a bot or a SHERLOCK/MORIARTY pair
    return Matchup(functools.partial(new_state, players=players), names, make_bot, deep_check)


def summary(records: Sequence[GameRecord], played: Matchup, options: Mapping[str, Any]) -> SimulationSummary:
    """The Sherlock team's wins with the standard error, explosions, time-outs, rounds and false claims."""
    result = summarize_records(records)
    players = options["players"]
    data = {"game": ENTRY.name, "games": result.games, "seed": options["seed"], "players": players,
            "bots": list(played.bots), "sherlock_wins": result.sherlock_wins,
            "sherlock_win_rate": result.sherlock_rate, "sherlock_win_rate_stderr": result.stderr,
            "explosions": result.explosions, "time_outs": result.time_outs, "mean_rounds": result.mean_rounds,
            "false_claims_per_round_moriarty": result.false_claims_moriarty,
            "false_claims_per_round_sherlock": result.false_claims_sherlock}
    specs = ", ".join(dict.fromkeys(played.bots))
    table = v.Table(title=f"Time Bomb Evolution, {players} players, {result.games} games, bots {specs}", boxed=True)
    for col in ("Sherlock wins", "Win %", "± s.e.", "Explosions", "Time outs", "Mean rounds", "False claims M / S"):
        table.add_column(col, align="right")
    table.add_row(str(result.sherlock_wins), f"{100 * result.sherlock_rate:.1f}", f"{100 * result.stderr:.1f}",
                  str(result.explosions), str(result.time_outs), f"{result.mean_rounds:.2f}",
                  f"{result.false_claims_moriarty:.2f} / {result.false_claims_sherlock:.2f}")
    note = v.Text("False claims are per player and game; every game sound.")
    return SimulationSummary(data, (table, note))


def replay(played: Matchup, seed: int) -> list[v.View]:
    """The log of the game seeded ``seed``: roles, every cut, the result."""
    _record, state = play_game(played, seed)
    assert isinstance(state, TimeBombState)
    roles = ", ".join(f"{s}: {state.roles[s]}" for s in state.seats)
    lines = [f"Game seed {seed}: bots {', '.join(played.bots)}; roles {roles}; removed "
             f"{', '.join(f'{c}{i}' for c, i in state.removed)}"]
    for cut in state.table.cuts:
        extra = " (red extra cut)" if cut.extra else ""
        lines.append(f"  round {cut.round} turn {cut.turn}: player {cut.cutter} cut player {cut.seat}: "
                     f"{cut.card}{extra}")
    lines.append(f"Result: {state.table.winner} wins ({state.table.reason}).")
    return [v.Text(line) for line in lines]


def _role_checks(players: int, spec: str, seed: int) -> tuple[float, float, int]:
    """One game's role-belief score, worked out where the game is played: hits, chance and checks summed over
    its advisor Sherlocks (plain numbers, so a worker process or a cluster sends back three figures, not bots)."""
    created: list[Any] = []

    def recording(name: str, seat: int, rng: Any) -> Any:
        bot = make_bot(name, seat, rng)
        created.append(bot)
        return bot

    played = Matchup(functools.partial(new_state, players=players), (spec,) * players, recording)
    _record, state = play_game(played, seed)
    assert isinstance(state, TimeBombState)
    hits = chance = 0.0
    checks = 0
    for bot in created:
        inner = bot.inner if isinstance(bot, RoleBot) else bot
        if not isinstance(inner, AdvisorBot) or inner.role != SHERLOCK:
            continue
        snapshots = list(inner.role_beliefs)
        if getattr(inner, "last_beliefs", None):
            snapshots.append(inner.last_beliefs)
        others = [s for s in state.seats if s != inner.seat]
        truth = {s for s in others if state.roles[s] == MORIARTY}
        for _round, beliefs in snapshots:
            top = max(beliefs[s] for s in others)
            best = [s for s in others if abs(beliefs[s] - top) < 1e-12]
            hits += sum(1 for s in best if s in truth) / len(best)
            chance += len(truth) / len(others)
            checks += 1
    return hits, chance, checks


def role_ranking(games: int, players: int, seed: int, spec: str = "advisor/bluffing-moriarty",
                 executor: Backend | Executor | int = 1) -> dict[str, float]:
    """How often an advisor Sherlock's top P(Moriarty) is a true Moriarty (ties share), at every redeal and its
    last decision, against chance (the share of Moriarty players among the others), over the games of the run
    seeded ``seed``, played through ``executor`` (see :func:`solver.parallel.run_jobs`)."""
    per_game = run_jobs(functools.partial(_role_checks, players, spec), [game_seed(seed, i) for i in range(games)],
                        executor)
    hits = sum(h for h, _, _ in per_game)
    chance = sum(c for _, c, _ in per_game)
    checks = float(sum(n for _, _, n in per_game))
    return {"checks": checks, "top_is_moriarty": hits / checks if checks else 0.0,
            "chance": chance / checks if checks else 0.0}


def _mixed_bot(seat: int, rng: random.Random) -> Any:
    """Random legal play at odd seats, the knowledge-keeping advisor at even ones (its knowledge is checked)."""
    return make_bot("random" if seat % 2 else "advisor", seat, rng)


def conformance(players: int, games: int, seed: int) -> ConformanceReport:
    """``games`` games of ``players`` checked by :func:`solver.conformance.check_game` (interface, clones, every
    game ends, the advisors' hard knowledge sound after every observation and at the end), random play beside
    knowledge-keeping advisors: what ``tests/test_games.py`` runs for every registered game."""
    return check_game(functools.partial(new_state, players=players), _mixed_bot, games, seed=seed, deep=True)
