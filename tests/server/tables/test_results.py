"""A finished game's ratings are made after its last move's commit, exactly once: a failure leaves the game
due and the sweep makes them later; two processes finishing the same game at once rate it once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from spieltafel.core import State
from spieltafel.server.app import create_app
from spieltafel.server.bots import runners
from spieltafel.server.db import RatingChangeRow, TableRow
from spieltafel.server.tables.live import Live

from ..backing import fresh_database, redis_keys
from ..conftest import TEST_REDIS_URL, settings_for
from ..helpers import Seen, person, play_http

pytestmark = pytest.mark.anyio


class Ratings:
    """The app's rating finisher behind a switch: while ``down``, it fails as a lost database would."""

    def __init__(self, app: FastAPI) -> None:
        self.real = app.state.services.ratings.rate_finished
        self.down = True
        self.made: list[int] = []
        app.state.services.tables.finishers[:] = [self]

    async def __call__(self, session: object, live: Live, final: State) -> None:
        if self.down:
            raise ConnectionError("the ratings' database went away")
        await self.real(session, live, final)  # type: ignore[arg-type]
        self.made.append(live.id)


@pytest.fixture
async def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FastAPI]:
    """An app without periodic sweeps, so that the test alone decides when due games are finished."""
    monkeypatch.setattr(runners, "SWEEP_SECONDS", 3600.0)
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        settings = settings_for(tmp_path, url, prefix).model_copy(update={"sweep_seconds": 0.0})
        application = create_app(settings)
        async with application.router.lifespan_context(application):
            yield application


async def _finished_game(app: FastAPI, seed: int) -> int:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        return await _play_a_game(client, seed)


async def _play_a_game(client: httpx.AsyncClient, seed: int) -> int:
    alice = await person(client, "a")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table_id: int = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    final = await play_http(client, table_id, [alice], Seen(), random.Random(seed))
    assert final["result"] is not None
    return table_id


async def _changes(app: FastAPI, table_id: int) -> tuple[int, bool]:
    """The table's rating changes, and whether its ratings are still due."""
    async with app.state.services.tables.db.session() as session:
        count = await session.scalar(
            select(func.count()).select_from(RatingChangeRow).where(RatingChangeRow.table_id == table_id)
        )
        due = await session.scalar(select(TableRow.rating_due).where(TableRow.id == table_id))
    assert due is not None
    return int(count or 0), due


async def test_ratings_that_fail_after_the_last_move_are_made_by_the_sweep_once(app: FastAPI) -> None:
    tables = app.state.services.tables
    ratings = Ratings(app)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        table_id = await _play_a_game(client, 1)
        # the game is over and its moves are committed; its ratings are not made and it stays due
        assert (await client.get(f"/api/tables/{table_id}/record")).status_code == 200
        assert await _changes(app, table_id) == (0, True)
        assert (await client.get("/api/leaderboards/iquazu")).json() == []
        assert await tables.finish_due() == 0  # still down: nothing made, still due
        ratings.down = False
        assert await tables.finish_due() == 1
        assert await tables.finish_due() == 0
        assert not await tables.finish(await tables.read(table_id))
        assert ratings.made == [table_id] and await _changes(app, table_id) == (2, False)
        board = (await client.get("/api/leaderboards/iquazu")).json()
        assert sorted(entry["games"] for entry in board) == [1, 1]


async def test_the_same_game_finished_twice_at_once_is_rated_once(app: FastAPI) -> None:
    tables = app.state.services.tables
    ratings = Ratings(app)
    table_id = await _finished_game(app, 2)
    ratings.down = False
    live = await tables.read(table_id)
    assert sorted(await asyncio.gather(tables.finish(live), tables.finish(live), tables.finish_due())) == [0, 0, 1]
    assert ratings.made == [table_id] and await _changes(app, table_id) == (2, False)


async def test_a_game_that_ended_before_a_restart_is_rated_at_the_start(tmp_path: Path) -> None:
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        settings = settings_for(tmp_path, url, prefix).model_copy(update={"sweep_seconds": 0.0})
        first = create_app(settings)
        async with first.router.lifespan_context(first):
            Ratings(first)  # down until the process is gone
            table_id = await _finished_game(first, 3)
            assert await _changes(first, table_id) == (0, True)
        second = create_app(settings)
        async with second.router.lifespan_context(second):  # the start rates what is due
            assert await _changes(second, table_id) == (2, False)
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=second), base_url="http://test") as client:
                board = (await client.get("/api/leaderboards/iquazu")).json()
            assert sorted(entry["games"] for entry in board) == [1, 1]
