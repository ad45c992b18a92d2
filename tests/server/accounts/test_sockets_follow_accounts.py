"""Sockets follow the account (issue 23, 1): revoking a token, signing out and changing the password close
every socket that rested on that session or token with 4401, and a move arriving on such a socket is
not applied, also when the word through the hub was lost. Other credentials of the account keep theirs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.app import create_app
from spieltafel.server.realtime import sockets as ws

from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name

NEW_PASSWORD = "another long secret 42"


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        yield client


class Player:
    """An account with a session id and a personal token (the client's cookie jar is left empty)."""

    def __init__(self, http: TestClient) -> None:
        self.http, self.name = http, unique_name()
        assert http.post("/api/accounts", json={"name": self.name, "password": PASSWORD}).status_code == 201
        self.session = self.sign_in()
        http.cookies.set(SESSION_COOKIE, self.session)
        self.token = http.post("/api/tokens").json()["token"]
        self.token_id = http.get("/api/tokens").json()[-1]["id"]
        http.cookies.clear()

    def sign_in(self, password: str = PASSWORD) -> str:
        answer = self.http.post("/api/session", json={"name": self.name, "password": password})
        assert answer.status_code == 200, answer.text
        session: str = answer.cookies[SESSION_COOKIE]
        self.http.cookies.clear()
        return session

    @property
    def bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def cookie(self, session: str | None = None) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={session or self.session}"}


def two_player_table(http: TestClient) -> tuple[int, Player, Player]:
    alice, bob = Player(http), Player(http)
    body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_id: int = http.post("/api/tables", json=body, headers=alice.bearer).json()["id"]
    assert http.post(f"/api/tables/{table_id}/join", headers=bob.bearer).status_code == 200
    return table_id, alice, bob


def seq_of(http: TestClient, table_id: int, who: Player) -> int:
    seq: int = http.get(f"/api/tables/{table_id}/state", headers=who.bearer).json()["seq"]
    return seq


def first_move(socket: Any) -> dict[str, Any]:
    state = socket.receive_json()
    assert state["type"] == "state" and state["seat"] == 0 and state["legal"], state
    return {"type": "move", "seq": state["seq"], "action": state["legal"][0]["action"]}


def assert_signed_out(socket: Any) -> None:
    """The socket says ``signed-out`` (nothing else: no state) and closes with 4401 and its reason."""
    error = socket.receive_json()
    assert error["type"] == "error" and error["code"] == "signed-out", error
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == ws.CLOSE_SIGNED_OUT == 4401
    assert closed.value.reason == "signed out"


def assert_still_open(socket: Any) -> None:
    socket.send_text(json.dumps({"type": "state"}))
    assert socket.receive_json()["type"] == "state"


def test_revoking_a_token_closes_its_sockets_and_their_moves_are_not_applied(http: TestClient) -> None:
    table_id, alice, bob = two_player_table(http)
    with (
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as by_token,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie()) as by_session,
    ):
        move = first_move(by_token)
        by_session.receive_json()
        assert http.delete(f"/api/tokens/{alice.token_id}", headers=alice.cookie()).status_code == 204
        by_token.send_text(json.dumps(move))  # at once: before or after the close, it is not applied
        assert_signed_out(by_token)
        assert_still_open(by_session)  # the account's other sign-in keeps its socket
    assert seq_of(http, table_id, bob) == 0


def test_a_move_on_a_revoked_socket_is_refused_when_the_hubs_word_was_lost(
    http: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, alice, bob = two_player_table(http)
    accounts = http.app.state.services.accounts  # type: ignore[attr-defined]
    monkeypatch.setattr(accounts.sign_ins, "publish", lambda *_: None)  # the word never arrives
    monkeypatch.setattr(ws, "CREDENTIAL_LEASE", 0.0)  # as if the lease ran out
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as socket:
        move = first_move(socket)
        assert http.delete(f"/api/tokens/{alice.token_id}", headers=alice.cookie()).status_code == 204
        socket.send_text(json.dumps(move))
        assert_signed_out(socket)
    assert seq_of(http, table_id, bob) == 0


def test_a_token_revoked_while_its_socket_opens_closes_it(http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Revoked after the handshake read the account and before the socket listened for word of it: the
    word went to nobody, the socket's first look at its token (at once, not after the lease) ends it."""
    table_id, alice, bob = two_player_table(http)
    services = http.app.state.services  # type: ignore[attr-defined]
    table_of = services.tables.get

    async def revoking_get(number: int) -> Any:
        account = await services.accounts.by_token(alice.token)
        await services.accounts.revoke_token(account, alice.token_id)
        return await table_of(number)

    monkeypatch.setattr(services.tables, "get", revoking_get)
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as socket:
        move = first_move(socket)
        socket.send_text(json.dumps(move))
        assert_signed_out(socket)
    assert seq_of(http, table_id, bob) == 0


def test_signing_out_closes_the_sessions_sockets_only(http: TestClient) -> None:
    table_id, alice, bob = two_player_table(http)
    other_session = alice.sign_in()
    with (
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie()) as signed_out,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie(other_session)) as other,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as by_token,
    ):
        move = first_move(signed_out)
        other.receive_json()
        by_token.receive_json()
        assert http.delete("/api/session", headers=alice.cookie()).status_code == 204
        signed_out.send_text(json.dumps(move))
        assert_signed_out(signed_out)
        assert_still_open(other)
        assert_still_open(by_token)
    assert seq_of(http, table_id, bob) == 0


def test_a_password_change_ends_every_session_and_token_and_their_sockets(http: TestClient) -> None:
    table_id, alice, bob = two_player_table(http)
    other_session = alice.sign_in()
    with (
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie(other_session)) as other,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as by_token,
        http.websocket_connect(f"/ws/tables/{table_id}", headers=bob.bearer) as bobs,
    ):
        move = first_move(by_token)
        other.receive_json()
        bobs.receive_json()
        changed = http.put("/api/password", json={"current": PASSWORD, "new": NEW_PASSWORD}, headers=alice.cookie())
        assert changed.status_code == 204, changed.text
        new_session = changed.cookies[SESSION_COOKIE]
        http.cookies.clear()
        by_token.send_text(json.dumps(move))
        assert_signed_out(by_token)
        assert_signed_out(other)
        assert_still_open(bobs)  # another account's socket is not touched
    assert http.get("/api/session", headers=alice.bearer).status_code == 401  # the token ended too
    assert http.get("/api/session", headers=alice.cookie(other_session)).status_code == 401
    assert http.get("/api/session", headers=alice.cookie(new_session)).status_code == 200
    assert http.get("/api/tokens", headers=alice.cookie(new_session)).json() == []
    assert seq_of(http, table_id, bob) == 0
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie(new_session)) as again:
        assert again.receive_json()["seat"] == 0  # the new session plays on


def test_a_cookie_from_an_opaque_origin_opens_a_spectators_socket(http: TestClient) -> None:
    """Issue 23, 2: ``Origin: null`` is nobody's own page (the handshake's cookie counts for nothing)."""
    table_id, alice, _bob = two_player_table(http)
    with http.websocket_connect(f"/ws/tables/{table_id}", headers={**alice.cookie(), "Origin": "null"}) as socket:
        assert socket.receive_json()["seat"] is None
    own = {**alice.cookie(), "Origin": "http://testserver"}
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=own) as socket:
        assert socket.receive_json()["seat"] == 0
