"""Metrics (issue 30): ``/metrics`` in the Prometheus text format. A real ``spieltafel serve --workers 2`` on
Redis (prometheus-client's multiprocess mode) is scraped during a game: whichever process answers, the moves
of both processes are counted, with their latency, the bot's thinking, the open socket, the tables by status,
the connection pools and the requests by route. In one process: off by default and for addresses not
allowed (the same 404 as for no page), rate-limit refusals and server errors by route counted."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import httpx
import pytest
import websockets
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from ..backing import drop_site_database, reachable_redis, redis_keys, site_database
from ..helpers import person
from ..processes import Server

pytestmark = pytest.mark.anyio
MOVES = 12


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by name and labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(scrape: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return scrape.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_a_scrape_during_a_game_finds_the_moves_of_every_process(tmp_path: Path) -> None:
    redis_url = await reachable_redis()
    database_url = await site_database(tmp_path)  # SQLite, or PostgreSQL in the second CI run
    async with redis_keys(redis_url) as prefix:
        server = await asyncio.to_thread(Server, tmp_path / "data", database_url, redis_url, prefix, bot_workers=1,
                                         workers=2, SPIELTAFEL_METRICS="true",
                                         SPIELTAFEL_RATE_LIMITS='{"moves": "100000/minute"}')
        try:
            await _scrape_during_a_game(server.url)
        finally:
            server.stop()
            await drop_site_database(database_url)


async def _scrape_during_a_game(url: str) -> None:
    limits = httpx.Limits(max_keepalive_connections=0)  # a new connection for each request: both processes serve
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        who = await person(client)
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        table = (await client.post("/api/tables", json={"game": "haleakala", "players": 2, "seats": seats},
                                   headers=who.headers)).json()["id"]
        socket_url = url.replace("http", "ws", 1) + f"/ws/tables/{table}"
        rng, moved = random.Random(30), 0
        async with websockets.connect(socket_url, additional_headers=who.headers) as socket:
            assert json.loads(await socket.recv())["type"] == "state"
            while moved < MOVES:
                state = (await client.get(f"/api/tables/{table}/state", headers=who.headers)).json()
                assert state["result"] is None, "the game ended before the moves were made"
                if not state["legal"]:
                    await asyncio.sleep(0.01)
                    continue
                answer = await client.post(f"/api/tables/{table}/moves", headers=who.headers,
                                           json={"seq": state["seq"], "action": rng.choice(state["legal"])["action"]})
                assert answer.status_code == 200, answer.text
                moved += 1
            for _ in range(6):  # each scrape, whichever process answers it, counts every process's moves
                scrape = await client.get("/metrics")
                assert scrape.status_code == 200
                assert scrape.headers["content-type"].startswith("text/plain; version=")
                found = samples(scrape.text)
                assert value(found, "spieltafel_moves_total", game="haleakala", mover="person") == MOVES
                assert value(found, "spieltafel_move_seconds_count", game="haleakala") >= MOVES
                assert value(found, "spieltafel_moves_total", game="haleakala", mover="bot") >= 1
                assert value(found, "spieltafel_bot_think_seconds_count", game="haleakala") >= 1
                assert value(found, "spieltafel_open_sockets") == 1
                assert value(found, "spieltafel_tables", status="playing") == 1
                assert value(found, "spieltafel_db_pool_connections", state="size") >= 2  # both processes' pools
                assert ("spieltafel_db_pool_connections", (("state", "in_use"),)) in found  # 0 between requests
                assert value(found, "spieltafel_http_requests_total", route="/api/tables/{table_id}/moves",
                             status="200") == MOVES
                assert ("spieltafel_bot_queue_depth", ()) in found
    print(f"\n{MOVES} moves through 2 processes, each of 6 scrapes counted them all")


async def test_off_by_default_and_only_for_allowed_addresses(app: FastAPI, client: httpx.AsyncClient) -> None:
    settings = app.state.services.settings
    off = await client.get("/metrics")
    assert off.status_code == 404 and "spieltafel" not in off.text
    settings.metrics, settings.metrics_allow_ips = True, "10.0.0.0/8, ::1"
    assert (await client.get("/metrics")).status_code == 404  # the test client is 127.0.0.1
    settings.metrics_allow_ips = "127.0.0.0/8"
    assert (await client.get("/metrics")).status_code == 200


async def test_refusals_and_errors_are_counted(app: FastAPI, client: httpx.AsyncClient) -> None:
    settings = app.state.services.settings
    settings.metrics = True
    before = samples((await client.get("/metrics")).text)
    refused = 0
    for _ in range(12):  # failed sign-ins of one name are limited (ratelimit.DEFAULT_LIMITS)
        answer = await client.post("/api/session", json={"name": "nobody", "password": "wrong password"})
        refused += answer.status_code == 429
    assert refused

    @app.get("/api/test-broken")
    async def broken() -> None:
        raise RuntimeError("a defect")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as plain:
        assert (await plain.get("/api/test-broken")).status_code == 500
    after = samples((await client.get("/metrics")).text)
    limited = sum(v - before.get(k, 0.0) for k, v in after.items() if k[0] == "spieltafel_rate_limited_total")
    assert limited == refused
    assert value(after, "spieltafel_http_errors_total", route="/api/test-broken") \
        - value(before, "spieltafel_http_errors_total", route="/api/test-broken") == 1
    assert value(after, "spieltafel_http_requests_total", route="/api/session", status="429") \
        - value(before, "spieltafel_http_requests_total", route="/api/session", status="429") == refused
