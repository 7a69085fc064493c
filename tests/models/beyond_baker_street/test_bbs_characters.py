"""Character cards: the data and its JSON overrides, each kind of rule change in the engine, the entries'
round trips, the knowledge of a swap, and the advisor's legal actions (never a forbidden Assist)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bbs_helpers import E, table

from models.beyond_baker_street.advisor import advise, make_bot
from models.beyond_baker_street.data import CHARACTERS, DEFAULT_DATA, load_game_data
from models.beyond_baker_street.knowledge import HandKnowledge
from models.beyond_baker_street.observations import (
    Advance,
    Assist,
    Assisted,
    Confirm,
    DoubleAssist,
    Eliminate,
    Exchange,
    Investigate,
    Keep,
    Peek,
    Place,
    Pursue,
    ReturnCard,
    SwapCards,
    parse,
    parse_action,
)
from models.beyond_baker_street.rules import BakerStreetState, TableRules, new_character_game, parse_characters
from solver.errors import AssistantError, IllegalActionError

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}
HANDS = {1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}


def with_characters(state: BakerStreetState, *names: str) -> BakerStreetState:
    """The same table with these Characters (seat 1 first), told to nobody (rules tests only)."""
    state.board.characters = {s: DEFAULT_DATA.character(n) for s, n in enumerate(names, 1)}
    return state


def follow(st: BakerStreetState, seat: int) -> HandKnowledge:
    """Seat ``seat``'s knowledge of ``st``, told the Characters :func:`with_characters` set."""
    kn = HandKnowledge()
    for o in st.take_observations(seat):
        kn.add(o)
        if str(o).startswith("me "):
            for t, ch in st.board.characters.items():
                kn.add(parse(f"character {t} {ch.name}"))
    return kn


def game(*names: str, top: str = "3D 4D 5D 6D", case: int = 1) -> BakerStreetState:
    return with_characters(table(HANDS, top=top, leads=LEADS3, case=case), *names)


def test_eighteen_characters_with_order_pips_and_confidence() -> None:
    assert len(CHARACTERS) == 18
    assert sorted(c.order for c in CHARACTERS.values()) == list(range(1, 19))
    assert {c.pips for c in CHARACTERS.values()} == {1, 2, 3, 4}
    assert DEFAULT_DATA.character("hudson").name == "Mrs Hudson"
    with pytest.raises(ValueError, match="ambiguous"):
        DEFAULT_DATA.character("lady")


def test_json_overrides_a_characters_numbers(tmp_path: Path) -> None:
    path = tmp_path / "bbs.json"
    path.write_text(json.dumps({"characters": {"Gregson": {"factor": 3}, "Toby": {"uses": 1, "pips": 2}}}))
    data = load_game_data(path)
    assert data.characters["Gregson"].param("factor") == 3
    assert data.characters["Toby"].uses == 1 and data.characters["Toby"].pips == 2
    assert "once per game" in data.characters["Toby"].effect


def test_the_lowest_character_number_starts() -> None:
    st = new_character_game(TableRules(3, 1), ("Toby", "Martin", "Wiggins"), random.Random(1))
    assert st.first_player == 2 and st.current_player() == 2
    kn = HandKnowledge()
    for o in st.take_observations(1):
        kn.add(o)
    assert kn.board is not None and kn.board.characters[2].name == "Martin" and kn.board.current == 2


def test_assist_bans() -> None:
    st = game("Bradstreet", "Martin", "Forrester")
    assert Assist(2, "Track") in st.legal_actions() and not any(
        isinstance(a, Assist) and a.subject == "Document" for a in st.legal_actions())
    with pytest.raises(IllegalActionError, match="Bradstreet, who may not give an Assist naming Document"):
        st.board.check(Assisted(1, 2, "Document", (1,)))
    st.apply(Assist(2, "Track"))
    assert not any(isinstance(a, Assist) and isinstance(a.subject, int) for a in st.legal_actions())  # Martin


def test_lestrade_gregson_and_helen_stoner() -> None:
    st = game("Lestrade", "Gregson", "Helen Stoner", case=5)  # limit 1, +1 with Helen Stoner
    assert st.board.limit == 2
    st.apply(Eliminate(1))  # Lestrade: 3W
    st.apply(Eliminate(1))  # Gregson: 2T counts 4
    assert st.board.track == 3 + 4 and st.board.holmes == 9
    st.apply(Eliminate(1))  # Helen Stoner: 1W is the third card, over the limit of 2
    assert st.board.holmes == 8
    st.apply(Eliminate(1))  # Lestrade again: over the limit, but Holmes stays
    assert st.board.holmes == 8 and len(st.board.impossible) == 4


