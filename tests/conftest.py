"""Shared pytest setup: tests marked ``slow`` run only with ``--runslow`` or ``RUN_SLOW=1``."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def run_slow(config: pytest.Config) -> bool:
    return bool(config.getoption("--runslow")) or os.environ.get("RUN_SLOW", "") not in ("", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if run_slow(config):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
