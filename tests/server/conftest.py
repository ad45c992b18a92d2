"""Fixtures: the app over ASGI with its lifespan (SQLite in a temporary folder, or the database of
SPIELTAFEL_TEST_DATABASE_URL), an httpx client on it, and people with tokens."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def settings_for(folder: Path) -> Settings:
    return Settings(
        data_dir=folder, database_url=os.environ.get("SPIELTAFEL_TEST_DATABASE_URL") or None,
        bot_workers=1, secret_key="test-secret",
    )


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[FastAPI]:
    application = create_app(settings_for(tmp_path))
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
        yield http
