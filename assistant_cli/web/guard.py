"""The guards in front of ``assist serve``'s app: pure ASGI middleware that sees every HTTP and WebSocket scope.

Only the table's pages may act: :class:`HostGuard` (the ``Host`` the server serves; ``Origin`` and
``Sec-Fetch-Site`` of the page that sent a request), :class:`TokenGate` (the ``--lan`` join token, on every
channel), :class:`PhoneId` (a random id per browser, so replies stay with the phone that asked),
:class:`SecurityHeaders` (CSP and friends on every response) and :class:`BodyLimit` (bounded request bodies).
Each refusal is one line of text with a 403 (a WebSocket is closed before it is accepted), never a traceback.
See ``docs/security.md`` for the threat model and the tests that show each defence.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse, RedirectResponse, Response

MAX_ECHO = 80  # characters of a user's text echoed in a message (a game id, a game name, a host)
TOKEN_COOKIE = "assist_token"
PHONE_COOKIE = "assist_phone"
PHONE_ID_LENGTH = 22  # characters of secrets.token_urlsafe(16)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def cut(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` as echoed back: whole if at most ``limit`` characters, else its start and its full size."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"



def _headers(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by lower-case name (the last one of a repeated name)."""
    return {name.lower(): value for name, value in scope["headers"]}  # every HTTP and WebSocket scope has them


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, text: str) -> None:
    """Answer ``status`` with one line of ``text`` (a WebSocket is closed before it is accepted: HTTP 403)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": text[:120]})
        return
    await PlainTextResponse(text, status_code=status)(scope, receive, send)


def same_secret(given: str, secret: str) -> bool:
    """Constant-time comparison of any text (non-ASCII included: never an exception) with ``secret``."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode("utf-8"))


class HostGuard:
    """Only the table's pages may act.

    - ``Host`` must name this server (127.0.0.1, localhost or the ``--lan`` address): a page on another site
      that rebinds its DNS name to this machine (``Host: evil.test``) gets 403 for every request.
    - A request whose ``Origin`` is not this server's own (``http://`` + the checked ``Host``), or ``null``, is
      refused: browsers send it on every POST and on cross-origin fetches, EventSource and WebSockets, so no
      other page (another site, or another port of this machine) can post entries, create games or listen to
      the push channel.
    - ``Sec-Fetch-Site`` (sent by browsers to 127.0.0.1 and localhost) must be ``same-origin`` or ``none``,
      except for a plain link followed to a page (a GET navigation), which changes nothing.
    Programs that are not browsers send neither header; on the LAN the join token still stands before them."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get(b"host", b"").decode("latin-1")
        if _host_name(host) not in self.hosts:
            await refuse(scope, receive, send, 403, f"unknown host '{cut(host, 60)}': open the address "
                         "the server printed")
            return
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1").lower() != f"http://{host}".lower():
            await refuse(scope, receive, send, 403, f"refused: sent by another page "
                         f"('{cut(origin.decode('latin-1'), 60)}')")
            return
        site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
        if site not in ("", "same-origin", "none"):
            navigation = (scope["type"] == "http" and scope.get("method") in ("GET", "HEAD")
                          and headers.get(b"sec-fetch-mode", b"").lower() == b"navigate")
            if not navigation:
                await refuse(scope, receive, send, 403, f"refused: sent by another page ({cut(site, 20)})")
                return
        await self.app(scope, receive, send)


def _host_name(host: str) -> str:
    """The name part of a ``Host`` header (``name`` or ``name:port``), lower case; '' if malformed. The server
    listens on IPv4 only, so an IPv6 literal (``[::1]``) never names it."""
    name, _, port = host.strip().lower().partition(":")
    if port and not (port.isascii() and port.isdigit()):
        return ""
    return name


class TokenGate:
    """With ``--lan``: every request (HTTP and WebSocket alike) must carry the join token, ``?token=`` once,
    then a cookie; otherwise 403 (a token that is not ASCII too: never a traceback)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request = HTTPConnection(scope)  # HTTP or WebSocket alike
        given = request.query_params.get("token")
        if scope["type"] == "http" and given is not None and same_secret(given, self.token):
            # Drop the token from the address bar once it is in a cookie.
            target = request.url.remove_query_params("token")
            response: Response = RedirectResponse(str(target.path) + (f"?{target.query}" if target.query else ""),
                                                  status_code=303)
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
            await response(scope, receive, send)
            return
        cookie = request.cookies.get(TOKEN_COOKIE, "")  # Starlette's parser reads any header (never raises)
        if not same_secret(cookie, self.token):
            await refuse(scope, receive, send, 403, "join token missing or wrong: open the address the server "
                         "printed")
            return
        await self.app(scope, receive, send)


def is_phone_id(text: str) -> bool:
    """Whether ``text`` is a phone id :class:`PhoneId` gives (anything else gets a fresh one)."""
    return len(text) == PHONE_ID_LENGTH and text.isascii() and all(c.isalnum() or c in "-_" for c in text)


class PhoneId:
    """Gives each browser a random phone id (a cookie) and puts it in the scope as ``phone``: the replies of a
    game are kept per phone, so one phone's errors and ``why`` never show on another."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        phone = HTTPConnection(scope).cookies.get(PHONE_COOKIE, "")
        fresh = not is_phone_id(phone)
        if fresh:
            phone = secrets.token_urlsafe(16)
        scope["phone"] = phone
        if not fresh or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookie = f"{PHONE_COOKIE}={phone}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000".encode()

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie)]
            await send(message)

        await self.app(scope, receive, with_cookie)


#: Headers on every response: scripts only from this server (no inline script), no sniffing, never in a frame,
#: no address (which may hold the join token) sent to another site.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # not no-referrer: Chromium then sends "Origin: null" on form posts
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (refusals included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _headers(scope).get(b"content-length")
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
