"""``assist simulate thirteen-clues`` through Typer's CliRunner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from assistant_cli.main import app

runner = CliRunner()


def run(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "thirteen-clues", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_summary_has_a_row_per_seat_and_per_bot() -> None:
    data = run("--games", "6", "--players", "3", "--bots", "random,logic,random", "--seed", "4")
    assert data["games"] == 6 and data["players"] == 3 and data["bots"] == ["random", "logic", "random"]
    assert [row["seats"] for row in data["seats"]] == [[1], [2], [3]]
    assert [row["bot"] for row in data["by_bot"]] == ["random", "logic"]
    wins = sum(row["wins"] for row in data["seats"])
    assert wins + data["draws"] == 6
    logic = data["seats"][1]
    assert logic["total"]["wrong_accusations"] == 0  # the logic bot only accuses when certain
    assert logic["mean"]["questions"] > 0
    random_row = data["by_bot"][0]
    assert random_row["seats"] == [1, 3] and random_row["games"] == 6


def test_results_do_not_depend_on_the_worker_count() -> None:
    args = ("--games", "4", "--players", "3", "--bots", "logic,random,random", "--seed", "9")
    assert run(*args, "--workers", "1") == run(*args, "--workers", "2")


def test_the_seed_changes_the_games() -> None:
    args = ("--games", "8", "--players", "2", "--bots", "random")
    first = run(*args, "--seed", "1")
    assert first == run(*args, "--seed", "1")
    assert first != run(*args, "--seed", "2")


def test_table_output_and_two_player_games() -> None:
    args = ["simulate", "thirteen-clues", "--games", "3", "--players", "2", "--bots", "logic,random"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "by seat" in result.stdout and "logic" in result.stdout and "games/s" in result.stdout


def test_replay_prints_the_game_log() -> None:
    result = runner.invoke(app, ["simulate", "thirteen-clues", "--players", "3", "--bots", "random", "--replay", "77"])
    assert result.exit_code == 0, result.output
    assert "Game seed 77" in result.stdout and "turn 1: player" in result.stdout
    assert "Result:" in result.stdout


def test_user_errors_are_one_line_without_traceback() -> None:
    cases = [
        (["--players", "3", "--bots", "logic,random"], "expected one name or 3 comma-separated names"),
        (["--bots", "clever"], "unknown bot 'clever'"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["simulate", "thirteen-clues", "--games", "1", *args])
        assert result.exit_code == 1, result.output
        assert message in result.output
        assert "Traceback" not in result.output
    # An option out of its range is refused by Typer itself, which names the bound (exit code 2: a usage error).
    result = runner.invoke(app, ["simulate", "thirteen-clues", "--games", "1", "--players", "8"])
    assert result.exit_code == 2 and "less than or equal to 6" in result.output, result.output
