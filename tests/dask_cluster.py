"""A real Dask cluster for tests: one ``dask scheduler`` and N ``dask worker`` processes on 127.0.0.1.

Without ``distributed`` the tests that need it skip with the reason, except under ``CI=true``, where the
missing package is a failure (CI installs the ``cluster`` extra). Every process started here is stopped, with
timeouts, when the ``with`` block ends.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60.0


def need_distributed() -> None:
    """Skip the calling test when ``distributed`` is missing (fail instead under ``CI=true``)."""
    if importlib.util.find_spec("distributed") is not None:
        return
    message = "Dask's 'distributed' is not installed: pip install -e '.[cluster]'"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _start(args: list[str]) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for_line(proc: subprocess.Popen[str], pattern: str) -> re.Match[str]:
    """The first stderr line of ``proc`` matching ``pattern`` (the rest of stderr is drained and dropped)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen = []
    while True:
        try:
            line = lines.get(timeout=START_SECONDS)
        except queue.Empty:
            raise AssertionError(f"no '{pattern}' within {START_SECONDS:.0f} s: {''.join(seen)[-2000:]}") from None
        if line is None:
            raise AssertionError(f"process ended before '{pattern}': {''.join(seen)[-2000:]}")
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            # keep draining in the background so a full pipe never blocks the process
            return found


def stop(proc: subprocess.Popen[str]) -> None:
    """Stop ``proc`` and everything it started (its own session), politely first, then by force."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        except ProcessLookupError:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # a worker process its nanny left behind


@contextmanager
def dask_processes(workers: int = 2) -> Iterator[str]:
    """Start a scheduler and ``workers`` one-thread workers on 127.0.0.1; yield the scheduler's address once
    every worker has joined."""
    need_distributed()
    import distributed

    started: list[subprocess.Popen[str]] = []
    try:
        scheduler = _start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                            "--dashboard-address", "127.0.0.1:0"])  # its HTTP server runs even with no dashboard
        started.append(scheduler)
        address = _wait_for_line(scheduler, r"Scheduler at:\s+(tcp://\S+)").group(1)
        for _ in range(workers):
            started.append(_start(["worker", address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1",
                                   "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]))
        with distributed.Client(address, timeout=START_SECONDS) as client:
            client.wait_for_workers(workers, timeout=START_SECONDS)
        yield address
    finally:
        for proc in reversed(started):
            stop(proc)
