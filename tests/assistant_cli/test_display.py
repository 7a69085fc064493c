"""Narrow screens, 'show brief' and wording: every shipped example drawn at 80 and 50 columns.

The checker compares a drawing at a narrow width with one at 200 columns: every number (``42%``, ``1,234``,
``3/4``, ``2..12``) and every colour/value pair (``pink 0.4``, ``blue x2``, ``1C 25.0%``) of the wide drawing
must appear whole in the narrow one, and no header or cell may be cut with '…'.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.render import Fit, Flow
from assistant_cli.terminal import to_rich
from models.beyond_baker_street.session import BeyondBakerStreetSession
from models.evidence.session import EvidenceSession
from models.evidence.views import players_table
from models.thirteen_clues import views as tc_views
from models.thirteen_clues.session import ThirteenCluesSession
from models.time_bomb.session import TimeBombSession
from solver import view as v
from solver.errors import AssistantError
from solver.knowledge import Count
from solver.session import BaseSession, read_lines
from solver.text import EXACT, percent, plural
from solver.view import BRIEF_LINES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES: dict[str, tuple[Callable[[], BaseSession], str]] = {
    "thirteen-clues": (ThirteenCluesSession, "thirteen-clues-4p.txt"),
    "beyond-baker-street": (BeyondBakerStreetSession, "beyond-baker-street-3p.txt"),
    "evidence": (EvidenceSession, "evidence-4p.txt"),
    "time-bomb": (TimeBombSession, "time-bomb-5p.txt"),
}
# The views each game draws besides 'show' (cheap ones: no sampling advisor).
EXTRA_VIEWS = {"thirteen-clues": ["locations", "advise"], "beyond-baker-street": ["empathy", "advise"],
               "evidence": [], "time-bomb": ["claims", "holdings 3", "advise"]}

COLOURS = "pink|red|blue|green|yellow|white|brown|defuse"
NUMBER = r"-?\d+(?:(?:\.\.|[./,])\d+)*%?"
ATOMS = re.compile(
    rf"(?<![\w./,-])(?:(?:{COLOURS})\*? (?:x\d+|{NUMBER})|\d[A-Z] {NUMBER}|{NUMBER} ± {NUMBER}|{NUMBER})(?![\w/])"
)


def draw(renderables: Sequence[RenderableType], width: int) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    for renderable in renderables:  # view data through the renderer; the renderer's own parts as they are
        console.print(to_rich(renderable) if isinstance(renderable, v.View) else renderable)
    return console.export_text()


def atoms(text: str) -> Counter[str]:
    return Counter(ATOMS.findall(text))


def broken(renderables: Sequence[RenderableType], width: int) -> list[str]:
    """What the drawing at ``width`` splits or cuts, compared with the drawing at 200 columns (empty: none)."""
    narrow = draw(renderables, width)
    problems = [f"cut: {line.strip()!r}" for line in narrow.splitlines() if "…" in line]
    problems += [f"longer than {width}: {line!r}" for line in narrow.splitlines() if len(line.rstrip()) > width]
    missing = atoms(draw(renderables, 200)) - atoms(narrow)
    problems += [f"split: {atom!r} x{n}" for atom, n in missing.items()]
    return problems


def replayed(game: str, upto: float = 1.0, count: int | None = None) -> BaseSession:
    """The session after the first ``upto`` share (or the first ``count``) of the example's entry lines."""
    make, name = EXAMPLES[game]
    session = make()
    lines = [line for _, line in read_lines(ROOT / "examples" / name)]
    for line in lines[: round(len(lines) * upto) if count is None else count]:
        session.handle(line, show=False)
    return session


def views(session: BaseSession, game: str) -> list[RenderableType]:
    out: list[RenderableType] = []
    for line in ["show", "show brief", *EXTRA_VIEWS[game]]:
        if line == "advise" and game == "beyond-baker-street" and session.knowledge.board.over:  # type: ignore[attr-defined]
            continue  # no advice once the game is over
        out += session.handle(line).renderables
    return out


@pytest.mark.parametrize("width", [80, 50])
@pytest.mark.parametrize("upto", [0.5, 0.85, 1.0])  # Time Bomb at 0.5 and 0.85: a cut is due (the risk table)
@pytest.mark.parametrize("game", list(EXAMPLES))
def test_no_number_or_pair_is_split_and_no_header_is_cut(game: str, upto: float, width: int) -> None:
    session = replayed(game, upto)
    assert broken(views(session, game), width) == []


