"""The shared companion runner: rebuilding any game's session after an interrupt keeps every accepted line."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant_cli.beyond_baker_street import BakerStreetSession
from assistant_cli.companion import rebuild
from assistant_cli.evidence import EvidenceSession
from assistant_cli.session import Journal, Session
from assistant_cli.time_bomb import TimeBombSession


@pytest.mark.parametrize("kind", [Session, BakerStreetSession, EvidenceSession, TimeBombSession])
def test_rebuild_keeps_the_lines_and_the_journal(kind: type, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.txt")
    old = kind(journal=journal)
    old.handle("players 4", show=False)
    fresh = rebuild(old)
    assert type(fresh) is kind
    assert fresh is not old
    assert fresh.lines == old.lines == ["players 4"]
    assert fresh.journal is journal
    assert journal.path.read_text().splitlines()[-1] == "players 4"
