"""Hostile input, in every game: the classes of bug the hostile runs found, one direct test each, and the CLI's
bounds. The random and mutated lines themselves run for every registered game in ``tests/test_games.py``
(``test_hostile_lines_never_crash_or_corrupt``): any error is a one-line :class:`AssistantError`, a rejected
line leaves the state, the lines and the journal's bytes as they were, the journal replays to the same state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from models.beyond_baker_street.session import JOURNAL_HEADER as BBS_HEADER
from models.beyond_baker_street.session import BeyondBakerStreetSession
from models.evidence.session import JOURNAL_HEADER as EVIDENCE_HEADER
from models.evidence.session import EvidenceSession
from models.thirteen_clues.session import JOURNAL_HEADER as TC_HEADER
from models.thirteen_clues.session import ThirteenCluesSession
from models.time_bomb.session import JOURNAL_HEADER as TB_HEADER
from models.time_bomb.session import TimeBombSession
from solver.errors import AssistantError
from solver.session import Journal, read_lines

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GAMES: dict[str, tuple[Callable[[], Any], str, str]] = {
    "thirteen-clues": (ThirteenCluesSession, "thirteen-clues-4p.txt", TC_HEADER),
    "time-bomb": (TimeBombSession, "time-bomb-5p.txt", TB_HEADER),
    "evidence": (EvidenceSession, "evidence-4p.txt", EVIDENCE_HEADER),
    "beyond-baker-street": (BeyondBakerStreetSession, "beyond-baker-street-3p.txt", BBS_HEADER),
}
def example_lines(name: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for _, line in read_lines(EXAMPLES / GAMES[name][1])]


def fingerprint(session: Any) -> tuple[Any, ...]:
    """What must not change when a line is rejected: the state as data, the lines, the journal file."""
    try:
        state = json.dumps(session.summary(), sort_keys=True, default=str)
    except AssistantError:  # the setup is not complete: the lines say it all
        state = None
    journal = session.journal.path.read_bytes() if session.journal is not None else b""
    return state, tuple(session.lines), journal


def read_journal(path: Path) -> list[str]:
    return [line for _, line in read_lines(path)]


# -- the classes of bug the hostile runs found, one direct test each -------------------------------------------


def _midgame(name: str, tmp: Path) -> tuple[Any, str]:
    """A session with the example's lines but the last, journaled; and that last line."""
    factory, _, header = GAMES[name]
    lines = example_lines(name)
    session = factory()
    session.replay(lines[:-1])
    session.journal = Journal(tmp / "game.journal", header)
    session.journal.save(session.lines)
    return session, lines[-1]


def _fail(*args: object, **kwargs: object) -> Any:
    raise AssistantError("the view failed")


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("broken", ["view", "journal"])
def test_an_entry_whose_view_or_journal_fails_is_not_recorded(
    name: str, broken: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, line = _midgame(name, tmp_path)
    before = fingerprint(session)
    if broken == "view":  # where each game draws an entry's reply (Time Bomb: one screen, _entry_view)
        methods = {"thirteen-clues": ["_state_reply"], "time-bomb": ["_entry_view"]}.get(name, ["state_view"])
        for method in methods:
            monkeypatch.setattr(session, method, _fail)
    else:
        monkeypatch.setattr(session.journal, "save", _fail)
    with pytest.raises(AssistantError, match="the view failed"):
        session.handle(line)
    assert fingerprint(session) == before
    monkeypatch.undo()
    session.handle(line)  # the same line, once nothing fails, is accepted as usual
    assert len(session.lines) == len(before[1]) + 1
    assert read_journal(session.journal.path) == session.lines


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("evidence", "advise samples 100000000", "advise samples 100000000: expected a whole number from 1 to 1000"),
        ("evidence", "advise samples ²", "advise samples '²': expected a whole number from 1 to 1000"),
        ("thirteen-clues", "advise glasses 100000000", "advise glasses 100000000: expected a whole number from 1 to 4"),
        ("thirteen-clues", "why Duke ²", "unknown place '²'"),
        ("thirteen-clues", "why Duke 9", "why: seat 9: expected a whole number from 1 to 4"),
        ("time-bomb", "why claim 99999999999999", "why claim: claim number '99999999999999'"),
        ("time-bomb", "bluff nan 0.5", "bluff: Sherlock's rate 'nan': expected a number from 0 to 1"),
        ("beyond-baker-street", "why ²", "why: position '²': expected a whole number from 1 to 6"),
        ("beyond-baker-street", "empathy ²", "with SEAT 1 or 3 (another player)"),
    ],
)
def test_session_command_numbers_are_bounded_and_named(name: str, line: str, message: str, tmp_path: Path) -> None:
    session, _ = _midgame(name, tmp_path)
    before = fingerprint(session)
    with pytest.raises(AssistantError) as info:
        session.handle(line)
    assert message in str(info.value)
    assert fingerprint(session) == before


def test_piped_lines_that_are_not_utf8_are_reported_and_skipped() -> None:
    """A strict locale used to raise UnicodeDecodeError out of ``for line in sys.stdin``."""
    data = b"players 5\n\xff\xfe bad\nme 2\nclaim \xc2\xb2 1\nrole sherlock\n"
    result = CliRunner().invoke(app, ["time-bomb", "--quiet"], input=data)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert errors == ["line 2: not valid UTF-8 (the line is ignored)",
                      "line 4: seat '²': expected a whole number from 1 to 5"]  # this table's range
    assert "still need start SEAT; hand" in result.stdout  # lines 3 and 5 were read: players, me, role set


def test_piped_utf8_decoding_does_not_depend_on_the_locale() -> None:
    """The same bytes under an ASCII locale (PYTHONIOENCODING=ascii): no traceback, escapes in the echo."""
    data = b"players 5\n\xff\nme \xc2\xb2\n"
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "assistant_cli", "time-bomb"], input=data, capture_output=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr
    assert b"line 2: not valid UTF-8" in done.stderr
    assert b"line 3: seat '\\xb2': expected a whole number from 1 to 5" in done.stderr


@pytest.mark.parametrize(
    ("args", "bound"),
    [
        (["simulate", "time-bomb", "--games", "100000000"], "less than or equal to 100000"),
        (["simulate", "evidence", "--workers", "1000"], "less than or equal to 64"),
        (["simulate", "beyond-baker-street", "--case", "7"], "less than or equal to 6"),
        (["simulate", "thirteen-clues", "--max-rounds", "100000000"], "less than or equal to 1000"),
        (["simulate", "thirteen-clues", "--glasses", "100000000"], "less than or equal to 12"),
        (["demo", "--steps", "100000000"], "less than or equal to 1000"),
        (["simulate", "time-bomb", "--seed", "-1"], "greater than or equal to 0"),
    ],
)
def test_numeric_options_are_bounded(args: list[str], bound: str) -> None:
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    assert bound in " ".join(result.output.replace("│", " ").split())  # the error box may wrap the line
