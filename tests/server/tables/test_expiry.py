"""Issue 26: abandoned open tables expire. An open table whose seats saw no activity (made, a seat taken or
given up) for the site's time is closed by the sweep, exactly once over several processes; its people find
a notice in the lobby, its invitation ends; a started table never expires; 0 means never."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.server.app import create_app

from ..clocked import FakeClock, new_table
from ..conftest import settings_for
from ..helpers import PASSWORD, Person, person

pytestmark = pytest.mark.anyio

HOUR_MS = 3_600_000
MINUTE_MS = 60_000


@asynccontextmanager
async def site(
    folder: Path, clock: FakeClock, url: str | None, turn: int = 1440, live: int = 30
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app with the test's clock and expiry times (minutes); no background sweep: the test sweeps."""
    settings = settings_for(folder, url)
    settings.sweep_seconds = 0
    settings.open_table_expiry_minutes, settings.open_live_table_expiry_minutes = turn, live
    application = create_app(settings, now_ms=clock)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield application, http


async def expire(app: FastAPI) -> int:
    closed: int = await app.state.services.tables.expire_open()
    return closed


async def exists(http: httpx.AsyncClient, table_id: int) -> bool:
    answer = await http.get(f"/api/tables/{table_id}")
    assert answer.status_code in (200, 404), answer.text
    return answer.status_code == 200


async def lobby_of(http: httpx.AsyncClient, who: Person) -> str:
    assert (await http.post("/api/session", json={"name": who.name, "password": PASSWORD})).status_code == 200
    text = (await http.get("/", headers={"Accept-Language": "de"})).text
    http.cookies.clear()
    return text


THREE = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]


async def test_an_open_turn_based_table_expires_after_a_day_without_activity(
    tmp_path: Path, db_url: str | None
) -> None:
    clock = FakeClock()
    async with site(tmp_path, clock, db_url) as (app, http):
        alice, bob, carol = await person(http, "a"), await person(http, "b"), await person(http, "c")
        table_id = await new_table(http, alice, "iquazu", THREE)
        untouched = await new_table(http, carol, "niagara", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
        clock.advance(23 * HOUR_MS)
        assert await expire(app) == 0
        assert (await http.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200  # activity
        clock.advance(2 * HOUR_MS)  # 25 h since it was made, 2 h since bob sat down
        assert await expire(app) == 1  # carol's table: 25 h untouched
        assert await exists(http, table_id) and not await exists(http, untouched)
        clock.advance(22 * HOUR_MS - 1)
        assert await expire(app) == 0 and await exists(http, table_id)
        clock.advance(1)
        assert await expire(app) == 1
        assert not await exists(http, table_id)
        assert await expire(app) == 0  # idempotent
        listed = (await http.get("/api/tables?mine=true", headers=bob.headers)).json()
        assert [t["id"] for t in listed] == []
        for who in (alice, bob):
            text = await lobby_of(http, who)
            assert f"Dein offener Tisch Iquazú #{table_id} wurde geschlossen" in text
            assert f"#{untouched} wurde" not in text
        assert f"Niagara #{untouched} wurde geschlossen" in await lobby_of(http, carol)
        clock.advance(7 * 24 * HOUR_MS + 1)  # notices last a week
        await expire(app)
        assert "wurde geschlossen" not in await lobby_of(http, alice)


async def test_live_tables_expire_sooner_and_started_ones_never(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with site(tmp_path, clock, db_url) as (app, http):
        alice, bob = await person(http, "a"), await person(http, "b")
        live = await new_table(http, alice, "iquazu", THREE, clock={"pace": "live", "minutes": 5})
        turn = await new_table(http, alice, "iquazu", THREE, clock={"pace": "turn", "per_move": "1d"})
        started = await new_table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}])
        assert (await http.post(f"/api/tables/{started}/join", headers=bob.headers)).status_code == 200
        clock.advance(30 * MINUTE_MS)
        assert await expire(app) == 1
        assert not await exists(http, live) and await exists(http, turn)
        clock.advance(30 * 24 * HOUR_MS)
        assert await expire(app) == 1 and not await exists(http, turn)
        assert (await http.get(f"/api/tables/{started}")).json()["status"] in ("playing", "over")


async def test_zero_means_never(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with site(tmp_path, clock, db_url, turn=0, live=0) as (app, http):
        alice = await person(http, "a")
        table_id = await new_table(http, alice, "iquazu", THREE)
        clock.advance(365 * 24 * HOUR_MS)
        assert await expire(app) == 0 and await exists(http, table_id)


async def test_an_expired_private_tables_invitation_ends(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with site(tmp_path, clock, db_url) as (app, http):
        alice, guest = await person(http, "a"), await person(http, "g")
        table_id = await new_table(http, alice, "iquazu", THREE, private=True)
        code = (await http.get(f"/api/tables/{table_id}/invitation", headers=alice.headers)).json()["code"]
        clock.advance(24 * HOUR_MS)
        assert await expire(app) == 1
        answer = await http.post(f"/api/invitations/{code}", headers=guest.headers)
        assert answer.json()["detail"]["code"] == "no-invitation", answer.text


async def test_several_processes_close_a_table_once(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with site(tmp_path, clock, db_url) as (one, http), site(tmp_path, clock, db_url) as (two, _):
        alice = await person(http, "a")
        tables = [await new_table(http, alice, "iquazu", THREE) for _ in range(3)]
        clock.advance(24 * HOUR_MS)
        counts = await asyncio.gather(expire(one), expire(two), expire(one), expire(two))
        assert sum(counts) == 3
        assert [await exists(http, t) for t in tables] == [False] * 3
        text = await lobby_of(http, alice)
        assert all(text.count(f"#{t} wurde geschlossen") == 1 for t in tables)
