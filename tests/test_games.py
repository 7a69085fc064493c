"""Every registry test, on every registered game and on the test-only game (``tests/toy_game``): one module, so a
game added to ``models/__init__.py`` is tested by it with no line changed here, and a game missing a part fails.

For each game of :data:`REGISTRY` (``models.GAMES`` plus Toy Cards, registered through the same
:class:`solver.registry.Registry`), and each of its shipped examples:

- its entry names every part (session, parser, teacher, simulation with ``conformance``, examples, goldens);
- conformance: random legal games to the end with knowledge-keeping bots, knowledge sound after every
  observation (:func:`solver.conformance.check_game`, through the game's ``simulate.conformance``);
- hostile lines (hypothesis): random and mutated lines never raise anything but a one-line
  :class:`AssistantError`, a rejected line changes neither the state nor the journal's bytes, an accepted one
  is in the journal, and the journal replays to the same state;
- ``edit`` / ``drop`` / ``undo`` round trips, asserting the whole journal and the exact entry numbers named;
- the journal written by ``assist GAME --journal`` and ``--resume`` through the CLI (built over this registry
  by :func:`assistant_cli.main.build_app`);
- ``assist GAME analyze --json`` of each example equal to a recomputation from a fresh session;
- the web page (Starlette's test client): it renders, and every ``data-key`` / ``data-value`` equals the
  ``analyze --json`` value it names;
- the golden narrated replay (``assist replay``) of each example, ``tests/solver/golden/replay-EXAMPLE.txt``.

Regenerate the golden files after an intended change of wording: ``ASSIST_REGENERATE_GOLDEN=1 pytest
tests/test_games.py -k golden`` (then read the diff).
"""

from __future__ import annotations

import inspect
import json
import os
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from typer.testing import CliRunner

from assistant_cli.main import build_app
from assistant_cli.web.app import create_app
from models import GAMES
from solver.errors import AssistantError
from solver.narrate import replay_lines, run_replay
from solver.registry import GameEntry, Registry, docs_table, load
from solver.session import BaseSession, Journal, read_lines
from solver.teaching import Teacher
from tests.conftest import run_slow

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "solver" / "golden"
REGISTRY = Registry([*GAMES, *Registry.of("tests.toy_game")])
APP = build_app(REGISTRY)
ENTRIES = list(REGISTRY)
EXAMPLES = [(entry, path) for entry in ENTRIES for path in entry.example_paths]


def by_name(entry: GameEntry) -> str:
    return entry.name


def example_id(case: tuple[GameEntry, Path]) -> str:
    return case[1].stem


def example_lines(path: Path) -> list[str]:
    return [line.split("#", 1)[0].strip() for _, line in read_lines(path)]


def replayed(entry: GameEntry, lines: list[str]) -> Any:
    session = entry.new_session()
    session.replay(lines)
    return session


def journal_text(entry: GameEntry, lines: list[str]) -> str:
    return "\n".join([entry.header, *lines]) + "\n"


def as_json(data: Any) -> Any:
    """``data`` as ``analyze --json`` prints it, read back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(data, allow_nan=False))


# -- every game has every part ---------------------------------------------------------------------------------


def test_every_game_folder_is_registered() -> None:
    folders = sorted(p.name for p in (ROOT / "models").iterdir() if (p / "__init__.py").is_file())
    registered = sorted(entry.session.split(".")[1] for entry in GAMES)
    assert folders == registered
    assert REGISTRY.names() == [*GAMES.names(), "toy"]


def test_the_readme_game_table_is_the_registry_s() -> None:
    """The README's "Games and status" table is ``assist games --markdown``, built from the registry."""
    result = CliRunner().invoke(APP, ["games", "--markdown"])
    assert result.exit_code == 0, result.output
    assert docs_table(GAMES) in (ROOT / "README.md").read_text(encoding="utf-8")
    assert result.output == docs_table(REGISTRY) + "\n"


@pytest.mark.parametrize("entry", ENTRIES, ids=by_name)
def test_the_entry_names_every_part(entry: GameEntry) -> None:
    session = entry.new_session()
    assert isinstance(session, BaseSession) and session.lines == [] and session.journal is None
    assert callable(load(entry.observations).parse)
    assert isinstance(entry.new_teacher(), Teacher)
    simulation = load(entry.simulation.module)
    for name in ("matchup", "summary", "replay", "conformance"):
        assert callable(getattr(simulation, name, None)), f"{entry.simulation.module} has no {name}()"
    assert list(inspect.signature(simulation.conformance).parameters) == ["players", "games", "seed"]
    assert entry.examples, f"{entry.name} ships no example"
    for path in entry.example_paths:
        assert path.is_file(), path
        assert (GOLDEN / f"replay-{path.stem}.txt").is_file(), f"no golden replay of {path.name}"
    assert (ROOT / entry.docs).is_file()


