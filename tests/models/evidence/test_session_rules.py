"""The Evidence companion refuses every entry the rules do not allow at that moment (turn order, the steps of a
turn, when an evidence is uncovered), in one line naming the rule, with the state and the journal unchanged; and
it accepts every whole game the rules engine plays."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER, new_game
from models.evidence.session import EvidenceSession
from solver.errors import AssistantError
from solver.session import Journal

SETUP = [
    "players 4",
    "me 1",
    "start 1",
    "setup white 0 blue 1 yellow 2 pink 3 green 4 brown -1",
    "hand white 1 white 2 blue 4 yellow -1 pink 0 green 0",
    "holds 2 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
    "holds 3 blue 1 yellow 1 pink 1 green 1 brown 2",
    "holds 4 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
]
ORDER = "players take turns clockwise from the start player: 1, 2, 3, 4"
TURN = "a turn is: play a rumour, then search, then at most one time-out or tool"
# The 5th white rumour (white 0 was revealed at setup): the white evidence must be entered next. It is 4, the
# only white rumour left hidden.
FIFTH_WHITE = ["play 1 white 1", "play 2 white 3", "play 3 blue 0", "play 4 white -1", "play 1 white 2"]


def session_at(tmp_path: Path, lines: list[str]) -> EvidenceSession:
    session = EvidenceSession(Journal(tmp_path / "game.journal", "# evidence"))
    for line in [*SETUP, *lines]:
        session.handle(line, show=False)
    return session


def refused(session: EvidenceSession, line: str) -> str:
    """The one-line refusal of ``line``; the entries, the public table, the turn and the journal unchanged."""
    assert session.journal is not None and session.knowledge is not None
    lines, journal = list(session.lines), session.journal.path.read_text()
    table, turn = session.knowledge.table.clone(), session.turn()
    with pytest.raises(AssistantError) as info:
        session.handle(line)
    message = str(info.value)
    assert "\n" not in message
    assert session.lines == lines and session.journal.path.read_text() == journal
    assert vars(session.knowledge.table) == vars(table) and session.turn() == turn
    return message


@pytest.mark.parametrize(
    ("before", "line", "message"),
    [
        ([], "play 3 blue 0", f"'play 3 blue 0': it is player 1's turn ({ORDER})"),
        # one player making plays in a row (the issue: three plays in a row were accepted)
        (["play 1 white 1"], "play 1 white 2", f"'play 1 white 2': it is player 2's turn ({ORDER})"),
        (["play 1 white 1", "play 2 white 3"], "play 4 white -1",
         f"'play 4 white -1': it is player 3's turn ({ORDER})"),
        ([], "search 1 blue", f"'search 1 blue': player 1 has not played this turn's rumour yet ({TURN})"),
        (["play 1 white 1"], "search 2 blue", f"'search 2 blue': it is player 1's turn ({TURN})"),
        (["play 1 white 1", "search 1 blue"], "timeout 2 blue for green",
         f"'timeout 2 blue for green': it is player 1's turn ({TURN})"),
        (["play 1 white 1", "search 1 blue", "timeout 1 blue for green"], "search 1 pink",
         f"'search 1 pink': player 1 has used a time-out or tool, which ends the turn ({TURN})"),
        # an evidence before its mystery's 5th revealed rumour (the issue: 'evidence white 4' with one revealed)
        ([], "evidence white 4", "'evidence white 4': an evidence is uncovered at its mystery's 5th revealed rumour "
                                 "or at the end of the game; 1 white rumour revealed so far"),
        (FIFTH_WHITE[:4], "evidence white 4",
         "'evidence white 4': an evidence is uncovered at its mystery's 5th revealed rumour or at the end of the "
         "game; 4 white rumours revealed so far"),
        # the 5th rumour uncovers the evidence at once: nothing else before it is entered
        (FIFTH_WHITE, "search 1 pink", "'search 1 pink': first enter the white evidence, uncovered at once by the "
                                       "5th revealed white rumour ('evidence white VALUE')"),
        (FIFTH_WHITE, "play 2 blue 2", "'play 2 blue 2': first enter the white evidence, uncovered at once by the "
                                       "5th revealed white rumour ('evidence white VALUE')"),
        ([*FIFTH_WHITE, "evidence white 4"], "evidence white 4",
         "'evidence white 4': the white evidence is already uncovered (4)"),
    ],
)
def test_an_entry_out_of_turn_or_phase_is_refused(tmp_path: Path, before: list[str], line: str,
                                                  message: str) -> None:
    session = session_at(tmp_path, before)
    assert refused(session, line) == message


def test_the_fifth_rumour_waits_for_its_evidence(tmp_path: Path) -> None:
    session = session_at(tmp_path, FIFTH_WHITE)
    turn = session.turn()
    assert (turn.phase, turn.colour) == ("evidence", "white")
    assert turn.describe(1) == "enter the white evidence just uncovered ('evidence white VALUE')"
    with pytest.raises(AssistantError, match="advise: first enter the white evidence"):
        session.handle("advise")
    with pytest.raises(AssistantError, match="every white 3 .* is accounted for: 'play 2 white 3'"):
        session.handle("evidence white 3")  # the knowledge model still checks the value
    session.handle("evidence white 4")
    assert session.turn().seat == 1 and session.turn().phase == "search"  # my turn goes on after the evidence
    session.handle("search 1 pink")


def test_two_players_reveal_before_they_play(tmp_path: Path) -> None:
    state = new_game(random.Random(3), 2, first_player=1)
    session = EvidenceSession(Journal(tmp_path / "two.journal", "# evidence"))
    for obs in state.take_observations(1):
        session.handle(str(obs), show=False)
    colour, value = state.hands[1][0]
    message = refused(session, f"play 1 {colour} {value}")
    assert message == (f"'play 1 {colour} {value}': with two players a turn begins by revealing one of your "
                       "unknown rumours: first 'reveal 1 COLOUR VALUE'")
    state.apply(state.legal_actions()[0])  # player 1 uncovers an unknown rumour
    for obs in state.take_observations(1):
        session.handle(str(obs), show=False)
    reveal = session.lines[-1] if session.lines[-1].startswith("reveal") else session.lines[-2]
    assert refused(session, reveal.replace("reveal 1", "reveal 2")).endswith(
        "one a turn, then they play a rumour")


@pytest.mark.parametrize(("players", "pro"), [(2, False), (3, True), (4, False), (5, True)])
def test_every_game_the_engine_plays_is_accepted_and_its_turn_followed(players: int, pro: bool) -> None:
    """Random legal games, seen from seat 1: every entry accepted; whenever the engine waits for a rumour (or for
    my own search, time-out or tool) the companion names the same round, seat and step; after the end, refused."""
    rng = random.Random(players)
    state = new_game(random.Random(100 + players), players, pro)
    session = EvidenceSession()
    while True:
        for obs in state.take_observations(1):
            session.handle(str(obs), show=False)
        if state.is_terminal():
            break
        turn = session.turn()
        now = (turn.round, turn.seat, turn.phase)
        if state.current == 1 or state.phase in (UNCOVER, PLAY):
            # the one difference: when I stop searching there is no entry for it, so the companion still offers
            # my search (then time-out or tool) until my next entry or the next player's rumour
            stopped = state.current != 1 or (state.phase, turn.phase) == (EXTRA, SEARCH)
            mine = turn.seat == 1 and turn.phase in (SEARCH, EXTRA) and stopped
            assert now == (state.round, state.current, state.phase) or mine
        state.apply(rng.choice(state.legal_actions()))
    assert session.turn().phase == "over"
    with pytest.raises(AssistantError, match="the game is over: every player has played a rumour in each of the 6"):
        session.handle(f"{'reveal' if players == 2 else 'play'} {state.table.start} white 1")
    assert session.order is not None
    if session.order.over:  # an evidence was uncovered at the end: the last turn is over too
        with pytest.raises(AssistantError, match="the game is over \\(its evidence is being uncovered\\)"):
            session.handle("search 1 blue")


def test_which_copy_another_player_plays_each_physical_card_equally_likely() -> None:
    """docs/evidence.md "Choice: which copy another player plays". Blue is -1 0 1 2 3 3; the hidden blue rumours
    are 1, 3, 3: one is the evidence, two are in player 2's hand. Player 2 plays a blue 3. Each physical card of
    their hand equally likely to be the one played: the deals (evidence 3, hand 3 1) twice with weight 1/2 and
    (evidence 1, hand 3 3) once with weight 1 give 1/2 each. (Had any hand holding a 3 been taken to play a 3
    with the same chance, the evidence would be 3 with probability 2/3.)"""
    session = EvidenceSession()
    for line in ["players 4", "me 1", "start 2", "values blue -1 0 1 2 3 3",
                 "setup white -1 blue -1 yellow -1 pink -1 green -1 brown -1",
                 "hand blue 0 blue 2 white 0 white 1 yellow 0 yellow 1",
                 "holds 2 blue 2 white 2 yellow 2", "holds 3 pink 2 green 2 brown 2", "holds 4 pink 2 green 2 brown 2",
                 "play 2 blue 3"]:
        session.handle(line, show=False)
    assert session.knowledge is not None
    assert session.knowledge.distribution_exact()["blue"] == {1: Fraction(1, 2), 3: Fraction(1, 2)}
    assert session.knowledge.counted_distribution()["blue"] == pytest.approx({1: 0.5, 3: 0.5})
