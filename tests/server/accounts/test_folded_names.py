"""Account names are unique whatever their case (issue 23, 3): a name that differs from another only by case
is refused (409), a sign-in may spell the name in any case, and migration 0010 keeps two accounts that
already differed only by case working (each by its exact name) and reports them at start."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from alembic import command
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import Connection, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from spieltafel.server.app import create_app
from spieltafel.server.db import AccountRow
from spieltafel.server.db.engine import alembic_config
from spieltafel.server.settings import Settings

from ..backing import TEST_REDIS_URL, fresh_database, redis_keys
from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name

pytestmark = pytest.mark.anyio


async def test_a_name_differing_only_by_case_is_taken(client: httpx.AsyncClient) -> None:
    name = unique_name("Case_")
    assert (await client.post("/api/accounts", json={"name": name, "password": PASSWORD})).status_code == 201
    for other in (name.lower(), name.upper(), name.swapcase()):
        refused = await client.post("/api/accounts", json={"name": other, "password": PASSWORD})
        assert refused.status_code == 409, refused.text
        detail = refused.json()["detail"]
        assert detail["code"] == "name-taken" and "only by case" in detail["message"] and name in detail["message"]
    again = await client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert again.status_code == 409 and "only by case" not in again.json()["detail"]["message"]


async def test_a_sign_in_may_spell_the_name_in_any_case(client: httpx.AsyncClient) -> None:
    name = unique_name("Case_")
    assert (await client.post("/api/accounts", json={"name": name, "password": PASSWORD})).status_code == 201
    signed_in = await client.post("/api/session", json={"name": name.upper(), "password": PASSWORD})
    assert signed_in.status_code == 200 and signed_in.json() == {"name": name}  # the name as it was chosen
    assert (await client.get("/api/session")).json() == {"name": name}
    wrong = await client.post("/api/session", json={"name": name.lower(), "password": PASSWORD + "!"})
    assert wrong.status_code == 401


def _migrated_to_0008(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "0008")


@asynccontextmanager
async def clashing_site(tmp_path: Path, names: list[str]) -> AsyncIterator[Settings]:
    """Settings for a database migrated up to 0008 that holds accounts of ``names`` (in this order)."""
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        settings = settings_for(tmp_path, url, prefix).prepare()
        database_url = settings.resolved_database_url()
        engine = create_async_engine(database_url)
        hashed = PasswordHasher().hash(PASSWORD)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(_migrated_to_0008)
                for name in names:
                    await connection.execute(
                        text("INSERT INTO accounts (name, password_hash, program, created_at) "
                             "VALUES (:name, :hash, false, CURRENT_TIMESTAMP)"), {"name": name, "hash": hashed},
                    )
        finally:
            await engine.dispose()
        yield settings


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield application, http


async def _sign_in(http: httpx.AsyncClient, name: str) -> int:
    answer = await http.post("/api/session", json={"name": name, "password": PASSWORD})
    http.cookies.clear()
    return answer.status_code


async def test_accounts_that_already_differ_only_by_case_keep_working_and_are_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    names = ["aud_spec", "AUd_sPEc", "Other_One"]
    async with clashing_site(tmp_path, names) as settings:
        with caplog.at_level(logging.WARNING, logger="spieltafel.server"):
            async with running(settings) as (application, http):
                warnings = [r.getMessage() for r in caplog.records if "only by case" in r.getMessage()]
                assert len(warnings) == 1 and "'aud_spec'/'AUd_sPEc'" in warnings[0], warnings
                async with application.state.services.db.session() as session:
                    rows = (await session.execute(select(AccountRow.name, AccountRow.name_folded))).all()
                assert dict(rows) == {"aud_spec": "aud_spec", "AUd_sPEc": None, "Other_One": "other_one"}
                assert await _sign_in(http, "aud_spec") == 200
                assert await _sign_in(http, "AUd_sPEc") == 200  # the later one, by its exact name
                assert await _sign_in(http, "AUD_SPEC") == 401  # ambiguous: neither
                assert await _sign_in(http, "other_one") == 200
                for taken in ("Aud_Spec", "OTHER_ONE"):
                    refused = await http.post("/api/accounts", json={"name": taken, "password": PASSWORD})
                    assert refused.status_code == 409, refused.text
                made = await http.post("/api/accounts", json={"name": "aud_spec2", "password": PASSWORD})
                assert made.status_code == 201
