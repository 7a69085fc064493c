"""Advisor speed: the current advisor against the one before the speed work, on the same seeds in the same run.

Each game index is played twice in the same job, once by a table of the old bots and once by a table of the new
ones (alternating which goes first), each timed in CPU seconds where it is played, with the simulation's
soundness checks on, exactly as ``assist simulate`` plays it. A third, untimed pass plays the new table while
the old bot of each seat, fed the same observations, says what it would play: the share of identical decisions.
Prints CPU seconds per game old and new, the ratio (old / new: how many times more games per CPU-second), the
win shares ± standard error, and the identical decisions. Run from the repository root::

    python bench/speed.py --game beyond-baker-street --games 200 --players 3 --case 1 --workers 2

The old implementation is kept for this bench only, under ``bench/_baseline_bbs/`` (a frozen copy of the
advisor, the hat convention and the exact counts as they were on main at 441bccc). Each game's part is its own
function (``beyond_baker_street``), so other games' comparisons sit beside it.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from solver.parallel import Backend, open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, bot_rng, game_seed, play_game  # noqa: E402


@dataclass(frozen=True)
class Pair:
    """One game index played by the old and the new table: CPU seconds, win, and the shadow pass's counts."""

    cpu_old: float
    cpu_new: float
    won_old: bool
    won_new: bool
    decisions: int
    same: int


@dataclass(frozen=True)
class Comparison:
    """The figures a game's comparison prints (see :func:`report`)."""

    label: str
    pairs: list[Pair]


def _share(wins: int, games: int) -> tuple[float, float]:
    p = wins / games if games else 0.0
    return p, math.sqrt(p * (1 - p) / games) if games else 0.0


def report(comparison: Comparison) -> str:
    """CPU s/game old/new, the ratio, win shares ± s.e. old/new, identical decisions."""
    pairs = comparison.pairs
    n = len(pairs)
    old = sum(p.cpu_old for p in pairs)
    new = sum(p.cpu_new for p in pairs)
    w_old, e_old = _share(sum(p.won_old for p in pairs), n)
    w_new, e_new = _share(sum(p.won_new for p in pairs), n)
    decisions = sum(p.decisions for p in pairs)
    same = sum(p.same for p in pairs)
    return "\n".join([
        f"{comparison.label}: {n} games, each played by the old and the new table",
        f"  CPU s/game   old {old / n:.4f}   new {new / n:.4f}   ratio {old / new:.2f}x "
        f"({n / old:.1f} -> {n / new:.1f} games per CPU-second)",
        f"  win share    old {100 * w_old:.1f}% ± {100 * e_old:.1f}   new {100 * w_new:.1f}% ± {100 * e_new:.1f}",
        f"  identical decisions: {same} of {decisions} ({100 * same / max(decisions, 1):.2f}%)",
    ])


# -- Beyond Baker Street ---------------------------------------------------------------------------------------

_WARM: set[tuple[Any, ...]] = set()  # per process: the tables already warmed up (imports, first caches)


def _bbs_makers() -> tuple[Callable[..., Any], Callable[..., Any]]:
    from bench._baseline_bbs.advisor import make_bot as old_make
    from models.beyond_baker_street.advisor import make_bot as new_make

    return old_make, new_make


def _bbs_shadow(players: int, case: int, bot: str, seed: int) -> tuple[int, int]:
    """Play the new table from ``seed``; at each turn ask the old bot of that seat (fed the same observations)
    what it would play. Returns (decisions, identical ones)."""
    from models.beyond_baker_street.rules import TableRules, new_game

    old_make, new_make = _bbs_makers()
    state = new_game(TableRules(players, case), random.Random(seed))
    new = [new_make(bot, s, bot_rng(seed, s)) for s in range(1, players + 1)]
    old = [old_make(bot, s, bot_rng(seed, s)) for s in range(1, players + 1)]

    def deliver() -> None:
        for s in range(1, players + 1):
            for obs in state.take_observations(s):
                new[s - 1].inform(obs)
                old[s - 1].inform(obs)

    deliver()
    decisions = same = 0
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        view = state.view(seat)
        action = new[seat - 1].step(view)
        decisions += 1
        same += action == old[seat - 1].step(view)
        state.apply(action)
        deliver()
    return decisions, same


def _bbs_job(players: int, case: int, bot: str, shadow: bool, job: tuple[int, int]) -> Pair:
    """Worker: game ``index`` from ``seed`` by the old and the new table (alternating which goes first)."""
    from models.beyond_baker_street.rules import TableRules, new_game

    index, seed = job
    old_make, new_make = _bbs_makers()
    state = functools.partial(new_game, TableRules(players, case))
    tables = {"old": Matchup(state, (bot,) * players, old_make), "new": Matchup(state, (bot,) * players, new_make)}
    key = (players, case, bot)
    if key not in _WARM:  # one untimed game of each first, so neither pays the first imports and caches
        for matchup in tables.values():
            play_game(matchup, game_seed(-1, index))
        _WARM.add(key)
    cpu: dict[str, float] = {}
    won: dict[str, bool] = {}
    for name in ("old", "new") if index % 2 == 0 else ("new", "old"):
        start = time.process_time()
        record, _ = play_game(tables[name], seed, index)
        cpu[name] = time.process_time() - start
        won[name] = bool(record.stats[0].get("won", 0.0))
    decisions, same = _bbs_shadow(players, case, bot, seed) if shadow else (0, 0)
    return Pair(cpu["old"], cpu["new"], won["old"], won["new"], decisions, same)


def beyond_baker_street(args: argparse.Namespace, backend: Backend) -> list[Comparison]:
    """Beyond Baker Street: one comparison per player count and Case File asked (default 3 players, Case
    File 1, the advisor table: issue 12's target is at least 3x games per CPU-second there)."""
    out = []
    for players in args.players:
        for case in args.cases:
            job = functools.partial(_bbs_job, players, case, args.bots, not args.no_shadow)
            jobs = [(i, game_seed(args.seed, i)) for i in range(args.games)]
            pairs = run_jobs(job, jobs, backend)
            out.append(Comparison(f"beyond-baker-street, {args.bots} table, {players} players, Case File {case}",
                                  pairs))
    return out


GAMES: dict[str, Callable[[argparse.Namespace, Backend], list[Comparison]]] = {
    "beyond-baker-street": beyond_baker_street,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--games", type=int, default=100, help="game indexes, each played by old and new")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=lambda s: [int(x) for x in s.split(",")], default=[3])
    parser.add_argument("--cases", "--case", type=lambda s: [int(x) for x in s.split(",")], default=[1])
    parser.add_argument("--bots", default="advisor", help="the table: advisor or hat (Beyond Baker Street)")
    parser.add_argument("--no-shadow", action="store_true", help="skip the identical-decisions pass")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    args = parser.parse_args(argv)
    with open_backend(args.workers, args.cluster) as backend:
        print(f"bench/speed.py --game {args.game} --games {args.games} --seed {args.seed} (on {backend.label}; "
              f"CPU seconds are per core, measured where each game is played)", flush=True)
        for comparison in GAMES[args.game](args, backend):
            print(report(comparison), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
