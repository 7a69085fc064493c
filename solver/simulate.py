"""Bot-vs-bot simulation, game-agnostic (after OpenSpiel's ``evaluate_bots``): play seeded games, check the
bots' knowledge for soundness after every observation, and summarise each seat and each bot.

Reproducibility: game ``i`` of a run with seed ``S`` is played from :func:`game_seed` ``(S, i)`` alone (the
deal from one ``random.Random``, each seat's bot from its own), so results are identical whatever runs them
(this process, local worker processes or a Dask cluster: :mod:`solver.parallel`) and however the games are
chunked, and any single game can be replayed from its game seed.

Soundness: a bot that keeps a knowledge state exposes it as ``bot.knowledge`` (:mod:`solver.bots`); after each
observation it receives, the game's ``State.soundness_failure`` must find the true hidden world still
possible. A failure, or any error in a game, stops the run with a :class:`SimulationError` naming the game seed
that reproduces it. A bulk run may check a sample of the observations instead (``Matchup.soundness``, the share
checked, drawn from the game seed; every knowledge state is then also checked once at the end of the game); the
default, which the tests keep, checks after every one.

This module never imports ``models``: a :class:`Matchup` carries the game's state factory and bot factory,
as module-level functions (or ``functools.partial`` of them) so they can be sent to spawned worker processes.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from solver.bots import Bot, knowledge_of, trust
from solver.errors import AssistantError
from solver.game import State
from solver.parallel import Backend, run_jobs
from solver.view import View


class SimulationError(AssistantError):
    """A simulated game failed (unsound knowledge, illegal bot action, crash); ``seed`` replays it."""

    def __init__(self, message: str, seed: int, index: int | None = None) -> None:
        where = f"game {index} (game seed {seed})" if index is not None else f"game seed {seed}"
        super().__init__(f"{where}: {message}")
        self.seed = seed
        self.index = index
        self.detail = message

    def __reduce__(self) -> tuple[type, tuple[str, int, int | None]]:
        return (SimulationError, (self.detail, self.seed, self.index))


@dataclass(frozen=True)
class Matchup:
    """What to simulate: a fresh game from a random source, and the bot names seat by seat (seat 1 first)."""

    new_state: Callable[[random.Random], State]
    bots: tuple[str, ...]
    make_bot: Callable[[str, int, random.Random], Bot]
    deep_check: bool = False  # also ask each knowledge model's solver at the end of every game
    #: The share of observations after which each bot's knowledge is checked for soundness: 1.0 (the default,
    #: the tests' choice) after every one; less, a random sample (from the game seed, so a run is reproducible),
    #: as bulk simulations may choose (:data:`SAMPLED_SOUNDNESS`), plus one check of every bot at the end.
    soundness: float = 1.0


#: The share of observations a bulk simulation checks for soundness when it samples them (``Matchup.soundness``).
SAMPLED_SOUNDNESS = 0.1


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: ``stats[s - 1]`` are seat ``s``'s counters (``State.player_stats``)."""

    index: int
    seed: int
    winner: int | None
    actions: int
    stats: tuple[Mapping[str, float], ...]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (a hash, so nearby seeds give unrelated games)."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_rng(seed: int, seat: int) -> random.Random:
    """Seat ``seat``'s own random source in the game seeded ``seed``."""
    return random.Random(f"{seed}/seat{seat}")


def _deliver(state: State, bots: Sequence[Bot], names: Sequence[str], seed: int, index: int | None,
             sample: random.Random | None = None, share: float = 1.0) -> None:
    """Every pending observation to its bot, each followed by a soundness check of that bot's knowledge (only
    with probability ``share``, drawn from ``sample``, when one is given)."""
    for seat, bot in enumerate(bots, start=1):
        for obs in state.take_observations(seat):
            try:
                bot.inform(obs)
            except AssistantError as exc:
                message = f"player {seat} ({names[seat - 1]}) rejected '{obs}': {exc}"
                raise SimulationError(message, seed, index) from exc
            if sample is not None and sample.random() >= share:
                continue
            _check(state, bot, seat, seed, index)


