"""The Evidence advisor: legal, reproducible advice; what a rumour tells the others; the advisor bot in full
games (and, slow, its win share against greedy bots)."""

from __future__ import annotations

import functools
import random

import pytest

from models.evidence.advisor import AdvisorBot, candidates, evaluate, public_shift
from models.evidence.bots import GreedyBot, make_bot
from models.evidence.observations import Done, PlayRumour, Take, parse
from models.evidence.rules import PLAY, SEARCH, new_game
from solver.conformance import check_game
from solver.simulate import Matchup, run_games, summarize
from tests.models.evidence.helpers import knowledge_for

FOUR = [
    "players 4",
    "me 1",
    "setup white 0 blue 1 yellow 2 pink 3 green 4 brown -1",
    "hand white 1 white 2 blue 4 yellow -1 pink 0 green 0",
    "holds 2 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
    "holds 3 blue 1 yellow 1 pink 1 green 1 brown 2",
    "holds 4 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
]


def test_public_shift_is_what_others_learn() -> None:
    kn = knowledge_for([parse(line) for line in FOUR])
    # the public sees blue 1 only: unseen -1, 0, 2, 3, 4 (mean 1.6); my blue 4 leaves -1, 0, 2, 3 (mean 1.0)
    assert public_shift(kn, "blue", 4) == pytest.approx((1.6, 1.0))
    assert public_shift(kn, "yellow", -1) == pytest.approx((1.4, 2.0))  # yellow 2 at setup


def test_evaluate_is_reproducible_and_ranks_every_option() -> None:
    kn = knowledge_for([parse(line) for line in FOUR])
    options = candidates(kn, PLAY, [PlayRumour(c, v) for c, v in kn.hand])
    assert len(options) == 6
    first = evaluate(kn, 1, PLAY, options, 6, random.Random(3), rounds=2)
    second = evaluate(kn, 1, PLAY, options, 6, random.Random(3), rounds=2)
    assert first == second
    assert {o.action for o in first} == set(options)
    assert all(0 <= o.win <= 1 for o in first) and first[0].samples >= first[-1].samples
    assert all(o.tells.startswith("public ") for o in first)
    finalists = [o for o in first if o.samples == first[0].samples]
    assert finalists == sorted(finalists, key=lambda o: -o.utility)


def test_search_options_include_stopping() -> None:
    kn = knowledge_for([parse(line) for line in [*FOUR, "play 1 white 1"]])
    legal = [*(Take(c) for c in ("white", "blue", "yellow")), Done()]
    ranked = evaluate(kn, 1, SEARCH, candidates(kn, SEARCH, legal), 4, random.Random(0))
    assert Done() in {o.action for o in ranked}


@pytest.mark.parametrize("opponents", ["greedy", "none"])
def test_advisor_bot_plays_legal_full_games(opponents: str) -> None:
    bot = functools.partial(AdvisorBot, samples=4, rounds=1, opponents=opponents)
    report = check_game(functools.partial(new_game, players=3), bot, 1, seed=2, deep=False)
    assert report.games == 1 and report.knowledge_checks > 0


def test_advisor_against_greedy_two_players_pro() -> None:
    matchup = Matchup(functools.partial(new_game, players=2, pro=True), ("advisor", "greedy"), make_bot)
    records = run_games(matchup, 2, seed=5)
    assert len(records) == 2


@pytest.mark.slow
def test_advisor_beats_greedy_bots() -> None:
    """The issue's target is 45% of 4-player games against three greedy bots (fair share 25%); here a smaller
    sample must clear 40%."""
    names = ("advisor", "greedy", "greedy", "greedy")
    matchup = Matchup(functools.partial(new_game, players=4), names, make_bot)
    summary = summarize(run_games(matchup, 200, seed=11, executor=2), names)
    advisor = next(r for r in summary.bots if r.bot == "advisor")
    assert advisor.win_share >= 0.40, advisor


def test_greedy_bot_is_myopic() -> None:
    """Greedy takes the best card now (Hot Lead bonus included) and stops only when nothing is worth taking."""
    kn = knowledge_for([parse(line) for line in [*FOUR, "play 1 white 1"]])
    bot = GreedyBot(1, random.Random(0))
    bot.knowledge = kn
    from models.evidence.rules import EvidenceView

    view = EvidenceView(1, 4, 1, 1, SEARCH, kn.table.clone(), ())
    means = kn.means()
    best = max(("white", "blue", "yellow", "pink", "green", "brown"), key=lambda c: means[c])
    assert bot.step(view) == Take(best)
