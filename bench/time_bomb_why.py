"""How long Time Bomb's `why inplay COLOUR K steps` takes: every decided in-play count at the end of the example,
explained once and then again (a core is kept while its entries stand, so the second time solves nothing).

    python bench/time_bomb_why.py [EXAMPLE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models import GAMES  # noqa: E402
from solver.session import read_lines  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("example", nargs="?", default=str(ROOT / "examples" / "time-bomb-5p.txt"))
    args = parser.parse_args()
    teacher = GAMES["time-bomb"].new_teacher()
    session = teacher.new_session()
    for _, line in read_lines(Path(args.example)):
        session.handle(line.split("#", 1)[0].strip(), show=False)
    claims = teacher.claims(session)
    decided = claims.decided()
    for label in ("first", "again"):
        took = []
        for key, value in decided.items():
            start = time.perf_counter()
            claims.explain(key, value)
            took.append(time.perf_counter() - start)
        print(f"{label}: {len(took)} claims, median {statistics.median(took) * 1000:.1f} ms, "
              f"longest {max(took) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
