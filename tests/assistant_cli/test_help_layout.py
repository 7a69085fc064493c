"""'help' on a narrow and a wide terminal: no command, example or word is ever split over two lines.

At 100 columns the help is a table whose cells break only between commands and between the words of a note;
at 50 (a phone) each row reflows, its commands on their own lines above the example."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from assistant_cli.render import cell_atoms, pack
from assistant_cli.terminal import to_rich
from models.beyond_baker_street.session import BeyondBakerStreetSession
from models.evidence.session import EvidenceSession
from models.thirteen_clues.session import ThirteenCluesSession
from models.time_bomb.session import TimeBombSession
from solver import view as v
from solver.session import BaseSession

SESSIONS: dict[str, type[BaseSession]] = {
    "thirteen-clues": ThirteenCluesSession,
    "beyond-baker-street": BeyondBakerStreetSession,
    "evidence": EvidenceSession,
    "time-bomb": TimeBombSession,
}


def draw(views: list[v.View], width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    for view in views:
        console.print(to_rich(view))
    return [line.rstrip() for line in console.export_text().splitlines()]


def help_table(views: list[v.View]) -> v.Table:
    group = views[0]
    assert isinstance(group, v.Group)
    tables = [i for i in group.items if isinstance(i, v.Table)]
    assert len(tables) == 1
    return tables[0]


def whole(text: str, lines: list[str]) -> bool:
    """Whether ``text`` stands on one of ``lines``, not glued to other letters."""
    pattern = re.compile(rf"(?<!\S){re.escape(text)}(?!\S)")
    return any(pattern.search(line) for line in lines)


@pytest.mark.parametrize("width", [50, 100])
@pytest.mark.parametrize("game", list(SESSIONS))
def test_every_command_example_and_word_of_help_is_whole_on_one_line(game: str, width: int) -> None:
    views = SESSIONS[game]().handle("help").renderables
    lines = draw(views, width)
    assert [line for line in lines if len(line) > width] == []
    table = help_table(views)
    commands = [p.text for row in table.rows for cell in row for p in cell.parts if p.kind == "command"]
    assert len(commands) > 30  # every syntax form and every example line
    assert [c for c in commands if not whole(c, lines)] == []
    words = [w for row in table.rows for cell in row for w in cell.text.split()]
    assert [w for w in words if not whole(w, lines)] == []
    assert not any("…" in line for line in lines)


def test_time_bomb_help_reflows_at_50_columns_with_each_why_form_whole() -> None:
    lines = draw(TimeBombSession().handle("help").renderables, 50)
    start = lines.index("Session")
    assert lines[start:start + 12] == [
        "Session",
        "  show / show brief",
        "    every table / one screen of the essentials",
        "  claims / holdings SEAT",
        "    every claim judged; full distributions",
        "  advise",
        "    your decision: cut, cover, uncover, and what",
        "    to claim",
        "  why role SEAT / why claim N /",
        "  why inplay COLOUR K [steps] /",
        "  why holds SEAT CARD K / why cut SEAT",
        "    why role 3   why claim 2",
    ]


def test_thirteen_clues_help_is_a_table_at_100_columns() -> None:
    lines = draw(ThirteenCluesSession().handle("help").renderables, 100)
    assert lines[1].split() == ["Syntax", "Example"]
    pad = " " * 67  # where the Example column starts
    row = lines.index(" " * 15 + "why CARD [PLACE] [steps]" + " " * 28 + "why Sword   why Duke 3")
    assert lines[row + 1] == pad + "why Duke A steps"
    session = "Session" + " " * 8 + "show / show brief" + " " * 35 + "the state at a glance / one line"
    assert lines[row - 2:row] == [session, pad + "per category"]

def test_pack_breaks_only_between_atoms_and_keeps_the_slash() -> None:
    atoms = cell_atoms("show / show brief  (one screen of it)", ["show", "show brief"])
    assert atoms == [("", "show"), (" / ", "show brief"), ("  ", "(one"), (" ", "screen"), (" ", "of"),
                     (" ", "it)")]
    assert pack(atoms, 12, "  ", "  ") == ["  show /", "  show brief", "  (one", "  screen of", "  it)"]


@pytest.mark.parametrize("game", list(SESSIONS))
def test_quoted_cards_in_the_help_notes_are_never_split(game: str) -> None:
    """A note under the table (Beyond Baker Street's "or '3 Witness'") keeps each quoted phrase on one line at
    every width from 40 to 100 columns, and loses no word."""
    views = SESSIONS[game]().handle("help").renderables
    notes = [i.text for i in views[0].items if isinstance(i, v.Text)]  # type: ignore[attr-defined]
    quoted = [q for note in notes for q in re.findall(r"(?<![\w'])'[^']*\s[^']*'", note)]
    if game == "beyond-baker-street":
        assert quoted == ["'3 Witness'"]
    for width in range(40, 101):
        lines = draw(views, width)
        assert [q for q in quoted if not any(q in line for line in lines)] == [], width
        assert [line for line in lines if len(line) > width] == [], width
        text = " ".join(" ".join(lines).split())
        assert all(" ".join(note.split()) in text for note in notes), width


def test_prose_keeps_a_quoted_phrase_whole_and_plain_text_as_rich_wraps_it() -> None:
    from assistant_cli.render import prose

    def lines(text: str, width: int) -> list[str]:
        console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
        console.print(prose(text))
        return [line.rstrip() for line in console.export_text().splitlines()]

    assert lines("type it as '3 Witness' or 3W", 16) == ["type it as", "'3 Witness' or", "3W"]
    assert lines("  the player's 'cut 2' line", 14) == ["  the player's", "  'cut 2' line"]
    assert lines("a b 'c d'.\n\nnext", 40) == ["a b 'c d'.", "", "next"]
    assert lines("no quote here at all", 8) == ["no quote", "here at", "all"]