# -- conformance -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=by_name)
def test_conformance(entry: GameEntry, request: pytest.FixtureRequest) -> None:
    low, high = entry.players
    games = 5 if run_slow(request.config) else 1
    for players in sorted({low, high}):
        report = load(entry.simulation.module).conformance(players, games, 7)
        assert report.games == games and report.wins + report.draws == games
        assert report.actions > 0 and report.observations > 0
        assert report.knowledge_checks > 0, f"{entry.name}: no bot's knowledge was checked"


# -- hostile lines ---------------------------------------------------------------------------------------------

# Words that go wrong in a number's place or a name's, and the session commands (see tests/assistant_cli/
# test_hostile.py for the classes of bug these found, one direct test each).
HOSTILE_WORDS = [
    "²", "٣", "１", "0", "-1", "-0", "7", "13", "99", "1_000", "1e9", "0.5", "nan", "inf", "9" * 40, "1" * 5000,
    "me", "at", "for", "by", "x", "none", "-", "#", "é", "ß", "\t", ".", "undo", "show", "history", "why",
    "advise", "edit", "drop", "whatif", "clear", "help", "steps", "all",
]
# Whole lines: session commands with huge or foreign numbers, which must be refused in one line (or bounded).
HOSTILE_LINES = [
    "advise samples 100000000", "advise glasses 100000000", "advise samples ²", "advise glasses ٣", "why ² ²",
    "why 1 " + "9" * 5000, "bluff 0 1", "bluff 1 0", "bluff nan 0.5", "bluff 1e-3 0.5", "empathy ²", "undo",
    "whatif clear", "holdings 9", "why claim 99999999999999", "why inplay red ²", "why holds 1 red -1",
    "edit 1", "edit 999999999999 x", "drop -1", "drop 1 2", "history 1", "show all",
]


def fingerprint(session: Any) -> tuple[Any, ...]:
    """What a rejected line must not change: the state as data, the lines, the journal's bytes."""
    try:
        state = json.dumps(session.summary(), sort_keys=True, default=str)
    except AssistantError:  # the setup is not complete: the lines say it all
        state = None
    journal = session.journal.path.read_bytes() if session.journal is not None else b""
    return state, tuple(session.lines), journal


@st.composite
def hostile_line(draw: st.DrawFn, lines: list[str]) -> str:
    """A line of the example with words replaced, dropped, repeated or swapped; a hostile line; random text."""
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "hostile", "text"]))
    if kind == "hostile":
        return draw(st.sampled_from(HOSTILE_LINES))
    if kind == "text":
        return draw(st.text(max_size=30))
    words = draw(st.sampled_from(lines)).split()
    vocabulary = sorted({w for line in lines for w in line.split()} | set(HOSTILE_WORDS))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "drop", "repeat", "swap", "insert", "command"]))
        i = draw(st.integers(0, max(len(words) - 1, 0)))
        if op == "replace" and words:
            words[i] = draw(st.sampled_from(vocabulary))
        elif op == "drop" and len(words) > 1:
            del words[i]
        elif op == "repeat" and words:
            words.insert(i, words[i])
        elif op == "swap" and len(words) > 1:
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        elif op == "command":
            words = [draw(st.sampled_from(["edit", "drop", "why", "undo", "whatif"])),
                     *draw(st.lists(st.sampled_from(vocabulary), max_size=3)), *words[:2]]
        else:
            words.insert(i, draw(st.sampled_from(vocabulary)))
    return " ".join(words)


def check_hostile(entry: GameEntry, data: st.DataObject) -> None:
    lines = example_lines(entry.example_paths[0])
    with tempfile.TemporaryDirectory() as tmp:
        session = entry.new_session()
        session.journal = Journal(Path(tmp) / "game.journal", entry.header)
        start = data.draw(st.integers(0, len(lines)), label="start")
        session.replay(lines[:start])
        session.journal.save(session.lines)
        following = iter(lines[start:])
        for _ in range(data.draw(st.integers(1, 8), label="steps")):
            line = next(following, "show") if data.draw(st.booleans(), label="true next line") else \
                data.draw(hostile_line(lines), label="line")
            before = fingerprint(session)
            try:
                reply = session.handle(line)
            except AssistantError as exc:
                message = str(exc)
                assert message and "\n" not in message, f"{line!r}: {message!r}"
                assert fingerprint(session) == before, f"{line!r} was rejected ({exc}) but changed the state"
                continue
            if reply.quit:
                continue
            assert session.journal.path.read_text(encoding="utf-8") == journal_text(entry, session.lines), line
        again = replayed(entry, example_lines(session.journal.path))
        assert fingerprint(again)[:2] == fingerprint(session)[:2], "the journal replays to another state"


