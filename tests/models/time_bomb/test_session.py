"""The Time Bomb Evolution companion: scripted sessions, errors, undo, journal and resume, completion,
``analyze --json`` and ``assist simulate time-bomb``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from assistant_cli.main import app
from assistant_cli.terminal import to_rich
from models.time_bomb.session import JOURNAL_HEADER, SHOW_REST, TimeBombSession
from solver import view
from solver.errors import AssistantError
from solver.session import Journal

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "time-bomb-5p.txt"
SETUP = ["players 5", "me 1", "role sherlock", "start 1", "hand defuse pink red blue green"]
runner = CliRunner()


def text(reply) -> str:
    console = Console(width=200, record=True)
    for r in reply.renderables:
        console.print(to_rich(r))
    return console.export_text()


def session(*lines: str) -> TimeBombSession:
    s = TimeBombSession()
    for line in [*SETUP, *lines]:
        s.handle(line, show=False)
    return s


def test_setup_dialogue_then_tables() -> None:
    s = TimeBombSession()
    assert s.setup_question().prefix == "players"
    for line in SETUP[:-1]:
        s.handle(line)
    assert s.setup_question().prefix == "hand"
    reply = s.handle(SETUP[-1])
    out = text(reply)
    assert reply.accepted and "setup complete" in reply.summary
    # after an entry: one screen (issue 22: a reply fits 40 lines at 100 columns), 'show' for the rest
    assert "P(Moriarty) with the claims: player 2 50%; 3 50%; 4 50%; 5 50%" in out
    assert out.rstrip().endswith(SHOW_REST)
    out = text(s.handle("show"))
    assert "P(Moriarty) soft" in out and "Risk of each cut by you (as a sherlock plays it" in out
    assert s.setup_question() is None


def test_claims_cuts_and_a_flagged_contradiction() -> None:
    s = session("claim 2 3", "cut 2 blue", "cut 3 blue", "cut 2 pink", "cut 4 green")
    reply = s.handle("cut 2 pink")
    assert "claim 1 (claim 2 3) is contradicted: 3 bombs were cut from player 2" in reply.summary
    out = text(s.handle("claims"))
    assert "! contradicted" in out
    roles = s.summary()["roles"]
    assert roles["2"] == pytest.approx(5 / 6)


def test_me_stands_for_my_seat_and_errors_are_one_line() -> None:
    s = session("claim me 1")
    assert s.lines[-1] == "claim 1 1"
    for bad, message in [
        ("cut 1 red", "must cut another player"),
        ("cut 6 red", "seat 6: expected 1 to 5"),
        ("cut 2 purple", "unknown card 'purple'"),
        ("claim 2 7", "defusers 7: expected a whole number from 0 to 5"),
        ("players 6", "the game has started"),
        ("why", "expected 'why role SEAT"),
        ("bluff 2 0.5", "bluff: Sherlock's rate 2: expected a number from 0 to 1"),
        ("holdings", "expected 'holdings SEAT'"),
    ]:
        with pytest.raises(AssistantError, match=message) as info:
            s.handle(bad)
        assert "\n" not in str(info.value)
    assert s.lines[-1] == "claim 1 1"


def test_contradiction_names_the_entries() -> None:
    s = TimeBombSession()
    for line in SETUP[:-1]:
        s.handle(line)
    s.handle("hand 5xdefuse")
    with pytest.raises(AssistantError, match="'cut 2 defuse' contradicts entry 5 'hand defuse"):
        s.handle("cut 2 defuse")


def test_undo_and_history() -> None:
    s = session("claim 2 1", "cut 2 red")
    assert "undid 'cut 2 red'" in s.handle("undo").summary
    assert s.lines[-1] == "claim 2 1" and s.knowledge.table.cuts == []
    assert "claim 2 1" in text(s.handle("history"))


def test_why_advise_and_holdings() -> None:
    s = session("claim 2 1", "claim 3 0", "claim 4 2", "claim 5 0")
    out = text(s.handle("advise"))
    assert "Advice (sherlock): cut player" in out and "What to claim: 1 defusing card" in out
    assert "claim 2: player 3 said 0 of 5" in text(s.handle("why role 3"))
    assert "from hard facts" in text(s.handle("why claim 2"))
    assert "impossible (hard)" in text(s.handle("why inplay pink 0"))
    assert "P true" not in text(s.handle("why cut 2")) and "explosion" in text(s.handle("why cut 2"))
    assert "defuse" in text(s.handle("holdings 4"))
    assert "You are sherlock" in text(s.handle("why role me"))


def test_bluff_rates_are_journaled_and_change_the_soft_layer() -> None:
    s = session("claim 2 3")
    before = s.summary()["roles"]["2"]
    s.handle("bluff 0.01 0.9")
    after = s.summary()["roles"]["2"]
    assert s.lines[-1] == "bluff 0.01 0.9" and after != before
    assert s.summary()["roles_hard"]["2"] == pytest.approx(0.5)


def test_completion() -> None:
    s = session()
    assert "claim" in s.completions("cl")
    assert s.completions("cut 3 de") == ["defuse"]
    me = str(s.setup.me)
    assert [c.label for c in s.choices("claim ") if c.word == me] == ["my claim"]  # my seat, by its number
    assert s.completions("why ") == ["role", "claim", "inplay", "holds", "cut"]


def test_journal_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    s = TimeBombSession(Journal(path, JOURNAL_HEADER))
    for line in [*SETUP, "claim 2 1", "cut 2 red", "draw 0", "cut 1 pink"]:
        s.handle(line, show=False)
    assert Journal.is_journal(path, JOURNAL_HEADER)
    result = runner.invoke(app, ["time-bomb", "--resume", str(path), "--quiet"], input="")
    assert result.exit_code == 0, result.output
    assert "resumed 9 entries" in result.output and "player 1" in result.output


def test_piped_stdin_reports_bad_lines() -> None:
    script = "\n".join([*SETUP, "claim 2 1", "cut 2 purple", "cut 2 blue"]) + "\n"
    result = runner.invoke(app, ["time-bomb"], input=script)
    assert result.exit_code == 1
    assert "line 7: unknown card 'purple'" in result.output
    assert "recorded 'cut 2 blue'" in result.output


def test_analyze_json_on_the_example() -> None:
    result = runner.invoke(app, ["time-bomb", "analyze", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["winner"] == "sherlock" and set(data["roles"]) == {"1", "2", "3", "4", "5"}
    assert data["roles"]["2"] == 0.0
    assert any(c["contradicted"] for c in data["claims"])
    assert "cut_risk" in data


def test_analyze_json_cut_risk_mid_game(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("\n".join([*SETUP, "claim 2 1", "cut 2 blue"]) + "\n")
    data = json.loads(runner.invoke(app, ["time-bomb", "analyze", str(path), "--json"]).output)
    assert set(data["cut_risk"]) == {"1", "3", "4", "5"}
    assert data["cut_risk_cutter"] == 2 and data["cut_risk_policies"] == ["avoid", "seek"]  # not my cut: both
    for risk in data["cut_risk"].values():
        assert 0 <= risk["explode_avoid"] < 0.01 and 0 < risk["defuse"] < 1
        assert risk["explode_seek"] == risk["explode_avoid"]  # no choice inside any cut can differ yet


def test_simulate_command() -> None:
    result = runner.invoke(app, ["simulate", "time-bomb", "--games", "3", "--players", "4", "--seed", "1",
                                 "--bots", "advisor/bluffing-moriarty", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and 0 <= data["sherlock_win_rate"] <= 1
    again = json.loads(runner.invoke(app, ["simulate", "time-bomb", "--games", "3", "--players", "4", "--seed", "1",
                                           "--bots", "advisor/bluffing-moriarty", "--json"]).output)
    assert again["sherlock_wins"] == data["sherlock_wins"]
    bad = runner.invoke(app, ["simulate", "time-bomb", "--bots", "clever"])
    assert bad.exit_code == 1 and "unknown bot 'clever'" in bad.output


def test_games_lists_time_bomb() -> None:
    result = runner.invoke(app, ["games"])
    assert "time-bomb" in result.output


@pytest.mark.parametrize("rates", ["0 0", "0 1", "1 0", "1 1"])
def test_extreme_bluff_rates_never_crash_the_view(rates: str, tmp_path: Path) -> None:
    """Rates of 0 or 1 can make every role assignment impossible: the claim is still recorded (it was made at
    the table), the soft layer falls back to hard facts and a one-line note says so."""
    journal = Journal(tmp_path / "tb.journal", JOURNAL_HEADER)
    s = TimeBombSession(journal)
    for line in [*SETUP, f"bluff {rates}"]:
        s.handle(line, show=False)
    # I hold a defusing card, so nobody holds all five: both claims are false; three truthful claims of 0
    # (5 cards each, 4 defusing cards among 20) push the rest of the table
    lines = ["claim 2 5", "claim 3 5", "claim 4 0", "claim 5 0", "cut 2 defuse", "cut 3 pink"]
    for line in lines:
        reply = s.handle(line)
        assert reply.accepted
        text(reply)  # the view renders
    for command in ("show", "advise", "why role 2", "why claim 1", "claims", "holdings 3", "why cut 4"):
        text(s.handle(command))
    data = s.summary()
    assert s.lines[-len(lines):] == lines and journal.path.read_text().splitlines()[-1] == "cut 3 pink"
    if data["soft_note"] is not None:
        assert data["roles"] == pytest.approx(data["roles_hard"])
        assert "showing hard facts only" in data["soft_note"] and "\n" not in data["soft_note"]
        assert "Note: no role assignment explains these claims" in text(s.handle("show"))


def test_no_role_assignment_fallback_and_recovery() -> None:
    """bluff 0 0 (nobody lies) and a claim the cards contradict: soft = hard with a note; sane rates bring the
    soft layer back, and undoing the claim removes the note."""
    s = session("bluff 0 0", "claim 2 5")
    kn = s.knowledge
    assert kn is not None
    note = kn.soft_note()
    assert note is not None and note.startswith("no role assignment explains these claims at bluff rates Sherlock 0")
    assert kn.roles(True) == pytest.approx(kn.roles(False))
    report = kn.claim_reports()[0]
    assert report.contradicted and report.p_true_soft == report.p_true_hard == 0.0
    reply = s.handle("bluff 0.1 0.5", show=False)
    assert "no role assignment" not in reply.summary and kn.soft_note() is None
    assert kn.roles(True)[2] > kn.roles(False)[2]  # a false claim now points at Moriarty
    s.handle("bluff 0 0", show=False)
    assert "no role assignment" in s.handle("claim 3 0", show=False).summary
    s.handle("undo", show=False)
    assert s.knowledge is not None and s.knowledge.soft_note() is not None  # claim 2 5 still has no explanation
    s.handle("undo", show=False)
    assert s.knowledge.soft_note() is None and s.lines[-1] == "bluff 0.1 0.5"


# Green at its threshold under a cover and pink covered too: a blue cut must remove one cover, so a cutter who
# avoids an explosion removes pink and one who seeks it removes green (RULES-NOTES: the cutter's choice).
COVERED_AT_THRESHOLD = ["cut 2 green", "cut 3 defuse", "cover green", "cut 4 green", "cut 5 green", "cut 2 pink",
                        "redeal defuse red red blue"]


def risk_session(role: str, last_cut: str) -> TimeBombSession:
    s = TimeBombSession()
    for line in ["players 5", "me 1", f"role {role}", "start 1", "hand defuse pink red blue green",
                 *COVERED_AT_THRESHOLD, last_cut, "cover pink"]:
        s.handle(line, show=False)
    return s


def table_columns(table: view.Table) -> dict[str, list[str]]:
    """A view table's columns by header (headers repeated as 'hard' get the previous header's name + ' hard')."""
    out: dict[str, list[str]] = {}
    previous = ""
    for i, column in enumerate(table.columns):
        head = column.header
        name = f"{previous} hard" if head == "hard" else head
        previous = head if head != "hard" else previous
        out[name] = [row[i].text for row in table.rows]
    return out


@pytest.mark.parametrize(("role", "policy"), [("moriarty", "seek"), ("sherlock", "avoid")])
def test_my_cut_risk_is_my_roles_play_in_table_advise_and_json(role: str, policy: str) -> None:
    from models.time_bomb.advisor import cut_options, cut_risks
    from models.time_bomb.views import _p, risk_table

    s = risk_session(role, "cut 1 defuse")  # my card was cut: I hold the cutter
    kn = s.knowledge
    assert kn is not None and kn.table.cutter == kn.me == 1
    data = s.summary()
    assert data["cut_risk_policies"] == [policy] and data["cut_risk_cutter"] == 1
    options = {o.seat: o for o in cut_options(kn)}
    table = risk_table(kn)
    columns = table_columns(table)
    assert set(columns) == {"Cut player", "Defusing soft", "Defusing soft hard", "Explosion soft",
                            "Explosion soft hard"}
    assert f"as a {role} plays it: you {policy} an explosion" in str(table.title)
    assert "Risk of each cut by you" in text(s.handle("show"))
    for row, seat in enumerate(columns["Cut player"]):
        json_risk = data["cut_risk"][seat]
        assert set(json_risk) == {"defuse", "defuse_hard", f"explode_{policy}", f"explode_{policy}_hard"}
        option = options[int(seat)]
        assert option.p_explode == json_risk[f"explode_{policy}"]
        assert option.p_explode_hard == json_risk[f"explode_{policy}_hard"]
        assert columns["Explosion soft"][row] == _p(json_risk[f"explode_{policy}"])
        assert columns["Explosion soft hard"][row] == _p(json_risk[f"explode_{policy}_hard"])
    # the two plays really differ here: a seeking cutter uncovers green at its threshold on a blue card
    seek = {r.seat: r.explode["seek"] for r in cut_risks(kn, ["avoid", "seek"])}
    avoid = {r.seat: r.explode["avoid"] for r in cut_risks(kn, ["avoid", "seek"])}
    p_blue = kn.belief(True).p_types(2)["blue"]
    assert seek[2] - avoid[2] >= p_blue > 0.1  # plus the blue cards a red bomb's extra cut may show
    mine = {2: seek[2] if policy == "seek" else avoid[2]}
    assert options[2].p_explode == pytest.approx(mine[2])
    advice = text(s.handle("advise"))
    assert f"{_p(options[2].p_explode)} / {_p(options[2].p_explode_hard)}" in advice


def test_another_cutters_risk_shows_both_plays_labelled() -> None:
    from models.time_bomb.advisor import cut_options
    from models.time_bomb.views import _p, options_table, risk_table

    s = risk_session("moriarty", "cut 3 defuse")  # player 3 holds the cutter
    kn = s.knowledge
    assert kn is not None and kn.table.cutter == 3
    data = s.summary()
    assert data["cut_risk_policies"] == ["avoid", "seek"] and data["cut_risk_cutter"] == 3
    table = risk_table(kn)
    columns = table_columns(table)
    assert "Explosion avoiding soft" in columns and "Explosion seeking soft hard" in columns
    assert "avoiding = Sherlock's play" in str(table.caption) and "seeking = Moriarty's play" in str(table.caption)
    options = {o.seat: o for o in cut_options(kn, side="sherlock")}
    differs = False
    for row, seat in enumerate(columns["Cut player"]):
        risk = data["cut_risk"][seat]
        for policy in ("avoid", "seek"):
            assert columns[f"Explosion {policy}ing soft"][row] == _p(risk[f"explode_{policy}"])
            assert columns[f"Explosion {policy}ing soft hard"][row] == _p(risk[f"explode_{policy}_hard"])
            assert options[int(seat)].risk.explode[policy] == risk[f"explode_{policy}"]
        assert options[int(seat)].p_explode == risk["explode_avoid"]  # 'advise' ranks for a Sherlock cutter
        differs |= risk["explode_seek"] > risk["explode_avoid"] + 0.1
    assert differs
    advice_columns = table_columns(options_table(kn, tuple(options.values())))
    assert "Explosion avoiding soft/hard" in advice_columns and "Explosion seeking soft/hard" in advice_columns
    assert text(s.handle("advise")).startswith("(it is player 3's turn, not yours; this is what you would do now: "
                                               "player 3's cuts, ranked for a Sherlock cutter with what you know")


GREEN_ROUND = ["cut 2 green", "cut 3 defuse", "cover green", "cut 4 green", "cut 5 green", "cut 2 green"]
RULE_CASES = [
    # (entries before, the refused entry, the rule its message names)
    ((), "cover pink", "no defusing or yellow card is waiting to be placed"),
    ((), "uncover pink", "no blue bomb is waiting to remove a cover"),
    ((), "draw 1", "no red bomb is waiting for its numbered card"),
    ((), "redeal defuse red blue green", "redeal: the round is not over"),
    ((), "cut 1 red", "player 1 holds the cutter and must cut another player"),
    ((), "cut 2 orange", "orange is not in play with 5 players"),
    ((), "claim 2 6", "defusers 6: expected a whole number from 0 to 5"),
    ((), "players 4", "the game has started"),
    (("cut 2 red",), "cut 3 red", "the red bomb's numbered card comes first: 'draw K'"),
    (("cut 2 red",), "cover red", "no defusing or yellow card is waiting"),
    (("cut 2 red",), "draw 5", "expected a number 0 to 4"),
    (("cut 2 red", "draw 1"), "cut 4 red", "the red bomb's extra cut is from player 2, not 4"),
    (("cut 2 red", "draw 0"), "cut 3 red", "the red bomb's extra cut is from player 1, not 3"),
    (("cut 2 red", "draw 0"), "cut 1 yellow", "your hand had no yellow card left to cut in round 1"),
    (("cut 2 blue", "cut 3 defuse"), "cut 4 red", "player 2 must first place the defuse card: 'cover COLOUR' (blue)"),
    (("cut 2 blue", "cut 3 defuse"), "cover pink", "expected an uncovered colour with a cut card (blue)"),
    (("cut 2 blue", "cut 3 defuse"), "uncover blue", "no blue bomb is waiting"),
    (("cut 2 blue", "cut 3 defuse", "cover blue", "cut 4 blue"), "cut 5 red",
     "the blue bomb must first remove a cover: 'uncover COLOUR' (blue)"),
    (("cut 2 blue", "cut 3 defuse", "cover blue", "cut 4 blue"), "uncover green", "expected a covered colour (blue)"),
    (tuple(GREEN_ROUND), "cut 3 red", "the round is over: enter your new hand with 'redeal ...' first"),
    (tuple(GREEN_ROUND), "claim 2 1", "the round is over; enter your new hand with 'redeal ...' first"),
    (tuple(GREEN_ROUND), "redeal defuse red blue", "redeal: player 1 gets 4 cards this round, not 3"),
    ((*GREEN_ROUND, "redeal defuse red blue green"), "cut 3 green",
     "all 5 green cards are accounted for: 4 cut and 1 in your hand"),
    ((*GREEN_ROUND, "redeal defuse red blue green"), "claim 3 5", "player 3 holds 4 cards, so 0 to 4"),
    (("cut 2 pink", "cut 3 pink"), "cut 4 red", "the game is over (moriarty won)"),
    (("cut 2 pink", "cut 3 pink"), "claim 2 1", "the game is over (moriarty won)"),
    (("cut 2 pink", "cut 3 pink"), "redeal defuse red blue green", "'redeal': the game is over (moriarty won)"),
]


@pytest.mark.parametrize(("before", "bad", "rule"), RULE_CASES, ids=[f"{c[1]} after {c[0][-1:]}" for c in RULE_CASES])
def test_an_entry_the_rules_forbid_now_is_refused_in_one_line_and_changes_nothing(
    before: tuple[str, ...], bad: str, rule: str, tmp_path: Path
) -> None:
    journal = Journal(tmp_path / "tb.journal", JOURNAL_HEADER)
    s = TimeBombSession(journal)
    for line in [*SETUP, *before]:
        s.handle(line, show=False)
    lines, saved, state = list(s.lines), journal.path.read_text(), s.summary()
    with pytest.raises(AssistantError) as info:
        s.handle(bad, show=False)
    assert rule in str(info.value) and "\n" not in str(info.value)
    assert s.lines == lines and journal.path.read_text() == saved and s.summary() == state


def test_claims_follow_the_documented_choice_any_time_in_a_round() -> None:
    """A claim is accepted during a pending cover, uncover or draw (the companion's documented choice)."""
    for before in (("cut 2 red",), ("cut 2 blue", "cut 3 defuse")):
        s = session(*before, "claim 4 2")
        assert s.lines[-1] == "claim 4 2"


def at_key(data: object, key: str) -> object:
    """The value at a dotted path of ``summary()`` (list indices are numbers)."""
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]  # type: ignore[index]
    return data


