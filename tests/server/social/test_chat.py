"""Table chat: the players' and spectators' channels live over the WebSocket and through the API, kept
with the table across a restart, plain text shown escaped in the page, length and rate limits, muting."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spieltafel.server.app import create_app
from spieltafel.server.social.chat import MAX_CHAT_CHARS, RATE_MESSAGES, RATE_SECONDS

from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name
from ..sync_client import receive, table, token

MARKUP = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def http(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        chat = client.app.state.services.chat  # type: ignore[attr-defined]
        chat.clock = clock
        chat.shared = None  # the limit on this clock only; its site-wide count in Redis: test_scale.py
        yield client


def two_players(http: TestClient) -> tuple[int, dict[str, str], dict[str, str]]:
    alice, bob = token(http), token(http)
    table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
    assert http.post(f"/api/tables/{table_id}/join", headers=bob).status_code == 200
    return table_id, alice, bob


def say(http: TestClient, table_id: int, who: dict[str, str], text: str) -> Any:
    return http.post(f"/api/tables/{table_id}/chat", json={"text": text}, headers=who)


def texts(http: TestClient, table_id: int, who: dict[str, str] | None = None) -> list[str]:
    answer = http.get(f"/api/tables/{table_id}/chat", headers=who or {})
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()]


def name_of(http: TestClient, who: dict[str, str]) -> str:
    name: str = http.get("/api/session", headers=who).json()["name"]
    return name


def test_players_and_spectators_talk_live_in_their_channels(http: TestClient) -> None:
    table_id, alice, bob = two_players(http)
    carol = token(http)
    with (
        http.websocket_connect(f"/ws/tables/{table_id}?chat=1", headers=alice) as player,
        http.websocket_connect(f"/ws/tables/{table_id}?chat=1", headers=carol) as spectator,
    ):
        assert receive(player)["type"] == "state"
        assert receive(player) == {"type": "chat", "messages": []}
        assert receive(spectator)["type"] == "state"
        assert receive(spectator) == {"type": "chat", "messages": []}
        player.send_json({"type": "chat", "text": "  good luck  "})
        heard = receive(player)
        assert heard["type"] == "chat" and [m["text"] for m in heard["messages"]] == ["good luck"]
        said = heard["messages"][0]
        assert said["channel"] == "players" and said["name"] == name_of(http, alice)
        assert receive(spectator)["messages"] == [said]
        spectator.send_json({"type": "chat", "text": "the blue move wins"})
        whisper = receive(spectator)["messages"][0]
        assert whisper["channel"] == "spectators" and whisper["name"] == name_of(http, carol)
        assert say(http, table_id, bob, "thanks").status_code == 201
        assert [m["text"] for m in receive(player)["messages"]] == ["thanks"]  # not the spectators' whisper
        assert [m["text"] for m in receive(spectator)["messages"]] == ["thanks"]
    assert texts(http, table_id, alice) == ["good luck", "thanks"]
    assert texts(http, table_id, carol) == ["good luck", "the blue move wins", "thanks"]
    assert texts(http, table_id) == ["good luck", "the blue move wins", "thanks"]  # signed out: watching
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=alice) as plain:  # no ?chat=1: no chat
        assert receive(plain)["type"] == "state"
        assert say(http, table_id, bob, "unheard here").status_code == 201
        plain.send_json({"type": "state"})
        assert receive(plain)["type"] == "state"


def test_chat_is_kept_with_the_table_across_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        table_id, alice, _bob = two_players(http)
        assert say(http, table_id, alice, "back tomorrow").status_code == 201
    with TestClient(create_app(settings_for(tmp_path))) as http:
        assert texts(http, table_id) == ["back tomorrow"]
        with http.websocket_connect(f"/ws/tables/{table_id}?chat=1", headers=alice) as socket:
            receive(socket)
            assert [m["text"] for m in receive(socket)["messages"]] == ["back tomorrow"]


def test_markup_is_text_in_the_api_and_escaped_in_the_page(http: TestClient) -> None:
    table_id, alice, _bob = two_players(http)
    assert say(http, table_id, alice, MARKUP).json()["text"] == MARKUP
    assert texts(http, table_id) == [MARKUP]
    page = http.get(f"/tables/{table_id}").text
    assert '&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &lt;img' in page
    assert "<b>bold</b>" not in page and "<img src=x" not in page and 'alert("x")' not in page


def test_refusals_of_length_content_and_sign_in_change_nothing(http: TestClient) -> None:
    table_id, alice, _bob = two_players(http)
    assert say(http, table_id, alice, "x" * MAX_CHAT_CHARS).status_code == 201
    cases = [("x" * (MAX_CHAT_CHARS + 1), 422, "too-long"), ("   \n ", 422, "empty"), ("bell\x07", 422, "bad-text")]
    for text, status, code in cases:
        answer = say(http, table_id, alice, text)
        assert answer.status_code == status and answer.json()["detail"]["code"] == code, answer.text
    assert http.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 401
    assert say(http, table_id, alice, 5).status_code == 422  # type: ignore[arg-type]
    assert say(http, 999, alice, "hi").json()["detail"]["code"] == "no-table"
    assert texts(http, table_id) == ["x" * MAX_CHAT_CHARS]
    with http.websocket_connect(f"/ws/tables/{table_id}?chat=1", headers=alice) as socket:
        receive(socket), receive(socket)
        socket.send_json({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)})
        assert receive(socket)["code"] == "too-long"
        socket.send_json({"type": "chat", "text": "hi", "to": "bob"})
        assert receive(socket)["code"] == "invalid"


def test_the_rate_limit_counts_per_account_over_a_sliding_window(http: TestClient, clock: Clock) -> None:
    table_id, alice, bob = two_players(http)
    for n in range(RATE_MESSAGES):
        assert say(http, table_id, alice, f"m{n}").status_code == 201
        clock.now += 1
    refused = say(http, table_id, alice, "one more")
    assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too-fast"
    assert say(http, table_id, bob, "bob is not limited by alice").status_code == 201
    clock.now += RATE_SECONDS - RATE_MESSAGES + 0.01  # the first message is now out of the window
    assert say(http, table_id, alice, "again").status_code == 201
    assert say(http, table_id, alice, "too soon").status_code == 429
    assert "one more" not in texts(http, table_id) and "too soon" not in texts(http, table_id)


def test_muting_hides_an_account_for_the_muter_only(http: TestClient) -> None:
    table_id, alice, bob = two_players(http)
    carol = token(http)
    bob_name = name_of(http, bob)
    say(http, table_id, bob, "from bob")
    say(http, table_id, alice, "from alice")
    assert http.put(f"/api/mutes/{bob_name}", headers=alice).status_code == 204
    assert http.put(f"/api/mutes/{bob_name}", headers=alice).status_code == 204  # twice: the same
    assert http.get("/api/mutes", headers=alice).json() == [{"name": bob_name}]
    assert texts(http, table_id, alice) == ["from alice"]
    assert texts(http, table_id, carol) == ["from bob", "from alice"]
    with http.websocket_connect(f"/ws/tables/{table_id}?chat=1", headers=alice) as socket:
        receive(socket)
        assert [m["text"] for m in receive(socket)["messages"]] == ["from alice"]
        say(http, table_id, bob, "still muted")
        say(http, table_id, carol, "a spectator: players do not read it")
        say(http, table_id, alice, "alone")
        assert [m["text"] for m in receive(socket)["messages"]] == ["alone"]
    assert http.delete(f"/api/mutes/{bob_name}", headers=alice).status_code == 204
    assert texts(http, table_id, alice) == ["from bob", "from alice", "still muted", "alone"]
    own = http.put(f"/api/mutes/{name_of(http, alice)}", headers=alice)
    assert own.status_code == 422 and own.json()["detail"]["code"] == "bad-mute"
    assert http.put("/api/mutes/nobody-here", headers=alice).json()["detail"]["code"] == "no-account"
    assert http.put(f"/api/mutes/{bob_name}").status_code == 401


def test_the_pages_chat_and_mute_forms_work_without_javascript(http: TestClient) -> None:
    table_id, _alice, bob = two_players(http)
    say(http, table_id, bob, "hello from bob")
    name = unique_name()
    http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    http.post("/api/session", json={"name": name, "password": PASSWORD})  # a watcher, by session cookie
    page = http.get(f"/tables/{table_id}").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf and "hello from bob" in page
    form = {"csrf_token": csrf[1], "text": "<i>hi</i>"}
    sent = http.post(f"/tables/{table_id}/chat", data=form, follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == f"/tables/{table_id}#chat"
    assert "&lt;i&gt;hi&lt;/i&gt;" in http.get(f"/tables/{table_id}").text
    refused = http.post(f"/tables/{table_id}/chat", data={"csrf_token": csrf[1], "text": " "}, follow_redirects=False)
    assert refused.status_code == 422 and "Write something first." in refused.text
    muted = http.post("/mutes", data={"csrf_token": csrf[1], "name": name_of(http, bob), "action": "mute",
                                      "next": f"/tables/{table_id}"}, follow_redirects=False)
    assert muted.status_code == 303 and muted.headers["location"] == f"/tables/{table_id}"
    page = http.get(f"/tables/{table_id}").text
    assert "hello from bob" not in page and 'value="unmute"' in page
    forged = http.post("/mutes", data={"csrf_token": "x", "name": name_of(http, bob)}, follow_redirects=False)
    assert forged.status_code == 403
