"""What every companion session shares: rebuilding from its accepted lines (after Ctrl-C) and undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant_cli.beyond_baker_street import BakerStreetSession
from assistant_cli.evidence import EvidenceSession
from assistant_cli.session import Journal, Session
from assistant_cli.time_bomb import TimeBombSession


@pytest.mark.parametrize("kind", [Session, BakerStreetSession, EvidenceSession, TimeBombSession])
def test_rebuilt_keeps_the_lines_and_the_journal(kind: type, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.txt")
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
