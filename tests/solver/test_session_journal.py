"""The shared session (:mod:`solver.session`) with exact values, on the test-only game (fast, so mutation
testing can run these for every mutant): the journal's atomic save (a failed ``fsync`` or ``replace`` leaves the
old journal byte for byte), all-or-nothing entries, undo, edit and drop with the exact entry numbers and
summaries, contradiction messages, the search for the entry to blame, completion and the small helpers."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from solver import view as v
from solver.errors import AssistantError, ContradictionError
from solver.session import (
    FIX_HINT,
    BaseSession,
    Command,
    Journal,
    Reply,
    SetupQuestion,
    contradiction_text,
    history_view,
    no_args,
    read_lines,
    with_seat,
)
from tests.toy_game import ENTRY
from tests.toy_game.session import ToySession

SETUP = ["players 3", "me 1", "hand King"]
LINES = [*SETUP, "ask 2 3 Ace no", "ask 3 2 Queen no", "ask 1 2 Ace yes"]


def journaled(tmp_path: Path, lines: list[str] = LINES) -> ToySession:
    session = ToySession(Journal(tmp_path / "game.journal", ENTRY.header))
    session.replay(lines)
    return session


def text_of(lines: list[str]) -> str:
    return "\n".join([ENTRY.header, *lines]) + "\n"


def files(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir())


# -- the journal file ------------------------------------------------------------------------------------------


def test_save_writes_the_header_and_the_lines(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal", "# header")
    journal.save([])
    assert journal.path.read_bytes() == b"# header\n"
    journal.save(["a b", "c"])
    assert journal.path.read_bytes() == b"# header\na b\nc\n"
    assert files(tmp_path) == ["j.journal"]


@pytest.mark.parametrize("broken", ["fsync", "replace", "write"])
def test_a_failed_save_leaves_the_old_journal_byte_for_byte(tmp_path: Path, broken: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal(tmp_path / "j.journal", "# header")
    journal.save(["old line"])
    before = journal.path.read_bytes()

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    reason = "No space left on device" if broken == "write" else "Input/output error"
    if broken == "write":
        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: _FailingFile(fd))
    else:
        monkeypatch.setattr(os, broken, fail)
    with pytest.raises(AssistantError) as info:
        journal.save(["new line", "another"])
    assert str(info.value) == f"journal '{journal.path}': cannot write it ({reason})"
    assert journal.path.read_bytes() == before
    assert files(tmp_path) == ["j.journal"]  # no temporary file left behind


class _FailingFile:
    """A file whose write fails (a full disk), closing its descriptor like a real file."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> _FailingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_an_interrupted_save_removes_its_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal(tmp_path / "j.journal", "# header")
    journal.save(["old"])

    def interrupt(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        journal.save(["new"])
    assert journal.path.read_bytes() == b"# header\nold\n"
    assert files(tmp_path) == ["j.journal"]


def test_a_journal_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "nowhere" / "j.journal", "# header")
    with pytest.raises(AssistantError) as info:
        journal.save(["x"])
    assert str(info.value) == f"journal '{journal.path}': cannot write there (No such file or directory)"


def test_is_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    Journal(path, "# header").save(["x"])
    assert Journal.is_journal(path, "# header") is True
    assert Journal.is_journal(path, "# other") is False
    assert Journal.is_journal(tmp_path / "missing", "# header") is False
    path.write_text("# header with more\n")
    assert Journal.is_journal(path, "# header") is False


