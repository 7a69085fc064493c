"""Fixing an earlier entry in every companion: 'history' numbers, 'edit N ENTRY', 'drop N', and contradictions
that name the entry to fix. Each game runs on its shipped example game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from models.beyond_baker_street.session import BeyondBakerStreetSession
from models.evidence.session import EvidenceSession
from models.thirteen_clues.session import ThirteenCluesSession
from models.time_bomb.session import TimeBombSession
from solver.errors import AssistantError, ContradictionError
from solver.session import BaseSession, Journal, read_lines
from tests.helpers import ROOT, text

runner = CliRunner()


def example(name: str) -> list[str]:
    return [line for _, line in read_lines(ROOT / "examples" / f"{name}.txt")]


# Per game: the session, its example, an edit that fits, a drop that fits, an edit a later entry refuses
# (with the start of the refusal), and a prefix of the example plus a line contradicting entry N.
CASES: dict[str, dict[str, Any]] = {
    "thirteen-clues": dict(
        kind=ThirteenCluesSession, lines=example("thirteen-clues-4p"), edit=(17, "ask 4 Weapon 4"), drop=16,
        refused=(7, "ask 4 Green 2", "edit 7: entry 18 'accuse 4 Countess Harbor Poison wrong' no longer fits: "
                 "it contradicts entry 7 'ask 4 Green 2'"),
        contradiction=(24, "ask 4 Green 2", 7)),
    "beyond-baker-street": dict(
        kind=BeyondBakerStreetSession, lines=example("beyond-baker-street-3p"), edit=(24, "assist 3 2 2 at 3"), drop=46,
        refused=(10, "draw 1 2D", "edit 10: 'draw 1 2D': nothing to reveal or draw now"),
        contradiction=(19, "eliminate 2 3 5D", 18)),
    "evidence": dict(
        kind=EvidenceSession, lines=example("evidence-4p"), edit=(22, "play 4 brown 0"), drop=21,
        refused=(20, "play 4 pink 0", "edit 20: 'play 4 pink 0': it is player 3's turn"),
        contradiction=(17, "play 2 brown 2", 10)),  # player 2 again, next round: brown 2 is spent
    "time-bomb": dict(
        kind=TimeBombSession, lines=example("time-bomb-5p"), edit=(27, "claim 3 2"), drop=28,
        refused=(5, "hand 5xdefuse", "edit 5: entry 15 'cut 1 defuse' no longer fits: it contradicts entry 5 "
                 "'hand defuse defuse defuse defuse defuse'"),
        contradiction=(5, "cut 3 red", None)),
}
GAMES = list(CASES)


def played(game: str, journal: Journal | None = None) -> BaseSession:
    case = CASES[game]
    session = case["kind"](journal=journal)
    session.replay(case["lines"])
    return session


def state(session: BaseSession) -> Any:
    return session.summary()


@pytest.mark.parametrize("game", GAMES)
def test_edit_gives_the_state_of_a_fresh_replay_of_the_corrected_lines(game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal", f"# {game}")
    session = played(game, journal)
    n, new = CASES[game]["edit"]
    old = list(session.lines)
    reply = session.handle(f"edit {n} {new}", show=False)
    corrected = [*old[: n - 1], new, *old[n:]]
    assert session.lines == corrected
    assert reply.accepted and reply.summary is not None and reply.summary.startswith(f"entry {n} is now '{new}'")
    fresh = CASES[game]["kind"]()
    fresh.replay(corrected)
    assert state(session) == state(fresh)
    assert state(session) != state(played(game))  # the edit changed something real
    assert journal.path.read_text().splitlines() == [f"# {game}", *corrected]


@pytest.mark.parametrize("game", GAMES)
def test_drop_gives_the_state_of_a_fresh_replay_without_the_line(game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal", f"# {game}")
    session = played(game, journal)
    n = CASES[game]["drop"]
    old = list(session.lines)
    reply = session.handle(f"drop {n}", show=False)
    corrected = [*old[: n - 1], *old[n:]]
    assert session.lines == corrected and reply.summary is not None and f"dropped entry {n}" in reply.summary
    fresh = CASES[game]["kind"]()
    fresh.replay(corrected)
    assert state(session) == state(fresh)
    assert journal.path.read_text().splitlines() == [f"# {game}", *corrected]


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_edit_changes_neither_the_state_nor_the_journal(game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal", f"# {game}")
    session = played(game, journal)
    lines, before, saved = list(session.lines), state(session), journal.path.read_bytes()
    n, new, message = CASES[game]["refused"]
    with pytest.raises(AssistantError) as info:
        session.handle(f"edit {n} {new}")
    assert str(info.value).startswith(message), str(info.value)
    assert session.lines == lines and state(session) == before
    assert journal.path.read_bytes() == saved
    with pytest.raises(AssistantError, match="^drop 1: entry [0-9]+ '.*' no longer fits: "):  # 'players' comes first
        session.handle("drop 1")
    assert session.lines == lines and journal.path.read_bytes() == saved


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("line", "message"),
    [("edit 0 players 4", "edit 0: expected an entry number from 1 to {n} (see 'history')"),
     ("edit 99 players 4", "edit 99: expected an entry number from 1 to {n} (see 'history')"),
     ("drop x", "drop x: expected an entry number from 1 to {n} (see 'history')"),
     ("drop ²", "drop ²: expected an entry number from 1 to {n} (see 'history')"),
     ("drop 1 2", "drop 1: unexpected '2', expected 'drop N'"),
     ("edit", "edit: expected 'edit N NEW ENTRY' with N an entry number from 1 to {n} (see 'history')"),
     ("edit 2", "edit 2: expected the new entry after the number, e.g. 'edit 2 {line2}'"),
     ("edit 2 show", "edit 2: 'show' is not an entry (e.g. '{line2}')"),
     ("edit 2 undo", "edit 2: expected an entry, not the command 'undo'")],
)
def test_entry_numbers_are_checked_in_one_line(game: str, line: str, message: str) -> None:
    session = played(game)
    lines = list(session.lines)
    with pytest.raises(AssistantError) as info:
        session.handle(line)
    assert str(info.value) == message.format(n=len(lines), line2=lines[1])
    assert session.lines == lines


def test_edit_and_drop_with_no_entry_yet() -> None:
    with pytest.raises(AssistantError, match="^drop: there is no entry yet$"):
        ThirteenCluesSession().handle("drop 1")


@pytest.mark.parametrize("game", GAMES)
def test_a_contradiction_names_the_entry_to_fix(game: str) -> None:
    case = CASES[game]
    k, line, number = case["contradiction"]
    session = case["kind"]()
    if game == "time-bomb":  # the five defusing cards of five players in my hand: nobody else can show one
        session.replay([*case["lines"][:4], "hand 5xdefuse"])
        line, number = "cut 3 defuse", 5
    else:
        session.replay(case["lines"][:k])
    lines = list(session.lines)
    with pytest.raises(ContradictionError) as info:
        session.handle(line)
    assert info.value.entries == [number]
    message = str(info.value)
    assert f"contradicts entry {number} '{lines[number - 1]}'" in message
    assert message.endswith(f"if entry {number} is wrong, fix it with 'edit {number} ...' or 'drop {number}'")
    assert session.lines == lines


def test_a_wrong_assist_is_named_and_fixed_then_the_truth_goes_in() -> None:
    """Beyond Baker Street: I typed the 5s at positions 2 and 4; my card at 3 is a 5 too (I play 5D from it).
    The refusal names the Assist; editing it lets the play in."""
    session = BeyondBakerStreetSession()
    session.replay(CASES["beyond-baker-street"]["lines"][:19])
    with pytest.raises(ContradictionError, match="contradicts entry 18 'assist 3 2 5 at 2 4': 5D cannot be at"):
        session.handle("eliminate 2 3 5D")
    session.handle("edit 18 assist 3 2 5 at 3 4")
    session.handle("eliminate 2 3 5D")
    assert session.lines[17:] == ["assist 3 2 5 at 3 4", "assist 1 3 5 at 1", "eliminate 2 3 5D"]


def test_a_contradiction_without_named_entries_is_found_by_dropping_each() -> None:
    """Thirteen Clues: the forcing entries are not in the error when it comes from what I see; the search finds
    no single earlier entry then, and the message says how to look."""
    session = ThirteenCluesSession()
    session.replay(CASES["thirteen-clues"]["lines"][:6])
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 1 Orange 3")
    assert info.value.entries == []
    assert str(info.value).endswith("if an earlier entry is wrong, 'history' numbers them, and 'edit N ...' or "
                                    "'drop N' fixes one")


def test_the_search_names_an_entry_the_error_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A contradiction whose error carries no conflicts: dropping each earlier entry finds the one to fix."""
    session = ThirteenCluesSession()
    session.replay([*CASES["thirteen-clues"]["lines"][:6], "ask 4 Green 1", "ask 3 Pink 1"])
    real = ThirteenCluesSession._conflict_numbers
    monkeypatch.setattr(ThirteenCluesSession, "_conflict_numbers", lambda self, conflicts: [])
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 4 Green 2")
    assert info.value.entries == [7]
    session.blame_budget = 0.0
    with pytest.raises(ContradictionError) as info:
        session.handle("ask 4 Green 2")
    assert info.value.entries == []
    monkeypatch.setattr(ThirteenCluesSession, "_conflict_numbers", real)


