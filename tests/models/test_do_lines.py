"""An advice row's move is one tap (issue 19 §2): each game's advice rows carry the entry line of their move
(``Cell.do``), and that line, completed with the answer the shipped example gives, is the entry the session
accepts. One position of a shipped example per game, its do-lines asserted exactly."""

from __future__ import annotations

from typing import Any

import pytest

from models import GAMES
from models.beyond_baker_street.observations import parse
from models.thirteen_clues.observations import Accuse, TakeGlass
from models.thirteen_clues.views import do_line
from solver import view as v
from solver.errors import AssistantError
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
     [("player 3", "cut 3 "), ("player 4", "cut 4 "), ("player 5", "cut 5 "), ("player 1", "cut 1 "),
      ("1 defusing card", "claim 2 1")],
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


def test_a_moriartys_claims_are_whole_entries_and_another_cutters_cuts_start_the_cut() -> None:
    """A Moriarty's ranked claims each carry the whole claim line; player 1 cuts, and the ranked cuts carry the
    entry that records player 1's cut (whoever cuts, it is the table's entry): the card is what the cut shows,
    so the choices offer exactly the cards it can be (my own cables for my hand)."""
    session = GAMES["time-bomb"].new_session()
    for line in ["players 5", "me 2", "role moriarty", "start 1", "hand pink red red blue green"]:
        session.handle(line, show=False)
    moves = advice_moves(session)
    assert [m for m in moves if m[1].startswith("claim")] == [
        ("1", "claim 2 1"), ("2", "claim 2 2"), ("0", "claim 2 0"), ("3", "claim 2 3"), ("4", "claim 2 4"),
        ("5", "claim 2 5")]
    assert sorted(m for m in moves if m[1].startswith("cut")) == [
        ("player 2", "cut 2 "), ("player 3", "cut 3 "), ("player 4", "cut 4 "), ("player 5", "cut 5 ")]
    assert all(session.fits(f"claim 2 {k}") for k in range(6))
    assert [c.word for c in session.choices("cut 2 ")] == ["pink", "red", "blue", "green"]
    assert [c.word for c in session.choices("cut 3 ")] == ["defuse", "pink", "red", "blue", "green", "yellow"]
    session.handle("cut 3 defuse", show=False)
    assert session.lines[-1] == "cut 3 defuse"


def test_thirteen_clues_an_accusation_stops_before_its_verdict() -> None:
    """An advised accusation is entered as mine, and the choices offer its verdict; taking a glass has no entry."""
    session, _ = example_session("thirteen-clues", "thirteen-clues-short.txt", 6)
    line = do_line(Accuse("Butcher", "Theater", "Poison"), session.knowledge.me)
    assert line == "accuse 1 Butcher Theater Poison "
    assert [c.word for c in session.choices(line)] == ["wrong", "right"]
    assert session.fits(line + "wrong") and not session.fits(line.strip())
    assert do_line(TakeGlass(3), 1) is None


# -- every advised move of seeded games, and the moves Time Bomb and the Characters added -----------------------
def completed(session: Any, line: str, upcoming: str | None = None) -> str | None:
    """``line`` as the session accepts it: whole, or a started line completed by the example's own next entry
    when it starts with it, else by the first choice offered at each word (at most six taps); None if no
    completion is accepted."""
    if not line.endswith(" "):
        return line if session.fits(line) else None
    if upcoming is not None and upcoming.startswith(line) and session.fits(upcoming):
        return upcoming
    for _ in range(6):
        offered = session.choices(line)
        if not offered:
            return None
        line += offered[0].word
        if offered[0].complete and session.fits(line):
            return line
        line += " "
    return None


def ranked_moves(session: Any, command: str) -> list[tuple[str, str | None]]:
    """The move cell of every ranked advice row ('#' first, the move second), and every move named in a line
    (a Flow cell with a do-line): (text, do-line or None), as ``command`` ('advise all': every row) shows."""
    reply = session.handle(command, show=False)
    out: list[tuple[str, str | None]] = []
    for item in reply.renderables:
        for view in v.walk(item):
            if isinstance(view, v.Table) and view.columns and view.columns[0].header == "#":
                out += [(v.as_cell(row[1]).text, v.as_cell(row[1]).do) for row in view.rows]
            elif isinstance(view, v.Flow):
                out += [(a.text, a.do) for a in view.atoms if isinstance(a, v.Cell) and a.do is not None]
    return out


#: Ranked moves that are no entry: Evidence's stop, Thirteen Clues' glass taken (no entry records it).
NO_ENTRY = {"evidence": {"stop"}, "thirteen-clues": {"take glass"}}
#: Every how many entries of the seeded game the advice is asked (Evidence's advisor takes ~1.5 s).
EVERY = {"evidence": 8, "thirteen-clues": 2, "beyond-baker-street": 2, "time-bomb": 1}


