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
SHERLOCK_GAPS = [(4, 12.5, 3.0), (5, 24.0, 14.5), (6, 37.0, 28.0)]
MORIARTY_GAPS = [(4, 17.0, 7.5), (5, 40.25, 30.5), (6, 37.25, 27.5)]


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
    on seeds 1 to 60: +16.2 (seeds 41 to 60, played after the claim table was chosen: +16.7); over 8,000 games the
    gap's standard error is about 0.5, so 14.0 sits about four below. Without the claim table: +13.9 here."""
    seeds = range(41, 61)
    with_random = sum(sherlock_rate(4, "advisor/random", 400, seed) for seed in seeds) / len(seeds)
    with_advisor = sum(sherlock_rate(4, "advisor/advisor-moriarty", 400, seed) for seed in seeds) / len(seeds)
    assert 100 * (with_random - with_advisor) > 14.0
