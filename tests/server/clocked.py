"""The app with a clock the test moves (time limits, leavers, e-mails), and the API calls those tests share."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

from .conftest import settings_for
from .helpers import Person, person

START = 1_800_000_000_000


class FakeClock:
    """Epoch milliseconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms




@asynccontextmanager
async def server(
    folder: Path, clock: FakeClock, sweep_seconds: float = 0.0, url: str | None = None
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app on ``folder`` or ``url`` (the database survives between calls: a restart), with the test's clock."""
    settings = settings_for(folder, url)
    settings.sweep_seconds = sweep_seconds
    application = create_app(settings, now_ms=clock)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield application, http


async def new_table(http: httpx.AsyncClient, host: Person, game: str, seats: list[dict[str, str]], **extra: Any) -> int:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    answer = await http.post("/api/tables", json=body, headers=host.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


async def two_people(http: httpx.AsyncClient, game: str = "haleakala", **extra: Any) -> tuple[int, Person, Person]:
    alice, bob = await person(http, "a"), await person(http, "b")
    table_id = await new_table(http, alice, game, [{"kind": "me"}, {"kind": "open"}], **extra)
    assert (await http.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
    return table_id, alice, bob


async def state(http: httpx.AsyncClient, table_id: int, who: Person | None = None) -> dict[str, Any]:
    answer = await http.get(f"/api/tables/{table_id}/state", headers=who.headers if who else None)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


async def first_move(http: httpx.AsyncClient, table_id: int, who: Person) -> httpx.Response:
    current = await state(http, table_id, who)
    action = current["legal"][0]["action"]
    return await http.post(f"/api/tables/{table_id}/moves", json={"seq": current["seq"], "action": action},
                           headers=who.headers)


async def until(check: Any, what: str, polls: int = 3000) -> Any:
    """Wait for a bot or the server's sweeper (real work in other tasks), not for time to pass."""
    for _ in range(polls):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


@asynccontextmanager
async def mailing_server(settings: Settings, clock: FakeClock) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    settings.sweep_seconds = 0
    application = create_app(settings, now_ms=clock)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield application, http


def smtp_settings(folder: Path, port: int) -> Settings:
    settings = settings_for(folder)
    settings.smtp_host, settings.smtp_port, settings.smtp_security = "127.0.0.1", port, "none"
    settings.public_url = "http://spieltafel.test"
    return settings
