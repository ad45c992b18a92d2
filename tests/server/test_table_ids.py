"""One way to name a table (issue 23): every route that takes a table id, from the app's own route table
(a new route is covered without a change here), refuses every other spelling of an id with 404 and
answers a private table's id as missing to those not seated and not invited; table ids and invitations
are never reused; a removed private table is missing for everybody, alike.

Readers: ``anonymous``; ``stranger`` (signed in, neither seated nor invited); ``guest`` (opened the
invitation link); ``player`` (sits at the table). Each reader is a browser session (cookie and CSRF
token), so the pages' forms are asked as a browser asks them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.app import create_app
from spieltafel.server.db import Database
from spieltafel.server.db.engine import alembic_config
from spieltafel.server.privacy import MAX_TABLE_ID, table_number
from spieltafel.server.web.security import CSRF_COOKIE, csrf_token_for

from .conftest import settings_for
from .helpers import PASSWORD, unique_name
from .sync_client import app_routes, missing, private_table, token

READERS = ("anonymous", "stranger", "guest", "player")
SPELLINGS = (
    "+{id}", "{id}.0", "%20{id}", "{id}%20", "0000000000{id}", "0{id}", "-{id}", "{id}%0A", "%09{id}",
    "{arabic}", "{fullwidth}", "{id}_", "0x{id}", "{id}e0", "{id}%00",
)
"""Ways to write a table id that Python's ``int()`` or a loose pattern took for the id itself (or close to it)."""
CSRF = "c" * 43


def _digits(number: int, zero: str) -> str:
    return "".join(chr(ord(zero) + int(d)) for d in str(number))


def spellings(table_id: int) -> list[str]:
    return [s.format(id=table_id, arabic=_digits(table_id, "\u0660"), fullwidth=_digits(table_id, "\uff10"))
            for s in SPELLINGS]


@dataclass
class Reader:
    name: str
    session: str | None

    def headers(self, method: str) -> dict[str, str]:
        cookies = {CSRF_COOKIE: CSRF} | ({SESSION_COOKIE: self.session} if self.session else {})
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if method != "GET":
            headers["X-CSRF-Token"] = csrf_token_for("test-secret", CSRF, self.session)
        return headers


class Site:
    """A private table (seat 0 the player, seat 1 open, seat 2 a bot) and the four readers."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        names = {reader: unique_name() for reader in READERS if reader != "anonymous"}
        for name in names.values():
            assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        self.readers = {"anonymous": Reader("anonymous", None)}
        self.readers |= {reader: Reader(reader, self.session(name)) for reader, name in names.items()}
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
        self.private = self.create({"game": "iquazu", "players": 3, "seats": seats, "private": True}, "player")
        code = self.call("GET", f"/api/tables/{self.private}/invitation", "player").json()["code"]
        assert self.call("POST", f"/api/invitations/{code}", "guest").status_code == 200
        public_seats = [{"kind": "me"}, {"kind": "open"}]
        self.public = self.create({"game": "haleakala", "players": 2, "seats": public_seats}, "player")

    def session(self, name: str) -> str:
        self.client.cookies.clear()
        answer = self.client.post("/api/session", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        self.client.cookies.clear()
        return answer.cookies[SESSION_COOKIE]

    def create(self, body: dict[str, Any], reader: str) -> int:
        answer = self.call("POST", "/api/tables", reader, json=body)
        assert answer.status_code == 201, answer.text
        table_id: int = answer.json()["id"]
        return table_id

    def call(self, method: str, url: str, reader: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        headers = self.readers[reader].headers(method)
        return self.client.request(method, url, headers=headers, follow_redirects=False, **kwargs)

    def socket_refusal(self, url: str, reader: str) -> tuple[str, int] | None:
        """The error code and close code of a refused socket; None when it opened on the table."""
        self.client.cookies.clear()
        with self.client.websocket_connect(url, headers=self.readers[reader].headers("GET")) as socket:
            first = socket.receive_json()
            if first["type"] != "error":
                return None
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            return first["code"], closed.value.code


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    settings = settings_for(tmp_path_factory.mktemp("ids")).model_copy(
        update={"rate_limits": {"accounts": "1000/minute", "sign_in_name": "1000/minute", "tables": "1000/minute"}}
    )
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        yield Site(client)


def table_routes(client: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every route whose path takes ``{table_id}`` (the socket as GET)."""
    return sorted((method, path) for method, path in app_routes(client) if "{table_id}" in path)


