"""Win rates of the advisors against the bots, on seeded games (every game reproducible from the run seed).

By default a small sample at 5 players, where the gaps are widest; the 400-game tables at 4, 5 and 6 players
(the issue's figures, docs/time-bomb.md) are ``slow``. Each threshold sits several standard errors of the gap
(about 3.2 points at 400 games, 8 at 40) below the value measured with seed 2026; these tests use other seeds.
"""

from __future__ import annotations

import functools

import pytest

from models.time_bomb.bots import make_bot
from models.time_bomb.simulate import new_state, summarize_records
from solver.simulate import Matchup, run_games


def sherlock_rate(players: int, spec: str, games: int, seed: int, soundness: float = 0.0) -> float:
    """Sherlock's win rate over ``games`` seeded games with every seat played by ``spec``."""
    matchup = Matchup(functools.partial(new_state, players=players), (spec,) * players, make_bot,
                      soundness=soundness)
    return summarize_records(run_games(matchup, games, seed)).sherlock_rate


def test_advisor_sherlocks_beat_random_ones_on_a_small_sample() -> None:
    # measured at 5 players (400 games, seed 2026): +24.0 points; 40 games: s.e. of the gap about 8
    gap = sherlock_rate(5, "advisor/bluffing-moriarty", 40, 17) - sherlock_rate(5, "random/bluffing-moriarty", 40, 17)
    assert gap > 0.0


def test_the_moriarty_advisor_beats_random_moriarty_bots_on_a_small_sample() -> None:
    # measured at 5 players (400 games, seed 2026): +34.0 points for Moriarty; 40 games: s.e. about 10
    gap = sherlock_rate(5, "advisor/random", 40, 17) - sherlock_rate(5, "advisor/advisor-moriarty", 40, 17)
    assert gap > 0.0


# (players, measured gap in points with seed 2026 and 400 games, the threshold: about 3 s.e. below)
SHERLOCK_GAPS = [(4, 14.75, 5.0), (5, 25.25, 15.5), (6, 42.75, 33.0)]
MORIARTY_GAPS = [(4, 19.0, 9.5), (5, 41.0, 31.5), (6, 37.5, 28.0)]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "measured", "threshold"), SHERLOCK_GAPS)
def test_advisor_sherlocks_gain_over_random_ones(players: int, measured: float, threshold: float) -> None:
    advisor = sherlock_rate(players, "advisor/bluffing-moriarty", 400, 7)
    random_ = sherlock_rate(players, "random/bluffing-moriarty", 400, 7)
    assert 100 * (advisor - random_) > threshold


@pytest.mark.slow
@pytest.mark.parametrize(("players", "measured", "threshold"), MORIARTY_GAPS)
def test_the_moriarty_advisor_gains_over_random_moriarty_bots(players: int, measured: float,
                                                               threshold: float) -> None:
    with_random = sherlock_rate(players, "advisor/random", 400, 7)
    with_advisor = sherlock_rate(players, "advisor/advisor-moriarty", 400, 7)
    assert 100 * (with_random - with_advisor) > threshold


@pytest.mark.slow
def test_the_moriarty_advisor_meets_the_4_player_target_over_20_seeds() -> None:
    """Issue 21 §4 at 4 players, judged as docs/time-bomb.md judges it: 400 games from each of 20 run seeds. Measured
    on seeds 41 to 60 (played after the claim table and the Sherlock cutter weight were chosen): +17.96; over 8,000
    games the gap's standard error is about 0.5, so 15.5 sits about five below."""
    seeds = range(41, 61)
    with_random = sum(sherlock_rate(4, "advisor/random", 400, seed) for seed in seeds) / len(seeds)
    with_advisor = sum(sherlock_rate(4, "advisor/advisor-moriarty", 400, seed) for seed in seeds) / len(seeds)
    assert 100 * (with_random - with_advisor) > 15.5


@pytest.mark.slow
def test_advisor_sherlocks_meet_the_4_player_target_over_20_seeds() -> None:
    """Issue 21 §3 at 4 players, 400 games from each of 20 run seeds. Measured on seeds 41 to 60 (played after the
    cutter weight 0.3 was chosen): +15.2 (25.65% against 10.425%); the gap's standard error is about 0.6, so 13.0
    sits about four below. With the earlier weight 0.6 the 60-seed gap was below the target (+14.6 on seeds 1-40)."""
    seeds = range(41, 61)
    advisor = sum(sherlock_rate(4, "advisor/bluffing-moriarty", 400, seed) for seed in seeds) / len(seeds)
    random_ = sum(sherlock_rate(4, "random/bluffing-moriarty", 400, seed) for seed in seeds) / len(seeds)
    assert 100 * (advisor - random_) > 13.0
