"""Benchmark: how long a player waits in each game's companion and teacher, every game side by side.

    python bench/companion.py --repeat 3
    python bench/companion.py --repeat 3 --cold --baseline 53be5e2 --games evidence

For each game a fresh worker process (so that each first is a first: imports, OR-Tools' first solve, Numba's
kernels) replays the game's shipped example (``examples/``, from the registry) into a new companion session,
the way ``assist GAME`` does: each line handled and its reply drawn by the terminal renderer (into a string, 100
columns). Between the setup entries it pauses ``--think`` seconds, as a player typing the setup dialogue would
(0: a piped script). It times, in wall seconds (what the player waits for):

- ``start``: importing the game's session and creating it (what ``assist GAME`` does before its first prompt);
- ``setup complete``: the entry that completes the setup (the knowledge model is built);
- ``entry median`` / ``entry max``: every entry after that one;
- ``advise first`` / ``advise later``: ``advise`` tried before each entry after the setup (where the game gives
  advice at that point; at most ``--advise`` of them): the first one, and the median of the others;
- ``teach first``: ``python -m assistant_cli teach GAME`` from its start to the first exercise on its output
  (stdin ``quit``), in a process of its own.

Each figure is shown as wall seconds with CPU seconds in brackets: those of the worker's main thread (a
background thread's work, such as loading compiled code, is not counted there), or of the whole teach process.
On a machine shared with other work the wall times grow with the load (printed); the CPU times much less.

Each figure is the median over ``--repeat`` workers (after one unmeasured worker per game and tree, which leaves
the compiled code of each tree in its Numba cache, unless ``--cold``); the workers of every game (and of both
trees) take turns so that a change of load on the machine falls on all of them alike. ``--cold`` gives every
worker an empty Numba cache (``NUMBA_CACHE_DIR`` in a fresh temporary directory): the first process after an
install. ``--baseline REV`` also runs a git revision's ``solver``, ``models`` and ``assistant_cli`` (extracted
with ``git archive``) in the same run and prints its figures and the ratio old / new beside. Targets for Evidence
(issue 22): setup complete and each entry within 0.3 s, ``advise`` within 1 s, the first exercise within 3 s
(median, 4 players, quiet machine).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "models", "assistant_cli")
FIGURES = ("start", "setup complete", "entry median", "entry max", "advise first", "advise later", "teach first")
TARGETS = {"setup complete": 0.3, "entry median": 0.3, "entry max": 0.3, "advise first": 1.0, "advise later": 1.0,
           "teach first": 3.0}


# -- the worker (one fresh process per game and repeat) ----------------------------------------------------------
def worker(game: str, think: float, advise_max: int) -> dict[str, list[float] | None]:
    """One replay of ``game``'s example in a new session (module docstring): each figure as [wall seconds, CPU
    seconds of this thread] (a background thread's work, such as loading compiled code, is not in the second)."""
    began, began_cpu = time.perf_counter(), time.thread_time()
    from rich.console import Console

    from assistant_cli.companion import print_reply
    from models import GAMES
    from solver.errors import AssistantError

    entry = GAMES[game]
    session = entry.new_session()
    start = [time.perf_counter() - began, time.thread_time() - began_cpu]
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    path = ROOT / "examples" / entry.examples[0]
    lines = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    setup: list[float] | None = None
    entries: list[list[float]] = []
    advice: list[list[float]] = []

    def timed(line: str) -> list[float]:
        t, c = time.perf_counter(), time.thread_time()
        print_reply(console, session.handle(line))
        return [time.perf_counter() - t, time.thread_time() - c]

    for line in filter(None, lines):
        if setup is not None and len(advice) < advise_max:
            with contextlib.suppress(AssistantError):  # no advice here (not my turn, in a game that says so)
                advice.append(timed("advise"))
        if setup is None and think:
            time.sleep(think)
        took = timed(line)
        if setup is None:
            if session.knowledge is not None:
                setup = took
        else:
            entries.append(took)

    def median(rows: list[list[float]]) -> list[float] | None:
        return [statistics.median(col) for col in zip(*rows, strict=True)] if rows else None

    return {
        "start": start,
        "setup complete": setup,
        "entry median": median(entries),
        "entry max": max(entries) if entries else None,
        "advise first": advice[0] if advice else None,
        "advise later": median(advice[1:]),
    }


def teach_first(tree: Path, game: str, env: dict[str, str]) -> list[float] | None:
    """[wall seconds from starting ``python -m assistant_cli teach GAME`` in ``tree`` to its first exercise, CPU
    seconds of the whole process (it stops at once after the first exercise)]."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "assistant_cli", "teach", game, "--scores",
                                 str(Path(tmp) / "scores.json")], cwd=tree, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env={**env, "PYTHONUNBUFFERED": "1", "COLUMNS": "100", "CI": "true"})
        assert proc.stdin is not None and proc.stdout is not None
        took = None
        for line in proc.stdout:
            if line.startswith("Exercise 1 of"):
                took = time.perf_counter() - began
                break
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.stdout.read()
        proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        return None if took is None else [took, cpu]


# -- the driver ----------------------------------------------------------------------------------------------------
def extract(revision: str, into: Path) -> None:
    """The project's packages at ``revision`` (``git archive``) under ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, *PACKAGES],
                          check=True, capture_output=True).stdout
    tar = into / "baseline.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as archive:
        archive.extractall(into, filter="data")


