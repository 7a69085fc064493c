"""Time Bomb Evolution: win rates with the advisor's weights overridden, for trying a weight on the same games.

    python bench/time_bomb_weights.py --players 4 --games 400 --seeds 11 7 --bots advisor/bluffing-moriarty \
        --sherlock '{"cutter": 0.3}'
    python bench/time_bomb_weights.py --players 4 --games 400 --seeds 11 7 --bots advisor/advisor-moriarty \
        --moriarty '{"claims": "fixed", "bait": 2}'

``--sherlock`` / ``--moriarty`` are JSON objects of :class:`models.time_bomb.advisor.Weights` fields replacing
those of ``SHERLOCK_WEIGHTS`` / ``MORIARTY_WEIGHTS``. Worker processes are spawned, so the overrides travel as
environment variables and every worker applies them when it imports this module. Soundness checks are off
(they never change the play: ``solver.simulate.play_game``), so a cell costs only the games. For each seed it
prints Sherlock's and Moriarty's win rates and, last, the explosions by colour and the cutter's role.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.time_bomb import advisor  # noqa: E402

ENV = {"sherlock": "TB_SHERLOCK_WEIGHTS", "moriarty": "TB_MORIARTY_WEIGHTS"}


def _override(base: advisor.Weights, text: str) -> advisor.Weights:
    """``base`` with the fields of the JSON object ``text`` (lists become tuples, as ``Weights.hazard``)."""
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(text or "{}").items()}
    return dataclasses.replace(base, **fields)


def apply_overrides() -> None:
    """Replace each side's weights by the overrides in the environment (here and in every worker)."""
    advisor.SHERLOCK_WEIGHTS = _override(advisor.SHERLOCK_WEIGHTS, os.environ.get(ENV["sherlock"], ""))
    advisor.MORIARTY_WEIGHTS = _override(advisor.MORIARTY_WEIGHTS, os.environ.get(ENV["moriarty"], ""))
    advisor.WEIGHTS = {advisor.SHERLOCK: advisor.SHERLOCK_WEIGHTS, advisor.MORIARTY: advisor.MORIARTY_WEIGHTS}


apply_overrides()

from models.time_bomb.bots import make_bot  # noqa: E402
from models.time_bomb.simulate import new_state  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402


def game(players: int, spec: str, seed: int) -> tuple[Any, str, str | None, str | None]:
    """One game's winner, reason, last card cut and the role of its cutter (module level, for workers)."""
    played = Matchup(functools.partial(new_state, players=players), (spec,) * players, make_bot, soundness=0.0)
    _record, state = play_game(played, seed)
    table = state.table  # type: ignore[attr-defined]
    last = table.cuts[-1] if table.cuts else None
    cutter = state.roles[last.cutter] if last else None  # type: ignore[attr-defined]
    return table.winner, table.reason, last.card if last else None, cutter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11])
    parser.add_argument("--bots", default="advisor/bluffing-moriarty")
    parser.add_argument("--sherlock", default="", help="JSON Weights fields for the Sherlock advisor")
    parser.add_argument("--moriarty", default="", help="JSON Weights fields for the Moriarty advisor")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    os.environ[ENV["sherlock"]], os.environ[ENV["moriarty"]] = args.sherlock, args.moriarty
    apply_overrides()
    print(f"Sherlock {advisor.SHERLOCK_WEIGHTS}\nMoriarty {advisor.MORIARTY_WEIGHTS}")
    booms: collections.Counter[tuple[str | None, str | None]] = collections.Counter()
    with open_backend(args.workers) as backend:
        for seed in args.seeds:
            start = time.perf_counter()
            results = run_jobs(functools.partial(game, args.players, args.bots),
                               [game_seed(seed, i) for i in range(args.games)], backend)
            wins = sum(1 for r in results if r[0] == advisor.SHERLOCK) / args.games
            booms.update((r[2], r[3]) for r in results if r[1].startswith("a bomb exploded"))
            print(f"{args.players} players, {args.bots}, seed {seed}, {args.games} games: Sherlock "
                  f"{100 * wins:.2f}%, Moriarty {100 * (1 - wins):.2f}% ({time.perf_counter() - start:.0f} s)",
                  flush=True)
    print("explosions by (colour, cutter's role):", dict(booms.most_common()))


if __name__ == "__main__":
    main()
