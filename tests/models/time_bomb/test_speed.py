"""The fast paths of the Time Bomb advisor and of the soundness check give the old answers: the red chains
of every target in arrays against the recursive :func:`explosion`, and the soundness check against the whole
true world."""

from __future__ import annotations

import functools

import pytest

from models.time_bomb import advisor, bots
from models.time_bomb.advisor import POLICIES, Board, explosion, explosions
from models.time_bomb.bots import make_bot
from models.time_bomb.knowledge import TimeBombKnowledge
from models.time_bomb.rules import TimeBombState
from models.time_bomb.simulate import new_state as _new_state
from solver.simulate import Matchup, game_seed, play_game


@pytest.mark.parametrize("players", [5, 6])
def test_explosions_in_arrays_are_the_recursive_ones(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    compared, chained = 0, 0
    real = advisor.advise

    def checking(kn: TimeBombKnowledge, claim_pending: bool = False, tolerance: float = 0.0,
                 detail: bool = True, weights: advisor.Weights | None = None) -> advisor.Advice:
        nonlocal compared, chained
        t = kn.table
        if t.phase == "cut" and not t.over:
            board, targets = Board.of(t), t.targets()
            for soft in (True, False):
                belief = kn.belief(soft=soft)
                for policy in POLICIES:
                    for tol in (0.0, 1e-3):
                        fast = explosions(belief, board, targets, policy, tol)
                        for seat in targets:
                            slow = explosion(belief, board, t.cutter, seat, policy, tol)
                            assert fast[seat] == pytest.approx(slow, abs=1e-12)
                            compared += 1
                            chained += slow > 0
        return real(kn, claim_pending, tolerance, detail, weights)

    monkeypatch.setattr(bots, "advise", checking)
    matchup = Matchup(functools.partial(_new_state, players=players), ("advisor/bluffing-moriarty",) * players,
                      make_bot)
    for i in range(3):
        play_game(matchup, game_seed(7, i), i)
    assert compared > 500 and chained > 50


def test_the_kept_true_world_is_the_fresh_one_at_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The soundness check reads a true world kept between observations (rebuilt after a new round or a cut,
    which reorders the cut hand's slots): at every check of whole games it equals one built from scratch."""
    checks = 0
    real = TimeBombState.soundness_failure

    def checking(self: TimeBombState, seat: int, knowledge: object, deep: bool = False) -> str | None:
        nonlocal checks
        assert dict(self.true_world_view()) == self._build_true_world()
        checks += 1
        return real(self, seat, knowledge, deep)

    monkeypatch.setattr(TimeBombState, "soundness_failure", checking)
    matchup = Matchup(functools.partial(_new_state, players=6), ("advisor/bluffing-moriarty",) * 6, make_bot)
    for i in range(2):
        play_game(matchup, game_seed(3, i), i)
    assert checks > 300
