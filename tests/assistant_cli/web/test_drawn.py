"""The game drawn on the page and in the terminal (issue 19 §1), for every registered game and shipped example:
each probability on the page keeps ``data-key`` and a ``data-value`` equal to the ``analyze --json`` value at
that key, each drawn card carries ``data-card`` (its name) and shows its letter, and the terminal shows the same
cards and the same numbers."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from assistant_cli.terminal import to_rich
from assistant_cli.web import html
from models import GAMES
from solver import view as v
from solver.session import read_lines

ROOT = Path(__file__).resolve().parents[3]
CASES = [(entry.name, example) for entry in GAMES for example in entry.examples]


class Attributes(HTMLParser):
    """Every start tag's attributes, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags_of(markup: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Attributes()
    parser.feed(markup)
    return parser.tags


def at(data: Any, key: str) -> Any:
    """The value at a dotted path of the summary (list indices as numbers)."""
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def replayed(game: str, example: str) -> Any:
    session = GAMES[game].new_session()
    session.replay([line for _, line in read_lines(ROOT / "examples" / example)])
    return session


@pytest.mark.parametrize(("game", "example"), CASES)
def test_page_values_are_the_analyze_json_values(game: str, example: str) -> None:
    session = replayed(game, example)
    summary = json.loads(json.dumps(session.summary()))
    views = session.state()
    drawn = views[0]
    assert any(isinstance(item, v.Drawn) for item in v.walk(drawn)), "the state starts with the game drawn"
    tags = tags_of(str(html.render(views)))
    keyed = [attrs for _, attrs in tags if attrs.get("data-key")]
    tracks = [item for view in views for item in v.walk(view) if isinstance(item, v.Track) and item.key]
    assert len(keyed) == len(tracks) + sum(1 for view in views for cell in v.cells(view) if cell.key
                                           and cell.value is not None)
    for attrs in keyed:
        key, value = attrs["data-key"], attrs["data-value"]
        assert key is not None and value is not None
        assert float(value) == at(summary, key), key
    cards = [attrs["data-card"] for _, attrs in tags if "data-card" in attrs]
    assert cards == [card.name for card in v.drawn_cards(drawn)]
    assert cards, "some card is drawn"


@pytest.mark.parametrize(("game", "example"), CASES)
def test_the_terminal_draws_the_same_cards_and_numbers(game: str, example: str) -> None:
    drawn = replayed(game, example).state()[0]
    console = Console(width=100, record=True, color_system=None)
    console.print(to_rich(drawn))
    text = console.export_text()
    for card in v.drawn_cards(drawn):
        face = " ".join(part for part in (card.letter, card.label or card.name) if part)
        assert f"[{face}]" in text, card
    for cell in v.cells(drawn):
        if cell.kind == "prob":
            assert cell.text in text, cell


def test_a_card_is_drawn_in_its_colour_with_its_letter() -> None:
    p = v.prob(0.25, "25.0%", "why Duke", key="mystery.person.Duke")
    card = v.Card("Duke", "Duke", "pink", "Pk", "candidate", p)
    markup = str(html.render(card))
    (span, *inner) = tags_of(markup)
    assert span == ("span", {"class": "card s-candidate", "data-card": "Duke", "data-status": "candidate",
                             "title": "Duke, 25.0%", "style": "--c:#e86fb0;--ink:#000000"})
    assert ">Pk</span>" in markup and ">Duke</span>" in markup
    part = next(attrs for tag, attrs in inner if attrs.get("data-key"))
    assert (part["data-key"], part["data-value"]) == ("mystery.person.Duke", "0.25")
    assert ("button", {"type": "button", "class": "why", "data-line": "why Duke"}) in inner
    console = Console(width=40, record=True, color_system=None)
    console.print(to_rich(card))
    assert console.export_text().strip() == "[Pk Duke] 25.0%"


