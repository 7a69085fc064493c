"""``assist serve``: start the web companion (uvicorn) on this machine or, with ``--lan``, for the table's phones.

Only Typer is imported here: ``assist --help`` lists this command without loading the web stack."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

DEFAULT_PORT = 8765
#: uvicorn's bounds: an idle connection is closed after KEEP_ALIVE seconds, a request's headers may not exceed
#: MAX_HEADER_BYTES, at most MAX_CONNECTIONS connections are served at once (more get 503), and stopping waits
#: at most SHUTDOWN_SECONDS for open push channels.
KEEP_ALIVE = 5
MAX_HEADER_BYTES = 16_384
MAX_CONNECTIONS = 64
SHUTDOWN_SECONDS = 2
#: A connection must complete a request's headers this many seconds after it opens (or after its last answer):
#: idle and trickling connections are closed, so they cannot hold the connection limit against the phones.
HEADER_SECONDS = 10


def server_config(app: object, lan: bool) -> dict[str, object]:
    """uvicorn's settings for ``app``: the same bounds on 127.0.0.1 and on the LAN (where they matter most)."""
    return {"app": app, "log_level": "warning", "timeout_keep_alive": KEEP_ALIVE,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "limit_concurrency": MAX_CONNECTIONS,
            "timeout_graceful_shutdown": SHUTDOWN_SECONDS, "server_header": False, "proxy_headers": False,
            "ws": "none", "lifespan": "on", "http": bounded_protocol()}


def bounded_protocol() -> type:
    """uvicorn's h11 protocol with a header deadline (:data:`HEADER_SECONDS`), which uvicorn lacks: its keep-alive
    timer starts only after a first answer, and any byte received stops it."""
    import asyncio

    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _waiting: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._waiting = self.cycle  # the request cycle there was when the wait began
            self._deadline = asyncio.get_running_loop().call_later(HEADER_SECONDS, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not self._waiting:  # a new request's headers are complete
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def _too_slow(self) -> None:
            self._deadline = None
            if self.cycle is self._waiting and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return BoundedH11


def lan_address() -> str:
    """This machine's address on the local network as its own name resolves (127.0.0.1 if it has none)."""
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address


def serve(
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = DEFAULT_PORT,
    games_dir: Annotated[Path, typer.Option(help="Folder of the games' journals (made if missing).")] = Path("."),
    lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network; every request needs the printed "
                                      "join token.")] = False,
) -> None:
    """Start the web companion: every registered game on a page a phone at the table can open."""
    import secrets

    try:
        import uvicorn

        from assistant_cli.web.app import create_app
    except ImportError as exc:
        typer.echo(f"assist serve needs the web extra ({exc.name} is missing): pip install -e '.[web]'", err=True)
        raise typer.Exit(1) from None
    token = secrets.token_urlsafe(12) if lan else None
    host = "0.0.0.0" if lan else "127.0.0.1"
    address = lan_address() if lan else "127.0.0.1"
    app = create_app(games_dir.resolve(), token, hosts=[address] if lan else [])
    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        typer.echo(f"port {port}: cannot listen on it ({exc.strerror}); try --port 0 for any free port", err=True)
        raise typer.Exit(1) from None
    bound = sock.getsockname()[1]
    if lan:
        url = f"http://{address}:{bound}/?token={token}"
        typer.echo(f"assist serve: open {url} on the phones at the table (the token is needed)")
        if address.startswith("127."):
            typer.echo("(this machine's name resolves to a loopback address: on the phones, put its address on "
                       "the local network in place of " + address + ")")
        _print_qr(url)
    else:
        typer.echo(f"assist serve: open http://127.0.0.1:{bound}/ (this machine only; --lan for phones)")
    typer.echo(f"games folder: {games_dir.resolve()} (Ctrl-C stops the server; every entry is already saved)")
    server = uvicorn.Server(uvicorn.Config(**server_config(app, lan)))  # type: ignore[arg-type]
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port``; connections wait in its backlog from now on, so the printed
    address works at once. It is made with ``IPPROTO_TCP`` named: asyncio turns Nagle's algorithm off
    (``TCP_NODELAY``) only on accepted sockets whose protocol says TCP, and with Nagle on, each answer's last
    segment waits for the phone's delayed acknowledgement, about 40 ms on every request."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _print_qr(url: str) -> None:
    try:
        import segno
    except ImportError:
        return
    segno.make(url, error="m").terminal(compact=True)