def refused_as_missing(site: Site, method: str, path: str, text: str, reader: str) -> bool:
    """Whether ``path`` with the table written ``text`` is answered as a table that does not exist."""
    url = path.replace("{table_id}", text)
    if path.startswith("/ws/"):
        refusal = site.socket_refusal(url, reader)
        return refusal is not None and refusal == ("no-table", 4404)
    answer = site.call(method, url, reader, json={} if path.startswith("/api/") and method == "POST" else None,
                       data={"csrf_token": csrf_token_for("test-secret", CSRF, site.readers[reader].session),
                             "text": "hello", "seat": "1"} if not path.startswith("/api/") and method == "POST"
                       else None)
    if answer.status_code != 404:
        return False
    if path.startswith("/api/"):
        return bool(answer.json()["detail"]["code"] == "no-table")
    return "text/html" in answer.headers["content-type"]


def test_the_routes_with_a_table_id_are_found(site: Site) -> None:
    routes = table_routes(site.client)
    assert ("GET", "/ws/tables/{table_id}") in routes and ("GET", "/tables/{table_id}") in routes
    assert len(routes) >= 20, routes


def test_every_other_spelling_of_a_table_id_is_no_table_for_everyone(site: Site) -> None:
    tried, wrong = 0, []
    for method, path in table_routes(site.client):
        for table_id in (site.private, site.public):
            for text in spellings(table_id):
                for reader in READERS:
                    tried += 1
                    if not refused_as_missing(site, method, path, text, reader):
                        wrong.append(f"{method} {path} as {text!r} for {reader}")
    print(f"table ids: {tried} route x spelling x reader combinations tried")
    assert not wrong, f"{len(wrong)} of {tried} answered: " + "; ".join(wrong[:20])


def test_a_private_table_is_missing_for_strangers_on_every_route(site: Site) -> None:
    tried, wrong = 0, []
    for method, path in table_routes(site.client):
        for reader in READERS:
            tried += 1
            missing = refused_as_missing(site, method, path, str(site.private), reader)
            if missing != (reader in ("anonymous", "stranger")):
                wrong.append(f"{method} {path} for {reader}: {'missing' if missing else 'answered'}")
    print(f"private table: {tried} route x reader combinations tried")
    assert not wrong, "; ".join(wrong)


def test_the_refusal_is_the_same_as_for_a_table_that_never_was(site: Site) -> None:
    never = MAX_TABLE_ID
    for reader in ("anonymous", "stranger"):
        hidden = site.call("GET", f"/api/tables/{site.private}/state", reader).json()["detail"]
        absent = site.call("GET", f"/api/tables/{never}/state", reader).json()["detail"]
        assert hidden == {"code": "no-table", "message": f"there is no table {site.private}"}
        assert absent == {"code": "no-table", "message": f"there is no table {never}"}


def test_a_non_canonical_id_is_refused_with_what_is_allowed(site: Site) -> None:
    detail = site.call("GET", "/api/tables/+1/state", "player").json()["detail"]
    assert detail["code"] == "no-table" and "plain digits" in detail["message"]
    page = site.call("GET", "/tables/+1", "player")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    site.client.cookies.clear()
    german = site.client.get("/tables/abc", headers={"Accept-Language": "de"})  # issue 26: was English JSON
    assert german.status_code == 404 and "text/html" in german.headers["content-type"]
    assert "Tisch nicht gefunden" in german.text and '"detail"' not in german.text


@pytest.mark.parametrize(("text", "number"), [
    ("1", 1), ("17", 17), (str(MAX_TABLE_ID), MAX_TABLE_ID), (str(MAX_TABLE_ID + 1), None), ("0", None),
    ("01", None), ("+1", None), ("1.0", None), (" 1", None), ("1 ", None), ("1\n", None), ("\u0661", None),
    ("\uff11", None), ("1_0", None), ("", None), ("99999999999", None),
])
def test_table_number_is_strict(text: str, number: int | None) -> None:
    assert table_number(text) == number


# -- ids and invitations that cannot be reused ---------------------------------------------------------


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        yield client


