"""How long the legal next choices take (issue 19 §2): the time of ``session.choices(text)`` at every tap of
every entry (each prefix that ``tap_path`` visits), median and p95 per game, beside the time of handling the
entry itself (``handle(line, show=False)``) measured in the same run, on the shipped example and seeded
simulated games at each game's largest player count. A tap waits for its choices, so they should cost no more
than an entry does.

    python bench/choices.py --seeds 1,2 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from models import GAMES
from solver.session import read_lines, tap_path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {"thirteen-clues": "thirteen-clues-4p.txt", "beyond-baker-street": "beyond-baker-street-3p.txt",
            "evidence": "evidence-4p.txt", "time-bomb": "time-bomb-5p.txt"}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(game: str, lines: list[str], repeat: int) -> tuple[list[float], list[float], list[int]]:
    """(choices times, entry times, taps per entry) in milliseconds, entering ``lines`` into a new session.
    Each tap's choices are timed on their first call after the entry before (cold: what a tap waits for; the
    knowledge's caches fill here), the slowest of ``repeat`` calls kept; the taps follow ``tap_path``'s rule
    (the longest offered phrase matching the next words), walked here so that no call comes before the timed
    one."""
    session = GAMES.get(game).new_session()
    choice_ms: list[float] = []
    entry_ms: list[float] = []
    taps: list[int] = []
    for line in lines:
        words = line.split()
        done, count = 0, 0
        while done < len(words):
            text = " ".join(words[:done]) + (" " if done else "")
            start = time.perf_counter()
            found = session.choices(text)
            slowest = 1000 * (time.perf_counter() - start)
            for _ in range(repeat - 1):
                slowest = max(slowest, timed(lambda t=text: session.choices(t)))
            choice_ms.append(slowest)
            step = max((len(c.word.split()) for c in found if c.word and [w.lower() for w in c.word.split()] ==
                        [w.lower() for w in words[done: done + len(c.word.split())]]), default=0)
            if not step:  # a word written otherwise than offered (a name without its spaces): tap_path's count
                path = tap_path(session, line)
                count = len(path) if path is not None else 0
                break
            done, count = done + step, count + 1
        else:
            path = tap_path(session, line)
            count = len(path) if path is not None else count
        taps.append(count)
        start = time.perf_counter()
        session.handle(line, show=False)
        entry_ms.append(1000 * (time.perf_counter() - start))
    return choice_ms, entry_ms, taps


def timed(call: object) -> float:
    start = time.perf_counter()
    call()  # type: ignore[operator]
    return 1000 * (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1", help="seeded simulated games per game, e.g. 1,2,3")
    parser.add_argument("--repeat", type=int, default=3, help="calls per choice (the slowest is kept)")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s]
    print("| Game | players | entries | taps/entry median | choices ms median | p95 | entry ms median | "
          "choices / entry |")
    print("|---|---|---|---|---|---|---|---|")
    for game in sorted(EXAMPLES):
        teacher = GAMES.get(game).new_teacher()
        players = teacher.players_range[1]
        runs = [("example", [line.split("#", 1)[0].strip() for _, line in read_lines(ROOT / "examples" /
                                                                                     EXAMPLES[game])])]
        runs += [(f"seed {s}", list(teacher.transcript(s, players).lines)) for s in seeds]
        choices: list[float] = []
        entries: list[float] = []
        taps: list[int] = []
        for _, lines in runs:
            c, e, t = measure(game, lines, args.repeat)
            choices += c
            entries += e
            taps += t
        ratio = statistics.median(choices) / statistics.median(entries)
        print(f"| {game} | {players} (seeds), example | {len(taps)} | {statistics.median(taps):g} | "
              f"{statistics.median(choices):.2f} | {p95(choices):.2f} | {statistics.median(entries):.2f} | "
              f"{ratio:.2f} |")


if __name__ == "__main__":
    main()