def my_move_now(game: str, session: Any) -> bool:
    """Whether the advice is about my own move now (another player's turn: their ranked moves are no entry of
    mine, so they carry no line)."""
    kn = session.knowledge
    if game == "beyond-baker-street":
        return kn.board.current == kn.me
    if game == "time-bomb":
        return kn.table.cutter == kn.me
    if game == "evidence":
        return session.turn().seat == kn.me
    return kn.winning_accusation() is None  # Thirteen Clues: any seat asks at any time, until a mystery is solved


@pytest.mark.parametrize("game", sorted(GAMES.names()))
def test_every_advised_move_of_a_seeded_game_carries_a_line_the_session_accepts(game: str) -> None:
    teacher = GAMES.get(game).new_teacher()
    lines = list(teacher.transcript(1, teacher.default_players).lines)
    session = GAMES[game].new_session()
    checked = set()
    for i, line in enumerate(lines):
        session.handle(line, show=False)
        if i % EVERY[game]:
            continue
        try:
            moves = ranked_moves(session, "advise" if game == "time-bomb" else "advise all")
        except AssistantError:
            continue  # no advice now (the setup, the game over, a pending draw)
        mine = my_move_now(game, session)
        if not mine:  # Time Bomb's claims are entries at any time; another cutter's cut or cover is the table's
            assert all(do is None or do.split()[0] in ("claim", "cut", "cover", "uncover") for _, do in moves), \
                (i, moves)
            assert game == "time-bomb" or all(do is None for _, do in moves), (i, moves)
        upcoming = lines[i + 1] if i + 1 < len(lines) else None
        for text, do in moves:
            if do is None:
                assert not mine or text.lower() in NO_ENTRY.get(game, set()), (i, text)
                continue
            assert completed(session, do, upcoming) is not None, (i, text, do)
            checked.add(do.split()[0])
    assert checked == {"beyond-baker-street": {"assist", "confirm", "eliminate", "investigate", "pursue"},
                       "evidence": {"play", "search", "timeout"}, "thirteen-clues": {"accuse", "ask", "informant"},
                       "time-bomb": {"claim", "cover", "cut", "uncover"}}[game]


def test_time_bomb_an_advised_cover_and_uncover_are_whole_entries() -> None:
    """Seed 24 (5 players, me player 2): I uncover after a blue bomb (entry 18) and cover after a defusing
    card (entry 23); the advised colour is the line the simulated player entered next."""
    teacher = GAMES.get("time-bomb").new_teacher()
    lines = list(teacher.transcript(24, teacher.default_players).lines)
    assert (lines[16], lines[21]) == ("cut 4 blue", "cut 3 defuse")  # my cuts: a blue bomb, a defusing card
    for n, expected in ((17, [("uncover yellow", "uncover yellow"), ("1 defusing card", "claim 2 1")]),
                        (22, [("cover blue", "cover blue"), ("1 defusing card", "claim 2 1")])):
        session = GAMES["time-bomb"].new_session()
        for line in lines[:n]:
            session.handle(line, show=False)
        assert advice_moves(session) == expected
        assert lines[n] == expected[0][1]
        assert all(session.fits(line) for _, line in expected)
        session.handle(expected[0][1], show=False)
        assert session.lines[-1] == expected[0][1]


def character_session(character: str) -> Any:
    """Three players, me player 2 with ``character`` (Wiggins and Martin beside me: Martin, #8, starts), after
    players 3 and 1 each eliminated a card (2W is in the Impossible): my turn."""
    session = GAMES["beyond-baker-street"].new_session()
    for line in ["players 3", "me 2", "case 1", "character 1 Wiggins", f"character 2 {character}",
                 "character 3 Martin", "hand 1 3W 5C 1D 6T", "hand 3 2W 4C 1T 6D", "lead 7C", "lead 10D", "lead 12W",
                 "eliminate 3 1 2W", "draw 3 2C", "eliminate 1 1 3W", "draw 1 2D"]:
        session.handle(line, show=False)
    assert session.knowledge.board.current == 2
    return session


#: The 14 cards I have not seen (my card at position 1 is one of them, and the deck's top).
UNSEEN = ["1C", "3C", "6C", "3D", "4D", "5D", "2T", "3T", "4T", "5T", "1W", "4W", "5W", "6W"]


