"""The Evidence rules engine's checks of each public event (:class:`models.evidence.rules.Table`), with exact
messages and exact state: a refused event names what is wrong and changes nothing, an accepted one changes
exactly what the rulebook says. Mutation testing (``python bench/mutation.py models/evidence/rules.py``) found
the cases these pin down."""

from __future__ import annotations

from collections import Counter

import pytest

from models.evidence.data import COLOURS
from models.evidence.observations import Done, PlayRumour, Take, Uncover
from models.evidence.rules import Table
from solver.errors import IllegalActionError
from tests.models.evidence.helpers import game


def table(players: int = 4, pro: bool = False) -> Table:
    t = Table(players, pro=pro)
    for seat in t.seats:
        t.hands[seat] = Counter({"white": 2, "blue": 1})
    return t


def refused(t: Table, call: object, message: str) -> None:
    """``call()`` raises exactly ``message`` and leaves the table as it was."""
    before = snapshot(t)
    with pytest.raises(IllegalActionError) as info:
        call()  # type: ignore[operator]
    assert str(info.value) == message
    assert snapshot(t) == before


def snapshot(t: Table) -> tuple[object, ...]:
    return (
        {c: list(v) for c, v in t.displays.items()}, dict(t.evidence),
        {c: (s.hot, s.regular) for c, s in t.stacks.items()}, {s: dict(a) for s, a in t.articles.items()},
        {s: sorted(h) for s, h in t.hot.items()}, {s: dict(h) for s, h in t.hands.items()},
        {s: dict(u) for s, u in t.unknown.items()}, sorted(t.timeouts), sorted(t.tools),
        {s: list(u) for s, u in t.used.items()},
    )


def test_a_table_of_an_impossible_size_or_start() -> None:
    for players, start, message in [(1, 1, "players 1: expected 2 to 5"), (6, 1, "players 6: expected 2 to 5"),
                                    (4, 5, "start 5: expected a seat 1 to 4"),
                                    (4, 0, "start 0: expected a seat 1 to 4")]:
        with pytest.raises(IllegalActionError) as info:
            Table(players, start=start)
        assert str(info.value) == message
    t = Table(2, start=2)
    assert t.seat_order() == [2, 1] and Table(5, start=3).seat_order() == [3, 4, 5, 1, 2]
    assert {c: (s.hot, s.regular) for c, s in t.stacks.items()} == dict.fromkeys(COLOURS, (True, 3))
    assert t.timeouts == set(COLOURS) and t.tools == set()


def test_playing_a_rumour() -> None:
    t = table()
    assert t.play(2, "white", 3) is False
    assert t.displays["white"] == [3] and t.hands[2]["white"] == 1
    refused(t, lambda: t.play(5, "white", 1), "'play 5 white 1': seat 5 does not exist (expected 1 to 4)")
    refused(t, lambda: t.play(0, "white", 1), "'play 0 white 1': seat 0 does not exist (expected 1 to 4)")
    refused(t, lambda: t.play(2, "pink", 1), "'play 2 pink 1': player 2 holds no pink rumour")
    refused(t, lambda: t.play(2, "white", 7), "'play 2 white 7': white rumours have the values -1, 0, 1, 2, 3, 4")
    refused(t, lambda: t.play(3, "white", 3), "'play 3 white 3': every white 3 is already on the table")
    t.play(2, "white", 2)
    refused(t, lambda: t.play(2, "white", 1), "'play 2 white 1': player 2 holds no white rumour")


def test_the_fifth_rumour_of_a_mystery_uncovers_its_evidence() -> None:
    t = Table(4)
    for seat in t.seats:
        t.hands[seat] = Counter({"white": 3})
    plays = [(1, -1), (2, 0), (3, 1), (4, 2)]
    assert [t.play(seat, "white", v) for seat, v in plays] == [False] * 4
    assert t.play(1, "white", 3) is True  # the 5th: the evidence must now be uncovered
    t.show_evidence("white", 4)
    assert t.evidence["white"] == 4
    t.show_evidence("white", 4)  # told again with the same value: nothing changes
    refused(t, lambda: t.show_evidence("white", 2), "'evidence white 2': the white evidence is already uncovered: 4")
    refused(t, lambda: t.show_evidence("blue", 9), "'evidence blue 9': blue rumours have the values -1, 0, 1, 2, 3, 4")