def run_worker(tree: Path, game: str, args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """:func:`worker` in a fresh process with ``tree`` first on ``sys.path``."""
    code = (f"import sys, json; sys.path.insert(0, {str(tree)!r}); import runpy; "
            f"mod = runpy.run_path({__file__!r}); "
            f"print(json.dumps(mod['worker']({game!r}, {args.think}, {args.advise})))")
    result = subprocess.run([sys.executable, "-c", code], cwd=tree, env={**env, "COLUMNS": "100"},
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"worker for {game} in {tree} failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def environment(cold: bool, scratch: Path) -> dict[str, str]:
    """The workers' environment: with ``cold``, a fresh empty Numba cache of its own."""
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-", dir=scratch)
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="all", help="comma-separated game names (default every game)")
    parser.add_argument("--repeat", type=int, default=3, help="workers per game and tree (default 3)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds between setup entries, as a player typing (default 0: a script)")
    parser.add_argument("--advise", type=int, default=6, help="at most this many advise calls a replay")
    parser.add_argument("--cold", action="store_true", help="an empty Numba cache for every worker")
    parser.add_argument("--baseline", help="also run this git revision in the same run, and print old / new")
    parser.add_argument("--no-teach", action="store_true", help="skip the teacher's first exercise")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from models import GAMES

    games = GAMES.names() if args.games == "all" else [g.strip() for g in args.games.split(",")]
    for game in games:
        GAMES[game]  # an unknown name: a one-line error
    with tempfile.TemporaryDirectory(prefix="bench-companion-") as tmp:
        scratch = Path(tmp)
        trees = {"new": ROOT}
        if args.baseline:
            trees["old"] = scratch / "baseline"
            trees["old"].mkdir()
            extract(args.baseline, trees["old"])
        if not args.cold:  # every tree's compiled code in its own cache (an extracted tree starts with none)
            for game in games:
                for label, tree in trees.items():
                    run_worker(tree, game, argparse.Namespace(think=0.0, advise=1), environment(False, scratch))
                    print(f"  {label} {game}: warm-up run (not counted)", file=sys.stderr, flush=True)
        runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in range(args.repeat):
            for game in games:
                for label in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                    env = environment(args.cold, scratch)
                    figures = run_worker(trees[label], game, args, env)
                    if not args.no_teach:
                        figures["teach first"] = teach_first(trees[label], game, environment(args.cold, scratch))
                    runs.setdefault((label, game), []).append(figures)
                    print(f"  {label} {game} run {r + 1}: "
                          + ", ".join(f"{k} {_s(v)}" for k, v in figures.items()), file=sys.stderr, flush=True)
    table = {f"{label} {game}": {k: _median([f.get(k) for f in fs]) for k in FIGURES}
             for (label, game), fs in runs.items()}
    if args.json:
        print(json.dumps(table, indent=2))
    else:
        report(table, games, list(trees), args)
    return 0


def _median(values: list[list[float] | None]) -> list[float] | None:
    """Per column (wall, CPU), the median over the runs that have the figure."""
    present = [v for v in values if v is not None]
    return [statistics.median(col) for col in zip(*present, strict=True)] if present else None


def _s(value: list[float] | None) -> str:
    return "-" if value is None else f"{value[0]:.2f} ({value[1]:.2f})"


def report(table: dict[str, dict[str, list[float] | None]], games: list[str], trees: list[str],
           args: argparse.Namespace) -> None:
    """A Markdown table: one row per game and tree, one column per figure, old / new ratios of the wall times."""
    load = os.getloadavg()
    print(f"median of {args.repeat} fresh processes per cell; wall seconds (CPU seconds: of the main thread, of "
          f"the whole process for teach first); think {args.think} s; "
          f"Numba cache {'empty (cold)' if args.cold else 'as installed (warm)'}; load average "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end")
    print()
    print("| game | tree | " + " | ".join(FIGURES) + " |")
    print("|---|---|" + "---|" * len(FIGURES))
    for game in games:
        for label in trees:
            row = table[f"{label} {game}"]
            print(f"| {game} | {label} | " + " | ".join(_s(row[k]) for k in FIGURES) + " |")
        if "old" in trees:
            old, new = table[f"old {game}"], table[f"new {game}"]
            ratios = [f"{old[k][0] / new[k][0]:.1f}x" if old[k] and new[k] else "-" for k in FIGURES]
            print(f"| {game} | old / new | " + " | ".join(ratios) + " |")
    print()
    print("targets (Evidence, issue 22): " + ", ".join(f"{k} <= {v} s" for k, v in TARGETS.items()))


if __name__ == "__main__":
    sys.exit(main())
