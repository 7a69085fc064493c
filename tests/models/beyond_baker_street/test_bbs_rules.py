"""Rules engine: every action, the Impossible, reshuffles, the deck running out, and every end condition
(rulebook "Playing the Game", "The Impossible", "Game End"; RULES-NOTES "Beyond Baker Street")."""

from __future__ import annotations

import random

import pytest
from bbs_helpers import E, L, table

from models.beyond_baker_street.data import Evidence, Lead
from models.beyond_baker_street.observations import (
    Assist,
    Assisted,
    Confirm,
    Drew,
    Eliminate,
    Hand,
    Investigate,
    LeadRevealed,
    Pursue,
)
from models.beyond_baker_street.rules import LOST, WON, TableRules, new_game
from solver.errors import AssistantError, IllegalActionError

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}


def three(**kw: object) -> object:
    return table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}, top="3D 4D 5D 6D", leads=LEADS3, **kw)


def test_setup_observations_hide_own_hand() -> None:
    st = three()
    obs = st.take_observations(2)
    hands = {o.seat for o in obs if isinstance(o, Hand)}
    assert hands == {1, 3}
    assert [o.lead for o in obs if isinstance(o, LeadRevealed)] == [L("7W"), L("9T"), L("11W")]
    assert st.board.holmes == 15 and st.board.deck == 24 - 12


def test_assist_names_every_card_and_costs_holmes() -> None:
    st = three()
    st.apply(Assist(3, "Witness"))
    ev = st.take_observations(2)[-1]
    assert ev == Assisted(1, 3, "Witness", (1, 2, 3, 4))
    assert st.board.holmes == 14 and st.current_player() == 2
    with pytest.raises(IllegalActionError, match="never says none"):
        st.apply(Assist(3, "Clue"))
    with pytest.raises(IllegalActionError, match="Assist yourself"):
        st.apply(Assist(2, 5))


def test_investigate_matching_then_confirm() -> None:
    st = three()
    st.apply(Investigate(1, "Opportunity"))  # 3W on 7W
    assert st.board.leads["Opportunity"].total == 3
    assert st.hands[1] == [E("4W"), E("1T"), E("6C"), E("3D")]  # drawn card at the right end
    obs1 = st.take_observations(1)
    assert obs1[-1] == Drew(1, None)
    assert st.take_observations(2)[-1] == Drew(1, E("3D"))
    st.apply(Assist(1, 4))  # player 2
    st.apply(Assist(1, 1))  # player 3
    st.apply(Investigate(1, "Opportunity"))  # 4W: 7 of 7
    assert st.board.leads["Opportunity"].need == 0
    st.apply(Confirm("Opportunity"))  # player 2
    assert st.board.leads["Opportunity"].confirmed
    assert st.board.holmes == 14  # 15 - 2 assists + 1 confirm
    with pytest.raises(IllegalActionError, match="confirmed"):
        st.apply(Investigate(1, "Opportunity"))
    with pytest.raises(IllegalActionError, match="confirmed"):
        st.apply(Pursue("Opportunity"))


def test_confirm_needs_exact_total_and_caps_holmes() -> None:
    st = three()
    with pytest.raises(IllegalActionError, match="exactly 7"):
        st.apply(Confirm("Opportunity"))
    st = table({1: "1W 6W 1T 6C", 2: "2T 5T 6T 1C", 3: "3W 2W 5W 4W"}, leads=LEADS3)
    st.apply(Investigate(1, "Opportunity"))
    st.apply(Investigate(1, "Suspect"))  # player 2 plays 2T on 11W: mismatch
    st.apply(Investigate(4, "Suspect"))  # 4W on the Suspect
    st.apply(Investigate(1, "Opportunity"))  # player 1: 6W, 7 of 7
    st.apply(Confirm("Opportunity"))
    assert st.board.holmes == 15  # never above 15


def test_mismatch_raises_target() -> None:
    st = three()
    st.apply(Investigate(3, "Opportunity"))  # 1T on 7W
    ls = st.board.leads["Opportunity"]
    assert ls.raised == [E("1T")] and ls.target == 8 and ls.total == 0
    assert st.stats[1]["mismatches"] == 1


def test_dead_lead_reshuffles_and_reveals() -> None:
    st = table({1: "6W 5W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 3W 4W"}, top="3D 4D", leads=LEADS3)
    st.apply(Investigate(1, "Opportunity"))  # 6W
    st.apply(Investigate(4, "Opportunity"))  # 1C raises to 8
    st.apply(Investigate(3, "Opportunity"))  # 3W: 9 > 8, dead
    board = st.board
    ls = board.leads["Opportunity"]
    assert ls.lead == L("8D") and ls.evidence == [] and ls.raised == [] and ls.pile == 1
    assert board.impossible == [L("7W")]
    assert board.deck == 12 - 3 + 3  # three draws, three cards back
    assert sorted(st.deck) == sorted(set(st.deck))
    assert {E("6W"), E("1C"), E("3W")} <= set(st.deck)
    obs = st.take_observations(1)
    assert isinstance(obs[-2], LeadRevealed) and obs[-2].lead == L("8D")
    assert isinstance(obs[-1], Drew) and obs[-1].seat == 3
    assert st.stats[3]["dead_leads"] == 1


def test_dead_lead_on_last_card_loses() -> None:
    st = table({1: "6W 5W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 3W 4W"},
               leads={"Opportunity": "7W", "Motive": "9T", "Suspect": "11W"})
    st.apply(Investigate(1, "Opportunity"))  # 6W
    st.apply(Assist(1, 6))
    st.apply(Investigate(3, "Opportunity"))  # 3W: 9 > 7
    assert st.is_terminal() and st.board.result == LOST and "last Opportunity" in st.board.reason
    assert st.returns() == [0.0, 0.0, 0.0] and st.legal_actions() == []