def test_the_evidence_cannot_repeat_a_rumour_already_on_the_table() -> None:
    t = Table(4)
    t.hands[1] = Counter({"pink": 1})
    t.play(1, "pink", 0)
    refused(t, lambda: t.show_evidence("pink", 0), "'evidence pink 0': every pink 0 is already on the table")


def test_revealing_an_unknown_rumour() -> None:
    t = Table(2)
    t.unknown[1] = Counter({"green": 1})
    refused(t, lambda: t.reveal(3, "green", 1), "'reveal 3 green 1': seat 3 does not exist (expected 1 to 2)")
    refused(t, lambda: t.reveal(2, "green", 1), "'reveal 2 green 1': player 2 has no unknown green rumour left")
    refused(t, lambda: t.reveal(1, "green", 5), "'reveal 1 green 5': green rumours have the values -1, 0, 1, 2, 3, 4")
    assert t.reveal(1, "green", 1) is False
    assert t.unknown[1]["green"] == 0 and t.displays["green"] == [1]
    refused(t, lambda: t.reveal(1, "green", 2), "'reveal 1 green 2': player 1 has no unknown green rumour left")
    four = Table(4)
    four.unknown[1] = Counter({"green": 1})
    refused(four, lambda: four.reveal(1, "green", 1), "'reveal 1 green 1': unknown rumours are only in two-player "
                                                       "games")


def test_setup_rumours() -> None:
    t = Table(3)  # 2 rumours of each mystery revealed at setup
    t.setup_rumour("blue", 1)
    t.setup_rumour("blue", 2)
    assert t.displays["blue"] == [1, 2]
    refused(t, lambda: t.setup_rumour("blue", 3), "'setup blue 3': 2 blue rumour(s) are revealed at setup")
    refused(t, lambda: t.setup_rumour("pink", 9), "'setup pink 9': pink rumours have the values -1, 0, 1, 2, 3, 4")


def test_searching_takes_the_hot_card_first_then_regular_ones() -> None:
    t = Table(4)  # 5 regular search cards of each colour besides the hot one
    t.search(1, ("white", "white", "blue"))
    assert t.stacks["white"].hot is False and t.stacks["white"].regular == 4 and t.stacks["white"].size == 4
    assert t.stacks["blue"].hot is False and t.stacks["blue"].regular == 5
    assert t.articles[1] == Counter({"white": 2, "blue": 1}) and t.hot[1] == {"white", "blue"}
    t.search(2, ("white",))
    assert t.hot[2] == set() and t.stacks["white"].regular == 3
    refused(t, lambda: t.search(5, ("white",)), "'search 5 white': seat 5 does not exist (expected 1 to 4)")


def test_the_card_limit_counts_search_cards_and_rumours_in_hand() -> None:
    t = Table(4)
    t.hands[1] = Counter({"pink": 3})
    t.search(1, ("white", "blue", "yellow"))
    assert t.held(1) == 6 and t.room(1) == 0 and t.limit(1) == 6
    refused(t, lambda: t.search(1, ("green",)), "'search 1 green': player 1 would exceed the card limit of 6 "
                                                "(search cards plus rumours in hand)")
    t.unknown[1] = Counter({"brown": 4})  # unknown rumours do not count
    assert t.held(1) == 6


def test_an_empty_stack() -> None:
    t = Table(2)  # 3 regular cards and the hot one
    for seat in (1, 2, 1, 2):
        t.search(seat, ("brown",))
    assert t.available("brown") == 0
    refused(t, lambda: t.search(2, ("brown",)), "'search 2 brown': no brown search card is left")


