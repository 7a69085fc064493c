"""The Evidence companion: scripted sessions (no terminal), piped input, analyze --json, resume, completion, and
``assist simulate evidence``."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.terminal import to_rich
from models.evidence.knowledge import EvidenceKnowledge, TableSetup
from models.evidence.observations import SETUP_TYPES, parse
from models.evidence.session import JOURNAL_HEADER, EvidenceSession
from solver.errors import AssistantError
from solver.session import Reply

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "evidence-4p.txt"
SETUP = [
    "players 4",
    "me 1",
    "start 1",
    "setup white 0 blue 1 yellow 2 pink 3 green 4 brown -1",
    "hand white 1 white 2 blue 4 yellow -1 pink 0 green 0",
    "holds 2 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
    "holds 3 blue 1 yellow 1 pink 1 green 1 brown 2",
    "holds 4 white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
]
runner = CliRunner()


def text(reply: Reply) -> str:
    console = Console(record=True, width=160, file=io.StringIO())
    for renderable in reply.renderables:
        console.print(to_rich(renderable))
    return console.export_text()


def ready() -> EvidenceSession:
    session = EvidenceSession()
    for line in SETUP:
        session.handle(line)
    return session


def test_setup_dialogue_asks_in_order() -> None:
    session = EvidenceSession()
    prompts = []
    answers = iter(["4", "1", "basic", "1", "white 0 blue 1 yellow 2 pink 3 green 4 brown -1",
                    "white 1 white 2 blue 4 yellow -1 pink 0 green 0", "white 1 blue 1 yellow 1 pink 1 green 1 brown 1",
                    "blue 1 yellow 1 pink 1 green 1 brown 2", "white 1 blue 1 yellow 1 pink 1 green 1 brown 1"])
    while (question := session.setup_question()) is not None:
        prompts.append(question.prompt)
        session.handle(question.line(next(answers)))
    assert prompts[0].startswith("Number of players") and prompts[4].startswith("Rumours revealed at setup")
    assert prompts[2] == "Variant: basic or pro (the professional rules, with the tools)? "
    assert "Player 4's rumours by colour" in prompts[-1]
    assert session.lines == [*SETUP[:2], "variant basic", *SETUP[2:]]  # the variant is journalled
    assert session.knowledge is not None


def test_state_view_after_entries() -> None:
    session = ready()
    out = text(session.handle("play me white 1"))
    assert "recorded 'play 1 white 1'" in out
    assert "white (Yeti)" in out and "-1 (33%)" in out
    out = text(session.handle("play 2 white 3"))
    assert "white cannot be 3" in out
    out = text(session.handle("search 2 white"))
    assert "white* x1" in out and "Next: round 1, player 3's turn: play a rumour" in out


def test_why_explains_each_value() -> None:
    session = ready()
    session.handle("play 1 white 1")
    session.handle("play 2 blue 2")
    out = text(session.handle("why blue"))
    assert "the blue evidence cannot be 2: 'play 2 blue 2'" in out
    assert "cannot be 4: blue 4 was dealt to you" in out
    assert "is 0 with probability 0.333" in out
    assert "the blue evidence cannot be 1: blue 1 was revealed at setup" in text(session.handle("why bl 1"))


def test_undo_and_history() -> None:
    session = ready()
    session.handle("play 1 pink 0")
    session.handle("search 1 green")
    out = text(session.handle("undo"))
    assert "undid 'search 1 green'" in out
    assert session.knowledge is not None and session.knowledge.table.articles[1]["green"] == 0
    assert "play 1 pink 0" in text(session.handle("history"))
    for _ in range(len(session.lines)):
        session.handle("undo")
    with pytest.raises(AssistantError, match="nothing to undo"):
        session.handle("undo")


TO_PLAYER_2 = ("play me yellow -1",)  # my turn done: player 2 is to play
AFTER_PLAYER_2 = (*TO_PLAYER_2, "play 2 blue 2")  # player 2's turn, after their rumour


@pytest.mark.parametrize(
    ("before", "line", "message"),
    [
        (TO_PLAYER_2, "play 2 white 1", "every white 1 .* in your hand"),
        (AFTER_PLAYER_2, "play 3 white 3", "player 3 holds no white rumour"),
        ((), "play me blue 3", "you do not hold blue 3"),
        (AFTER_PLAYER_2, "search 2 green green", "card limit"),
        ((), "players 3", "the game has started"),
        ((), "why purple", "unknown mystery colour 'purple'"),
        ((), "why blue x", "expected a whole number"),
        ((), "advise now", "expected 'advise \\[all\\]"),
        (AFTER_PLAYER_2, "timeout 2 blue for green", "no blue search card"),
        (AFTER_PLAYER_2, "tool 2 telescope", "only in the pro variant"),
        ((), "bogus 3", "unknown entry 'bogus'"),
    ],
)
def test_errors_are_one_line_and_change_nothing(before: tuple[str, ...], line: str, message: str) -> None:
    session = ready()
    for entry in before:
        session.handle(entry)
    lines = list(session.lines)
    with pytest.raises(AssistantError, match=message) as info:
        session.handle(line)
    assert "\n" not in str(info.value)
    assert session.lines == lines


def test_advise_ranks_my_options_and_off_turn_what_i_would_do_now() -> None:
    session = ready()
    out = text(session.handle("advise samples 8"))
    assert "Which rumour to play" in out and "play pink 0" in out and "public" in out
    session.handle("play me pink 0")
    out = text(session.handle("advise samples 8"))
    assert "Search: take a card now, or stop" in out and "stop" in out
    session.handle("search me green")
    session.handle("play 2 blue 2")
    reply = session.handle("advise samples 8")  # as in every game: off-turn, what I would do now
    first, ranked = reply.renderables[0].items[:2]
    assert first.text == ("(it is player 3's turn, not yours; this is what you would do now: you move now, then "
                          "play goes on from player 3; whoever has no rumour left at their turn plays none)")
    # my move now, then play from player 3 (it used to refuse: 'a move now would play past a hand'); no "do
    # this" button off my turn
    assert [row[1].text for row in ranked.rows] == ["play green 0", "play white 1", "play white 2", "play blue 4",
                                                    "play yellow -1"]
    assert all(row[1].do is None for row in ranked.rows)


def test_advise_with_the_greedy_model_of_the_others() -> None:
    session = ready()
    session.handle("play 1 pink 0")
    session.handle("search 1 green")
    for line in ("play 2 blue 2", "search 2 white", "play 3 brown 1", "search 3 brown", "play 4 yellow 0",
                 "search 4 yellow"):
        session.handle(line)
    out = text(session.handle("advise greedy samples 6"))
    assert "Which rumour to play" in out and "a model of the others" in out
    assert session.model is not None and session.model.consistent()
    session.handle("undo")
    assert session.model is not None and len(session.model.decisions[4]) == 0


def test_summary_json_matches_the_knowledge_model() -> None:
    session = EvidenceSession()
    for line in EXAMPLE.read_text().splitlines():
        if line.split("#", 1)[0].strip():
            session.handle(line, show=False)
    summary = session.summary()
    setup = TableSetup()
    kn = None
    for line in EXAMPLE.read_text().splitlines():
        if not line.split("#", 1)[0].strip():
            continue
        entry = parse(line)
        if isinstance(entry, SETUP_TYPES):
            setup.apply(entry)
        else:
            kn = kn or EvidenceKnowledge(setup, solver=False)
            kn.add(entry)
    assert kn is not None
    exact = kn.distribution_exact()
    for colour, dist in summary["evidence"].items():  # type: ignore[union-attr]
        assert {int(v): Fraction(p).limit_denominator(1000) for v, p in dist.items()} == exact[colour]
    scores = summary["expected_scores"]
    assert set(scores) == {"1", "2", "3", "4"}  # type: ignore[arg-type]
    assert summary["turn"] == {"round": 4, "seat": 2, "phase": "play"}


def test_analyze_json_cli() -> None:
    result = runner.invoke(app, ["evidence", "analyze", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["evidence"]) == {"white", "blue", "yellow", "pink", "green", "brown"}
    for dist in data["evidence"].values():
        assert sum(dist.values()) == pytest.approx(1.0)
    assert data["expected_scores"]["1"]["mean"] == pytest.approx(data["expected_scores"]["1"]["mean"])


def test_piped_session_reports_bad_lines(tmp_path: Path) -> None:
    script = "\n".join([*SETUP, "play 1 white 1", "play 2 white 9", "show"]) + "\n"
    result = runner.invoke(app, ["evidence", "--journal", str(tmp_path / "j.journal")], input=script)
    assert result.exit_code == 1
    assert "line 10" in result.output and "white rumours have the values" in result.output
    journal = (tmp_path / "j.journal").read_text().splitlines()
    assert journal[0] == JOURNAL_HEADER and journal[-1] == "play 1 white 1"
    resumed = runner.invoke(app, ["evidence", "--resume", str(tmp_path / "j.journal"), "-q"], input="")
    assert resumed.exit_code == 0, resumed.output
    assert "resumed 9 entries" in resumed.output


def test_completion() -> None:
    session = ready()
    assert "play" in session.completions("pl")
    assert session.completions("play ") == ["1"]  # only the seat whose turn it is
    assert session.completions("play 1 bl") == ["blue"]
    assert session.completions("play 1 blue ") == ["4"]  # the blue rumour in my hand
    assert session.completions("play 2 bl") == []
    assert session.completions("tool 1 ") == []  # the basic game has no tools


def test_simulate_cli_json_reproducible() -> None:
    args = ["simulate", "evidence", "--games", "3", "--players", "3", "--bots", "greedy,random,greedy", "--seed",
            "4", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, args)
    a, b = json.loads(first.output), json.loads(second.output)
    assert a == b and a["games"] == 3 and [r["bot"] for r in a["seats"]] == ["greedy", "random", "greedy"]


def test_simulate_cli_errors_and_replay() -> None:
    bad = runner.invoke(app, ["simulate", "evidence", "--bots", "wizard"])
    assert bad.exit_code == 1 and "unknown bot 'wizard'" in bad.output
    replay = runner.invoke(app, ["simulate", "evidence", "--players", "2", "--variant", "pro", "--replay", "7"])
    assert replay.exit_code == 0, replay.output
    assert "Result:" in replay.output and "evidence:" in replay.output


def test_example_file_is_a_seat_view_of_a_real_game() -> None:
    lines = [ln for ln in EXAMPLE.read_text().splitlines() if ln.split("#", 1)[0].strip()]
    assert lines[0] == "players 4" and any(ln.startswith("timeout") for ln in lines)
    random.Random(0)  # the example is fixed text; this test only guards its shape