def test_tracks_piles_grids_and_bars() -> None:
    holmes = v.Track("Holmes", 13, 0, 15, lose=0, key="board.holmes")
    tags = tags_of(str(html.render(holmes)))
    assert tags[0] == ("div", {"class": "track", "data-track": "Holmes", "data-low": "0", "data-high": "15",
                               "data-value": "13", "data-key": "board.holmes"})
    rects = [attrs["class"] for tag, attrs in tags if tag == "rect"]
    assert len(rects) == 16 and rects[0] == "off lose" and rects[13] == "on here" and rects.count("off") == 2
    pile = v.Pile("Impossible", (v.Card("5 Clue", "5C", "blue"),), 4, hidden=1)
    assert v.plain_text(pile) == "Impossible 2/4: 5C"
    assert tags_of(str(html.render(pile)))[0][1] == {"class": "pile", "data-pile": "Impossible", "data-count": "2",
                                                     "data-limit": "4"}
    grid = v.Grid("Where", ("you", "2"), (v.Card("Maid"), "Sword"), (
        (v.Cell("✔", "certain", 1.0, key="g.Maid.you"), v.Cell("✘", "ruled_out", 0.0, key="g.Maid.2")),
        (v.prob(0.5, "50%", key="g.Sword.you"), v.prob(0.5, "50%", key="g.Sword.2"))))
    cells = [attrs for tag, attrs in tags_of(str(html.render(grid))) if tag == "td"]
    assert [(c["data-kind"], c["data-value"], c["data-key"]) for c in cells] == [
        ("certain", "1.0", "g.Maid.you"), ("ruled_out", "0.0", "g.Maid.2"), ("prob", "0.5", "g.Sword.you"),
        ("prob", "0.5", "g.Sword.2")]
    with pytest.raises(ValueError, match="2 rows x 2 columns"):
        v.Grid("Bad", ("you", "2"), ("Maid", "Sword"), ((v.Cell("✔"),), ()))
    with pytest.raises(ValueError, match="empty"):
        v.Track("Holmes", 0, 5, 5)
    bars = v.Bars("blue", (v.prob(0.5, "-1 (50%)", key="evidence.blue.-1"),), "blue", "Bl")
    console = Console(width=40, record=True, color_system=None)
    console.print(to_rich(bars))
    assert console.export_text().splitlines() == [" Bl  blue", "  -1 (50%) █████"]


# -- in a real browser (Debian's chromium through Playwright; skipped without one, except under CI=true) ------
def open_example(page: Any, servers: list[Any], tmp_path: Path, game: str, example: str) -> Any:
    """A server whose games folder holds ``example`` as a journal, and ``page`` showing that game."""
    from tests.assistant_cli.web.conftest import start_server

    lines = [line for _, line in read_lines(ROOT / "examples" / example)]
    game_id = f"{game}-example"
    (tmp_path / f"{game_id}.journal").write_text("\n".join([GAMES[game].header, *lines]) + "\n")
    server = start_server(tmp_path)
    servers.append(server)
    page.goto(f"{server.url}/g/{game_id}")
    page.wait_for_selector("#state [data-card]")
    return replayed(game, example)


@pytest.mark.parametrize(("game", "example"), [(entry.name, entry.examples[0]) for entry in GAMES])
def test_the_drawn_page_in_a_browser(phone: Any, servers: list[Any], tmp_path: Path, game: str,
                                     example: str) -> None:
    """Cards are drawn with their names and letters, every keyed value equals analyze --json, nothing but a grid or
    a table scrolls sideways at 360 px; the screenshot goes to ``$ASSIST_SCREENSHOTS`` (the docs' pictures)."""
    import os

    session = open_example(phone, servers, tmp_path, game, example)
    summary = json.loads(json.dumps(session.summary()))
    keyed = phone.eval_on_selector_all("#state [data-key]", "els => els.map(e => [e.dataset.key, e.dataset.value])")
    assert keyed
    for key, value in keyed:
        assert float(value) == at(summary, key), key
    names = phone.eval_on_selector_all("#state [data-card]", "els => els.map(e => e.dataset.card)")
    assert names == [card.name for card in v.drawn_cards(session.state()[0])]
    letters = phone.eval_on_selector_all("#state .card .letter", "els => els.map(e => e.textContent)")
    expected = [card.letter for card in v.drawn_cards(session.state()[0]) if card.letter]
    assert letters == expected
    painted = phone.eval_on_selector_all("#state .card .face", "els => els.map(e => getComputedStyle(e)"
                                         ".backgroundColor)")
    assert len(set(painted)) >= 3, "cards are painted in their colours"
    phone.set_viewport_size({"width": 360, "height": 740})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    wide = phone.evaluate("""() => [...document.querySelectorAll('#state *')]
        .filter(e => e.getBoundingClientRect().right > 361 && !e.closest('.table-wrap, .grid-wrap'))
        .slice(0, 3).map(e => e.tagName + '.' + e.className)""")
    assert wide == []
    phone.set_viewport_size({"width": 390, "height": 844})
    folder = os.environ.get("ASSIST_SCREENSHOTS")
    if folder:
        phone.evaluate("window.scrollTo(0, document.querySelector('#state').offsetTop - "
                       "document.querySelector('#entry').offsetHeight)")
        phone.screenshot(path=str(Path(folder) / f"drawn-{game}.png"), full_page=False)
