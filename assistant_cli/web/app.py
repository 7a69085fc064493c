"""``assist serve``: the companions as a local web app (Starlette, Jinja2 templates, htmx shipped here).

Every request that changes a game goes through the same ``session.handle(line)`` as the terminal, so the page
shows the same knowledge, writes the same journal (one file per game in the games folder, in the terminal's
format: a game started here resumes with ``assist GAME --resume FILE`` and the other way round) and gives the
same one-line errors. Entries to one game are serialised by a lock; other phones on the same game see the
change by polling a version number. Nothing here knows a game's rules: views are drawn from the session's view
data (:mod:`solver.view`) by :mod:`assistant_cli.web.html`.

Safety: the server binds 127.0.0.1 unless asked for the LAN, where every request needs the join token (a
query parameter once, then a cookie); request bodies are size-limited; a game id from a request becomes a
file name only after it matches a strict pattern and is found in the games folder.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from assistant_cli.web import choices as taps
from assistant_cli.web import html
from solver.errors import AssistantError
from solver.registry import GameEntry, Registry
from solver.session import Journal, read_lines

MAX_BODY = 16_384  # bytes: an entry line is short; anything bigger is refused
MAX_LINE = 500  # characters of one entry line
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
TOKEN_COOKIE = "assist_token"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass
class OpenGame:
    """A game being played: its session, journal file, lock and version (bumped when its entries change)."""

    id: str
    spec: GameEntry
    session: Any
    path: Path
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = 0
    last: list[Any] = field(default_factory=list)  # views of the last reply (why, advise, ...)
    error: str | None = None
    entered: str = ""  # the line that failed, kept in the entry box
    changed: str | None = None  # what the last accepted entry changed (one line)


def game_of_journal(games: Registry, path: Path) -> GameEntry | None:
    """The game whose journal header opens ``path``, or None (not a journal, or unreadable)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(200)
    except (OSError, UnicodeDecodeError):
        return None
    return games.of_header(first)


