"""Win rates of the Beyond Baker Street bots for every Case File and player count, as a Markdown table.

Each cell is ``assist simulate beyond-baker-street --players P --case C --bots B --games N --seed S`` (the same
seeded games, the shared simulation loop with its soundness checks), reported as win % ± standard error.
Run from the repository root::

    python bench/beyond_baker_street_table.py --games 500 --random-games 200 --workers 2 \\
        --main-games 2000 --json-out bbs-table.json
    python bench/beyond_baker_street_table.py --bots hat --players 3,4 --games 300 --main-games 300
    python bench/beyond_baker_street_table.py --bots hat,hat:icon --players 3,4 --cases 5,6 --games 300

``hat:MODE`` is the hat table with another partition (:class:`models.beyond_baker_street.hat.HatTable`:
``use``, ``mid``, ``fine``, ``icon``, the first version), to compare them on the same seeds;
``hat:MODE+again`` lets a fixed card be the focus again, ``hat:MODE+oldest`` makes the leftmost card the focus
(as the first version did; the default is the rightmost). ``hat:MODE`` alone is the table before plays carried
messages; ``hat:MODE+plays`` is the table now (``hat``: every Investigate or Eliminate says a message by its
position, with 3 players in Case Files 3 to 6, with 4 in Case Files 5 and 6), ``+playsall`` in every Case File
the convention is played in, ``+playsN`` only while the Holmes marker is at most N, ``+keepbad`` counts the
positions known to be bad plays too, ``+bound`` makes a player with a known good play send a message all the
same, ``+where`` tells where a good card is instead of a class
(:attr:`models.beyond_baker_street.hat.HatTable.plays`), and ``hat:MODE:NAME=VALUE;NAME=VALUE`` plays other
advisor weights
(:class:`models.beyond_baker_street.advisor.Weights`). These are the variants docs/beyond-baker-street.md
reports in "Hard cases: what was tried".
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.beyond_baker_street.advisor import make_bot  # noqa: E402
from models.beyond_baker_street.rules import TableRules, new_game  # noqa: E402
from models.beyond_baker_street.simulate import summarize_records  # noqa: E402
from solver.parallel import Backend, open_backend  # noqa: E402
from solver.simulate import Matchup, run_games  # noqa: E402


def make_table_bot(name: str, seat: int, rng: random.Random) -> object:
    """:func:`make_bot`, and ``hat:MODE[+FLAG...][:NAME=VALUE;...]`` (module docstring)."""
    if name.startswith("hat:"):
        from models.beyond_baker_street.advisor import DEFAULT_WEIGHTS
        from models.beyond_baker_street.hat import PLAYS_ALWAYS, HatBot

        mode, _, changes = name[4:].partition(":")
        weights = DEFAULT_WEIGHTS
        if changes:
            pairs = (change.split("=") for change in changes.split(";"))
            weights = dataclasses.replace(weights, **{key: float(value) for key, value in pairs})
        flags = mode.split("+")
        bot = HatBot(seat, rng, weights, mode=flags[0])
        bot.hat.again = "again" in flags
        bot.hat.newest = "oldest" not in flags
        bot.hat.plays = 0  # hat:MODE is the table before plays carried messages, unless +plays
        for flag in flags[1:]:
            if flag == "playsall":  # in every Case File, from any Holmes marker unless +playsN says otherwise
                bot.hat.plays, bot.hat.plays_limit = bot.hat.plays or PLAYS_ALWAYS, None
            elif flag.startswith("plays"):
                bot.hat.plays = int(flag[5:]) if flag[5:] else PLAYS_ALWAYS
        bot.hat.free = "bound" not in flags
        bot.hat.where = "where" in flags
        bot.hat.skip_bad = "keepbad" not in flags
        return bot
    return make_bot(name, seat, rng)


def cell(players: int, case: int, bot: str, games: int, seed: int, backend: Backend) -> dict[str, float]:
    matchup = Matchup(functools.partial(new_game, TableRules(players, case)), (bot,) * players, make_table_bot)
    start = time.perf_counter()
    summary = summarize_records(run_games(matchup, games, seed, backend))
    return {"players": players, "case": case, "bot": bot, "games": games, "wins": summary.wins,
            "win_rate": summary.win_rate, "stderr": summary.stderr, "seconds": time.perf_counter() - start,
            "assists": summary.means.get("assists", 0.0), "turns": summary.means.get("turns", 0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="advisor games per cell")
    parser.add_argument("--main-games", type=int, default=2000, help="advisor games for Case File 1, 3 players")
    parser.add_argument("--random-games", type=int, default=200, help="random-bot games per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--cases", default="1,2,3,4,5,6")
    parser.add_argument("--bots", default="advisor,random", help="tables to measure: advisor, hat, random")
    parser.add_argument("--json-out", type=Path, default=None, help="also write every cell as JSON here")
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]
    cases = [int(c) for c in args.cases.split(",")]
    bots = [b.strip() for b in args.bots.split(",")]
    cells = []
    with open_backend(args.workers if args.cluster is None else 1, args.cluster) as backend:  # one pool, every cell
        for p in players:
            for c in cases:
                n = args.main_games if (p, c) == (3, 1) else args.games
                for bot in bots:
                    games = args.random_games if bot == "random" else n
                    result = cell(p, c, bot, games, args.seed, backend)
                    cells.append(result)
                    print(f"{p} players, case {c}, {bot}: {result['wins']}/{games} = "
                          f"{100 * result['win_rate']:.1f}% ± {100 * result['stderr']:.1f} ({result['seconds']:.0f} s)",
                          file=sys.stderr, flush=True)
                    if args.json_out:
                        args.json_out.write_text(json.dumps(cells, indent=2))
    print("| Players | Case | " + " | ".join(f"{b} win % ± s.e. (games)" for b in bots) + " |")
    print("|---|---|" + "---|" * len(bots))
    for p in players:
        for c in cases:
            row = []
            for b in bots:
                x = next(x for x in cells if (x["players"], x["case"], x["bot"]) == (p, c, b))
                row.append(f"{100 * x['win_rate']:.1f} ± {100 * x['stderr']:.1f} ({x['games']})")
            print(f"| {p} | {c} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
