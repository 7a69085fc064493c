"""Benchmark: Evidence's ``advise`` off my turn (my move now, then play from the seat to move) beside on my turn.

    python bench/evidence_off_turn.py --repeat 3

Three positions, each timed ``--repeat`` times with the compiled loops loaded (a warm companion) and the default
96 futures per option; the median wall seconds of each: off my turn in round 1 (``examples/evidence-4p.txt``
after 10 entries, player 3 to play), off my turn in the last round (the teacher's seed-1 game after 57 entries:
round 6, player 3 to play, one rumour in my hand, where the advice used to refuse) and on my turn (the example
after 14 entries, my play in round 1).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from models import GAMES
from models.evidence import compiled
from solver.session import BaseSession, read_lines

ROOT = Path(__file__).resolve().parents[1]


def session_of(lines: list[str]) -> BaseSession:
    session = GAMES.get("evidence").new_session()
    for line in lines:
        session.handle(line, show=False)
    return session


def median_advise(session: BaseSession, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        session.handle("advise")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    compiled.compiled(True, True)  # loaded (compiled the first time after an install), as in a warm companion
    example = [line for _, line in read_lines(ROOT / "examples" / "evidence-4p.txt")]
    teacher = GAMES.get("evidence").new_teacher()
    seeded = list(teacher.transcript(1, teacher.default_players).lines)
    for label, lines in (("off my turn, round 1", example[:10]), ("off my turn, round 6", seeded[:57]),
                         ("on my turn, round 1", example[:14])):
        print(f"{label}: {median_advise(session_of(lines), args.repeat):.2f} s")


if __name__ == "__main__":
    main()
