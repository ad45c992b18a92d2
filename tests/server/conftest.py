"""Fixtures: the app over ASGI with its lifespan (SQLite in a temporary folder, or a fresh PostgreSQL
database and Redis, see ``backing.py``), an httpx client on it, and people with tokens."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from mail_sink import Sink, smtp_sink

from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

from .backing import TEST_REDIS_URL, fresh_database, redis_keys
from .backing import redis_prefix as unique_prefix


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def settings_for(folder: Path, database_url: str | None = None, redis_prefix: str | None = None) -> Settings:
    """A test app's settings; a Redis key prefix of its own, so that no two tests share counters or jobs."""
    return Settings(
        data_dir=folder, database_url=database_url, redis_url=TEST_REDIS_URL,
        redis_prefix=redis_prefix or unique_prefix(),
        bot_workers=1, secret_key="test-secret",
    )


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[FastAPI]:
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        application = create_app(settings_for(tmp_path, url, prefix))
        async with application.router.lifespan_context(application):
            yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
        yield http

@pytest.fixture
async def db_url() -> AsyncIterator[str | None]:
    """A fresh PostgreSQL database when the suite runs on one (SPIELTAFEL_TEST_DATABASE_URL), else None."""
    async with fresh_database() as url:
        yield url


@pytest.fixture
def sink() -> Iterator[tuple[Sink, int]]:
    """An SMTP sink (``mail_sink.smtp_sink``) and its port."""
    with smtp_sink() as running:
        yield running