@pytest.mark.parametrize("entry", ENTRIES, ids=by_name)
def test_hostile_lines_never_crash_or_corrupt(entry: GameEntry, request: pytest.FixtureRequest) -> None:
    examples = 300 if run_slow(request.config) else 25

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def run(data: st.DataObject) -> None:
        check_hostile(entry, data)

    run()


# -- edit, drop, undo ------------------------------------------------------------------------------------------


def journaled(entry: GameEntry, lines: list[str], path: Path) -> Any:
    session = replayed(entry, lines)
    session.journal = Journal(path, entry.header)
    session.journal.save(session.lines)
    return session


@pytest.mark.parametrize("entry", ENTRIES, ids=by_name)
def test_edit_drop_undo_round_trips(entry: GameEntry, tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    session = journaled(entry, example_lines(entry.example_paths[0]), path)
    lines = list(session.lines)
    n = len(lines)

    def unchanged() -> None:
        assert session.lines == lines
        assert path.read_text(encoding="utf-8") == journal_text(entry, lines)

    # undo, then the same line again: the very journal we had
    reply = session.handle("undo")
    assert reply.summary is not None and reply.summary.split("; ")[0] == f"undid '{lines[-1]}'"  # then what changed
    assert session.lines == lines[:-1]
    assert path.read_text(encoding="utf-8") == journal_text(entry, lines[:-1])
    session.handle(lines[-1])
    unchanged()
    # an entry edited to itself: accepted, and nothing else changes
    k = n // 2
    reply = session.handle(f"edit {k} {lines[k - 1]}")
    assert reply.accepted and reply.summary == (f"entry {k} is now '{lines[k - 1]}' (was '{lines[k - 1]}'); "
                                                f"entries {k + 1}-{n} re-checked")
    unchanged()
    # numbers out of range and entries that are not one: refused in one line naming the number, nothing changes
    for command in (f"drop {n + 1}", "drop 0", f"edit {n + 1} {lines[0]}"):
        with pytest.raises(AssistantError) as info:
            session.handle(command)
        assert str(info.value) == f"{command.split()[0]} {command.split()[1]}: expected an entry number from 1 to " \
                                  f"{n} (see 'history')"
        unchanged()
    with pytest.raises(AssistantError) as info:
        session.handle(f"edit {k} undo")
    assert str(info.value) == f"edit {k}: expected an entry, not the command 'undo'"
    unchanged()
    # drop the last entry, then put it back
    reply = session.handle(f"drop {n}")
    assert reply.summary == f"dropped entry {n} '{lines[-1]}'"
    assert session.lines == lines[:-1] and path.read_text(encoding="utf-8") == journal_text(entry, lines[:-1])
    session.handle(lines[-1])
    unchanged()
    # drop an earlier entry: either the rest is re-checked and kept (the exact journal without it), or it is
    # refused naming the first later entry that no longer fits, and nothing changes
    dropped = refused = 0
    for k in range(n - 1, 0, -1):
        rest = [*lines[: k - 1], *lines[k:]]
        try:
            reply = session.handle(f"drop {k}")
        except AssistantError as exc:
            message = str(exc)
            assert message.startswith(f"drop {k}: entry "), message
            number = int(message.split()[3])
            assert k < number <= n and message.startswith(f"drop {k}: entry {number} '{lines[number - 1]}' no "
                                                          "longer fits: ")
            with pytest.raises(AssistantError):  # the entry it names does not fit without entry k
                replayed(entry, [*lines[: k - 1], *lines[k:number]])
            unchanged()
            refused += 1
            continue
        assert reply.summary == f"dropped entry {k} '{lines[k - 1]}'; the entries after it were re-checked"
        assert session.lines == replayed(entry, rest).lines
        assert path.read_text(encoding="utf-8") == journal_text(entry, session.lines)
        session.rebuilt(lines)
        unchanged()
        dropped += 1
        if dropped >= 2 and refused >= 1:
            break
    assert dropped >= 1, f"{entry.name}: no earlier entry of the example could be dropped"


# -- the journal through the CLI -------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=by_name)
def test_journal_and_resume_through_the_cli(entry: GameEntry, tmp_path: Path) -> None:
    example = entry.example_paths[0]
    lines = example_lines(example)
    expected = replayed(entry, lines).lines
    journal = tmp_path / "game.journal"
    runner = CliRunner()
    first = runner.invoke(APP, [entry.name, "--journal", str(journal), "--quiet"], input="\n".join(lines[:-1]) + "\n")
    assert first.exit_code == 0, first.output
    assert journal.read_text(encoding="utf-8") == journal_text(entry, expected[:-1])
    # resuming keeps writing to the same journal: the last line, then nothing lost
    second = runner.invoke(APP, [entry.name, "--resume", str(journal), "--quiet"], input=lines[-1] + "\n")
    assert second.exit_code == 0, second.output
    assert f"resumed {len(expected) - 1} entries from {journal}" in second.output.replace("\n", "")
    assert journal.read_text(encoding="utf-8") == journal_text(entry, expected)
    # a resumed game file (not a journal) goes to a new journal, and the old file is left alone
    copy = tmp_path / "copy.journal"
    before = example.read_bytes()
    third = runner.invoke(APP, [entry.name, "--resume", str(example), "--journal", str(copy), "--quiet"], input="")
    assert third.exit_code == 0, third.output
    assert copy.read_text(encoding="utf-8") == journal_text(entry, expected)
    assert example.read_bytes() == before
    # and a bad piped line is reported with its number, exit code 1, the journal without it
    fourth = runner.invoke(APP, [entry.name, "--resume", str(journal), "--quiet"], input="undo\nnonsense 1 2\n")
    assert fourth.exit_code == 1
    assert "line 2: " in fourth.stderr and "Traceback" not in fourth.output
    assert journal.read_text(encoding="utf-8") == journal_text(entry, expected[:-1])


# -- analyze --json --------------------------------------------------------------------------------------------


def analyze_json(entry: GameEntry, path: Path) -> Any:
    result = CliRunner().invoke(APP, [entry.name, "analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("case", EXAMPLES, ids=example_id)
def test_analyze_json_of_each_example_is_the_recomputed_state(case: tuple[GameEntry, Path]) -> None:
    entry, path = case
    session = entry.new_session()
    for line in example_lines(path):
        session.handle(line, show=False)
    assert analyze_json(entry, path) == as_json(session.summary())


# -- the web page ----------------------------------------------------------------------------------------------


class KeyedCells(HTMLParser):
    """Every element's ``data-key`` and ``data-value`` in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str | None]] = []
        self.titles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("data-key"):
            self.cells.append((str(values["data-key"]), values.get("data-value")))


def lookup(data: Any, key: str) -> Any:
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


@pytest.mark.parametrize("case", EXAMPLES, ids=example_id)
def test_the_web_page_shows_the_analyzed_probabilities(case: tuple[GameEntry, Path], tmp_path: Path) -> None:
    entry, path = case
    lines = replayed(entry, example_lines(path)).lines
    games = tmp_path / "games"
    games.mkdir()
    Journal(games / "played.journal", entry.header).save(lines)
    client = TestClient(create_app(games, games=REGISTRY), base_url="http://127.0.0.1")  # a name the server serves
    home = client.get("/")
    assert home.status_code == 200 and f'data-game="{entry.name}"' in home.text
    assert 'data-game-id="played"' in home.text
    page = client.get("/g/played")
    assert page.status_code == 200, page.text
    parser = KeyedCells()
    parser.feed(page.text)
    expected = analyze_json(entry, path)
    assert parser.cells, f"{entry.name}: the page shows no keyed value"
    for key, value in parser.cells:
        assert value is not None, key
        assert float(value) == pytest.approx(lookup(expected, key), abs=1e-9), key


# -- the golden replay -----------------------------------------------------------------------------------------


def narration(path: Path) -> str:
    teacher, lines, actions, _ = replay_lines(REGISTRY, None, path, None, None)
    out: list[str] = []
    run_replay(teacher, lines, actions, f"{teacher.title}: {path.relative_to(ROOT)}", out.append)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("case", EXAMPLES, ids=example_id)
def test_golden_narrated_replay(case: tuple[GameEntry, Path]) -> None:
    _, path = case
    golden = GOLDEN / f"replay-{path.stem}.txt"
    text = narration(path)
    if os.environ.get("ASSIST_REGENERATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
