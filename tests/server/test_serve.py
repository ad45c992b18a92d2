"""Against a real ``spieltafel serve`` process on 127.0.0.1: whole games of all three titles with
people and bots, a WebSocket reconnect, a restart of the server in the middle of a game, and ``--workers 2``
getting every setting."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from spieltafel.core import GameRecord, replay

from .backing import (
    TEST_REDIS_URL,
    drop_site_database,
    fresh_database,
    fresh_database_sync,
    reachable_redis,
    redis_keys,
    site_database,
)
from .helpers import Person, Seen, check_views, person, play_http
from .processes import Server

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with fresh_database_sync() as url:
        running = Server(tmp_path_factory.mktemp("serve") / "data", database_url=url, redis_url=TEST_REDIS_URL)
        yield running
        running.stop()


async def new_table(client: httpx.AsyncClient, host: Person, game: str, seats: list[dict[str, str]],
                    **options: str) -> int:
    body = {"game": game, "players": len(seats), "options": options, "seats": seats}
    answer = await client.post("/api/tables", json=body, headers=host.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


async def finish_and_check(client: httpx.AsyncClient, table_id: int, people: list[Person], seed: int) -> GameRecord:
    seen = Seen()
    final = await play_http(client, table_id, people, seen, random.Random(seed))
    # a spectator's last view too
    seen.add((await client.get(f"/api/tables/{table_id}/state")).json())
    record = GameRecord.model_validate((await client.get(f"/api/tables/{table_id}/record")).json())
    assert record.result is not None and replay(record).scores() == final["result"]["scores"]
    assert check_views(record, seen) >= len(people)
    return record


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("iquazu", ["me", "open", "bot:random"], {}),
        ("haleakala", ["me", "bot:greedy"], {"variant": "tactical"}),
        ("niagara", ["me", "bot:greedy", "bot:easy"], {"round-limit": "100"}),
    ],
)
async def test_whole_games_with_people_and_bots(
    server: Server, game: str, seats: list[str], options: dict[str, str]
) -> None:
    specs = [{"kind": "bot", "bot": s[4:]} if s.startswith("bot:") else {"kind": s} for s in seats]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        people = [await person(client)]
        table_id = await new_table(client, people[0], game, specs, **options)
        for _ in range(seats.count("open")):
            people.append(await person(client))
            await client.post(f"/api/tables/{table_id}/join", headers=people[-1].headers)
        record = await finish_and_check(client, table_id, people, seed=len(game))
    assert [name for name in record.seats if name.startswith("bot:")] == [s for s in seats if s.startswith("bot:")]


async def test_websocket_play_and_reconnect(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        alice, bob = await person(client), await person(client)
        table_id = await new_table(client, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}])
        await client.post(f"/api/tables/{table_id}/join", headers=bob.headers)
    url = server.url.replace("http", "ws") + f"/ws/tables/{table_id}"
    async with websockets.connect(url, additional_headers=alice.headers) as socket:
        state: dict[str, Any] = json.loads(await socket.recv())
        assert state["seat"] == 0 and state["legal"]
        await socket.send(json.dumps({"type": "move", "seq": 0, "action": state["legal"][0]["notation"]}))
        assert json.loads(await socket.recv())["seq"] == 1
        await socket.send("{")
        assert json.loads(await socket.recv())["code"] == "malformed-json"
    async with websockets.connect(url, additional_headers=bob.headers) as socket:
        again = json.loads(await socket.recv())
        assert again["seq"] == 1 and again["seat"] == 1


async def test_a_restart_in_the_middle_of_a_game(tmp_path: Path) -> None:
    async with fresh_database() as url:
        await restart_in_the_middle_of_a_game(tmp_path / "data", url)


async def restart_in_the_middle_of_a_game(data: Path, url: str | None) -> None:
    first = Server(data, database_url=url, redis_url=TEST_REDIS_URL)
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            alice = await person(client)
            table_id = await new_table(client, alice, "iquazu", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
            seen = Seen()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                state = (await client.get(f"/api/tables/{table_id}/state", headers=alice.headers)).json()
                seen.add(state)
                if state["seq"] >= 6:
                    break
                if state["legal"]:
                    move = {"seq": state["seq"], "action": state["legal"][0]["action"]}
                    await client.post(f"/api/tables/{table_id}/moves", json=move, headers=alice.headers)
                else:
                    await asyncio.sleep(0.05)
            before = (await client.get(f"/api/tables/{table_id}/state", headers=alice.headers)).json()
    finally:
        first.stop()
    assert before["seq"] >= 6 and before["result"] is None
    second = Server(data, database_url=url, redis_url=TEST_REDIS_URL)
    try:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as client:
            after = (await client.get(f"/api/tables/{table_id}/state", headers=alice.headers)).json()
            assert after["seq"] >= before["seq"] and after["view"] is not None
            if after["seq"] == before["seq"]:
                assert after == before
            final = await play_http(client, table_id, [alice], seen, random.Random(1))
            record = GameRecord.model_validate((await client.get(f"/api/tables/{table_id}/record")).json())
            assert replay(record).scores() == final["result"]["scores"]
            assert check_views(record, seen) > 6
    finally:
        second.stop()


async def test_several_server_processes_get_every_setting(tmp_path: Path) -> None:
    """``serve --workers 2`` hands its settings to the processes as environment: a dict (the rate limits)
    and a list (the CORS origins) arrive as JSON, so both processes start and apply them."""
    redis_url = await reachable_redis()
    url = await site_database(tmp_path)
    try:
        async with redis_keys(redis_url) as prefix:
            running = Server(tmp_path / "data", database_url=url, redis_url=redis_url, redis_prefix=prefix, workers=2,
                             SPIELTAFEL_SECRET_KEY="serve-test", SPIELTAFEL_RATE_LIMITS='{"accounts": "3/minute"}',
                             SPIELTAFEL_CORS_ORIGINS='["https://agent.example"]')
            try:
                async with httpx.AsyncClient(base_url=running.url, timeout=30) as client:
                    statuses = []
                    for number in range(4):
                        body = {"name": f"w{number}{prefix[-6:]}", "password": "correct horse battery"}
                        statuses.append((await client.post("/api/accounts", json=body)).status_code)
                    preflight = await client.options("/api/tables", headers={
                        "Origin": "https://agent.example", "Access-Control-Request-Method": "POST"})
            finally:
                running.stop()
    finally:
        await drop_site_database(url)
    assert statuses == [201, 201, 201, 429]
    assert preflight.headers.get("access-control-allow-origin") == "https://agent.example"


def test_the_collector_tuning_freezes_the_start_up_heap_and_raises_the_thresholds() -> None:
    """``spieltafel serve`` turns ``tune_collector`` on (docs/performance.md); in a process of its own, since
    it changes the interpreter's collector for good."""
    script = (
        "import gc; from spieltafel.server.app import COLLECTOR_THRESHOLDS, tune_collector; "
        "assert gc.get_threshold() != COLLECTOR_THRESHOLDS and gc.get_freeze_count() == 0; tune_collector(); "
        "print(gc.get_threshold() == COLLECTOR_THRESHOLDS, gc.get_freeze_count() > 10_000)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
