"""``assist serve``: the companions as a local web app (Starlette, Jinja2 templates, htmx shipped here).

Every request that changes a game goes through the same ``session.handle(line)`` as the terminal, so the page
shows the same knowledge, writes the same journal (one file per game in the games folder, in the terminal's
format: a game started here resumes with ``assist GAME --resume FILE`` and the other way round) and gives the
same one-line errors. Nothing here knows a game's rules: views are drawn from the session's view data
(:mod:`solver.view`) by :mod:`assistant_cli.web.html`.

One game, one lock. A write (an entry, undo, edit, drop) holds the game's lock from the line to the new
snapshot: the session's answer, the journal, the version bump and the snapshot every page is drawn from are
made in one worker-thread call, then the change is pushed. Pages and pushes read only the snapshot, so no page
ever sees a game half-way through an entry; a refused line changes none of them.

Each phone its own view: a phone id cookie (random, per browser) keys the replies (errors, ``why``, advice,
undo messages, the line left in the box) to the phone that asked; the other phones get the shared state and
history only, pushed over Server-Sent Events (``/g/ID/events``) the moment it changes.

Safety (see ``docs/security.md``): pure ASGI guards in front of every HTTP and WebSocket scope check the
``Host`` (only the names the server serves: no DNS rebinding), refuse requests whose ``Origin`` or
``Sec-Fetch-Site`` says another page sent them, and with ``--lan`` require the join token; every response
carries CSP, nosniff, frame and referrer headers. Game ids are random. The games folder is untrusted: only
regular files in it are opened (never through a link, never a FIFO or device), listing reads a journal's
header only, file work runs off the event loop, and journals over :data:`MAX_JOURNAL_BYTES` are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from assistant_cli.web import choices as taps
from assistant_cli.web import html
from assistant_cli.web.guard import (
    BodyLimit,
    HostGuard,
    PhoneId,
    SecurityHeaders,
    TokenGate,
    cut,
)
from solver import view as v
from solver.errors import AssistantError
from solver.registry import GameEntry, Registry
from solver.session import (
    MAX_JOURNAL_BYTES,
    Journal,
    keep_pending,
    pending_path,
    read_header,
    read_text,
    restore_pending,
)

MAX_BODY = 16_384  # bytes: an entry line is short; anything bigger is refused
MAX_LINE = 500  # characters of one entry line
MAX_ERROR = 600  # characters of one error message shown on the page
MAX_PHONES = 64  # phones whose last reply each game keeps (the oldest is forgotten first)
PING_SECONDS = 15.0  # a comment on the push channel this often keeps proxies and idle timers from closing it
RETRY_MS = 1000  # the push channel tells the browser to reconnect this soon after losing the server
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
NONCE = re.compile(r"[A-Za-z0-9_-]{1,64}")
LOCAL_HOSTS = ("127.0.0.1", "localhost")
HOLDER = "assist serve"

@dataclass(frozen=True)
class Snapshot:
    """What every page of one game shows, made under the game's lock after each change (never half-way)."""

    version: int
    lines: tuple[str, ...]
    live: Markup  # the shared part of the page (state and history), drawn once per version
    finished: bool = False  # no entry is legal any more (the home page says so)


@dataclass
class PhoneReply:
    """One phone's last answer: the views of its reply, its error, the line kept in its box, and the nonce of
    the request that made it (a request sent twice with one nonce is done once)."""

    views: list[Any] = field(default_factory=list)
    error: str | None = None
    entered: str = ""
    nonce: str = ""
    summary: str | None = None  # what the accepted entry changed, in one line
    pasted: str = ""  # a setup import (a game's deal text) that failed, kept in its box


