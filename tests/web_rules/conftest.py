"""The real app (``create_app``) on a temporary data folder, driven through httpx (Starlette's TestClient),
and helpers that play games through the JSON API as people would."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord, Rng, get_game
from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

LANGUAGES = ("en", "de", "nl")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app per test module (games are played through the API once and looked at many times)."""
    data = tmp_path_factory.mktemp("data")
    app = create_app(Settings(data_dir=data, secret_key="web-rules-test-secret", bot_workers=1))
    with TestClient(app) as test_client:
        yield test_client


def page(client: TestClient, url: str, lang: str = "en", token: str | None = None, **kwargs: Any) -> Any:
    """GET a page in ``lang`` (as the browser's language), signed in with ``token`` when given."""
    headers = {"Accept-Language": lang}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return client.get(url, headers=headers, follow_redirects=False, **kwargs)


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "the page has no CSRF token"
    return found.group(1)


@dataclass
class Player:
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def sign_up(client: TestClient, name: str) -> Player:
    password = "correct-horse-7"
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    session = client.post("/api/session", json={"name": name, "password": password})
    assert session.status_code == 200, session.text
    token = client.post("/api/tokens").json()["token"]
    client.cookies.clear()
    return Player(name, token)


def start_table(client: TestClient, game: str, players: list[Player], options: dict[str, str] | None = None) -> int:
    """A table of ``game`` with these people in seats 0, 1, … (started once all have joined)."""
    seats = [{"kind": "me"}] + [{"kind": "open"}] * (len(players) - 1)
    body = {"game": game, "players": len(players), "options": options or {}, "seats": seats}
    response = client.post("/api/tables", json=body, headers=players[0].headers)
    assert response.status_code == 201, response.text
    table_id: int = response.json()["id"]
    for number, player in enumerate(players[1:], start=1):
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": number}, headers=player.headers)
        assert joined.status_code == 200, joined.text
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "playing", info
    return table_id


def play(client: TestClient, table_id: int, players: list[Player], moves: int | None = None, seed: int = 5) -> int:
    """Random legal moves through the API (each seat asks for its own legal actions); returns the seq."""
    rng = Rng(seed)
    done = 0
    while moves is None or done < moves:
        state = client.get(f"/api/tables/{table_id}/state", headers=players[0].headers).json()
        if not state["to_act"]:
            return int(state["seq"])
        seat = state["to_act"][0]
        mine = state if seat == 0 else client.get(f"/api/tables/{table_id}/state", headers=players[seat].headers).json()
        action = rng.choice([legal["action"] for legal in mine["legal"]])
        response = client.post(
            f"/api/tables/{table_id}/moves", json={"seq": mine["seq"], "action": action}, headers=players[seat].headers
        )
        assert response.status_code == 200, response.text
        done += 1
    return int(client.get(f"/api/tables/{table_id}/state").json()["seq"])


def table_log(client: TestClient, table_id: int) -> tuple[int, list[tuple[int, str]]]:
    """The server's seed and moves of a table (read on the server side, as the test's oracle)."""
    tables = client.app.state.services.tables  # type: ignore[attr-defined]
    live, moves = client.portal.call(tables.log_so_far, table_id)  # type: ignore[union-attr]
    return int(live.seed), [(seat, notation) for _, seat, notation in moves]


def engine_at(record: GameRecord, step: int) -> tuple[Any, list[Any]]:
    """The engine's own state after ``step`` actions of ``record`` and the events of that step."""
    assert record.seed is not None
    state = get_game(record.game).new_state(record.players, record.seed, record.options)
    events: list[Any] = []
    for action in record.actions[:step]:
        events = state.apply(action.seat, action.action)
    return state, events
