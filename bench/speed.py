"""Advisor speed against the code before the speed work: the same seeded games, old and new, in one run.

    python bench/speed.py --game beyond-baker-street --games 200 --seed 1
    python bench/speed.py --game beyond-baker-street-hat --games 200 --seed 1
    python bench/speed.py --game thirteen-clues --games 40 --seed 1
    python bench/speed.py --game evidence --games 60 --seed 1
    python bench/speed.py --game time-bomb --games 150 --seed 1

The baseline is a git revision (default, per game: main just before the latest speed work on that game's advisor,
:data:`BASELINES`; no copy of old code is kept in the checkout) whose ``solver``, ``models``
and ``assistant_cli`` are extracted with ``git archive`` into a temporary directory (or, with
``--baseline-dir``, a directory that holds them: a checkout without history). Two worker processes are
started, one with the baseline tree first on ``sys.path`` and one with this checkout, and each game index goes
to both (in alternating order, so that a change of load on the machine falls on both sides alike). Each worker
plays the game with the full simulation loop (``solver.simulate.play_game``: every bot's knowledge checked for
soundness after every observation, or a sample of them with ``--soundness`` in a tree that can) and answers
with its own CPU time for the game, the outcome and every action played. A warm-up game is played first in each
worker and not counted (and Beyond Baker Street's compiled loops are loaded before it, where the tree has them).

Tables (``--game``):

- ``thirteen-clues``: four advisors, 4 players; every action compared; the win share is seat 1's.
- ``beyond-baker-street``: the advisor table, 3 players, Case File 1; every action compared; the win share is
  the table's (a cooperative game).
- ``beyond-baker-street-hat``: the hat table (every seat plays the hat convention), 3 players, Case File 5; the
  same comparisons.
- ``evidence``: one advisor (seat 1) and three greedy bots, 4 players, basic game; the decisions compared are
  the advisor's; the win share is the advisor's (sole wins, as ``assist simulate`` counts them).
- ``time-bomb``: ``advisor/bluffing-moriarty`` in every seat, 6 players (``--players``); the decisions compared
  are every action of the game (claims, cuts, covers); the win share is Sherlock's.

Printed: CPU seconds per game old and new, their ratio (total old / total new), the win share old and new with
standard errors, and the share of identical decisions: decisions are compared position by position up to a
game's first difference (after which the games are different games), so "identical" counts the decisions before
any divergence, over all decisions of the baseline; and the number of games played identically to the end.
Exit status 1 if a worker fails.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: Per game, main just before the latest speed work on that game's advisor (the old code the bench runs): issue 12's
#: for Thirteen Clues, Evidence and Time Bomb; issue 21's for Beyond Baker Street (issue 12's was 441bccc).
BASELINES = {"thirteen-clues": "441bccc", "beyond-baker-street": "5600268", "beyond-baker-street-hat": "5600268",
             "evidence": "a551b67", "time-bomb": "a551b67"}
PLAYERS = {"thirteen-clues": 4, "beyond-baker-street": 3, "beyond-baker-street-hat": 3, "evidence": 4,
           "time-bomb": 6}
PACKAGES = ("solver", "models", "assistant_cli")


# -- worker side (runs with either tree first on sys.path; imports the project only here) ---------------------
def _matchup(game: str, players: int) -> tuple[Any, set[int] | None]:
    """The table of ``game`` and the seats whose actions are the compared decisions (``None``: every seat)."""
    from solver.simulate import Matchup

    if game == "thirteen-clues":  # four advisors
        from models.thirteen_clues.bots import make_bot as tc_bot
        from models.thirteen_clues.rules import TableRules as TCRules
        from models.thirteen_clues.rules import new_game as tc_game

        return Matchup(functools.partial(tc_game, TCRules(players)), ("advisor",) * players, tc_bot), None
    if game.startswith("beyond-baker-street"):  # the advisor table in Case File 1, the hat table in Case File 5
        from models.beyond_baker_street.advisor import make_bot as bbs_bot
        from models.beyond_baker_street.rules import TableRules as BBSRules
        from models.beyond_baker_street.rules import new_game as bbs_game

        bot, case = ("hat", 5) if game == "beyond-baker-street-hat" else ("advisor", 1)
        return Matchup(functools.partial(bbs_game, BBSRules(players, case)), (bot,) * players, bbs_bot), None

    if game == "evidence":
        from models.evidence.bots import make_bot
        from models.evidence.rules import new_game

        names = ("advisor", *("greedy",) * (players - 1))
        return Matchup(functools.partial(new_game, players=players, pro=False), names, make_bot), {1}
    from models.time_bomb.bots import make_bot as tb_bot
    from models.time_bomb.rules import TableRules as TBRules
    from models.time_bomb.rules import new_game as tb_game

    def _new_state(rng: Any, players: int) -> Any:  # the same in every revision (no import of the session)
        return tb_game(TBRules(players), rng)

    specs = ("advisor/bluffing-moriarty",) * players
    return Matchup(functools.partial(_new_state, players=players), specs, tb_bot), None


def _recording(new_state: Any, log: list[tuple[int, str]]) -> Any:
    """``new_state`` whose states log (seat, action) for every action applied."""

    def build(rng: Any) -> Any:
        state = new_state(rng)
        apply = state.apply

        def logged(action: Any) -> None:
            log.append((state.current_player(), str(action)))
            apply(action)

        state.apply = logged
        return state

    return build


def worker(game: str, players: int, seed: int, soundness: float = 1.0) -> None:
    """Read game indices from stdin, answer one JSON line each (see module docstring)."""
    import dataclasses

    from solver.simulate import game_seed, play_game

    matchup, seats = _matchup(game, players)
    log: list[tuple[int, str]] = []
    matchup = dataclasses.replace(matchup, new_state=_recording(matchup.new_state, log))
    if soundness < 1.0 and "soundness" in {f.name for f in dataclasses.fields(matchup)}:
        matchup = dataclasses.replace(matchup, soundness=soundness)  # a tree that can sample the checks
    if game.startswith("beyond-baker-street"):
        try:  # a tree with compiled loops: loaded (or compiled) before the games are timed
            from models.beyond_baker_street.compiled import compiled
        except ImportError:
            pass
        else:
            compiled(wait=True)
    play_game(matchup, game_seed(seed + 1_000_003, 0))  # warm-up: imports and first-use set-up, not counted
    for line in sys.stdin:
        index = int(line)
        log.clear()
        start = time.process_time()
        record, _ = play_game(matchup, game_seed(seed, index), index)
        cpu = time.process_time() - start
        decisions = [a for s, a in log if seats is None or s in seats]
        out = {"cpu": cpu, "winner": record.winner, "actions": record.actions, "stats": list(record.stats),
               "seed": record.seed, "decisions": decisions}
        print(json.dumps(out), flush=True)


# -- driver ---------------------------------------------------------------------------------------------------
def extract(revision: str, into: Path) -> None:
    """The project's packages at ``revision`` (``git archive``) under ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, *PACKAGES],
                          check=True, capture_output=True).stdout
    tar = into / "baseline.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as archive:
        archive.extractall(into, filter="data")


