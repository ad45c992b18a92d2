"""Password reset and e-mail verification (issue 28), end to end through the API and an SMTP sink
(aiosmtpd): the same answer for any name, mail only to verified addresses, a signed single-use link valid
for an hour, rate limits, and every session, token and socket of the account ends on a reset."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from email.message import Message
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from mail_sink import Sink, body_of

from spieltafel.server.accounts.auth import SESSION_COOKIE
from spieltafel.server.app import create_app
from spieltafel.server.settings import Settings

from ..backing import fresh_database
from ..clocked import FakeClock, mailing_server, new_table, smtp_settings
from ..conftest import settings_for
from ..helpers import PASSWORD, Person, person
from .test_sockets_follow_accounts import Player, assert_signed_out, first_move, seq_of

pytestmark = pytest.mark.anyio
NEW_PASSWORD = "a fresh secret 4711"
HOUR_MS = 3600 * 1000
LINK = re.compile(r"[?&]link=(\S+)")


def roomy(settings: Settings, per_address: str = "100/minute") -> Settings:
    settings.rate_limits = {"reset_address": per_address}
    return settings


@asynccontextmanager
async def server(settings: Settings, clock: FakeClock) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app on SQLite, or on a fresh PostgreSQL database when the suite runs on PostgreSQL (backing.py)."""
    async with fresh_database() as url:
        settings.database_url = url
        async with mailing_server(settings, clock) as (app, http):
            yield app, http


def link_in(mail: Message) -> str:
    found = LINK.search(body_of(mail))
    assert found, body_of(mail)
    return unquote(found.group(1))


async def mails(app: object, handler: Sink, count: int) -> list[Message]:
    """The sink's messages once the mails asked for are sent; exactly ``count`` of them."""
    await app.state.services.recovery.settle()  # type: ignore[attr-defined]
    assert len(handler.messages) == count, [m["Subject"] for m in handler.messages]
    return handler.messages


async def verified_address(app: object, http: httpx.AsyncClient, handler: Sink, who: Person, address: str) -> None:
    before = len(handler.messages)
    answer = await http.put("/api/account/email", json={"email": address}, headers=who.headers)
    assert answer.json() == {"email": address, "enabled": True, "verified": False}, answer.text
    mail = (await mails(app, handler, before + 1))[-1]
    assert mail["To"] == address and "Confirm" in mail["Subject"] and "/account/verify?link=" in body_of(mail)
    done = await http.post("/api/account/email/verify", json={"link": link_in(mail)})
    assert done.status_code == 200 and done.json() == {"email": address}, done.text
    state = await http.get("/api/account/email", headers=who.headers)
    assert state.json() == {"email": address, "enabled": True, "verified": True}


async def ask_reset(http: httpx.AsyncClient, who: str) -> httpx.Response:
    return await http.post("/api/password/reset", json={"who": who})


