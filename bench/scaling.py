"""Benchmark: how simulations scale, per game (issue 12's tables).

Two parts, for one game or all four:

1. **Games per CPU-second of each bot table** (``--rate-games`` seeded games a table, in this process, each game
   timed in CPU seconds where it is played, soundness checks on, exactly as ``assist simulate`` plays it: after
   every observation, but in Beyond Baker Street after the share its ``--soundness`` option defaults to).
2. **Wall time of one 2,000-game table** (``--games``; which table: ``WALL_TABLE``, or ``--wall-table
   GAME=LABEL``) through each backend: ``assist simulate GAME ... --json``
   run as a command with ``--workers 1``, ``--workers 2`` and ``--cluster local:2`` (a local Dask cluster of two
   workers; needs the ``[cluster]`` extra), one after the other, timed from start to exit (start-up and worker
   start included), with the 1-minute load average before and after. The JSON summaries must be identical:
   the bench fails if they are not.

Run from the repository root::

    python bench/scaling.py --game all --games 2000 --rate-games 50 --seed 1
    python bench/scaling.py --game evidence --games 2000 --rate-games 0 --wall-table "evidence=advisor + greedy x3"
    python bench/scaling.py --game evidence --games 200 --rate-games 20 --backends workers:1,workers:2

It prints Markdown tables (docs/simulation.md, "Scaling, per game", holds the measured ones).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # runnable as a script from a checkout

from solver.errors import AssistantError  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402


@dataclass(frozen=True)
class Table:
    """One bot table of a game: its label, the ``assist simulate GAME`` options that play it, and its matchup."""

    label: str
    options: tuple[str, ...]
    matchup: Callable[[], Matchup]


def _thirteen_clues(bot: str, players: int = 4) -> Matchup:
    from models.thirteen_clues.bots import make_bot
    from models.thirteen_clues.rules import TableRules, new_game

    return Matchup(functools.partial(new_game, TableRules(players)), (bot,) * players, make_bot)


def _beyond_baker_street(bot: str, case: int, players: int = 3) -> Matchup:
    from models.beyond_baker_street import ENTRY
    from models.beyond_baker_street.advisor import make_bot
    from models.beyond_baker_street.compiled import compiled
    from models.beyond_baker_street.rules import TableRules, new_game

    compiled(wait=True)  # the compiled loops loaded before the games are timed (a player never waits for them)
    assert ENTRY.simulation is not None  # the share of observations checked, as assist simulate checks them
    share = next(o.default for o in ENTRY.simulation.options if o.name == "soundness")
    return Matchup(functools.partial(new_game, TableRules(players, case)), (bot,) * players, make_bot,
                   soundness=share)


def _evidence(bots: tuple[str, ...]) -> Matchup:
    from models.evidence.bots import make_bot
    from models.evidence.rules import new_game

    return Matchup(functools.partial(new_game, players=len(bots), pro=False), bots, make_bot)


def _time_bomb(spec: str, players: int = 6) -> Matchup:
    from models.time_bomb.bots import make_bot
    from models.time_bomb.simulate import new_state as _new_state

    return Matchup(functools.partial(_new_state, players=players), (spec,) * players, make_bot)


P = functools.partial
TABLES: dict[str, list[Table]] = {
    "thirteen-clues": [
        Table(f"{bot} x4", ("--players", "4", "--bots", bot), P(_thirteen_clues, bot))
        for bot in ("random", "logic", "advisor")
    ],
    "beyond-baker-street": [
        Table("random x3, Case File 1", ("--players", "3", "--case", "1", "--bots", "random"),
              P(_beyond_baker_street, "random", 1)),
        Table("advisor x3, Case File 1", ("--players", "3", "--case", "1", "--bots", "advisor"),
              P(_beyond_baker_street, "advisor", 1)),
        Table("hat x3, Case File 5", ("--players", "3", "--case", "5", "--bots", "hat"),
              P(_beyond_baker_street, "hat", 5)),
    ],
    "evidence": [
        Table("random x4", ("--players", "4", "--bots", "random"), P(_evidence, ("random",) * 4)),
        Table("greedy x4", ("--players", "4", "--bots", "greedy"), P(_evidence, ("greedy",) * 4)),
        Table("advisor + greedy x3", ("--players", "4", "--bots", "advisor,greedy,greedy,greedy"),
              P(_evidence, ("advisor", "greedy", "greedy", "greedy"))),
    ],
    "time-bomb": [
        Table(f"{spec} x6", ("--players", "6", "--bots", spec), P(_time_bomb, spec))
        for spec in ("random", "honest-sherlock/bluffing-moriarty", "advisor/bluffing-moriarty")
    ],
}
WALL_TABLE = {  # the table of each game's wall-time run (--wall-table changes it): 2,000 games of 10 to 110 ms
    "thirteen-clues": "random x4",  # about 8 ms a game: the short-game case the chunk sizes are for
    "beyond-baker-street": "advisor x3, Case File 1",
    "evidence": "greedy x4",
    "time-bomb": "advisor/bluffing-moriarty x6",
}
BACKENDS = {"workers:1": ("--workers", "1"), "workers:2": ("--workers", "2"), "local:2": ("--cluster", "local:2")}


def timed_game(matchup: Matchup, job: tuple[int, int]) -> tuple[float, int | None]:
    """Worker: play game ``index`` from ``seed``; its CPU seconds and winner."""
    index, seed = job
    start = time.process_time()
    record, _ = play_game(matchup, seed, index)
    return time.process_time() - start, record.winner


def rates(game: str, games: int, seed: int) -> list[str]:
    """Part 1: one Markdown row per table of ``game``."""
    rows = []
    with open_backend(1) as backend:
        for table in TABLES[game]:
            matchup = table.matchup()
            play_game(matchup, game_seed(seed + 1_000_003, 0))  # warm-up: imports, first-use set-up, compilation
            played = run_jobs(functools.partial(timed_game, matchup), [(i, game_seed(seed, i)) for i in range(games)],
                              backend)
            cpu = sum(t for t, _ in played)
            rows.append(f"| {game} | {table.label} | {games} | {cpu / games:.4f} | {games / cpu:.1f} |")
            print(rows[-1], flush=True)
    return rows


def assist() -> list[str]:
    """The ``assist`` command of this checkout's environment."""
    found = shutil.which("assist", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "assistant_cli.main"]


