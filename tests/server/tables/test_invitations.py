"""Private tables reachable only through their invitation link (API, pages, WebSocket alike), and the
rematch that seats the same players again."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltafel.server.app import create_app

from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name
from ..sync_client import missing, private_table, receive, table, token


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        yield client


def play_out(http: TestClient, table_id: int, people: list[dict[str, str]], seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        for who in people:
            state = http.get(f"/api/tables/{table_id}/state", headers=who).json()
            if state["result"] is not None:
                return
            if state["legal"]:
                move = {"seq": state["seq"], "action": rng.choice(state["legal"])["action"]}
                assert http.post(f"/api/tables/{table_id}/moves", json=move, headers=who).status_code in (200, 409)
    raise AssertionError("the game did not end")


def test_a_private_table_is_missing_for_everybody_not_seated_or_invited(http: TestClient) -> None:
    alice, bob = token(http), token(http)
    table_id = private_table(http, alice)
    for path in ("", "/state", "/chat", "/record", "/invitation"):
        assert missing(http.get(f"/api/tables/{table_id}{path}", headers=bob), table_id), path
        assert missing(http.get(f"/api/tables/{table_id}{path}"), table_id), path
    assert missing(http.post(f"/api/tables/{table_id}/join", headers=bob), table_id)
    assert missing(http.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}, headers=bob), table_id)
    for page in ("", "/replay", "/history", "/record.json"):
        assert http.get(f"/tables/{table_id}{page}", headers=bob).status_code == 404, page
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=bob) as socket:
        assert receive(socket)["code"] == "no-table"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404
    for who in ({}, bob):
        listed = http.get("/api/tables", headers=who).json()
        assert table_id not in [t["id"] for t in listed]
    mine = http.get("/api/tables?mine=true", headers=alice).json()
    assert [(t["id"], t["private"]) for t in mine] == [(table_id, True)]
    assert http.get(f"/api/tables/{table_id}", headers=alice).json()["private"] is True


def test_the_invitation_link_lets_people_watch_and_join(http: TestClient) -> None:
    alice, bob, carol = token(http), token(http), token(http)
    table_id = private_table(http, alice)
    invitation = http.get(f"/api/tables/{table_id}/invitation", headers=alice).json()
    code = invitation["code"]
    assert invitation["url"] == f"/invite/{code}" and len(code) >= 32
    wrong = code[:-1] + ("y" if code.endswith("x") else "x")  # one character off, never the code itself
    assert http.post(f"/api/invitations/{wrong}", headers=bob).json()["detail"]["code"] == "no-invitation"
    assert http.post(f"/api/invitations/{code}").status_code == 401
    assert http.post(f"/api/invitations/{code}", headers=bob).json() == {"id": table_id}
    assert http.post(f"/api/tables/{table_id}/join", headers=bob).json() == {"seat": 1}
    assert http.get(f"/api/tables/{table_id}/invitation", headers=bob).json()["code"] == code  # players see it
    assert missing(http.get(f"/api/tables/{table_id}/state", headers=carol), table_id)
    assert http.post(f"/api/invitations/{code}", headers=carol).status_code == 200
    state = http.get(f"/api/tables/{table_id}/state", headers=carol).json()
    assert state["seat"] is None and state["view"] is not None  # carol watches
    with http.websocket_connect(f"/ws/tables/{table_id}", headers=carol) as socket:
        assert receive(socket)["type"] == "state"
    assert http.get(f"/api/tables/{table_id}/invitation", headers=carol).status_code == 409
    public = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
    assert http.get(f"/api/tables/{public}/invitation", headers=alice).json()["detail"]["code"] == "no-invitation"


def test_the_invitation_page_signs_in_first_then_opens_the_table(http: TestClient) -> None:
    name = unique_name()
    alice = token(http)
    table_id = private_table(http, alice)
    code = http.get(f"/api/tables/{table_id}/invitation", headers=alice).json()["code"]
    assert http.get(f"/invite/{code}", follow_redirects=False).headers["location"] == f"/signin?next=/invite/{code}"
    http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    http.post("/api/session", json={"name": name, "password": PASSWORD})
    assert http.get(f"/tables/{table_id}").status_code == 404
    assert http.get(f"/invite/{code}", follow_redirects=False).headers["location"] == f"/tables/{table_id}"
    page = http.get(f"/tables/{table_id}")
    assert page.status_code == 200 and "Take this seat" in page.text
    assert http.get("/invite/not-a-code").status_code == 404
    http.cookies.clear()
    host_page = http.get(f"/tables/{table_id}", headers=alice).text
    assert f"/invite/{code}" in host_page  # the host sees the link to send


def test_rematch_seats_the_same_players_again_once(http: TestClient) -> None:
    alice, bob, carol = token(http), token(http), token(http)
    table_id = private_table(http, alice)
    code = http.get(f"/api/tables/{table_id}/invitation", headers=alice).json()["code"]
    http.post(f"/api/invitations/{code}", headers=bob)
    http.post(f"/api/tables/{table_id}/join", headers=bob)
    early = http.post(f"/api/tables/{table_id}/rematch", headers=alice)
    assert early.status_code == 409 and early.json()["detail"]["code"] == "not-over"
    play_out(http, table_id, [alice, bob])
    http.post(f"/api/invitations/{code}", headers=carol)
    assert http.post(f"/api/tables/{table_id}/rematch", headers=carol).json()["detail"]["code"] == "not-seated"
    made = http.post(f"/api/tables/{table_id}/rematch", headers=bob)
    assert made.status_code == 201
    again = http.post(f"/api/tables/{table_id}/rematch", headers=alice)
    assert again.status_code == 200 and again.json() == made.json()
    new_id = made.json()["id"]
    # an invitation (issue 26): bob sits down, alice's seat waits for her, as a guest of the private table
    old, new = (http.get(f"/api/tables/{n}", headers=alice).json() for n in (table_id, new_id))
    assert old["rematch"] == new_id and new["status"] == "open" and new["private"] is True
    assert [s["kind"] for s in new["seats"]] == ["player", "open"]
    assert http.get(f"/api/tables/{new_id}/state", headers=alice).json()["seat"] is None  # not seated by force
    assert http.post(f"/api/tables/{new_id}/join", headers=alice).status_code == 200  # she accepts
    old, new = (http.get(f"/api/tables/{n}", headers=alice).json() for n in (table_id, new_id))
    assert new["status"] == "playing"
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]][::-1]  # the other one starts
    assert missing(http.get(f"/api/tables/{new_id}", headers=carol), new_id)  # a new private table
    new_code = http.get(f"/api/tables/{new_id}/invitation", headers=bob).json()["code"]
    assert new_code != code
    assert f'href="/tables/{new_id}"' in http.get(f"/tables/{table_id}", headers=alice).text


def test_rematch_with_bots_keeps_the_bots(http: TestClient) -> None:
    alice = token(http)
    table_id = table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    play_out(http, table_id, [alice])
    new_id = http.post(f"/api/tables/{table_id}/rematch", headers=alice).json()["id"]
    seats = http.get(f"/api/tables/{new_id}").json()["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [("bot", "random"), ("player", None)]
    assert http.get(f"/api/tables/{new_id}").json()["private"] is False


def test_the_new_table_page_makes_a_private_table(http: TestClient) -> None:
    name = unique_name()
    http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    http.post("/api/session", json={"name": name, "password": PASSWORD})
    page = http.get("/tables/new?game=iquazu&players=2").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf and 'name="private"' in page
    form = {"csrf_token": csrf[1], "game": "iquazu", "players": "2", "seat:0": "me", "seat:1": "open", "private": "1"}
    made = http.post("/tables/new", data=form, follow_redirects=False)
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    assert http.get(f"/api/tables/{table_id}").json()["private"] is True
    assert "/invite/" in http.get(f"/tables/{table_id}").text  # the host sees the link on the waiting page
    http.cookies.clear()
    assert missing(http.get(f"/api/tables/{table_id}"), table_id)
