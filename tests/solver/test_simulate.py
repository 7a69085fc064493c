"""The game-agnostic simulation loop, on a toy game defined here (the loop must not need ``models``)."""

from __future__ import annotations

import copy
import functools
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solver import parallel
from solver.errors import AssistantError, IllegalActionError
from solver.parallel import Backend, InlineExecutor, open_backend, run_jobs
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
from tests.dask_cluster import dask_processes, need_distributed

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


_games_here = 0  # games this process has dealt through new_guess_game_or_die


def new_guess_game_or_die(players: int, flag: str, rng: random.Random) -> GuessState:
    """The toy game, except that the third game a process deals kills that process (SIGKILL, as the OOM killer
    would), once per ``flag`` file: the first process to create it dies, the game is then rerun elsewhere."""
    global _games_here
    _games_here += 1
    if _games_here == 3:
        try:
            os.close(os.open(flag, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return new_guess_game(players, rng)


def dying_toy(flag: Path, *bots: str) -> Matchup:
    return Matchup(functools.partial(new_guess_game_or_die, len(bots), str(flag)), bots, make_toy_bot)


def die(job: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return job


def square_after(job: tuple[int, float]) -> int:
    value, seconds = job
    time.sleep(seconds)
    return value * value


class CountingExecutor(Executor):
    """Runs each call at once here, and keeps the size of every chunk ``run_jobs`` submits."""

    def __init__(self) -> None:
        self.inner = InlineExecutor()
        self.chunks: list[int] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.chunks.append(len(args[1]))
        return self.inner.submit(fn, *args, **kwargs)


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
    assert run_games(matchup, 30, seed=3, executor=2) == run_games(matchup, 30, seed=3, executor=1)


def test_progress_is_reported_for_every_game() -> None:
    seen: list[int] = []
    run_games(toy("blind", "blind"), 12, seed=1, progress=seen.append)
    assert seen == [1] * 12
    with open_backend(workers=2) as backend:
        seen.clear()
        run_games(toy("blind", "blind"), 300, seed=1, executor=backend, progress=seen.append)
        assert sum(seen) == 300 and len(seen) > 4  # chunks report as they finish


def test_any_executor_gives_the_same_records() -> None:
    matchup = toy("guesser", "blind", "guesser")
    alone = run_games(matchup, 40, seed=5)
    with ThreadPoolExecutor(3) as pool:
        assert run_games(matchup, 40, seed=5, executor=pool) == alone
    with open_backend(workers=2) as backend:
        assert run_games(matchup, 40, seed=5, executor=backend) == alone
        assert run_games(matchup, 25, seed=5, executor=backend) == alone[:25]  # the same pool, used again


def test_chunks_grow_for_fast_jobs_and_stay_single_for_slow_ones() -> None:
    fast = Backend(CountingExecutor(), 2, "test", chunk_seconds=0.05)
    assert run_jobs(square_after, [(i, 0.0) for i in range(400)], fast) == [i * i for i in range(400)]
    chunks = fast.executor.chunks  # type: ignore[attr-defined]
    assert sum(chunks) == 400 and chunks[:4] == [1, 1, 1, 1]  # one job each until a chunk has been timed
    left = 400 - sum(chunks[:4])
    for size in chunks[4:]:
        assert size <= max(1, left // 4)  # never more than a quarter of what is left (two chunks per slot)
        left -= size
    assert max(chunks) >= 20 and len(chunks) < 80  # microsecond jobs travel in big chunks
    slow = Backend(CountingExecutor(), 2, "test", chunk_seconds=0.05)
    assert run_jobs(square_after, [(i, 0.06) for i in range(6)], slow) == [i * i for i in range(6)]
    assert slow.executor.chunks == [1] * 6  # type: ignore[attr-defined]
    assert parallel._chunk_size(fast, [0.001], 1000) == 50  # 0.05 s of 1 ms jobs
    assert parallel._chunk_size(fast, [0.001, 0.002, 2.0], 1000) == 25  # the median resists one slow outlier


def test_a_killed_worker_process_has_its_games_rerun(tmp_path: Path) -> None:
    flag = tmp_path / "killed"
    expected = run_games(toy("guesser", "blind"), 60, seed=4)
    with open_backend(workers=2) as backend:
        seen: list[int] = []
        records = run_games(dying_toy(flag, "guesser", "blind"), 60, seed=4, executor=backend, progress=seen.append)
    assert flag.exists()  # a worker really died
    assert records == expected and sum(seen) == 60


def test_a_job_that_always_kills_its_worker_ends_the_run_with_one_line() -> None:
    message = r"worker processes died 4 times in one run \(\d+ jobs unfinished\); giving up"
    with open_backend(workers=2) as backend, pytest.raises(AssistantError, match=message):
        run_jobs(die, [1, 2, 3], backend)


def test_backend_options_are_checked_before_anything_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [
        ({"workers": 0}, "--workers 0: expected 1 or more"),
        ({"workers": 2, "cluster": "local:2"}, "--workers 2 --cluster local:2: give one of them"),
        ({"cluster": "local:zero"}, "--cluster local:zero: expected local:N with N workers"),
        ({"cluster": "local:0"}, "--cluster local:0: expected local:N"),
    ]
    for kwargs, message in cases:
        with pytest.raises(AssistantError, match=message), open_backend(**kwargs):  # type: ignore[arg-type]
            pass
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    missing = r"--cluster tcp://127.0.0.1:1: needs Dask's 'distributed' package: pip install -e '\.\[cluster\]'"
    with pytest.raises(AssistantError, match=missing), open_backend(cluster="tcp://127.0.0.1:1"):
        pass


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
        run_games(toy("liar", "blind"), 50, seed=2, executor=2)


def test_an_illegal_bot_action_names_the_player_and_the_seed() -> None:
    with pytest.raises(SimulationError, match=r"game seed \d+\): player 2 \(bad\) played '7'"):
        run_games(toy("blind", "bad"), 3, seed=0)


def test_the_generic_modules_do_not_import_any_game_nor_dask() -> None:
    code = (
        "import sys, solver.game, solver.bots, solver.simulate, solver.conformance, solver.parallel\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('models', 'distributed', 'dask')))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- Dask -------------------------------------------------------------------------------------------------------


def test_a_local_dask_cluster_gives_the_same_records() -> None:
    need_distributed()
    matchup = toy("guesser", "blind", "guesser")
    with open_backend(cluster="local:2") as backend:
        assert backend.slots == 2 and "local Dask cluster of 2 workers" in backend.label
        seen: list[int] = []
        assert run_games(matchup, 50, seed=6, executor=backend, progress=seen.append) == run_games(matchup, 50, 6)
        assert sum(seen) == 50
        with pytest.raises(SimulationError, match=r"game \d+ \(game seed \d+\): unsound knowledge"):
            run_games(toy("liar", "blind"), 50, seed=2, executor=backend)


def test_a_real_dask_cluster_survives_a_killed_worker(tmp_path: Path) -> None:
    flag = tmp_path / "killed"
    expected = run_games(toy("guesser", "blind"), 80, seed=9)
    with dask_processes(workers=2) as address, open_backend(cluster=address) as backend:
        assert backend.slots == 2
        seen: list[int] = []
        records = run_games(dying_toy(flag, "guesser", "blind"), 80, seed=9, executor=backend, progress=seen.append)
    assert flag.exists()  # a worker process really died mid-run
    assert records == expected and sum(seen) == 80


def test_a_scheduler_that_does_not_answer_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    need_distributed()
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1.0)
    message = r"--cluster tcp://127.0.0.1:9: no Dask scheduler answered there"
    with pytest.raises(AssistantError, match=message), open_backend(cluster="tcp://127.0.0.1:9"):
        pass


def test_a_sampled_soundness_check_plays_the_same_games() -> None:
    """Matchup.soundness below 1 checks a sample of the observations (and every bot at the end) without
    changing a game: the sample has its own random source."""
    import dataclasses

    every = toy("guesser", "blind")
    sampled = dataclasses.replace(every, soundness=0.1)
    assert run_games(every, 6, seed=4) == run_games(sampled, 6, seed=4)
