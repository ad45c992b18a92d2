"""The JSON API over the ASGI app: accounts, sessions, tokens, tables, refusals, a whole game."""

from __future__ import annotations

import random

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from spieltafel.core import GameRecord, replay
from spieltafel.server.db import TokenRow

from ..backing import TEST_DATABASE_URL, TEST_REDIS_URL
from ..helpers import PASSWORD, Person, Seen, check_views, person, play_http, unique_name

pytestmark = pytest.mark.anyio


async def test_health(client: httpx.AsyncClient) -> None:
    answer = await client.get("/healthz")
    database = "postgresql" if TEST_DATABASE_URL else "sqlite"
    pubsub = "redis" if TEST_REDIS_URL else "memory"
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": database, "pubsub": pubsub, "unreachable": []}


async def test_accounts_and_sessions(client: httpx.AsyncClient) -> None:
    name = unique_name()
    assert (await client.post("/api/accounts", json={"name": name, "password": PASSWORD})).json() == {"name": name}
    taken = await client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "name-taken"
    short = await client.post("/api/accounts", json={"name": unique_name(), "password": "short"})
    assert short.status_code == 422 and "at least 8" in short.json()["detail"]["message"]
    for bad in ("ab", "x" * 21, "a b c", "émile"):
        refused = await client.post("/api/accounts", json={"name": bad, "password": PASSWORD})
        assert refused.status_code == 422 and refused.json()["detail"]["code"] == "bad-name", bad
    wrong = await client.post("/api/session", json={"name": name, "password": "wrong password"})
    unknown = await client.post("/api/session", json={"name": unique_name(), "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    signed_in = await client.post("/api/session", json={"name": name, "password": PASSWORD})
    cookie = signed_in.headers["set-cookie"].lower()
    assert "spieltafel_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert (await client.get("/api/session")).json() == {"name": name}
    assert (await client.delete("/api/session")).status_code == 204
    assert (await client.get("/api/session")).status_code == 401


async def test_tokens_are_shown_once_and_stored_hashed(client: httpx.AsyncClient, app: FastAPI) -> None:
    assert (await client.post("/api/tokens")).status_code == 401
    who = await person(client)
    assert who.token.startswith("stt_") and len(who.token) > 40
    assert (await client.get("/api/session", headers=who.headers)).json() == {"name": who.name}
    bogus = await client.get("/api/session", headers={"Authorization": "Bearer stt_nothing"})
    assert bogus.status_code == 401
    async with app.state.services.db.session() as session:
        stored = (await session.execute(select(TokenRow.token_hash))).scalars().all()
    assert who.token not in stored and len(stored) == 1


async def test_games_are_listed(client: httpx.AsyncClient) -> None:
    games = {game["name"]: game for game in (await client.get("/api/games")).json()}
    assert set(games) == {"haleakala", "iquazu", "niagara"}
    assert games["niagara"]["min_players"] == 3 and games["niagara"]["options"]


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "chess", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}, "bad-game", "chess"),
        ({"game": "haleakala", "players": 3, "seats": [{"kind": "me"}] * 3}, "bad-players", "2 to 2"),
        ({"game": "iquazu", "players": 2, "options": {"water": "lots"}, "seats": [{"kind": "me"}, {"kind": "open"}]},
         "bad-option", "holder-turn"),
        ({"game": "iquazu", "players": 2, "options": {"tide": "x"}, "seats": [{"kind": "me"}, {"kind": "open"}]},
         "bad-option", "tide"),
        ({"game": "iquazu", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}]}, "bad-seats", "3 seats"),
        ({"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "me"}]}, "bad-seats", "one seat"),
        ({"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "godlike"}]},
         "bad-seats", "expert"),
        ({"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "robot"}]}, "invalid", "kind"),
        ({"game": "iquazu", "players": "2", "seats": [{"kind": "me"}, {"kind": "open"}]}, "invalid", "players"),
        ({"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], "colour": "red"},
         "invalid", "colour"),
    ],
)
async def test_bad_tables_are_refused_naming_the_problem(
    client: httpx.AsyncClient, body: dict[str, object], code: str, words: str
) -> None:
    who = await person(client)
    answer = await client.post("/api/tables", json=body, headers=who.headers)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"]["code"] == code and words in answer.json()["detail"]["message"]
    assert (await client.get("/api/tables")).json() == []


async def test_malformed_and_oversized_input_gets_4xx(client: httpx.AsyncClient) -> None:
    who = await person(client)
    headers = {**who.headers, "content-type": "application/json"}
    broken = await client.post("/api/tables", content=b'{"game": "iquazu",', headers=headers)
    assert broken.status_code == 400 and broken.json()["detail"]["code"] == "malformed-json"
    huge = await client.post("/api/tables", content=b'{"game": "' + b"x" * 20000 + b'"}', headers=headers)
    assert huge.status_code == 413 and huge.json()["detail"]["code"] == "too-large"
    assert (await client.get("/api/tables/99")).status_code == 404
    for not_an_id in ("abc", str(10**40), "+99", "099"):  # one way to write a table id (issue 23): else no table
        refused = await client.get(f"/api/tables/{not_an_id}/state")
        assert refused.status_code == 404 and refused.json()["detail"]["code"] == "no-table", not_an_id
    assert (await client.get("/api/tables?status=finished")).status_code == 422
    not_list = await client.post("/api/tables", json=[1, 2], headers=who.headers)
    assert not_list.status_code == 422
    assert (await client.get("/api/tables?mine=true")).status_code == 401


async def test_join_leave_and_start(client: httpx.AsyncClient) -> None:
    host, guest, third = await person(client), await person(client), await person(client)
    body = {"game": "niagara", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=host.headers)).json()["id"]
    table = (await client.get(f"/api/tables/{table_id}")).json()
    assert table["status"] == "open" and table["seq"] == 0
    assert [s["kind"] for s in table["seats"]] == ["player", "open", "open"] and table["seats"][0]["name"] == host.name
    before = (await client.get(f"/api/tables/{table_id}/state", headers=host.headers)).json()
    assert before["view"] is None and before["to_act"] == [] and before["legal"] == []
    join = f"/api/tables/{table_id}/join"
    assert (await client.post(join, json={"seat": 0}, headers=guest.headers)).status_code == 409
    assert (await client.post(join, json={"seat": 7}, headers=guest.headers)).status_code == 422
    assert (await client.post(f"/api/tables/{table_id}/join", json={"seat": 2}, headers=guest.headers)).json() == {
        "seat": 2
    }
    again = await client.post(f"/api/tables/{table_id}/join", headers=guest.headers)
    assert again.status_code == 409 and again.json()["detail"]["code"] == "already-seated"
    assert (await client.post(f"/api/tables/{table_id}/leave", headers=guest.headers)).status_code == 204
    assert (await client.post(f"/api/tables/{table_id}/leave", headers=guest.headers)).status_code == 409
    assert [t["id"] for t in (await client.get("/api/tables?status=open")).json()] == [table_id]
    assert (await client.post(f"/api/tables/{table_id}/join", headers=guest.headers)).json() == {"seat": 1}
    assert (await client.post(f"/api/tables/{table_id}/join", headers=third.headers)).json() == {"seat": 2}
    started = (await client.get(f"/api/tables/{table_id}")).json()
    assert started["status"] == "playing"
    assert (await client.get("/api/tables?status=open")).json() == []
    listed = (await client.get("/api/tables?mine=true", headers=third.headers)).json()
    assert [t["id"] for t in listed] == [table_id] and listed[0]["to_act"] == [0, 1, 2]
    leave = f"/api/tables/{table_id}/leave"
    late = await client.post(leave, json={"confirm": True}, headers=third.headers)  # the leaver rule applies
    assert late.status_code == 204
    seat = (await client.get(f"/api/tables/{table_id}")).json()["seats"][2]
    assert (seat["gone"], seat["kind"], seat["bot"], seat["name"]) == ("left", "bot", "medium", third.name)


async def test_refusals_change_nothing(client: httpx.AsyncClient) -> None:
    alice, bob, eve = await person(client), await person(client), await person(client)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    assert (await client.get(f"/api/tables/{table_id}/record")).status_code == 409
    await client.post(f"/api/tables/{table_id}/join", headers=bob.headers)
    state = (await client.get(f"/api/tables/{table_id}/state", headers=alice.headers)).json()
    legal = state["legal"][0]["action"]
    url = f"/api/tables/{table_id}/moves"
    cases: list[tuple[Person | None, dict[str, object], int, str]] = [
        (None, {"seq": 0, "action": legal}, 401, "signed-out"),
        (eve, {"seq": 0, "action": legal}, 403, "not-seated"),
        (bob, {"seq": 0, "action": legal}, 403, "not-your-turn"),
        (alice, {"seq": 3, "action": legal}, 409, "stale"),
        (alice, {"seq": 0, "action": 999_999}, 422, "illegal"),
        (alice, {"seq": 0, "action": "fly to the moon"}, 422, "illegal"),
        (alice, {"seq": 0, "action": 1.5}, 422, "invalid"),
        (alice, {"seq": 0, "action": legal, "extra": 1}, 422, "invalid"),
        (alice, {"seq": -1, "action": legal}, 422, "invalid"),
    ]
    for who, move, status, code in cases:
        answer = await client.post(url, json=move, headers=who.headers if who else None)
        assert (answer.status_code, answer.json()["detail"]["code"]) == (status, code), (move, answer.text)
    after = (await client.get(f"/api/tables/{table_id}/state", headers=alice.headers)).json()
    assert after == state
    assert (await client.post(url, json={"seq": 0, "action": legal}, headers=alice.headers)).json() == {"seq": 1}
    stale = await client.post(url, json={"seq": 0, "action": legal}, headers=alice.headers)
    assert stale.status_code == 409 and stale.json()["detail"]["code"] == "stale"


async def test_a_whole_game_between_people_and_its_record(client: httpx.AsyncClient) -> None:
    alice, bob = await person(client), await person(client)
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    await client.post(f"/api/tables/{table_id}/join", headers=bob.headers)
    seen = Seen()
    final = await play_http(client, table_id, [alice, bob], seen, random.Random(3))
    assert final["to_act"] == [] and final["result"]["winners"]
    record = GameRecord.model_validate((await client.get(f"/api/tables/{table_id}/record")).json())
    assert record.seats == [alice.name, bob.name] and record.result is not None
    assert replay(record).scores() == final["result"]["scores"] == record.result.scores
    assert len(record.actions) == final["seq"]
    assert check_views(record, seen) > len(record.actions)
    assert (await client.get(f"/api/tables/{table_id}")).json()["status"] == "over"



async def test_racing_moves_for_one_seq_apply_once(client: httpx.AsyncClient) -> None:
    import asyncio

    alice, bob, carol = await person(client), await person(client), await person(client)
    body = {"game": "niagara", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
    table_id = (await client.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    for who in (bob, carol):
        await client.post(f"/api/tables/{table_id}/join", headers=who.headers)
    states = [(await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json() for who in (alice, bob)]
    assert [state["seq"] for state in states] == [0, 0]  # both must choose a card now, in any order
    answers = await asyncio.gather(*(
        client.post(f"/api/tables/{table_id}/moves", json={"seq": 0, "action": state["legal"][0]["action"]},
                    headers=who.headers)
        for who, state in zip((alice, bob), states, strict=True)
    ))
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    assert (await client.get(f"/api/tables/{table_id}")).json()["seq"] == 1
