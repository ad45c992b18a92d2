"""Structured logs (issue 30): with ``SPIELTAFEL_LOG_FORMAT=json`` a real ``spieltafel serve`` writes one JSON
object per line, a line for each request and socket with its id, route, status, duration and account; while
a person signs up, signs in, makes a token and plays a whole game with secrets (hidden tiles, the seed, the
random generator) over HTTP and a socket, nothing of those secrets, the password, the token or the session
reaches the log. Without the setting the lines are plain text."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from spieltafel.core import GameRecord
from spieltafel.server.ops.logs import JsonFormatter, RequestInfo, TextFormatter, current, log_config

from ..helpers import PASSWORD, replay_states, unique_name
from ..leakcheck import secrets_of
from ..processes import Server

pytestmark = pytest.mark.anyio
LIMITS = {"SPIELTAFEL_RATE_LIMITS": '{"moves": "100000/minute"}'}


def _output(server: Server) -> list[str]:
    server.stop()
    for _ in range(50):  # the thread that reads the process's output reaches its end
        if server.process.stdout is None or server.process.stdout.closed:
            break
        time.sleep(0.05)
    time.sleep(0.2)
    return [line for line in server.output if line.strip()]


async def _play_a_game(url: str, name: str) -> tuple[int, int, set[str]]:
    """Sign up, sign in (session cookie), make a token; a game of Iquazú against a bot to its end, moves
    over HTTP and over a socket. Returns the table, the number of moves and the secrets: the password,
    the session id, the token and all that a spectator could not see at any moment of the game."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        assert (await client.post("/api/accounts", json={"name": name, "password": PASSWORD})).status_code == 201
        assert (await client.post("/api/session", json={"name": name, "password": PASSWORD})).status_code == 200
        session = client.cookies["spieltafel_session"]
        token = (await client.post("/api/tokens")).json()["token"]
        client.cookies.clear()
        headers = {"Authorization": f"Bearer {token}"}
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        table = (await client.post("/api/tables", json={"game": "iquazu", "players": 2, "seats": seats},
                                   headers=headers)).json()["id"]
        await client.get(f"/api/tables/{table}/state?password={PASSWORD}&token={token}", headers=headers)
        rng, moves = random.Random(30), 0
        socket_url = url.replace("http", "ws", 1) + f"/ws/tables/{table}"
        async with websockets.connect(socket_url, additional_headers=headers) as socket:
            while True:
                state: dict[str, Any] = (await client.get(f"/api/tables/{table}/state", headers=headers)).json()
                if state["result"] is not None:
                    break
                if not state["legal"]:
                    await asyncio.sleep(0.01)
                    continue
                action = rng.choice(state["legal"])["action"]
                if moves % 2:
                    await socket.send(json.dumps({"type": "move", "seq": state["seq"], "action": action}))
                    while (answer := json.loads(await socket.recv()))["type"] == "state" \
                            and answer["seq"] <= state["seq"]:
                        pass
                else:
                    await client.post(f"/api/tables/{table}/moves", json={"seq": state["seq"], "action": action},
                                      headers=headers)
                moves += 1
        record = GameRecord.model_validate((await client.get(f"/api/tables/{table}/record")).json())
        secrets = {PASSWORD, token, session}
        for state in replay_states(record)[0]:  # everything a spectator may not see, at any moment of the game
            secrets |= secrets_of(state.to_json(), state.view(None), record.seed)
        return table, moves, secrets


async def test_json_logs_carry_the_requests_and_no_secret(tmp_path: Path) -> None:
    server = await asyncio.to_thread(Server, tmp_path / "data", None, None, bot_workers=1,
                                     SPIELTAFEL_LOG_FORMAT="json", **LIMITS)
    name = unique_name("log")
    try:
        table, moves, secrets = await _play_a_game(server.url, name)
    finally:
        lines = await asyncio.to_thread(_output, server)
    with sqlite3.connect(tmp_path / "data" / "spieltafel.db") as connection:
        account = connection.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()[0]
    # every line is one JSON object, but for the warning of multiprocessing's resource tracker (a process of
    # its own, outside the logging) when the bots' process pool ends with the server
    assert all(line.startswith("{") or "resource_tracker" in line for line in lines), lines
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    requests = [e for e in entries if e["logger"] == "spieltafel.requests"]
    moves_logged = [e for e in requests if e["route"] == "/api/tables/{table_id}/moves" and e["method"] == "POST"]
    assert len(moves_logged) == (moves + 1) // 2
    for entry in moves_logged:
        assert entry["status"] == 200 and entry["account"] == account and entry["duration_ms"] > 0
        assert len(entry["request_id"]) == 32
    sockets = [e for e in requests if e["route"] == "/ws/tables/{table_id}"]
    assert [(e["method"], e["status"], e["account"]) for e in sockets] == [("WEBSOCKET", 101, account)]
    assert {e["route"] for e in requests} >= {"/api/accounts", "/api/session", "/api/tokens", "/api/tables"}
    text = "\n".join(lines)
    assert f"/api/tables/{table}/" not in text  # routes, never paths (nor their queries)
    leaked = sorted(secret[:40] for secret in secrets if secret in text)
    assert not leaked, f"the log shows secrets: {leaked}"
    print(f"\n{len(lines)} log lines, {len(secrets)} secrets looked for, none found")


async def test_a_request_id_given_by_the_client_is_kept_and_answered(tmp_path: Path) -> None:
    server = await asyncio.to_thread(Server, tmp_path / "data", None, None, bot_workers=1,
                                     SPIELTAFEL_LOG_FORMAT="json")
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            given = await client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.1"})
            unsafe = await client.get("/healthz", headers={"X-Request-ID": "a b\"c"})
    finally:
        lines = await asyncio.to_thread(_output, server)
    assert given.headers["x-request-id"] == "lb-7f3a.1"
    made = unsafe.headers["x-request-id"]
    assert made != 'a b"c' and len(made) == 32
    ids = [json.loads(line).get("request_id") for line in lines if line.startswith("{")]
    assert "lb-7f3a.1" in ids and made in ids


async def test_plain_text_without_the_setting(tmp_path: Path) -> None:
    server = await asyncio.to_thread(Server, tmp_path / "data", None, None, bot_workers=1)
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            await client.get("/healthz")
    finally:
        lines = await asyncio.to_thread(_output, server)
    for line in lines:  # no request lines at the default level 'warning', and no JSON
        assert not line.startswith("{"), line


def test_formatters() -> None:
    import logging

    record = logging.LogRecord("spieltafel.requests", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    for name, value in {"request_id": "r1", "route": "/x", "status": 200, "account": 7}.items():
        setattr(record, name, value)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "GET /x" and entry["request_id"] == "r1" and entry["account"] == 7
    assert TextFormatter().format(record).endswith("GET /x [request r1, account 7]")
    other = logging.LogRecord("spieltafel.server", logging.WARNING, __file__, 1, "slow", (), None)
    token = current.set(RequestInfo("r2"))
    try:
        assert json.loads(JsonFormatter().format(other))["request_id"] == "r2"  # lines logged while serving one
    finally:
        current.reset(token)
    assert log_config("json")["loggers"]["spieltafel.requests"]["level"] == "INFO"
    assert log_config("text", "info")["loggers"]["uvicorn.access"]["handlers"] == []
