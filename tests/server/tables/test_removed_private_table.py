"""Issue 23, the table id gate: a private table that was removed (its last person left before the start)
must answer every caller as a table that never existed: 404 ``no-table``. A signed-in caller who is not
a guest got a 500 (the gate's cached invitation code of the removed table sends it to ``may_see``, whose
load of the table raises NotFound outside the routes' error handling), while an anonymous one got 404, so
removed private ids could be told apart. (A removed table's id given to a new table, and its guests with
it: ``test_table_ids.py::test_an_old_invitation_does_not_open_a_new_private_table``.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from ..helpers import PASSWORD, person

pytestmark = pytest.mark.anyio


@pytest.fixture
async def answering(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose server errors come back as answers (500) instead of exceptions."""
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


async def test_a_removed_private_table_is_missing_for_everybody(answering: httpx.AsyncClient) -> None:
    host, stranger = await person(answering), await person(answering)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], "private": True}
    table_id = (await answering.post("/api/tables", json=body, headers=host.headers)).json()["id"]
    assert (await answering.post(f"/api/tables/{table_id}/leave", headers=host.headers)).status_code == 204
    never = table_id + 1000
    for headers in ({}, stranger.headers, host.headers):
        for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/state"):
            answer = await answering.get(path, headers=headers)
            missing = await answering.get(path.replace(str(table_id), str(never)), headers=headers)
            assert (answer.status_code, answer.json()["detail"]["code"]) == (404, "no-table"), (path, answer.text)
            assert answer.json()["detail"]["message"] == missing.json()["detail"]["message"].replace(
                str(never), str(table_id)
            )
    assert (await answering.post("/api/session", json={"name": stranger.name, "password": PASSWORD})).is_success
    page = await answering.get(f"/tables/{table_id}")
    assert page.status_code == 404, page.status_code
