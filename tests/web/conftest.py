"""Fixtures of the browser suite: a real server and Debian's Chromium (skipped without it, except in CI)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Server, chromium, chromium_missing_reason, screenshot_dir


def _require_browser() -> None:
    reason = chromium_missing_reason()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser suite cannot run under CI=true: {reason}", pytrace=False)
    pytest.skip(f"browser suite skipped: {reason}")


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    _require_browser()
    running = Server()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _require_browser()
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return screenshot_dir(tmp_path_factory.mktemp("screenshots"))
