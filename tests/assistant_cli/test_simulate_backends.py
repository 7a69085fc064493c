"""``assist simulate GAME --json`` gives the same summary in this process, in two local worker processes, on a
local Dask cluster and on a real Dask cluster (a ``dask scheduler`` and two ``dask worker`` processes), for all
four games. Only ``seconds``, the wall time, may differ."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from assistant_cli.main import app
from tests.dask_cluster import dask_processes, need_distributed

runner = CliRunner()

TABLES = {
    "thirteen-clues": ["--players", "3", "--bots", "logic,random,random"],
    "beyond-baker-street": ["--players", "3", "--bots", "advisor"],
    "evidence": ["--players", "4", "--bots", "greedy,random,greedy,random"],
    "time-bomb": ["--players", "5"],
}


def summary(game: str, *where: str, games: int = 5) -> dict[str, object]:
    args = ["simulate", game, *TABLES[game], "--games", str(games), "--seed", "12", "--json", *where]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # byte for byte the same results: no wall time in a summary


@pytest.fixture(scope="module")
def cluster_address() -> Iterator[str]:
    with dask_processes(workers=2) as address:
        yield address


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_backend_gives_the_same_summary(game: str, cluster_address: str) -> None:
    alone = summary(game)
    assert alone["games"] == 5 and alone["seed"] == 12
    assert summary(game, "--workers", "2") == alone
    assert summary(game, "--cluster", cluster_address) == alone


def test_a_local_dask_cluster_gives_the_same_summary() -> None:
    need_distributed()
    game = "evidence"
    assert summary(game, "--cluster", "local:2", games=8) == summary(game, games=8)


def test_the_summary_line_says_where_the_games_ran(cluster_address: str) -> None:
    args = ["simulate", "evidence", *TABLES["evidence"], "--games", "2", "--cluster", cluster_address]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"games/s on the Dask cluster at {cluster_address} (2 workers)" in " ".join(result.stdout.split())


def listening(processes: list[object]) -> list[tuple[str, str]]:
    """(process command, address) of every socket the given psutil processes listen on."""
    import psutil

    out = []
    for proc in processes:
        try:
            sockets = proc.net_connections(kind="inet")  # type: ignore[attr-defined]
            command = " ".join(proc.cmdline()[1:4])  # type: ignore[attr-defined]
        except psutil.NoSuchProcess:
            continue
        out += [(command, s.laddr.ip) for s in sockets if s.status == psutil.CONN_LISTEN]
    return out


def test_the_test_cluster_listens_on_127_0_0_1_only(cluster_address: str) -> None:
    """Servers in tests bind 127.0.0.1 only: the scheduler's and workers' HTTP servers too, which ``dask``
    starts even with ``--no-dashboard`` (on 0.0.0.0 unless told otherwise)."""
    import psutil

    sockets = listening(psutil.Process().children(recursive=True))
    assert len(sockets) >= 6, sockets  # scheduler: its port and HTTP; each worker's nanny and worker: two each
    assert {ip for _, ip in sockets} == {"127.0.0.1"}, sockets


def test_backend_errors_are_one_line() -> None:
    cases = [
        (["--workers", "2", "--cluster", "local:2"], "--workers 2 --cluster local:2: give one of them"),
        (["--cluster", "local:none"], "--cluster local:none: expected local:N with N workers"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["simulate", "evidence", "--games", "1", *args])
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