def test_mary_morstan_confirms_one_short_and_baynes_moves_holmes_two() -> None:
    st = game("Mary Morstan", "Baynes", "Lestrade", top="3D 4D 5D 6D")
    ls = st.board.leads["Motive"]
    ls.evidence.extend([E("3T"), E("5T")])  # 8 of 9
    assert Confirm("Motive") in st.legal_actions()
    holmes = st.board.holmes
    st.apply(Confirm("Motive"))
    assert st.board.leads["Motive"].confirmed and st.board.holmes == min(15, holmes + 1)
    st2 = game("Lestrade", "Baynes", "Mary Morstan")
    st2.board.holmes = 10
    st2.board.leads["Motive"].evidence.extend([E("4T"), E("5T")])
    assert Confirm("Motive") not in [a for a in st2.legal_actions() if st2.board.leads["Motive"].need]
    st2.apply(Eliminate(1))
    st2.apply(Confirm("Motive"))  # Baynes: Holmes +2
    assert st2.board.holmes == 12


def test_irene_adler_once_and_wiggins() -> None:
    st = game("Irene Adler", "Wiggins", "Lestrade")
    holmes = st.board.holmes = 10
    st.apply(Advance())
    assert st.board.holmes == holmes + 1
    st.apply(Pursue("Motive"))  # Wiggins: the Lead stays out of the Impossible
    assert st.board.impossible == []
    st.apply(Eliminate(1))
    assert Advance() not in st.legal_actions()  # once per game
    with pytest.raises(IllegalActionError, match="used that action"):
        st.apply(Advance())


def test_lady_hilda_hope_two_assists_one_holmes() -> None:
    st = game("Lady Hilda Hope", "Lestrade", "Gregson")
    holmes = st.board.holmes
    st.apply(parse_action("assist 2 Track and 3 Witness"))
    assert st.board.holmes == holmes - 1 and st.board.current == 2
    kn = follow(st, 2)
    assert str(kn.entries[-1]) == "assist 1 2 Track at 1 2 3 and 3 Witness at 1 2 3 4"


def test_baskerville_exchange_and_mrs_hudson_return() -> None:
    st = game("Sir Henry Baskerville", "Mrs Hudson", "Lestrade")
    st.apply(Eliminate(4))  # 6C to the Impossible: track 6
    st.apply(Investigate(1, "Motive"))  # 2T on 9T
    st.apply(Eliminate(1))
    assert Exchange(E("6C"), E("2T")) in st.legal_actions()
    st.apply(Exchange(E("6C"), E("2T")))  # 6C raises the Motive Lead; 2T in the Impossible
    assert st.board.track == 6 + 1 - 6 + 2 and E("6C") in st.board.leads["Motive"].raised
    assert E("2T") in st.board.impossible
    deck = st.board.deck
    st.apply(ReturnCard(E("2T")))  # Mrs Hudson
    assert E("2T") not in st.board.impossible and st.board.deck == deck + 1 and E("2T") in st.deck


def test_langdale_pike_swap_is_known_to_both() -> None:
    st = game("Langdale Pike", "Lestrade", "Gregson")
    st.apply(SwapCards(2, 3, 1))  # my 4W for player 3's 1W
    assert st.hands[1][1] == E("1W") and st.hands[3][0] == E("4W")
    kn, kn1 = follow(st, 3), follow(st, 1)
    assert str(kn1.entries[-1]) == "swap 1 2 3 1 4W 1W"
    assert kn1.hand()[1] == {E("1W"): 1.0}  # Pike knows the card he took
    assert kn.hand()[0] == {E("4W"): 1.0}  # and player 3 the card they got
    assert SwapCards(1, 2, 1) not in st.legal_actions()


def test_toby_peeks_and_eva_draws_two() -> None:
    st = game("Toby", "Lady Eva Blackwell", "Lestrade")
    st.apply(Peek())
    assert st.current_player() == 1 and st.legal_actions() == [Place(False), Place(True)]
    st.apply(Place(True))  # 3D to the bottom
    assert st.deck[0] == E("3D") and st.board.bottom == 1 and st.current_player() == 2
    st.apply(Eliminate(1))  # Eva draws 4D and 5D; player 1 (on her right) chooses
    assert st.current_player() == 1 and set(st.legal_actions()) == {Keep(E("4D")), Keep(E("5D"))}
    st.apply(Keep(E("5D")))
    assert st.hands[2][-1] == E("5D") and st.deck[0] == E("4D") and st.current_player() == 3
    seen = [str(o) for o in st.take_observations(1)]
    assert "peek 1 3D bottom" in seen and "bury 1 4D" in seen
    others = [str(o) for o in st.take_observations(3)]
    assert "peek 1 bottom" in others and "bury 1" in others and "draw 2 5D" in others


