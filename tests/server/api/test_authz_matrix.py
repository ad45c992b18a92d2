"""The authorization matrix (issue 12): every route of the app and every WebSocket message type, asked by
every kind of caller, answers as documented (allowed, or 401/403, or the sign-in page for the pages).

Callers: ``anonymous`` (no credentials); ``non-member`` (signed in by token, not seated at the table);
``owner`` (seat 0 of the running table, signed in by session cookie, as a browser is); ``other-seat`` (seat 1,
token); ``spectator`` (signed in by cookie, not seated: a watcher); ``token`` (the owner's personal token);
``revoked`` (a token of the owner's that was revoked: it must count as no credential at all).

The tables: ``play`` (Iquazú, two people, seat 0 to move), ``open`` (seat 0 the owner, seat 1 open, seat 2 a
bot) and an upload key. Probes that would change the world for later probes are harmless by design (an
illegal move, a taken seat, a wrong current password) or marked ``resets`` (sign-in, sign-out: the callers'
sessions are renewed after them).

The test fails when the app has a route or the socket a message type that the matrix does not list: a new
route needs its row here (and its documented answer in docs/protocol.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pydantic
import pytest
from fastapi.testclient import TestClient

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.app import create_app
from spieltafel.server.realtime import sockets as ws
from spieltafel.server.web.security import CSRF_COOKIE, csrf_token_for

from ..conftest import settings_for
from ..helpers import PASSWORD, unique_name
from ..sync_client import app_routes

ROLES = ("anonymous", "non-member", "owner", "other-seat", "spectator", "token", "revoked")
SIGNED_IN = ("non-member", "owner", "other-seat", "spectator", "token")
NOBODY = ("anonymous", "revoked")
SIGNIN = "sign-in page"
"""Expected answer of a page that needs a signed-in caller: 303 to /signin."""


@dataclass
class Probe:
    method: str
    route: str
    url: str
    expect: dict[str, int | str]
    body: Any = None
    form: dict[str, str] | None = None
    resets: bool = False
    check: Callable[[str, Any], None] | None = None


def everyone(answer: int | str) -> dict[str, int | str]:
    return dict.fromkeys(ROLES, answer)


def signed_in(answer: int | str, refused: int | str = 401, **by_role: int | str) -> dict[str, int | str]:
    table = {role: (answer if role in SIGNED_IN else refused) for role in ROLES}
    table.update({role.replace("_", "-"): value for role, value in by_role.items()})
    return table


@dataclass
class Caller:
    name: str
    headers: dict[str, str] = field(default_factory=dict)
    session: str | None = None


class World:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        owner, other, outsider, watcher = (self.account() for _ in range(4))
        self.names = {"owner": owner, "other": other}
        owner_token, revoked = self.token(owner), self.token(owner)
        self.revoked_id = self.token_ids(revoked)[-1]
        assert client.delete(f"/api/tokens/{self.revoked_id}", headers=_bearer(revoked)).status_code == 204
        spare = [self.token(watcher) for _ in range(2)]
        self.spare_ids = [self.token_ids(spare[0])[0], self.token_ids(spare[1])[1]]
        """Two tokens of the spectator's: only the spectator may revoke them (once)."""
        self.sessions = {"owner": owner, "spectator": watcher}
        self.callers = {
            "anonymous": Caller("anonymous"),
            "non-member": Caller("non-member", _bearer(self.token(outsider))),
            "owner": Caller("owner"),
            "other-seat": Caller("other-seat", _bearer(self.token(other))),
            "spectator": Caller("spectator"),
            "token": Caller("token", _bearer(owner_token)),
            "revoked": Caller("revoked", _bearer(revoked)),
        }
        self.renew_sessions()
        body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
        self.play = self.table(body, "token")
        joined = client.post(f"/api/tables/{self.play}/join", headers=self.callers["other-seat"].headers)
        assert joined.status_code == 200
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
        self.open = self.table({"game": "iquazu", "players": 3, "options": {}, "seats": seats}, "token")
        self.upload = self.upload_key()
        with_bot = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        self.private = self.table({"game": "iquazu", "players": 2, "seats": with_bot, "private": True}, "token")
        self.quit_api, self.quit_page = self.two_people(), self.two_people()
        """Running tables where leaving is probed: leaving for good is not harmless (issue 14)."""

    def two_people(self) -> int:
        body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}],
                "leaver": {"rule": "bot", "bot": "random"}}
        table_id = self.table(body, "token")
        joined = self.client.post(f"/api/tables/{table_id}/join", headers=self.callers["other-seat"].headers)
        assert joined.status_code == 200
        return table_id

    def account(self) -> str:
        name = unique_name()
        assert self.client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        return name

    def account_name(self) -> str:
        """A fresh name for a probe that makes an account."""
        return unique_name()

    def session(self, name: str) -> str:
        self.client.cookies.clear()
        answer = self.client.post("/api/session", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        self.client.cookies.clear()
        return answer.cookies[SESSION_COOKIE]

    def token(self, name: str) -> str:
        session = self.session(name)
        answer = self.client.post("/api/tokens", headers={"Cookie": f"{SESSION_COOKIE}={session}"})
        assert answer.status_code == 201
        token: str = answer.json()["token"]
        return token

    def token_ids(self, token: str) -> list[int]:
        return [t["id"] for t in self.client.get("/api/tokens", headers=_bearer(token)).json()]

    def renew_sessions(self) -> None:
        for role, name in self.sessions.items():
            self.callers[role].session = self.session(name)

    def table(self, body: dict[str, Any], role: str) -> int:
        answer = self.client.post("/api/tables", json=body, headers=self.callers[role].headers)
        assert answer.status_code == 201, answer.text
        table_id: int = answer.json()["id"]
        return table_id

    def upload_key(self) -> str:
        record = {"game": "iquazu", "players": 2, "options": {}, "seed": 1, "seats": ["a", "b"], "actions": []}
        files = {"record": ("r.json", json.dumps(record).encode(), "application/json")}
        answer = self.send("POST", "/replay/upload", "anonymous", files=files)
        assert answer.status_code == 303, answer.text
        return str(answer.headers["location"].rsplit("/", 1)[1])

    def headers(self, role: str, method: str) -> dict[str, str]:
        caller = self.callers[role]
        csrf = "c" * 43
        cookies = {CSRF_COOKIE: csrf}
        if caller.session:
            cookies[SESSION_COOKIE] = caller.session
        headers = dict(caller.headers)
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if method != "GET":
            headers["X-CSRF-Token"] = csrf_token_for("test-secret", csrf, caller.session)
        return headers

    def send(self, method: str, url: str, role: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        return self.client.request(method, url, headers=self.headers(role, method), follow_redirects=False, **kwargs)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_is(expected: dict[str, int | None]) -> Callable[[str, Any], None]:
    def check(role: str, answer: Any) -> None:
        assert answer.json()["seat"] == expected.get(role), (role, answer.json()["seat"])

    return check


def probes(w: World) -> list[Probe]:
    play, open_, key, private = w.play, w.open, w.upload, w.private
    only_owner = {role: (200 if role in ("owner", "token") else 404) for role in ROLES}
    seated = {"owner": 409, "token": 409, "other-seat": 409}
    seats = {"owner": 0, "token": 0, "other-seat": 1}
    illegal = {"seq": 0, "action": "no such move"}
    new_table = {"game": "haleakala", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    return [
        Probe("GET", "/openapi.json", "/openapi.json", everyone(200)),
        Probe("GET", "/healthz", "/healthz", everyone(200)),
        Probe("GET", "/metrics", "/metrics", everyone(404)),  # off unless SPIELTAFEL_METRICS (test_metrics)
        Probe("GET", "/static", "/static/site.css", everyone(200)),
        # accounts, sessions, tokens
        Probe("POST", "/api/accounts", "/api/accounts", everyone(201), body=lambda: _credentials(w.account_name())),
        Probe("POST", "/api/session", "/api/session", everyone(200), body=lambda: _credentials(w.names["other"]),
              resets=True),
        Probe("GET", "/api/session", "/api/session", signed_in(200)),
        Probe("DELETE", "/api/session", "/api/session", everyone(204), resets=True),
        Probe("PUT", "/api/password", "/api/password", signed_in(403),
              body={"current": "not the password", "new": "a brand new secret 1"}),
        Probe("POST", "/api/tokens", "/api/tokens", signed_in(201)),
        Probe("GET", "/api/tokens", "/api/tokens", signed_in(200)),
        Probe("DELETE", "/api/tokens/{token_id}", f"/api/tokens/{w.spare_ids[0]}", signed_in(404, spectator=204)),
        Probe("GET", "/api/games", "/api/games", everyone(200)),
        # tables
        Probe("POST", "/api/tables", "/api/tables", signed_in(201), body=new_table),
        Probe("GET", "/api/tables", "/api/tables?mine=true", signed_in(200)),
        Probe("POST", "/api/tables/{table_id}/join", f"/api/tables/{open_}/join", signed_in(409), body={"seat": 2}),
        Probe("POST", "/api/tables/{table_id}/leave", f"/api/tables/{w.quit_api}/leave",
              signed_in(409, owner=204, other_seat=204), body={"confirm": True}),
        Probe("GET", "/api/waiting", "/api/waiting", signed_in(200)),
        Probe("GET", "/api/account/email", "/api/account/email", signed_in(200)),
        Probe("POST", "/api/password/reset", "/api/password/reset", everyone(202), body={"who": "nobody-at-all"}),
        Probe("GET", "/api/account/export", "/api/account/export", signed_in(200)),
        Probe("GET", "/api/quickplay", "/api/quickplay", signed_in(404)),
        Probe("POST", "/api/quickplay", "/api/quickplay", signed_in(422), body={"game": "no-such-game"}),
        Probe("DELETE", "/api/quickplay", "/api/quickplay", signed_in(404)),
        Probe("DELETE", "/api/account", "/api/account", signed_in(403), body={"password": "not the password"}),
        Probe("POST", "/api/password/reset/confirm", "/api/password/reset/confirm", everyone(422),
              body={"link": "x.y", "password": "a long new secret 99"}),
        Probe("POST", "/api/account/email/verify", "/api/account/email/verify", everyone(422), body={"link": "x.y"}),
        Probe("PUT", "/api/account/email", "/api/account/email", signed_in(200), body={"email": None}),
        Probe("GET", "/api/tables/{table_id}", f"/api/tables/{play}", everyone(200)),
        Probe("GET", "/api/tables/{table_id}/state", f"/api/tables/{play}/state", everyone(200),
              check=seat_is(seats)),
        Probe("POST", "/api/tables/{table_id}/moves", f"/api/tables/{play}/moves",
              signed_in(403, owner=422, token=422), body=illegal),
        Probe("POST", "/api/tables/{table_id}/undo", f"/api/tables/{play}/undo",
              signed_in(403, owner=409, token=409), body={"seq": 0}),
        Probe("GET", "/api/tables/{table_id}/record", f"/api/tables/{play}/record", everyone(409)),
        Probe("GET", "/api/tables/{table_id}/analysis", f"/api/tables/{play}/analysis", everyone(200)),
        Probe("POST", "/api/tables/{table_id}/analysis", f"/api/tables/{play}/analysis", signed_in(409)),
        # a rated game between people: no hints for anyone (casual games and games against bots only)
        Probe("POST", "/api/tables/{table_id}/hint", f"/api/tables/{play}/hint", signed_in(403)),
        Probe("GET", "/api/tables/{table_id}/chat", f"/api/tables/{play}/chat", everyone(200)),
        Probe("POST", "/api/tables/{table_id}/chat", f"/api/tables/{play}/chat", signed_in(201), body={"text": "hi"}),
        Probe("GET", "/api/mutes", "/api/mutes", signed_in(200)),
        Probe("PUT", "/api/mutes/{name}", f"/api/mutes/{w.names['other']}", signed_in(204, other_seat=422)),
        Probe("DELETE", "/api/mutes/{name}", f"/api/mutes/{w.names['other']}", signed_in(204, other_seat=422)),
        # moderation (issue 30): none of these callers is a moderator or admin (test_moderation has them)
        Probe("POST", "/api/reports", "/api/reports", signed_in(201, other_seat=422),
              body={"name": w.names["other"], "reason": "spam"}),
        Probe("GET", "/api/moderation/reports", "/api/moderation/reports", signed_in(403)),
        Probe("POST", "/api/moderation/chat/{chat_id}/hide", "/api/moderation/chat/1/hide", signed_in(403)),
        Probe("POST", "/api/moderation/accounts/{name}/mute", f"/api/moderation/accounts/{w.names['other']}/mute",
              signed_in(403), body={"minutes": 5}),
        Probe("POST", "/api/moderation/accounts/{name}/ban", f"/api/moderation/accounts/{w.names['other']}/ban",
              signed_in(403), body={"reason": "spam"}),
        Probe("GET", "/api/moderation/audit", "/api/moderation/audit", signed_in(403)),
        # pages
        Probe("GET", "/", "/", everyone(200)),
        Probe("GET", "/signup", "/signup", everyone(200)),
        Probe("POST", "/signup", "/signup", everyone(303), resets=True,
              form=lambda: {"name": w.account_name(), "password": PASSWORD, "password2": PASSWORD}),
        Probe("GET", "/signin", "/signin", everyone(200)),
        Probe("GET", "/password/forgot", "/password/forgot", everyone(200)),
        Probe("POST", "/password/forgot", "/password/forgot", everyone(202), form={"who": "nobody-at-all"}),
        Probe("GET", "/password/reset", "/password/reset?link=x.y", everyone(410)),
        Probe("POST", "/password/reset", "/password/reset", everyone(410),
              form={"link": "x.y", "new": "a long new secret 99", "new2": "a long new secret 99"}),
        Probe("GET", "/account/verify", "/account/verify?link=x.y", everyone(200)),
        Probe("POST", "/account/verify", "/account/verify", everyone(410), form={"link": "x.y"}),
        Probe("POST", "/signin", "/signin", everyone(303), resets=True,
              form=lambda: {"name": w.names["other"], "password": PASSWORD}),
        Probe("POST", "/signout", "/signout", everyone(303), resets=True),
        Probe("POST", "/language", "/language", everyone(303), form={"lang": "en"}),
        Probe("GET", "/tables/new", "/tables/new", signed_in(200, refused=SIGNIN)),
        Probe("POST", "/tables/new", "/tables/new", signed_in(303, refused=SIGNIN),
              form={"game": "iquazu", "players": "2", "seat:0": "me", "seat:1": "open"}),
        Probe("GET", "/tables/{table_id}", f"/tables/{play}", everyone(200)),
        Probe("POST", "/tables/{table_id}/join", f"/tables/{open_}/join", signed_in(409, refused=SIGNIN),
              form={"seat": "2"}),
        Probe("POST", "/tables/{table_id}/leave", f"/tables/{w.quit_page}/leave",
              signed_in(409, refused=SIGNIN, owner=303, other_seat=303), form={"confirm": "yes"}),
        Probe("POST", "/account/email", "/account/email", signed_in(303, refused=SIGNIN), form={"email": ""}),
        Probe("POST", "/account/confirm-moves", "/account/confirm-moves", signed_in(303, refused=SIGNIN),
              form={"confirm_moves": "off"}),
        Probe("POST", "/tables/{table_id}/chat", f"/tables/{play}/chat", signed_in(303, refused=SIGNIN),
              form={"text": "hello"}),
        Probe("POST", "/mutes", "/mutes", signed_in(303, refused=SIGNIN, other_seat=422),
              form={"name": w.names["other"], "action": "mute"}),
        Probe("GET", "/account", "/account", signed_in(200, refused=SIGNIN)),
        Probe("GET", "/account/export", "/account/export", signed_in(200, refused=SIGNIN)),
        Probe("POST", "/account/delete", "/account/delete", signed_in(403, refused=SIGNIN),
              form={"password": "not the password", "confirm": "1"}),
        Probe("GET", "/moderation", "/moderation", signed_in(403, refused=SIGNIN)),  # moderators: test_moderation
        Probe("POST", "/moderation/chat/{chat_id}/hide", "/moderation/chat/1/hide", signed_in(403, refused=SIGNIN)),
        Probe("POST", "/moderation/accounts/{name}/mute", f"/moderation/accounts/{w.names['other']}/mute",
              signed_in(403, refused=SIGNIN), form={"minutes": "10"}),
        Probe("POST", "/moderation/accounts/{name}/ban", f"/moderation/accounts/{w.names['other']}/ban",
              signed_in(403, refused=SIGNIN), form={"reason": "spam"}),
        Probe("POST", "/account/password", "/account/password", signed_in(403, refused=SIGNIN),
              form={"current": "not the password", "new": "a brand new secret 1", "new2": "a brand new secret 1"}),
        Probe("POST", "/account/tokens", "/account/tokens", signed_in(201, refused=SIGNIN)),
        Probe("POST", "/account/tokens/{token_id}/revoke", f"/account/tokens/{w.spare_ids[1]}/revoke",
              signed_in(404, refused=SIGNIN, spectator=303)),
        Probe("GET", "/rules", "/rules", everyone(200)),
        Probe("GET", "/rules/{name}", "/rules/iquazu", everyone(200)),
        Probe("GET", "/rules/{name}/decisions", "/rules/iquazu/decisions", everyone(200)),
        # tutorials (issue 27): public and stateless; the first game after one is a signed-in person's table
        Probe("GET", "/learn", "/learn", everyone(303)),  # to the rules' list of games
        Probe("GET", "/learn/{name}", "/learn/iquazu", everyone(200)),
        Probe("GET", "/learn/{name}/step", "/learn/iquazu/step?n=0", everyone(200)),
        Probe("GET", "/learn/{name}/play", "/learn/iquazu/play", signed_in(200, refused=SIGNIN)),
        Probe("POST", "/learn/{name}/play", "/learn/iquazu/play", signed_in(303, refused=SIGNIN)),
        Probe("GET", "/tables/{table_id}/replay", f"/tables/{play}/replay", everyone(409)),
        Probe("GET", "/tables/{table_id}/record.json", f"/tables/{play}/record.json", everyone(409)),
        Probe("GET", "/tables/{table_id}/analysis", f"/tables/{play}/analysis", everyone(409)),
        Probe("GET", "/replay/upload", "/replay/upload", everyone(200)),
        Probe("POST", "/replay/upload", "/replay/upload", everyone(400), form={"nothing": "here"}),
        Probe("GET", "/replay/uploaded/{key}", f"/replay/uploaded/{key}", everyone(200)),
        Probe("GET", "/replay/uploaded/{key}/record.json", f"/replay/uploaded/{key}/record.json", everyone(200)),
        Probe("GET", "/tables/{table_id}/history", f"/tables/{play}/history", everyone(200)),
        # ratings: public
        Probe("GET", "/api/leaderboards/{game}", "/api/leaderboards/iquazu", everyone(200)),
        Probe("GET", "/api/players/{name}", f"/api/players/{w.names['owner']}", everyone(200)),
        Probe("GET", "/leaderboards", "/leaderboards", everyone(303)),  # to the first game's board
        Probe("GET", "/leaderboards/{game}", "/leaderboards/iquazu", everyone(200)),
        Probe("GET", "/players/{name}", f"/players/{w.names['owner']}", everyone(200)),
        Probe("POST", "/tables/{table_id}/chat/{chat_id}/report", f"/tables/{play}/chat/999999/report",
              signed_in(404, refused=SIGNIN), form={"name": w.names["other"], "reason": "spam"}),  # no such line
        Probe("POST", "/players/{name}/report", f"/players/{w.names['other']}/report",
              signed_in(200, refused=SIGNIN, other_seat=422), form={"reason": "spam"}),
        # private tables and rematches: a private table is missing (404) for whoever does not sit there
        Probe("GET", "/api/tables/{table_id}/state", f"/api/tables/{private}/state", only_owner),
        Probe("GET", "/api/tables/{table_id}", f"/api/tables/{private}", only_owner),
        Probe("GET", "/tables/{table_id}", f"/tables/{private}", only_owner),
        Probe("GET", "/tables/{table_id}/history", f"/tables/{private}/history", only_owner),
        Probe("GET", "/api/tables/{table_id}/chat", f"/api/tables/{private}/chat", only_owner),
        Probe("GET", "/api/tables/{table_id}/invitation", f"/api/tables/{private}/invitation", only_owner),
        Probe("GET", "/api/tables/{table_id}/invitation", f"/api/tables/{play}/invitation", signed_in(409)),
        Probe("POST", "/api/invitations/{code}", "/api/invitations/not-a-code", signed_in(404)),
        Probe("GET", "/invite/{code}", "/invite/not-a-code", signed_in(404, refused=SIGNIN)),
        Probe("POST", "/api/tables/{table_id}/rematch", f"/api/tables/{play}/rematch", signed_in(403) | seated),
        Probe("POST", "/tables/{table_id}/rematch", f"/tables/{play}/rematch",
              signed_in(403, refused=SIGNIN) | seated),
        # programs as players: a seat's determinisation for its players only; marking oneself a program
        Probe("GET", "/api/tables/{table_id}/sample", f"/api/tables/{play}/sample",
              signed_in(403, owner=200, token=200, other_seat=200)),
        Probe("PUT", "/api/account/program", "/api/account/program", signed_in(200), body={"program": False}),
        Probe("GET", "/ws/tables/{table_id}", f"/ws/tables/{play}", everyone("socket")),  # the socket tests below
    ]


def _credentials(name: str) -> dict[str, str]:
    return {"name": name, "password": PASSWORD}


def socket_message_types() -> set[str]:
    """The ``type`` of every client message model of the socket (a pydantic model with a Literal type)."""
    kinds = set()
    for value in vars(ws).values():
        if isinstance(value, type) and issubclass(value, pydantic.BaseModel) and "type" in value.model_fields:
            annotation = value.model_fields["type"].annotation
            kinds |= set(getattr(annotation, "__args__", ()))
    return kinds


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    settings = settings_for(tmp_path_factory.mktemp("matrix")).model_copy(
        update={"rate_limits": {"accounts": "1000/minute", "sign_in_name": "1000/minute", "tables": "1000/minute",
                                  "reset_address": "1000/minute", "reset_target": "1000/minute"}}
    )
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        yield World(client)


def _outcome(answer: Any) -> int | str:
    if answer.status_code == 303 and answer.headers["location"].startswith("/signin"):
        return SIGNIN
    status: int = answer.status_code
    return status


def test_every_route_is_in_the_matrix(world: World) -> None:
    listed = {(p.method, p.route) for p in probes(world)}
    missing = app_routes(world.client) - listed
    assert not missing, f"routes without a row in the authorization matrix: {sorted(missing)}"
    assert not listed - app_routes(world.client), "rows for routes that do not exist"


def test_every_route_answers_every_caller_as_documented(world: World) -> None:
    problems = []
    cells = 0
    for probe in probes(world):
        if probe.expect == everyone("socket"):
            continue
        for role in ROLES:
            kwargs: dict[str, Any] = {}
            if probe.body is not None:
                kwargs["json"] = probe.body() if callable(probe.body) else probe.body
            if probe.form is not None:
                kwargs["data"] = probe.form() if callable(probe.form) else probe.form
            answer = world.send(probe.method, probe.url, role, **kwargs)
            got = _outcome(answer)
            cells += 1
            if got != probe.expect[role]:
                problems.append(f"{probe.method} {probe.url} as {role}: {got}, expected {probe.expect[role]}")
            elif probe.check is not None:
                probe.check(role, answer)
            if probe.resets:
                world.renew_sessions()
    routes = {(p.method, p.route) for p in probes(world)}
    print(f"authorization matrix: {len(routes)} routes, {len(probes(world))} probes, {cells} cells checked")
    assert not problems, "\n".join(problems)
    assert cells >= 50 * len(ROLES)


def _until(socket: Any, kind: str, text: str | None = None) -> dict[str, Any]:
    """The next error, or the next ``kind`` message (for chat: the one carrying ``text``)."""
    for _ in range(20):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "error":
            return message
        if message["type"] == kind and (text is None or any(m["text"] == text for m in message["messages"])):
            return message
    raise AssertionError(f"no {kind} message")


SOCKET_EXPECT: dict[str, dict[str, str]] = {
    "state": everyone("state"),  # type: ignore[dict-item]
    "move": {"anonymous": "signed-out", "revoked": "signed-out", "non-member": "not-seated",
             "spectator": "not-seated", "other-seat": "not-your-turn", "owner": "illegal", "token": "illegal"},
    "undo": {"anonymous": "signed-out", "revoked": "signed-out", "non-member": "not-seated",
             "spectator": "not-seated", "other-seat": "not-your-turn", "owner": "no-takeback", "token": "no-takeback"},
    "chat": {role: ("signed-out" if role in NOBODY else "chat") for role in ROLES},
}


def test_every_socket_message_type_is_in_the_matrix() -> None:
    assert socket_message_types() == set(SOCKET_EXPECT), "a socket message type without a row in the matrix"


def test_every_socket_message_answers_every_caller_as_documented(world: World) -> None:
    seats = {"owner": 0, "token": 0, "other-seat": 1}
    problems = []
    for role in ROLES:
        headers = world.headers(role, "GET")
        world.client.cookies.clear()
        with world.client.websocket_connect(f"/ws/tables/{world.play}?chat=1", headers=headers) as socket:
            first = _until(socket, "state")
            _until(socket, "chat")  # the history on connect (possibly empty)
            if first.get("seat") != seats.get(role):
                problems.append(f"socket as {role}: seat {first.get('seat')}")
            sent = {
                "state": {"type": "state"},
                "move": {"type": "move", "seq": first["seq"], "action": "no such move"},
                "undo": {"type": "undo", "seq": first["seq"]},
                "chat": {"type": "chat", "text": f"from {role}"},
            }
            for kind, message in sent.items():
                socket.send_text(json.dumps(message))
                answer = _until(socket, "chat", message["text"]) if kind == "chat" else _until(socket, "state")
                got = answer["code"] if answer["type"] == "error" else answer["type"]
                if got != SOCKET_EXPECT[kind][role]:
                    problems.append(f"socket {kind} as {role}: {got}, expected {SOCKET_EXPECT[kind][role]}")
    assert not problems, "\n".join(problems)


def test_a_revoked_token_and_a_foreign_origin_get_nothing_of_the_seat(world: World) -> None:
    for headers in (world.callers["revoked"].headers, {**world.headers("owner", "GET"), "Origin": "https://evil.example"}):
        world.client.cookies.clear()
        state = world.client.get(f"/api/tables/{world.play}/state", headers=headers).json()
        assert state["seat"] is None and state["legal"] == []
        with world.client.websocket_connect(f"/ws/tables/{world.play}", headers=headers) as socket:
            assert _until(socket, "state")["seat"] is None