@pytest.mark.parametrize("game", GAMES)
def test_history_numbers_from_one_and_help_lists_edit_and_drop(game: str) -> None:
    session = played(game)
    history = text(session.handle("history"))
    assert f"1   {session.lines[0]}" in history and f"{len(session.lines)}   {session.lines[-1]}" in history
    assert "fix one: 'edit N NEW ENTRY' or 'drop N'" in " ".join(history.split())
    assert "edit N ENTRY / drop N" in text(session.handle("help"))


@pytest.mark.parametrize("game", GAMES)
def test_completion_offers_edit_drop_numbers_and_the_entry(game: str) -> None:
    session = played(game)
    assert "edit" in session.completions("ed") and "drop" in session.completions("dr")
    assert session.completions("drop ") == [str(i) for i in range(1, len(session.lines) + 1)]
    assert session.completions("edit 1 playe") == ["players"]  # the entry's words where entry 1 stands
    assert session.completions("edit 3 playe") == []  # by entry 3 the players were answered


@pytest.mark.parametrize("game", GAMES)
def test_piped_script_with_edit_and_drop(game: str, tmp_path: Path) -> None:
    case = CASES[game]
    n, new = case["edit"]
    lines = played(game).lines
    script = [*lines, f"edit {n} {new}", "history", f"drop {case['drop']}"]
    journal = tmp_path / "j.journal"
    result = runner.invoke(app, [game, "--quiet", "--journal", str(journal)], input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    corrected = list(lines)
    corrected[n - 1] = new
    del corrected[case["drop"] - 1]
    assert journal.read_text().splitlines()[1:] == corrected  # the corrected lines, not the commands
    assert not any(line.startswith(("edit", "drop")) for line in journal.read_text().splitlines())