@dataclass
class OpenGame:
    """A game being played: its session, journal, lock, the current snapshot and each phone's last reply."""

    id: str
    spec: GameEntry
    session: Any
    path: Path
    snapshot: Snapshot
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    replies: OrderedDict[str, PhoneReply] = field(default_factory=OrderedDict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set (and replaced) at every new version
    kept: str | None = None  # the setup import waiting beside the journal (its text), as last written or read

    def reply_of(self, phone: str) -> PhoneReply:
        return self.replies.get(phone) or PhoneReply()

    def remember(self, phone: str, reply: PhoneReply) -> None:
        self.replies[phone] = reply
        self.replies.move_to_end(phone)
        while len(self.replies) > MAX_PHONES:
            self.replies.popitem(last=False)

    def publish(self, snapshot: Snapshot) -> None:
        """Make ``snapshot`` the current one and wake every push channel (event loop thread only)."""
        self.snapshot = snapshot
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()


@dataclass(frozen=True)
class SavedGame:
    """A row of the home page: a journal in the games folder, or a file there that cannot be opened and why."""

    id: str
    spec: GameEntry | None
    size: int
    modified: float
    problem: str | None = None


class GameStore:
    """The games folder: new games, saved journals, and the games open in this server.

    The folder is untrusted: only regular files directly in it are read (opened relative to the folder, never
    through a link, never blocking on a FIFO or device), listing reads a journal's first line only, and every
    method that touches files is called off the event loop."""

    def __init__(self, folder: Path, games: Registry) -> None:
        self.folder = folder
        self.games = games
        self.open: dict[str, OpenGame] = {}
        self._opening = asyncio.Lock()

    def clean_temp_files(self) -> int:
        """Remove the temp files writes killed half-way left, of every journal no program is writing now."""
        removed = 0
        for tmp in self.folder.glob(".*.journal.*.tmp"):
            name = tmp.name[1:].split(".journal.", 1)[0] + ".journal"
            journal = Journal(self.folder / name, "")
            try:
                journal.lock(HOLDER)  # held by another program: its temp files may be in use
            except AssistantError:
                continue
            try:
                removed += journal.clean_temp_files()
            finally:
                journal.unlock()
        return removed

    def saved(self) -> list[SavedGame]:
        """Saved games, newest first, and the ``*.journal`` files that cannot be opened (with the reason)."""
        rows: list[SavedGame] = []
        folder_fd = os.open(self.folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            with os.scandir(folder_fd) as entries:
                names = sorted(e.name for e in entries if e.name.endswith(".journal"))
            for name in names[:1000]:
                stem = name[: -len(".journal")]
                if not GAME_ID.fullmatch(stem):
                    continue
                try:
                    info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
                    header = read_header(name, dir_fd=folder_fd)
                except (AssistantError, OSError) as exc:
                    rows.append(SavedGame(stem, None, 0, 0.0, _reason(exc)))
                    continue
                spec = self.games.of_header(header)
                if spec is None:
                    continue  # not a journal of ours (notes, another program's file): not listed
                problem = None
                if info.st_size > MAX_JOURNAL_BYTES:
                    problem = f"{info.st_size:,} bytes, over the limit of {MAX_JOURNAL_BYTES:,}"
                rows.append(SavedGame(stem, spec, info.st_size, info.st_mtime, problem))
        finally:
            os.close(folder_fd)
        return sorted(rows, key=lambda r: (r.problem is not None, -r.modified))

    def path_of(self, game_id: str) -> Path:
        """The journal of ``game_id``; only ids matching :data:`GAME_ID` (no path can be named)."""
        if not GAME_ID.fullmatch(game_id):
            raise KeyError(game_id)
        return self.folder / f"{game_id}.journal"

    @staticmethod
    def pending_path(journal: Path) -> Path:
        """Where a game's waiting setup import is kept (:func:`solver.session.pending_path`)."""
        return pending_path(journal)

    def _restore_pending(self, session: Any, path: Path) -> str | None:
        """Give a game with no entry the setup import kept beside its journal (a BGA deal waiting for its seat
        order; :func:`solver.session.restore_pending`); returns its text. A file that is missing, hostile or no
        deal is ignored: the page asks for the paste."""
        return restore_pending(session, path)

    def keep_pending(self, game: OpenGame) -> str | None:
        """Keep the game's waiting setup import beside its journal (written atomically), or remove it once
        nothing waits, so a new server still asks for the seat order (lock held, worker thread). Returns a
        one-line note if it cannot be written."""
        try:
            game.kept = keep_pending(game.session, game.path, game.kept)
        except OSError as exc:
            return f"the waiting deal is not kept for a restart of the server ({exc.strerror})"
        return None

    def create(self, spec: GameEntry) -> str:
        """A new empty game of ``spec`` (its journal, header only, created exclusively); returns its random id.
        A journal that cannot be written is removed again: no empty journal is left behind."""
        for _ in range(100):
            game_id = f"{spec.name}-{secrets.token_urlsafe(9)}"
            try:
                Journal.create(self.path_of(game_id), spec.header)
            except FileExistsError:
                continue
            except OSError as exc:
                raise AssistantError(f"cannot create a journal in the games folder ({exc.strerror})") from None
            return game_id
        raise AssistantError("cannot find a free game id")

    async def get(self, game_id: str, draw: Callable[[OpenGame], Snapshot]) -> OpenGame:
        """The open game ``game_id``, resumed from its journal on first use (KeyError: no such game;
        AssistantError: it cannot be opened, in words)."""
        if game_id in self.open:
            return self.open[game_id]
        async with self._opening:
            if game_id not in self.open:
                path = self.path_of(game_id)
                self.open[game_id] = await run_in_threadpool(self._resume, game_id, path, draw)
        return self.open[game_id]

    def _resume(self, game_id: str, path: Path, draw: Callable[[OpenGame], Snapshot]) -> OpenGame:
        """A session replaying the journal at ``path``, locked for this server and writing to it from now on."""
        try:
            header = read_header(path)
        except AssistantError as exc:
            if not os.path.lexists(path):
                raise KeyError(game_id) from None
            raise AssistantError(_reason(exc)) from None
        spec = self.games.of_header(header)
        if spec is None:
            raise KeyError(game_id)
        journal = Journal(path, spec.header)
        journal.lock(HOLDER)
        try:
            try:
                text = read_text(path)
            except AssistantError as exc:
                raise AssistantError(_reason(exc)) from None
            lines = [line for line in text.splitlines()[1:] if line.split("#", 1)[0].strip()]
            session = spec.new_session()
            try:
                session.replay(lines)
            except AssistantError as exc:
                raise AssistantError(f"its entry {len(session.lines) + 1} does not fit: {cut(str(exc), 200)}") \
                    from None
            session.journal = journal
            game = OpenGame(game_id, spec, session, path, Snapshot(0, (), Markup("")),
                            kept=self._restore_pending(session, path))
            game.snapshot = draw(game)
            return game
        except BaseException:
            journal.unlock()
            raise

    def rename(self, old: str, path: Path, new: str) -> None:
        """Move the journal of ``old`` to ``new`` (the caller holds ``_opening``); an open game keeps playing on
        the new name. KeyError: no such game; AssistantError: the name is taken, or another program writes it."""
        target = self.path_of(new)
        if os.path.lexists(target):
            raise AssistantError(f"name '{new}': a saved game has that name already")
        if not os.path.lexists(path):
            raise KeyError(old)
        game = self.open.get(old)
        header = game.spec.header if game is not None else ""
        journal = game.session.journal if game is not None else Journal(path, header)
        if game is None:
            journal.lock(HOLDER)  # JournalBusy while a terminal writes it: nothing moves
        journal.unlock()
        with contextlib.suppress(OSError):
            journal.lock_path.unlink()
        try:
            os.rename(path, target)
            with contextlib.suppress(OSError):  # a waiting setup import moves too; a stale one there goes
                if os.path.lexists(self.pending_path(path)):
                    os.rename(self.pending_path(path), self.pending_path(target))
                else:
                    self.pending_path(target).unlink(missing_ok=True)
        finally:
            if game is not None:
                now = target if os.path.lexists(target) and not os.path.lexists(path) else path
                moved = Journal(now, header)
                moved.lock(HOLDER)
                game.session.journal = moved
                if now == target:
                    del self.open[old]
                    game.id, game.path = new, target
                    self.open[new] = game

    def delete(self, game_id: str, path: Path) -> None:
        """Remove the journal of ``game_id`` (the caller holds ``_opening``); refused while another program
        writes it."""
        game = self.open.get(game_id)
        journal = game.session.journal if game is not None else Journal(path, "")
        if game is None:
            journal.lock(HOLDER)  # JournalBusy while a terminal writes it: nothing is removed
        try:
            path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                self.pending_path(path).unlink(missing_ok=True)
        finally:
            journal.unlock()
            with contextlib.suppress(OSError):
                journal.lock_path.unlink()
        self.open.pop(game_id, None)

    def close(self) -> None:
        """Give up every open game's journal (the server stops)."""
        for game in self.open.values():
            if game.session.journal is not None:
                game.session.journal.unlock()


def _reason(exc: BaseException) -> str:
    """Why a file cannot be opened, without the path the message starts with (the page names the game)."""
    text = str(exc)
    return text.split("': ", 1)[1] if text.startswith("file '") and "': " in text else cut(text, 200)


def create_app(games_dir: Path, token: str | None = None, games: Registry | None = None,
               hosts: Iterable[str] = ()) -> Starlette:
    """The web app over the games in ``games_dir`` (the registered games, or ``games``). It answers only to
    the host names 127.0.0.1, localhost and ``hosts`` (the ``--lan`` address); with ``token``, every request
    must carry it."""
    if games is None:
        from models import GAMES as games
    games_dir.mkdir(parents=True, exist_ok=True)
    store = GameStore(games_dir, games)
    store.clean_temp_files()
    boot = secrets.token_urlsafe(6)  # tells a page that the server restarted (versions start again)
    env = Environment(loader=PackageLoader("assistant_cli.web", "templates"), autoescape=select_autoescape())
    env.globals["view_html"] = html.render
    env.filters["when"] = lambda t: time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    env.filters["size"] = lambda n: f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} bytes"
    env.filters["entry_links"] = taps.link_entries

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def _saved_rows() -> list[taps.SavedGame]:
        """The home page's rows (worker thread): each saved game's players, your seat, entries, whether it is
        finished (known for the games open here) and its last change; a journal that cannot be read says why
        while the others stay listed."""
        rows: list[taps.SavedGame] = []
        for row in store.saved():
            problem = row.problem
            if problem is None and row.spec is not None:
                game = store.open.get(row.id)
                try:
                    rows.append(taps.saved_game(row.id, row.spec, store.path_of(row.id),
                                                game.snapshot.finished if game is not None else None))
                    continue
                except (AssistantError, OSError) as exc:  # its header is fine: listed, and opening it says why
                    rows.append(taps.SavedGame(row.id, row.spec.title, "?", "?", 0, False, row.modified,
                                               note=f"its entries cannot be read: {_reason(exc)}"))
                    continue
            title = row.spec.title if row.spec is not None else f"{row.id}.journal"
            rows.append(taps.SavedGame(row.id, title, "?", "?", 0, False, row.modified, problem))
        return rows

    def draw(game: OpenGame, version: int = 0) -> Snapshot:
        """The snapshot of ``game`` as it is now (called with the game's lock held, in a worker thread)."""
        session = game.session
        lines = tuple(session.lines)
        live = env.get_template("live.html").render(
            game=game, version=version, boot=boot, state=_state_views(session), history=lines)
        return Snapshot(version, lines, Markup(live), _finished(session))

    async def home(request: Request) -> Response:
        rows = await run_in_threadpool(_saved_rows)
        return page("home.html", games=list(games), saved=rows)

    async def new_game(request: Request) -> Response:
        form = await request.form()
        name = str(form.get("game", ""))
        spec = games.get(name)
        if spec is None:
            return PlainTextResponse(f"unknown game '{cut(name)}'; expected one of {', '.join(games.names())}",
                                     status_code=400)
        try:
            game_id = await run_in_threadpool(store.create, spec)
        except AssistantError as exc:
            return PlainTextResponse(str(exc), status_code=507)
        return RedirectResponse(f"/g/{game_id}", status_code=303)

    async def open_game(request: Request) -> OpenGame | Response:
        game_id = request.path_params["game_id"]
        try:
            return await store.get(game_id, draw)
        except KeyError:
            return PlainTextResponse(f"no game '{cut(game_id)}' in the games folder", status_code=404)
        except AssistantError as exc:
            return PlainTextResponse(f"cannot open '{cut(game_id)}': {cut(str(exc), MAX_ERROR)}", status_code=409)

    async def game_page(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        async with game.lock:  # the setup question reads the session
            reply = game.reply_of(phone_of(request))
            step = await run_in_threadpool(_step, game.session)
            box, offered = await run_in_threadpool(_entry_box, game.session, reply, step)
            snapshot, importing = game.snapshot, _import_label(game.session)
        return page("game.html", game=game, snapshot=snapshot, reply=reply, step=step, boot=boot, importing=importing,
                    box=box, choices=offered)

    async def game_panel(request: Request) -> Response:
        """The shared part of the page (state and history) unless the phone already shows this version."""
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        snapshot = game.snapshot
        if request.query_params.get("v") == f"{boot}.{snapshot.version}":
            return Response(status_code=204)  # nothing new: the page stays as it is
        return HTMLResponse(snapshot.live)

    async def game_line(request: Request) -> Response:
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        form = await request.form()
        line = str(form.get("line", "")).replace("\r", " ").replace("\n", " ").strip()
        nonce = str(form.get("nonce", ""))
        nonce = nonce if NONCE.fullmatch(nonce) else ""
        phone = phone_of(request)
        async with game.lock:
            mine = game.replies.get(phone)
            if nonce and mine is not None and mine.nonce == nonce:  # the same tap sent again: done once
                reply, step = mine, await run_in_threadpool(_step, game.session) if mine.error is None else None
            else:
                reply, step = await run_in_threadpool(_write, game, line, nonce, asyncio.get_running_loop())
                game.remember(phone, reply)
            box, offered = await run_in_threadpool(_entry_box, game.session, reply, step)
            snapshot, importing = game.snapshot, _import_label(game.session)
        return page("panel.html", game=game, snapshot=snapshot, reply=reply, step=step, boot=boot, importing=importing,
                    box=box, choices=offered)

    def _write(game: OpenGame, line: str, nonce: str,
               loop: asyncio.AbstractEventLoop) -> tuple[PhoneReply, dict[str, Any] | None]:
        """Handle ``line`` (lock held, worker thread): the session's answer and its journal write, then, if the
        entries changed, the next snapshot, drawn and made current before the lock goes (the push follows on
        the event loop). A refused line leaves the entries, journal, version and snapshot as they were.
        Returns the phone's reply and the next setup question (None after an error: the box keeps the line)."""
        session = game.session
        reply = PhoneReply(nonce=nonce)
        if len(line) > MAX_LINE:
            reply.error = f"line of {len(line):,} characters: expected at most {MAX_LINE}"
            return reply, None
        if not line:
            return reply, _step(session)
        before = list(session.lines)
        try:
            answer = session.handle(line)
            reply.views = [] if _shows_state(answer) else list(answer.renderables)
            reply.summary = answer.summary if answer.accepted or answer.summary else None
        except AssistantError as exc:
            reply.error, reply.entered = cut(str(exc), MAX_ERROR), line
        finally:
            _publish_if_changed(game, before, loop)
        note = store.keep_pending(game)  # 'seats' finished a waiting deal: it is no longer kept
        if note is not None:
            reply.views.append(v.Text(note, "muted"))
        return reply, _step(session) if reply.error is None else None

    def _publish_if_changed(game: OpenGame, before: list[str], loop: asyncio.AbstractEventLoop) -> None:
        """If the entries changed, draw the next snapshot and make it current before the lock goes (this reply
        shows it at once); the push channels wake on the event loop."""
        if game.session.lines != before:
            snapshot = draw(game, game.snapshot.version + 1)
            game.snapshot = snapshot
            loop.call_soon_threadsafe(game.publish, snapshot)

    def _import(game: OpenGame, text: str, seats: str,
                loop: asyncio.AbstractEventLoop) -> tuple[PhoneReply, dict[str, Any] | None]:
        """Import a pasted setup (lock held, worker thread), as one write: refused, it changes nothing and the
        phone's box keeps the text."""
        session = game.session
        reply = PhoneReply()
        if _import_label(session) is None:
            reply.error = "import: this game takes no pasted setup, or its setup has started"
            return reply, None
        before = list(session.lines)
        try:
            answer = session.import_setup(text, seats)
            reply.views = [] if _shows_state(answer) else list(answer.renderables)
        except AssistantError as exc:
            reply.error, reply.pasted = cut(str(exc), MAX_ERROR), text
        finally:
            _publish_if_changed(game, before, loop)
        note = store.keep_pending(game)
        if note is not None:
            reply.views.append(v.Text(note, "muted"))
        return reply, _step(session)

    async def game_import(request: Request) -> Response:
        """A pasted setup (a game whose session has ``import_setup``: a Board Game Arena deal), before any entry."""
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        form = await request.form()
        text, seats = str(form.get("deal", "")), str(form.get("seats", ""))[:MAX_LINE]
        phone = phone_of(request)
        async with game.lock:
            reply, step = await run_in_threadpool(_import, game, text, seats, asyncio.get_running_loop())
            game.remember(phone, reply)
            box, offered = await run_in_threadpool(_entry_box, game.session, reply, step)
            snapshot, importing = game.snapshot, _import_label(game.session)
        return page("panel.html", game=game, snapshot=snapshot, reply=reply, step=step, boot=boot, importing=importing,
                    box=box, choices=offered)

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
        seat = request.query_params.get("kind", "") == "seat"  # a tapped player, not a card
        async with game.lock:
            found = await run_in_threadpool(taps.object_buttons, game.session, word, seat)
        return page("choices.html", choices=found, text="")

    async def game_rename(request: Request) -> Response:
        """Rename a saved game (its journal and lock move with it); refused while another program writes it."""
        form = await request.form()
        old, new = request.path_params["game_id"], str(form.get("name", "")).strip()[:MAX_LINE]
        try:
            path = store.path_of(old)
        except KeyError:
            return PlainTextResponse(f"no game '{cut(old, 40)}' in the games folder", status_code=404)
        if not GAME_ID.fullmatch(new) or new.endswith(".journal"):
            return PlainTextResponse(f"name '{cut(new, 40)}': expected letters, digits, '.', '_' or '-' (at most 100)",
                                     status_code=400)
        async with store._opening, contextlib.AsyncExitStack() as held:
            if old in store.open:  # no entry of this game runs while its journal moves
                await held.enter_async_context(store.open[old].lock)
            try:
                await run_in_threadpool(store.rename, old, path, new)
            except KeyError:
                return PlainTextResponse(f"no game '{cut(old, 40)}' in the games folder", status_code=404)
            except AssistantError as exc:
                return PlainTextResponse(cut(str(exc), MAX_ERROR), status_code=409)
        return RedirectResponse("/", status_code=303)

    async def game_delete(request: Request) -> Response:
        """Delete a saved game: a GET asks first, the POST deletes; refused while another program writes it."""
        game_id = request.path_params["game_id"]
        try:
            path = store.path_of(game_id)
        except KeyError:
            return PlainTextResponse(f"no game '{cut(game_id, 40)}' in the games folder", status_code=404)
        if not os.path.lexists(path):
            return PlainTextResponse(f"no game '{cut(game_id, 40)}' in the games folder", status_code=404)
        if request.method == "GET":  # deleting asks first
            return page("delete.html", game_id=game_id)
        async with store._opening, contextlib.AsyncExitStack() as held:
            if game_id in store.open:  # no entry of this game runs while its journal moves
                await held.enter_async_context(store.open[game_id].lock)
            try:
                await run_in_threadpool(store.delete, game_id, path)
            except AssistantError as exc:
                return PlainTextResponse(cut(str(exc), MAX_ERROR), status_code=409)
        return RedirectResponse("/", status_code=303)

    async def game_events(request: Request) -> Response:
        """The push channel: the shared part of the page each time it changes (Server-Sent Events)."""
        game = await open_game(request)
        if isinstance(game, Response):
            return game
        return StreamingResponse(_events(game, request), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def _events(game: OpenGame, request: Request) -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        seen = -1
        while True:
            snapshot = game.snapshot
            if snapshot.version != seen:
                seen = snapshot.version
                data = "\n".join(f"data: {part}" for part in str(snapshot.live).split("\n"))
                yield f"event: live\nid: {boot}.{seen}\n{data}\n\n"
                continue
            waiter = game.changed
            try:
                await asyncio.wait_for(waiter.wait(), PING_SECONDS)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                yield ": ping\n\n"

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(store.close)

    routes = [
        Route("/", home),
        Route("/new", new_game, methods=["POST"]),
        Route("/g/{game_id}", game_page),
        Route("/g/{game_id}/panel", game_panel),
        Route("/g/{game_id}/events", game_events),
        Route("/g/{game_id}/line", game_line, methods=["POST"]),
        Route("/g/{game_id}/compose", game_compose),
        Route("/g/{game_id}/import", game_import, methods=["POST"]),
        Route("/g/{game_id}/starts", game_starts),
        Route("/g/{game_id}/rename", game_rename, methods=["POST"]),
        Route("/g/{game_id}/delete", game_delete, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(packages=[("assistant_cli.web", "static")]), name="static"),
    ]
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(HostGuard, hosts=[*LOCAL_HOSTS, *hosts]),
        *([Middleware(TokenGate, token=token)] if token is not None else []),
        Middleware(PhoneId),
        Middleware(BodyLimit, limit=MAX_BODY),
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.store = store
    return app


def _shows_state(reply: Any) -> bool:
    """Whether a reply is the state view after an entry (the page shows the state anyway)."""
    return bool(reply.accepted) or not reply.renderables


def _entry_box(session: Any, reply: PhoneReply, step: dict[str, Any] | None) -> tuple[str, list[Any]]:
    """What the phone's entry box holds (its refused line, else the setup question's prefix) and the legal
    choices that may follow it (lock held, worker thread)."""
    box = reply.entered or (step["prefix"] if step else "")
    return box, taps.buttons(session, box)


def _finished(session: Any) -> bool:
    """Whether no entry is legal any more (drawn with each snapshot, under the game's lock)."""
    try:
        return taps.is_finished(session)
    except AssistantError:
        return False


def _import_label(session: Any) -> str | None:
    """What a game's setup import reads (its session's ``IMPORT_LABEL``), while no entry is recorded; else None."""
    label = getattr(session, "IMPORT_LABEL", None)
    return str(label) if label and hasattr(session, "import_setup") and not session.lines else None


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


def phone_of(request: Request) -> str:
    """The id of the phone (browser) that sent ``request``, which :class:`PhoneId` put in the scope."""
    return str(request.scope.get("phone", ""))
