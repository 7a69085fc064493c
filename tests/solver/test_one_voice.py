"""One voice in every game (issue 22 §4): near-miss words get the exact did-you-mean, ranges are this table's,
contradictions name their entry numbers and rule breaks get no "if an earlier entry is wrong" hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import GAMES
from solver.errors import AssistantError
from solver.session import FIX_HINT, read_lines
from solver.view import Flow, Group, Table, Text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"thirteen-clues": "thirteen-clues-4p.txt", "beyond-baker-street": "beyond-baker-street-3p.txt",
            "evidence": "evidence-4p.txt", "time-bomb": "time-bomb-5p.txt"}
HELP = " (type 'help' for the entries and commands)"


def session_after(game: str, n: int) -> object:
    session = GAMES[game].new_session()
    for _, line in read_lines(ROOT / "examples" / EXAMPLES[game])[:n]:
        session.handle(line, show=False)
    return session


def refusal(session: object, line: str) -> str:
    before = list(session.lines)  # type: ignore[attr-defined]
    with pytest.raises(AssistantError) as info:
        session.handle(line, show=False)  # type: ignore[attr-defined]
    assert session.lines == before  # type: ignore[attr-defined]
    return str(info.value)


NEAR_MISSES = [
    ("thirteen-clues", "acuse 2 Butcher Theater Poison wrong", "unknown entry 'acuse' (did you mean 'accuse'?)" + HELP),
    ("thirteen-clues", "hisory", "unknown entry 'hisory' (did you mean 'history'?)" + HELP),
    ("thirteen-clues", "ask 4 Grene 1", "unknown suit or category 'Grene' (did you mean 'Green'?)"),
    ("beyond-baker-street", "elimnate 2 1 5C", "unknown entry 'elimnate' (did you mean 'eliminate'?)" + HELP),
    ("beyond-baker-street", "asist 3 2 5 at 2", "unknown entry 'asist' (did you mean 'assist'?)" + HELP),
    ("beyond-baker-street", "investigate 2 3 5D Oportunity",
     "unknown lead section 'Oportunity' (did you mean 'Opportunity'?)"),
    ("evidence", "serch 2 green", "unknown entry 'serch' (did you mean 'search'?)" + HELP),
    ("evidence", "why bleu", "unknown mystery colour 'bleu' (did you mean 'blue'?)"),
    ("evidence", "play 2 purple 1",
     "unknown mystery colour 'purple' (expected white, blue, yellow, pink, green or brown)"),
    ("time-bomb", "cutt 2 pink", "unknown entry 'cutt' (did you mean 'cut'?)" + HELP),
    ("time-bomb", "cut 2 pnk", "unknown card 'pnk' (did you mean 'pink'?)"),
    # five players: the bomb colours in play are pink, red, blue, green and yellow (orange is not)
    ("time-bomb", "cut 2 purple", "unknown card 'purple' (expected defuse, pink, red, blue, green or yellow)"),
    ("time-bomb", "cut 2 purpel", "unknown card 'purpel' (expected defuse, pink, red, blue, green or yellow)"),
    ("time-bomb", "cut 2 yelow", "unknown card 'yelow' (did you mean 'yellow'?)"),
    ("time-bomb", "uncover grean", "unknown colour 'grean' (did you mean 'green'?)"),
    ("time-bomb", "cover oranje", "unknown colour 'oranje' (expected pink, red, blue, green or yellow)"),
    ("time-bomb", "redeal defuse pinc", "unknown card 'pinc' (did you mean 'pink'?)"),
    ("time-bomb", "bogus 2", "unknown entry 'bogus' (expected players, me, role, start, hand, claim, cut, cover, "
                             "uncover, draw or redeal)" + HELP),
]


@pytest.mark.parametrize(("game", "line", "message"), NEAR_MISSES, ids=[f"{g}:{w}" for g, w, _ in NEAR_MISSES])
def test_near_miss_words_get_the_closest_word(game: str, line: str, message: str) -> None:
    assert refusal(session_after(game, 12), line) == message


def test_time_bomb_colours_before_the_table_is_known_and_in_the_colours_entry() -> None:
    session = GAMES["time-bomb"].new_session()
    assert refusal(session, "hand defuse purpel") == (
        "unknown card 'purpel' (expected defuse, pink, red, blue, green, yellow or orange)")  # no players yet
    session.handle("players 4", show=False)  # four players: pink, red, blue and green
    assert refusal(session, "hand defuse purpel") == "unknown card 'purpel' (expected defuse, pink, red, blue or green)"
    assert refusal(session, "colours pink red blue oranj") == "unknown colour 'oranj' (did you mean 'orange'?)"


@pytest.mark.parametrize(("game", "line", "message"), [
    ("thirteen-clues", "ask 9 Red 1", "seat 9: expected a whole number from 1 to 4"),
    ("beyond-baker-street", "hand x 1C", "seat 'x': expected a whole number from 1 to 3"),
    ("evidence", "play 9 blue 1", "seat 9: expected a whole number from 1 to 4"),
    ("time-bomb", "cut 9 pink", "seat 9: expected a whole number from 1 to 5"),
])
def test_ranges_are_this_tables(game: str, line: str, message: str) -> None:
    assert refusal(session_after(game, 12), line) == message


def test_a_case_file_outside_the_data_names_the_data_range() -> None:
    session = GAMES["beyond-baker-street"].new_session()
    session.handle("players 3", show=False)
    assert refusal(session, "case -999") == "case -999: expected a Case File 1 to 6"
    assert refusal(session, "case x") == "case 'x': expected a whole number from 1 to 6"


def test_contradictions_in_edits_name_their_entries() -> None:
    tc = session_after("thirteen-clues", 40)
    assert refusal(tc, "edit 19 ask 4 White 2") == "edit 19: 'ask 4 White 2' contradicts entry 11 'informant A Plaza'"
    bbs = session_after("beyond-baker-street", 40)
    assert refusal(bbs, "edit 22 assist 1 3 Witness at 3") == (
        "edit 22: 'assist 1 3 Witness at 3' contradicts entry 6 'hand 3 1T 5T 2W 2C': player 3's Witnesses are at 2")


def test_the_fix_hint_is_for_contradictions_only() -> None:
    tc = session_after("thirteen-clues", 12)
    rule_break = refusal(tc, "accuse 2 Duke Park Knife wrong")
    assert rule_break == ("'accuse 2 Duke Park Knife wrong': player 2 cannot accuse 'Park': they can see it on "
                          "player 3's screen (an accusation never names a card its maker can see)")
    contradiction = refusal(tc, "ask 4 Purple 0")
    assert contradiction.endswith(FIX_HINT)


def first_lines(session: object, line: str) -> list[str]:
    """The texts of the first views of the reply to ``line`` (a table as its title and first row's cells)."""
    reply = session.handle(line)  # type: ignore[attr-defined]
    items = list(reply.renderables[0].items)
    while any(isinstance(i, Group) for i in items):
        items = [part for i in items for part in (i.items if isinstance(i, Group) else (i,))]
    out = []
    for item in items[:3]:
        if isinstance(item, Text):
            out.append(item.text)
        elif isinstance(item, Table):
            out.append(f"{item.title}: " + " | ".join(c.text for c in item.rows[0]))
        elif isinstance(item, Flow):  # a line with a "do this" cell in it
            out.append(item.lead + item.sep.join(a if isinstance(a, str) else a.text for a in item.atoms) + item.end)
    return out


def test_evidence_advice_off_turn_is_my_move_now_then_play_from_the_seat_to_move() -> None:
    session = session_after("evidence", 10)  # after player 2's turn: player 3 is to play
    assert first_lines(session, "advise samples 4")[:2] == [
        "(it is player 3's turn, not yours; this is what you would do now: you move now, then play goes on from "
        "player 3; whoever has no rumour left at their turn plays none)",
        "Which rumour to play (best first): 1 | play white 0 | 41% | 10.2 | -1.8 | 16 | public white estimate 1.20 "
        "-> 1.50",
    ]


def test_evidence_advice_off_turn_in_the_last_round_ranks_my_last_rumour() -> None:
    """Round 6, player 3 to play, one rumour in my hand: a move now leaves me no rumour for my last turn (that
    draw is skipped); it used to refuse ('a move now would play past a hand')."""
    teacher = GAMES["evidence"].new_teacher()
    session = GAMES["evidence"].new_session()
    for line in list(teacher.transcript(1, teacher.default_players).lines)[:57]:
        session.handle(line, show=False)
    assert first_lines(session, "advise samples 8")[1:] == [
        "Which rumour to play (best first): 1 | play blue 3 | 50% | 13.0 | -2.5 | 32 | public blue estimate 1.50 -> "
        "0.00",
        "Each option is played out in the same sampled futures (the hidden rumours dealt from your exact knowledge, "
        "then every player greedy from their own information). Win: share of futures you win; lead: your score "
        "minus the best other score.",
    ]


def test_evidence_advice_off_turn_with_no_rumour_left_says_so() -> None:
    teacher = GAMES["evidence"].new_teacher()
    session = GAMES["evidence"].new_session()
    for line in list(teacher.transcript(2, teacher.default_players).lines)[:58]:  # round 6, player 3 to play
        session.handle(line, show=False)
    assert first_lines(session, "advise samples 4")[:2] == [
        "(it is player 3's turn, not yours; this is what you would do now: you move now, then play goes on from "
        "player 3; whoever has no rumour left at their turn plays none)",
        "nothing to play now: you have no rumour left",
    ]


def test_beyond_baker_street_advice_off_turn() -> None:
    assert first_lines(session_after("beyond-baker-street", 12), "advise")[0] == (
        "(it is player 3's turn, not yours; this is what you would do now: your move on the table as it is, before "
        "player 3 moves)")


def test_time_bomb_advice_off_turn_ranks_the_cutters_options_and_a_cover() -> None:
    cut = first_lines(session_after("time-bomb", 12), "advise")
    assert cut[0] == ("(it is player 5's turn, not yours; this is what you would do now: player 5's cuts, ranked for "
                      "a Sherlock cutter with what you know, with the explosion risk if they avoid one and if they "
                      "seek one)")
    assert cut[1] == ("Cuts, best first: 1 | player 1 | 59% / 26% | <1% / <1% | <1% / <1% | 0% | 59% | 72% | 59% "
                      "defusing, <1% explosion, 35% Sherlock (cuts next)")
    assert first_lines(session_after("time-bomb", 11), "advise")[:3] == [
        "(it is player 1's turn, not yours; this is what you would do now: in player 1's place, as a Sherlock)",
        "Advice (sherlock): cover yellow: yellow is the most dangerous colour (1 cut, explodes at 4)",
        "What to claim: 0 defusing cards (tell the truth: the other Sherlocks can then cut your defusing cards)",
    ]


def test_thirteen_clues_advice_says_the_entries_have_no_turn_order() -> None:
    lines = first_lines(session_after("thirteen-clues", 12), "advise")
    assert lines[0] == "(the entries do not say whose turn it is; this is what you would do now, on your turn)"
    assert lines[1].startswith("Advice, best first: 1= | consult B | 0.31 | leaves 14.9 of 18 possible mysteries")
