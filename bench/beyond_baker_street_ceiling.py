"""What knowing your own cards would be worth in Beyond Baker Street: the advisor table's win rate when every
player also knows (without spending an Assist) the icons, the numbers, or the whole of their own hand.

Each seat is the ``advisor`` bot with its exact knowledge; at each of its turns :func:`advise` is asked "what if I
also knew this much" (``known=``: each position narrowed to the true card's icon, number or the card itself),
so the play policy is the same in every row and only the information differs. Row ``none`` is the real
advisor table. The games are the seeded games of ``assist simulate beyond-baker-street`` (same seeds, same
deals), so the rows are paired. Run from the repository root::

    python bench/beyond_baker_street_ceiling.py --players 3 --case 6 --games 200
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.beyond_baker_street.advisor import Advice, AdvisorBot, advise  # noqa: E402
from models.beyond_baker_street.data import Evidence  # noqa: E402
from models.beyond_baker_street.knowledge import card_mask, subject_mask  # noqa: E402
from models.beyond_baker_street.rules import BakerStreetState, TableRules, new_game  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import bot_rng, game_seed  # noqa: E402

LEVELS = ("none", "icons", "numbers", "cards")


def told_mask(card: Evidence, level: str) -> int:
    """The cards a player who knows ``level`` of ``card`` cannot tell it from."""
    if level == "icons":
        return subject_mask(card.icon)
    if level == "numbers":
        return subject_mask(card.number)
    return card_mask([card]) if level == "cards" else (1 << 24) - 1


class InformedBot(AdvisorBot):
    """The advisor bot that also knows ``level`` of its own cards (read from the game it sits in)."""

    def __init__(self, seat: int, rng: random.Random, state: BakerStreetState, level: str) -> None:
        super().__init__(seat, rng)
        self.state = state
        self.level = level

    def ranked(self) -> list[Advice]:
        known = [told_mask(card, self.level) for card in self.state.hands[self.seat]]
        return advise(self.hand, self.weights, reasons=False, known=known)


def play(rules: TableRules, level: str, seed: int) -> bool:
    """One seeded game (the same deal as ``assist simulate`` game ``seed``); whether the table won."""
    state = new_game(rules, random.Random(seed))
    bots = [InformedBot(s, bot_rng(seed, s), state, level) for s in range(1, rules.players + 1)]

    def deliver() -> None:
        for seat, bot in enumerate(bots, 1):
            for obs in state.take_observations(seat):
                bot.inform(obs)

    deliver()
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        state.apply(bots[seat - 1].step(state.view(seat)))
        deliver()
    return state.won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--case", type=int, default=6)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"comma-separated, of {', '.join(LEVELS)}")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (the cluster extra)")
    args = parser.parse_args()
    rules = TableRules(args.players, args.case)
    print(f"{args.players} players, Case File {args.case}, {args.games} games, seed {args.seed}")
    print("| players know | wins | win % ± s.e. |")
    print("|---|---|---|")
    with open_backend(args.workers, args.cluster) as backend:
        for level in args.levels.split(","):
            start = time.perf_counter()
            seeds = [game_seed(args.seed, i) for i in range(args.games)]
            wins = sum(run_jobs(functools.partial(play, rules, level), seeds, backend))
            rate = wins / args.games
            stderr = (rate * (1 - rate) / args.games) ** 0.5
            print(f"| {level} | {wins} | {100 * rate:.1f} ± {100 * stderr:.1f} |  "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
