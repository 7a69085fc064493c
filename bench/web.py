"""How fast the web companion answers an entry, beside the same entry in the terminal session.

For each game at its largest player count, seeded simulated games are seen from one seat (the same transcripts
``assist replay --game G --seed N`` narrates). Every entry line is sent twice, in the same run:

- **web**: a POST to ``/g/ID/line`` through the real ASGI app (Starlette's test client: routing, form parsing,
  the session, the HTML of the answer, the journal write), timed from the request to the rendered response;
- **terminal**: the same line handled by a terminal session and drawn with rich to an 80-column console.

It prints per game the median and 95th percentile of both (milliseconds, wall clock), and the ratio of the
medians. Targets (issue 11): web median at most 100 ms, p95 at most 300 ms.

    python bench/web.py --games 3 --seed 1
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from assistant_cli.terminal import to_rich  # noqa: E402
from assistant_cli.web.app import create_app  # noqa: E402
from models import GAMES  # noqa: E402
from solver.errors import AssistantError  # noqa: E402
from solver.narrate import replay_lines  # noqa: E402

LARGEST = {"thirteen-clues": 6, "beyond-baker-street": 4, "evidence": 5, "time-bomb": 6}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(game: str, seed: int, players: int) -> tuple[list[float], list[float]]:
    """(web ms, terminal ms) for every entry of one seeded game."""
    _, lines, _, _ = replay_lines(game, None, seed, players)
    web_ms: list[float] = []
    term_ms: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        client = TestClient(create_app(Path(folder)))
        game_id = client.post("/new", data={"game": game}, follow_redirects=False).headers["location"].split("/")[-1]
        client.get(f"/g/{game_id}")  # open the game (a session is made once per game)
        terminal = GAMES[game].new_session()
        console = Console(file=io.StringIO(), width=80)
        for line in lines:
            start = time.perf_counter()
            response = client.post(f"/g/{game_id}/line", data={"line": line})
            web_ms.append(1000 * (time.perf_counter() - start))
            assert response.status_code == 200, response.text
            start = time.perf_counter()
            try:
                reply = terminal.handle(line)
                for view in reply.renderables:
                    console.print(to_rich(view))
            except AssistantError:
                pass
            term_ms.append(1000 * (time.perf_counter() - start))
    return web_ms, term_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="seeded games per game (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--game", choices=sorted(LARGEST), action="append", help="only these games")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}; wall-clock ms per entry, request to rendered response")
    print("| game | players | entries | web median | web p95 | terminal median | terminal p95 | web / terminal |")
    print("|---|---|---|---|---|---|---|---|")
    for game in args.game or sorted(LARGEST):
        web: list[float] = []
        term: list[float] = []
        for seed in range(args.seed, args.seed + args.games):
            w, t = measure(game, seed, LARGEST[game])
            web += w
            term += t
        ratio = statistics.median(web) / max(statistics.median(term), 1e-9)
        print(f"| {game} | {LARGEST[game]} | {len(web)} | {statistics.median(web):.1f} | {pct(web, 0.95):.1f} | "
              f"{statistics.median(term):.1f} | {pct(term, 0.95):.1f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
