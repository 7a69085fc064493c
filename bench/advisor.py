"""How fast and how good the Thirteen Clues advisor is.

Plays seeded games with :class:`models.thirteen_clues.advisor.AdvisorBot` and prints:

1. ``advise`` latency at each table size: every call made by the advisors in the games (median, p95, max, in
   milliseconds of this process's CPU time with ``--clock cpu``, the default, or wall time);
2. win shares of the advisor in seat 1 (the first player is drawn at random in every game): against logic bots
   at each table size, and against three other advisors at four players;
3. how many of its own answers (actions) and turns an advisor needs before its mystery is certain, against the
   information-theoretic lower bound (:func:`information_lower_bound`, in answers): in the games above (where
   most advisors accuse, and win, before they are certain) and alone at the table, uncensored.

Usage (from the repository root, with the virtual environment active)::

    python bench/advisor.py                                  # 2..6 players, 20 games each, seed 1
    python bench/advisor.py --games 200 --players 4 --workers 2
    python bench/advisor.py --games 200 --players 4 --cluster local:2   # or --cluster tcp://scheduler:8786

Every game is reproducible from (seed, game index) as in ``assist simulate``.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.thirteen_clues import advisor as advisor_module  # noqa: E402
from models.thirteen_clues.advisor import AdvisorBot, Weights, information_lower_bound  # noqa: E402
from models.thirteen_clues.bots import make_bot  # noqa: E402
from models.thirteen_clues.deal import random_deal  # noqa: E402
from models.thirteen_clues.knowledge import TableSetup, ThirteenCluesKnowledge  # noqa: E402
from models.thirteen_clues.observations import Accusation, Ask, Consult, InformantLook  # noqa: E402
from models.thirteen_clues.rules import TableRules, new_game  # noqa: E402
from solver.bots import Bot  # noqa: E402
from solver.parallel import Backend, open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402


@dataclass
class Outcome:
    """One game: the winner, and for each advisor seat its advise timings and when it became certain."""

    winner: int | None
    timings: list[float] = field(default_factory=list)
    certain: list[tuple[int, int] | None] = field(default_factory=list)  # (actions, turns) per advisor seat
    bounds: list[float] = field(default_factory=list)


def play_one(job: tuple[int, tuple[str, ...], int, int, str]) -> Outcome:
    """Worker: play game ``index`` of the run seeded ``seed``; time every ``advise`` call."""
    players, names, seed, index, clock = job
    tick: Callable[[], float] = time.process_time if clock == "cpu" else time.perf_counter
    timings: list[float] = []
    original = advisor_module.advise

    def timed(*args: object, **kwargs: object) -> list[advisor_module.Advice]:
        start = tick()
        out = original(*args, **kwargs)  # type: ignore[arg-type]
        timings.append(tick() - start)
        return out

    made: dict[int, Bot] = {}

    def build(name: str, seat: int, rng: random.Random) -> Bot:
        made[seat] = make_bot(name, seat, rng)
        return made[seat]

    advisor_module.advise = timed  # the bot looks the function up in its module at every step
    try:
        matchup = Matchup(functools.partial(new_game, TableRules(players)), names, build)
        record, _ = play_game(matchup, game_seed(seed, index), index)
    finally:
        advisor_module.advise = original
    advisors = [b for _, b in sorted(made.items()) if isinstance(b, AdvisorBot)]
    return Outcome(
        record.winner,
        timings,
        [b.certain_after for b in advisors],
        [information_lower_bound(b.knowledge) for b in advisors if b.knowledge is not None],
    )


def solo_answers(job: tuple[int, int, int]) -> tuple[int, float]:
    """Answers seat 1 needs to make its mystery certain when it alone acts and always takes the most
    informative action (no rivals, so nothing to give away and nobody to race; an accusation counts for the
    information in its right/wrong answer, which can separate mysteries no question can in two-player games),
    and the lower bound for that deal. Uncensored, unlike the in-game figure, which stops when someone wins."""
    players, seed, index = job
    rng = random.Random(game_seed(seed, index))
    deal = random_deal(players, rng)
    setup = TableSetup()
    for line in deal.setup_lines(1):
        setup.apply(line)
    kn = ThirteenCluesKnowledge(setup)
    pure = Weights(leak=0.0, glass=0.0, race=0.0)
    answers = 0
    while advisor_module.Position(kn).possible > 1:
        action = advisor_module.advise(kn, weights=pure)[0].action
        answers += 1
        if isinstance(action, Ask):
            kn.add(deal.answer(action.seat, action.subject, 1, action.side))
        elif isinstance(action, Consult):
            kn.add(InformantLook(action.letter, deal.informants[action.letter]))
        elif set(action.cards) == set(deal.screens[1]):
            break  # a right accusation: certain (and won)
        else:
            kn.add(Accusation(1, *action.cards, False))
        if answers > 60:
            raise RuntimeError(f"solo game {index} at {players} players: not certain after 60 answers")
    return answers, information_lower_bound(kn)


def run(players: int, names: tuple[str, ...], games: int, seed: int, backend: Backend, clock: str) -> list[Outcome]:
    return run_jobs(play_one, [(players, names, seed, i, clock) for i in range(games)], backend)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def share(outcomes: list[Outcome], seats: list[int]) -> tuple[float, float]:
    """Win share per seat among ``seats`` and its standard error over games."""
    per_game = [sum(1 for s in seats if o.winner == s) / len(seats) for o in outcomes]
    mean = sum(per_game) / len(per_game)
    var = sum((x - mean) ** 2 for x in per_game) / len(per_game)
    return mean, math.sqrt(var / len(per_game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4,5,6", help="table sizes, comma-separated")
    parser.add_argument("--games", type=int, default=20, help="games per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    with open_backend(args.workers, args.cluster) as backend:
        report(args, backend)


def report(args: argparse.Namespace, backend: Backend) -> None:
    """The three tables, every game played through ``backend``."""
    sizes = [int(p) for p in args.players.split(",")]
    print(f"advisor bench: {args.games} games per matchup, seed {args.seed}, {args.clock} clock, on {backend.label}")
    print()
    print(f"{'matchup':<44} {'advisor win %':>13} {'± s.e.':>7} {'fair %':>7} {'calls':>6} "
          f"{'median ms':>9} {'p95 ms':>7} {'max ms':>7}")
    certain: dict[int, list[tuple[int, int]]] = {}
    bounds: dict[int, list[float]] = {}
    reached: dict[int, tuple[int, int]] = {}
    for players in sizes:
        matchups = [("advisor",) + ("logic",) * (players - 1)]
        if players == 4:
            matchups.append(("advisor",) * 4)
        for names in matchups:
            start = time.perf_counter()
            outcomes = run(players, names, args.games, args.seed, backend, args.clock)
            mean, err = share(outcomes, [1])  # seat 1's advisor against the other three seats
            timings = [t * 1000 for o in outcomes for t in o.timings]
            label = f"{players}p " + ",".join(names)
            print(f"{label:<44} {100 * mean:>13.1f} {100 * err:>7.1f} {100 / players:>7.1f} {len(timings):>6} "
                  f"{statistics.median(timings):>9.1f} {percentile(timings, 0.95):>7.1f} {max(timings):>7.1f}"
                  f"   ({time.perf_counter() - start:.0f} s)", flush=True)
            got = [c for o in outcomes for c in o.certain if c is not None]
            certain.setdefault(players, []).extend(got)
            bounds.setdefault(players, []).extend(b for o in outcomes for b in o.bounds)
            done, total = reached.get(players, (0, 0))
            reached[players] = (done + len(got), total + sum(len(o.certain) for o in outcomes))
    print()
    print("Answers (own actions) and own turns before an advisor's mystery was certain, where it became certain")
    print("before the game ended, against the lower bound log2(initial mysteries) / max bits per answer:")
    print(f"{'players':>7} {'certain':>9} {'mean actions':>12} {'mean turns':>10} {'bound (answers)':>15}")
    for players in sizes:
        got = certain[players]
        done, total = reached[players]
        actions = statistics.mean(a for a, _ in got) if got else float("nan")
        turns = statistics.mean(t for _, t in got) if got else float("nan")
        bound = statistics.mean(bounds[players]) if bounds[players] else float("nan")
        print(f"{players:>7} {f'{done}/{total}':>9} {actions:>12.2f} {turns:>10.2f} {bound:>15.2f}")
    print()
    print("Solo: seat 1 alone takes the most informative action until its mystery is certain")
    print(f"({args.games} deals per size; every deal reaches certainty):")
    print(f"{'players':>7} {'mean answers':>12} {'max':>5} {'bound (answers)':>15} {'ratio':>6}")
    for players in sizes:
        solo = run_jobs(solo_answers, [(players, args.seed, i) for i in range(args.games)], backend)
        mean_answers = statistics.mean(a for a, _ in solo)
        bound = statistics.mean(b for _, b in solo)
        print(f"{players:>7} {mean_answers:>12.2f} {max(a for a, _ in solo):>5} {bound:>15.2f} "
              f"{mean_answers / bound:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