def start(tree: Path, args: argparse.Namespace) -> subprocess.Popen[str]:
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); sys.argv[0] = {__file__!r}; "
            f"import runpy; mod = runpy.run_path({__file__!r}); "
            f"mod['worker']({args.game!r}, {args.players}, {args.seed}, {args.soundness})")
    return subprocess.Popen([sys.executable, "-c", code], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)


def ask(proc: subprocess.Popen[str], index: int) -> dict[str, Any]:
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None
    assert stdout is not None
    stdin.write(f"{index}\n")
    stdin.flush()
    line = stdout.readline()
    if not line:
        raise SystemExit(f"worker for {proc.args!r} stopped (see its error above)")
    return json.loads(line)


WHO = {"thirteen-clues": "seat-1 advisor", "beyond-baker-street": "table", "beyond-baker-street-hat": "table",
       "evidence": "advisor", "time-bomb": "Sherlock"}


def share(game: str, results: list[dict[str, Any]]) -> tuple[float, float]:
    """The win share of :data:`WHO` and its standard error."""
    if game in ("evidence", "thirteen-clues"):
        wins = [float(r["winner"] == 1) for r in results]  # a sole win, as ``assist simulate`` counts it
    elif game.startswith("beyond-baker-street"):
        wins = [float(r["stats"][0]["won"]) for r in results]
    else:
        wins = [float(r["stats"][0]["sherlock_win"]) for r in results]
    n = len(wins)
    mean = sum(wins) / n
    var = sum((w - mean) ** 2 for w in wins) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(BASELINES), required=True)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None, help=f"default per game: {PLAYERS}")
    parser.add_argument("--baseline", default=None,
                        help=f"git revision of the old code (default per game: {BASELINES})")
    parser.add_argument("--soundness", type=float, default=1.0,
                        help="share of observations checked for soundness, in a tree whose Matchup can sample them "
                             "(Matchup.soundness; default 1: every observation, in both trees)")
    parser.add_argument("--baseline-dir", type=Path, default=None,
                        help="a directory holding the old solver/, models/ and assistant_cli/ (instead of git)")
    args = parser.parse_args()
    args.players = args.players or PLAYERS[args.game]
    args.baseline = args.baseline or BASELINES[args.game]
    with tempfile.TemporaryDirectory(prefix="speed-baseline-") as tmp:
        if args.baseline_dir is None:
            extract(args.baseline, Path(tmp))
        old_tree = args.baseline_dir.resolve() if args.baseline_dir is not None else Path(tmp)
        old, new = start(old_tree, args), start(ROOT, args)
        results: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
        try:
            for i in range(args.games):
                order = (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old))
                for name, proc in order:
                    results[name].append(ask(proc, i))
                if (i + 1) % 10 == 0 and sys.stderr.isatty():
                    print(f"  {i + 1} games", file=sys.stderr, flush=True)
        finally:
            for proc in (old, new):
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()
    report(args, results["old"], results["new"])
    return 0


