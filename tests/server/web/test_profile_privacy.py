"""Issue 23, profiles: a private table's game shows on a profile (``GET /api/players/NAME`` and the
``/players/NAME`` page) only to those who sat at that table. Anyone else, anonymous or signed in, sees
neither its table id nor its place or win, in the recent games or in the rating history; before, the
rating history (``games[].history``) listed them for everybody."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from ..helpers import PASSWORD, Person, Seen, person, play_http, rated_async

pytestmark = pytest.mark.anyio


async def _finished(client: httpx.AsyncClient, people: list[Person], private: bool) -> int:
    """A game of Iquazú for ``people`` played to the end (a private one joined through its invitation)."""
    host, guest = people
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], "private": private}
    table_id: int = (await client.post("/api/tables", json=body, headers=host.headers)).json()["id"]
    if private:
        code = (await client.get(f"/api/tables/{table_id}/invitation", headers=host.headers)).json()["code"]
        assert (await client.post(f"/api/invitations/{code}", headers=guest.headers)).status_code == 200
    assert (await client.post(f"/api/tables/{table_id}/join", headers=guest.headers)).status_code == 200
    await play_http(client, table_id, people, Seen(), random.Random(table_id))
    return table_id


def _tables(profile: dict[str, Any]) -> tuple[set[int], set[int]]:
    """The table ids in the recent games and in the rating history of a profile."""
    history = {point["table"] for rated in profile["games"] for point in rated["history"]}
    return {game["table"] for game in profile["recent"]}, history


async def test_a_private_game_shows_on_a_profile_only_to_its_players(client: httpx.AsyncClient) -> None:
    ana, ben, stranger = await person(client, "ana"), await person(client, "ben"), await person(client, "str")
    public = await _finished(client, [ana, ben], private=False)
    private = await _finished(client, [ana, ben], private=True)
    await rated_async(client, "iquazu", lambda board: board.get(ana.name, {}).get("games") == 2)
    url = f"/api/players/{ana.name}"
    for viewer in (ana, ben):  # the profile's owner and the other player of the private table
        profile = (await client.get(url, headers=viewer.headers)).json()
        assert _tables(profile) == ({public, private}, {public, private})
    for headers in ({}, stranger.headers):  # anonymous and a stranger
        answer = await client.get(url, headers=headers)
        assert answer.status_code == 200
        profile = answer.json()
        assert _tables(profile) == ({public}, {public})
        assert [len(rated["history"]) for rated in profile["games"]] == [1]
        assert profile["games"][0]["games"] == 2  # the totals still count it
        assert f'"table":{private}' not in answer.text.replace(" ", "")
    page = f"/players/{ana.name}"
    assert f"#{private}<" not in (await client.get(page)).text
    assert f"#{public}<" in (await client.get(page)).text
    assert (await client.post("/api/session", json={"name": ben.name, "password": PASSWORD})).is_success
    assert f"#{private}<" in (await client.get(page)).text