def _check(state: State, bot: Bot, seat: int, seed: int, index: int | None) -> None:
    knowledge = knowledge_of(bot)
    if knowledge is not None:
        failure = state.soundness_failure(seat, knowledge)
        if failure:
            raise SimulationError(f"unsound knowledge: {failure}", seed, index)


def play_game(matchup: Matchup, seed: int, index: int | None = None) -> tuple[GameRecord, State]:
    """Play one game from ``seed`` to the end; return its record and final state (for logs)."""
    state = matchup.new_state(random.Random(seed))
    names = matchup.bots
    if len(names) != state.num_players:
        raise AssistantError(f"{len(names)} bots for a {state.num_players}-player game")
    bots = [matchup.make_bot(name, seat, bot_rng(seed, seat)) for seat, name in enumerate(names, start=1)]
    actions = 0
    # the sample has a random source of its own: the game and the bots play the same whatever is checked
    sample = random.Random(f"{seed}/soundness") if matchup.soundness < 1.0 else None
    if sample is not None:  # checked on a sample: the bots' knowledge may trust the engine's observations
        for bot in bots:
            trust(bot)
    deliver = functools.partial(_deliver, state, bots, names, seed, index, sample, matchup.soundness)
    deliver()
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        action = bots[seat - 1].step(state.view(seat))
        try:
            state.apply(action)
        except AssistantError as exc:
            raise SimulationError(f"player {seat} ({names[seat - 1]}) played '{action}': {exc}", seed, index) from exc
        actions += 1
        deliver()
    if sample is not None:  # a sampled run still checks every knowledge state once, as the game ends
        for seat, bot in enumerate(bots, start=1):
            _check(state, bot, seat, seed, index)
    if matchup.deep_check:
        for seat, bot in enumerate(bots, start=1):
            knowledge = knowledge_of(bot)
            failure = None if knowledge is None else state.soundness_failure(seat, knowledge, deep=True)
            if failure:
                raise SimulationError(f"unsound knowledge at the end: {failure}", seed, index)
    stats = tuple(dict(state.player_stats(s)) for s in range(1, state.num_players + 1))
    return GameRecord(index if index is not None else 0, seed, state.winner(), actions, stats), state


def _play_job(matchup: Matchup, job: tuple[int, int]) -> GameRecord:
    """Worker entry point: play game ``index`` from ``seed``; any crash becomes a :class:`SimulationError` naming
    the seed (so it pickles back from a worker process or a cluster with the seed that replays it)."""
    index, seed = job
    try:
        return play_game(matchup, seed, index)[0]
    except SimulationError:
        raise
    except Exception as exc:  # noqa: BLE001 - any crash in a bot or the rules must name its seed
        raise SimulationError(f"{type(exc).__name__}: {exc}", seed, index) from exc