def test_a_time_out_exchanges_every_search_card_of_a_colour() -> None:
    t = Table(4)
    t.search(1, ("white", "white"))  # the hot white and a regular one
    t.timeout(1, "white", ("blue", "pink"))
    assert t.articles[1] == Counter({"blue": 1, "pink": 1})
    assert t.stacks["white"].hot is True and t.stacks["white"].regular == 5  # both went back, the hot one too
    assert t.hot[1] == {"blue", "pink"} and t.timeouts == set(COLOURS) - {"white"}
    assert [str(u) for u in t.used[1]] == ["timeout 1 white for blue pink"]
    refused(t, lambda: t.timeout(2, "white", ("pink",)),
            "'timeout 2 white for pink': the white time-out has already been used")
    t2 = Table(3)  # one time-out per player with 3 or more players
    t2.search(1, ("green",))
    t2.search(1, ("blue",))
    t2.timeout(1, "green", ("yellow",))
    refused(t2, lambda: t2.timeout(1, "blue", ("pink",)), "'timeout 1 blue for pink': player 1 has already used 1 "
                                                           "time-out(s) this game")


def test_time_out_checks() -> None:
    t = Table(4)
    t.search(1, ("white", "white"))
    t.search(2, ("blue",))  # the hot blue
    refused(t, lambda: t.timeout(1, "pink", ("blue",)),
            "'timeout 1 pink for blue': player 1 has no pink search card to "
                                                          "exchange")
    refused(t, lambda: t.timeout(1, "white", ("blue",)),
            "'timeout 1 white for blue': all 2 white search card(s) must be "
                                                           "replaced by 2 others")
    refused(t, lambda: t.timeout(1, "white", ("white", "blue")),
            "'timeout 1 white for white blue': you may not take back "
                                                                   "white search cards")
    t.search(3, ("blue",) * 4)
    refused(t, lambda: t.timeout(1, "white", ("blue",) * 2),
            "'timeout 1 white for blue blue': only 1 blue search card(s) "
                                                              "are available")
    refused(t, lambda: t.timeout(9, "white", ("pink",)),
            "'timeout 9 white for pink': seat 9 does not exist (expected 1 "
                                                          "to 4)")
    pro = Table(4, pro=True)
    refused(pro, lambda: pro.timeout(1, "white", ("pink",)),
            "'timeout 1 white for pink': the professional tools replace the "
                                                      "time-outs (use 'tool ... timeout')")


def test_professional_tools() -> None:
    basic = Table(4)
    refused(basic, lambda: basic.use_tool(1, "plane"), "'tool 1 plane': professional tools are only in the pro "
                                                       "variant ('variant pro')")
    t = Table(4, pro=True)
    refused(t, lambda: t.use_tool(7, "plane"), "'tool 7 plane': seat 7 does not exist (expected 1 to 4)")
    refused(t, lambda: t.use_tool(1, "fortune"), "'tool 1 fortune': the Fortune-Teller needs a mystery colour")
    refused(t, lambda: t.use_tool(1, "balloon"), "'tool 1 balloon': the Balloon Ride needs a mystery colour")
    t.use_tool(1, "plane")
    assert t.tools == {"telescope", "fortune", "timeout", "balloon", "typewriter"}
    assert t.extras_used(1) == 1 and t.tools_of(1) == ["plane"] and not t.can_extra(1)
    refused(t, lambda: t.use_tool(2, "plane"), "'tool 2 plane': the Plane Tickets has already been used")
    refused(t, lambda: t.use_tool(1, "telescope"), "'tool 1 telescope': player 1 has already used 1 professional "
                                                   "tool(s) this game")
    t.evidence["pink"] = 2
    refused(t, lambda: t.use_tool(2, "fortune", "pink"),
            "'tool 2 fortune pink': the pink evidence is already uncovered")
    t.use_tool(2, "fortune", "blue")
    assert t.tools_of(2) == ["fortune"]


