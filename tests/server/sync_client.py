"""Helpers of the tests that drive the app through Starlette's synchronous TestClient: an account with a
token, a new table, a socket's next message, a private table, the app's routes and the "no such table" answer."""

from __future__ import annotations

from typing import Any

from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient

from .helpers import PASSWORD, unique_name


def token(http: TestClient) -> dict[str, str]:
    name = unique_name()
    assert http.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    http.post("/api/session", json={"name": name, "password": PASSWORD})
    issued = http.post("/api/tokens").json()["token"]
    http.cookies.clear()
    return {"Authorization": f"Bearer {issued}"}


def table(http: TestClient, host: dict[str, str], game: str, seats: list[dict[str, str]], **options: str) -> int:
    body = {"game": game, "players": len(seats), "options": options, "seats": seats}
    answer = http.post("/api/tables", json=body, headers=host)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


def receive(socket: Any) -> dict[str, Any]:
    message: dict[str, Any] = socket.receive_json()
    return message


def private_table(http: TestClient, host: dict[str, str]) -> int:
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], "private": True}
    answer = http.post("/api/tables", json=body, headers=host)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


def missing(answer: Any, table_id: int) -> bool:
    return bool(answer.status_code == 404 and answer.json()["detail"] == {
        "code": "no-table", "message": f"there is no table {table_id}"})


def app_routes(client: TestClient) -> set[tuple[str, str]]:
    """Every (method, path) the app answers, HEAD left out (it follows GET); the socket as GET."""
    found = set()
    for route in iter_route_contexts(client.app.routes):  # type: ignore[attr-defined]
        path = route.path or ""
        methods = route.methods or {"GET"}
        found |= {(method, path) for method in methods if method != "HEAD"}
    return found
