"""The Beyond Baker Street companion refuses every entry the rules do not allow at that moment (a seat that does
not exist, turn order, the draw or Lead the table waits for, Assist targets and positions, Confirm, a confirmed
Lead, the end of the game), in one line naming the entry and the rule, with the state and the journal unchanged.
The table is the shipped 3-player example (seat 2's view: player 1 holds 5C 1W 3C 3D, player 3 1T 5T 2W 2C)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.beyond_baker_street.session import BeyondBakerStreetSession
from solver.errors import AssistantError
from solver.session import FIX_HINT, Journal

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "beyond-baker-street-3p.txt"
LINES = [ln for ln in EXAMPLE.read_text().splitlines() if ln.split("#", 1)[0].strip()]
SETUP = LINES[:9]  # the setup; player 1 is to play
AFTER_ELIMINATE = LINES[:10]  # 'eliminate 1 1 5C': player 1 draws next
CONFIRMED = LINES[:27]  # up to 'confirm 2 Opportunity': player 3 is to play
TURNS = "players take turns clockwise"


def session_at(tmp_path: Path, lines: list[str]) -> BeyondBakerStreetSession:
    session = BeyondBakerStreetSession(Journal(tmp_path / "game.journal", "# beyond-baker-street"))
    for line in lines:
        session.handle(line, show=False)
    return session


def refused(session: BeyondBakerStreetSession, line: str) -> str:
    """The one-line refusal of ``line``; the entries, the board, the hands, the worlds and the journal unchanged."""
    assert session.journal is not None and session.knowledge.board is not None
    lines, journal = list(session.lines), session.journal.path.read_text()
    board, worlds = session.knowledge.board.copy(), session.knowledge.worlds()
    hands = {s: list(h) for s, h in session.knowledge.hands.items()}
    with pytest.raises(AssistantError) as info:
        session.handle(line)
    message = str(info.value)
    assert "\n" not in message
    assert session.lines == lines and session.journal.path.read_text() == journal
    kn = session.knowledge
    assert kn.board == board and kn.hands == hands and kn.worlds() == worlds
    # A contradiction that names no earlier entry ends with how to find one (the same for every game).
    return message.removesuffix(FIX_HINT)




@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        # a seat that does not exist is named as such, not as someone else's turn
        (SETUP, "eliminate 5 1 5C", "'eliminate 5 1 5C': there is no player 5 (seats 1 to 3)"),
        (SETUP, "assist 4 2 Clue at 1", "'assist 4 2 Clue at 1': there is no player 4 (seats 1 to 3)"),
        (SETUP, "assist 1 5 Clue at 1", "'assist 1 5 Clue at 1': there is no player 5 (seats 1 to 3)"),
        (AFTER_ELIMINATE, "draw 4 2D", "'draw 4 2D': there is no player 4 (seats 1 to 3)"),
        # turn order
        (SETUP, "eliminate 3 1 1T", f"'eliminate 3 1 1T': it is player 1's turn, not player 3's ({TURNS})"),
        (CONFIRMED, "pursue 2 Motive", f"'pursue 2 Motive': it is player 3's turn, not player 2's ({TURNS})"),
        # the draw and the Lead the table waits for come first
        (AFTER_ELIMINATE, "eliminate 2 1 4C", "'eliminate 2 1 4C': player 1 draws first ('draw 1 [CARD]')"),
        (SETUP, "draw 1 2D", "'draw 1 2D': nothing to reveal or draw now; it is player 1's turn"),
        (AFTER_ELIMINATE, "draw 1 5T", "'draw 1 5T' contradicts what you can see: 5T is in player 3's hand "
                                       "(position 2)"),
        ([*SETUP, "pursue 1 Motive"], "eliminate 2 1 4C", "'eliminate 2 1 4C': first reveal the next Motive Lead "
                                                          "('lead CARD')"),
        ([*SETUP, "pursue 1 Motive"], "lead 7C", "'lead 7C': that Lead is from the Opportunity pile; the next Motive "
                                                 "Lead is expected"),
        ([*SETUP, "pursue 1 Motive"], "lead 9W", "'lead 9W': Motive 9 Witness has already been revealed"),
        # Assist: another player, cards they hold, every card of that number or icon
        (SETUP, "assist 1 1 Clue at 1", "'assist 1 1 Clue at 1': you cannot Assist yourself"),
        (SETUP, "assist 1 3 Clue at 9", "'assist 1 3 Clue at 9': player 3 holds 4 cards"),
        (SETUP, "assist 1 3 Clue at 1", "'assist 1 3 Clue at 1' contradicts entry 6 'hand 3 1T 5T 2W 2C': player "
                                        "3's Clues are at 4; if entry 6 is wrong, fix it with 'edit 6 ...' or "
                                        "'drop 6'"),
        # Investigate a card the player holds; Confirm exactly; a confirmed Lead is closed
        (SETUP, "investigate 1 1 3C Motive", "'investigate 1 1 3C Motive' contradicts entry 5 'hand 1 5C 1W 3C 3D': "
                                             "player 1's card at position 1 is 5C; if entry 5 is wrong, fix it with "
                                             "'edit 5 ...' or 'drop 5'"),
        (SETUP, "confirm 1 Motive", "'confirm 1 Motive': the Motive Lead has 0 evidence of 9; Confirm needs exactly 9"),
        (CONFIRMED, "pursue 3 Opportunity", "'pursue 3 Opportunity': the Opportunity Lead is confirmed (a confirmed "
                                            "Lead takes no more Evidence and cannot be pursued)"),
        (CONFIRMED, "investigate 3 1 1T Opportunity", "'investigate 3 1 1T Opportunity': the Opportunity Lead is "
                                                      "confirmed (a confirmed Lead takes no more Evidence and cannot "
                                                      "be pursued)"),
        # the game's end
        ([*SETUP, "pursue 1 Motive", "lead 10C", "pursue 2 Motive", "lead 10W", "pursue 3 Motive"], "eliminate 1 1 5C",
         "'eliminate 1 1 5C': the game is over (lost: the last Motive Lead was discarded (pursued))"),
        # the setup is closed once play begins
        (SETUP, "case 3", "'case 3': the setup is complete and play has begun"),
    ],
)
def test_an_entry_against_the_rules_is_refused(tmp_path: Path, lines: list[str], line: str, message: str) -> None:
    assert refused(session_at(tmp_path, lines), line) == message
