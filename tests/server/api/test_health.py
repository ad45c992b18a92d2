"""``GET /healthz`` turns unhealthy (503) when the database or the pub/sub does not answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

pytestmark = pytest.mark.anyio
NOBODY = "127.0.0.1:9"  # the discard port: nothing listens there


@pytest.fixture
async def redis_down(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(data_dir=tmp_path, redis_url=f"redis://{NOBODY}/0", bot_workers=1, secret_key="t")
    application = create_app(settings)
    transport = httpx.ASGITransport(app=application)
    async with application.router.lifespan_context(application), httpx.AsyncClient(
        transport=transport, base_url="http://t"
    ) as http:
        yield http


async def test_unreachable_redis_is_503(redis_down: httpx.AsyncClient) -> None:
    answer = await redis_down.get("/healthz")
    assert answer.status_code == 503
    expected = {"status": "unavailable", "database": "sqlite", "pubsub": "redis", "unreachable": ["pubsub"]}
    assert answer.json() == expected


async def test_unreachable_database_is_503(app: FastAPI, client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).status_code == 200
    db = app.state.services.db
    working = db.engine
    db.engine = create_async_engine(f"postgresql+asyncpg://postgres@{NOBODY}/nothing")
    try:
        answer = await client.get("/healthz")
    finally:
        await db.engine.dispose()
        db.engine = working
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable" and answer.json()["unreachable"] == ["database"]
    assert (await client.get("/healthz")).status_code == 200
