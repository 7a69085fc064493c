"""An advice row's move is one tap (issue 19 §2): each game's advice rows carry the entry line of their move
(``Cell.do``), and that line, completed with the answer the shipped example gives, is the entry the session
accepts. One position of a shipped example per game, its do-lines asserted exactly."""

from __future__ import annotations

from typing import Any

import pytest

from models import GAMES
from models.thirteen_clues.observations import Accuse, TakeGlass
from models.thirteen_clues.views import do_line
from solver import view as v
from tests.helpers import ROOT

SKIPPED = ("why", "advise", "show", "locations", "holdings")


def example_session(game: str, example: str, n: int) -> tuple[Any, str]:
    """The session after the first ``n`` entries of ``example`` (commands left out), and the next entry."""
    lines = [line.split("#", 1)[0].strip() for line in (ROOT / "examples" / example).read_text().splitlines()]
    lines = [line for line in lines if line and line.split()[0] not in SKIPPED]
    session = GAMES[game].new_session()
    for line in lines[:n]:
        session.handle(line, show=False)
    return session, lines[n]


def advice_moves(session: Any) -> list[tuple[str, str]]:
    """Each advice row's (action text, do-line), in the order shown."""
    reply = session.handle("advise", show=False)
    return [(c.text, c.do) for item in reply.renderables for c in v.cells(item) if c.do is not None]


CASES = [
    # game, example, entries entered, the do-lines shown (action text, line), the line the example enters next
    ("thirteen-clues", "thirteen-clues-short.txt", 6,
     [("consult A", "informant A "), ("consult B", "informant B "), ("consult C", "informant C "),
      ("consult D", "informant D "), ("ask 2 Yellow", "ask 2 Yellow "), ("ask 3 Yellow", "ask 3 Yellow "),
      ("ask 4 Yellow", "ask 4 Yellow "), ("ask 2 Red", "ask 2 Red ")],
     "informant A Plaza"),
    ("beyond-baker-street", "beyond-baker-street-3p.txt", 11,
     [("eliminate 1", "eliminate 2 1 "), ("eliminate 2", "eliminate 2 2 "), ("eliminate 3", "eliminate 2 3 "),
      ("eliminate 4", "eliminate 2 4 "), ("assist 3 1", "assist 2 3 1 at 1"),
      ("assist 1 Document", "assist 2 1 Document at 3 4"), ("assist 1 1", "assist 2 1 1 at 1"),
      ("assist 1 3", "assist 2 1 3 at 2 3")],
     "eliminate 2 1 4C"),
    ("time-bomb", "time-bomb-5p.txt", 37,
     [("player 3", "cut 3 "), ("player 4", "cut 4 "), ("player 5", "cut 5 "), ("player 1", "cut 1 ")],
     "cut 3 green"),
    ("evidence", "evidence-4p.txt", 16,
     [("take white", "search 1 white"), ("take blue", "search 1 blue"), ("take green", "search 1 green"),
      ("take pink", "search 1 pink"), ("take yellow", "search 1 yellow"), ("take brown", "search 1 brown")],
     "search 1 white"),
]


@pytest.mark.parametrize(("game", "example", "n", "expected", "next_line"), CASES, ids=[c[0] for c in CASES])
def test_advice_rows_carry_the_entry_of_their_move(game: str, example: str, n: int,
                                                    expected: list[tuple[str, str]], next_line: str) -> None:
    session, upcoming = example_session(game, example, n)
    assert upcoming == next_line
    moves = advice_moves(session)
    assert moves == expected
    lines = [line for _, line in moves]
    # The example's next entry is one of the advised moves, completed with the answer it gives.
    started = [line for line in lines if next_line.startswith(line)]
    assert started, f"{next_line!r} starts none of {lines}"
    assert session.fits(next_line)
    # A whole do-line is accepted as it is; a started one is offered its rest by the choices (the answer).
    for line in lines:
        if line.endswith(" "):
            assert session.choices(line), line
            assert not session.fits(line.strip()), line
        else:
            assert session.fits(line), line


def test_evidence_play_rows_are_whole_entries() -> None:
    """The play step's rows are my rumours, each line whole (the value is in my hand): all accepted."""
    session, upcoming = example_session("evidence", "evidence-4p.txt", 15)
    assert upcoming == "play 1 white 1"
    lines = [line for _, line in advice_moves(session)]
    assert sorted(lines) == ["play 1 blue 0", "play 1 blue 3", "play 1 blue 4", "play 1 white 0", "play 1 white 1",
                             "play 1 yellow 3"]
    assert all(session.fits(line) for line in lines)


def test_another_players_turn_has_no_do_lines() -> None:
    """Beyond Baker Street advises me on another player's turn too, but my move is no entry then."""
    session, _ = example_session("beyond-baker-street", "beyond-baker-street-3p.txt", 12)
    assert session.knowledge.board.current != session.knowledge.me
    assert advice_moves(session) == []


def test_a_moriartys_claims_are_whole_entries_and_another_cutters_cuts_have_none() -> None:
    """A Moriarty's ranked claims each carry the whole claim line; player 1 cuts, so the cuts have no line."""
    session = GAMES["time-bomb"].new_session()
    for line in ["players 5", "me 2", "role moriarty", "start 1", "hand pink red red blue green"]:
        session.handle(line, show=False)
    assert advice_moves(session) == [("1", "claim 2 1"), ("2", "claim 2 2"), ("0", "claim 2 0"), ("3", "claim 2 3"),
                                     ("4", "claim 2 4"), ("5", "claim 2 5")]
    assert all(session.fits(f"claim 2 {k}") for k in range(6))


def test_thirteen_clues_an_accusation_stops_before_its_verdict() -> None:
    """An advised accusation is entered as mine, and the choices offer its verdict; taking a glass has no entry."""
    session, _ = example_session("thirteen-clues", "thirteen-clues-short.txt", 6)
    line = do_line(Accuse("Butcher", "Theater", "Poison"), session.knowledge.me)
    assert line == "accuse 1 Butcher Theater Poison "
    assert [c.word for c in session.choices(line)] == ["wrong", "right"]
    assert session.fits(line + "wrong") and not session.fits(line.strip())
    assert do_line(TakeGlass(3), 1) is None
