"""What a better cut could be worth to the Moriarty advisor in Time Bomb Evolution: its win rate when its cuts
see every hand (a diagnostic, not a strategy: no player can do this).

Every seat plays ``advisor/advisor-moriarty`` against advisor Sherlocks, on the seeded games of ``python
bench/time_bomb_weights.py --bots advisor/advisor-moriarty`` (same seeds, deals and bot random sources, so the
rows are paired). In row ``all-seeing`` a Moriarty's cut (not its claims, covers or uncovers) is replaced by the
cut with the best ``P(explosion now) + bomb * P(bomb)`` computed from the target's true hand (red chains not
followed): an upper bound on what any better cut decision can add with the same claims. Run from the repository
root::

    python bench/time_bomb_moriarty_ceiling.py --players 4 --games 400 --seeds 2026 11 7
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable as a script from a checkout

from models.time_bomb.advisor import MORIARTY_WEIGHTS, Board, _leaf  # noqa: E402
from models.time_bomb.bots import make_bot  # noqa: E402
from models.time_bomb.data import DEFUSE, MORIARTY  # noqa: E402
from models.time_bomb.observations import Target  # noqa: E402
from models.time_bomb.rules import TimeBombState  # noqa: E402
from models.time_bomb.simulate import new_state  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import bot_rng, game_seed  # noqa: E402

SPEC = "advisor/advisor-moriarty"


def seen_value(state: TimeBombState, seat: int) -> float:
    """``P(explosion now) + bomb * P(bomb)`` of cutting ``seat``, from its true hand (a seeking cutter)."""
    hand = [card for card, _ in state.hands[seat]]
    board = Board.of(state.table)
    bombs = [card for card in hand if card != DEFUSE]
    explode = sum(_leaf(board, card, False) or 0.0 for card in bombs)
    return (explode + MORIARTY_WEIGHTS.bomb * len(bombs)) / len(hand)


def moriarty_won(players: int, all_seeing: bool, seed: int) -> bool:
    """Play the game seeded ``seed``; whether Moriarty won (module level, for workers)."""
    state = new_state(random.Random(seed), players)
    bots = [make_bot(SPEC, seat, bot_rng(seed, seat)) for seat in state.seats]

    def deliver() -> None:
        for seat in state.seats:
            for obs in state.take_observations(seat):
                bots[seat - 1].inform(obs)

    deliver()
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        view = state.view(seat)
        action = bots[seat - 1].step(view)
        if all_seeing and state.roles[seat] == MORIARTY and isinstance(action, Target):
            action = max(view.legal_actions, key=lambda a: (seen_value(state, a.seat), -a.seat))  # type: ignore[attr-defined]
        state.apply(action)
        deliver()
    return state.table.winner == MORIARTY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with open_backend(args.workers) as backend:
        for row in ("advisor", "all-seeing"):
            wins = games = 0
            for seed in args.seeds:
                start = time.perf_counter()
                won = run_jobs(functools.partial(moriarty_won, args.players, row == "all-seeing"),
                               [game_seed(seed, i) for i in range(args.games)], backend)
                wins, games = wins + sum(won), games + len(won)
                print(f"{args.players} players, {row} Moriarty cuts, seed {seed}, {args.games} games: Moriarty "
                      f"{100 * sum(won) / len(won):.2f}% ({time.perf_counter() - start:.0f} s)", flush=True)
            p = wins / games
            print(f"{row}: pooled Moriarty {100 * p:.2f}% ± {100 * (p * (1 - p) / games) ** 0.5:.2f} over {games} "
                  "games", flush=True)


if __name__ == "__main__":
    main()
