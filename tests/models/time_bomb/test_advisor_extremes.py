"""Numbers stay numbers (issue 20 §6): with extreme bluff rates (0 and 1) every figure the companion shows or
prints as JSON is finite, no Python warning is raised, and the values are the exact ones of the hard layer the
soft one falls back to."""

from __future__ import annotations

import math
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from models.time_bomb.advisor import AVOID, SEEK, Board, advise, cut_options, explosion, explosions
from models.time_bomb.bluff import BluffModel
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.rules import TableRules, TimeBombState
from models.time_bomb.session import TimeBombSession

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "time-bomb-5p.txt"
EXTREMES = ("0 0", "1 1", "0 1", "1 0")


def _lines() -> list[str]:
    text = EXAMPLE.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _finite(value: object, path: str = "") -> None:
    """Fail on any NaN or infinity anywhere in a JSON-like value."""
    if isinstance(value, float):
        assert math.isfinite(value), path
    elif isinstance(value, dict):
        for k, item in value.items():
            _finite(item, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _finite(item, f"{path}[{i}]")


@pytest.fixture
def strict_floats():
    """Every floating-point warning (NumPy's and Python's) is an error while the test runs."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = np.seterr(all="raise")
        try:
            yield
        finally:
            np.seterr(**old)


@pytest.mark.parametrize("rates", EXTREMES)
def test_extreme_rates_give_finite_figures_without_warnings(rates: str, strict_floats: None) -> None:
    session = TimeBombSession()
    lines = _lines()
    for i, line in enumerate(lines):
        session.handle(line)
        if i < 4:
            continue  # the setup: nothing to show yet
        if i == 4:  # right after the setup: the rates hold for every claim of the game
            session.handle(f"bluff {rates}")
        session.handle("advise")
        summary = session.summary()
        _finite(summary)
        # the soft layer fell back to the hard one, so soft and hard are the same numbers exactly
        kn = session.knowledge
        assert kn is not None
        if kn.soft_note() is not None:
            assert summary["roles"] == summary["roles_hard"]
            for risk in summary["cut_risk"].values():  # type: ignore[union-attr]
                assert risk["defuse"] == risk["defuse_hard"]
                for policy in summary["cut_risk_policies"]:  # type: ignore[union-attr]
                    assert risk[f"explode_{policy}"] == risk[f"explode_{policy}_hard"]


def test_the_state_that_divided_by_zero_has_the_exact_risks(strict_floats: None) -> None:
    """After 'cut 1 green' of the example at rates 0 0 a red chain reached a hand that must be all defusing
    cards, whose bomb chance was a rounding error (the NaN of issue 20). The batched red chains now agree with the
    independent recursive computation on the same belief."""
    session = TimeBombSession()
    lines = _lines()
    stop = lines.index("cut 1 green")
    for i, line in enumerate(lines[: stop + 1]):
        session.handle(line)
        if i == 4:
            session.handle("bluff 0 0")
    kn = session.knowledge
    assert kn is not None
    # nobody lies at rates 0 0: a claim is as likely from either side, so the roles are the prior (2 Moriarty
    # among my 4 fellow players) and every claim is the truth
    assert kn.soft_note() is None
    assert kn.roles(True) == pytest.approx({1: 0.5, 2: 0.0, 3: 0.5, 4: 0.5, 5: 0.5}, abs=1e-12)
    assert all(r.p_true_soft == pytest.approx(1.0, abs=1e-12) for r in kn.claim_reports())
    board = Board.of(kn.table)
    targets = kn.table.targets()
    for soft in (True, False):
        belief = kn.belief(soft)
        for policy in (AVOID, SEEK):
            batched = explosions(belief, board, targets, policy)
            for seat in targets:
                exact = explosion(belief, board, kn.table.cutter, seat, policy)
                assert math.isfinite(batched[seat])
                assert batched[seat] == pytest.approx(exact, abs=1e-12)
    summary = session.summary()
    _finite(summary)
    assert [o.seat for o in cut_options(kn)] == [o.seat for o in cut_options(kn)]  # deterministic, finite scores
    assert all(math.isfinite(o.score) for o in cut_options(kn))


@pytest.mark.parametrize("rates", [(0.0, 0.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0)])
def test_engine_games_at_extreme_rates_advise_finite_numbers(rates: tuple[float, float], strict_floats: None) -> None:
    """Random engine games (4 and 5 players), every seat's knowledge at the extreme rates: every ranked cut's
    numbers are finite at every decision."""
    model = BluffModel(*rates)
    for players, seed in ((4, 3), (5, 8)):
        state = TimeBombState(TableRules(players), random.Random(seed))
        chooser = random.Random(seed)
        setups = {s: TableSetup() for s in state.seats}
        knowledge: dict[int, TimeBombKnowledge] = {}
        checked = 0
        while True:
            for s in state.seats:
                for obs in state.take_observations(s):
                    if s in knowledge:
                        knowledge[s].add(obs)
                    else:
                        setups[s].apply(obs)
                        if setups[s].complete():
                            knowledge[s] = TimeBombKnowledge(setups[s], model)
            if state.is_terminal():
                break
            for kn in knowledge.values():
                if kn.table.phase == "cut":
                    advice = advise(kn)
                    for o in advice.options:
                        for x in (o.p_defuse, o.p_defuse_hard, o.p_explode, o.p_explode_hard, o.score):
                            assert math.isfinite(x)
                    checked += 1
            state.apply(chooser.choice(state.legal_actions()))
        assert checked > 0
