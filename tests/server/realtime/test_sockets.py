"""The WebSocket over the ASGI app (Starlette's TestClient): states on connect and after every change,
moves, refusals to the sender only, reconnects, spectators, Niagara's secret choices and bots."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltafel.server.app import create_app
from spieltafel.server.realtime import sockets as ws

from ..conftest import settings_for
from ..sync_client import receive, table, token


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        yield client


def test_states_moves_and_errors_over_the_socket(http: TestClient) -> None:
    alice, bob = token(http), token(http)
    table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
    http.post(f"/api/tables/{table_id}/join", headers=bob)
    with (
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as mine,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=bob) as theirs,
        http.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        first = receive(mine)
        assert first["type"] == "state" and first["seat"] == 0 and first["seq"] == 0 and first["legal"]
        assert receive(theirs)["seat"] == 1
        watching = receive(spectator)
        assert watching["seat"] is None and watching["legal"] == []
        refusals = [
            ("{not json", "malformed-json"),
            (json.dumps({"type": "move", "seq": 0}), "invalid"),
            (json.dumps({"type": "move", "seq": "0", "action": 1}), "invalid"),
            (json.dumps({"type": "move", "seq": 0, "action": 1, "x": 1}), "invalid"),
            (json.dumps({"type": "dance"}), "invalid"),
            (json.dumps({"type": "move", "seq": 5, "action": first["legal"][0]["action"]}), "stale"),
            (json.dumps({"type": "move", "seq": 0, "action": 10**9}), "illegal"),
            ("x" * 17000, "too-large"),
        ]
        for text, code in refusals:
            mine.send_text(text)
            error = receive(mine)
            assert error["type"] == "error" and error["code"] == code, (text[:40], error)
        mine.send_bytes(b"\x00")
        assert receive(mine)["code"] == "not-text"
        theirs.send_json({"type": "move", "seq": 0, "action": first["legal"][0]["action"]})
        assert receive(theirs)["code"] == "not-your-turn"
        spectator.send_json({"type": "move", "seq": 0, "action": first["legal"][0]["action"]})
        assert receive(spectator)["code"] == "signed-out"
        mine.send_json({"type": "move", "seq": 0, "action": first["legal"][0]["notation"]})
        for socket, seat in ((mine, 0), (theirs, 1), (spectator, None)):
            update = receive(socket)
            assert update["type"] == "state" and update["seq"] == 1 and update["seat"] == seat
        mine.send_json({"type": "state"})
        assert receive(mine)["seq"] == 1
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as again:
        assert receive(again)["seq"] == 1  # a reconnect gets the current state


def test_unknown_table_is_refused(http: TestClient) -> None:
    for path, message in (("/ws/tables/404", "there is no table 404"),
                          ("/ws/tables/banana", "'banana' is not a table id: ids are plain digits, no sign or "
                                                "leading zero (e.g. 17)")):
        with http.websocket_connect(path) as socket:
            assert receive(socket) == {"type": "error", "code": "no-table", "message": message}
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4404


def test_niagara_secret_choice_is_seen_only_as_made(http: TestClient) -> None:
    alice, bob = token(http), token(http)
    table_id = table(http, alice, "niagara", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
    http.post(f"/api/tables/{table_id}/join", headers=bob)
    http.post(f"/api/tables/{table_id}/join", headers=token(http))
    with (
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as a,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=bob) as b,
    ):
        mine = receive(a)
        assert receive(b)["seat"] == 1
        assert mine["to_act"] == [0, 1, 2] and mine["view"]["phase"] == "secret"
        choice = mine["legal"][-1]
        a.send_json({"type": "move", "seq": 0, "action": choice["action"]})
        own, other = receive(a), receive(b)
        assert own["seq"] == other["seq"] == 1 and other["to_act"] == [1, 2]
        assert own["events"][-1]["seat"] == 0 and "card" in own["events"][-1]
        assert other["events"][-1] == {"seq": 1, "kind": "choose", "seat": 0}
        assert other["view"]["choice"] is None and own["view"]["choice"] is not None
        assert own["view"]["choice"] not in json.dumps(other["events"])


def test_a_socket_ends_only_after_its_tasks_have_ended(http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket's tasks end with it, their cleanup done (a task cancelled in a database call closes its
    connection): left running, a cleanup still under way when the server stops can hang its shutdown. Here
    the task that watches the table takes 0.2 s to clean up; the client's close waits for the handler."""
    cleaned: list[int] = []

    async def slow_to_clean_up(self: ws.Connection, queue: asyncio.Queue[int]) -> None:
        try:
            await queue.get()
        except asyncio.CancelledError:
            await asyncio.sleep(0.2)
            cleaned.append(self.table_id)
            raise

    monkeypatch.setattr(ws.Connection, "watch", slow_to_clean_up)
    alice = token(http)
    table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as socket:
        assert receive(socket)["seat"] == 0
    assert cleaned == [table_id]
