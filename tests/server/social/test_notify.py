"""'Your turn' e-mails against a local SMTP sink (aiosmtpd): once per waiting turn-based game, only to
people with an address, never for live tables, and nothing at all when SMTP is not configured."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from fastapi import FastAPI
from mail_sink import Sink, body_of

from ..clocked import FakeClock, first_move, mailing_server, new_table, smtp_settings, state
from ..conftest import settings_for
from ..helpers import Person, person

pytestmark = pytest.mark.anyio
WAIT_MS = 300_000  # mail_after_seconds, the default


async def with_address(app: FastAPI, http: httpx.AsyncClient, who: Person, address: str, sink: Sink) -> None:
    """Give ``who`` the address and follow the verification link mailed to it (issue 28: only a verified
    address gets 'your turn' mails); the verification mail is taken out of the sink."""
    answer = await http.put("/api/account/email", json={"email": address}, headers=who.headers)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"email": address, "enabled": True, "verified": False}, answer.text
    await app.state.services.recovery.settle()
    mail = sink.messages.pop()
    link = body_of(mail).split("link=", 1)[1].split()[0]
    done = await http.post("/api/account/email/verify", json={"link": unquote(link)})
    assert done.status_code == 200, done.text


async def test_one_mail_per_waiting_turn_based_game(tmp_path: Path, sink: tuple[Sink, int]) -> None:
    handler, port = sink
    clock = FakeClock()
    async with mailing_server(smtp_settings(tmp_path, port), clock) as (app, http):
        notifier = app.state.services.notifier
        alice, bob = await person(http, "a"), await person(http, "b")
        await with_address(app, http, alice, "alice@example.org", handler)
        turn = await new_table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}],
                               clock={"pace": "turn", "per_move": "1d"})
        live = await new_table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}],
                               clock={"pace": "live", "minutes": 5})
        for table_id in (turn, live):
            assert (await http.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
        assert await notifier.notify() == 0                     # not at once: she may be at the table
        clock.advance(WAIT_MS)
        assert await notifier.notify() == 1                     # the turn-based table waits for alice
        assert await notifier.notify() == 0                     # once per waiting game
        (mail,) = handler.messages
        assert mail["To"] == "alice@example.org" and f"table {turn}" in mail["Subject"]
        assert f"http://spieltafel.test/tables/{turn}" in mail.get_payload()
        while 0 in (await state(http, turn))["to_act"]:          # her turn, step by step: no new mail
            assert (await first_move(http, turn, alice)).status_code == 200
            clock.advance(WAIT_MS)
            assert await notifier.notify() == 0
        while 1 in (await state(http, turn))["to_act"]:          # bob has no address: no mail for him
            clock.advance(WAIT_MS)
            assert await notifier.notify() == 0
            assert (await first_move(http, turn, bob)).status_code == 200
        assert 0 in (await state(http, turn))["to_act"]
        clock.advance(WAIT_MS)
        assert await notifier.notify() == 1                     # a new wait for alice: a new mail
        assert len(handler.messages) == 2


async def test_mails_go_in_the_persons_language_and_addresses_are_checked(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    clock = FakeClock()
    async with mailing_server(smtp_settings(tmp_path, port), clock) as (app, http):
        carla, dirk = await person(http, "c"), await person(http, "d")
        for bad in ("not an address", "a@b", "x" * 250 + "@example.org", "a@b.c\r\nBcc: eve@example.org"):
            refused = await http.put("/api/account/email", json={"email": bad}, headers=carla.headers)
            assert refused.status_code == 422 and refused.json()["detail"]["code"] in ("bad-email", "invalid"), bad
        assert (await http.get("/api/account/email", headers=carla.headers)).json() == {
            "email": None, "enabled": True, "verified": False}
        await with_address(app, http, carla, "carla@example.org", handler)
        accounts = app.state.services.accounts
        await accounts.set_language(await accounts.by_token(carla.token), "de")
        await new_table(http, carla, "haleakala", [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
                        clock={"pace": "turn", "per_move": "12h"})
        clock.advance(WAIT_MS)
        assert await app.state.services.notifier.notify() == 1
        assert "Du bist am Zug" in handler.messages[0]["Subject"]
        cleared = await http.put("/api/account/email", json={"email": None}, headers=carla.headers)
        assert cleared.json() == {"email": None, "enabled": True, "verified": False}
        assert (await http.put("/api/account/email", json={"email": "x"})).status_code == 401
        assert (await http.get("/api/account/email", headers=dirk.headers)).json()["email"] is None


async def test_no_mail_without_smtp_settings(tmp_path: Path, sink: tuple[Sink, int]) -> None:
    handler, _ = sink
    clock = FakeClock()
    async with mailing_server(settings_for(tmp_path), clock) as (app, http):
        alice = await person(http, "a")
        answer = await http.put("/api/account/email", json={"email": "alice@example.org"}, headers=alice.headers)
        assert answer.json() == {"email": "alice@example.org", "enabled": False, "verified": False}
        await new_table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
                        clock={"pace": "turn", "per_move": "12h"})
        clock.advance(WAIT_MS)
        assert await app.state.services.notifier.notify() == 0
        assert handler.messages == []