@pytest.mark.parametrize(("character", "verb", "line", "rest"), [
    ("Irene_Adler", "advance", "advance 2", None),
    ("Lady_Hilda_Hope", "assist", "assist 2 3 Document at 3 and 1 Track at 3", None),
    ("Mrs_Hudson", "return", "return 2 2W", None),
    ("Langdale_Pike", "swap", "swap 2 1 1 3 ", UNSEEN),  # my card given: what it can be
    ("Toby", "peek", "peek 2 ", UNSEEN),  # the card I see, then top or bottom
])
def test_beyond_baker_street_character_actions_carry_their_entry(character: str, verb: str, line: str,
                                                                 rest: list[str] | None) -> None:
    """Each Character's advised action carries its own entry line: whole ones are accepted as they are, a started
    one is offered its rest and accepted once completed."""
    session = character_session(character)
    lines = [do for _, do in ranked_moves(session, "advise all") if do is not None]
    ours = [do for do in lines if do.startswith(verb) and (verb != "assist" or " and " in do)]
    assert ours[0] == line
    if rest is not None:
        assert [c.word for c in session.choices(line)] == rest
    accepted = completed(session, line)
    assert accepted is not None and (accepted == line or accepted.startswith(line))
    session.handle(accepted, show=False)
    assert session.lines[-1] == accepted


def test_beyond_baker_street_an_exchange_is_a_whole_entry() -> None:
    """Sir Henry Baskerville's exchange names both cards, so its line is whole."""
    from models.beyond_baker_street.data import Evidence as Card
    from models.beyond_baker_street.observations import Exchange
    from models.beyond_baker_street.views import do_line as bbs_line

    assert bbs_line(Exchange(Card(2, "Witness"), Card(3, "Document")), 2) == "exchange 2 2W 3D"
    session = character_session("Sir_Henry_Baskerville")
    assert [c.word for c in session.choices("exchange 2 ")] == ["2W", "3W"]  # the Impossible's cards


def test_beyond_baker_street_a_card_the_knowledge_fixes_is_filled_and_an_unknown_one_offers_its_candidates() -> None:
    """Entry 22 of the example: my position 3 can only be 5D, so its investigate and eliminate lines are whole
    (card and the advised Lead) and accepted; position 1 is unknown, so its investigate line carries the advised
    Lead (chosen at the table before the card is seen) and its eliminate line stops before the card, and the
    choices offer exactly the cards it can still be."""
    session, upcoming = example_session("beyond-baker-street", "beyond-baker-street-3p.txt", 22)
    assert upcoming == "investigate 2 3 5D Opportunity"
    moves = dict(ranked_moves(session, "advise all"))
    assert [moves[f"investigate 3 {lead}"] for lead in ("Opportunity", "Suspect", "Motive")] == [
        "investigate 2 3 5D Opportunity", "investigate 2 3 5D Suspect", "investigate 2 3 5D Motive"]
    assert moves["eliminate 3"] == "eliminate 2 3 5D"
    assert all(session.fits(moves[k]) for k in ("investigate 3 Opportunity", "investigate 3 Motive", "eliminate 3"))
    assert moves["investigate 1 Motive"] == "investigate 2 1 Motive "
    assert moves["investigate 1 Suspect"] == "investigate 2 1 Suspect "
    assert moves["eliminate 1"] == "eliminate 2 1 "
    legal = ["1C", "6C", "2T", "3T", "6T", "3W", "4W", "6W"]
    # my card unseen: the cards it can be, then the Leads, which may come first as at the table
    assert [c.word for c in session.choices("investigate 2 1 ")] == [*legal, "Opportunity", "Motive", "Suspect"]
    assert [c.word for c in session.choices("eliminate 2 1 ")] == legal
    assert [c.word for c in session.choices("investigate 2 1 Motive ")] == legal
    assert all(c.complete for c in session.choices("investigate 2 1 Motive "))
    assert [c.word for c in session.choices("investigate 2 1 3T ")] == ["Opportunity", "Motive", "Suspect"]
    # Either order is the same entry; a Lead with no card is not one.
    assert parse("investigate 2 1 Motive 3T") == parse("investigate 2 1 3T Motive")
    assert session.fits("investigate 2 1 Motive 3T") and not session.fits("investigate 2 1 Motive")
    session.handle(upcoming, show=False)
    assert session.lines[-1] == upcoming


def test_beyond_baker_street_offers_only_the_open_leads_first() -> None:
    """After Opportunity is confirmed (entry 26 of the example), my unseen card's Investigate offers the cards it can
    be and only the Leads still open; a Lead chosen first is followed by the same cards."""
    session, upcoming = example_session("beyond-baker-street", "beyond-baker-street-3p.txt", 30)
    assert upcoming == "assist 2 1 Witness at 4"
    cards = ["1C", "6C", "2T", "3T", "3W", "6W"]
    assert [c.word for c in session.choices("investigate 2 1 ")] == [*cards, "Motive", "Suspect"]
    assert [c.word for c in session.choices("investigate 2 1 Motive ")] == cards
    assert session.fits("investigate 2 1 Motive 3W") and not session.fits("investigate 2 1 Opportunity 3W")
