"""Export my data and delete my account (issue 28, point 3), through the API: the export holds the account,
its games (a finished one with its record), ratings and chat lines; a deletion after the password ends
every sign-in, takes the chat lines, mutes, ratings and the name, leaves running games by the leaver rule
and keeps finished games whole with "deleted player" in the seat."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from spieltafel.server.accounts.service import DELETED_NAME

from ..backing import fresh_database
from ..clocked import FakeClock, mailing_server, new_table
from ..conftest import settings_for
from ..helpers import PASSWORD, Person, Seen, person, play_http, rated_async

pytestmark = pytest.mark.anyio


async def finished_game(http: httpx.AsyncClient, alice: Person, bob: Person) -> int:
    table = await new_table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])
    assert (await http.post(f"/api/tables/{table}/join", headers=bob.headers)).status_code == 200
    await play_http(http, table, [alice, bob], Seen(), random.Random(3))
    return table


async def test_export_then_delete(tmp_path: Path) -> None:
    async with fresh_database() as url, mailing_server(settings_for(tmp_path, url), FakeClock()) as (app, http):
        alice, bob = await person(http, "a"), await person(http, "b")
        over = await finished_game(http, alice, bob)
        await rated_async(http, "iquazu", lambda board: alice.name in board and bob.name in board)
        said = await http.post(f"/api/tables/{over}/chat", json={"text": "good game"}, headers=alice.headers)
        assert said.status_code == 201, said.text
        assert (await http.put(f"/api/mutes/{alice.name}", headers=bob.headers)).status_code == 204
        running = await new_table(http, alice, "haleakala", [{"kind": "me"}, {"kind": "open"}],
                                  clock={"pace": "turn", "per_move": "1d"}, leaver={"rule": "bot", "bot": "random"})
        assert (await http.post(f"/api/tables/{running}/join", headers=bob.headers)).status_code == 200
        waiting = await new_table(http, alice, "iquazu", [{"kind": "me"}, {"kind": "open"}])

        exported = await http.get("/api/account/export", headers=alice.headers)
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        data = exported.json()
        assert data["format"] == "spieltafel-account-export" and data["account"]["name"] == alice.name
        games = {g["table"]: g for g in data["games"]}
        assert set(games) == {over, running, waiting}
        assert games[over]["record"]["seats"] == [alice.name, bob.name] and games[over]["record"]["actions"]
        assert games[running]["record"] is None  # a running game's record would show what is hidden yet
        assert [r["game"] for r in data["ratings"]] == ["iquazu"] and data["rating_history"][0]["table"] == over
        assert [c["text"] for c in data["chat"]] == ["good game"]
        assert (await http.get("/api/account/export")).status_code == 401

        wrong = await http.request("DELETE", "/api/account", json={"password": "not it at all"}, headers=alice.headers)
        assert wrong.status_code == 403 and wrong.json()["detail"]["code"] == "wrong-password"
        assert (await http.get("/api/session", headers=alice.headers)).status_code == 200  # nothing changed
        gone = await http.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=alice.headers)
        assert gone.status_code == 204, gone.text

        assert (await http.get("/api/session", headers=alice.headers)).status_code == 401
        signin = await http.post("/api/session", json={"name": alice.name, "password": PASSWORD})
        assert signin.status_code == 401
        assert (await http.get(f"/api/players/{alice.name}")).status_code == 404
        record = (await http.get(f"/api/tables/{over}/record")).json()
        assert record["seats"] == [DELETED_NAME, bob.name]  # the finished game stays whole
        table = (await http.get(f"/api/tables/{over}")).json()
        assert table["seats"][0]["name"] == DELETED_NAME
        for lang, words in (("en", "deleted player"), ("de", "gelöschter Spieler"), ("nl", "verwijderde speler")):
            page = (await http.get(f"/tables/{over}", headers={"Accept-Language": lang})).text
            assert words in page and "/players/deleted" not in page and "/players/~" not in page, lang
            assert alice.name not in page
        board = (await http.get("/api/leaderboards/iquazu")).json()
        assert [e["name"] for e in board if e["kind"] != "bot"] == [bob.name]  # bob's rating stays
        assert (await http.get(f"/api/tables/{over}/chat")).json() == []
        assert (await http.get("/api/mutes", headers=bob.headers)).json() == []
        left = (await http.get(f"/api/tables/{running}")).json()
        assert left["status"] == "playing" and left["seats"][0]["gone"] == "left"  # the leaver rule took it
        assert (await http.get(f"/api/tables/{waiting}")).status_code == 404  # nobody sat there any more
        again = await http.post("/api/accounts", json={"name": alice.name, "password": PASSWORD})
        assert again.status_code == 201  # the name is free again
        assert app.state.services.account_data is not None
