"""CPU time of a Thirteen Clues entry, part by part: what the web page's write does in its worker thread.

For seeded simulated games at 6 players (the transcripts ``assist replay --game thirteen-clues --seed N``
narrates), every entry line is handled by a session (``handle``: the reply and its state at a glance), then the
drawn state is made (``state``: the table and the card x holder grid, what the web snapshot draws), then the
page's finished check and entry-box buttons; rich drawing of the reply (the terminal's share) is timed apart.
Process CPU time, so a busy shared machine changes it less than wall clock.

``--counters`` instead times, at every state of two seeded games per player count 2..6, the budget-limited
:class:`AllocationCounter` count against :meth:`AllocationCounter.joints` over every place but my mystery
(what :class:`models.thirteen_clues.knowledge.JointCounter` computes once per state), and checks they agree.

    python bench/tc_entry.py --seeds 1,2,3
    python bench/tc_entry.py --counters
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402

from assistant_cli.terminal import to_rich  # noqa: E402
from assistant_cli.web import choices as taps  # noqa: E402
from models import GAMES  # noqa: E402
from models.thirteen_clues.knowledge import MYSTERY  # noqa: E402
from solver.counting import AllocationCounter  # noqa: E402
from solver.errors import AssistantError  # noqa: E402
from solver.narrate import replay_lines  # noqa: E402

PARTS = ("handle", "state", "finished", "buttons", "rich")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def entries(seeds: list[int]) -> None:
    """Per entry: the CPU ms of each part; prints the web side's total (all but rich) and each part."""
    parts: dict[str, list[float]] = {k: [] for k in PARTS}
    total: list[float] = []
    for seed in seeds:
        _, lines, _, _ = replay_lines(GAMES, "thirteen-clues", None, seed, 6)
        session = GAMES["thirteen-clues"].new_session()
        console = Console(file=io.StringIO(), width=80)
        for line in lines:
            marks = [time.process_time()]
            try:
                reply = session.handle(line)
            except AssistantError:
                reply = None
            marks.append(time.process_time())
            with contextlib.suppress(AssistantError):
                session.state()
            marks.append(time.process_time())
            taps.is_finished(session)
            marks.append(time.process_time())
            question = session.setup_question()
            taps.buttons(session, question.prefix.strip() + " " if question and question.prefix.strip() else "")
            marks.append(time.process_time())
            for view in reply.renderables if reply else []:
                console.print(to_rich(view))
            marks.append(time.process_time())
            for name, start, end in zip(PARTS, marks, marks[1:], strict=False):
                parts[name].append(1000 * (end - start))
            total.append(1000 * (marks[4] - marks[0]))
    print(f"{len(total)} entries, seeds {','.join(map(str, seeds))}: handle+state+finished+buttons CPU ms median "
          f"{statistics.median(total):.1f}, p95 {p95(total):.1f}")
    for name, values in parts.items():
        print(f"  {name}: median {statistics.median(values):.2f}, p95 {p95(values):.2f}")


def counters() -> None:
    """The count against the joints, per player count (CPU ms, median and max over every state)."""
    for players in (2, 3, 4, 5, 6):
        count_ms: list[float] = []
        joints_ms: list[float] = []
        for seed in (1, 2):
            _, lines, _, _ = replay_lines(GAMES, "thirteen-clues", None, seed, players)
            session = GAMES["thirteen-clues"].new_session()
            for line in lines:
                try:
                    session.handle(line, show=False)
                except AssistantError:
                    continue
                kn = session.knowledge
                if kn is None:
                    continue
                observed = [c for e in kn.knowledge.entries for c in e.constraints]
                counter = AllocationCounter(kn.capacities, MYSTERY)
                start = time.process_time()
                count = counter(kn.knowledge.problem, observed, 60)
                middle = time.process_time()
                joints = counter.joints(kn.knowledge.problem, observed, [p for p in kn.capacities if p != MYSTERY])
                end = time.process_time()
                assert count.exact and next(iter(joints.values())).total == count.worlds
                count_ms.append(1000 * (middle - start))
                joints_ms.append(1000 * (end - middle))
        print(f"{players} players, {len(count_ms)} states: count median {statistics.median(count_ms):.1f} max "
              f"{max(count_ms):.1f}; joints median {statistics.median(joints_ms):.1f} max {max(joints_ms):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1,2,3", help="seeded games at 6 players (default 1,2,3)")
    parser.add_argument("--counters", action="store_true", help="time the count against the joints instead")
    args = parser.parse_args()
    if args.counters:
        counters()
    else:
        entries([int(s) for s in args.seeds.split(",")])


if __name__ == "__main__":
    main()
