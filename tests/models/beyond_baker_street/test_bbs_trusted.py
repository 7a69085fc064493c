"""Trusted entries (:attr:`HandKnowledge.trusted`): a simulation that samples its soundness checks tells every
bot that its observations come from the rules engine (``solver.bots.trust``), and the knowledge then skips the
checks that can only refuse a wrong entry. What it knows after every entry must be exactly what the checking
knowledge knows, in the base game and with every kind of Character."""

from __future__ import annotations

import functools
import random

import pytest
from bbs_reference import game_states

from models.beyond_baker_street.advisor import make_bot
from models.beyond_baker_street.data import Evidence
from models.beyond_baker_street.knowledge import HandKnowledge
from models.beyond_baker_street.observations import Assisted, Hand, Investigated
from models.beyond_baker_street.rules import TableRules, new_game
from solver.errors import AssistantError
from solver.simulate import Matchup, game_seed, play_game


def _known(kn: HandKnowledge) -> tuple[object, ...]:
    """Everything the knowledge holds that an answer reads (the entries themselves excepted)."""
    started = kn.started
    return (kn.board, {s: list(h) for s, h in kn.hands.items()}, list(kn.spans), dict(kn._open), dict(kn._open_at),
            kn._sighted, kn.top, list(kn.buried), kn._bury_hint,
            kn.worlds() if started else None, kn.hand() if started else None)


def _entries(players: int, case: int, seed: int, characters: tuple[str | None, ...]) -> list[object]:
    states = list(game_states(players, case, seed, characters=characters, max_turns=80))
    return list(states[-1][1].entries)


GAMES = [(3, 1, 11, ()), (2, 5, 12, ()), (4, 3, 13, ()),
         *[(p, 1 + g % 3, 40 + g, (None,) * p) for g, p in enumerate((2, 3, 4, 3, 4, 2, 3, 4))]]


@pytest.mark.parametrize(("players", "case", "seed", "characters"), GAMES)
def test_trusted_knowledge_is_the_checking_knowledge_after_every_entry(
        players: int, case: int, seed: int, characters: tuple[str | None, ...]) -> None:
    entries = _entries(players, case, seed, characters)
    checking, trusted = HandKnowledge(), HandKnowledge()
    trusted.trusted = True
    for i, entry in enumerate(entries):
        checking.add(entry)
        trusted.add(entry)
        assert _known(trusted) == _known(checking), f"entry {i + 1} '{entry}'"
    assert trusted.entries == checking.entries == entries
    assert len(entries) > 40  # a whole game, not its setup


def _started() -> HandKnowledge:
    """The knowledge of player 3, who starts this seeded 3-player game, just after the setup and Lead reveals."""
    return list(game_states(3, 1, 7, seat=3, max_turns=1))[-1][1]


def test_the_checks_a_trusted_knowledge_skips() -> None:
    """A wrong Assist (positions the hand I see does not give) and a card of mine played where it cannot be:
    refused by the checking knowledge, taken by a trusted one (which the engine never gives a wrong entry)."""
    kn = _started()
    other = next(s for s in kn.hands if s != kn.me)
    cards = [s.card for s in kn.hands[other]]
    assert all(c is not None for c in cards)
    subject = cards[0].number  # type: ignore[union-attr]
    truth = tuple(i + 1 for i, c in enumerate(cards) if c.number == subject)  # type: ignore[union-attr]
    wrong = Assisted(kn.me, other, subject, tuple(p for p in range(1, len(cards) + 1) if p not in truth))
    assert kn.board is not None and kn.board.current == kn.me == 3
    with pytest.raises(AssistantError, match=f"player {other}'s"):
        kn.add(wrong)
    assert len(kn.entries) == len(_started().entries)  # refused: nothing changed
    kn.trusted = True
    kn.add(wrong)
    assert kn.entries[-1] == wrong
    mine = _started()
    seen = next(c for s in mine.hands.values() for c in (sl.card for sl in s) if c is not None)
    played = Investigated(mine.me, 1, seen, "Motive")  # a card I see in another hand cannot be in mine
    with pytest.raises(AssistantError, match=f"{seen.code} cannot be at your position 1"):
        mine.add(played)
    mine.trusted = True
    mine.add(played)
    assert mine.entries[-1] == played


def _bots_of(soundness: float) -> list[object]:
    bots: list[object] = []

    def make(name: str, seat: int, rng: random.Random) -> object:
        bot = make_bot(name, seat, rng)
        bots.append(bot)
        return bot

    rules = TableRules(3, 5)
    play_game(Matchup(functools.partial(new_game, rules), ("hat",) * 3, make, soundness=soundness), game_seed(3, 0))
    return bots


def test_a_sampled_simulation_trusts_the_engine_and_a_checking_one_does_not() -> None:
    assert [b.hand.trusted for b in _bots_of(0.1)] == [True, True, True]  # type: ignore[attr-defined]
    assert [b.hand.trusted for b in _bots_of(1.0)] == [False, False, False]  # type: ignore[attr-defined]
    assert HandKnowledge().trusted is False


def test_a_trusted_hand_line_is_still_read() -> None:
    """Setup lines are never skipped: a trusted knowledge still refuses a setup it cannot read."""
    kn = HandKnowledge()
    kn.trusted = True
    with pytest.raises(AssistantError):
        kn.add(Hand(2, (Evidence(1, "Motive"),)))  # before the players and my seat


def test_a_view_copies_the_board_only_when_it_is_read() -> None:
    """A step's view holds the engine's board (no copy at every step); reading ``board`` gives a copy, equal to
    the engine's and independent of it."""
    state = new_game(TableRules(3, 1), random.Random(5))
    view = state.view(state.current_player() or 1)
    assert view.public is state.board
    copy = view.board
    assert copy == state.board and copy is not state.board
    copy.holmes -= 1
    copy.leads["Motive"].evidence.append(Evidence(1, "Motive"))
    assert state.board.holmes == copy.holmes + 1 and state.board.leads["Motive"].evidence == []