def test_the_checker_catches_a_split_pair_and_a_cut_header() -> None:
    table = Table(title="Players")
    for header in ("Player", "P(Moriarty) soft", "Bombs expected (soft)", "Expected score"):
        table.add_column(header)
    table.add_row("2 (you, sherlock)", "42%", "pink 0.4\ngreen 0.3\nyellow 0.2", "12,345.00 ± 3.00")
    problems = broken([table], 50)
    assert any(p.startswith("cut:") for p in problems), problems
    assert "split: '12,345.00 ± 3.00' x1" in problems
    assert broken([Fit(table)], 50) == []  # the same table, drawn to fit
    assert broken([Text("Bombs: red 2 blue 1")], 17) == ["split: 'blue 1' x1"]  # "... blue" / "1"
    assert broken([Flow(["red 2", "blue 1"], lead="Bombs: ", sep=" ")], 17) == []


def test_fit_keeps_the_wide_table_when_it_fits_and_rows_as_blocks_when_not() -> None:
    table = Table(title="Risk")
    for header in ("Cut player", "Defusing soft", "hard"):
        table.add_column(header)
    table.add_row("1", "22%", "17%")
    assert "Cut player" in draw([Fit(table)], 80).splitlines()[2]  # the header row of the table
    wide = Table(title="Risk")
    for i in range(8):
        wide.add_column(f"Column {i}")
    wide.add_row(*(f"value {i}" for i in range(8)))
    narrow = draw([Fit(wide)], 50)
    assert narrow.splitlines()[1].startswith("Column 0 value 0: Column 1 value 1;")


def test_flow_breaks_only_between_atoms() -> None:
    flow = Flow(["pink 1/4 cut (1-5 in play)", "red 3/4 cut (5 in play) covered by yellow", "defusing cut 4/5"],
                lead="Board: ", end=".")
    assert draw([flow], 50).splitlines() == [
        "Board: pink 1/4 cut (1-5 in play);",
        "red 3/4 cut (5 in play) covered by yellow;",
        "defusing cut 4/5.",
    ]


@pytest.mark.parametrize("upto", [0.5, 1.0])
@pytest.mark.parametrize("game", list(EXAMPLES))
def test_show_brief_fits_one_screen(game: str, upto: float) -> None:
    session = replayed(game, upto)
    brief = draw(session.handle("show brief").renderables, 80).splitlines()
    full = draw(session.handle("show").renderables, 80).splitlines()
    assert 3 <= len(brief) <= BRIEF_LINES, brief
    assert len(brief) < len(full)


def test_show_brief_wording_per_game() -> None:
    tb = draw(replayed("time-bomb", 0.85).handle("show brief").renderables, 80)
    assert "P(Moriarty) with the claims: player 1 " in tb and "Next: " in tb
    assert "Cut by you, P(defusing) / P(explosion): player " in tb  # I hold the cutter: my role's play
    ev = draw(replayed("evidence").handle("show brief").renderables, 80)
    assert "  pink: 1 (50%), 4 (50%), mean 2.50, 0 search cards left" in ev
    assert "Expected scores: player 1 (you) 7.0 ± 3.3; 2 7.0 ± 5.2" in ev
    tc = draw(replayed("thirteen-clues").handle("show brief").renderables, 80)
    assert tc.splitlines() == ["Person: Officer 71.4%, Nurse 28.6%", "Location: Library 50.0%, Museum 50.0%",
                               "Weapon: Candlestick (certain)", "Consistent worlds: 504 (exact)"]
    with pytest.raises(AssistantError, match="expected 'show' or 'show brief'"):
        replayed("thirteen-clues").handle("show everything")
    assert ThirteenCluesSession().completions("show b") == ["brief"]


def test_evidence_rumours_in_hand_keep_values_and_counts_apart() -> None:
    session = replayed("evidence")
    assert isinstance(session, EvidenceSession) and session.knowledge is not None
    text = draw([players_table(session.knowledge)], 120)
    lines = text.splitlines()
    me = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1 (you)"))
    other = next(i for i, line in enumerate(lines) if line.lstrip().startswith("2 "))
    third = next(i for i, line in enumerate(lines) if line.lstrip().startswith("3 "))
    mine, theirs = "\n".join(lines[me:other]), "\n".join(lines[other:third])
    assert all(pair in mine for pair in ("yellow 3", "blue 0", "blue 3"))  # my rumours: their values
    assert all(pair in theirs for pair in ("white x1", "green x1", "brown x1"))  # theirs: how many per colour
    assert not re.search(r"(white|green|brown) \d", theirs)
    assert "yours with their values (blue 3); the others' as a count per colour (blue x2)" in text


def test_beyond_baker_street_board_reads_as_sentences() -> None:
    session = replayed("beyond-baker-street")
    text = draw(session.handle("show").renderables, 120)
    assert "Motive 9W: confirmed with 2W 4W 3W; 2 Leads below it" in text
    assert "Investigation track 20 of 20; Holmes track 4 (lost at 0); deck 0 cards" in text
    assert "Impossible: 6 cards, 2 over the Case File's limit of 4; eliminated 5C 4C 1T 1W 4T 5W" in text
    early = draw(replayed("beyond-baker-street", count=10).handle("show").renderables, 120)
    assert "Impossible: 1 card of the 4 the Case File allows; eliminated 5C" in early
    assert "Opportunity 7D: 0 of 7, no evidence yet; 2 Leads below it" in early


