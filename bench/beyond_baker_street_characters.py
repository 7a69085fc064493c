"""Win share of the Beyond Baker Street advisor table with each Character in seat 1 (random Characters
elsewhere), per Case File, beside the Character's difficulty pips: do more pips make the game easier?

Each cell is ``assist simulate beyond-baker-street --players 3 --case C --bots advisor --characters
NAME,random,random --games N --seed S`` (the same seeded games, the shared simulation loop with its soundness
checks), run through one :func:`solver.parallel.open_backend` pool. Run from the repository root::

    python bench/beyond_baker_street_characters.py --games 500 --workers 2 --json-out bbs-characters.json
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.beyond_baker_street.advisor import make_bot  # noqa: E402
from models.beyond_baker_street.data import CHARACTERS  # noqa: E402
from models.beyond_baker_street.rules import TableRules, new_character_game, new_game  # noqa: E402
from models.beyond_baker_street.simulate import summarize_records  # noqa: E402
from solver.parallel import Backend, open_backend  # noqa: E402
from solver.simulate import Matchup, run_games  # noqa: E402


def cell(name: str | None, players: int, case: int, games: int, seed: int, backend: Backend) -> dict[str, object]:
    """One cell: ``name`` in seat 1 and random Characters elsewhere (None: the base game, no Characters)."""
    rules = TableRules(players, case)
    factory = (functools.partial(new_character_game, rules, (name,) + (None,) * (players - 1)) if name
               else functools.partial(new_game, rules))
    start = time.perf_counter()
    summary = summarize_records(run_games(Matchup(factory, ("advisor",) * players, make_bot), games, seed, backend))
    return {"character": name, "players": players, "case": case, "games": games, "wins": summary.wins,
            "win_rate": summary.win_rate, "stderr": summary.stderr, "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per cell")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cases", default="1,2,3")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--json-out", type=Path, default=None, help="also write every cell as JSON here")
    args = parser.parse_args()
    cases = [int(c) for c in args.cases.split(",")]
    names: list[str | None] = [None, *sorted(CHARACTERS, key=lambda n: CHARACTERS[n].order)]
    cells: list[dict[str, object]] = []
    with open_backend(args.workers if args.cluster is None else 1, args.cluster) as backend:  # one pool
        for name in names:
            for case in cases:
                result = cell(name, args.players, case, args.games, args.seed, backend)
                cells.append(result)
                print(f"{name or 'no Characters'}, case {case}: {result['wins']}/{args.games} = "
                      f"{100 * float(result['win_rate']):.1f}% ({float(result['seconds']):.0f} s)",
                      file=sys.stderr, flush=True)
                if args.json_out:
                    args.json_out.write_text(json.dumps(cells, indent=2))
    print("| # | Character | Pips | " + " | ".join(f"Case {c} win % ± s.e." for c in cases) + " | Mean win % |")
    print("|---|---|---|" + "---|" * (len(cases) + 1))
    by_pips: dict[int, list[float]] = {}
    for name in names:
        rows = [x for x in cells if x["character"] == name]
        mean = sum(float(x["win_rate"]) for x in rows) / len(rows)
        ch = CHARACTERS[name] if name else None
        if ch:
            by_pips.setdefault(ch.pips, []).append(mean)
        head = f"| {ch.order} | {ch.name} | {ch.pips} |" if ch else "| - | (no Characters) | - |"
        cols = " | ".join(f"{100 * float(x['win_rate']):.1f} ± {100 * float(x['stderr']):.1f}" for x in rows)
        print(f"{head} {cols} | {100 * mean:.1f} |")
    print(f"\nGames per cell: {args.games} (3 players unless --players; seat 1 the Character, the others random).")
    print("Mean win % by pips: " + "; ".join(f"{p} pips {100 * sum(v) / len(v):.1f}% ({len(v)} Characters)"
                                              for p, v in sorted(by_pips.items())))


if __name__ == "__main__":
    main()