VIEW_TYPES = view.VIEW_TYPES


def session_of(lines: list[str]) -> TimeBombSession:
    s = TimeBombSession()
    for line in lines:
        s.handle(line, show=False)
    return s


def test_views_are_view_data_with_keyed_probabilities_equal_to_the_summary() -> None:
    """Every view the session returns is view data (no rich object); every keyed cell of the example's state,
    advice, claims and holdings views holds exactly the number ``analyze --json`` has at its key, and its
    ``why`` is a command the session answers."""
    lines = [ln for ln in EXAMPLE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    families: set[str] = set()
    kinds: set[str] = set()
    sessions = [session_of(lines[:stop]) for stop in (12, 26, 40, len(lines))]
    sessions.append(risk_session("moriarty", "cut 1 defuse"))  # my own cut, as Moriarty plays it
    for stop, s in enumerate(sessions):
        data = s.summary()
        for command in ("show", "show brief", "advise", "claims", "holdings 3", "why role 3", "help", "history"):
            for item in s.handle(command).renderables:
                for part in view.walk(item):
                    assert isinstance(part, VIEW_TYPES), (command, type(part))
                    if not isinstance(part, view.Table):
                        continue
                    for row in part.rows:
                        for cell in row:
                            kinds.add(cell.kind)
                            if cell.kind in ("prob", "certain", "ruled_out"):
                                assert cell.value is not None and 0 <= cell.value <= 1
                            if cell.key is None:
                                continue
                            assert cell.value == at_key(data, cell.key), (stop, command, cell)
                            head, *_, last = cell.key.split(".")
                            families.add(f"{head}.{last}" if head in ("cut_risk", "claims") else head)
                            if cell.why:
                                s.handle(cell.why)  # raises on a command the session refuses
    assert {"roles", "roles_hard", "expected_holdings", "claims.p_true_hard", "claims.p_true_soft", "cut_risk.defuse",
            "cut_risk.defuse_hard", "cut_risk.explode_avoid", "cut_risk.explode_seek_hard"} <= families
    assert {"prob", "certain", "ruled_out", "number"} <= kinds
