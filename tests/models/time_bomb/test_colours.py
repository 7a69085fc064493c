"""Time Bomb: the bomb colours in play are chosen at setup (issue 19 §6, RULES-NOTES): by default the rulebook's
example (the first N of pink, red, blue, green, yellow, orange), else 'colours ...', journalled like any setup
entry, and ``--colours`` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from models.time_bomb.session import TimeBombSession
from solver.errors import AssistantError

SETUP = ["players 5", "me 2", "role sherlock", "start 1"]


def test_the_default_is_the_rulebook_example() -> None:
    session = TimeBombSession()
    session.replay([*SETUP, "hand defuse red red blue green"])
    assert session.knowledge is not None
    assert session.knowledge.setup.colours == ("pink", "red", "blue", "green", "yellow")
    assert list(session.summary()["in_play"]) == ["pink", "red", "blue", "green", "yellow"]  # type: ignore


def test_chosen_colours_are_the_ones_in_play() -> None:
    session = TimeBombSession()
    session.replay(["colours pink red blue green orange", *SETUP, "hand defuse red orange orange blue"])
    kn = session.knowledge
    assert kn is not None
    assert kn.setup.colours == ("pink", "red", "blue", "green", "orange")
    assert kn.setup.thresholds == {"pink": 4, "red": 4, "blue": 4, "green": 3, "orange": 4}
    assert list(kn.in_play()) == ["pink", "red", "blue", "green", "orange"]
    assert session.lines[0] == "colours pink red blue green orange"
    piles = [item.title for item in session.state()[0].items if hasattr(item, "limit")]  # type: ignore[attr-defined]
    assert piles == ["pink", "red", "blue", "green", "orange", "defusing"]
    with pytest.raises(AssistantError, match="^'cut 1 yellow': "):
        session.handle("cut 1 yellow")


@pytest.mark.parametrize(("lines", "message"), [
    (["colours pink pink red blue green"], "colours pink pink red blue green: pink named twice; expected each "
                                           "colour once"),
    (["players 5", "colours pink red blue green"], "colours pink red blue green: 4 colours, but 5 players play "
                                                   "with 5"),
    (["colours pink red blue green"] + ["players 5"], "colours pink red blue green: 4 colours, but 5 players play "
                                                      "with 5"),
    (["hand defuse red red blue yellow", "colours pink red blue green orange"],
     "colours pink red blue green orange: your hand holds yellow, not among them"),
    (["colours"], "colours: expected the bomb colours in play, e.g. 'colours pink red blue green yellow'"),
])
def test_bad_colours_are_one_line_and_change_nothing(lines: list[str], message: str) -> None:
    session = TimeBombSession()
    session.replay(lines[:-1])
    before = list(session.lines)
    with pytest.raises(AssistantError) as caught:
        session.handle(lines[-1])
    assert str(caught.value).endswith(message)
    assert session.lines == before


def test_colours_cannot_change_once_the_game_started() -> None:
    session = TimeBombSession()
    session.replay([*SETUP, "hand defuse red red blue green"])
    with pytest.raises(AssistantError, match="the game has started; undo back to the setup to change it"):
        session.handle("colours pink red blue green orange")
    assert session.completions("colours pink r") == []  # no longer a legal entry: not offered


def test_the_command_line_option_is_journalled(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    result = CliRunner().invoke(app, ["time-bomb", "--colours", "pink,red,blue,green,orange", "--journal",
                                      str(journal)], input="\n".join([*SETUP, "hand defuse red orange orange blue"]))
    assert result.exit_code == 0, result.output
    assert journal.read_text().splitlines()[1:3] == ["colours pink red blue green orange", "players 5"]
    bad = CliRunner().invoke(app, ["time-bomb", "--colours", "pink,pink"], input="")
    assert bad.exit_code == 1 and bad.output.strip() == "error: colours pink pink: pink named twice; expected each " \
                                                        "colour once"
