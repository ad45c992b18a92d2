"""Issue 23, engine refusals over the API: a move whose index lies outside the game's action space is a
422 ``illegal`` naming the action space and what is allowed (it was a 500: IndexError in Iquazú's
explanation of an illegal move), and the table stays as it was."""

from __future__ import annotations

import httpx
import pytest

from .helpers import person

pytestmark = pytest.mark.anyio


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