def run_games(
    matchup: Matchup,
    games: int,
    seed: int,
    executor: Backend | Executor | int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play ``games`` games seeded from ``seed``, in index order, through ``executor`` (a backend from
    :func:`solver.parallel.open_backend`, any ``concurrent.futures`` executor, or a count of local worker
    processes); ``progress(n)`` is told each time n more games are done. The records never depend on it."""
    jobs = [(i, game_seed(seed, i)) for i in range(games)]
    return run_jobs(functools.partial(_play_job, matchup), jobs, executor, progress)


def seat_bots(spec: str, players: int, check: Callable[[str], object], noun: str = "name",
              counted: bool = True) -> tuple[str, ...]:
    """``--bots``: one name for every seat, or comma-separated names seat by seat (seat 1 first), each given once
    to ``check``, which raises with the list of known bots. ``noun`` and ``counted`` shape the wrong-count error."""
    names = tuple(n.strip().lower() for n in spec.split(",") if n.strip())
    names = names * players if len(names) == 1 else names
    if len(names) != players:
        got = f" (one per seat), got {len(names)}" if counted else ""
        raise AssistantError(f"--bots '{spec}': expected one {noun} or {players} comma-separated {noun}s{got}")
    for name in dict.fromkeys(names):
        check(name)
    return names


# -- summaries --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationSummary:
    """What every game's simulation reports (``models/<game>/simulate.py`` ``summary``): its figures as
    JSON-ready data (``assist simulate --json``, byte for byte the same on every backend) and the same figures
    as view data for a screen."""

    data: dict[str, Any]
    views: tuple[View, ...]


def row_json(row: Row) -> dict[str, Any]:
    """A seat's or a bot's row as JSON-ready data."""
    return {"label": row.label, "bot": row.bot, "seats": list(row.seats), "games": row.games, "wins": row.wins,
            "win_share": row.win_share, "win_share_stderr": row.win_share_stderr,
            "mean_turns_to_win": row.mean_turns_to_win, "mean": dict(row.means), "total": dict(row.totals)}


@dataclass(frozen=True)
class Row:
    """How one seat, or every seat of one bot together, did over the games.

    ``win_share`` is the share of games won per seat (for a bot in k seats: its wins / (k * games)), with the
    standard error of that mean over independent games. ``means`` are per seat and game.
    """

    label: str
    bot: str
    seats: tuple[int, ...]
    games: int
    wins: int
    win_share: float
    win_share_stderr: float
    mean_turns_to_win: float | None
    means: Mapping[str, float]
    totals: Mapping[str, float]


@dataclass(frozen=True)
class SeatRows:
    """A run's results: one row per seat and one per bot name."""

    games: int
    draws: int
    seats: list[Row] = field(default_factory=list)
    bots: list[Row] = field(default_factory=list)


def _row(label: str, bot: str, seats: tuple[int, ...], records: Sequence[GameRecord], turns_key: str) -> Row:
    n = len(records)
    per_game = [sum(1 for s in seats if r.winner == s) / len(seats) for r in records]
    share = sum(per_game) / n if n else 0.0
    var = sum((x - share) ** 2 for x in per_game) / n if n else 0.0
    wins = sum(1 for r in records if r.winner in seats)
    win_turns = [r.stats[r.winner - 1].get(turns_key, 0.0) for r in records if r.winner in seats]
    keys = sorted({k for r in records for s in seats for k in r.stats[s - 1]})
    totals = {k: float(sum(r.stats[s - 1].get(k, 0.0) for r in records for s in seats)) for k in keys}
    means = {k: v / (n * len(seats)) if n else 0.0 for k, v in totals.items()}
    return Row(
        label,
        bot,
        seats,
        n,
        wins,
        share,
        math.sqrt(var / n) if n else 0.0,
        sum(win_turns) / len(win_turns) if win_turns else None,
        means,
        totals,
    )


def summarize(records: Sequence[GameRecord], bots: Sequence[str], turns_key: str = "turns") -> SeatRows:
    """Rows per seat and per bot name; ``turns_key`` is the stat counting a seat's own turns."""
    seat_rows = [_row(f"seat {s}", name, (s,), records, turns_key) for s, name in enumerate(bots, start=1)]
    names = list(dict.fromkeys(bots))
    bot_rows = [
        _row(name, name, tuple(s for s, b in enumerate(bots, start=1) if b == name), records, turns_key)
        for name in names
    ]
    draws = sum(1 for r in records if r.winner is None)
    return SeatRows(len(records), draws, seat_rows, bot_rows)


def simulate(
    matchup: Matchup,
    games: int,
    seed: int,
    executor: Backend | Executor | int = 1,
    progress: Callable[[int], None] | None = None,
) -> SeatRows:
    """Play and summarise (see :func:`run_games` and :func:`summarize`)."""
    return summarize(run_games(matchup, games, seed, executor, progress), matchup.bots)