class GameStore:
    """The games folder: new games, saved journals, and the games open in this server."""

    def __init__(self, folder: Path, games: Registry) -> None:
        self.folder = folder
        self.games = games
        self.open: dict[str, OpenGame] = {}
        self._opening = asyncio.Lock()

    def saved(self) -> list[tuple[str, GameEntry, int, float]]:
        """Saved games, newest first: (id, game, entries, modified time)."""
        rows = []
        for path in self.folder.glob("*.journal"):
            spec = game_of_journal(self.games, path)
            if spec is None or not GAME_ID.fullmatch(path.stem):
                continue
            entries = sum(1 for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip())
            rows.append((path.stem, spec, entries, path.stat().st_mtime))
        return sorted(rows, key=lambda r: -r[3])

    def path_of(self, game_id: str) -> Path:
        """The journal of ``game_id``; only ids matching :data:`GAME_ID` that exist in the folder."""
        if not GAME_ID.fullmatch(game_id):
            raise KeyError(game_id)
        path = self.folder / f"{game_id}.journal"
        if path.resolve().parent != self.folder.resolve() or not path.is_file():
            raise KeyError(game_id)
        return path

    def create(self, spec: GameEntry) -> str:
        """A new empty game of ``spec``: its journal file (header only) in the folder; returns its id."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(1000):
            game_id = f"{spec.name}-{stamp}" + (f"-{n}" if n else "")
            path = self.folder / f"{game_id}.journal"
            try:
                with open(path, "x", encoding="utf-8"):
                    pass
            except FileExistsError:
                continue
            Journal(path, spec.header).save([])
            return game_id
        raise AssistantError("too many games started this second")

    async def get(self, game_id: str) -> OpenGame:
        """The open game ``game_id``, resumed from its journal on first use (KeyError: no such game)."""
        if game_id in self.open:
            return self.open[game_id]
        async with self._opening:
            if game_id not in self.open:
                path = self.path_of(game_id)
                spec = game_of_journal(self.games, path)
                if spec is None:
                    raise KeyError(game_id)
                session = await run_in_threadpool(_resume, spec, path)
                self.open[game_id] = OpenGame(game_id, spec, session, path)
        return self.open[game_id]


def _resume(spec: GameEntry, path: Path) -> Any:
    """A session replaying the journal at ``path`` and writing to it from now on."""
    session = spec.new_session()
    session.replay(line for _, line in read_lines(path))
    session.journal = Journal(path, spec.header)
    return session


def create_app(games_dir: Path, token: str | None = None, games: Registry | None = None) -> Starlette:
    """The web app over the games in ``games_dir`` (the registered games, or ``games``); with ``token``, every
    request must carry it."""
    if games is None:
        from models import GAMES as games
    games_dir.mkdir(parents=True, exist_ok=True)
    store = GameStore(games_dir, games)
    env = Environment(loader=PackageLoader("assistant_cli.web", "templates"), autoescape=select_autoescape())
    env.globals["view_html"] = html.render
    env.filters["when"] = lambda t: time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    env.filters["entry_links"] = taps.link_entries

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    async def home(request: Request) -> Response:
        saved = []
        for game_id, spec, _, _ in store.saved():
            open_game_ = store.open.get(game_id)
            finished = taps.is_finished(open_game_.session) if open_game_ is not None else None
            saved.append(taps.saved_game(game_id, spec, store.folder / f"{game_id}.journal", finished))
        return page("home.html", games=list(games), saved=saved)

    async def new_game(request: Request) -> Response:
        form = await request.form()
        spec = games.get(str(form.get("game", "")))
        if spec is None:
            return PlainTextResponse(f"unknown game '{str(form.get('game', ''))[:40]}'; expected one of "
                                     f"{', '.join(games.names())}", status_code=400)
        game_id = store.create(spec)
        return RedirectResponse(f"/g/{game_id}", status_code=303)

    async def open_game(request: Request) -> OpenGame | Response:
        try:
            return await store.get(request.path_params["game_id"])
        except KeyError:
            return PlainTextResponse(f"no game '{request.path_params['game_id']}' in the games folder",
                                     status_code=404)
        except AssistantError as exc:
            return PlainTextResponse(f"cannot resume '{request.path_params['game_id']}': {exc}", status_code=409)

    def panel(game: OpenGame, template: str) -> HTMLResponse:
        state = _state_views(game.session)
        step = _step(game.session)
        box = game.entered or (step["prefix"] if step else "")
        return page(template, game=game, state=state, step=step, history=list(game.session.lines), last=game.last,
                    box=box, choices=taps.buttons(game.session, box))

    async def game_page(request: Request) -> Response:
        game = await open_game(request)
        return game if isinstance(game, Response) else panel(game, "game.html")

    async def game_panel(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        if request.query_params.get("v") == str(game.version):
            return Response(status_code=204)  # nothing new: htmx keeps the page as it is
        return panel(game, "live.html")

    async def game_line(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        form = await request.form()
        line = str(form.get("line", "")).replace("\r", " ").replace("\n", " ").strip()
        async with game.lock:
            game.error, game.entered, game.changed = None, "", None
            if len(line) > MAX_LINE:
                game.error, game.entered = f"line of {len(line)} characters: expected at most {MAX_LINE}", ""
            elif line:
                before = list(game.session.lines)
                try:
                    reply = await run_in_threadpool(game.session.handle, line)
                    game.last = [] if _shows_state(reply) else list(reply.renderables)
                    game.changed = reply.summary if reply.accepted or reply.summary else None
                except AssistantError as exc:
                    game.error, game.entered = str(exc), line
                if game.session.lines != before:
                    game.version += 1
            return panel(game, "panel.html")

    # -- taps (assistant_cli.web.choices): the choices, the entries an object starts, saved games --------------
    async def game_compose(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        text = request.query_params.get("line", "")[:MAX_LINE]
        async with game.lock:
            found = await run_in_threadpool(taps.buttons, game.session, text)
        return page("choices.html", choices=found, text=text)

    async def game_starts(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        word = request.query_params.get("object", "")[:40]
        async with game.lock:
            found = await run_in_threadpool(taps.object_buttons, game.session, word)
        return page("choices.html", choices=found, text="")

    async def game_rename(request: Request) -> Response:
        form = await request.form()
        old, new = request.path_params["game_id"], str(form.get("name", "")).strip()
        try:
            path = store.path_of(old)
        except KeyError:
            return PlainTextResponse(f"no game '{old[:40]}' in the games folder", status_code=404)
        if not GAME_ID.fullmatch(new) or new.endswith(".journal"):
            return PlainTextResponse(f"name '{new[:40]}': expected letters, digits, '.', '_' or '-' (at most 100)",
                                     status_code=400)
        target = store.folder / f"{new}.journal"
        if target.exists():
            return PlainTextResponse(f"name '{new}': a saved game has that name already", status_code=409)
        async with store._opening:
            path.rename(target)
            game = store.open.pop(old, None)
            if game is not None:
                game.id, game.path = new, target
                game.session.journal = Journal(target, game.spec.header)
                store.open[new] = game
        return RedirectResponse("/", status_code=303)

    async def game_delete(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            path = store.path_of(game_id)
        except KeyError:
            return PlainTextResponse(f"no game '{game_id[:40]}' in the games folder", status_code=404)
        if request.method == "GET":  # deleting asks first
            return page("delete.html", game_id=game_id)
        async with store._opening:
            store.open.pop(game_id, None)
            path.unlink(missing_ok=True)
        return RedirectResponse("/", status_code=303)

    routes = [
        Route("/", home),
        Route("/new", new_game, methods=["POST"]),
        Route("/g/{game_id}", game_page),
        Route("/g/{game_id}/panel", game_panel),
        Route("/g/{game_id}/line", game_line, methods=["POST"]),
        Route("/g/{game_id}/compose", game_compose),
        Route("/g/{game_id}/starts", game_starts),
        Route("/g/{game_id}/rename", game_rename, methods=["POST"]),
        Route("/g/{game_id}/delete", game_delete, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(packages=[("assistant_cli.web", "static")]), name="static"),
    ]
    middleware = [Middleware(TokenGate, token=token)] if token is not None else []
    app = Starlette(routes=routes, middleware=[*middleware, Middleware(BodyLimit, limit=MAX_BODY)])
    app.state.store = store
    return app


def _shows_state(reply: Any) -> bool:
    """Whether a reply is the state view after an entry (the page shows the state anyway)."""
    return bool(reply.accepted) or not reply.renderables


def _state_views(session: Any) -> list[Any]:
    """The state at a glance (the session's ``state``), or nothing before the setup lets the game show one."""
    try:
        return list(session.state())
    except AssistantError:
        return []


def _step(session: Any) -> dict[str, Any] | None:
    """The next setup question and the entry prefix its answer goes after, or None once the setup is complete."""
    question = session.setup_question()
    if question is None:
        return None
    prefix = question.prefix.strip()
    return {"question": question.prompt.strip(), "prefix": prefix + " " if prefix else ""}


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await PlainTextResponse(f"request body over {self.limit} bytes", status_code=413)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except TooLarge:
            await PlainTextResponse(f"request body over {self.limit} bytes", status_code=413)(scope, receive, send)


class TooLarge(Exception):
    """A streamed request body went over the limit."""


class TokenGate:
    """With ``--lan``: every request must carry the join token (``?token=`` once, then a cookie); else 403."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("token")
        cookie = request.cookies.get(TOKEN_COOKIE, "")
        if given is not None and hmac.compare_digest(given, self.token):
            # Drop the token from the address bar once it is in a cookie.
            target = request.url.remove_query_params("token")
            response: Response = RedirectResponse(str(target.path) + (f"?{target.query}" if target.query else ""),
                                                  status_code=303)
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        if not hmac.compare_digest(cookie, self.token):
            await PlainTextResponse("join token missing or wrong: open the address the server printed",
                                    status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)
