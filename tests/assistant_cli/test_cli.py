"""The ``assist`` command through Typer's CliRunner: piped input (never a TTY), analyze, resume, demo."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from assistant_cli.main import app, version
from models.thirteen_clues.session import JOURNAL_HEADER
from tests.models.thirteen_clues.helpers import EXAMPLE, ROOT, SETUP

runner = CliRunner()


def test_piped_example_game_prints_each_state_and_the_final_count() -> None:
    result = runner.invoke(app, ["thirteen-clues"], input=EXAMPLE.read_text())
    assert result.exit_code == 0, result.output
    assert "> ask 4 Green 1" in result.output
    assert "ruled out" in result.output
    assert result.output.rstrip().endswith("Consistent worlds: 504 (exact)")
    assert "Officer" in result.output and "5/7" in result.output


def test_piped_bad_lines_are_reported_with_their_number_and_the_session_goes_on() -> None:
    lines = [*SETUP, "ask 2 Knif 1", "ask 2 Red 1", "ask 2 Red 2", "ask 5 Red 1", "show"]
    result = runner.invoke(app, ["thirteen-clues", "--quiet"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "line 7: unknown suit or category 'Knif'" in result.output
    assert "line 9: 'ask 2 Red 2' contradicts entry 7 'ask 2 Red 1'; if entry 7 is wrong" in result.output
    assert "line 10: 'ask 5 Red 1': seat 5: expected 1 to 4" in result.output
    error_lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(error_lines) == 3  # exactly one line per bad input
    # 'ask 2 Red 1' (line 8) was still applied: Poison is gone, 21,772,800 worlds.
    assert "Consistent worlds: 21,772,800 (exact)" in result.stdout


def test_analyze_without_json_prints_the_rich_summary() -> None:
    result = runner.invoke(app, ["thirteen-clues", "analyze", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "Candlestick ✔" in result.output and "Consistent worlds: 504 (exact)" in result.output


def test_analyze_incomplete_setup_is_one_error_line(tmp_path) -> None:  # noqa: ANN001
    game = tmp_path / "short.txt"
    game.write_text("players 4\nme 1\n")
    result = runner.invoke(app, ["thirteen-clues", "analyze", str(game), "--json"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"error: {game}: setup incomplete, still need private CARD CARD, screen 2 PERSON LOCATION WEAPON, "
        "screen 3 PERSON LOCATION WEAPON, screen 4 PERSON LOCATION WEAPON"
    ]


def test_journal_then_resume_continues_the_same_game(tmp_path) -> None:  # noqa: ANN001
    journal = tmp_path / "game.journal"
    first = runner.invoke(app, ["thirteen-clues", "--journal", str(journal)], input="\n".join(SETUP) + "\n")
    assert first.exit_code == 0, first.output
    assert journal.read_text().splitlines() == [JOURNAL_HEADER, *SETUP]
    second = runner.invoke(app, ["thirteen-clues", "--resume", str(journal), "-q"], input="ask 2 Red 1\n")
    assert second.exit_code == 0, second.output
    assert f"resumed {len(SETUP)} entries" in second.output
    assert "Consistent worlds: 21,772,800 (exact)" in second.output
    # Resuming a journal keeps writing to it.
    assert journal.read_text().splitlines() == [JOURNAL_HEADER, *SETUP, "ask 2 Red 1"]


def test_resume_a_game_file_writes_a_new_journal(tmp_path) -> None:  # noqa: ANN001
    journal = tmp_path / "new.journal"
    original = EXAMPLE.read_text()
    result = runner.invoke(
        app, ["thirteen-clues", "--resume", str(EXAMPLE), "--journal", str(journal), "-q"], input="undo\n"
    )
    assert result.exit_code == 0, result.output
    assert EXAMPLE.read_text() == original
    lines = journal.read_text().splitlines()
    assert lines[0] == JOURNAL_HEADER and lines[-1] == "ask 4 Purple 2"


def test_demo_runs_and_checks_its_answer() -> None:
    result = runner.invoke(app, ["demo", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "seat 1> players 4" in result.output
    assert "seat 1> why " in result.output
    assert "cannot be in your mystery, because of:" in result.output
    assert "solved after" in result.output and ": correct" in result.output
    assert "the true mystery of seat 1 (from the deal): Countess, Theater, Sword" in result.output
    assert "Text(" not in result.output and "Table(" not in result.output  # drawn, not view data's repr


def test_demo_two_players() -> None:
    result = runner.invoke(app, ["demo", "--seed", "2", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert ": correct" in result.output


def test_games_and_version() -> None:
    games = runner.invoke(app, ["games"])
    assert games.exit_code == 0 and "thirteen-clues" in games.output
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"assist {version()}"
    assert version() == "0.1.0"


def test_python_dash_m_works() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant_cli", "thirteen-clues", "analyze", str(EXAMPLE), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["worlds"] == 504


def test_unwritable_journal_is_one_error_line(tmp_path) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["thirteen-clues", "--journal", str(tmp_path / "missing" / "x.journal")], input="")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.strip().startswith("error: journal ") and len(result.output.strip().splitlines()) == 1