def wall(game: str, label: str, games: int, seed: int, backends: Sequence[str]) -> list[str]:
    """Part 2: one Markdown row per backend; the JSON summaries must agree."""
    table = next((t for t in TABLES[game] if t.label == label), None)
    if table is None:
        raise AssistantError(f"--wall-table {game}={label}: expected one of {', '.join(t.label for t in TABLES[game])}")
    base = [*assist(), "simulate", game, *table.options, "--games", str(games), "--seed", str(seed), "--json"]
    rows, summaries = [], {}
    for name in backends:
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run([*base, *BACKENDS[name]], capture_output=True, text=True, cwd=ROOT, check=False,
                              stdin=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        load_after = os.getloadavg()[0]
        if done.returncode != 0:
            raise AssistantError(f"{' '.join(base)} {' '.join(BACKENDS[name])}: exit {done.returncode}: "
                                 f"{done.stderr.strip().splitlines()[-1:]}")
        summaries[name] = json.loads(done.stdout)
        rows.append(f"| {game} | {table.label} | {games} | `{' '.join(BACKENDS[name])}` | {elapsed:.1f} s | "
                    f"{games / elapsed:.1f} | {load_before:.2f} / {load_after:.2f} |")
        print(rows[-1], flush=True)
    first = next(iter(summaries.values()), None)
    for name, summary in summaries.items():
        if summary != first:
            raise AssistantError(f"{game}: the JSON summary with {name} differs from {backends[0]}'s")
    if first is not None:
        print(f"  {game}: the {len(summaries)} JSON summaries are identical; {describe(first)}", flush=True)
    return rows


def describe(summary: Any) -> str:
    """A short line of a summary (the seat or table rows it has), to show what the table did."""
    text = json.dumps(summary)
    return text[:160] + ("..." if len(text) > 160 else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all", choices=[*TABLES, "all"])
    parser.add_argument("--games", type=int, default=2000, help="games of the wall-time table (0: skip part 2)")
    parser.add_argument("--rate-games", type=int, default=100, help="games per table for part 1 (0: skip it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wall-table", action="append", default=[], metavar="GAME=LABEL",
                        help="the table of GAME's wall-time run, by its label in part 1 (repeatable)")
    parser.add_argument("--backends", default="workers:1,workers:2,local:2",
                        help=f"comma-separated, from {', '.join(BACKENDS)}")
    args = parser.parse_args(argv)
    games = list(TABLES) if args.game == "all" else [args.game]
    chosen = dict(WALL_TABLE)
    for item in args.wall_table:
        game, _, label = item.partition("=")
        if game not in TABLES:
            print(f"--wall-table {item}: expected GAME=LABEL with GAME one of {', '.join(TABLES)}", file=sys.stderr)
            return 2
        chosen[game] = label
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown:
        print(f"--backends {args.backends}: unknown {', '.join(unknown)} (expected {', '.join(BACKENDS)})",
              file=sys.stderr)
        return 2
    print(f"{os.cpu_count()} CPUs; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    try:
        if args.rate_games:
            print("\n| game | table | games | CPU s/game | games per CPU-second |\n|---|---|---|---|---|")
            for game in games:
                rates(game, args.rate_games, args.seed)
        if args.games:
            print("\n| game | table | games | backend | wall time | games per second | load avg before / after |\n"
                  "|---|---|---|---|---|---|---|")
            for game in games:
                wall(game, chosen[game], args.games, args.seed, backends)
    except AssistantError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
