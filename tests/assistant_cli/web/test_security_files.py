"""The games folder is untrusted, and one program writes a journal (issue 20 §3, §4): FIFOs, devices, links,
loops, bad UTF-8 and huge files in the folder; the lock between the server and a terminal; exclusive and
failure-safe journal creation; writes that fail leave the old journal whole."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from assistant_cli.companion import default_journal
from assistant_cli.main import app as cli
from assistant_cli.web.app import HOLDER, create_app
from models import GAMES
from solver.errors import AssistantError
from solver.session import MAX_JOURNAL_BYTES, Journal, JournalBusy, read_lines, read_text

LOCAL = "http://127.0.0.1"
TC = GAMES["thirteen-clues"]
TC_SETUP = ["players 4", "me 1", "private Duke Sword", "screen 2 Maid Parlor Gun", "screen 3 Dancer Park Crossbow",
            "screen 4 Sailor Market Knife"]


def saved(folder: Path, lines: list[str] = TC_SETUP, name: str = "good") -> Path:
    path = folder / f"{name}.journal"
    Journal(path, TC.header).save(lines)
    return path


def hostile_folder(folder: Path) -> None:
    """A games folder with one good journal and every kind of hostile file named like a journal."""
    saved(folder)
    os.mkfifo(folder / "fifo.journal")
    (folder / "zero.journal").symlink_to("/dev/zero")
    (folder / "out.journal").symlink_to(saved(folder.parent, name="elsewhere"))
    (folder / "loop1.journal").symlink_to(folder / "loop2.journal")
    (folder / "loop2.journal").symlink_to(folder / "loop1.journal")
    (folder / "dir.journal").mkdir()
    (folder / "badutf8.journal").write_bytes((TC.header + "\n").encode() + b"players 4\n" * 900 + b"me \xff\xfe\n")
    big = (TC.header + "\n").encode() + b"players 4\n" * (MAX_JOURNAL_BYTES // 10 + 1)
    (folder / "big.journal").write_bytes(big)
    (folder / "hugeline.journal").write_bytes((TC.header + "\n").encode() + b"x" * (MAX_JOURNAL_BYTES + 10))


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    hostile_folder(folder)
    return folder


def test_the_home_page_lists_the_good_journal_and_says_what_each_hostile_file_is(hostile: Path) -> None:
    client = TestClient(create_app(hostile), base_url=LOCAL)
    start = time.perf_counter()
    response = client.get("/")
    assert response.status_code == 200 and time.perf_counter() - start < 5  # a FIFO is never waited on
    page = response.text
    assert 'data-game-id="good"' in page
    for name in ["fifo", "zero", "out", "loop1", "loop2", "dir"]:
        assert f'data-unreadable="{name}"' in page and f'data-game-id="{name}"' not in page
    assert page.count("cannot be opened: not a regular file (only regular files are read)") == 2  # fifo, dir
    assert page.count("cannot be opened: is a symbolic link (only regular files are read)") == 4
    assert 'data-game-id="badutf8"' in page  # its header is fine: listed; opening it says what is wrong
    for name in ["big", "hugeline"]:
        size = (hostile / f"{name}.journal").stat().st_size
        assert f"{size:,} bytes, over the limit of {MAX_JOURNAL_BYTES:,}" in page


@pytest.mark.parametrize(("name", "reason"), [
    ("fifo", "not a regular file (only regular files are read)"),
    ("zero", "is a symbolic link (only regular files are read)"),
    ("out", "is a symbolic link (only regular files are read)"),
    ("loop1", "is a symbolic link (only regular files are read)"),
    ("dir", "not a regular file (only regular files are read)"),
    ("badutf8", f"not valid UTF-8 (byte {len(TC.header) + 1 + 9000 + len('me ') + 1:,})"),
])
def test_opening_a_hostile_file_is_refused_in_one_line(hostile: Path, name: str, reason: str) -> None:
    client = TestClient(create_app(hostile), base_url=LOCAL)
    response = client.get(f"/g/{name}")
    assert response.status_code == 409
    assert response.text == f"cannot open '{name}': {reason}"
    assert client.get("/g/good").status_code == 200  # the other games stay open to play


def test_a_journal_over_the_limit_is_refused_unread(hostile: Path) -> None:
    client = TestClient(create_app(hostile), base_url=LOCAL)
    for name in ["big", "hugeline"]:
        size = (hostile / f"{name}.journal").stat().st_size
        response = client.get(f"/g/{name}")
        assert response.status_code == 409
        assert response.text == f"cannot open '{name}': {size:,} bytes, over the limit of {MAX_JOURNAL_BYTES:,}"
        assert len(response.text) < 200  # never the journal's text echoed


def test_read_text_refuses_what_is_not_a_small_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f")
    with pytest.raises(AssistantError, match="not a regular file"):
        read_text(tmp_path / "f")
    (tmp_path / "l").symlink_to(tmp_path / "f")
    with pytest.raises(AssistantError, match="is a symbolic link"):
        read_text(tmp_path / "l")
    (tmp_path / "s").write_text("abc")
    assert read_text(tmp_path / "s") == "abc"
    with pytest.raises(AssistantError, match=r"3 bytes, over the limit of 2$"):
        read_text(tmp_path / "s", limit=2)
    assert read_lines(tmp_path / "s", limit=3) == [(1, "abc")]


# -- one writer per journal -------------------------------------------------------------------------------------------

def test_a_journal_a_terminal_holds_is_refused_by_the_server_naming_it(tmp_path: Path) -> None:
    path = saved(tmp_path)
    terminal = Journal(path, TC.header)
    terminal.lock("assist thirteen-clues")
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    response = client.get("/g/good")
    assert response.status_code == 409
    assert response.text == (f"cannot open 'good': journal '{path}' is open in another program (assist "
                             f"thirteen-clues (process {os.getpid()}) since {time.strftime('%H:%M')}"
                             + response.text.split(time.strftime('%H:%M'), 1)[1])
    assert "close it there first" in response.text
    terminal.unlock()
    assert client.get("/g/good").status_code == 200  # once the terminal is done, the page opens it


def test_a_journal_the_server_holds_is_refused_by_the_terminal(tmp_path: Path) -> None:
    path = saved(tmp_path)
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    assert client.get("/g/good").status_code == 200  # open in the server: locked
    before = path.read_bytes()
    result = CliRunner().invoke(cli, ["thirteen-clues", "--resume", str(path)], input="ask 4 Green 1\n")
    assert result.exit_code == 1
    assert f"journal '{path}' is open in another program ({HOLDER} (process {os.getpid()})" in result.output
    assert path.read_bytes() == before
    with pytest.raises(JournalBusy):
        Journal(path, TC.header).lock("another terminal")


def test_two_terminals_on_one_journal(tmp_path: Path) -> None:
    path = saved(tmp_path)
    first = Journal(path, TC.header)
    first.lock("assist thirteen-clues")
    result = CliRunner().invoke(cli, ["thirteen-clues", "--journal", str(path), "--resume", str(path)],
                                input="ask 4 Green 1\n")
    assert result.exit_code == 1 and "is open in another program (assist thirteen-clues" in result.output
    first.unlock()
    result = CliRunner().invoke(cli, ["thirteen-clues", "--resume", str(path)], input="ask 4 Green 1\n")
    assert result.exit_code == 0, result.output
    assert [line for _, line in read_lines(path)] == [*TC_SETUP, "ask 4 Green 1"]


def test_journal_refuses_a_file_that_is_not_this_games_journal_and_leaves_it(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my shopping list\n")
    result = CliRunner().invoke(cli, ["thirteen-clues", "--journal", str(notes)], input="players 4\n")
    assert result.exit_code == 1
    assert "not a thirteen-clues journal" in result.output and "left untouched" in result.output
    assert notes.read_text() == "my shopping list\n"
    other = tmp_path / "ev.journal"
    Journal(other, GAMES["evidence"].header).save(["players 4"])
    before = other.read_bytes()
    result = CliRunner().invoke(cli, ["thirteen-clues", "--journal", str(other)], input="players 4\n")
    assert result.exit_code == 1 and other.read_bytes() == before
    game = saved(tmp_path)
    before = game.read_bytes()
    result = CliRunner().invoke(cli, ["thirteen-clues", "--journal", str(game)], input="players 5\n")
    assert result.exit_code == 1 and "already holds a thirteen-clues game" in result.output
    assert game.read_bytes() == before


def test_default_journal_names_never_collide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    names = iter(["aaaaaa", "aaaaaa", "bbbbbb"])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(names))
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: "20260101-120000")
    first = default_journal("evidence", "# h", tmp_path)
    first.save(["players 4"])
    second = default_journal("evidence", "# h", tmp_path)  # the same second, the same random part at first
    assert first.path.name == "evidence-20260101-120000-aaaaaa.journal"
    assert second.path.name == "evidence-20260101-120000-bbbbbb.journal"
    assert first.path.read_text() == "# h\nplayers 4\n"


def test_a_failed_create_leaves_no_empty_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    response = client.post("/new", data={"game": "evidence"})
    assert response.status_code == 507
    assert response.text.endswith("cannot write it (No space left on device)")
    assert list(tmp_path.iterdir()) == []  # neither a journal nor a temp file


@pytest.mark.parametrize("broken", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_journal_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     broken: str) -> None:
    path = saved(tmp_path)
    before = path.read_bytes()

    def fails(*args: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, broken, fails)
    with pytest.raises(AssistantError, match=r"cannot write it \(Input/output error\)$"):
        Journal(path, TC.header).save([*TC_SETUP, "ask 4 Green 1"])
    assert path.read_bytes() == before and Journal(path, TC.header).temp_files() == []


def test_a_failed_write_on_the_page_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = saved(tmp_path)
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    live = client.get("/g/good/panel").text
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    page = client.post("/g/good/line", data={"line": "ask 4 Green 1"}).text
    assert "cannot write it (No space left on device)" in page
    monkeypatch.undo()
    assert client.get("/g/good/panel").text == live
    assert [line for _, line in read_lines(path)] == TC_SETUP


def test_leftover_temp_files_are_cleaned_on_start_unless_their_journal_is_held(tmp_path: Path) -> None:
    saved(tmp_path)
    held = saved(tmp_path, name="held")
    (tmp_path / ".good.journal.k1ll3d.tmp").write_text("half a journal")
    holder = Journal(held, TC.header)
    holder.lock("assist thirteen-clues")
    (tmp_path / ".held.journal.wr1t1ng.tmp").write_text("being written")
    create_app(tmp_path)
    assert not (tmp_path / ".good.journal.k1ll3d.tmp").exists()
    assert (tmp_path / ".held.journal.wr1t1ng.tmp").exists()  # another program may be writing it
    holder.unlock()
    holder.lock("assist thirteen-clues")  # taking the lock cleans its own leftovers
    assert not (tmp_path / ".held.journal.wr1t1ng.tmp").exists()
    holder.unlock()
