"""Time Bomb Evolution figures: Sherlock's win rate by bot and player count, role-belief ranking, timings.

    python bench/time_bomb.py --games 2000 --players 5 --workers 2        # the issue's target (5 players)
    python bench/time_bomb.py --games 500 --players 4 5 6 --roles 200     # the table for 4 to 6 players
    python bench/time_bomb.py --games 2000 --cluster tcp://scheduler:8786 # on a Dask cluster (or local:N)
    python bench/time_bomb.py --games 400 --players 4 5 6 --sherlocks advisor random --moriarty-table
    python bench/time_bomb.py --games 400 --players 4 --sherlocks advisor random --moriarty-table --seeds 2026 11 7

For each player count it plays the same seeded games (``solver.simulate.run_games``: every game reproducible
from the run seed and its index, every advisor's hard knowledge checked for soundness after every observation)
with Sherlock played by ``advisor``, ``honest-sherlock`` and ``random``, Moriarty always ``bluffing-moriarty``,
and prints Sherlock's win rate with its standard error. ``--roles N`` also scores the advisor Sherlocks' role
beliefs on N games: how often the player they rank most likely Moriarty is one, against chance.
``--moriarty-table`` also plays the Moriarty side: Sherlock always ``advisor``, Moriarty ``advisor-moriarty``
against ``random`` on the same seeded games, and prints Moriarty's win rate and the gap. ``--seeds A B ...``
plays ``--games`` games from each run seed and pools them per cell: at 4 players one seed's 400 games move the
advisor-random gap by several points (docs/time-bomb.md), so a target is judged on several seeds.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.time_bomb.bots import make_bot  # noqa: E402
from models.time_bomb.simulate import new_state as _new_state  # noqa: E402
from models.time_bomb.simulate import role_ranking, summarize_records
from solver.parallel import Backend, open_backend  # noqa: E402
from solver.simulate import GameRecord, Matchup, run_games  # noqa: E402

SHERLOCKS = ("advisor", "honest-sherlock", "random")
MORIARTY = "bluffing-moriarty"
MORIARTIES = ("advisor-moriarty", "random")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[5])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seeds", type=int, nargs="+", default=None,
                        help="pool --games games from each of these seeds per cell (instead of --seed)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--roles", type=int, default=0, help="games for the role-ranking figure (0: skip)")
    parser.add_argument("--sherlocks", nargs="+", default=list(SHERLOCKS))
    parser.add_argument("--moriarty-table", action="store_true", help="also the Moriarty advisor's table")
    args = parser.parse_args()
    with open_backend(args.workers, args.cluster) as backend:  # the same workers for every cell
        report(args, backend)


def _seeds(args: argparse.Namespace) -> list[int]:
    """The run seeds of every cell: ``--seeds`` if given, else ``--seed``."""
    return list(args.seeds) if args.seeds else [args.seed]


def _play(matchup: Matchup, args: argparse.Namespace, backend: Backend) -> list[GameRecord]:
    """``--games`` games from each run seed, pooled (one seed's games are a gap's luck: see docs/time-bomb.md)."""
    return [r for seed in _seeds(args) for r in run_games(matchup, args.games, seed, backend)]


def report(args: argparse.Namespace, backend: Backend) -> None:
    """The win-rate table and the role-ranking table, every game played through ``backend``."""
    seeds = " ".join(map(str, _seeds(args)))
    games = args.games * len(_seeds(args))
    print(f"Sherlock win rate against {MORIARTY}, {games} games per cell, seeds {seeds}, on {backend.label}")
    print("| players | Sherlock bot | Sherlock wins | win rate | ± s.e. | explosions | time-outs | s/game |")
    print("|---|---|---|---|---|---|---|---|")
    rates: dict[tuple[int, str], float] = {}
    for players in args.players:
        for sherlock in args.sherlocks:
            spec = f"{sherlock}/{MORIARTY}"
            matchup = Matchup(functools.partial(_new_state, players=players), (spec,) * players, make_bot)
            start = time.perf_counter()
            result = summarize_records(_play(matchup, args, backend))
            per_game = (time.perf_counter() - start) / result.games
            rates[(players, sherlock)] = result.sherlock_rate
            print(f"| {players} | {sherlock} | {result.sherlock_wins} | {100 * result.sherlock_rate:.1f}% | "
                  f"{100 * result.stderr:.1f} | {result.explosions} | {result.time_outs} | {per_game:.3f} |",
                  flush=True)
        if ("advisor" in args.sherlocks) and ("random" in args.sherlocks):
            gap = rates[(players, "advisor")] - rates[(players, "random")]
            print(f"|  | advisor - random | | {100 * gap:+.1f} points | | | | |", flush=True)
    if args.moriarty_table:
        moriarty_report(args, backend)
    if args.roles:
        print()
        print(f"Role beliefs of advisor Sherlocks ({args.roles} games, at each redeal and last decision)")
        print("| players | checks | top-ranked is Moriarty | chance |")
        print("|---|---|---|---|")
        for players in args.players:
            r = role_ranking(args.roles, players, args.seed, executor=backend)
            print(f"| {players} | {r['checks']:.0f} | {100 * r['top_is_moriarty']:.1f}% | {100 * r['chance']:.1f}% |",
                  flush=True)


def moriarty_report(args: argparse.Namespace, backend: Backend) -> None:
    """Moriarty's win rate with ``advisor-moriarty`` and with ``random`` against advisor Sherlocks."""
    print()
    seeds = " ".join(map(str, _seeds(args)))
    print(f"Moriarty win rate against advisor Sherlocks, {args.games * len(_seeds(args))} games per cell, "
          f"seeds {seeds}")
    print("| players | Moriarty bot | Moriarty wins | win rate | ± s.e. | explosions | time-outs | s/game |")
    print("|---|---|---|---|---|---|---|---|")
    for players in args.players:
        rates = {}
        for moriarty in MORIARTIES:
            spec = f"advisor/{moriarty}"
            matchup = Matchup(functools.partial(_new_state, players=players), (spec,) * players, make_bot)
            start = time.perf_counter()
            result = summarize_records(_play(matchup, args, backend))
            per_game = (time.perf_counter() - start) / result.games
            wins = result.games - result.sherlock_wins
            rates[moriarty] = wins / result.games
            print(f"| {players} | {moriarty} | {wins} | {100 * rates[moriarty]:.1f}% | {100 * result.stderr:.1f} | "
                  f"{result.explosions} | {result.time_outs} | {per_game:.3f} |", flush=True)
        gap = rates["advisor-moriarty"] - rates["random"]
        print(f"|  | advisor-moriarty - random | | {100 * gap:+.1f} points | | | | |", flush=True)


if __name__ == "__main__":
    main()