def test_read_lines_numbers_the_entries(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("# a comment\nplayers 3\n\n   \nme 1  # seat\n# another\nhand King\n", encoding="utf-8")
    assert read_lines(path) == [(2, "players 3"), (5, "me 1  # seat"), (7, "hand King")]
    missing = tmp_path / "missing.txt"
    with pytest.raises(AssistantError) as info:
        read_lines(missing)
    assert str(info.value) == (f"file '{missing}': cannot read it (FileNotFoundError: [Errno 2] No such file or "
                               f"directory: '{missing}')")
    path.write_bytes(b"players 3\n\xff\n")
    with pytest.raises(AssistantError, match=r"^file '.*': cannot read it \(UnicodeDecodeError: "):
        read_lines(path)


# -- entries all or nothing ------------------------------------------------------------------------------------


def test_an_accepted_entry_is_journaled_at_once(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    assert session.lines == LINES
    assert session.journal is not None and session.journal.path.read_text() == text_of(LINES)
    reply = session.handle("ASK 2 3 jack YES")  # canonical form in the journal
    assert reply.accepted and reply.summary == "'ask 2 3 Jack yes'"
    assert session.journal.path.read_text() == text_of([*LINES, "ask 2 3 Jack yes"])


def test_an_entry_whose_journal_cannot_be_written_is_not_recorded(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    session = journaled(tmp_path)
    before = session.summary()

    def fail(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", fail)
    for line in ("ask 2 3 Jack yes", "edit 4 ask 2 3 Jack no", "drop 5", "undo"):
        with pytest.raises(AssistantError) as info:
            session.handle(line)
        assert str(info.value) == f"journal '{tmp_path / 'game.journal'}': cannot write it (Input/output error)"
        assert session.lines == LINES and session.summary() == before, line
        assert (tmp_path / "game.journal").read_text() == text_of(LINES)
        assert files(tmp_path) == ["game.journal"]
    monkeypatch.undo()
    session.handle("ask 2 3 Jack yes")
    assert (tmp_path / "game.journal").read_text() == text_of([*LINES, "ask 2 3 Jack yes"])


def test_undo_whose_view_fails_writes_the_old_journal_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = journaled(tmp_path)

    def broken(summary: str | None) -> v.View:
        raise AssistantError("the view failed")

    monkeypatch.setattr(session, "state_view", broken)
    with pytest.raises(AssistantError, match="^the view failed$"):
        session.handle("undo")  # the journal was rewritten without the last line, then the view failed
    assert session.lines == LINES
    assert (tmp_path / "game.journal").read_text() == text_of(LINES)
    monkeypatch.undo()
    assert session.handle("undo").summary == "undid 'ask 1 2 Ace yes'"
    assert (tmp_path / "game.journal").read_text() == text_of(LINES[:-1])


def test_blank_and_comment_lines_change_nothing(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    for line in ("", "   ", "# a note", "  # ask 2 3 Jack yes"):
        reply = session.handle(line)
        assert reply.renderables == [] and not reply.accepted and not reply.quit
    assert session.lines == LINES
    assert session.handle("QUIT").quit and session.handle("exit").quit


def test_commands_taking_no_arguments_refuse_them(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    for line, message in [("undo x", "undo: unexpected 'x', expected no arguments"),
                          ("history 1 2", "history: unexpected '1 2', expected no arguments"),
                          ("show all", "show: unexpected 'all', expected 'show' or 'show brief'")]:
        with pytest.raises(AssistantError) as info:
            session.handle(line)
        assert str(info.value) == message
    assert session.lines == LINES
    assert session.handle("show brief").renderables == [session.brief_view()]
    assert session.handle("show").renderables == [session.state_view(None)]
    assert session.handle("help").renderables == [session._help_view()]
    assert session.state() == [session.state_view(None)] and session.state(brief=True) == [session.brief_view()]
    assert session.brief_view() == v.Text("2 deals fit; the mystery is still open")
    assert session.brief_view() != session.state_view(None)


def test_undo_to_the_start(tmp_path: Path) -> None:
    session = journaled(tmp_path, SETUP)
    for k in range(len(SETUP), 0, -1):
        reply = session.handle("undo")
        assert reply.summary == f"undid '{SETUP[k - 1]}'" and not reply.accepted
        assert session.lines == SETUP[: k - 1]
        assert (tmp_path / "game.journal").read_text() == text_of(SETUP[: k - 1])
    with pytest.raises(AssistantError) as info:
        session.handle("undo")
    assert str(info.value) == "undo: nothing to undo"
    session.replay(SETUP)
    reply = session.handle("undo", show=False)
    assert reply.renderables == [] and reply.summary == "undid 'hand King'" and session.lines == SETUP[:2]
    reply = session.handle("undo")
    assert reply.renderables == [session.state_view("undid 'me 1'")] and not reply.accepted


# -- edit and drop ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "lines", "summary"),
    [
        ("edit 6 ask 1 2 Jack yes", [*LINES[:5], "ask 1 2 Jack yes"],
         "entry 6 is now 'ask 1 2 Jack yes' (was 'ask 1 2 Ace yes')"),
        ("edit 5 ask 3 2 jack NO", [*LINES[:4], "ask 3 2 Jack no", LINES[5]],
         "entry 5 is now 'ask 3 2 Jack no' (was 'ask 3 2 Queen no'); entry 6 re-checked"),
        ("edit 4 ask 2 3 Queen no", [*LINES[:3], "ask 2 3 Queen no", *LINES[4:]],
         "entry 4 is now 'ask 2 3 Queen no' (was 'ask 2 3 Ace no'); entries 5-6 re-checked"),
        ("drop 6", LINES[:5], "dropped entry 6 'ask 1 2 Ace yes'"),
        ("drop 4", [*LINES[:3], *LINES[4:]], "dropped entry 4 'ask 2 3 Ace no'; the entries after it were "
         "re-checked"),
    ],
)
def test_edit_and_drop_rewrite_the_journal(tmp_path: Path, command: str, lines: list[str], summary: str) -> None:
    quiet = journaled(tmp_path)
    reply = quiet.handle(command, show=False)
    assert reply.accepted and reply.summary == summary and reply.renderables == []
    session = journaled(tmp_path)
    reply = session.handle(command)
    assert reply.accepted and reply.summary == summary
    assert reply.renderables == [session.state_view(summary)]
    assert session.lines == lines
    assert (tmp_path / "game.journal").read_text() == text_of(lines)
    fresh = ToySession()
    fresh.replay(lines)
    assert session.summary() == fresh.summary()
    assert session.journal is not None and session.journal.path == tmp_path / "game.journal"
    assert session.handle(command.split()[0] + " 1 players 3" if command.startswith("edit") else "history").renderables


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("drop 1", "drop 1: entry 4 'ask 2 3 Ace no' no longer fits: 'ask 2 3 Ace no': finish the setup first, "
         "still need players N"),
        ("drop 3", "drop 3: entry 4 'ask 2 3 Ace no' no longer fits: 'ask 2 3 Ace no': finish the setup first, "
         "still need hand CARD"),
        ("edit 4 ask 2 3 Ace yes", "edit 4: entry 6 'ask 1 2 Ace yes' no longer fits: it contradicts entry 4 'ask 2 "
         "3 Ace yes'"),
        ("edit 3 hand Ace", "edit 3: entry 6 'ask 1 2 Ace yes' no longer fits: it contradicts entry 3 'hand Ace'"),
        ("edit 6 ask 2 3 Queen", "edit 6: ask: expected 'ask ASKER SEAT CARD yes|no'"),
        ("edit 6 show", "edit 6: 'show' is not an entry (e.g. 'ask 1 2 Ace yes')"),
        ("edit 6 drop 2", "edit 6: expected an entry, not the command 'drop'"),
        ("edit 6", "edit 6: expected the new entry after the number, e.g. 'edit 6 ask 1 2 Ace yes'"),
        ("edit", "edit: expected 'edit N NEW ENTRY' with N an entry number from 1 to 6 (see 'history')"),
        ("drop", "drop: expected 'drop N' with N an entry number from 1 to 6 (see 'history')"),
        ("drop 7", "drop 7: expected an entry number from 1 to 6 (see 'history')"),
        ("drop 0", "drop 0: expected an entry number from 1 to 6 (see 'history')"),
        ("drop 06", "drop 06: expected an entry number from 1 to 6 (see 'history')".replace("06: expected", "06: "
                                                                                             "expected")),
        ("drop ٣", "drop ٣: expected an entry number from 1 to 6 (see 'history')"),
        ("drop 0000000011", "drop 0000000011: expected an entry number from 1 to 6 (see 'history')"),
        ("drop 1234567890", "drop 1234567890: expected an entry number from 1 to 6 (see 'history')"),
        ("drop " + "0" * 5000, "drop " + "0" * 5000 + ": expected an entry number from 1 to 6 (see 'history')"),
        ("drop 2 3", "drop 2: unexpected '3', expected 'drop N'"),
    ],
)
def test_refused_edits_and_drops_name_the_entry_and_change_nothing(tmp_path: Path, command: str,
                                                                   message: str) -> None:
    session = journaled(tmp_path)
    if command == "drop 06":  # a leading zero is still entry 6, and many too
        assert session.handle(command).summary == "dropped entry 6 'ask 1 2 Ace yes'"
        assert session.handle("drop " + "0" * 5000 + "5").summary == "dropped entry 5 'ask 3 2 Queen no'"
        return
    with pytest.raises(AssistantError) as info:
        session.handle(command)
    assert str(info.value) == message
    assert session.lines == LINES
    assert (tmp_path / "game.journal").read_text() == text_of(LINES)


def test_edit_and_drop_with_no_entry(tmp_path: Path) -> None:
    session = ToySession()
    for command in ("edit 1 players 3", "drop 1"):
        with pytest.raises(AssistantError) as info:
            session.handle(command)
        assert str(info.value) == f"{command.split()[0]}: there is no entry yet"


def test_rebuilt_writes_the_journal_before_it_changes_the_state(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    session = journaled(tmp_path)
    session.blame_budget = 0.25
    monkeypatch.setattr(session.journal, "save", _refuse)
    with pytest.raises(AssistantError, match="^no$"):
        session.rebuilt(LINES[:4])
    assert session.lines == LINES
    monkeypatch.undo()
    session.rebuilt(LINES[:4])
    assert session.lines == LINES[:4] and (tmp_path / "game.journal").read_text() == text_of(LINES[:4])
    assert session.blame_budget == 0.25 and session._trial is False  # the session's own settings are kept


def _refuse(lines: object) -> None:
    raise AssistantError("no")


# -- contradictions --------------------------------------------------------------------------------------------


def test_a_contradiction_names_the_one_entry_to_fix(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 3 2 Ace no")
    assert info.value.entries == [6]
    assert str(info.value) == ("'ask 3 2 Ace no' contradicts entry 6 'ask 1 2 Ace yes'; if entry 6 is wrong, fix it "
                               "with 'edit 6 ...' or 'drop 6'")
    assert session.lines == LINES


def test_a_contradiction_names_every_entry_it_comes_from(tmp_path: Path) -> None:
    lines = [*SETUP, "ask 2 2 Ace no", "ask 2 3 Ace no", "ask 3 2 Queen no"]
    session = ToySession()
    with pytest.raises(AssistantError):  # a player asks another player
        session.replay(lines)
    lines = [*SETUP, "ask 3 2 Ace no", "ask 2 3 Ace no", "ask 3 2 Queen no"]
    session = journaled(tmp_path, lines)
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 2 3 Queen no")  # the Ace and the Queen would both be the mystery
    assert info.value.entries == [3, 4, 5, 6]
    assert str(info.value) == ("'ask 2 3 Queen no' contradicts entries 3 'hand King' and 4 'ask 3 2 Ace no' and 5 "
                               "'ask 2 3 Ace no' and 6 'ask 3 2 Queen no'; fix the wrong one with 'edit N ...' or "
                               "'drop N' (N: 3 or 4 or 5 or 6)")


def test_the_search_finds_the_entries_to_blame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the game's error names no entry, dropping each earlier one in turn (latest first) finds those whose
    removal alone lets the line in: at most 3, within the blame budget."""
    monkeypatch.setattr(ToySession, "_conflict_numbers", lambda self, conflicts: [])
    session = journaled(tmp_path)
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 3 2 Ace no")
    assert info.value.entries == [6]
    lines = [*SETUP, "ask 3 2 Ace no", "ask 2 3 Ace no", "ask 3 2 Queen no"]
    session = journaled(tmp_path, lines)
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 2 3 Queen no")
    assert info.value.entries == [4, 5, 6]  # the hand (3) would do too, but the latest three are named
    assert str(info.value).endswith("fix the wrong one with 'edit N ...' or 'drop N' (N: 4 or 5 or 6)")
    session.blame_budget = 0.0
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 2 3 Queen no")
    assert info.value.entries == []
    assert str(info.value) == "'ask 2 3 Queen no' contradicts earlier entries: 'hand King'; 'ask 3 2 Ace no'; " \
                              "'ask 2 3 Ace no'; 'ask 3 2 Queen no'" + FIX_HINT
    session.blame_budget = -1.0
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 2 3 Queen no")
    assert info.value.entries == []


def test_contradiction_text() -> None:
    exc = ContradictionError("cut 3 red", ["hand red"], reason="only 2 red cards")
    assert contradiction_text(exc, [(5, "hand red")]) == ("'cut 3 red' contradicts entry 5 'hand red': only 2 red "
                                                          "cards; if entry 5 is wrong, fix it with 'edit 5 ...' or "
                                                          "'drop 5'")
    assert contradiction_text(exc, [(5, "hand red")], fix=False) == ("it contradicts entry 5 'hand red': only 2 red "
                                                                     "cards")
    assert contradiction_text(exc, [(2, "a"), (7, "b")], fix=False) == ("it contradicts entries 2 'a' and 7 'b': "
                                                                        "only 2 red cards")
    assert contradiction_text(exc, []) == "'cut 3 red' contradicts what you can see: only 2 red cards" + FIX_HINT
    assert contradiction_text(exc, [], fix=False) == "'cut 3 red' contradicts what you can see: only 2 red cards"


# -- history, completion, helpers ------------------------------------------------------------------------------


def test_history_numbers_every_entry_from_one() -> None:
    assert history_view([]) == v.Text("no entries yet")
    table = history_view(["players 3", "whatif ask 2 3 Ace no"])
    assert isinstance(table, v.Table)
    assert table.title == "Entries (the journal)" and table.caption == "fix one: 'edit N NEW ENTRY' or 'drop N'"
    assert [c.header for c in table.columns] == ["#", "Entry"] and table.columns[0].align == "right"
    assert table.rows == [(v.Cell("1"), v.Cell("players 3")), (v.Cell("2"), v.Cell("whatif ask 2 3 Ace no",
                                                                                   tone="whatif"))]


def test_completion_of_edit_drop_and_show(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    assert session.completions("edit ") == ["1", "2", "3", "4", "5", "6"]
    assert session.completions("drop ") == ["1", "2", "3", "4", "5", "6"]
    assert session.completions("drop 3 ") == []
    assert session.completions("edit 4 ") == ["players", "me", "hand", "ask"]  # entries only, no commands
    assert session.completions("edit 4 ask 2 3 ") == ["Ace", "King", "Queen", "Jack"]
    assert session.completions("show ") == ["brief"]
    assert session.completions("show b") == ["brief"]
    assert session.completions("show brief ") == []
    assert session.completions("ask 2 3 Q") == ["Queen"]
    assert session.completions("ask 2 3 queen") == ["Queen"]  # the card as the game spells it


def test_small_helpers() -> None:
    assert with_seat(["ask", "me", "2"], {"ask"}, 3) == "ask 3 2"
    assert with_seat(["ASK", "ME", "2"], {"ask"}, 3) == "ASK 3 2"
    assert with_seat(["tell", "me", "2"], {"ask"}, 3) == "tell me 2"
    assert with_seat(["ask", "1", "me"], {"ask"}, 3) == "ask 1 me"
    assert with_seat(["ask"], {"ask"}, None) == "ask"
    with pytest.raises(AssistantError) as info:
        with_seat(["ask", "me"], {"ask"}, None)
    assert str(info.value) == "'me' stands for your seat: enter 'me SEAT' first"
    no_args("undo", [])
    with pytest.raises(AssistantError) as info:
        no_args("undo", ["a", "b"])
    assert str(info.value) == "undo: unexpected 'a b', expected no arguments"


def test_setup_questions() -> None:
    question = SetupQuestion("Your card: ", "hand")
    assert question.line("King") == "hand King" and question.line("") == "hand"
    assert question.completion_text("Ki") == "hand Ki"
    session = ToySession()
    asked = session.setup_question()
    assert asked is not None and asked.prompt == "Number of players (2-3): "
    assert asked.line("undo") == "undo" and asked.line("3") == "players 3"  # a command passes through
    assert asked.completion_text("undo ") == "undo " and asked.completion_text("un") == "players un"
    assert asked.completion_text("  3") == "players 3"


# -- naming entries, on a session whose rule is simple ----------------------------------------------------------


class CountSession(BaseSession):
    """A session of single-word entries; 'x' contradicts the entries unless one of the words in ``NEEDED`` is
    missing (so dropping any one of those lets it in), and 'y' contradicts entries named by its arguments."""

    COMMAND_OF: ClassVar[dict[str, str]] = {"undo": "undo", "history": "history", "edit": "edit", "drop": "drop",
                                             "show": "show", "help": "help", "quit": "quit", "echo": "echo",
                                             "said": "said"}
    NEEDED: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, journal: Journal | None = None) -> None:
        super().__init__(journal, 1.0)

    def fresh(self) -> CountSession:
        return type(self)()

    def state_view(self, summary: str | None) -> v.View:
        return v.Text(summary or "")

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        word = tokens[0]
        if word == "x" and set(self.lines) >= self.NEEDED:
            raise ContradictionError("x", [])
        if word == "y":
            raise ContradictionError("y", tokens[1:])
        return self._accept(word, lambda: None, lambda: Reply([], True))

    def _conflict_line(self, conflict: object) -> str | None:
        return None if conflict == "rule" else str(conflict)

    def _commands(self, show: bool) -> dict[str, Command]:
        """'echo WORDS': one view (not a Reply) saying the words and ``show``; 'said': a whole Reply."""
        return {"echo": lambda args: v.Text(f"{' '.join(args)} show={show}"),
                "said": lambda args: Reply([v.Text("said")], summary="said")}


def test_a_command_s_view_or_reply() -> None:
    session = CountSession()
    assert session.handle("echo a b") == Reply([v.Text("a b show=True")])
    assert session.handle("ECHO c", show=False) == Reply([v.Text("c show=False")])
    assert session.handle("said x") == Reply([v.Text("said")], summary="said")
    assert session.lines == []


class FiveNeeded(CountSession):
    NEEDED = frozenset("abcde")


class TwoNeeded(CountSession):
    NEEDED = frozenset("ab")


def test_the_trials_of_the_search_do_not_search_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = BaseSession._blame

    def counted(self: BaseSession, line: str) -> list[int]:
        calls.append(len(self.lines))
        return real(self, line)

    monkeypatch.setattr(BaseSession, "_blame", counted)
    session = TwoNeeded()
    session.replay(["a", "b", "c"])
    with pytest.raises(ContradictionError) as info:
        session.handle("x")  # the trial without 'c' contradicts too: it must not search in turn
    assert calls == [3] and info.value.entries == [1, 2]


def test_the_search_stops_at_three_entries() -> None:
    session = FiveNeeded()
    session.replay(["a", "b", "c", "d", "e"])
    with pytest.raises(ContradictionError) as info:
        session.handle("x")
    assert info.value.entries == [3, 4, 5]  # any of the five would do: the latest three are named


def test_the_search_reaches_the_first_entries() -> None:
    session = TwoNeeded()
    session.replay(["a", "b"])
    with pytest.raises(ContradictionError) as info:
        session.handle("x")
    assert info.value.entries == [1, 2]


def test_the_search_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(100))
    monkeypatch.setattr("solver.session.time.monotonic", lambda: float(next(ticks)))
    session = FiveNeeded()
    session.replay(["a", "b", "c", "d", "e"])
    session.blame_budget = 1.5  # the clock reads 0 (the deadline 1.5), then 1 (one trial), then 2: stop
    with pytest.raises(ContradictionError) as info:
        session.handle("x")
    assert info.value.entries == [5]


def test_conflicts_are_numbered_by_their_latest_line_each_once() -> None:
    session = CountSession()
    session.blame_budget = 0.0
    session.replay(["a", "c", "b", "c"])
    with pytest.raises(ContradictionError) as info:
        session.handle("y c c")
    assert info.value.entries == [2, 4]
    with pytest.raises(ContradictionError) as info:
        session.handle("y rule a")  # a conflict that is no single line, then one that is
    assert info.value.entries == [1]
    assert str(info.value) == "'y' contradicts entry 1 'a'; if entry 1 is wrong, fix it with 'edit 1 ...' or 'drop 1'"
    with pytest.raises(ContradictionError) as info:
        session.handle("y rule")
    assert info.value.entries == []


def test_a_contradiction_whose_message_was_replaced() -> None:
    exc = ContradictionError("x", [])
    exc.args = ()
    assert contradiction_text(exc, []) == FIX_HINT
    exc.args = ("first", "second")
    assert contradiction_text(exc, []) == "first" + FIX_HINT


def test_is_journal_compares_the_whole_first_line(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    path.write_text("# header \n", encoding="utf-8")  # a trailing space: another first line
    assert Journal.is_journal(path, "# header") is False
    path.write_text("# journal X\nx\n", encoding="utf-8")
    assert Journal.is_journal(path, "# journal X") is True
    path.write_text("# journal é\n", encoding="utf-8")
    assert Journal.is_journal(path, "# journal é") is True


def test_setup_question_completion_of_commands() -> None:
    asked = ToySession().setup_question()
    assert asked is not None
    assert asked.completion_text("") == "players "
    assert asked.completion_text("undo") == "players undo"  # one word being typed: still the answer
    assert asked.completion_text("undo 1") == "undo 1"
    assert asked.completion_text("drop 1 2") == "drop 1 2"


class FiveForX(CountSession):
    NEEDED = frozenset("abcde")


def test_an_edit_refused_by_a_contradiction_naming_no_entry() -> None:
    """The replay behind 'edit' neither searches for the entry to blame nor words the error for the prompt: the
    refusal says which later entry no longer fits, and what its error said."""
    session = FiveForX()
    session.replay(["a", "b", "c", "d", "z", "x"])
    with pytest.raises(AssistantError) as info:
        session.handle("edit 5 e")
    assert str(info.value) == "edit 5: entry 6 'x' no longer fits: 'x' contradicts what you can see (the setup)"
    assert session.lines == ["a", "b", "c", "d", "z", "x"]


def test_edit_refuses_every_fixing_command_as_the_new_entry(tmp_path: Path) -> None:
    session = journaled(tmp_path)
    for command in ("edit", "drop", "undo", "EDIT"):
        with pytest.raises(AssistantError) as info:
            session.handle(f"edit 6 {command} 1 players 3")
        assert str(info.value) == f"edit 6: expected an entry, not the command '{command}'"
    with pytest.raises(AssistantError) as info:
        session.handle("drop 2 3 4")
    assert str(info.value) == "drop 2: unexpected '3 4', expected 'drop N'"
    assert session.lines == LINES


def test_a_comment_line_with_several_hashes_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("# a # b\nplayers 3 # x # y\n#\n", encoding="utf-8")
    assert read_lines(path) == [(2, "players 3 # x # y")]


def test_journals_are_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """Under an ASCII locale (no UTF-8 mode), a journal or game file with a non-ASCII character still reads."""
    path = tmp_path / "j.journal"
    path.write_text("# journal é\nplayers 3 # café\n", encoding="utf-8")
    code = ("import sys; from solver.session import Journal, read_lines; "
            "Journal(sys.argv[1] + '.new', '# h').save(['caf\\u00e9']); "
            "print(Journal.is_journal(sys.argv[1], '# journal \\u00e9'), read_lines(sys.argv[1]))")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
           "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, cwd=root,
                          timeout=120, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True [(2, 'players 3 # café')]\n"
    assert Path(f"{path}.new").read_bytes() == "# h\ncafé\n".encode()


def test_the_temporary_file_sits_beside_the_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    moved: list[tuple[str, str]] = []
    real = os.replace

    def spy(source: str, target: object) -> None:
        moved.append((str(source), str(target)))
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", spy)
    Journal(tmp_path / "game.journal", "# h").save(["x"])
    [(source, target)] = moved
    assert Path(source).parent == tmp_path and target == str(tmp_path / "game.journal")
    assert Path(source).name.startswith(".game.journal.") and source.endswith(".tmp")


def test_the_session_keeps_its_count_budget() -> None:
    session = ToySession(count_budget=0.5)
    assert session.count_budget == 0.5 and session.fresh().count_budget == 0.5
    session.replay(SETUP)
    session.handle("undo")
    assert session.count_budget == 0.5


def test_replies_to_entries_and_commands(tmp_path: Path) -> None:
    session = journaled(tmp_path, SETUP)
    reply = session.handle("ask 2 3 Jack yes # a note # and more")
    assert session.lines == [*SETUP, "ask 2 3 Jack yes"]
    assert reply == Reply([session.state_view("'ask 2 3 Jack yes'")], True, summary="'ask 2 3 Jack yes'")
    assert session.handle("history") == Reply([history_view(session.lines)])
    with pytest.raises(AssistantError) as info:
        session.handle("show a b")
    assert str(info.value) == "show: unexpected 'a b', expected 'show' or 'show brief'"
