"""Benchmark: CPU time ``assist`` takes to start, as a ratio to importing its two libraries in the same run.

Each command runs as a child process (``python -m assistant_cli ...`` from this checkout) with its output
discarded; its CPU time (user + system) is the change in ``resource.getrusage(RUSAGE_CHILDREN)``. The floor is
``python -c "import typer, rich"``: interpreter start-up plus the two libraries every command needs. Commands
are run in turns (every command once, then again) so that a machine growing busier weighs on all of them
alike, and each one's median over the repetitions is divided by the floor's median. Run from the repository
root::

    python bench/startup.py --repeat 9

Targets: ``assist --version`` and ``assist --help`` within 1.5x of the floor, ``assist GAME --help`` within 3x.
``--check`` makes a missed target the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from models import GAMES  # noqa: E402  (the registry is plain data: this imports no game)

#: (label, arguments after ``python``, target ratio to the floor or None for the floor itself).
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ('python -c "import typer, rich"', ["-c", "import typer, rich"], None),
    ("assist --version", ["-m", "assistant_cli", "--version"], 1.5),
    ("assist --help", ["-m", "assistant_cli", "--help"], 1.5),
    *((f"assist {game} --help", ["-m", "assistant_cli", game, "--help"], 3.0) for game in GAMES.names()),
]


def cpu_seconds(args: Sequence[str]) -> float:
    """CPU time (user + system) of one run of ``python args`` from the repository root."""
    env = {**os.environ, "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} failed: {result.stderr.decode(errors='replace').strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(repeat: int) -> list[dict[str, object]]:
    """Each command's median CPU time over ``repeat`` runs in turns, its ratio to the floor and its target."""
    for _, args, _ in COMMANDS:  # one unmeasured run each: bytecode caches and the OS page cache are warm
        cpu_seconds(args)
    times: list[list[float]] = [[] for _ in COMMANDS]
    for _ in range(repeat):
        for i, (_, args, _) in enumerate(COMMANDS):
            times[i].append(cpu_seconds(args))
    floor = statistics.median(times[0])
    rows = []
    for (label, _, target), runs in zip(COMMANDS, times, strict=True):
        median = statistics.median(runs)
        ratio = median / floor
        rows.append({
            "command": label,
            "median_ms": round(1000 * median, 1),
            "min_ms": round(1000 * min(runs), 1),
            "ratio": round(ratio, 2),
            "target": target,
            "ok": target is None or ratio <= target,
        })
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="measured runs of each command (default 9)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--check", action="store_true", help="exit status 1 if a command misses its target")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    rows = measure(args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"CPU time per start, median of {args.repeat} runs in turns; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'command':34} {'median ms':>10} {'min ms':>8} {'ratio':>6} {'target':>7}")
        for row in rows:
            target = "floor" if row["target"] is None else f"<= {row['target']}"
            verdict = "" if row["target"] is None else ("ok" if row["ok"] else "MISSED")
            print(f"{row['command']:34} {row['median_ms']:10.1f} {row['min_ms']:8.1f} {row['ratio']:6.2f} "
                  f"{target:>7}  {verdict}")
    return 1 if args.check and not all(row["ok"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
