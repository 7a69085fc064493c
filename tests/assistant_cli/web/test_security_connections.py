"""Bounded connections (issue 20 §5) on a real ``assist serve``: idle and trickling connections are closed after
the header deadline, oversized headers are refused, and the settings uvicorn runs with."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from assistant_cli.web.serve import (
    HEADER_SECONDS,
    KEEP_ALIVE,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
    server_config,
)
from tests.assistant_cli.web.conftest import Server, start_server


def address(server: Server) -> tuple[str, int]:
    return "127.0.0.1", int(server.url.rsplit(":", 1)[1])


def closed_after(sock: socket.socket, limit: float, trickle: bool) -> float:
    """Seconds until the server closes ``sock`` (sending a header line a second if ``trickle``)."""
    start = time.perf_counter()
    sock.settimeout(1.0)
    while time.perf_counter() - start < limit:
        if trickle:
            try:
                sock.sendall(b"X-Slow: a\r\n")
            except OSError:
                return time.perf_counter() - start
        try:
            if sock.recv(1024) == b"":
                return time.perf_counter() - start
        except TimeoutError:
            continue
        except OSError:
            return time.perf_counter() - start
    return float("inf")


def test_idle_and_trickling_connections_are_closed(servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    idle = socket.create_connection(address(server))
    slow = socket.create_connection(address(server))
    slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    took: dict[str, float] = {}
    threads = [threading.Thread(target=lambda: took.__setitem__("idle", closed_after(idle, HEADER_SECONDS + 5,
                                                                                     False))),
               threading.Thread(target=lambda: took.__setitem__("slow", closed_after(slow, HEADER_SECONDS + 5,
                                                                                     True)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    idle.close()
    slow.close()
    assert HEADER_SECONDS - 1 <= took["idle"] <= HEADER_SECONDS + 3, took
    assert HEADER_SECONDS - 1 <= took["slow"] <= HEADER_SECONDS + 3, took
    with socket.create_connection(address(server)) as ok:  # a real request is still answered
        ok.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        ok.settimeout(30)
        assert ok.recv(12) == b"HTTP/1.1 200"


def test_oversized_headers_are_refused(servers: list[Server], tmp_path: Path) -> None:
    server = start_server(tmp_path)
    servers.append(server)
    with socket.create_connection(address(server)) as sock:
        sock.settimeout(30)
        # Headers that never end, past the limit: refused at once, not buffered until memory runs out.
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (MAX_HEADER_BYTES + 100))
        start = time.perf_counter()
        answer = sock.recv(100)
    assert answer.startswith(b"HTTP/1.1 400") or answer == b"", answer
    assert time.perf_counter() - start < HEADER_SECONDS - 2  # not the header deadline: the size limit


def test_uvicorn_runs_with_the_bounds() -> None:
    config = server_config(object(), lan=True)
    assert config["timeout_keep_alive"] == KEEP_ALIVE == 5
    assert config["h11_max_incomplete_event_size"] == MAX_HEADER_BYTES == 16_384
    assert config["limit_concurrency"] == MAX_CONNECTIONS == 64
    assert config["http"].__name__ == "BoundedH11" and HEADER_SECONDS == 10
    assert server_config(object(), lan=False)["limit_concurrency"] == MAX_CONNECTIONS


def test_answers_go_out_at_once_not_after_a_delayed_acknowledgement() -> None:
    """``assist serve``'s socket names TCP, so asyncio turns Nagle's algorithm off on every accepted connection;
    with it on, every answer's last segment waited about 40 ms for the phone's delayed acknowledgement."""
    import asyncio

    from assistant_cli.web.serve import listening_socket

    sock = listening_socket("127.0.0.1", 0)

    async def accepted_nodelay() -> int:
        loop = asyncio.get_running_loop()
        accepted: asyncio.Future[int] = loop.create_future()

        class Accept(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted.set_result(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP,
                                                                                   socket.TCP_NODELAY))

        server = await loop.create_server(Accept, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname())
        value = await asyncio.wait_for(accepted, 10)
        writer.close()
        server.close()
        await server.wait_closed()
        return value

    got: list[int] = []
    # A thread of its own: a browser test's event loop may be running in this one (asyncio.run would refuse).
    runner = threading.Thread(target=lambda: got.append(asyncio.run(accepted_nodelay())))
    try:
        runner.start()
        runner.join(30)
    finally:
        sock.close()
    assert got and got[0] != 0, got
    assert sock.proto == socket.IPPROTO_TCP
