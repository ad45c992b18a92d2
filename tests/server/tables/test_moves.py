"""Issue 23, engine refusals over the API: a move whose index lies outside the game's action space is a
422 ``illegal`` naming the action space and what is allowed (it was a 500: IndexError in Iquazú's
explanation of an illegal move; over the socket the connection dropped), and the table stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from spieltafel.server.app import create_app

from ..conftest import settings_for
from ..helpers import person
from ..sync_client import receive, table, token


@pytest.mark.anyio
@pytest.mark.parametrize("action", [-20000, -1, 10**40, 10**6])
async def test_an_action_index_outside_the_space_is_refused_by_the_seat_to_act(
    client: httpx.AsyncClient, action: int
) -> None:
    who = await person(client)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table_id = (await client.post("/api/tables", json=body, headers=who.headers)).json()["id"]
    state = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
    assert state["seat"] == 0 and 0 in state["to_act"]
    answer = await client.post(
        f"/api/tables/{table_id}/moves", json={"seq": state["seq"], "action": action}, headers=who.headers
    )
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == "illegal"
    assert "no such action in Iquazú's action space" in detail["message"]
    assert "an action index from 0 to " in detail["message"] and "legal now: " in detail["message"]
    after = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
    assert after["seq"] == state["seq"] and after["view"] == state["view"]


def test_over_the_socket_an_index_outside_the_space_is_an_illegal_error(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        alice = token(http)
        table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
        with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as socket:
            first = receive(socket)
            assert first["type"] == "state" and first["seat"] == 0
            socket.send_text(json.dumps({"type": "move", "seq": first["seq"], "action": -20000}))
            error = receive(socket)
            assert error["type"] == "error" and error["code"] == "illegal", error
            assert "no such action in Iquazú's action space" in error["message"]
            socket.send_text(json.dumps({"type": "state"}))  # the connection is still there
            again = receive(socket)
            assert again["type"] == "state" and again["seq"] == first["seq"]
