"""Benchmark: how long the Thirteen Clues knowledge state takes to refresh after each observation.

Plays seeded, realistic games (a random deal, then 15 to 25 true observations from one player's seat: witness
answers, informant looks, wrong accusations by rivals and by me) and after every observation times, on a cold
cache, the three things the assistant shows:

1. possible values and certain facts (``Knowledge.possible`` / ``certain``),
2. exact probabilities of my mystery (``ThirteenCluesKnowledge.mystery``, the allocation counter),
3. ``why`` on a card ruled out of my mystery (``explain``: a minimal set of observations).

The same refresh is then done by the brute-force reference (:mod:`solver.reference`, python-constraint) where
it finishes within a per-call cap, and the two are checked to agree. Prints medians, p95 and the paired
ratio reference / engine. Run from the repository root::

    python bench/refresh.py --games 4 --seed 1 --players 2,3,4,5,6
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES, DEFAULT_DATA  # noqa: E402
from models.thirteen_clues.deal import Deal, random_deal  # noqa: E402
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge  # noqa: E402
from models.thirteen_clues.observations import (  # noqa: E402
    Accusation,
    InformantBy,
    InformantLook,
    Observation,
)
from solver import reference  # noqa: E402
from solver.constraints import Constraint, require  # noqa: E402

T = TypeVar("T")

#: Targets from the issue (milliseconds).
TARGETS = {
    "possible": (50.0, 150.0),  # median, p95
    "probabilities": (200.0, None),
    "why": (250.0, None),
}


# -- realistic games --------------------------------------------------------------------------------------------
def legal_wrong_accusation(deal: Deal, seat: int, rng: random.Random) -> Accusation | None:
    """A random accusation ``seat`` may make (no card they can see) that is not their mystery."""
    visible = set(deal.visible_to(seat))
    in_play = [c.name for c in DEFAULT_DATA.cards_in_play(deal.players)]
    options = {cat: [c for c in in_play if CARD_BY_NAME[c].category == cat and c not in visible] for cat in CATEGORIES}
    for _ in range(20):
        triple = tuple(rng.choice(options[cat]) for cat in CATEGORIES)
        if set(triple) != set(deal.screens[seat]):
            return Accusation(seat, triple[0], triple[1], triple[2], False)
    return None  # every legal accusation is the true one (the accuser has solved it)


def realistic_game(players: int, rng: random.Random) -> tuple[Deal, int, list[Observation]]:
    """A deal, my seat, and 15 to 25 true observations from my seat in turn order.

    Each turn the player to move asks a witness (most often), consults an informant, or makes a wrong
    accusation; magnifying glasses are left out since they carry no information.
    """
    deal = random_deal(players, rng)
    me = rng.randint(1, players)
    letters = list(deal.informants)
    subjects = [*DEFAULT_DATA.suits_in_play(players), *CATEGORIES]
    wanted = rng.randint(15, 25)
    out: list[Observation] = []
    turn = 0
    while len(out) < wanted:
        actor = turn % players + 1
        turn += 1
        roll = rng.random()
        if roll < 0.15 and turn > players:
            accusation = legal_wrong_accusation(deal, actor, rng)
            if accusation is not None:
                out.append(accusation)
                continue
        if roll < 0.35 and letters:
            letter = rng.choice(letters)
            out.append(InformantLook(letter, deal.informants[letter]) if actor == me else InformantBy(letter, actor))
            continue
        target = rng.choice([s for s in deal.seats if s != actor])
        side = rng.choice(("left", "right")) if players == 2 else None
        out.append(deal.answer(target, rng.choice(subjects), actor, side))
    return deal, me, out


def knowledge_for(deal: Deal, me: int) -> ThirteenCluesKnowledge:
    setup = TableSetup()
    for line in deal.setup_lines(me):
        setup.apply(line)
    return ThirteenCluesKnowledge(setup)


# -- timing -----------------------------------------------------------------------------------------------------
class CapExceeded(Exception):
    """The brute-force reference did not finish within its per-call cap."""


@contextmanager
def time_cap(seconds: float) -> Iterator[None]:
    """Interrupt the (pure Python) reference enumeration after ``seconds`` of wall time."""

    def on_alarm(_signum: int, _frame: object) -> None:
        raise CapExceeded

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: Wall time by default (what the user waits); ``--clock cpu`` measures process CPU time instead, which is steadier
#: on a loaded machine (CP-SAT runs one worker in this process, so its time is included).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """``fn()`` and the milliseconds it took on the chosen clock."""
    start = clock()
    value = fn()
    return value, (clock() - start) * 1000


@dataclass
class Samples:
    engine: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in ("add", *TARGETS)})
    ref: dict[str, list[float]] = field(default_factory=lambda: {"possible": [], "why": []})
    ratio: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in TARGETS})
    skipped: dict[str, int] = field(default_factory=dict)
    estimates: int = 0
    mismatches: list[str] = field(default_factory=list)
    refreshes: int = 0

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


def reference_why(
    kn: ThirteenCluesKnowledge, card: str, cap: float
) -> tuple[list[Observation], float]:
    """Brute-force ``why``: deletion filter over the observations, each test a reference enumeration."""
    problem = kn.knowledge.problem
    entries = list(kn.knowledge.entries)

    def infeasible(keep: Sequence[int]) -> bool:
        constraints: list[Constraint] = [c for i in keep for c in entries[i].constraints]
        try:
            reference.solve(problem, [*constraints, require(card, MYSTERY)], limit=0)
        except OverflowError:
            return False  # a first world was found
        return True

    start = clock()
    with time_cap(cap):
        core = list(range(len(entries)))
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            if infeasible(trial):
                core = trial
            else:
                i += 1
    return [entries[i].observation for i in core], (clock() - start) * 1000


def refresh(kn: ThirteenCluesKnowledge, obs: Observation, rng: random.Random, s: Samples, args: argparse.Namespace,
            where: str) -> None:
    """Add one observation and time one full refresh, by the engine and (where small enough) the reference."""
    _, t_add = timed(lambda: kn.add(obs))
    (possible, _certain), t_pos = timed(lambda: (kn.knowledge.possible(), kn.knowledge.certain()))
    _, t_prob = timed(kn.mystery)
    count = kn.count()
    s.refreshes += 1
    s.engine["add"].append(t_add)
    s.engine["possible"].append(t_pos)
    s.engine["probabilities"].append(t_prob)
    if not count.exact:
        s.estimates += 1
    ruled_out = [c for c in kn.unseen if MYSTERY not in possible[c]]
    card = rng.choice(ruled_out) if ruled_out else None
    t_why = None
    if card is not None:
        _, t_why = timed(lambda: kn.explain(card))
        s.engine["why"].append(t_why)

    if not count.exact or count.worlds > args.ref_worlds:
        s.skip(f"over {args.ref_worlds} worlds (not tried)")
        return
    observed = [c for e in kn.knowledge.entries for c in e.constraints]
    try:
        with time_cap(args.cap):
            ref, t_ref = timed(lambda: reference.solve(kn.knowledge.problem, observed))
    except CapExceeded:
        s.skip(f"reference over the {args.cap:g} s cap")
        return
    s.ref["possible"].append(t_ref)
    s.ratio["possible"].append(t_ref / t_pos)
    s.ratio["probabilities"].append(t_ref / t_prob)
    if ref.possible() != {v: vals for v, vals in possible.items() if vals}:
        s.mismatches.append(f"{where} after '{obs}': possible values differ")
    for lit in [(c, MYSTERY) for c in kn.unseen]:
        if not math.isclose(ref.probability(lit), count.probability(lit), rel_tol=1e-9, abs_tol=1e-12):
            s.mismatches.append(f"{where} after '{obs}': P({lit[0]} in my mystery) differs")
            break
    if card is None or t_why is None:
        return
    try:
        _, t_ref_why = reference_why(kn, card, args.cap)
    except CapExceeded:
        s.skip(f"reference why over the {args.cap:g} s cap")
        return
    s.ref["why"].append(t_ref_why)
    s.ratio["why"].append(t_ref_why / t_why)


# -- report -----------------------------------------------------------------------------------------------------
def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def row(name: str, values: Sequence[float], target: tuple[float, float | None] | None = None) -> str:
    if not values:
        return f"  {name:<22} {'-':>6}"
    med, p95 = statistics.median(values), pct(values, 95)
    line = f"  {name:<22} {len(values):>6} {med:>10.1f} {p95:>10.1f} {max(values):>10.1f}"
    if target:
        ok = med <= target[0] and (target[1] is None or p95 <= target[1])
        goal = f"median <= {target[0]:g}" + (f", p95 <= {target[1]:g}" if target[1] else "")
        line += f"   {goal:<26} {'ok' if ok else 'MISSED'}"
    return line


def report(title: str, s: Samples, args: argparse.Namespace) -> list[str]:
    out = [f"{title}: {s.refreshes} refreshes"]
    out.append(f"  {'engine (ms)':<22} {'n':>6} {'median':>10} {'p95':>10} {'max':>10}   target")
    out.append(row("add (feasibility)", s.engine["add"]))
    for key, target in TARGETS.items():
        out.append(row(key, s.engine[key], target))
    if s.estimates:
        out.append(f"  note: {s.estimates} counts were estimates (budget ran out)")
    out.append(f"  {'reference (ms)':<22} {'n':>6} {'median':>10} {'p95':>10} {'max':>10}")
    out.append(row("possible+probabilities", s.ref["possible"]))
    out.append(row("why (deletion filter)", s.ref["why"]))
    for key in TARGETS:
        r = s.ratio[key]
        if r:
            out.append(f"  ratio reference/engine, {key:<14} median {statistics.median(r):8.1f}x  (n={len(r)})")
    for reason, n in sorted(s.skipped.items()):
        out.append(f"  reference skipped: {n} x {reason}")
    out.append(f"  engine/reference disagreements: {len(s.mismatches)}")
    out += [f"    {m}" for m in s.mismatches[:10]]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per player count (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts, comma-separated (default 2,3,4,5,6)")
    parser.add_argument("--cap", type=float, default=2.0, help="per-call cap on the reference, seconds (default 2)")
    parser.add_argument(
        "--ref-worlds", type=int, default=20_000,
        help="try the reference only on states with at most this many worlds (default 20000)",
    )
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="what to time (default wall)")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    load_before = os.getloadavg()[0]
    counts = [int(p) for p in args.players.split(",")]
    rng = random.Random(args.seed)  # the games
    pick = random.Random(args.seed + 1)  # which ruled-out card to ask "why" about, apart so games do not depend on it
    overall = Samples()
    lines: list[str] = []
    for players in counts:
        per = Samples()
        for game in range(args.games):
            deal, me, observations = realistic_game(players, rng)
            kn = knowledge_for(deal, me)
            kn.mystery()  # warm-up: the first refresh of the setup is not after an observation
            for obs in observations:
                refresh(kn, obs, pick, per, args, f"{players}p game {game + 1}")
        lines += report(f"{players} players, {args.games} games", per, args)
        merge(overall, per)
    lines += report(f"all ({','.join(map(str, counts))} players)", overall, args)
    print(f"bench/refresh.py --games {args.games} --seed {args.seed} --players {args.players} --cap {args.cap:g} "
          f"--ref-worlds {args.ref_worlds} --clock {args.clock}")
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average {load_before:.1f} at start, "
          f"{os.getloadavg()[0]:.1f} at end; times in ms ({args.clock} clock)")
    print("\n".join(lines))
    return 1 if overall.mismatches else 0


def merge(into: Samples, part: Samples) -> None:
    for key, values in part.engine.items():
        into.engine[key] += values
    for key, values in part.ref.items():
        into.ref[key] += values
    for key, values in part.ratio.items():
        into.ratio[key] += values
    for reason, n in part.skipped.items():
        into.skipped[reason] = into.skipped.get(reason, 0) + n
    into.estimates += part.estimates
    into.mismatches += part.mismatches
    into.refreshes += part.refreshes


if __name__ == "__main__":
    sys.exit(main())