@pytest.mark.parametrize("line", [
    "character 2 Irene Adler", "advance 1", "assist 1 2 Clue at 1 3 and 3 4 at 2", "exchange 1 3W 5C",
    "swap 1 2 3 4 5C 2W", "return 1 3W", "peek 1 3W top", "peek 2 bottom", "bury 3", "bury 3 4D",
])
def test_entries_round_trip(line: str) -> None:
    assert str(parse(line)) == line


@pytest.mark.parametrize("line", ["advance", "assist 2 Clue and 3 4", "exchange 3W 5C", "swap 1 2 3", "return 3W",
                                  "peek", "place top", "place bottom", "keep 4D"])
def test_actions_round_trip(line: str) -> None:
    assert str(parse_action(line)) == line


def test_bad_character_lines_are_refused() -> None:
    with pytest.raises(AssistantError):
        parse("peek 1 3W sideways")
    with pytest.raises(AssistantError, match="expected 3"):
        parse_characters("Toby,Martin", 3)
    with pytest.raises(AssistantError, match="once"):
        parse_characters("Toby,toby,Martin", 3)
    kn = HandKnowledge()
    kn.add(parse("players 3"))
    with pytest.raises(AssistantError, match="not a Character"):
        kn.add(parse("character 2 Moriarty"))
    assert kn.setup.characters == {}


@pytest.mark.parametrize("name", ["Bradstreet", "Hopkins", "Jones", "Forrester", "Martin"])
def test_the_advisor_never_suggests_a_forbidden_assist(name: str) -> None:
    for seed in range(3):
        st = new_character_game(TableRules(3, 3), (name, None, None), random.Random(seed))
        bots = {s: make_bot("advisor", s, random.Random(s)) for s in st.seats}
        ch = DEFAULT_DATA.character(name)
        for _ in range(40):
            for s in st.seats:
                for o in st.take_observations(s):
                    bots[s].inform(o)
            if st.is_terminal():
                break
            seat = st.current_player()
            assert seat is not None
            if seat == 1 and not st.offer and not st.peeked:
                for a in advise(bots[1].hand):
                    if isinstance(a.action, Assist | DoubleAssist):
                        parts = [a.action] if isinstance(a.action, Assist) else [a.action.first, a.action.second]
                        for p in parts:
                            banned = ch.param("subject")
                            assert not (isinstance(p.subject, int) if banned == "number" else p.subject == banned)
            st.apply(bots[seat].step(st.view(seat)))


def test_every_character_action_is_ranked_with_a_reason() -> None:
    st = game("Sir Henry Baskerville", "Langdale Pike", "Irene Adler")
    st.apply(Eliminate(4))
    st.apply(Investigate(1, "Motive"))
    st.apply(Eliminate(1))
    kn = follow(st, 3)
    kinds = {type(a.action).__name__: a.reason for a in advise(kn)}
    assert "Advance" in kinds and "Holmes" in kinds["Advance"]


def test_the_hat_is_off_with_martin_and_on_with_an_icon_ban() -> None:
    from models.beyond_baker_street.characters import hat_off_reason
    from models.beyond_baker_street.hat import in_play

    for names, on in ((("Martin", "Toby", "Lestrade"), False), (("Hopkins", "Toby", "Lestrade"), True)):
        st = new_character_game(TableRules(3, 3), names, random.Random(0))
        kn = HandKnowledge()
        for o in st.take_observations(2):
            kn.add(o)
        assert in_play(kn) is on
        assert (hat_off_reason(kn) is None) is on


def test_a_table_that_never_ends_is_stopped() -> None:
    """Toby may look at the top card for ever: the safeguard ends the game (GameData.max_turns)."""
    from dataclasses import replace

    st = game("Toby", "Lestrade", "Gregson")
    st.board.data = replace(DEFAULT_DATA, max_turns=4)
    st.apply(Peek())
    st.apply(Place(False))
    st.apply(Assist(3, "Witness"))
    st.apply(Assist(1, "Clue"))
    assert not st.is_terminal()
    st.apply(Peek())
    st.apply(Place(True))
    assert st.board.result == "lost" and "4 turns" in st.board.reason
