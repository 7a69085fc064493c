"""assist replay: game detection, simulated games, the CLI. The golden narrations of every game's shipped
examples (``golden/``) are checked for every registered game in ``tests/test_games.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from models import GAMES
from solver.errors import AssistantError
from solver.narrate import detect_game, replay_lines, run_replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.txt"))


def test_the_game_is_read_from_the_header_or_the_lines(tmp_path: Path) -> None:
    games = ("beyond-baker-street", "evidence", "thirteen-clues", "time-bomb")
    for example in EXAMPLES:  # each shipped example is named after its game
        assert detect_game(GAMES, example) == next(g for g in games if example.name.startswith(g))
    journal = tmp_path / "j.journal"
    journal.write_text("# assist evidence journal: one entry per line; resume with --resume FILE\nplayers 4\n")
    assert detect_game(GAMES, journal) == "evidence"
    unclear = tmp_path / "u.txt"
    unclear.write_text("players 4\nme 1\n")
    with pytest.raises(AssistantError, match="cannot tell which game"):
        detect_game(GAMES, unclear)


def test_a_simulated_game_shows_the_advisor_at_the_seat_own_choices() -> None:
    t, lines, actions, title = replay_lines(GAMES, "beyond-baker-street", None, 1, None)
    assert actions and "seen from seat 2" in title
    out: list[str] = []
    run_replay(t, lines, actions, title, out.append)
    text = "\n".join(out)
    assert "the advisor's choice too" in text  # the bots are advisors: they agree with the advisor
    assert "why" in text and "[stated]" in text


def test_replay_cli_piped_and_errors(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(ROOT / "examples" / "thirteen-clues-4p.txt"), "--pace", "0"])
    assert result.exit_code == 0, result.output
    assert "now certain: the Candlestick is in your mystery" in result.output
    assert "[counts add up]" in result.output
    bad = tmp_path / "bad.txt"
    bad.write_text("players 4\nme 1\nprivate Duke Sword\nscreen 2 Maid Parlor Gun\nscreen 3 Dancer Park Crossbow\n"
                   "screen 4 Sailor Market Knife\nask 9 Green 1\n")
    result = CliRunner().invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "entry 7 'ask 9 Green 1'" in result.output
    result = CliRunner().invoke(app, ["replay"])
    assert result.exit_code == 1 and "give a FILE, or --game GAME --seed N" in result.output
