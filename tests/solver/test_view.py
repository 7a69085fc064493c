"""View data shared by every game: tied advice shares a rank, and renderers refuse anything that is not a view."""

from __future__ import annotations

import pytest

from assistant_cli.terminal import to_rich
from assistant_cli.web import html
from solver import view as v
from tests.models.thirteen_clues.helpers import ready_session


def test_tied_scores_share_a_rank_marked_equal() -> None:
    assert v.ranks([3.0, 3.0, 2.0, 1.0, 1.0, 1.0, 0.0]) == ["1=", "1=", "3", "4=", "4=", "4=", "7"]
    assert v.ranks([2.0, 1.0]) == ["1", "2"]
    assert v.ranks([1.0, 1.0 + 1e-12]) == ["1=", "1="]  # within the tolerance
    assert v.ranks([(5.0, 0.5), (5.0, 0.5), (4.0, 0.5)]) == ["1=", "1=", "3"]  # ranked by several figures
    assert v.ranks([]) == []


def test_advise_shows_tied_options_as_tied() -> None:
    """At the start of this table the four informant cards tell exactly as much: one rank, said so."""
    note, advice = ready_session().handle("advise all").renderables[0].items
    assert note.text == "(the entries do not say whose turn it is; this is what you would do now, on your turn)"
    table = advice.items[0]
    rows = [(row[0].text, row[1].text) for row in table.rows[:5]]
    assert rows == [("1=", "consult A"), ("1=", "consult B"), ("1=", "consult C"), ("1=", "consult D"),
                    ("5", "ask 2 Green")]
    assert table.caption == v.TIED_NOTE


@pytest.mark.parametrize("thing", ["a repr", 3, None, ["text"], object()])
def test_renderers_refuse_what_is_not_view_data(thing: object) -> None:
    with pytest.raises(TypeError, match="not view data"):
        to_rich(thing)  # type: ignore[arg-type]
    if not isinstance(thing, list):
        with pytest.raises(TypeError, match="not view data"):
            html.render(thing)
    else:
        with pytest.raises(TypeError, match="not view data: str"):
            html.render(thing)


# -- game objects (issue 19 §1) --------------------------------------------------------------------------------
def test_colours_are_painted_with_readable_ink() -> None:
    assert v.paint("Purple") == "#7d4bb0" and v.paint("#ABCDEF") == "#abcdef" and v.paint("mauve") == ""
    assert (v.ink("yellow"), v.ink("blue"), v.ink("white"), v.ink("")) == ("#000000", "#ffffff", "#000000",
                                                                             "#000000")


def test_cards_as_text_and_the_objects_that_hold_them() -> None:
    duke = v.Card("Duke", "Duke", "pink", "Pk", "candidate", v.prob(0.5, "50.0%", key="mystery.person.Duke"))
    out = v.Card("Maid", "Maid", "blue", "Bl", "ruled_out")
    red = v.Card("red", "red", "red", "R", note="x2")
    assert (duke.text, out.text, red.text) == ("Pk Duke 50.0%", "Bl Maid ✘", "R red x2")
    hand = v.Hand("Your hand", (v.Position("1", (duke, out), "3; Clue", more=2), v.Position("2", (red,))))
    player = v.Player("player 3", 3, (v.prob(0.25, "Moriarty 25%", key="roles.3"),), ("4 cables",), (red,), True)
    pile = v.Pile("Impossible", (red,), 4, hidden=1, note="1 over")
    bars = v.Bars("blue", (v.prob(0.5, "-1 (50%)", key="evidence.blue.-1"), v.Cell("3", "certain", 1.0)))
    group = v.Group(hand, player, v.Track("Holmes", 3, 0, 15, lose=0), pile, bars)
    assert v.plain_text(group).splitlines() == [
        "Your hand", "  1 (told: 3; Clue): Pk Duke 50.0%, Bl Maid ✘ +2 more", "  2: R red x2",
        "> player 3: Moriarty 25%; 4 cables; R red x2", "Holmes 3 (0..15, lost at 0)",
        "Impossible 2/4: R red x2; 1 over", "blue: -1 (50%), 3"]
    assert [c.name for c in v.drawn_cards(group)] == ["Duke", "Maid", "red", "red", "red"]
    assert [c.key for c in v.cells(group)] == ["mystery.person.Duke", "roles.3", "evidence.blue.-1", None]
    assert v.pile_head(v.Pile("Deck", hidden=12)) == "Deck (12)" and v.pile_head(v.Pile("Lead", (red,))) == "Lead"


@pytest.mark.parametrize("item", [
    v.Card("Duke"), v.Hand("h", ()), v.Player("p"), v.Track("t", 1, 0, 2), v.Pile("p"),
    v.Grid("g", (), (), ()), v.Bars("b", ()),
])
def test_renderers_draw_every_game_object(item: v.View) -> None:
    assert isinstance(item, v.VIEW_TYPES)
    to_rich(item)
    assert str(html.render(item))
