"""What drawing the table costs: the state the page and ``show`` draw (the table drawn plus the state at a glance)
against the state at a glance alone, measured in the same run.

For every shipped example of every game, after every entry of it, it times building the view data and drawing
it as HTML (``assistant_cli/web/html.py``, what the page sends) and, separately, as text (rich at 80 columns),
each once with the drawing (``session.state()``) and once without it (the state at a glance alone), the best of
``--repeat`` runs, and prints the median and 95th percentile of each in milliseconds (wall clock) and the ratio
of the medians. The drawing adds Thirteen Clues'
exact card x holder grid (one joint count per place), so that game's ratio is the one to watch.

    python bench/drawn.py --repeat 3
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402

from assistant_cli.terminal import to_rich  # noqa: E402
from assistant_cli.web import html  # noqa: E402
from models import GAMES  # noqa: E402
from solver.session import read_lines  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def timed(work: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return 1000 * best


def page(views: list[object]) -> None:
    html.render(views)


def text(views: list[object]) -> None:
    console = Console(file=io.StringIO(), width=80, color_system="truecolor")
    for view in views:
        console.print(to_rich(view))  # type: ignore[arg-type]


def state_alone(session: object) -> list[object]:
    """The state at a glance without the drawing (Thirteen Clues builds it from its snapshot)."""
    try:
        return [session.state_view(None)]  # type: ignore[attr-defined]
    except NotImplementedError:
        from models.thirteen_clues import views

        snap = session.snapshot()  # type: ignore[attr-defined]
        return [views.state_view(snap.mystery, snap.count, snap.whatifs, None)]


def measure(game: str, example: str, repeat: int) -> dict[str, list[float]]:
    """Per entry of the example once the setup is complete, in ms: the views built and drawn as the page
    (``page``) and as text (``text``), with the drawing (``session.state()``) and without it (``alone``)."""
    session = GAMES[game].new_session()
    out: dict[str, list[float]] = {"page": [], "page alone": [], "text": [], "text alone": []}
    for _, line in read_lines(ROOT / "examples" / example):
        session.handle(line, show=False)
        if getattr(session, "knowledge", None) is None:
            continue
        out["page"].append(timed(lambda: page(session.state()), repeat))
        out["page alone"].append(timed(lambda: page(state_alone(session)), repeat))
        out["text"].append(timed(lambda: text(session.state()), repeat))
        out["text alone"].append(timed(lambda: text(state_alone(session)), repeat))
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per entry, the best kept (default 3)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; ms per entry, median / p95: the views built and drawn as the page "
          "(HTML) and as text (rich, 80 columns), with the table drawn and with the state alone")
    print("| game | example | entries | page | page, state alone | ratio | text | text, state alone | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for entry in GAMES:
        for example in entry.examples:
            m = measure(entry.name, example, args.repeat)
            cols = []
            for kind in ("page", "text"):
                drawn, alone = m[kind], m[f"{kind} alone"]
                ratio = statistics.median(drawn) / statistics.median(alone)
                cols += [f"{statistics.median(drawn):.1f} / {p95(drawn):.1f}",
                         f"{statistics.median(alone):.1f} / {p95(alone):.1f}", f"{ratio:.2f}"]
            print(f"| {entry.title} | {example} | {len(m['page'])} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