def test_eliminate_track_and_impossible_limit() -> None:
    st = three(case=5)  # Impossible limit 1, Holmes 9
    st.apply(Eliminate(4))  # 6C
    assert st.board.track == 6 and st.board.holmes == 9
    st.apply(Eliminate(1))  # player 2: 2T, second card in the Impossible
    assert st.board.track == 8 and st.board.holmes == 8


def test_eliminate_past_twenty_loses() -> None:
    st = three()
    st.board.track = 17
    st.apply(Eliminate(2))  # 4W
    assert st.board.result == LOST and "passed 20" in st.board.reason


def test_pursue_returns_evidence_and_reveals() -> None:
    st = three()
    st.apply(Investigate(1, "Suspect"))  # 3W on 11W
    st.apply(Pursue("Suspect"))
    ls = st.board.leads["Suspect"]
    assert ls.lead == L("13D") and ls.evidence == []
    assert E("3W") in st.deck and st.board.impossible == [L("11W")]
    assert st.stats[2]["pursues"] == 1


def test_pursue_last_card_loses() -> None:
    st = table({1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"},
               leads={"Opportunity": "7W", "Motive": "9T", "Suspect": "11W"})
    st.apply(Pursue("Motive"))
    assert st.board.result == LOST and "last Motive" in st.board.reason


def test_holmes_reaching_zero_loses() -> None:
    st = three(case=6)  # Holmes 8
    for _ in range(8):
        assert not st.is_terminal()
        seat = st.current_player()
        st.apply(Assist(seat % 3 + 1, st.hands[seat % 3 + 1][0].number))
    assert st.board.result == LOST and "Holmes" in st.board.reason


def test_impossible_overflow_reaching_zero_loses() -> None:
    st = three(case=6)
    st.board.holmes = 1
    st.board.impossible = [E("1D")]
    st.apply(Eliminate(3))  # a second card with a limit of 1: Holmes to 0
    assert st.board.result == LOST


def test_third_confirm_wins_only_on_twenty() -> None:
    for track, result in ((20, WON), (19, LOST)):
        st = three()
        st.board.track = track
        for section in ("Opportunity", "Motive"):
            st.board.leads[section].confirmed = True
        ls = st.board.leads["Suspect"]
        ls.evidence = [E("5W"), E("6W")]
        st.apply(Confirm("Suspect"))
        assert st.board.result == result, track
        assert st.returns() == ([1.0] * 3 if result == WON else [0.0] * 3)


def test_deck_running_out_means_no_draw() -> None:
    st = three()
    st.deck = [E("3D")]
    st.board.deck = 1
    st.apply(Eliminate(1))
    assert len(st.hands[1]) == 4 and st.board.deck == 0
    st.apply(Eliminate(1))
    assert len(st.hands[2]) == 3 and not st.board.pending
    assert [o for o in st.take_observations(3) if isinstance(o, Drew)] == [Drew(1, E("3D"))]


def test_reshuffle_into_an_empty_deck() -> None:
    st = three()
    st.deck, st.board.deck = [], 0
    st.apply(Investigate(1, "Suspect"))  # 3W on 11W, no draw
    st.apply(Investigate(1, "Suspect"))  # player 2: 2T mismatch
    st.apply(Investigate(4, "Suspect"))  # player 3: 6W
    st.apply(Pursue("Suspect"))
    assert sorted(st.deck) == sorted([E("3W"), E("2T"), E("6W")]) and st.board.deck == 3


def test_player_without_cards_can_assist_confirm_or_pursue() -> None:
    st = table({1: "3W 4W 1T", 2: "2T 5T 6T", 3: "1W 2W 5W", 4: "6W 1D 2D"}, leads=LEADS3)
    st.deck, st.board.deck = [], 0
    st.hands[1] = []
    st.board.hand_counts[1] = 0
    kinds = {type(a) for a in st.legal_actions()}
    assert kinds == {Assist, Pursue}
    with pytest.raises(IllegalActionError, match="no cards"):
        st.apply(Eliminate(1))
    st.apply(Pursue("Opportunity"))
    assert not any(isinstance(a, Assist) and a.target == 1 for a in st.legal_actions())


def test_illegal_actions_leave_state_unchanged() -> None:
    st = three()
    before = st.clone()
    for bad in (Investigate(5, "Suspect"), Eliminate(0), Assist(9, 3), Confirm("Motive")):
        with pytest.raises(IllegalActionError):
            st.apply(bad)
    assert st.hands == before.hands and st.board.turns == 0


def test_table_rules_validation() -> None:
    with pytest.raises(AssistantError, match="players 5"):
        TableRules(5)
    with pytest.raises(AssistantError, match="case 7: expected a Case File 1 to 6"):
        TableRules(3, 7)


def test_clone_is_independent() -> None:
    st = new_game(TableRules(3, 1), random.Random(3))
    other = st.clone()
    seat = st.current_player()
    st.apply(Eliminate(1))
    assert len(other.hands[seat]) == 4 and other.board.track == 0 and other.current_player() == seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_stay_consistent(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        st = new_game(TableRules(players, rng.randint(1, 6)), rng)
        while not st.is_terminal():
            actions = st.legal_actions()
            assert actions
            st.apply(rng.choice(actions))
            cards: list[Evidence | Lead] = [c for h in st.hands.values() for c in h] + st.deck
            cards += [c for c in st.board.impossible if isinstance(c, Evidence)] + st.board.confirmed_cards
            cards += [c for ls in st.board.leads.values() if not ls.confirmed for c in ls.evidence + ls.raised]
            assert len(cards) == 24 and len(set(cards)) == 24
            assert st.board.deck == len(st.deck)
        assert st.board.result in (WON, LOST)
