"""Fixtures for the web tests: a real ``assist serve`` process on 127.0.0.1 and Debian's Chromium.

The server runs as a child process (so a test can kill it mid-game) on a free port; each fixture stops what it
starts. Without a browser the browser tests skip with the reason, except under ``CI=true``, where a missing
browser is a failure (CI installs Debian's ``chromium``; no tool may download its own browser build).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 # A made-up host name on loopback: a hostile page's own site, and DNS rebinding to this machine.
                 "--host-resolver-rules=MAP evil.test 127.0.0.1, EXCLUDE localhost"]


@dataclass
class Server:
    """A running ``assist serve`` child process and its address."""

    process: subprocess.Popen[str]
    url: str
    games_dir: Path

    def kill(self) -> None:
        """Kill it at once (SIGKILL: no clean shutdown), as a crash would."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(games_dir: Path, port: int = 0) -> Server:
    """Start ``assist serve --port PORT`` (0: any free port) on 127.0.0.1 and wait for the address it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant_cli", "serve", "--port", str(port), "--games-dir", str(games_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
    )
    assert process.stdout is not None
    for _ in range(20):
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found:
            return Server(process, found.group(0).rstrip("/"), games_dir)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError("assist serve did not print its address")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Started servers, all stopped at the end (a test may start more than one, e.g. after a kill)."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright (never a downloaded browser build)."""
    in_ci = os.environ.get("CI", "").lower() == "true"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci:
            pytest.fail("playwright is not installed (CI installs the test extra)")
        pytest.skip("playwright is not installed: pip install -e '.[test]'")
    executable = chromium_path()
    if executable is None:
        if in_ci:
            pytest.fail("no chromium on PATH (CI installs Debian's chromium package)")
        pytest.skip("no chromium on PATH: apt-get install chromium (Debian's package)")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a 390x844 phone viewport."""
    # bypass_csp: Playwright's wait_for_function evaluates its predicate as a string, which the page's CSP
    # (script-src 'self', no eval) forbids; test_security_browser.py checks the page under its own CSP.
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()
