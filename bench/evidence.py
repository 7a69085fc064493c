"""Evidence figures: how fast the knowledge model refreshes (against the brute-force reference), how long the
advisor takes, and how often it wins against greedy bots.

1. ``knowledge``: seeded games between greedy bots; after every rumour event (played, uncovered, evidence) one
   seat's knowledge model (CP-SAT kept in step) is timed: ``add``, the closed-form probabilities (what the bots
   use), the exact world count by :class:`solver.components.ComponentCounter` (what the companion shows),
   CP-SAT possible values, ``why`` on a ruled-out value; where a state has at most ``--ref-worlds`` worlds, the
   python-constraint reference enumeration too, checked to agree (any disagreement makes the exit status 1).
2. ``advise``: the companion's ``advise`` (96 futures, successive halving) at each step of one seat's turns.
3. ``model``: how much the greedy-opponent model (:mod:`models.evidence.inference`) sharpens the evidence
   estimates in games between greedy bots: at the start of each of seat 1's turns, the sum over the six
   mysteries of |estimated mean - true evidence| from the exact knowledge and from 24 model deals, by round;
   and whether the true deal fitted the recorded decisions (it must, every time).
4. ``wins``: the advisor in one seat against greedy bots in the others, 2 to 5 players (``assist simulate``'s
   loop, so every game also checks every bot's knowledge for soundness); win share with its standard error.

Usage (from the repository root, with the virtual environment active)::

    python bench/evidence.py                              # all three, small
    python bench/evidence.py --part wins --players 4 --games 2000 --workers 2 --seed 1
    python bench/evidence.py --part wins --players 4 --games 2000 --cluster tcp://scheduler:8786

Times are this process's CPU time in milliseconds (robust to a busy machine).
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.evidence.advisor import candidates, evaluate  # noqa: E402
from models.evidence.bots import GreedyBot, make_bot  # noqa: E402
from models.evidence.data import COLOURS  # noqa: E402
from models.evidence.inference import GreedyOpponents  # noqa: E402
from models.evidence.knowledge import EvidenceKnowledge, TableSetup  # noqa: E402
from models.evidence.observations import SETUP_TYPES, EvidenceShown, Look, Play, Reveal  # noqa: E402
from models.evidence.rules import EXTRA, PLAY, new_game  # noqa: E402
from solver import reference  # noqa: E402
from solver.parallel import Backend, open_backend  # noqa: E402
from solver.simulate import Matchup, run_games, summarize  # noqa: E402

clock = time.process_time
RUMOUR_EVENTS = (Play, Reveal, EvidenceShown, Look)


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = clock()
    out = fn()
    return 1000 * (clock() - start), out


def stats_line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:<28} (none)"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"  {name:<28} n={len(values):<5} median {statistics.median(values):8.2f}  p95 {p95:8.2f}  "
            f"max {values[-1]:8.2f} ms")


def bench_knowledge(games: int, seed: int, ref_worlds: int) -> bool:
    print("1. knowledge refresh after each event (one seat, CP-SAT kept in step)")
    rows: dict[str, list[float]] = {k: [] for k in ("add", "closed form", "counted (components)", "possible (CP-SAT)",
                                                   "why (minimal core)", "reference enumeration")}
    ratios: list[float] = []
    big: list[tuple[float, float]] = []  # (worlds, counter ms) of states too large for the reference
    agree = True
    checked = 0
    for g in range(games):
        players = 2 + g % 4
        rng = random.Random(seed * 1000 + g)
        st = new_game(random.Random(seed * 1000 + g), players)
        bots = {s: GreedyBot(s, random.Random(rng.random())) for s in range(1, players + 1)}
        me = rng.randint(1, players)
        setup = TableSetup()
        kn: EvidenceKnowledge | None = None
        while True:
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
                    if s != me:
                        continue
                    if isinstance(obs, SETUP_TYPES):
                        setup.apply(obs)
                        continue
                    if kn is None:
                        kn = EvidenceKnowledge(setup, solver=True)
                    current = kn
                    t, _ = timed(lambda o=obs, k=current: k.add(o))
                    if not isinstance(obs, RUMOUR_EVENTS):
                        continue  # search cards, time-outs and tools say nothing about the hidden rumours
                    rows["add"].append(t)
                    t, closed = timed(current.distribution)
                    rows["closed form"].append(t)
                    t, counted = timed(current.counted_distribution)
                    rows["counted (components)"].append(t)
                    t, _ = timed(current.possible)
                    rows["possible (CP-SAT)"].append(t)
                    ruled = [(c, v) for c in COLOURS for v in current.data.distinct_values(c)
                             if v not in closed[c]]  # type: ignore[index]
                    if ruled:
                        c, v = rng.choice(ruled)
                        t, _ = timed(lambda k=current, c=c, v=v: k.why(c, v))
                        rows["why (minimal core)"].append(t)
                    solver_kn = current.solver_knowledge()
                    worlds = solver_kn.count().worlds
                    if worlds > ref_worlds:
                        big.append((worlds, rows["counted (components)"][-1]))
                    if worlds <= ref_worlds:
                        constraints = [c for e in solver_kn.entries for c in e.constraints]
                        t, ref = timed(lambda p=solver_kn.problem, cs=constraints: reference.solve(p, cs))
                        rows["reference enumeration"].append(t)
                        ratios.append(t / max(rows["counted (components)"][-1], 1e-3))
                        checked += 1
                        for (colour, value), names in current.copies.items():
                            w = sum(ref.weights[(n, "evidence")] for n in names)  # type: ignore[attr-defined]
                            p = w / ref.worlds  # type: ignore[attr-defined]
                            if abs(p - counted[colour].get(value, 0.0)) > 1e-9:  # type: ignore[index]
                                agree = False
                                print(f"  DISAGREE: game {g}, {colour} {value}: reference {p}, counter "
                                      f"{counted[colour].get(value, 0.0)}")  # type: ignore[index]
            if st.is_terminal():
                break
            seat = st.current_player()
            assert seat is not None
            st.apply(bots[seat].step(st.view(seat)))
    for name, values in rows.items():
        print(stats_line(name, values))
    if ratios:
        print(f"  reference / counter time: median {statistics.median(ratios):.0f}x over {checked} states "
              f"(states with at most {ref_worlds:,} worlds); agreement: {'all' if agree else 'NO'}")
    if big:
        worlds, ms = max(big)
        print(f"  {len(big)} states above {ref_worlds:,} worlds (reference skipped); the largest, {worlds:.2e} worlds, "
              f"counted exactly in {ms:.1f} ms")
    return agree


def bench_advise(games: int, seed: int, samples: int) -> None:
    print(f"2. advise latency ({samples} futures per option, successive halving), one seat, 4 players")
    by_phase: dict[str, list[float]] = {}
    for g in range(games):
        st = new_game(random.Random(seed + g), 4)
        bots = {s: GreedyBot(s, random.Random(s)) for s in range(1, 5)}
        while not st.is_terminal():
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
            seat = st.current_player()
            assert seat is not None
            view = st.view(seat)
            if seat == 1:
                kn = bots[1].kn()
                options = candidates(kn, view.phase, view.legal_actions)
                if len(options) > 1:
                    t, _ = timed(lambda k=kn, v=view, o=options: evaluate(k, v.round, v.phase, o, samples,
                                                                          random.Random(0), rounds=3))
                    by_phase.setdefault(view.phase, []).append(t)
            st.apply(bots[seat].step(view))
    for phase, values in by_phase.items():
        print(stats_line(phase if phase != EXTRA else "time-out / tool", values))


def bench_model(games: int, seed: int, players: int = 4) -> bool:
    print(f"3. greedy-opponent model vs exact knowledge: error of the evidence means, {players} players, "
          f"{games} games")
    errors: dict[int, list[tuple[float, float]]] = {}
    truth_fits = True
    for g in range(games):
        st = new_game(random.Random(seed * 1000 + g), players)
        bots = {s: GreedyBot(s, random.Random(seed * 7919 + g * 10 + s)) for s in range(1, players + 1)}
        me = 1
        mine = GreedyBot(me, random.Random(0))
        model: GreedyOpponents | None = None
        while not st.is_terminal():
            for s, bot in bots.items():
                for obs in st.take_observations(s):
                    bot.inform(obs)
                    if s != me:
                        continue
                    if isinstance(obs, SETUP_TYPES):
                        mine.inform(obs)
                        continue
                    kn = mine.kn()
                    model = model or GreedyOpponents(kn, random.Random(g))
                    model.observe(obs, kn)
            seat = st.current_player()
            assert seat is not None
            if seat == me and st.phase == PLAY and model is not None:
                kn = mine.kn()
                truth_fits &= model.fits(kn, st.evidence, st.hands, st.unknown)
                deals = model.sample(kn, 24)
                exact = kn.means()
                est = {c: sum(d[0][c] for d in deals) / len(deals) for c in COLOURS}
                errors.setdefault(st.round, []).append((
                    sum(abs(exact[c] - st.evidence[c]) for c in COLOURS),
                    sum(abs(est[c] - st.evidence[c]) for c in COLOURS),
                ))
            st.apply(bots[seat].step(st.view(seat)))
    print("  round  exact knowledge  with the model   (sum over mysteries of |mean - evidence|)")
    for r in sorted(errors):
        e = errors[r]
        print(f"  {r:>5}  {statistics.mean(x for x, _ in e):15.2f}  {statistics.mean(y for _, y in e):14.2f}")
    print(f"  the true deal fitted every recorded decision: {'yes' if truth_fits else 'NO'}")
    return truth_fits


def bench_wins(players_list: list[int], games: int, seed: int, workers: int, variant: str,
               cluster: str | None = None) -> None:
    with open_backend(workers, cluster) as backend:  # one set of workers for every table size
        print(f"4. advisor (seat 1) against greedy bots, {games} games per table, seed {seed}, {variant}, "
              f"on {backend.label}")
        _wins_tables(players_list, games, seed, variant, backend)


def _wins_tables(players_list: list[int], games: int, seed: int, variant: str, backend: Backend) -> None:
    print("  players  advisor win %  ± s.e.  fair share  advisor score  greedy score   seconds")
    for players in players_list:
        names = ("advisor", *("greedy",) * (players - 1))
        matchup = Matchup(functools.partial(new_game, players=players, pro=variant == "pro"), names, make_bot)
        start = time.perf_counter()
        records = run_games(matchup, games, seed, backend)
        elapsed = time.perf_counter() - start
        summary = summarize(records, names)
        adv = next(r for r in summary.bots if r.bot == "advisor")
        greedy = next(r for r in summary.bots if r.bot == "greedy")
        print(f"  {players:>7}  {100 * adv.win_share:13.1f}  {100 * adv.win_share_stderr:6.1f}  "
              f"{100 / players:10.1f}  {adv.means.get('score', 0):13.2f}  {greedy.means.get('score', 0):12.2f}  "
              f"{elapsed:8.0f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("all", "knowledge", "advise", "model", "wins"), default="all")
    parser.add_argument("--games", type=int, default=None, help="games (default: 8 / 2 / 30 / 40 for the parts)")
    parser.add_argument("--players", default="2,3,4,5", help="player counts for 'wins'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--variant", choices=("basic", "pro"), default="basic")
    parser.add_argument("--ref-worlds", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=96)
    args = parser.parse_args()
    ok = True
    if args.part in ("all", "knowledge"):
        ok = bench_knowledge(args.games or 8, args.seed, args.ref_worlds)
    if args.part in ("all", "advise"):
        bench_advise(args.games or 2, args.seed, args.samples)
    if args.part in ("all", "model"):
        ok = bench_model(args.games or 30, args.seed) and ok
    if args.part in ("all", "wins"):
        players = [int(p) for p in args.players.split(",")]
        bench_wins(players, args.games or 40, args.seed, args.workers, args.variant, args.cluster)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
