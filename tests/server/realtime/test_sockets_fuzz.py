"""A hypothesis fuzzer for the WebSocket (issue 12): arbitrary text, binary frames, JSON of any shape and
near-miss messages (known types with wrong, missing or extra fields, huge values) sent by a seated player.
The server never crashes, a refused message changes nothing (the seat's state over HTTP is the same before
and after) and the connection stays usable: a well-formed ``{"type": "state"}`` always gets the state."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltafel.server.app import create_app

from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name

CASES = int(os.environ.get("WS_FUZZ_EXAMPLES", "400"))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
kinds = st.sampled_from(["move", "state", "chat", "MOVE", "", "error", "join", "bogus"])
actions = (
    st.sampled_from(["draw", "end", "place 1a O"]) | st.integers(-(2**70), 2**70) | st.text(max_size=40)
    | json_values | st.text(min_size=190, max_size=220)
)
near_misses = st.fixed_dictionaries(
    {"type": kinds},
    optional={
        "seq": st.integers(-5, 3) | st.integers(-5, 2**64) | json_values,
        "action": actions,
        "text": st.text(max_size=600) | json_values,
        "extra": json_values,
    },
)
well_formed_moves = st.fixed_dictionaries(
    {"type": st.just("move"), "seq": st.integers(0, 3), "action": st.sampled_from(["draw", "end", 0, 40])}
)
messages = st.one_of(
    near_misses.map(json.dumps),
    well_formed_moves.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=100),
    st.just("x" * 17_000),
    st.just(json.dumps({"type": "move", "seq": 0, "action": "d" * 20_000})),
)


class Table:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.me, other = self.person(), self.person()
        body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
        self.id = client.post("/api/tables", json=body, headers=self.me).json()["id"]
        assert client.post(f"/api/tables/{self.id}/join", headers=other).status_code == 200

    def person(self) -> dict[str, str]:
        name = unique_name()
        assert self.client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        self.client.post("/api/session", json={"name": name, "password": PASSWORD})
        token = self.client.post("/api/tokens").json()["token"]
        self.client.cookies.clear()
        return {"Authorization": f"Bearer {token}"}

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(f"/api/tables/{self.id}/state", headers=self.me).json()
        return answer


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    limits = {"ws_messages": "1000000/minute", "moves": "1000000/minute"}
    settings = settings_for(tmp_path_factory.mktemp("ws-fuzz")).model_copy(update={"rate_limits": limits})
    with TestClient(create_app(settings)) as client:
        yield Table(client)


def _send(socket: Any, message: str | bytes) -> None:
    if isinstance(message, bytes):
        socket.send_bytes(message)
    else:
        socket.send_text(message)


def test_any_message_is_refused_cleanly_or_applied(table: Table) -> None:
    counts = {"cases": 0, "refused": 0, "applied": 0}
    box: dict[str, Any] = {}

    def connect() -> None:
        box["socket"] = table.client.websocket_connect(f"/ws/tables/{table.id}", headers=table.me).__enter__()
        assert box["socket"].receive_json()["type"] == "state"

    @given(message=messages)
    @settings(max_examples=CASES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def run(message: str | bytes) -> None:
        socket = box["socket"]
        before = table.state()
        _send(socket, message)
        socket.send_text(json.dumps({"type": "state"}))
        replies = []
        while True:
            reply = socket.receive_json()
            replies.append(reply)
            if reply["type"] == "state":
                break
        after = table.state()
        counts["cases"] += 1
        errors = [r for r in replies if r["type"] == "error"]
        if errors:
            counts["refused"] += 1
            assert after == before, f"refused {message!r} ({errors}) but the state changed"
            assert all(set(e) == {"type", "code", "message"} and "Traceback" not in e["message"] for e in errors)
        elif after["seq"] != before["seq"]:
            counts["applied"] += 1  # a legal move, found by chance: start afresh on a new connection
            socket.__exit__(None, None, None)
            connect()
        else:
            assert after == before
        assert replies[-1]["seq"] == after["seq"]

    connect()
    try:
        run()
    finally:
        box["socket"].__exit__(None, None, None)
    print(f"websocket fuzz: {counts}")
    assert counts["cases"] >= min(CASES, 100) and counts["refused"] > counts["cases"] // 2




DEEP_MESSAGES = [
    "[" * 8000 + "]" * 8000,
    '{"a":' * 2000 + "1" + "}" * 2000,
    '{"type": "move", "seq": 0, "action": ' + "[" * 5000 + "]" * 5000 + "}",
]


@pytest.mark.parametrize("message", DEEP_MESSAGES, ids=["list", "object", "move"])
def test_a_deeply_nested_message_gets_an_error_and_the_socket_stays_open(table: Table, message: str) -> None:
    """Issue 23: nesting deeper than the JSON parser goes (RecursionError) dropped the socket without a word."""
    before = table.state()
    with table.client.websocket_connect(f"/ws/tables/{table.id}", headers=table.me) as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_text(message)
        reply = socket.receive_json()
        assert reply["type"] == "error" and reply["code"] == "too-deep", reply
        assert set(reply) == {"type", "code", "message"}
        socket.send_text(json.dumps({"type": "state"}))
        again = socket.receive_json()
        assert again["type"] == "state" and again["seq"] == before["seq"]
        assert table.state() == before
