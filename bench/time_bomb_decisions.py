"""Time Bomb Evolution: what each kind of the advisor Moriarty's decisions is worth.

    python bench/time_bomb_decisions.py --players 4 --games 400 --seeds $(seq 1 20) --random claims

Every seat plays the advisor (``advisor-moriarty``: the Sherlock advisor when dealt Sherlock), except that a
Moriarty makes the kinds of decisions named by ``--random`` (``claims``, ``cuts``, ``covers``; covers include
uncovers) at random among the legal ones. With no ``--random`` the table is the advisor's own. Prints
Moriarty's win rate per seed and over all seeds: the advisor's rate less this one is what those decisions
are worth against advisor Sherlocks.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.time_bomb.bots import AdvisorMoriartyBot  # noqa: E402
from models.time_bomb.data import MORIARTY  # noqa: E402
from models.time_bomb.rules import Cover, Say, Uncover  # noqa: E402
from models.time_bomb.simulate import new_state  # noqa: E402
from solver.parallel import open_backend, run_jobs  # noqa: E402
from solver.simulate import Matchup, game_seed, play_game  # noqa: E402

KINDS = ("claims", "cuts", "covers")


def kind_of(action: Any) -> str:
    """Which kind of decision a legal action belongs to."""
    if isinstance(action, Say):
        return "claims"
    return "covers" if isinstance(action, (Cover, Uncover)) else "cuts"


class PartlyRandomMoriarty(AdvisorMoriartyBot):
    """The Moriarty advisor's seat with some kinds of a Moriarty's decisions made at random."""

    random_kinds: frozenset[str] = frozenset()

    def step(self, view: Any) -> Any:
        legal = list(view.legal_actions)
        kn = self.knowledge
        if kn is not None and kn.role == MORIARTY and kind_of(legal[0]) in self.random_kinds:
            return self.rng.choice(legal)
        return super().step(view)


def make(kinds: frozenset[str], spec: str, seat: int, rng: Any) -> PartlyRandomMoriarty:
    bot = PartlyRandomMoriarty(seat, rng)
    bot.random_kinds = kinds
    return bot


def moriarty_won(players: int, kinds: frozenset[str], seed: int) -> bool:
    """One game (module level, for workers): did the Moriarty team win?"""
    played = Matchup(functools.partial(new_state, players=players), ("partly-random",) * players,
                     functools.partial(make, kinds), soundness=0.0)
    _record, state = play_game(played, seed)
    return state.table.winner == MORIARTY  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11])
    parser.add_argument("--random", nargs="*", choices=KINDS, default=[])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    kinds = frozenset(args.random)
    rates = []
    with open_backend(args.workers) as backend:
        for seed in args.seeds:
            won = run_jobs(functools.partial(moriarty_won, args.players, kinds),
                           [game_seed(seed, i) for i in range(args.games)], backend)
            rates.append(100 * sum(won) / args.games)
            print(f"seed {seed}: Moriarty {rates[-1]:.2f}%", flush=True)
    label = ", ".join(sorted(kinds)) or "none"
    print(f"{args.players} players, random {label}, {len(rates)} seeds x {args.games} games: "
          f"Moriarty {sum(rates) / len(rates):.3f}%")


if __name__ == "__main__":
    main()
