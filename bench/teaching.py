"""Verification figures of the step-by-step explanations: how many generated explanations, every step of each
checked by the engine (:func:`solver.steps_check.verify`), and the median and longest chain per game.

    python bench/teaching.py --games 5 --seed 0

The explanations are those of seeded simulated games (:func:`solver.exercises.game_explanations`: up to
three claims decided by each entry, the seat's own first). Time Bomb has no literal-level chains (its counts
decide); its explanations are a minimal set of entries (a CP-SAT core) and the count, reported apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models import GAMES  # noqa: E402
from solver.exercises import game_explanations  # noqa: E402
from solver.simulate import game_seed  # noqa: E402
from solver.steps_check import verify  # noqa: E402


def measure(game: str, games: int, seed: int) -> dict[str, float]:
    """Explanations, steps verified, failures, median and longest chain length over ``games`` games."""
    t = GAMES[game].new_teacher()
    lengths: list[int] = []
    steps = failures = counted = 0
    for g in range(games):
        transcript = t.transcript(game_seed(seed, g), t.default_players)
        for explained in game_explanations(t, transcript.lines):
            if explained.chain is None:
                counted += 1
                continue
            chain, ex = explained.chain, explained.explainer
            assert ex is not None
            lengths.append(len(chain.steps))
            for n in range(1, len(chain.steps) + 1):
                steps += 1
                failures += not verify(ex, chain, n)
    return {
        "explanations": len(lengths), "steps": steps, "failures": failures, "counted": counted,
        "median": statistics.median(lengths) if lengths else 0, "longest": max(lengths, default=0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<22}{'chains':>8}{'steps':>8}{'failed':>8}{'median':>8}{'longest':>9}{'counted':>9}{'s':>7}")
    for game in GAMES.names():
        start = time.perf_counter()
        r = measure(game, args.games, args.seed)
        print(f"{game:<22}{r['explanations']:>8}{r['steps']:>8}{r['failures']:>8}{r['median']:>8}"
              f"{r['longest']:>9}{r['counted']:>9}{time.perf_counter() - start:>7.1f}")


if __name__ == "__main__":
    main()