async def test_a_reset_link_goes_only_to_a_verified_address_and_the_answer_is_always_the_same(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    async with server(roomy(smtp_settings(tmp_path, port)), FakeClock()) as (app, http):
        alice, bob = await person(http, "a"), await person(http, "b")
        await verified_address(app, http, handler, alice, "alice@example.org")
        answer = await http.put("/api/account/email", json={"email": "bob@example.org"}, headers=bob.headers)
        assert answer.json()["verified"] is False
        await mails(app, handler, 2)  # alice's and bob's verification mails
        answers = [await ask_reset(http, who) for who in
                   (alice.name, alice.name.upper(), "nobody-here", bob.name, "bob@example.org", "x@example.org")]
        assert {(a.status_code, a.text) for a in answers} == {(answers[0].status_code, answers[0].text)}
        assert answers[0].status_code == 202
        resets = (await mails(app, handler, 4))[2:]  # alice by her name in two spellings; bob is unverified
        assert {m["To"] for m in resets} == {"alice@example.org"}
        assert all("Reset" in m["Subject"] and "http://spieltafel.test/password/reset?link=" in body_of(m)
                   for m in resets)
        # the two mails are sent side by side and may arrive in either order: a weak password, which changes
        # nothing, asks each link whether it still stands; the older one was replaced by the newer
        codes = []
        for link in (link_in(m) for m in resets):
            probe = await http.post("/api/password/reset/confirm", json={"link": link, "password": "short"})
            assert probe.status_code == 422, probe.text
            codes.append((probe.json()["detail"]["code"], link))
        assert sorted(code == "bad-link" for code, _ in codes) == [False, True], codes  # replaced by the next
        standing = next(link for code, link in codes if code != "bad-link")
        await ask_reset(http, "alice@example.org")  # by her verified address
        assert (await mails(app, handler, 5))[-1]["To"] == "alice@example.org"
        assert standing != link_in(handler.messages[-1])


async def test_reset_links_asked_for_at_once_leave_one_standing(tmp_path: Path, sink: tuple[Sink, int]) -> None:
    """Each new reset link replaces the older ones, also when the requests come at the same moment (on
    PostgreSQL two of them once both stood: each deleted the older links before the other had inserted)."""
    handler, port = sink
    settings = roomy(smtp_settings(tmp_path, port))
    settings.rate_limits["reset_target"] = "100/minute"
    async with server(settings, FakeClock()) as (app, http):
        alice = await person(http, "a")
        await verified_address(app, http, handler, alice, "alice@example.org")
        await asyncio.gather(*(ask_reset(http, alice.name) for _ in range(6)))
        codes = []
        for mail in (await mails(app, handler, 7))[1:]:
            probe = await http.post("/api/password/reset/confirm", json={"link": link_in(mail), "password": "x"})
            codes.append(probe.json()["detail"]["code"])
        assert sorted(codes) == ["bad-link"] * 5 + ["bad-password"], codes


async def test_a_reset_sets_the_password_once_and_ends_every_session_and_token(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    clock = FakeClock()
    async with server(smtp_settings(tmp_path, port), clock) as (app, http):
        alice = await person(http, "a")
        await verified_address(app, http, handler, alice, "alice@example.org")
        signed_in = await http.post("/api/session", json={"name": alice.name, "password": PASSWORD})
        session = signed_in.cookies[SESSION_COOKIE]
        http.cookies.clear()
        await ask_reset(http, alice.name)
        link = link_in((await mails(app, handler, 2))[-1])
        for weak in ("short", "password123", alice.name + "xyz123"):  # refused: nothing changes, the link stays
            answer = await http.post("/api/password/reset/confirm", json={"link": link, "password": weak})
            assert answer.status_code == 422 and answer.json()["detail"]["code"] != "bad-link", answer.text
        assert (await http.get("/api/session", headers=alice.headers)).status_code == 200
        nonce, _, signature = link.partition(".")
        strange = (f"{nonce}.{signature}\u00e9", "\u00c0.\u00ff")  # non-ASCII: once a 500
        for forged in (nonce, f"{nonce}.{signature[::-1]}", f"{nonce[::-1]}.{signature}", "x" * 300, *strange):
            answer = await http.post("/api/password/reset/confirm", json={"link": forged, "password": NEW_PASSWORD})
            assert answer.status_code == 422, forged
        done = await http.post("/api/password/reset/confirm", json={"link": link, "password": NEW_PASSWORD})
        assert done.status_code == 204, done.text
        assert (await http.get("/api/session", headers=alice.headers)).status_code == 401  # the token ended
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"}
        assert (await http.get("/api/session", headers=cookie)).status_code == 401  # the session too
        again = await http.post("/api/password/reset/confirm", json={"link": link, "password": "yet another 0815"})
        assert again.status_code == 422 and again.json()["detail"]["code"] == "bad-link"  # single use
        old = await http.post("/api/session", json={"name": alice.name, "password": PASSWORD})
        assert old.status_code == 401
        new = await http.post("/api/session", json={"name": alice.name, "password": NEW_PASSWORD})
        assert new.status_code == 200
        http.cookies.clear()
        await ask_reset(http, alice.name)
        late = link_in((await mails(app, handler, 3))[-1])
        clock.advance(HOUR_MS)  # valid for one hour: not a moment longer
        answer = await http.post("/api/password/reset/confirm", json={"link": late, "password": "yet another 0815"})
        assert answer.status_code == 422 and answer.json()["detail"]["code"] == "bad-link"


async def test_reset_requests_are_rate_limited_alike_for_known_and_unknown_names(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    async with server(roomy(smtp_settings(tmp_path, port), "10/minute"), FakeClock()) as (app, http):
        alice = await person(http, "a")
        await verified_address(app, http, handler, alice, "alice@example.org")
        for who in (alice.name, "nobody-here"):
            statuses = [(await ask_reset(http, who)).status_code for _ in range(4)]
            assert statuses == [202, 202, 202, 429], (who, statuses)  # reset_target: 3 an hour
        assert len(await mails(app, handler, 4)) == 4  # the verification and alice's three resets
        statuses = [(await ask_reset(http, f"someone{n}")).status_code for n in range(3)]
        assert statuses == [202, 202, 429]  # reset_address: here 10 a minute from one address (8 asked before)
        assert (await http.post("/api/password/reset", json={"who": ""})).status_code == 422


async def test_only_a_verified_address_gets_turn_mails_and_a_changed_address_needs_a_new_verification(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    clock = FakeClock()
    async with server(smtp_settings(tmp_path, port), clock) as (app, http):
        notifier = app.state.services.notifier
        carla = await person(http, "c")
        await http.put("/api/account/email", json={"email": "carla@example.org"}, headers=carla.headers)
        verification = link_in((await mails(app, handler, 1))[0])
        await new_table(http, carla, "haleakala", [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
                        clock={"pace": "turn", "per_move": "12h"})
        clock.advance(300_000)
        assert await notifier.notify() == 0  # not verified: no 'your turn' mail
        assert (await http.post("/api/account/email/verify", json={"link": verification})).status_code == 200
        assert (await http.post("/api/account/email/verify", json={"link": verification})).status_code == 422
        assert await notifier.notify() == 1
        assert handler.messages[-1]["To"] == "carla@example.org"
        answer = await http.put("/api/account/email", json={"email": "carla@example.org"}, headers=carla.headers)
        assert answer.json()["verified"] is True  # the same address again: still verified, no new mail
        await mails(app, handler, 2)
        answer = await http.put("/api/account/email", json={"email": "carla@example.net"}, headers=carla.headers)
        assert answer.json() == {"email": "carla@example.net", "enabled": True, "verified": False}
        new_link = link_in((await mails(app, handler, 3))[-1])
        await ask_reset(http, carla.name)
        await mails(app, handler, 3)  # the new address is unverified: no reset mail
        await http.put("/api/account/email", json={"email": "carla@example.com"}, headers=carla.headers)
        first = link_in((await mails(app, handler, 4))[-1])
        stale = await http.post("/api/account/email/verify", json={"link": new_link})  # sent to an address now gone
        assert stale.status_code == 422 and stale.json()["detail"]["code"] == "bad-link"
        assert (await http.get("/api/account/email", headers=carla.headers)).json()["verified"] is False
        await http.put("/api/account/email", json={"email": "carla@example.com"}, headers=carla.headers)
        again = link_in((await mails(app, handler, 5))[-1])  # saved again while unverified: a new link
        assert (await http.post("/api/account/email/verify", json={"link": first})).status_code == 422  # replaced
        assert (await http.post("/api/account/email/verify", json={"link": again})).status_code == 200
        assert (await http.get("/api/account/email", headers=carla.headers)).json()["verified"] is True


def test_a_reset_closes_the_accounts_sockets(tmp_path: Path, sink: tuple[Sink, int]) -> None:
    """The socket revocation of a password change (issue 23) follows a reset too."""
    handler, port = sink
    with TestClient(create_app(smtp_settings(tmp_path, port))) as http:
        alice = Player(http)
        bob = Player(http)
        body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
        table_id = http.post("/api/tables", json=body, headers=alice.bearer).json()["id"]
        assert http.post(f"/api/tables/{table_id}/join", headers=bob.bearer).status_code == 200
        given = http.put("/api/account/email", json={"email": "alice@example.org"}, headers=alice.bearer)
        assert given.status_code == 200
        deadline = time.monotonic() + 10
        while not handler.messages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert http.post("/api/account/email/verify", json={"link": link_in(handler.messages[0])}).status_code == 200
        with (
            http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as by_token,
            http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie()) as by_session,
        ):
            move = first_move(by_token)
            by_session.receive_json()
            assert http.post("/api/password/reset", json={"who": alice.name}).status_code == 202
            while len(handler.messages) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            link = link_in(handler.messages[1])
            done = http.post("/api/password/reset/confirm", json={"link": link, "password": NEW_PASSWORD})
            assert done.status_code == 204, done.text
            by_token.send_text(json.dumps(move))
            assert_signed_out(by_token)
            assert_signed_out(by_session)
        assert seq_of(http, table_id, bob) == 0


async def test_without_smtp_nothing_is_sent_and_the_answer_is_the_same(tmp_path: Path) -> None:
    async with server(settings_for(tmp_path), FakeClock()) as (app, http):
        alice = await person(http, "a")
        answer = await http.put("/api/account/email", json={"email": "alice@example.org"}, headers=alice.headers)
        assert answer.json() == {"email": "alice@example.org", "enabled": False, "verified": False}
        assert (await ask_reset(http, alice.name)).status_code == 202
        await asyncio.sleep(0)
        assert not app.state.services.recovery._mailing
