"""How fast the web companion answers an entry, beside the same entry in the terminal session.

For each game at its largest player count, seeded simulated games are seen from one seat (the same transcripts
``assist replay --game G --seed N`` narrates). Every entry line is sent twice, in the same run:

- **web**: a POST to ``/g/ID/line`` to a real ``assist serve`` server (uvicorn on 127.0.0.1 in a child process,
  with the settings ``assist serve`` uses) over one keep-alive connection, as a phone sends it: routing, the
  guards, form parsing, the game's lock, the session, the journal write, the snapshot and push, the HTML of the
  answer, timed from the request to the whole rendered response;
- **terminal**: the same line handled by a terminal session and drawn with rich to an 80-column console.

It prints per game the median and 95th percentile of both (milliseconds, wall clock), and the ratio of the
medians, and the median of a static file fetched from the same server after each entry (the floor: what any
request costs on this machine at this load, with no game work at all). Targets (issue 19): web median at most
50 ms, p95 at most 150 ms. The web side includes everything a write does since issue 20: the game's lock, the
journal's fsync and rename, the snapshot every page and push is drawn from, and the push to the other phones.

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

import multiprocessing  # noqa: E402
import socket  # noqa: E402

import httpx2 as httpx  # noqa: E402
import uvicorn  # noqa: E402
from rich.console import Console  # noqa: E402

from assistant_cli.terminal import to_rich  # noqa: E402
from assistant_cli.web.app import create_app  # noqa: E402
from assistant_cli.web.serve import listening_socket, server_config  # noqa: E402
from models import GAMES  # noqa: E402
from solver.errors import AssistantError  # noqa: E402
from solver.narrate import replay_lines  # noqa: E402

LARGEST = {"thirteen-clues": 6, "beyond-baker-street": 4, "evidence": 5, "time-bomb": 6}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class LocalServer:
    """``assist serve``'s app on a free port of 127.0.0.1, run by uvicorn in a child process, as ``assist serve``
    runs apart from the phones."""

    def __init__(self, folder: Path) -> None:
        self.sock = listening_socket("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.process = multiprocessing.get_context("fork").Process(
            target=serve, args=(self.sock, folder), daemon=True)
        self.process.start()
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(self.url + "/static/app.css", timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or not self.process.is_alive():
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.sock.close()


def serve(sock: socket.socket, folder: Path) -> None:
    """The child process: the app and uvicorn with the settings ``assist serve`` uses, on the inherited socket."""
    uvicorn.Server(uvicorn.Config(**server_config(create_app(folder), lan=False))).run(sockets=[sock])


def measure(game: str, seed: int, players: int) -> tuple[list[float], list[float], list[float]]:
    """(web ms, terminal ms, floor ms) for every entry of one seeded game; the floor is a static file fetched
    from the same server after each entry: what any request costs on this machine at this load."""
    _, lines, _, _ = replay_lines(GAMES, game, None, seed, players)
    web_ms: list[float] = []
    term_ms: list[float] = []
    floor_ms: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        server = LocalServer(Path(folder))
        try:
            with httpx.Client(base_url=server.url, timeout=120) as client:
                game_id = client.post("/new", data={"game": game}).headers["location"].split("/")[-1]
                client.get(f"/g/{game_id}")  # open the game (a session is made once per game)
                terminal = GAMES[game].new_session()
                console = Console(file=io.StringIO(), width=80)
                for line in lines:
                    start = time.perf_counter()
                    response = client.post(f"/g/{game_id}/line", data={"line": line})
                    response.read()
                    web_ms.append(1000 * (time.perf_counter() - start))
                    assert response.status_code == 200, response.text
                    start = time.perf_counter()
                    client.get("/static/app.css").read()
                    floor_ms.append(1000 * (time.perf_counter() - start))
                    start = time.perf_counter()
                    try:
                        reply = terminal.handle(line)
                        for view in reply.renderables:
                            console.print(to_rich(view))
                    except AssistantError:
                        pass
                    term_ms.append(1000 * (time.perf_counter() - start))
        finally:
            server.stop()
    return web_ms, term_ms, floor_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="seeded games per game (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--game", choices=sorted(LARGEST), action="append", help="only these games")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores; wall-clock ms per entry, request to rendered "
          "response")
    print("| game | players | entries | web median | web p95 | terminal median | terminal p95 | web / terminal | "
          "request floor median | web - floor median | targets met |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game in args.game or sorted(LARGEST):
        web: list[float] = []
        term: list[float] = []
        floor: list[float] = []
        for seed in range(args.seed, args.seed + args.games):
            w, t, f = measure(game, seed, LARGEST[game])
            web += w
            term += t
            floor += f
        ratio = statistics.median(web) / max(statistics.median(term), 1e-9)
        met = statistics.median(web) <= 50 and pct(web, 0.95) <= 150
        print(f"| {game} | {LARGEST[game]} | {len(web)} | {statistics.median(web):.1f} | {pct(web, 0.95):.1f} | "
              f"{statistics.median(term):.1f} | {pct(term, 0.95):.1f} | {ratio:.2f} | {statistics.median(floor):.1f} | "
              f"{statistics.median(web) - statistics.median(floor):.1f} | {'yes' if met else 'NO'} |")


if __name__ == "__main__":
    main()