def test_beyond_baker_street_seat_case_and_empathy_messages() -> None:
    session = replayed("beyond-baker-street", 0.3)
    before = list(session.lines)
    with pytest.raises(AssistantError, match=r"^'eliminate 5 1 3C': there is no player 5 \(seats 1 to 3\)$"):
        session.handle("eliminate 5 1 3C")
    with pytest.raises(AssistantError, match=r"^empathy 9: expected 'empathy \[SEAT\]' with SEAT 1 or 3 "):
        session.handle("empathy 9")
    assert session.lines == before
    fresh = BeyondBakerStreetSession()
    fresh.handle("players 3")
    for line in ("case 0", "case 7"):
        with pytest.raises(AssistantError, match=rf"^{line}: expected a Case File 1 to 6$"):
            fresh.handle(line)


def test_plural() -> None:
    assert [plural(n, "entry") for n in (0, 1, 2)] == ["0 entries", "1 entry", "2 entries"]
    assert plural(1, "defusing card") == "1 defusing card" and plural(3, "defusing card") == "3 defusing cards"
    assert plural(2, "day") == "2 days" and plural(2, "mystery", "mysteries") == "2 mysteries"
    assert plural(2, "monkey") == "2 monkeys" and plural(2, "y") == "2 ys"


def test_a_percentage_never_rounds_a_possibility_away() -> None:
    """0% and 100% only for the impossible and the certain (within float noise); near them, <1% and >99%."""
    values = [0.0, 1e-13, EXACT, 1e-9, 0.005, 0.0099, 0.01, 0.2149, 0.5, 0.99, 0.995, 1 - 1e-9, 1 - EXACT,
              1 - 1e-13, 1.0]
    assert [percent(p) for p in values] == ["0%", "0%", "0%", "<1%", "<1%", "<1%", "1%", "21%", "50%", "99%", ">99%",
                                            ">99%", "100%", "100%", "100%"]


def test_time_bomb_claim_advice_says_one_defusing_card() -> None:
    session = replayed("time-bomb", 0.85)
    text = draw(session.handle("why claim 5").renderables, 200)
    assert "player 5 said 1 defusing card of 5 in round 1" in text
    text = draw(session.handle("why claim 2").renderables, 200)
    assert "said 0 defusing cards of 5" in text


def test_thirteen_clues_exact_column_is_whole_or_absent_and_help_shows_advise_options() -> None:
    count = Count(30, {}, True)
    mystery = {"person": {"Duke": 1 / 3, "Nurse": 2 / 3}, "location": {"Park": 0.123456789, "Museum": 0.876543211},
               "weapon": {"Rifle": 1.0}}
    lines = draw([tc_views.state_view(mystery, count, (), None)], 200).splitlines()
    assert lines[0].split() == ["Person", "(2)", "Location", "(2)", "Weapon", "(1)"]
    assert lines[1].split() == ["Card", "P", "exact", "Card", "P", "Card", "P"]  # Location: no column at all
    assert lines[3].split()[:3] == ["Nurse", "66.7%", "2/3"] and lines[4].split()[:3] == ["Duke", "33.3%", "1/3"]
    assert "(an 'exact' fraction column is shown where every denominator is at most 1000)" in lines
    small = {"person": {"Duke": 1 / 3, "Nurse": 2 / 3}, "location": {"Park": 0.5, "Museum": 0.5}}
    assert "fraction column" not in draw([tc_views.state_view(small, count, (), None)], 200)
    help_text = draw(replayed("thirteen-clues").handle("help").renderables, 200)
    assert "advise [all] [glasses N]" in help_text and "show / show brief" in help_text


@pytest.mark.parametrize(("game", "syntax"), [("beyond-baker-street", "empathy [SEAT]"),
                                              ("evidence", "advise [all] [extra] [greedy] [samples N]"),
                                              ("time-bomb", "show / show brief")])
def test_help_shows_optional_arguments_in_brackets(game: str, syntax: str) -> None:
    make, _ = EXAMPLES[game]
    assert syntax in draw(make().handle("help").renderables, 200)


def test_resuming_one_entry_says_one_entry(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    first = CliRunner().invoke(app, ["thirteen-clues", "--journal", str(journal)], input="players 4\n")
    assert first.exit_code == 0, first.output
    second = CliRunner().invoke(app, ["thirteen-clues", "--resume", str(journal), "-q"], input="")
    assert "resumed 1 entry from" in second.output, second.output


def test_counts_of_one_read_in_the_singular() -> None:
    session = replayed("beyond-baker-street", count=10)
    assert "Impossible: 1 card of the 4 the Case File allows; eliminated 5C" in draw(
        session.handle("show").renderables, 200)
    with pytest.raises(AssistantError, match=r"^why: position 5, but you hold 4 cards$"):
        session.handle("why 5")
