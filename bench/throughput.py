"""Benchmark: full simulated Thirteen Clues games per second of CPU, by table and player count.

A table is every seat played by the same bot: ``random`` (no knowledge model: the rules engine and loop alone),
``logic`` (every seat keeps the exact knowledge model, so each observation costs one CP-SAT check per seat), and
``advisor`` when :mod:`models.thirteen_clues.advisor` exists (skipped otherwise). Games run with the soundness
check on, exactly as ``assist simulate`` plays them, in this process or through ``--workers`` / ``--cluster``
(each game's CPU time is measured where it is played). Run from the repository root::

    python bench/throughput.py --games 10 --seed 1 --players 2,3,4,5,6 --bots random,logic,advisor
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.thirteen_clues.bots import bot_factory, make_bot  # noqa: E402
from models.thirteen_clues.rules import TableRules, new_game  # noqa: E402
from solver.errors import AssistantError  # noqa: E402
from solver.parallel import Backend, open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402


def timed_game(matchup: Matchup, job: tuple[int, int]) -> tuple[float, int, float, bool]:
    """Worker: play game ``index`` from ``seed``; its CPU seconds, actions, turns and whether it was a draw."""
    index, seed = job
    start = time.process_time()
    record, _ = play_game(matchup, seed, index)
    cpu = time.process_time() - start
    return cpu, record.actions, sum(s.get("turns", 0) for s in record.stats), record.winner is None


def measure(bot: str, players: int, games: int, seed: int, backend: Backend) -> str:
    """One line: games per CPU second and per wall second, ms per game (median CPU), actions and turns per game,
    draws. CPU time is what one core spends on the games; wall time also counts waiting for a busy machine."""
    matchup = Matchup(functools.partial(new_game, TableRules(players)), (bot,) * players, make_bot)
    wall = time.perf_counter()
    played = run_jobs(functools.partial(timed_game, matchup), [(i, game_seed(seed, i)) for i in range(games)], backend)
    wall = time.perf_counter() - wall
    times = [t for t, _, _, _ in played]
    actions = [a for _, a, _, _ in played]
    turns = [n for _, _, n, _ in played]
    draws = sum(d for _, _, _, d in played)
    total = sum(times)
    return (
        f"{bot:8} {players}p  {games / total:8.2f} games/s (CPU; wall {games / wall:7.2f})  "
        f"median {1000 * statistics.median(times):7.0f} ms/game  "
        f"{1000 * total / max(sum(actions), 1):6.1f} ms/action  {statistics.mean(actions):6.1f} actions  "
        f"{statistics.mean(turns):6.1f} turns  {draws} draws"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per table and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    parser.add_argument("--bots", default="random,logic,advisor", help="comma-separated tables to time")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    with open_backend(args.workers, args.cluster) as backend:
        print(f"bench/throughput.py --games {args.games} --seed {args.seed} (on {backend.label}: games per CPU "
              f"second are per core)")
        for bot in args.bots.split(","):
            try:
                bot_factory(bot)
            except AssistantError as exc:
                print(f"{bot:8} skipped: {exc}")
                continue
            for n in players:
                print(measure(bot, n, args.games, args.seed, backend), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
