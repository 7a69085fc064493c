"""What every companion session shares: rebuilding from its accepted lines (after Ctrl-C) and undo; the prompt
loop (setup completion, quitting), analyze of another game's file, and the --help output."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.beyond_baker_street.session import BeyondBakerStreetSession
from models.evidence.session import EvidenceSession
from models.thirteen_clues.session import JOURNAL_HEADER, ThirteenCluesSession
from models.time_bomb.session import TimeBombSession
from solver.errors import AssistantError
from solver.session import Journal
from tests.helpers import ROOT


@pytest.mark.parametrize("kind", [ThirteenCluesSession, BeyondBakerStreetSession, EvidenceSession, TimeBombSession])
def test_rebuilt_keeps_the_lines_and_the_journal(kind: type, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.txt", JOURNAL_HEADER)
    session = kind(journal=journal)
    session.handle("players 4", show=False)
    session.handle("me 2", show=False)
    session.rebuilt(list(session.lines))
    assert session.lines == ["players 4", "me 2"]
    assert session.journal is journal
    assert journal.path.read_text().splitlines()[1:] == ["players 4", "me 2"]
    reply = session.handle("undo", show=False)
    assert reply.summary == "undid 'me 2'"
    assert session.lines == ["players 4"] and session.journal is journal
    assert journal.path.read_text().splitlines()[1:] == ["players 4"]


# -- the companion loop: setup completion, quitting, analyze of another game's file, --help ---------------------

def test_setup_answer_completes_as_if_the_prefix_were_typed() -> None:
    from assistant_cli.companion import line_completions

    session = ThirteenCluesSession()
    session.replay(["players 4", "me 1"])
    question = session.setup_question()
    assert question is not None and question.prefix == "private"
    assert line_completions(session, question, "Du") == ["Duke"]
    assert line_completions(session, question, "Duke Sw") == ["Sword"]
    assert line_completions(session, question, "private Du") == ["Duke"]  # a whole entry still completes
    assert line_completions(session, question, "he") == []  # no command inside a setup answer
    assert line_completions(session, None, "Du") == []  # outside the dialogue 'Du' starts no command


def _drive(session: object, keys: str, tmp_path: Path, close: bool) -> str:
    """Run the interactive loop on a pipe (no terminal) and return what it printed."""
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from assistant_cli.companion import run_interactive

    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        if close:
            pipe.close()  # Ctrl-D: end of input
        run_interactive(session, Console(file=out, width=60), "T", "tc> ", "thirteen-clues",  # type: ignore[arg-type]
                        input=pipe, output=DummyOutput())
    return out.getvalue()


@pytest.mark.parametrize(("keys", "close"), [("players 4\nquit\n", False), ("players 4\n", True)])
def test_quit_and_ctrl_d_print_the_journal_and_the_resume_command(keys: str, close: bool, tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    session = ThirteenCluesSession(journal=Journal(path, JOURNAL_HEADER))
    printed = _drive(session, keys, tmp_path, close)
    assert session.lines == ["players 4"]
    assert printed.splitlines()[-1] == f"journal saved: {path}; resume with: assist thirteen-clues --resume {path}"


def test_unknown_entry_points_to_help() -> None:
    hint = r"\(type 'help' for the entries and commands\)$"
    for kind in (ThirteenCluesSession, BeyondBakerStreetSession, EvidenceSession, TimeBombSession):
        with pytest.raises(AssistantError, match=rf"^unknown entry 'frob'.*{hint}"):
            kind().handle("frob 3")


@pytest.mark.parametrize(("game", "example", "other"), [
    ("thirteen-clues", "time-bomb-5p", "time-bomb"),
    ("time-bomb", "evidence-4p", "evidence"),
    ("evidence", "beyond-baker-street-3p", "beyond-baker-street"),
    ("beyond-baker-street", "thirteen-clues-4p", "thirteen-clues"),
])
def test_analyze_of_another_games_file_names_that_game(game: str, example: str, other: str) -> None:
    from typer.testing import CliRunner

    from assistant_cli.main import app

    path = ROOT / "examples" / f"{example}.txt"
    result = CliRunner().invoke(app, [game, "analyze", str(path)])
    assert result.exit_code == 1
    article = "an" if other[0] in "aeiou" else "a"
    assert result.output.strip().replace("\n", " ") == (
        f"error: file '{path}' looks like {article} {other} game (try: assist {other} analyze {path})")


def test_a_journal_header_names_its_game(tmp_path: Path) -> None:
    from models import GAMES

    path = tmp_path / "x.journal"
    path.write_text(f"{GAMES['time-bomb'].header}\nplayers 5\n")  # 'players 5' fits every game: the header decides
    assert GAMES.file_game(path, "evidence") == "time-bomb"
    path.write_text("players 5\nme 2\n")
    assert GAMES.file_game(path, "evidence") == "evidence"


@pytest.mark.parametrize("args", [[], ["thirteen-clues"], ["time-bomb"], ["evidence", "analyze"],
                                  ["simulate", "evidence"]])
def test_help_shows_no_type_after_a_flag(args: list[str]) -> None:
    from typer.testing import CliRunner

    from assistant_cli.main import app

    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.output and "<bool>" not in result.output
    if args[:1] == ["thirteen-clues"]:
        assert "<file>" in result.output  # an option that takes a value keeps its type
