"""Moderation (issue 30): a player reports a chat line; a moderator reads the reports, hides the line (no reader
gets it any more), mutes the author site-wide (told so in German, its language) and bans it (its token and
sessions end, it cannot sign in, told in German, and its running game's leaver rule takes its seat); every
action is in the audit log, which only admins read. Moderators act on players only. ``spieltafel admin grant``
gives the roles. Each refusal changes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from spieltafel.cli import app as cli
from spieltafel.server.accounts.service import AccountService
from spieltafel.server.db import Database
from spieltafel.server.social.moderation import ModerationService

from ..helpers import PASSWORD, Person, person

pytestmark = pytest.mark.anyio


async def _grant(app: FastAPI, who: Person, role: str) -> None:
    services = app.state.services
    await ModerationService(services.db, services.accounts, services.tables).grant(who.name, role)


async def _german(app: FastAPI, who: Person) -> None:
    services = app.state.services
    account = await services.accounts.authenticate(who.name, PASSWORD)
    await services.accounts.set_language(account, "de")


async def test_report_hide_mute_ban_and_the_audit_log(app: FastAPI, client: httpx.AsyncClient) -> None:
    author, reporter, moderator, admin = [await person(client, prefix) for prefix in "armd"]
    await _grant(app, moderator, "moderator")
    await _grant(app, admin, "admin")
    await _german(app, author)
    seats = [{"kind": "me"}, {"kind": "open"}]
    table = (await client.post("/api/tables", json={"game": "iquazu", "players": 2, "seats": seats},
                               headers=author.headers)).json()["id"]
    assert (await client.post(f"/api/tables/{table}/join", headers=reporter.headers)).status_code == 200
    line = (await client.post(f"/api/tables/{table}/chat", json={"text": "you are awful"},
                              headers=author.headers)).json()["id"]

    async def report(body: dict[str, object], who: Person = reporter) -> httpx.Response:
        return await client.post("/api/reports", json=body, headers=who.headers)

    answer = await report({"name": author.name, "chat_id": line, "reason": "insults"})
    assert answer.status_code == 201, answer.text
    assert (await report({"name": author.name, "chat_id": line + 99, "reason": "x"})).status_code == 404
    assert (await report({"name": author.name, "reason": "  "})).status_code == 422
    assert (await report({"name": reporter.name, "reason": "me"})).status_code == 422
    assert (await client.post("/api/reports", json={"name": author.name, "reason": "x"})).status_code == 401

    assert (await client.get("/api/moderation/reports", headers=reporter.headers)).status_code == 403
    reports = (await client.get("/api/moderation/reports", headers=moderator.headers)).json()
    assert [(r["reporter"], r["account"], r["text"], r["reason"]) for r in reports] == \
        [(reporter.name, author.name, "you are awful", "insults")]

    assert (await client.post(f"/api/moderation/chat/{line}/hide", headers=reporter.headers)).status_code == 403
    assert [m["id"] for m in (await client.get(f"/api/tables/{table}/chat", headers=reporter.headers)).json()] \
        == [line]
    assert (await client.post(f"/api/moderation/chat/{line}/hide", headers=moderator.headers)).status_code == 204
    assert (await client.get(f"/api/tables/{table}/chat", headers=reporter.headers)).json() == []

    mute = f"/api/moderation/accounts/{author.name}/mute"
    assert (await client.post(mute, json={"minutes": 10}, headers=reporter.headers)).status_code == 403
    assert (await client.post(mute, json={"minutes": -1}, headers=moderator.headers)).status_code == 422
    answer = await client.post(mute, json={"minutes": 10}, headers=moderator.headers)
    assert answer.status_code == 200 and answer.json()["until"]
    said = await client.post(f"/api/tables/{table}/chat", json={"text": "hello"}, headers=author.headers)
    assert said.status_code == 403 and said.json()["detail"]["code"] == "muted"
    assert said.json()["detail"]["message"].startswith("Ein Moderator hat dich stummgeschaltet: Du kannst bis ")
    assert (await client.post(f"/api/moderation/accounts/{admin.name}/mute", json={"minutes": 5},
                              headers=moderator.headers)).json()["detail"]["code"] == "not-admin"
    assert (await client.post(f"/api/moderation/accounts/{moderator.name}/mute", json={"minutes": 5},
                              headers=moderator.headers)).json()["detail"]["code"] == "self"

    ban = f"/api/moderation/accounts/{author.name}/ban"
    assert (await client.post(ban, json={"reason": "insults"}, headers=reporter.headers)).status_code == 403
    assert (await client.post(ban, json={"reason": ""}, headers=moderator.headers)).status_code == 422
    assert (await client.get("/api/session", headers=author.headers)).status_code == 200
    assert (await client.post(ban, json={"reason": "insults"}, headers=moderator.headers)).status_code == 204
    assert (await client.get("/api/session", headers=author.headers)).status_code == 401  # its token ended
    signed_in = await client.post("/api/session", json={"name": author.name, "password": PASSWORD})
    assert signed_in.status_code == 403 and signed_in.json()["detail"] == {
        "code": "banned", "message": "Ein Moderator hat dieses Konto gesperrt: Es kann sich nicht mehr anmelden."}
    client.cookies.clear()
    seats_now = (await client.get(f"/api/tables/{table}")).json()["seats"]
    assert (seats_now[0]["kind"], seats_now[0]["gone"]) == ("bot", "left")  # the leaver rule took its seat
    assert (await client.post(ban, json={"reason": "again"}, headers=moderator.headers)).status_code == 409

    assert (await client.get("/api/moderation/audit", headers=moderator.headers)).status_code == 403
    audit = (await client.get("/api/moderation/audit", headers=admin.headers)).json()
    assert [(e["actor"], e["action"], e["account"]) for e in audit] == [
        (moderator.name, "ban", author.name), (moderator.name, "mute", author.name),
        (moderator.name, "hide", author.name), (None, "grant", admin.name), (None, "grant", moderator.name)]
    assert audit[0]["detail"] == "insults" and audit[2]["chat_id"] == line


runner = CliRunner()


def test_admin_grant_on_the_command_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    url = f"sqlite+aiosqlite:///{data / 'spieltafel.db'}"

    async def make() -> None:
        data.mkdir()
        db = Database(url)
        await db.start()
        try:
            await AccountService(db).create("mia_mod", PASSWORD)
        finally:
            await db.close()

    asyncio.run(make())
    done = runner.invoke(cli, ["admin", "grant", "mia_mod", "moderator", "--data", str(data)])
    assert done.exit_code == 0 and "mia_mod: site role moderator" in done.output, done.output
    refused = runner.invoke(cli, ["admin", "grant", "mia_mod", "emperor", "--data", str(data)])
    assert refused.exit_code == 1 and "a role is one of player, moderator, admin" in refused.output
    assert runner.invoke(cli, ["admin", "grant", "nobody", "admin", "--data", str(data)]).exit_code == 1
    with sqlite3.connect(data / "spieltafel.db") as connection:
        assert connection.execute("SELECT role FROM accounts WHERE name = 'mia_mod'").fetchone() == ("moderator",)
        assert connection.execute("SELECT actor_id, action, detail FROM audit_log").fetchall() == \
            [(None, "grant", "moderator")]


def test_a_ban_closes_the_accounts_sockets_and_the_game_goes_on(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spieltafel.server.app import create_app

    from ..accounts.test_sockets_follow_accounts import Player, assert_signed_out, two_player_table
    from ..conftest import settings_for

    with TestClient(create_app(settings_for(tmp_path))) as http:
        table_id, alice, bob = two_player_table(http)
        moderator = Player(http)
        services = http.app.state.services  # type: ignore[attr-defined]
        http.portal.call(ModerationService(services.db, services.accounts, services.tables).grant,  # type: ignore[union-attr]
                         moderator.name, "moderator")
        with (
            http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.bearer) as by_token,
            http.websocket_connect(f"/ws/tables/{table_id}", headers=alice.cookie()) as by_session,
            http.websocket_connect(f"/ws/tables/{table_id}", headers=bob.bearer) as opponent,
        ):
            by_token.receive_json(), by_session.receive_json(), opponent.receive_json()
            banned = http.post(f"/api/moderation/accounts/{alice.name}/ban", json={"reason": "cheating"},
                               headers=moderator.bearer)
            assert banned.status_code == 204, banned.text
            assert_signed_out(by_token)
            assert_signed_out(by_session)
            state = opponent.receive_json()  # the leaver rule's bot took seat 0; bob plays on
            assert state["type"] == "state"
        seats = http.get(f"/api/tables/{table_id}").json()["seats"]
        assert (seats[0]["kind"], seats[0]["gone"], seats[1]["name"]) == ("bot", "left", bob.name)


def test_the_moderation_page(tmp_path: Path) -> None:
    """A moderator's page lists the reports and acts on them (in German here); an admin's also shows the audit
    log; a player is refused."""
    from fastapi.testclient import TestClient

    from spieltafel.server.app import create_app
    from spieltafel.server.web.security import CSRF_COOKIE, csrf_token_for

    from ..accounts.test_sockets_follow_accounts import Player, two_player_table
    from ..conftest import settings_for

    with TestClient(create_app(settings_for(tmp_path))) as http:
        table_id, alice, bob = two_player_table(http)
        moderator, admin = Player(http), Player(http)
        services = http.app.state.services  # type: ignore[attr-defined]
        moderation = ModerationService(services.db, services.accounts, services.tables)
        http.portal.call(moderation.grant, moderator.name, "moderator")  # type: ignore[union-attr]
        http.portal.call(moderation.grant, admin.name, "admin")  # type: ignore[union-attr]
        line = http.post(f"/api/tables/{table_id}/chat", json={"text": "cheater!"}, headers=alice.bearer).json()["id"]
        assert http.post("/api/reports", json={"name": alice.name, "chat_id": line, "reason": "rude"},
                         headers=bob.bearer).status_code == 201

        def page(who: Player, method: str = "GET", url: str = "/moderation", **form: str) -> Any:
            http.cookies.clear()
            headers = {"Cookie": f"{CSRF_COOKIE}={'c' * 43}; spieltafel_session={who.session}; spieltafel_lang=de"}
            if method == "POST":
                headers["X-CSRF-Token"] = csrf_token_for("test-secret", "c" * 43, who.session)
            return http.request(method, url, headers=headers, data=form or None, follow_redirects=False)

        refused = page(bob)
        assert refused.status_code == 403 and "Nur Moderatoren und Admins dürfen diese Seite sehen." in refused.text
        shown = page(moderator)
        assert shown.status_code == 200 and "cheater!" in shown.text and "rude" in shown.text
        assert "Zeile verbergen" in shown.text and "Protokoll" not in shown.text  # the audit log: admins only
        assert page(moderator, "POST", f"/moderation/chat/{line}/hide").headers["location"] == "/moderation?done=1"
        assert http.get(f"/api/tables/{table_id}/chat", headers=bob.bearer).json() == []
        wrong = page(moderator, "POST", f"/moderation/accounts/{alice.name}/mute", minutes="forever")
        assert wrong.status_code == 422 and "minutes" in wrong.text
        assert page(moderator, "POST", f"/moderation/accounts/{alice.name}/mute", minutes="60").status_code == 303
        assert page(moderator, "POST", f"/moderation/accounts/{admin.name}/ban", reason="x").status_code == 403
        profile = page(bob, url=f"/players/{alice.name}")
        assert "Diesen Spieler melden" in profile.text and f'action="/players/{alice.name}/report"' in profile.text
        assert "Diesen Spieler melden" not in page(alice, url=f"/players/{alice.name}").text  # not oneself
        sent = page(bob, "POST", f"/players/{alice.name}/report", reason="cheats at every table")
        assert sent.status_code == 200 and "Danke: Die Moderatoren werden deine Meldung lesen." in sent.text
        assert page(bob, "POST", f"/players/{alice.name}/report", reason=" ").status_code == 422
        assert "cheats at every table" in page(moderator).text
        audit = page(admin)
        assert "Protokoll" in audit.text and "Kommandozeile" in audit.text and moderator.name in audit.text


def test_a_player_reports_a_chat_line_from_the_table_page(tmp_path: Path) -> None:
    """The table page offers a report form on each other player's chat line; the report reaches the moderators
    with the line; a line of another table, an empty reason and oneself are refused in the reader's language,
    and nobody reports from a private table they may not see."""
    from fastapi.testclient import TestClient

    from spieltafel.server.app import create_app
    from spieltafel.server.web.security import CSRF_COOKIE, csrf_token_for

    from ..accounts.test_sockets_follow_accounts import Player, two_player_table
    from ..conftest import settings_for
    from ..sync_client import private_table

    with TestClient(create_app(settings_for(tmp_path))) as http:
        table_id, alice, bob = two_player_table(http)
        other_table, _, carl = two_player_table(http)
        line = http.post(f"/api/tables/{table_id}/chat", json={"text": "you cheat"}, headers=alice.bearer).json()["id"]
        elsewhere = http.post(f"/api/tables/{other_table}/chat", json={"text": "hi"}, headers=carl.bearer).json()["id"]

        def page(who: Player, method: str, url: str, **form: str) -> Any:
            http.cookies.clear()
            headers = {"Cookie": f"{CSRF_COOKIE}={'c' * 43}; spieltafel_session={who.session}; spieltafel_lang=de"}
            if method == "POST":
                headers["X-CSRF-Token"] = csrf_token_for("test-secret", "c" * 43, who.session)
            return http.request(method, url, headers=headers, data=form or None, follow_redirects=False)

        shown = page(bob, "GET", f"/tables/{table_id}")
        assert f'action="/tables/{table_id}/chat/{line}/report"' in shown.text and "Melden" in shown.text
        assert f'action="/tables/{table_id}/chat/{line}/report"' not in page(alice, "GET", f"/tables/{table_id}").text
        report = f"/tables/{table_id}/chat/{line}/report"
        sent = page(bob, "POST", report, name=alice.name, reason="accuses me of cheating")
        assert sent.status_code == 200 and "Danke: Die Moderatoren werden deine Meldung lesen." in sent.text
        empty = page(bob, "POST", report, name=alice.name, reason="  ")
        assert empty.status_code == 422 and "Sag, warum" in empty.text
        mine = page(alice, "POST", report, name=alice.name, reason="x")
        assert mine.status_code == 422 and "Du kannst dich nicht selbst melden." in mine.text
        other = page(bob, "POST", f"/tables/{table_id}/chat/{elsewhere}/report", name=carl.name, reason="x")
        assert other.status_code == 404 and "Diese Chat-Nachricht gibt es hier nicht." in other.text
        bad = page(bob, "POST", f"/tables/{table_id}/chat/abc/report", name=alice.name, reason="x")
        assert bad.status_code == 422
        hidden = private_table(http, alice.bearer)
        secret = http.post(f"/api/tables/{hidden}/chat", json={"text": "psst"}, headers=alice.bearer).json()["id"]
        unseen = page(carl, "POST", f"/tables/{hidden}/chat/{secret}/report", name=alice.name, reason="x")
        assert unseen.status_code == 404
        assert http.post("/api/reports", json={"name": alice.name, "chat_id": secret, "reason": "x"},
                         headers=carl.bearer).status_code == 404  # the API too: not a line carl may see
        reports = http.portal.call(http.app.state.services.moderation.reports)  # type: ignore[attr-defined,union-attr]
        assert [(r["account"], r["chat_id"], r["reason"]) for r in reports] == [
            (alice.name, line, "accuses me of cheating")]
