"""Evidence rules engine: setup, every action, the end, scoring (the rulebook's examples), the tools."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from models.evidence.data import COLOURS, DEFAULT_DATA, SEARCH_CARDS, SETUP_REVEALED, GameData
from models.evidence.observations import (
    Done,
    EvidenceShown,
    Hand,
    Holds,
    Look,
    Play,
    PlayRumour,
    Reveal,
    Search,
    Take,
    ToolUsed,
    Uncover,
    Unknown,
    UseTimeOut,
    UseTool,
    parse,
)
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER, Table, new_game, score_cards
from solver.errors import AssistantError, IllegalActionError
from tests.models.evidence.helpers import colour_counts, game, random_playout

# -- setup ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_by_player_count(players: int) -> None:
    st = game(7, players)
    t = st.table
    for colour in COLOURS:
        assert t.stacks[colour].hot and t.stacks[colour].regular == SEARCH_CARDS[players]
        assert len(t.displays[colour]) == SETUP_REVEALED[players]
        in_hands = sum(1 for h in st.hands.values() for c, _ in h if c == colour)
        in_piles = sum(1 for u in st.unknown.values() for c, _ in u if c == colour)
        # every rumour is somewhere: the evidence, the display, a hand or an unknown pile
        assert 1 + len(t.displays[colour]) + in_hands + in_piles == 6
        values = [st.evidence[colour], *t.displays[colour]]
        values += [v for h in [*st.hands.values(), *st.unknown.values()] for c, v in h if c == colour]
        assert sorted(values) == list(DEFAULT_DATA.values[colour])
    assert all(len(h) == 6 for h in st.hands.values())
    assert all(len(u) == 6 for u in st.unknown.values()) and (len(st.unknown) == 2) == (players == 2)
    assert st.phase == (UNCOVER if players == 2 else PLAY)


def test_each_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    st = game(3, 4)
    for seat in range(1, 5):
        lines = st.take_observations(seat)
        hands = [e for e in lines if isinstance(e, Hand)]
        assert hands == [Hand(tuple(st.initial_hands[seat]))]
        holds = {e.seat: dict(e.counts) for e in lines if isinstance(e, Holds)}
        assert set(holds) == {1, 2, 3, 4} - {seat}
        for other, counts in holds.items():
            assert counts == dict(colour_counts(list(st.initial_hands[other])))
        assert all(parse(str(e)) == e for e in lines)


def test_two_players_see_both_unknown_piles_by_back_colour() -> None:
    st = game(5, 2)
    lines = st.take_observations(1)
    piles = {e.seat: dict(e.counts) for e in lines if isinstance(e, Unknown)}
    assert piles == {s: dict(colour_counts(list(st.initial_unknown[s]))) for s in (1, 2)}


def test_rumour_values_are_data_any_multiset() -> None:
    data = GameData({**DEFAULT_DATA.values, "blue": (0, 0, 2, 2, 2, 5)})
    st = new_game(random.Random(1), 4, data=data)
    blue = [st.evidence["blue"], *st.table.displays["blue"]]
    blue += [v for h in st.hands.values() for c, v in h if c == "blue"]
    assert sorted(blue) == [0, 0, 2, 2, 2, 5]
    assert "values blue 0 0 2 2 2 5" in [str(e) for e in st.take_observations(1)]
    with pytest.raises(ValueError, match="expected 6 values"):
        GameData({**DEFAULT_DATA.values, "blue": (1, 2, 3)})


# -- a turn ----------------------------------------------------------------------------------------------------


def test_play_is_mandatory_and_first() -> None:
    st = game(1, 4)
    seat = st.current_player()
    assert all(isinstance(a, PlayRumour) for a in st.legal_actions())
    with pytest.raises(IllegalActionError, match="play a rumour first"):
        st.apply(Take("blue"))
    with pytest.raises(IllegalActionError, match="holds no"):
        missing = next((c, v) for c in COLOURS for v in range(-1, 5) if (c, v) not in st.hands[seat])
        st.apply(PlayRumour(*missing))
    card = st.hands[seat][0]
    st.apply(PlayRumour(*card))
    assert card not in st.hands[seat] or st.hands[seat].count(card) < st.initial_hands[seat].count(card)
    assert st.phase == SEARCH
    assert all(Play(seat, *card) in st.queues[s] for s in range(1, 5))


def test_two_players_uncover_an_unknown_rumour_before_playing() -> None:
    st = game(2, 2)
    seat = st.current_player()
    assert st.phase == UNCOVER
    assert {a.colour for a in st.legal_actions()} == {c for c, _ in st.unknown[seat]}
    with pytest.raises(IllegalActionError, match="uncover"):
        st.apply(PlayRumour(*st.hands[seat][0]))
    colour = st.unknown[seat][0][0]
    before = list(st.unknown[seat])
    st.apply(Uncover(colour))
    revealed = next(o for o in st.queues[1] if isinstance(o, Reveal))
    assert revealed.seat == seat and revealed.colour == colour
    assert Counter(before) - Counter(st.unknown[seat]) == Counter([(colour, revealed.value)])
    assert st.phase == PLAY


def test_evidence_uncovered_at_the_fifth_revealed_rumour() -> None:
    rng = random.Random(4)
    for seed in range(30):
        st = game(seed, rng.choice([2, 3, 4, 5]))
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            for colour in COLOURS:
                n = len(st.table.displays[colour])
                shown = st.table.evidence[colour]
                if n >= 5:
                    assert shown == st.evidence[colour]
                    assert EvidenceShown(colour, shown) in st.queues[1] or st.queues[1] == []
                elif not st.is_terminal():
                    assert shown is None


def test_card_limit_louis_example() -> None:
    """Rulebook: Louis has 3 rumours and 1 search card; after playing one he may take up to 3."""
    t = Table(4)
    t.hands[1] = Counter({"blue": 2, "white": 1})
    t.displays["blue"] = [3]
    t.search(1, ("green",))
    t.play(1, "blue", 0)
    t.search(1, ("pink", "yellow", "yellow"))
    assert t.held(1) == 6
    with pytest.raises(IllegalActionError, match="card limit of 6"):
        t.search(1, ("brown",))


def test_hot_lead_is_taken_first_and_returned_on_top() -> None:
    t = Table(4)
    t.hands[1] = Counter()
    t.search(1, ("blue", "blue"))
    assert t.hot[1] == {"blue"} and t.articles[1]["blue"] == 2
    assert t.stacks["blue"].hot is False and t.stacks["blue"].regular == SEARCH_CARDS[4] - 1
    t.search(2, ("blue",))
    assert t.hot[2] == set()
    t.timeout(1, "blue", ("green", "green"))
    assert t.stacks["blue"].hot and t.stacks["blue"].regular == SEARCH_CARDS[4] - 1
    assert t.hot[1] == {"green"} and t.articles[1] == Counter({"green": 2})


def test_timeout_meghan_example() -> None:
    """Rulebook: Meghan returns her 3 blue search cards and takes a green, a yellow and a white one."""
    t = Table(4)
    t.search(3, ("blue", "blue", "blue", "green"))
    t.timeout(3, "blue", ("green", "yellow", "white"))
    assert t.articles[3] == Counter({"green": 2, "yellow": 1, "white": 1})
    assert "blue" not in t.timeouts
    assert t.stacks["blue"].size == SEARCH_CARDS[4] + 1


def test_timeout_rules() -> None:
    t = Table(4)
    t.search(1, ("blue", "pink"))
    with pytest.raises(IllegalActionError, match="take back"):
        t.timeout(1, "blue", ("blue",))
    with pytest.raises(IllegalActionError, match="replaced by 1"):
        t.timeout(1, "blue", ("green", "green"))
    with pytest.raises(IllegalActionError, match="no white"):
        t.timeout(1, "white", ("green",))
    t.timeout(1, "blue", ("green",))
    with pytest.raises(IllegalActionError, match="already used 1"):
        t.timeout(1, "pink", ("green",))
    t.search(2, ("blue",))
    with pytest.raises(IllegalActionError, match="blue time-out has already been used"):
        t.timeout(2, "blue", ("green",))
    t.search(4, ("yellow",) * 6)
    t.search(2, ("pink",))
    with pytest.raises(IllegalActionError, match="only 0 yellow"):
        t.timeout(2, "pink", ("yellow",))


def test_two_players_may_take_two_timeouts_one_per_turn() -> None:
    st = game(11, 2)
    seat = st.current_player()
    used = 0
    for _ in range(6 * 2):
        if st.is_terminal():
            break
        mover = st.current_player()
        st.apply(st.legal_actions()[0])  # uncover
        st.apply(st.legal_actions()[0])  # play
        if mover == seat:
            while st.phase == SEARCH:
                takes = [a for a in st.legal_actions() if isinstance(a, Take)]
                st.apply(takes[0] if takes else Done())
            if st.phase == EXTRA and st.current_player() == seat:
                outs = [a for a in st.legal_actions() if isinstance(a, UseTimeOut)]
                if outs and used < 2:
                    st.apply(outs[0])
                    used += 1
                    assert st.current_player() != seat  # one time-out per turn: it ends the turn
                elif st.phase == EXTRA:
                    st.apply(Done())
        else:
            while not st.is_terminal() and st.current_player() == mover:
                st.apply(Done())
    assert used == 2
    assert st.table.extras_used(seat) == 2 and not st.table.can_extra(seat)


def test_game_ends_after_round_six() -> None:
    for players in (2, 3, 4, 5):
        st = game(21, players)
        random_playout(st, random.Random(players))
        assert st.is_terminal() and st.round == 7
        assert all(st.stats[s]["turns"] == 6 for s in st.table.seats)
        assert all(not h for h in st.hands.values()) and all(not u for u in st.unknown.values())
        assert st.table.evidence == st.evidence
        assert st.legal_actions() == []
        for s in st.table.seats:
            assert st.table.held(s) <= st.table.limit(s)
            assert st.stats[s]["score"] == st.table.score(s, st.evidence)


def test_illegal_action_leaves_state_unchanged() -> None:
    st = game(8, 4)
    st.apply(st.legal_actions()[0])
    before = (st.phase, st.current_player(), st.table.clone().articles)
    for bad in (PlayRumour("blue", 9), UseTool("telescope"), Uncover("blue")):
        with pytest.raises(AssistantError):
            st.apply(bad)
    assert (st.phase, st.current_player(), st.table.articles) == before


# -- scoring ---------------------------------------------------------------------------------------------------


def test_scoring_david_example() -> None:
    """Rulebook: 3 white (Hot Lead) at Yeti 2 = 7, 2 blue at 1 = 2, yellow Hot Lead at 0 = 1: 10 points."""
    evidence = {"white": 2, "blue": 1, "yellow": 0, "pink": 4, "green": 4, "brown": 4}
    articles = {"white": 3, "blue": 2, "yellow": 1}
    assert score_cards(articles, {"white", "yellow"}, [], evidence) == 10


def test_scoring_lucy_typewriter_example() -> None:
    """Rulebook: 2 blue (one the Hot Lead) at 3 with the Typewriter: 3 + (3+1) + 3 - 1 = 9."""
    evidence = dict.fromkeys(COLOURS, 0) | {"blue": 3}
    assert score_cards({"blue": 2}, {"blue"}, ["typewriter"], evidence) == 9


def test_hot_lead_counts_even_at_zero_or_below() -> None:
    evidence = dict.fromkeys(COLOURS, -1)
    assert score_cards({"pink": 1}, {"pink"}, [], evidence) == 0  # -1 + 1
    assert score_cards({"pink": 1}, {"pink"}, ["telescope"], evidence) == 1  # -1 + 2


def test_tool_scoring() -> None:
    evidence = dict.fromkeys(COLOURS, 1) | {"blue": 4, "green": -1}
    arts = {"blue": 4, "green": 2, "white": 1}
    assert score_cards(arts, set(), ["plane"], evidence) == 16 - 2 + 1 + 2  # +1 for blue and green only
    assert score_cards(arts, set(), ["fortune"], evidence) == 15 + 1
    assert score_cards(arts, set(), ["typewriter"], evidence) == 15 + 4 - 1  # copies the best: blue
    assert score_cards({}, set(), ["typewriter"], evidence) == -1


def test_tie_breakers() -> None:
    t = Table(3)
    evidence = dict.fromkeys(COLOURS, 1)
    t.search(1, ("blue", "blue"))  # Hot Lead: 3 points, 1 colour
    t.search(2, ("green", "white"))  # Hot Leads: 4 points
    t.search(3, ("pink", "yellow"))  # Hot Leads: 4 points, 2 colours, 1 max
    assert t.winners(evidence) == [2, 3]  # tied on points, colours and most in one colour: shared
    t.search(3, ("pink",))
    assert t.winners(evidence) == [3]
    u = Table(2)
    u.search(1, ("blue", "blue", "green"))  # 2 HL + 3 = 5, 2 colours, 2 in blue
    u.search(2, ("white", "pink", "pink"))  # 2 HL + 3 = 5, 2 colours, 2 in pink
    assert u.winners(evidence) == [1, 2]
    u.stacks["brown"].hot = False
    u.search(1, ("brown",))
    u.search(2, ("yellow",))
    assert u.winners(evidence) == [2]  # 7 vs 6 points


# -- professional tools ----------------------------------------------------------------------------------------


def _to_extra(st) -> int:  # noqa: ANN001
    seat = st.current_player()
    if st.phase == UNCOVER:
        st.apply(st.legal_actions()[0])
    st.apply(st.legal_actions()[0])
    take = [a for a in st.legal_actions() if isinstance(a, Take)]
    if take:
        st.apply(take[0])
    if st.phase == SEARCH:
        st.apply(Done())
    return seat


def test_fortune_teller_value_is_private() -> None:
    st = game(5, 4, pro=True)
    seat = _to_extra(st)
    for s in range(1, 5):
        st.take_observations(s)
    st.apply(UseTool("fortune", "green"))
    mine = st.take_observations(seat)
    assert mine == [ToolUsed(seat, "fortune", "green"), Look("green", st.evidence["green"])]
    other = seat % 4 + 1
    assert st.take_observations(other) == [ToolUsed(seat, "fortune", "green")]
    assert "fortune" not in st.table.tools


def test_balloon_ride_raises_the_limit_to_seven() -> None:
    t = Table(4, pro=True)
    t.search(1, ("blue",) * 6)
    with pytest.raises(IllegalActionError, match="card limit"):
        t.search(1, ("green",))
    t.use_tool(1, "balloon", "green")
    assert t.limit(1) == 7 and t.held(1) == 7
    with pytest.raises(IllegalActionError, match="Balloon Ride has already been used"):
        t.use_tool(2, "balloon", "green")


def test_one_tool_per_player_and_timeout_tool() -> None:
    t = Table(3, pro=True)
    t.search(1, ("blue",))
    with pytest.raises(IllegalActionError, match="pro variant|replace the time-outs"):
        t.timeout(1, "blue", ("green",))
    t.use_tool(1, "timeout", "blue", ("green",))
    assert t.articles[1] == Counter({"green": 1})
    with pytest.raises(IllegalActionError, match="already used 1 professional tool"):
        t.use_tool(1, "telescope")
    t.show_evidence("white", 2)
    with pytest.raises(IllegalActionError, match="already uncovered"):
        t.use_tool(2, "fortune", "white")
    basic = Table(3)
    with pytest.raises(IllegalActionError, match="only in the pro variant"):
        basic.use_tool(1, "telescope")


def test_pro_games_end_and_score_with_tools() -> None:
    rng = random.Random(9)
    seen_tools = Counter()
    for seed in range(40):
        st = game(seed, rng.choice([2, 3, 4, 5]), pro=True)
        random_playout(st, rng)
        for s in st.table.seats:
            tools = st.table.tools_of(s)
            seen_tools.update(tools)
            assert st.stats[s]["score"] == score_cards(st.table.articles[s], st.table.hot[s], tools, st.evidence)
            assert len(tools) <= (2 if st.num_players == 2 else 1)
    assert set(seen_tools) == {"plane", "telescope", "fortune", "timeout", "balloon", "typewriter"}


def test_search_observations_are_public() -> None:
    st = game(12, 3)
    seat = _to_extra(st)
    for s in range(1, 4):
        assert any(isinstance(o, Search) and o.seat == seat for o in st.queues[s])
