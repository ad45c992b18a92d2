"""Issue 26, "asks before Leave for good": the server itself asks. Leaving a running game without the
confirmation changes nothing (the API answers 422 ``confirm-leave``, the page shows the question again, in
the reader's language); with it the leaver rule takes the seat. An open table needs no confirmation."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from ..clocked import FakeClock, server, state, two_people
from ..helpers import PASSWORD, person

pytestmark = pytest.mark.anyio


async def _seat(http: httpx.AsyncClient, table_id: int, seat: int) -> dict[str, object]:
    seats: list[dict[str, object]] = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    return seats[seat]


async def test_the_api_leaves_a_running_game_only_when_confirmed(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        table_id, alice, _ = await two_people(http)
        before = await state(http, table_id)
        for body in (None, {}, {"confirm": False}):
            refused = await http.post(f"/api/tables/{table_id}/leave", json=body, headers=alice.headers)
            assert refused.status_code == 422, refused.text
            detail = refused.json()["detail"]
            assert detail["code"] == "confirm-leave" and '{"confirm": true}' in detail["message"]
        for bad in ({"confirm": "yes"}, {"confirm": 1}, {"confirm": True, "why": "x"}):  # strict: refused as input
            refused = await http.post(f"/api/tables/{table_id}/leave", json=bad, headers=alice.headers)
            assert refused.status_code == 422, refused.text
        seat = await _seat(http, table_id, 0)
        assert seat["gone"] is None and seat["name"] == alice.name and seat["kind"] == "player"
        assert (await state(http, table_id))["seq"] == before["seq"]
        done = await http.post(f"/api/tables/{table_id}/leave", json={"confirm": True}, headers=alice.headers)
        assert done.status_code == 204
        assert (await _seat(http, table_id, 0))["gone"] == "left"


async def test_an_open_table_is_left_without_confirmation(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        alice, bob = await person(http, "a"), await person(http, "b")
        body = {"game": "iquazu", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
        table_id = (await http.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
        assert (await http.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
        assert (await http.post(f"/api/tables/{table_id}/leave", headers=bob.headers)).status_code == 204
        assert (await _seat(http, table_id, 1))["kind"] == "open"


async def _sign_in(http: httpx.AsyncClient, name: str) -> str:
    """Cookies of a page session for ``name``, and a CSRF token of a page."""
    assert (await http.post("/api/session", json={"name": name, "password": PASSWORD})).status_code == 200
    match = re.search(r'name="csrf_token" value="([^"]+)"', (await http.get("/tables/new")).text)
    assert match
    return match.group(1)


async def test_the_page_asks_again_in_the_readers_language(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        table_id, alice, _ = await two_people(http)
        csrf = await _sign_in(http, alice.name)
        expected = {
            "de": ("Diese Partie endgültig verlassen?", "Ja, ich verlasse diese Partie endgültig"),
            "nl": ("Deze partij definitief verlaten?", "Ja, ik verlaat deze partij definitief"),
            "en": ("Leave this game for good?", "Yes, I leave this game for good"),
        }
        for lang, (question, tick) in expected.items():
            for form in ({}, {"confirm": "no"}, {"confirm": "on"}):
                asked = await http.post(
                    f"/tables/{table_id}/leave",
                    data={"csrf_token": csrf, **form},
                    headers={"Accept-Language": lang},
                    follow_redirects=False,
                )
                assert asked.status_code == 200, asked.text
                assert question in asked.text and tick in asked.text
                assert 'name="confirm" value="yes"' in asked.text and f'action="/tables/{table_id}/leave"' in asked.text
                assert (await _seat(http, table_id, 0))["gone"] is None
        left = await http.post(
            f"/tables/{table_id}/leave", data={"csrf_token": csrf, "confirm": "yes"}, follow_redirects=False
        )
        assert left.status_code == 303
        assert (await _seat(http, table_id, 0))["gone"] == "left"
