"""The game-agnostic simulation loop, on a toy game defined here (the loop must not need ``models``)."""

from __future__ import annotations

import copy
import functools
import random
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solver.errors import IllegalActionError
from solver.simulate import (
    GameRecord,
    Matchup,
    SimulationError,
    game_seed,
    play_game,
    run_games,
    simulate,
    summarize,
)

# -- a toy game: each seat has a secret 1..6 that the others see; guess your own; wrong guesses are public -----


@dataclass(frozen=True)
class GuessView:
    seat: int
    legal_actions: tuple[int, ...]


@dataclass
class GuessState:
    secrets: dict[int, int]
    max_turns: int = 30
    current: int | None = 1
    turn: int = 1
    winner_seat: int | None = None
    queues: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    stats: dict[int, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.queues = {s: [] for s in self.secrets}
        self.stats = {s: {"turns": 0, "guesses": 0} for s in self.secrets}
        self.stats[1]["turns"] = 1

    @property
    def num_players(self) -> int:
        return len(self.secrets)

    def current_player(self) -> int | None:
        return self.current

    def legal_actions(self) -> list[int]:
        return [] if self.current is None else list(range(1, 7))

    def apply(self, action: int) -> None:
        if self.current is None or action not in range(1, 7):
            raise IllegalActionError(f"guess {action}: expected 1 to 6 in a live game")
        seat = self.current
        self.stats[seat]["guesses"] += 1
        right = self.secrets[seat] == action
        for q in self.queues.values():
            q.append(("right" if right else "wrong", seat, action))
        if right:
            self.winner_seat, self.current = seat, None
        elif self.turn >= self.max_turns:
            self.current = None
        else:
            self.turn += 1
            self.current = seat % self.num_players + 1
            self.stats[self.current]["turns"] += 1

    def is_terminal(self) -> bool:
        return self.current is None

    def returns(self) -> list[float]:
        return [1.0 if s == self.winner_seat else 0.0 for s in self.secrets]

    def winner(self) -> int | None:
        return self.winner_seat

    def clone(self) -> GuessState:
        return copy.deepcopy(self)

    def take_observations(self, seat: int) -> list[tuple[str, int, int]]:
        out, self.queues[seat] = self.queues[seat], []
        return out

    def view(self, seat: int) -> GuessView:
        return GuessView(seat, tuple(self.legal_actions()) if seat == self.current else ())

    def player_stats(self, seat: int) -> Mapping[str, float]:
        return dict(self.stats[seat])

    def soundness_failure(self, seat: int, knowledge: set[int], deep: bool = False) -> str | None:
        del deep
        return None if self.secrets[seat] in knowledge else f"{self.secrets[seat]} ruled out"


def new_guess_game(players: int, rng: random.Random) -> GuessState:
    return GuessState({s: rng.randint(1, 6) for s in range(1, players + 1)})


class Guesser:
    """Keeps the values still possible for its own secret; guesses one of them."""

    name = "guesser"

    def __init__(self, seat: int, rng: random.Random, lie_after: int | None = None) -> None:
        self.seat, self.rng = seat, rng
        self.knowledge: set[int] = set(range(1, 7))
        self.lie_after = lie_after
        self.heard = 0

    def inform(self, obs: tuple[str, int, int]) -> None:
        kind, seat, value = obs
        self.heard += 1
        if kind == "wrong" and seat == self.seat:
            self.knowledge.discard(value)
        if self.lie_after is not None and self.heard > self.lie_after:
            self.knowledge = {min(self.knowledge)}  # a broken deduction: keeps only one value, often the wrong one

    def step(self, view: GuessView) -> int:
        return self.rng.choice(sorted(self.knowledge))


class Blind:
    """Guesses at random, keeps no knowledge; ``bad`` guesses an illegal 7."""

    name = "blind"

    def __init__(self, seat: int, rng: random.Random, bad: bool = False) -> None:
        self.rng, self.bad = rng, bad

    def inform(self, obs: object) -> None:
        del obs

    def step(self, view: GuessView) -> int:
        return 7 if self.bad else self.rng.choice(view.legal_actions)


def make_toy_bot(name: str, seat: int, rng: random.Random) -> Guesser | Blind:
    if name == "liar":
        return Guesser(seat, rng, lie_after=3)
    if name == "bad":
        return Blind(seat, rng, bad=True)
    return Guesser(seat, rng) if name == "guesser" else Blind(seat, rng)


def toy(*bots: str) -> Matchup:
    return Matchup(functools.partial(new_guess_game, len(bots)), bots, make_toy_bot)


# -- tests --------------------------------------------------------------------------------------------------------


def test_game_seeds_depend_on_run_seed_and_index_only() -> None:
    assert game_seed(5, 3) == game_seed(5, 3)
    seeds = {game_seed(s, i) for s in range(5) for i in range(50)}
    assert len(seeds) == 250


def test_runs_are_reproducible_from_the_seed() -> None:
    one = run_games(toy("guesser", "blind", "guesser"), 40, seed=7)
    two = run_games(toy("guesser", "blind", "guesser"), 40, seed=7)
    other = run_games(toy("guesser", "blind", "guesser"), 40, seed=8)
    assert one == two
    assert [r.winner for r in one] != [r.winner for r in other]
    assert [r.index for r in one] == list(range(40))
    assert one[5] == play_game(toy("guesser", "blind", "guesser"), one[5].seed, 5)[0]


def test_worker_processes_give_identical_results() -> None:
    matchup = toy("guesser", "blind")
    assert run_games(matchup, 30, seed=3, workers=2) == run_games(matchup, 30, seed=3, workers=1)


def test_progress_is_reported_for_every_game() -> None:
    seen: list[int] = []
    run_games(toy("blind", "blind"), 12, seed=1, progress=seen.append)
    assert sum(seen) == 12


def test_a_knowing_bot_beats_a_blind_one() -> None:
    summary = simulate(toy("guesser", "blind"), 400, seed=11)
    guesser, blind = summary.seats
    assert guesser.win_share > blind.win_share + 4 * max(guesser.win_share_stderr, blind.win_share_stderr)
    assert guesser.mean_turns_to_win is not None and guesser.mean_turns_to_win <= 6  # never repeats a wrong guess


def test_summary_figures_on_known_records() -> None:
    def rec(i: int, winner: int | None, turns: tuple[int, int, int]) -> GameRecord:
        return GameRecord(i, i, winner, 0, tuple({"turns": t, "guesses": 2 * t} for t in turns))

    records = [rec(0, 1, (3, 3, 2)), rec(1, 2, (4, 4, 4)), rec(2, 1, (5, 5, 5)), rec(3, None, (9, 9, 9))]
    summary = summarize(records, ["a", "b", "b"])
    seat1, seat2, seat3 = summary.seats
    assert (seat1.wins, seat1.win_share, seat1.mean_turns_to_win) == (2, 0.5, 4.0)
    assert seat1.win_share_stderr == pytest.approx((0.5 * 0.5 / 4) ** 0.5)
    assert (seat2.wins, seat2.win_share, seat2.mean_turns_to_win) == (1, 0.25, 4.0)
    assert seat3.wins == 0 and seat3.mean_turns_to_win is None
    assert seat1.means["guesses"] == pytest.approx(2 * (3 + 4 + 5 + 9) / 4)
    assert seat3.totals["turns"] == 2 + 4 + 5 + 9
    a, b = summary.bots
    assert a.seats == (1,) and b.seats == (2, 3)
    assert b.wins == 1 and b.win_share == pytest.approx(1 / 8)  # one win in 4 games by 2 seats
    per_game = [0, 0.5, 0, 0]
    mean = sum(per_game) / 4
    assert b.win_share_stderr == pytest.approx((sum((x - mean) ** 2 for x in per_game) / 4 / 4) ** 0.5)
    assert summary.draws == 1 and summary.games == 4


def test_unsound_knowledge_stops_the_run_with_the_seed_that_replays_it() -> None:
    matchup = toy("liar", "blind")
    with pytest.raises(SimulationError, match="unsound knowledge") as caught:
        run_games(matchup, 50, seed=2)
    err = caught.value
    assert err.index is not None and err.seed == game_seed(2, err.index)
    with pytest.raises(SimulationError) as again:
        play_game(matchup, err.seed, err.index)
    assert str(again.value) == str(err)


def test_unsound_knowledge_is_reported_from_worker_processes_too() -> None:
    with pytest.raises(SimulationError, match=r"game \d+ \(game seed \d+\): unsound knowledge"):
        run_games(toy("liar", "blind"), 50, seed=2, workers=2)


def test_an_illegal_bot_action_names_the_player_and_the_seed() -> None:
    with pytest.raises(SimulationError, match=r"game seed \d+\): player 2 \(bad\) played '7'"):
        run_games(toy("blind", "bad"), 3, seed=0)


def test_the_generic_modules_do_not_import_any_game() -> None:
    code = (
        "import sys, solver.game, solver.bots, solver.simulate, solver.conformance\n"
        "print(sorted(m for m in sys.modules if m == 'models' or m.startswith('models.')))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