def test_a_removed_tables_id_is_never_given_again(http: TestClient) -> None:
    alice = token(http)
    first = private_table(http, alice)
    assert http.post(f"/api/tables/{first}/leave", headers=alice).status_code == 204  # nobody left: removed
    assert missing(http.get(f"/api/tables/{first}", headers=alice), first)
    second = private_table(http, alice)
    assert second > first


def test_an_old_invitation_does_not_open_a_new_private_table(http: TestClient) -> None:
    alice, bob, guest = token(http), token(http), token(http)
    old = private_table(http, alice)
    code = http.get(f"/api/tables/{old}/invitation", headers=alice).json()["code"]
    assert http.post(f"/api/invitations/{code}", headers=guest).json() == {"id": old}
    assert http.post(f"/api/tables/{old}/leave", headers=alice).status_code == 204
    new = private_table(http, bob)
    assert new != old
    for table_id in (old, new):
        assert missing(http.get(f"/api/tables/{table_id}/state", headers=guest), table_id)
        assert missing(http.post(f"/api/tables/{table_id}/join", headers=guest), table_id)
    assert http.post(f"/api/invitations/{code}", headers=guest).json()["detail"]["code"] == "no-invitation"


def test_a_removed_private_table_is_missing_alike_for_everyone(http: TestClient) -> None:
    alice, guest, stranger = token(http), token(http), token(http)
    table_id = private_table(http, alice)
    code = http.get(f"/api/tables/{table_id}/invitation", headers=alice).json()["code"]
    http.post(f"/api/invitations/{code}", headers=guest)
    assert http.post(f"/api/tables/{table_id}/leave", headers=alice).status_code == 204
    for who in ({}, alice, guest, stranger):
        for path in ("", "/state", "/chat", "/invitation"):
            assert missing(http.get(f"/api/tables/{table_id}{path}", headers=who), table_id), (who, path)
        assert http.get(f"/tables/{table_id}", headers=who).status_code == 404
        with http.websocket_connect(f"/ws/tables/{table_id}", headers=who) as socket:
            assert socket.receive_json() == {
                "type": "error", "code": "no-table", "message": f"there is no table {table_id}"}


# -- the migration --------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_migration_0009_keeps_every_row_and_stops_id_reuse(tmp_path: Path) -> None:
    """A database made before 0009 (SQLite: largest id + 1) keeps its tables, seats and moves through the
    rebuild of ``game_tables``, and from then on counts ids up."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys=ON")
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", f"sqlite:///{path}")
    command.upgrade(config, "0008")
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys=ON")
        raw.execute("INSERT INTO accounts (id, name, password_hash, created_at, program)"
                    " VALUES (1, 'a', 'x', '2026-01-01', 0)")
        for table_id in (1, 2, 3):
            raw.execute(
                "INSERT INTO game_tables (id, game, players, options, seed, status, created_at, leaver, rating_due)"
                " VALUES (?, 'iquazu', 2, '{}', 5, 'playing', '2026-01-01', 'bot', 0)", (table_id,))
            raw.execute("INSERT INTO seats (table_id, seat, account_id) VALUES (?, 0, 1)", (table_id,))
            raw.execute("INSERT INTO moves (table_id, seq, seat, action, notation, created_at)"
                        " VALUES (?, 0, 0, 0, 'draw', '2026-01-01')", (table_id,))
        raw.execute("DELETE FROM game_tables WHERE id = 3")  # the newest, removed: cascades its rows
    database = Database(f"sqlite+aiosqlite:///{path}")
    try:
        await database.start()
    finally:
        await database.close()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys=ON")
        assert raw.execute("SELECT count(*) FROM seats").fetchone() == (2,)
        assert raw.execute("SELECT count(*) FROM moves").fetchone() == (2,)
        assert "AUTOINCREMENT" in raw.execute("SELECT sql FROM sqlite_master WHERE name = 'game_tables'").fetchone()[0]
        raw.execute("DELETE FROM game_tables WHERE id = 2")
        raw.execute("INSERT INTO game_tables (game, players, options, seed, status, created_at, leaver, rating_due)"
                    " VALUES ('iquazu', 2, '{}', 5, 'open', '2026-01-01', 'bot', 0)")
        assert raw.execute("SELECT max(id) FROM game_tables").fetchone() == (3,)  # not 2 again (3: removed before)
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        assert raw.execute("PRAGMA foreign_keys").fetchone() == (1,)
