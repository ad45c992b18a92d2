"""Takebacks at a table (server/undo.py): through the HTTP API and the socket, an entry of the append-only
log each; the other seats see the board go back; the record shows the moves that stand; refusals say why."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord, replay
from spieltafel.server.app import create_app

from ..conftest import settings_for
from ..helpers import Person, person
from ..sync_client import table, token

pytestmark = pytest.mark.anyio


async def state_of(client: httpx.AsyncClient, table_id: int, who: Person) -> dict[str, Any]:
    answer = await client.get(f"/api/tables/{table_id}/state", headers=who.headers)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def move(client: httpx.AsyncClient, table_id: int, who: Person, seq: int, action: int | str) -> httpx.Response:
    return await client.post(f"/api/tables/{table_id}/moves", json={"seq": seq, "action": action}, headers=who.headers)


async def undo(client: httpx.AsyncClient, table_id: int, who: Person, seq: int) -> httpx.Response:
    return await client.post(f"/api/tables/{table_id}/undo", json={"seq": seq}, headers=who.headers)


async def niagara_table(client: httpx.AsyncClient) -> tuple[int, list[Person], Person]:
    """Three people at Niagara, every one has chosen card 6: the mover may paddle 6 steps."""
    people = [await person(client) for _ in range(3)]
    body = {"game": "niagara", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=people[0].headers)).json()["id"]
    for who in people[1:]:
        assert (await client.post(f"/api/tables/{table_id}/join", headers=who.headers)).status_code == 200
    for seq, who in enumerate(people):
        assert (await move(client, table_id, who, seq, "play 6")).status_code == 200
    first = await state_of(client, table_id, people[0])
    return table_id, people, people[first["to_act"][0]]


async def test_a_seat_takes_back_its_canoe_steps_and_the_others_see_the_board_go_back(
    client: httpx.AsyncClient,
) -> None:
    table_id, people, mover = await niagara_table(client)
    other = next(p for p in people if p is not mover)
    at_reveal = await state_of(client, table_id, mover)
    assert at_reveal["seq"] == 3 and at_reveal["undo"] == 0  # the reveal closed everything before it
    refused = await undo(client, table_id, mover, 3)
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "no-takeback"
    assert "nothing to take back" in refused.json()["detail"]["message"]
    others_before = await state_of(client, table_id, other)
    assert (await move(client, table_id, mover, 3, "a down")).status_code == 200
    others_after_one = await state_of(client, table_id, other)
    assert (await move(client, table_id, mover, 4, "a down")).status_code == 200
    assert (await state_of(client, table_id, mover))["undo"] == 2
    assert (await state_of(client, table_id, other))["undo"] == 0  # not the other seat's moves

    not_theirs = await undo(client, table_id, other, 5)
    assert not_theirs.status_code == 403 and not_theirs.json()["detail"]["code"] == "not-your-turn"
    stale = await undo(client, table_id, mover, 4)
    assert stale.status_code == 409 and stale.json()["detail"]["code"] == "stale"

    assert (await undo(client, table_id, mover, 5)).json() == {"seq": 6}  # the log moves on
    back_one = await state_of(client, table_id, other)
    assert back_one["seq"] == 6 and back_one["view"] == others_after_one["view"]
    assert back_one["events"][-1] == {"seq": 6, "kind": "undo", "seat": back_one["to_act"][0], "notation": "a down"}
    mine = await state_of(client, table_id, mover)
    assert mine["undo"] == 1 and [item["notation"] for item in mine["legal"]] == ["a down"]

    assert (await move(client, table_id, mover, 6, "undo")).json() == {"seq": 7}  # the notation works as well
    back_two = await state_of(client, table_id, other)
    assert back_two["view"] == others_before["view"] and back_two["to_act"] == others_before["to_act"]
    assert (await state_of(client, table_id, mover))["undo"] == 0
    again = await undo(client, table_id, mover, 7)
    assert again.status_code == 409 and again.json()["detail"]["code"] == "no-takeback"


async def test_the_record_shows_the_moves_that_stand_and_the_full_log_keeps_the_takebacks(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    people = [await person(client) for _ in range(2)]
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=people[0].headers)).json()["id"]
    await client.post(f"/api/tables/{table_id}/join", headers=people[1].headers)
    rng = random.Random(5)
    takebacks = 0
    for _ in range(5000):
        states = [await state_of(client, table_id, who) for who in people]
        if states[0]["result"] is not None:
            break
        for who, state in zip(people, states, strict=True):
            if not state["legal"]:
                continue
            if state["undo"] and rng.random() < 0.5:
                assert (await undo(client, table_id, who, state["seq"])).status_code == 200
                takebacks += 1
            else:
                action = rng.choice(state["legal"])["action"]
                assert (await move(client, table_id, who, state["seq"], action)).status_code == 200
            break
    assert states[0]["result"] is not None and takebacks > 5
    record = GameRecord.model_validate((await client.get(f"/api/tables/{table_id}/record")).json())
    assert all(a.action != "undo" for a in record.actions)
    final = replay(record)  # the record replays to the result
    assert final.scores() == record.result.scores
    log = await app.state.services.tables.moves(table_id)
    assert sum(1 for _, _, notation in log if notation == "undo") == takebacks
    assert len(log) == len(record.actions) + 2 * takebacks == states[0]["seq"]
    assert [seq for seq, _, _ in log] == list(range(len(log)))


def test_takeback_over_the_socket_reaches_every_seat(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:

        alice, bob = token(http), token(http)
        table_id = table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}])
        http.post(f"/api/tables/{table_id}/join", headers=bob)
        with (
            http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as mine,
            http.websocket_connect(f"/ws/tables/{table_id}", headers=bob) as theirs,
        ):
            first, seen = mine.receive_json(), theirs.receive_json()
            mine.send_json({"type": "undo", "seq": 0})
            assert mine.receive_json()["code"] == "no-takeback"
            mine.send_json({"type": "undo"})
            refused = mine.receive_json()
            assert refused["code"] == "invalid" and '"type": "undo"' in refused["message"]
            place = next(  # a disc on a beach without the boat: the shaman's step is still to come
                item
                for item in first["legal"]
                if item["notation"].startswith("place") and not item["notation"].endswith(f"b{first['view']['boat']}")
            )
            mine.send_json({"type": "move", "seq": 0, "action": place["action"]})
            after = mine.receive_json()
            theirs.receive_json()
            assert after["seq"] == 1 and after["undo"] == 1
            mine.send_json({"type": "undo", "seq": 1})
            back, their_back = mine.receive_json(), theirs.receive_json()
            assert back["seq"] == their_back["seq"] == 2 and back["undo"] == 0
            assert back["view"] == first["view"] and their_back["view"] == seen["view"]
            assert back["legal"] == first["legal"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "takes back: "), ("de", "nimmt zurück: "), ("nl", "neemt terug: ")],
)
def test_the_takeback_is_told_in_every_language(lang: str, words: str) -> None:
    from spieltafel.server.web import board, i18n

    event = {"kind": "undo", "seat": 0, "notation": "a down"}
    text = board.event_text("niagara", event, i18n.gettext_for(lang))
    assert words in text and "{" not in text and "undo" not in text