def test_the_balloon_ride_raises_the_card_limit_by_one() -> None:
    t = Table(4, pro=True)
    t.hands[1] = Counter({"pink": 2})
    t.search(1, ("white", "blue", "yellow", "green"))
    assert t.room(1) == 0
    t.use_tool(1, "balloon", "brown")
    assert t.articles[1]["brown"] == 1 and t.limit(1) == 7 and t.held(1) == 7 and t.room(1) == 0
    t2 = Table(4, pro=True)
    t2.hands[1] = Counter({"pink": 3})
    t2.search(1, ("white", "blue", "yellow"))
    t2.articles[1]["green"] += 1  # 7 cards already: even the ride's extra card does not fit
    refused(t2, lambda: t2.use_tool(1, "balloon", "brown"), "'tool 1 balloon brown': player 1 would exceed the card "
                                                            "limit of 7 (search cards plus rumours in hand)")


def test_the_professional_time_out() -> None:
    t = Table(4, pro=True)
    t.search(1, ("white",))
    refused(t, lambda: t.use_tool(1, "timeout", "white", ("white",)), "'tool 1 timeout white for white': you may not "
                                                                       "take back white search cards")
    t.use_tool(1, "timeout", "white", ("blue",))
    assert t.articles[1] == Counter({"blue": 1}) and t.stacks["white"].hot is True and "timeout" not in t.tools


def test_every_refused_event_leaves_a_random_table_unchanged() -> None:
    """A sweep: every event on a table mid-game is either applied or refused, and a refusal changes nothing."""
    t = Table(3)
    for seat in t.seats:
        t.hands[seat] = Counter({"white": 1, "blue": 1})
    t.search(1, ("white", "white", "white"))
    t.play(2, "white", 4)
    for seat in (0, 1, 2, 3, 4):
        for colour in COLOURS[:3]:
            for value in (-1, 4, 5):
                clone = t.clone()
                try:
                    clone.play(seat, colour, value)
                except IllegalActionError:
                    assert snapshot(clone) == snapshot(t)
    assert snapshot(t.clone()) == snapshot(t)


def test_an_action_out_of_its_phase_names_what_is_expected_now() -> None:
    st = game(7, 4)
    refused_action(st, Done(), "'done': now play a rumour first ('play COLOUR VALUE')")
    st.apply(st.legal_actions()[0])
    refused_action(st, PlayRumour("white", 1), "'play white 1': now search ('take COLOUR') or 'done'")
    st.apply(next(a for a in st.legal_actions() if isinstance(a, Done)))
    refused_action(st, Take("white"), "'take white': now play a rumour first ('play COLOUR VALUE')")
    two = game(7, 2)
    refused_action(two, Done(), "'done': now uncover one of your unknown rumours first ('uncover COLOUR')")
    seat = two.current
    empty = next(c for c in COLOURS if not two.table.unknown[seat][c])
    refused_action(two, Uncover(empty), f"'uncover {empty}': player {seat} has no unknown {empty} rumour left")


def refused_action(st: object, action: object, message: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        st.check(action)  # type: ignore[attr-defined]
    assert str(info.value) == message


def test_two_players_have_two_time_outs_each() -> None:
    t = Table(2)
    for colour in ("white", "blue", "yellow"):
        t.search(1, (colour,))
    t.timeout(1, "white", ("pink",))
    t.timeout(1, "blue", ("green",))
    refused(t, lambda: t.timeout(1, "yellow", ("brown",)),
            "'timeout 1 yellow for brown': player 1 has already used 2 time-out(s) this game")


def test_the_professional_time_out_needs_a_colour() -> None:
    t = Table(4, pro=True)
    refused(t, lambda: t.use_tool(1, "timeout", None, ("pink",)),
            "'tool 1 timeout for pink': the Take a Time-Out needs a mystery colour")
