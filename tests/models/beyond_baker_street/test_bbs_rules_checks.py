"""Each legality check of the Beyond Baker Street table with its exact refusal message, and the exact legal
actions it offers (base game and Characters); found by mutation testing (docs/testing.md)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from bbs_helpers import E, table

from models.beyond_baker_street.data import DEFAULT_DATA, load_game_data
from models.beyond_baker_street.observations import (
    Action,
    Advance,
    Assist,
    Confirm,
    DoubleAssist,
    Eliminate,
    Investigate,
    Keep,
    Peek,
    Place,
    Pursue,
    SwapCards,
)
from models.beyond_baker_street.rules import BakerStreetState, TableRules, parse_characters
from solver.errors import AssistantError, IllegalActionError

LEADS3 = {"Opportunity": "8C 8D 7W", "Motive": "10C 10D 9T", "Suspect": "13C 13D 11W"}
HANDS = {1: "3W 4W 1T 6C", 2: "2T 5T 6T 1C", 3: "1W 2W 5W 6W"}


def three() -> BakerStreetState:
    return table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)


def game(*names: str) -> BakerStreetState:
    """The three-seat table with these Characters (seat 1 first), told to nobody (rules checks only)."""
    st = table(HANDS, top="3D 4D 5D 6D", leads=LEADS3)
    st.board.characters = {s: DEFAULT_DATA.character(n) for s, n in enumerate(names, 1)}
    return st


def refused(st: BakerStreetState, action: Action | str) -> str:
    """The exact message ``action`` is refused with; the table is left as it was."""
    before = st.clone()
    with pytest.raises(IllegalActionError) as caught:
        st.check(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        st.apply(action)  # type: ignore[arg-type]
    assert st.hands == before.hands and st.deck == before.deck and st.offer == before.offer
    assert st.peeked == before.peeked and st.board.turns == before.board.turns
    return str(caught.value)


def test_the_base_games_legal_actions_exactly() -> None:
    st = three()
    sections = ("Opportunity", "Motive", "Suspect")
    assert [str(a) for a in st.legal_actions()] == (
        [f"investigate {p} {s}" for p in range(1, 5) for s in sections]
        + [f"eliminate {p}" for p in range(1, 5)]
        + [f"assist 2 {x}" for x in ("1", "2", "5", "6", "Clue", "Track")]
        + [f"assist 3 {x}" for x in ("1", "2", "5", "6", "Witness")]
        + [f"pursue {s}" for s in sections])
    for action in st.legal_actions():
        st.check(action)  # every offered action passes the check


def test_a_confirmed_lead_is_neither_investigated_nor_pursued_nor_confirmed_again() -> None:
    st = three()
    st.board.leads["Motive"].evidence.extend([E("4T"), E("5T")])  # 9 of 9
    legal = [str(a) for a in st.legal_actions()]
    assert legal[0] == "confirm Motive" and legal.count("confirm Motive") == 1
    st.apply(Confirm("Motive"))
    legal = [str(a) for a in st.legal_actions()]
    assert not [a for a in legal if "Motive" in a]
    assert [a for a in legal if a.startswith("pursue")] == ["pursue Opportunity", "pursue Suspect"]
    assert [a for a in legal if a.startswith("investigate 1")] == ["investigate 1 Opportunity",
                                                                   "investigate 1 Suspect"]


def test_assist_refusals() -> None:
    st = three()
    assert refused(st, Assist(4, "Witness")) == "'assist 4 Witness': seat 4 does not exist (1 to 3)"
    assert refused(st, Assist(0, 3)) == "'assist 0 3': seat 0 does not exist (1 to 3)"
    assert refused(st, Assist(1, 3)) == "'assist 1 3': you cannot Assist yourself"
    assert refused(st, Assist(2, 7)) == "'assist 2 7': name a number 1-6 or an icon"
    assert refused(st, Assist(2, "Foo")) == "'assist 2 Foo': name a number 1-6 or an icon"
    assert refused(st, Assist(3, "Clue")) == (
        "'assist 3 Clue': player 3 has no Clue cards, and an Assist never says none")
    assert refused(st, Assist(3, 3)) == "'assist 3 3': player 3 has no 3 cards, and an Assist never says none"
    st.check(Assist(2, 1))
    st.check(Assist(3, "Witness"))


def test_play_position_refusals() -> None:
    st = three()
    assert refused(st, Investigate(0, "Motive")) == "'investigate 0 Motive': position 0, but you hold 4 cards"
    assert refused(st, Investigate(5, "Motive")) == "'investigate 5 Motive': position 5, but you hold 4 cards"
    assert refused(st, Eliminate(5)) == "'eliminate 5': position 5, but you hold 4 cards"
    assert refused(st, Eliminate(0)) == "'eliminate 0': position 0, but you hold 4 cards"
    st.check(Eliminate(4))
    st.check(Investigate(1, "Suspect"))
    st.hands[1] = [E("3W")]
    st.board.hand_counts[1] = 1
    assert refused(st, Eliminate(2)) == "'eliminate 2': position 2, but you hold 1 card"
    st.hands[1] = []
    st.board.hand_counts[1] = 0
    assert refused(st, Eliminate(1)) == "'eliminate 1': you have no cards"
    assert refused(st, Investigate(1, "Motive")) == "'investigate 1 Motive': you have no cards"


def test_the_board_refuses_character_actions_without_a_character() -> None:
    st = three()
    none = "player 1 has no Character, which has no such action"
    assert refused(st, Advance()) == f"'advance 1': {none}"
    assert refused(st, Peek()) == f"'peek 1 top': {none}"
    assert refused(st, SwapCards(1, 2, 1)) == f"'swap 1 1 2 1 3W 2T': {none}"
    assert refused(st, DoubleAssist(Assist(2, 5), Assist(3, "Witness"))) == (
        f"'assist 1 2 5 at 2 and 3 Witness at 1 2 3 4': {none}")
    assert refused(st, Confirm("Motive")) == (
        "'confirm 1 Motive': the Motive Lead has 0 evidence of 9; Confirm needs exactly 9")


def test_keep_and_place_only_when_asked() -> None:
    st = game("Toby", "Lady Eva Blackwell", "Langdale Pike")
    assert refused(st, Place(True)) == "'place bottom': nothing to keep or place now"
    assert refused(st, Keep(E("3D"))) == "'keep 3D': nothing to keep or place now"
    st.apply(Peek())
    placing = "player 1 places the card they looked at ('place top|bottom')"
    assert refused(st, Keep(E("3D"))) == f"'keep 3D': {placing}"
    assert refused(st, Eliminate(1)) == f"'eliminate 1': {placing}"
    st.check(Place(True))
    st.apply(Place(False))
    st.apply(Eliminate(1))  # Eva draws two: player 1 chooses
    keeping = "player 1 chooses which card Lady Eva Blackwell keeps ('keep CARD')"
    assert refused(st, Place(True)) == f"'place bottom': {keeping}"
    assert refused(st, Keep(E("6D"))) == f"'keep 6D': {keeping}"
    assert refused(st, Eliminate(1)) == f"'eliminate 1': {keeping}"
    st.check(Keep(E("4D")))


def test_swap_refusals_and_legal_swaps() -> None:
    st = game("Langdale Pike", "Lestrade", "Gregson")
    assert refused(st, SwapCards(0, 2, 1)) == "'swap 0 2 1': player 1 has no card at position 0"
    assert refused(st, SwapCards(5, 2, 1)) == "'swap 5 2 1': player 1 has no card at position 5"
    assert refused(st, SwapCards(1, 4, 1)) == "'swap 1 4 1': player 4 has no card at position 1"
    assert refused(st, SwapCards(1, 3, 0)) == "'swap 1 3 0': player 3 has no card at position 0"
    assert refused(st, SwapCards(1, 3, 5)) == "'swap 1 3 5': player 3 has no card at position 5"
    st.check(SwapCards(4, 3, 4))
    st.check(SwapCards(1, 2, 1))
    assert [str(a) for a in st.legal_actions() if isinstance(a, SwapCards)] == [
        f"swap {p} {t} {q}" for p in range(1, 5) for t in (2, 3) for q in range(1, 5)]


def test_nothing_is_legal_once_the_game_is_over() -> None:
    st = table(HANDS, leads={"Opportunity": "7W", "Motive": "9T", "Suspect": "11W"})
    st.apply(Pursue("Motive"))
    assert st.legal_actions() == []
    assert refused(st, Pursue("Opportunity")) == (
        "'pursue Opportunity': the game is over (lost: the last Motive Lead was discarded (pursued))")


def test_an_unknown_action_is_refused() -> None:
    assert refused(three(), "look") == "'look' is not a Beyond Baker Street action"


def extras(st: BakerStreetState) -> list[str]:
    """The legal actions a Character adds (neither an Assist nor a play, Confirm or Pursue)."""
    base = Investigate | Eliminate | Assist | Pursue | Confirm
    return [str(a) for a in st.legal_actions() if not isinstance(a, base)]


def test_each_characters_actions_exactly() -> None:
    st = game("Irene Adler", "Lady Hilda Hope", "Toby")
    assert extras(st) == ["advance"]
    st.apply(Advance())
    assists = ["1 1", "1 3", "1 4", "1 6", "1 Clue", "1 Track", "1 Witness", "3 1", "3 2", "3 5", "3 6", "3 Witness"]
    assert [str(a) for a in st.legal_actions() if isinstance(a, Assist)] == [f"assist {a}" for a in assists]
    assert extras(st) == [f"assist {a} and {b}" for a, b in itertools.combinations(assists, 2)]
    st.apply(Eliminate(1))
    assert extras(st) == ["peek"]
    st.deck.clear()
    st.board.deck = 0
    assert extras(st) == []  # nothing to look at
    st.apply(Eliminate(1))
    assert extras(st) == []  # Irene Adler's once per game is used


def test_exchange_and_return_name_every_card_exactly() -> None:
    st = game("Sir Henry Baskerville", "Mrs Hudson", "Lestrade")
    assert extras(st) == []  # the Impossible is empty
    st.apply(Eliminate(4))  # 6C to the Impossible
    st.apply(Investigate(1, "Motive"))  # 2T on the Motive Lead
    st.apply(Eliminate(1))  # 1W to the Impossible
    assert extras(st) == ["exchange 6C 2T", "exchange 1W 2T"]
    st.apply(Eliminate(1))  # 3W to the Impossible
    assert extras(st) == ["return 6C", "return 1W", "return 3W"]


#: Evidence on the Motive Lead (9T) leaving it 0, 1, 2 or 3 short.
ON_MOTIVE = {0: "4T 5T", 1: "3T 5T", 2: "3T 4T", 3: "2T 4T"}


def test_mary_morstan_confirms_exactly_her_shortfall() -> None:
    def confirms(st: BakerStreetState) -> list[str]:
        return [str(a) for a in st.legal_actions() if isinstance(a, Confirm)]

    for need, names, short, expected in (
        (1, ("Mary Morstan", "Lestrade", "Gregson"), 1, ["confirm Motive"]),
        (2, ("Mary Morstan", "Lestrade", "Gregson"), 1, []),
        (2, ("Mary Morstan", "Lestrade", "Gregson"), 2, ["confirm Motive"]),
        (3, ("Mary Morstan", "Lestrade", "Gregson"), 2, []),
        (1, ("Lestrade", "Mary Morstan", "Gregson"), 1, []),  # another Character: exactly
        (0, ("Lestrade", "Mary Morstan", "Gregson"), 1, ["confirm Motive"]),
    ):
        st = game(*names)
        mary = st.board.characters[names.index("Mary Morstan") + 1]
        st.board.characters[names.index("Mary Morstan") + 1] = replace(mary, params=(("short", short),))
        st.board.leads["Motive"].evidence.extend(E(c) for c in ON_MOTIVE[need].split())  # the 9T Lead
        assert st.board.leads["Motive"].need == need, (need, st.board.leads["Motive"].need)
        assert confirms(st) == expected, (need, names, short)
    base = three()
    base.board.leads["Motive"].evidence.extend(E(c) for c in ON_MOTIVE[1].split())  # one short, no Character
    assert [str(a) for a in base.legal_actions() if isinstance(a, Confirm)] == []


def test_a_new_confirm_short_character_without_its_number_is_one_short(tmp_path: Path) -> None:
    path = tmp_path / "bbs.json"
    path.write_text(json.dumps({"characters": {"Watson": {"order": 19, "pips": 2, "kind": "confirm_short"}}}))
    watson = load_game_data(path).characters["Watson"]
    assert watson.params == ()
    for need, expected in ((1, ["confirm Motive"]), (2, [])):
        st = game("Lestrade", "Gregson", "Baynes")
        st.board.characters[1] = watson
        st.board.leads["Motive"].evidence.extend(E(c) for c in ON_MOTIVE[need].split())
        assert [str(a) for a in st.legal_actions() if isinstance(a, Confirm)] == expected


CHARACTER_NAMES = ("Lestrade, Gregson, Baynes, Bradstreet, Hopkins, Jones, Forrester, Martin, Irene Adler, "
                   "Mary Morstan, Lady Eva Blackwell, Helen Stoner, Lady Hilda Hope, Sir Henry Baskerville, "
                   "Langdale Pike, Wiggins, Mrs Hudson, Toby")


def refusal(make: Callable[[], object]) -> str:
    with pytest.raises(AssistantError) as caught:
        make()
    return str(caught.value)


def test_the_tables_characters_are_checked_and_named_exactly() -> None:
    assert TableRules(3, characters=("toby", "martin", "wiggins")).characters == ("Toby", "Martin", "Wiggins")
    assert TableRules(3).characters == ()
    assert refusal(lambda: TableRules(3, characters=("Toby", "Martin"))) == (
        "characters: 2 named, expected one per player (3)")
    assert refusal(lambda: TableRules(3, characters=("Toby", "toby", "Martin"))) == (
        "characters: Toby, Toby, Martin: each Character is played once")
    assert refusal(lambda: TableRules(3, characters=("Moriarty", "Toby", "Martin"))) == (
        f"character 'Moriarty' is not a Character: expected one of {CHARACTER_NAMES}")


def test_the_characters_option_reads_names_and_random_seats_exactly() -> None:
    assert parse_characters(" RANDOM ", 3) == (None, None, None)
    assert parse_characters("random", 2) == (None, None)
    assert parse_characters("toby, Random ,lestrade", 3) == ("Toby", None, "Lestrade")
    assert parse_characters("random,toby", 2) == (None, "Toby")
    assert parse_characters("Irene Adler,Toby,Martin,Mrs Hudson", 4) == ("Irene Adler", "Toby", "Martin", "Mrs Hudson")
    assert refusal(lambda: parse_characters("Toby,Martin", 3)) == (
        "--characters 'Toby,Martin': 2 names, expected 3 (one per seat) or 'random'")
    assert refusal(lambda: parse_characters("Toby,toby,Martin", 3)) == (
        "--characters 'Toby,toby,Martin': each Character is played once")
    assert refusal(lambda: parse_characters("Moriarty,toby,Martin", 3)) == (
        f"--characters: character 'Moriarty' is not a Character: expected one of {CHARACTER_NAMES}")
