"""Benchmark (issue 12): Thirteen Clues advisor games, the current code against the code before issue 12.

Every game seed is played twice in the same run: once with every advisor seat running the frozen baseline
(``bench/_baseline_tc``: the advisor and the allocation counter as they were on main before the speed-up) and
once with the current ``models.thirteen_clues.advisor``; the order alternates from game to game so that neither
side always runs on a warmer cache. Each game's CPU time (``time.process_time`` where it is played) is summed
per side. The advisor sits in seat 1 and ``--opponents`` (default: advisors too) in the other seats; both sides
play the same deals with the same random sources.

Printed: CPU seconds per game old and new and their ratio (the target is at least 1.5x at 4 players), the
seat-1 advisor's win share old and new with its standard error, and the share of identical decisions: every
advisor's decisions in the new game compared, seat by seat, with the same seat's in the old game up to the
first difference (100% when the new code is exact, as it must be: the counts are the same integers). Run
from the repository root::

    python bench/speed_thirteen_clues.py --games 40 --players 4 --seed 1
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from bench._baseline_tc import advisor as baseline  # noqa: E402
from models.thirteen_clues import advisor as current  # noqa: E402
from models.thirteen_clues.bots import make_bot  # noqa: E402
from models.thirteen_clues.observations import Action  # noqa: E402
from models.thirteen_clues.rules import TableRules, TableView, new_game  # noqa: E402
from solver.bots import Bot  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402


class _OldAdvisor(baseline.AdvisorBot):
    """The baseline advisor, recording the actions it chooses."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.decisions: list[str] = []

    def step(self, view: TableView) -> Action:
        action = super().step(view)
        self.decisions.append(str(action))
        return action


class _NewAdvisor(current.AdvisorBot):
    """The current advisor, recording the actions it chooses."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.decisions: list[str] = []

    def step(self, view: TableView) -> Action:
        action = super().step(view)
        self.decisions.append(str(action))
        return action


_CREATED: list[Any] = []  # the bots of the game being played in this process


def _make(name: str, seat: int, rng: random.Random) -> Bot:
    """``advisor-old`` / ``advisor-new``: the recording advisors; any other name as ``assist simulate`` has it."""
    bot: Any
    if name == "advisor-old":
        bot = _OldAdvisor(seat, rng)
    elif name == "advisor-new":
        bot = _NewAdvisor(seat, rng)
    else:
        bot = make_bot(name, seat, rng)
    _CREATED.append(bot)
    return bot


def _play(players: int, opponents: str, side: str, index: int, seed: int) -> tuple[float, int | None, list[list[str]]]:
    """One game with the advisor of ``side`` in seat 1 (and in every seat the opponents are advisors): CPU
    seconds, winner, each seat's recorded decisions."""
    advisor = f"advisor-{side}"
    bots = (advisor,) + ((advisor if opponents == "advisor" else opponents),) * (players - 1)
    matchup = Matchup(functools.partial(new_game, TableRules(players)), bots, _make)
    _CREATED.clear()
    start = time.process_time()
    record, _ = play_game(matchup, seed, index)
    cpu = time.process_time() - start
    decisions = [list(getattr(bot, "decisions", [])) for bot in _CREATED]
    return cpu, record.winner, decisions


def _play_pair(players: int, opponents: str, job: tuple[int, int]) -> dict[str, Any]:
    """Worker: game ``index`` from ``seed``, old and new (old first on even indices)."""
    index, seed = job
    return {side: _play(players, opponents, side, index, seed)
            for side in (("old", "new") if index % 2 == 0 else ("new", "old"))}


def _matched(old: list[list[str]], new: list[list[str]]) -> tuple[int, int]:
    """(decisions equal up to each seat's first difference, decisions in the new game)."""
    same = 0
    for a, b in zip(old, new, strict=True):
        for x, y in zip(a, b, strict=False):
            if x != y:
                break
            same += 1
    return same, sum(len(b) for b in new)


def _share(wins: int, games: int) -> str:
    p = wins / games
    return f"{100 * p:5.1f}% +- {100 * math.sqrt(p * (1 - p) / games):.1f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="game seeds (each played old and new)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="advisor", help="bot in seats 2.. (advisor, logic, random)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    args = parser.parse_args(argv)
    jobs = [(i, game_seed(args.seed, i)) for i in range(args.games)]
    with open_backend(args.workers, args.cluster) as backend:
        print(f"bench/speed_thirteen_clues.py --games {args.games} --seed {args.seed} --players {args.players} "
              f"--opponents {args.opponents} (on {backend.label}; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})")
        results = run_jobs(functools.partial(_play_pair, args.players, args.opponents), jobs, backend)
    cpu = {side: sum(r[side][0] for r in results) for side in ("old", "new")}
    wins = {side: sum(1 for r in results if r[side][1] == 1) for side in ("old", "new")}
    same = total = 0
    for r in results:
        s, t = _matched(r["old"][2], r["new"][2])
        same += s
        total += t
    games = len(results)
    print(f"CPU s/game   old {cpu['old'] / games:.3f}   new {cpu['new'] / games:.3f}   "
          f"ratio old/new {cpu['old'] / cpu['new']:.2f}x")
    print(f"seat-1 advisor win share   old {_share(wins['old'], games)}   new {_share(wins['new'], games)}")
    print(f"identical decisions   {same} of {total} ({100 * same / max(total, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