def report(args: argparse.Namespace, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    cpu_old, cpu_new = sum(r["cpu"] for r in old), sum(r["cpu"] for r in new)
    same = total = whole = 0
    differ = []
    for index, (a, b) in enumerate(zip(old, new, strict=True)):
        da, db = a["decisions"], b["decisions"]
        k = 0
        while k < min(len(da), len(db)) and da[k] == db[k]:
            k += 1
        same += k
        total += len(da)
        whole += da == db and a["stats"] == b["stats"]
        if da != db:
            differ.append(f"{index} (decision {k + 1})")
    (w_old, e_old), (w_new, e_new) = share(args.game, old), share(args.game, new)
    who = WHO[args.game]
    base = args.baseline_dir or args.baseline
    checks = "every observation" if args.soundness >= 1.0 else \
        f"{args.soundness:g} of the observations where the tree can sample them (the baseline: every one)"
    print(f"{args.game}, {args.players} players, {args.games} games, seed {args.seed}, baseline {base}; "
          f"soundness checked after {checks}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"  CPU s/game   old {cpu_old / len(old):.3f}   new {cpu_new / len(new):.3f}   "
          f"ratio {cpu_old / cpu_new:.2f}x")
    print(f"  {who} win share   old {100 * w_old:.1f}% ± {100 * e_old:.1f}   "
          f"new {100 * w_new:.1f}% ± {100 * e_new:.1f}")
    print(f"  identical decisions {same}/{total} ({100 * same / max(total, 1):.1f}%), "
          f"games identical to the end {whole}/{len(old)}")
    if differ:
        print(f"  games whose decisions differ (game index, first different decision): {', '.join(differ)}")


if __name__ == "__main__":
    sys.exit(main())
