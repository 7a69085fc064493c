"""The web companion in a real headless Chromium at phone size, used as a person would: by taps.

For each game the shipped example is entered word by word with the choice buttons the page offers (typing a
word only where the page offers none, counted), then every probability on the page is checked against
``assist GAME analyze --json`` run on the journal the page wrote (so the game also resumes in the terminal).
One game is killed mid-way (SIGKILL) and resumed from the home page with nothing lost. Screenshots go to
``$ASSIST_SCREENSHOTS`` when it is set (the docs' pictures come from there).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from models import GAMES
from solver.session import read_lines
from tests.assistant_cli.web.conftest import ROOT, Server, start_server
from tests.assistant_cli.web.test_taps import tap_line

EXAMPLES = {
    "thirteen-clues": ROOT / "examples" / "thirteen-clues-4p.txt",
    "beyond-baker-street": ROOT / "examples" / "beyond-baker-street-3p.txt",
    "evidence": ROOT / "examples" / "evidence-4p.txt",
    "time-bomb": ROOT / "examples" / "time-bomb-5p.txt",
}


def new_game(page: Any, server: Server, game: str) -> str:
    page.goto(server.url + "/")
    page.click(f'button[data-game="{game}"]')
    page.wait_for_selector("#panel")
    return page.locator("#panel").get_attribute("data-game-id")


def enter_by_taps(page: Any, line: str) -> tuple[int, int]:
    """Enter ``line`` by tapping the offered choices (:func:`tests.assistant_cli.web.test_taps.tap_line`: a
    choice that ends the entry sends it); returns (taps, words typed), and no word is ever typed."""
    taps = tap_line(page, line.split("#", 1)[0].strip())
    error = page.locator("#error")
    assert error.count() == 0, f"{line!r}: {error.inner_text()}"
    return taps, 0


def analyze_json(game: str, journal: Path) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-m", "assistant_cli", game, "analyze", str(journal), "--json"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def lookup(data: Any, key: str) -> Any:
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def check_against_analyze(page: Any, game: str, journal: Path) -> int:
    """Every keyed probability on the page equals the terminal's analyze --json; returns how many."""
    expected = analyze_json(game, journal)
    cells = page.eval_on_selector_all("#state [data-key]", "els => els.map(e => [e.dataset.key, e.dataset.value])")
    assert cells, "the state shows no keyed probabilities"
    for key, value in cells:
        assert float(value) == pytest.approx(lookup(expected, key), abs=1e-9), key
    return len(cells)


def no_horizontal_scroll(page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    width = page.evaluate("document.documentElement.scrollWidth")
    widest = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > 361 && !e.closest('.table-wrap'))
        .slice(0, 3).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 60))""")
    assert width <= 360, f"page is {width}px wide at a 360px viewport: {widest}"
    page.set_viewport_size({"width": 390, "height": 844})


def screenshot(page: Any, name: str) -> None:
    folder = os.environ.get("ASSIST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_the_example_played_by_taps_matches_analyze(phone: Any, servers: list[Server], tmp_path: Path,
                                                    game: str) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    game_id = new_game(phone, server, game)
    taps = typed = 0
    for _, line in read_lines(EXAMPLES[game]):
        t, w = enter_by_taps(phone, line)
        taps, typed = taps + t, typed + w
    assert taps > 2 * typed, f"{taps} taps but {typed} typed words: the pickers offer too little"
    checked = check_against_analyze(phone, game, tmp_path / f"{game_id}.journal")
    assert checked >= 2
    no_horizontal_scroll(phone)
    screenshot(phone, game)


def test_a_killed_server_loses_nothing(phone: Any, servers: list[Server], tmp_path: Path) -> None:
    lines = [line for _, line in read_lines(EXAMPLES["thirteen-clues"])]
    first = start_server(tmp_path)
    servers.append(first)
    game_id = new_game(phone, first, "thirteen-clues")
    half = len(lines) // 2
    for line in lines[:half]:
        enter_by_taps(phone, line)
    first.kill()
    second = start_server(tmp_path)
    servers.append(second)
    phone.goto(second.url + "/")
    phone.click(f'a[data-game-id="{game_id}"]')
    phone.wait_for_selector("#history li")
    assert phone.locator("#history li").count() == half
    for line in lines[half:]:
        enter_by_taps(phone, line)
    reference = GAMES["thirteen-clues"].new_session()
    reference.replay(lines)
    assert [line for _, line in read_lines(tmp_path / f"{game_id}.journal")] == reference.lines
    check_against_analyze(phone, "thirteen-clues", tmp_path / f"{game_id}.journal")


def test_home_page_fits_a_small_phone(phone: Any, servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    phone.goto(server.url + "/")
    no_horizontal_scroll(phone)
    screenshot(phone, "home")
