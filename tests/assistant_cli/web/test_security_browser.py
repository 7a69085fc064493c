"""A hostile page in the same browser (issue 20 §2), in Debian's Chromium: pages from another origin (another
port of 127.0.0.1, and a made-up host name mapped to 127.0.0.1 by ``--host-resolver-rules``) try to create
games, post entries, read the saved games and listen to the push channel, and a DNS-rebound name tries to read
the server directly. Every attempt is refused and nothing changes; the table's own page works under its CSP."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from models import GAMES
from tests.assistant_cli.web.conftest import Server, start_server

ATTACK = """<!doctype html><html><body><p id="done">working</p>
<form id="post" method="post" action="TARGET/g/GAME/line" target="sink"><input name="line" value="players 4"></form>
<iframe name="sink"></iframe>
<script>
const target = "TARGET", results = {};
async function attack() {
  try { await fetch(target + "/new", {method: "POST", mode: "no-cors", credentials: "include",
                                      body: new URLSearchParams({game: "evidence"})}); results.post = "sent"; }
  catch (e) { results.post = "failed"; }
  try { const r = await fetch(target + "/", {credentials: "include"}); results.read = await r.text(); }
  catch (e) { results.read = "blocked"; }
  await new Promise(done => {
    const source = new EventSource(target + "/g/GAME/events", {withCredentials: true});
    source.addEventListener("live", e => { results.push = e.data; source.close(); done(); });
    source.onerror = () => { results.push = "refused"; source.close(); done(); };
  });
  document.getElementById("post").submit();
  setTimeout(() => { document.getElementById("done").textContent = JSON.stringify(results); }, 1500);
}
attack();
</script></body></html>"""


class Attacker:
    """A web server of its own on 127.0.0.1 serving :data:`ATTACK` aimed at ``target``, game ``game``."""

    def __init__(self, target: str, game: str) -> None:
        page = ATTACK.replace("TARGET", target).replace("GAME", game).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/html")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def table(servers: list[Server], tmp_path: Path) -> Iterator[tuple[Server, str, Attacker]]:
    server = start_server(tmp_path)
    servers.append(server)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        game_id = client.post("/new", data={"game": "thirteen-clues"}).headers["location"].rsplit("/", 1)[1]
    attacker = Attacker(server.url, game_id)
    yield server, game_id, attacker
    attacker.stop()


@pytest.mark.parametrize("attacker_host", ["evil.test", "127.0.0.1"])
def test_a_page_from_another_origin_is_refused(browser: Any, table: tuple[Server, str, Attacker],
                                               attacker_host: str) -> None:
    server, game_id, attacker = table
    journal = server.games_dir / f"{game_id}.journal"
    before = journal.read_bytes()
    context = browser.new_context()
    page = context.new_page()
    statuses: list[tuple[str, str, int]] = []
    page.on("response", lambda r: statuses.append((r.request.method, r.url, r.status))
            if r.url.startswith(server.url) else None)
    try:
        page.goto(f"http://{attacker_host}:{attacker.port}/")
        page.wait_for_selector("#done:not(:has-text('working'))", timeout=20_000)
        results = page.locator("#done").inner_text()
    finally:
        context.close()
    # The no-cors POST to /new is sent either way (its opaque answer is then blocked by our CORP header).
    assert '"post":' in results
    assert '"push":"refused"' in results and "Saved games" not in results and "thirteen-clues-" not in results
    assert journal.read_bytes() == before
    assert sorted(p.name for p in server.games_dir.glob("*.journal")) == [journal.name]  # no game created
    refused = {(method, url.removeprefix(server.url)) for method, url, status in statuses if status == 403}
    assert ("POST", f"/g/{game_id}/line") in refused
    assert all(status == 403 for _, _, status in statuses), statuses


def test_a_rebound_host_name_reads_nothing(browser: Any, table: tuple[Server, str, Attacker]) -> None:
    server, game_id, _ = table
    port = server.url.rsplit(":", 1)[1]
    context = browser.new_context()
    page = context.new_page()
    try:
        for path in ["/", f"/g/{game_id}", f"/g/{game_id}/panel"]:
            response = page.goto(f"http://evil.test:{port}{path}")
            assert response is not None and response.status == 403
            assert page.locator("body").inner_text() == f"unknown host 'evil.test:{port}': open the address the " \
                                                        "server printed"
    finally:
        context.close()


def test_the_tables_own_page_works_under_its_csp(browser: Any, table: tuple[Server, str, Attacker]) -> None:
    server, game_id, _ = table
    context = browser.new_context()  # no bypass: the page's own CSP applies
    page = context.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{server.url}/")
        page.click('button[data-game="evidence"]')  # a plain form post from the home page: its Origin is sent
        page.wait_for_selector("#panel", timeout=20_000)
        assert page.url.startswith(f"{server.url}/g/evidence-")
        page.goto(f"{server.url}/g/{game_id}")
        page.wait_for_selector("#offline", state="hidden")
        page.fill("#line", "players 4")
        page.click("#enter")
        page.wait_for_selector("#history .entry-text:has-text('players 4')", timeout=20_000)
        page.click("#clear")  # the box held the setup's next word ('me '): from an empty box, under the CSP
        page.wait_for_selector("#choices .for[data-text='']", state="attached", timeout=10_000)
        choice = page.locator("button.choice:not([data-ends])").first  # one that fills the box, not sends
        fill = choice.get_attribute("data-fill")
        choice.click()  # a word choice: choices.js fills the box and asks htmx for the next words, under the CSP
        page.wait_for_selector(f"#choices .for[data-text='{fill}']", state="attached", timeout=10_000)
        filled = page.input_value("#line")
    finally:
        context.close()
    assert violations == [] and filled == fill
    assert (server.games_dir / f"{game_id}.journal").read_text().splitlines() == [GAMES["thirteen-clues"].header,
                                                                                  "players 4"]
