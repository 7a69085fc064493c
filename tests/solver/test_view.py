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
    table = ready_session().handle("advise all").renderables[0].items[0]
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
