"""Rated or casual games (issue 28) and hints during a game (issue 27), through the API: a casual game
changes no rating, a rated one does; quick play's ``rated: false`` makes a casual table; a hint is given
(computed in the bot workers) and counted in casual games and games against bots, and refused with words
everywhere else (rated games between people, spectators, another seat's turn, a finished game, an old
position, bad bodies)."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from spieltafel.core import get_game
from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis.hints import HintService
from spieltafel.server.app import create_app
from spieltafel.server.db import RatingChangeRow, TableRow
from spieltafel.server.errors import Forbidden, Unavailable
from spieltafel.server.tables.live import Live, Seat

from ..backing import TEST_REDIS_URL, fresh_database, redis_keys
from ..conftest import settings_for
from ..helpers import Person, Seen, person, play_http

pytestmark = pytest.mark.anyio


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app with a small hint budget (40 iterations) and room for whole games of moves."""
    async with fresh_database() as url, redis_keys(TEST_REDIS_URL) as prefix:
        settings = settings_for(tmp_path, url, prefix).model_copy(update={
            "hint_iterations": 40, "hint_seconds": 5.0,
            "rate_limits": {"moves": "100000/minute", "accounts": "1000/minute"}})
        application: FastAPI = create_app(settings)
        async with application.router.lifespan_context(application):
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                yield application, http


async def new_table(http: httpx.AsyncClient, who: Person, seats: list[dict[str, str]], **extra: Any) -> int:
    body = {"game": "iquazu", "players": len(seats), "seats": seats, **extra}
    created = await http.post("/api/tables", json=body, headers=who.headers)
    assert created.status_code == 201, created.text
    table_id: int = created.json()["id"]
    return table_id


async def state_of(http: httpx.AsyncClient, table_id: int, who: Person | None) -> dict[str, Any]:
    state: dict[str, Any] = (await http.get(f"/api/tables/{table_id}/state",
                                            headers=who.headers if who else {})).json()
    return state


async def my_turn(http: httpx.AsyncClient, table_id: int, who: Person) -> dict[str, Any]:
    """The seat's state once it is its decision (a bot may move first)."""
    for _ in range(2000):
        state = await state_of(http, table_id, who)
        if state["legal"]:
            return state
        await asyncio.sleep(0.01)
    raise AssertionError("never my turn")


async def two_people(http: httpx.AsyncClient, rated: bool | None) -> tuple[int, Person, Person]:
    ann, ben = await person(http, "ann"), await person(http, "ben")
    extra = {} if rated is None else {"rated": rated}
    table_id = await new_table(http, ann, [{"kind": "me"}, {"kind": "open"}], **extra)
    joined = await http.post(f"/api/tables/{table_id}/join", headers=ben.headers)
    assert joined.status_code == 200, joined.text
    return table_id, ann, ben


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == code, detail
    message: str = detail["message"]
    assert message
    return message


# -- rated or casual -----------------------------------------------------------------------------------
async def test_a_casual_game_changes_no_rating_and_a_rated_one_does(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    app, http = site
    casual, ann, ben = await two_people(http, rated=False)
    assert (await http.get(f"/api/tables/{casual}")).json()["rated"] is False
    listed = {t["id"]: t for t in (await http.get("/api/tables")).json()}
    assert listed[casual]["rated"] is False
    await play_http(http, casual, [ann, ben], Seen(), random.Random(3))
    rated, carl, dora = await two_people(http, rated=None)  # the default: rated
    assert (await http.get(f"/api/tables/{rated}")).json()["rated"] is True
    await play_http(http, rated, [carl, dora], Seen(), random.Random(4))
    db = app.state.services.db
    for _ in range(3000):  # the ratings are made just after the last move's commit
        async with db.session() as session:
            due = await session.scalar(select(func.count()).select_from(TableRow).where(TableRow.rating_due))
        if not due:
            break
        await asyncio.sleep(0.01)
    async with db.session() as session:
        changes = (await session.execute(select(RatingChangeRow.table_id, RatingChangeRow.player))).all()
        flags = dict((await session.execute(select(TableRow.id, TableRow.rating_due))).all())
    assert flags[casual] is False and flags[rated] is False  # both finished: the casual one's flag cleared too
    assert {table for table, _ in changes} == {rated}  # no rating row for the casual game
    board = {e["name"] for e in (await http.get("/api/leaderboards/iquazu")).json()}
    assert carl.name in board and dora.name in board
    assert ann.name not in board and ben.name not in board
    profile = (await http.get(f"/api/players/{ann.name}")).json()
    assert profile["games_played"] == 0 and profile["recent"] == []
    assert [g["table"] for g in profile["casual"]] == [casual]  # listed as casual
    assert [g["table"] for g in (await http.get(f"/api/players/{carl.name}")).json()["recent"]] == [rated]
    assert (await http.get(f"/api/players/{carl.name}")).json()["casual"] == []
    page = await http.get(f"/players/{ann.name}")
    assert "casual-games" in page.text and f"#{casual}" in page.text
    over = await http.get(f"/tables/{casual}")
    assert 'id="table-rated"' in over.text and "badge casual" in over.text
    assert "badge casual" not in (await http.get(f"/tables/{rated}")).text


async def test_rated_must_be_true_or_false(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    _, http = site
    ann = await person(http, "ann")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    for bad in ("yes", 1, None, "false"):
        answer = await http.post("/api/tables", json={**body, "rated": bad}, headers=ann.headers)
        assert answer.status_code == 422, (bad, answer.text)
        assert "rated" in answer.text
    assert not (await http.get("/api/tables")).json()  # nothing was made


async def test_quick_play_casual_makes_a_casual_table(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    _, http = site
    ann = await person(http, "ann")
    asked = await http.post("/api/quickplay", headers=ann.headers, json={
        "game": "iquazu", "players": 2, "pace": "live", "rated": False, "bots": {"level": "random", "after": 0}})
    assert asked.status_code == 200, asked.text
    assert asked.json()["state"] == "seated"
    table = (await http.get(f"/api/tables/{asked.json()['table_id']}")).json()
    assert table["rated"] is False
    ben = await person(http, "ben")
    asked = await http.post("/api/quickplay", headers=ben.headers, json={
        "game": "iquazu", "players": 2, "pace": "live", "rated": True, "bots": {"level": "random", "after": 0}})
    assert (await http.get(f"/api/tables/{asked.json()['table_id']}")).json()["rated"] is True
    bad = await http.post("/api/quickplay", headers=ben.headers, json={
        "game": "iquazu", "players": 2, "pace": "live", "rated": "no"})
    assert bad.status_code == 422


# -- hints ---------------------------------------------------------------------------------------------
def _live(rated: bool, *seats: Seat, status: str = "playing") -> Live:
    state = get_game("iquazu").new_state(2, 1, {})  # the rule reads the seats only
    return Live(1, "iquazu", len(seats), {}, 1, status, list(seats), state, rated=rated)


def test_who_may_ask_for_hints() -> None:
    """Casual: always; rated: only one person against bots (a seat once a person's counts as theirs)."""
    ann, ben = Seat(1, "ann", None), Seat(2, "ben", None)
    bot, left = Seat(None, None, "random"), Seat(2, "ben", "medium", gone="left")
    assert _live(False, ann, ben).hints_allowed() and _live(False, ann, bot).hints_allowed()
    assert _live(True, ann, bot).hints_allowed() and _live(True, bot, ann, bot).hints_allowed()
    assert not _live(True, ann, ben).hints_allowed()
    open_seat = Seat(None, None, None)  # an open rated table: not "against bots" yet, someone may still join
    assert not _live(True, ann, open_seat, bot, status="open").hints_allowed()
    assert not _live(False, ann, open_seat, status="open").hints_allowed()
    assert not _live(True, ann, left).hints_allowed()  # ben left: still a game between people
    assert not _live(True, ann, ben, bot).hints_allowed()
    assert not _live(True, ann).hints_allowed()  # no bot: not "against bots"


async def test_a_hint_in_a_casual_game_is_given_and_counted(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    _, http = site
    ann = await person(http, "ann")
    table_id = await new_table(http, ann, [{"kind": "me"}, {"kind": "bot", "bot": "random"}], rated=False)
    state = await my_turn(http, table_id, ann)
    answer = await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    legal = {item["action"]: item["notation"] for item in state["legal"]}
    assert hint["seq"] == state["seq"] and hint["seat"] == state["seat"] and hint["hints"] == 1
    assert 1 <= len(hint["moves"]) <= 3
    for move in hint["moves"]:
        assert legal[move["action"]] == move["notation"]
        assert move["chance"] is None or 0 <= move["chance"] <= 100
    if len(legal) > 1:
        assert hint["iterations"] >= 40 and hint["moves"][0]["chance"] is not None
    chances = [m["chance"] for m in hint["moves"] if m["chance"] is not None]
    visits = [m["visits"] for m in hint["moves"]]
    assert (visits == sorted(visits, reverse=True) and len(chances) == len(hint["moves"])) or len(legal) == 1
    # the count is the seat's, in the table's payload for everyone
    seats = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    assert state["seat"] == 0 and [s["hints"] for s in seats] == [1, 0]
    again = await http.post(f"/api/tables/{table_id}/hint", headers=ann.headers)  # no body: the position now
    assert again.status_code == 200 and again.json()["hints"] == 2
    # the game's record carries the counts
    await play_http(http, table_id, [ann], Seen(), random.Random(1))
    record = (await http.get(f"/api/tables/{table_id}/record")).json()
    assert record["hints"] == [2, 0]
    over = await http.post(f"/api/tables/{table_id}/hint", headers=ann.headers)
    refused(over, 409, "not-playing")


async def test_a_rated_game_against_bots_allows_hints(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    _, http = site
    ann = await person(http, "ann")
    table_id = await new_table(http, ann, [{"kind": "bot", "bot": "random"}, {"kind": "me"}])
    state = await my_turn(http, table_id, ann)
    asked = await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers)
    assert "unrated" in refused(asked, 409, "hint-unrates")  # the first hint of a rated game asks first
    answer = await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"], "unrated_ok": True},
                             headers=ann.headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["seat"] == 1 and answer.json()["hints"] == 1
    table = (await http.get(f"/api/tables/{table_id}")).json()
    assert table["rated"] is True and table["hints_allowed"] is True
    # the page's line of words in the reader's language (the browser fills in the move and the chances)
    for lang, words in (("en", "Best: %(move)s"), ("de", "Am besten: %(move)s"), ("nl", "Beste zet: %(move)s")):
        page = await http.get(f"/tables/{table_id}", headers={"Accept-Language": lang})
        assert words in page.text, lang
    # every refusal of a hint has its own words in the reader's language (review of issue 27)
    refusals = {"en": "The bots are busy with other hints", "de": "Die Bots rechnen gerade an anderen Tipps",
                "nl": "De bots zijn met andere tips bezig"}
    codes = ("not-your-turn", "stale", "not-playing", "not-seated", "no-hint", "busy", "rate-limited",
             "hint-unavailable", "hint-failed", "no-hints-program")
    for lang, words in refusals.items():
        page = (await http.get(f"/tables/{table_id}", headers={"Accept-Language": lang})).text
        assert words in page and all(f'"hint:{code}"' in page for code in codes), lang
        assert '"hint_unrates"' in page, lang  # the question before a rated game's first hint


async def test_hints_are_refused_with_words(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    _, http = site
    table_id, ann, ben = await two_people(http, rated=True)
    state = await state_of(http, table_id, ann)
    mover, other = (ann, ben) if state["legal"] else (ben, ann)
    words = refused(await http.post(f"/api/tables/{table_id}/hint", headers=mover.headers), 403, "no-hints")
    assert "rated" in words and "casual" in words
    assert (await http.post(f"/api/tables/{table_id}/hint")).status_code == 401
    # a casual game between people: only the seat to act, only its person, only the position it sees
    table_id, ann, ben = await two_people(http, rated=False)
    state = await state_of(http, table_id, ann)
    mover, other = (ann, ben) if state["legal"] else (ben, ann)
    refused(await http.post(f"/api/tables/{table_id}/hint", headers=other.headers), 409, "not-your-turn")
    watcher = await person(http, "cy")
    refused(await http.post(f"/api/tables/{table_id}/hint", headers=watcher.headers), 403, "not-seated")
    refused(await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"] + 5}, headers=mover.headers),
            409, "stale")
    for bad in ({"seq": "0"}, {"seq": -1}, {"seq": 0, "seat": 1}, {"seat": 0}, [1]):
        answer = await http.post(f"/api/tables/{table_id}/hint", json=bad, headers=mover.headers)
        assert answer.status_code == 422, (bad, answer.text)
    refused(await http.post("/api/tables/999999/hint", headers=mover.headers), 404, "no-table")
    seats = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    assert [s["hints"] for s in seats] == [0, 0]  # nothing refused was counted
    given = await http.post(f"/api/tables/{table_id}/hint", headers=mover.headers)
    assert given.status_code == 200 and given.json()["hints"] == 1


# -- review of issue 27's hints: stale answers, the cap, the workers --------------------------------------


async def casual_turn(http: httpx.AsyncClient, name: str) -> tuple[int, Person, dict[str, Any]]:
    who = await person(http, name)
    table_id = await new_table(http, who, [{"kind": "me"}, {"kind": "bot", "bot": "random"}], rated=False)
    return table_id, who, await my_turn(http, table_id, who)


async def seats_hints(http: httpx.AsyncClient, table_id: int) -> list[int]:
    return [s["hints"] for s in (await http.get(f"/api/tables/{table_id}")).json()["seats"]]


async def test_a_hint_for_a_position_that_changed_meanwhile_is_refused_and_not_counted(
    site: tuple[FastAPI, httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, http = site
    hints = app.state.services.hints
    table_id, ann, state = await casual_turn(http, "ann")
    search = hints.run

    async def moved_meanwhile(*args: Any) -> dict[str, Any]:  # ann's own move lands while the search runs
        found: dict[str, Any] = await search(*args)
        legal = state["legal"][0]["action"]
        played = await http.post(f"/api/tables/{table_id}/moves", json={"seq": state["seq"], "action": legal},
                                 headers=ann.headers)
        assert played.status_code == 200, played.text
        return found

    monkeypatch.setattr(hints, "run", moved_meanwhile)
    refused(await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers),
            409, "stale")
    assert await seats_hints(http, table_id) == [0, 0]


async def test_a_hint_stands_when_only_seq_moved(
    site: tuple[FastAPI, httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another seat's hidden choice moves seq on but not this seat's view or legal actions: the hint stands
    and is answered for the new seq (the page accepts it for that seq)."""
    app, http = site
    hints = app.state.services.hints
    table_id, ann, state = await casual_turn(http, "ann")
    search = hints.run

    async def hidden_choice_meanwhile(*args: Any) -> dict[str, Any]:
        found: dict[str, Any] = await search(*args)
        tables = app.state.services.tables
        read = tables.read

        async def moved_on(table: int, refresh: bool = False) -> Any:  # the seat sees nothing of it
            live = copy.copy(await read(table, refresh))
            live.seq += 1
            return live

        monkeypatch.setattr(tables, "read", moved_on)
        return found

    monkeypatch.setattr(hints, "run", hidden_choice_meanwhile)
    answer = await http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["seq"] == state["seq"] + 1 and answer.json()["hints"] == 1


async def test_hints_are_capped_and_held_until_the_worker_ends(
    site: tuple[FastAPI, httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, http = site
    hints = app.state.services.hints
    assert hints.slots == 1  # the test site has one bot worker: half of it, at least 1
    first, ann, _ = await casual_turn(http, "ann")
    second, ben, _ = await casual_turn(http, "ben")
    search, release = hints.run, asyncio.Event()

    async def slow(*args: Any) -> dict[str, Any]:
        await release.wait()
        found: dict[str, Any] = await search(*args)
        return found

    monkeypatch.setattr(hints, "run", slow)
    asking = asyncio.create_task(http.post(f"/api/tables/{first}/hint", headers=ann.headers))
    for _ in range(200):
        if hints.running:
            break
        await asyncio.sleep(0.01)
    busy = refused(await http.post(f"/api/tables/{second}/hint", headers=ben.headers), 503, "busy")
    assert "again" in busy
    asking.cancel()  # the client hangs up: the worker's job still runs, the seat's key stays taken
    await asyncio.gather(asking, return_exceptions=True)
    assert (first, 0) in hints.running
    refused(await http.post(f"/api/tables/{first}/hint", headers=ann.headers), 409, "hint-running")
    release.set()
    for _ in range(500):
        if not hints.running:
            break
        await asyncio.sleep(0.01)
    assert not hints.running
    assert (await http.post(f"/api/tables/{second}/hint", headers=ben.headers)).status_code == 200


async def test_no_hint_search_in_a_process_without_bot_workers(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    app, http = site
    services = app.state.services
    table_id, _, _ = await casual_turn(http, "ann")
    web_only = HintService(services.db, services.tables, None, 1.0, 40)
    live = await services.tables.read(table_id)
    seated = live.seats[0].account_id
    assert seated is not None
    with pytest.raises(Unavailable) as refusal:
        await web_only.ask(Account(seated, "ann", None), table_id)
    assert refusal.value.code == "hint-unavailable" and refusal.value.status == 503
    assert await seats_hints(http, table_id) == [0, 0]


async def test_a_crashed_worker_answers_503(
    site: tuple[FastAPI, httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app, http = site
    hints = app.state.services.hints
    table_id, ann, _ = await casual_turn(http, "ann")

    async def broken(*args: Any) -> Any:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(hints.pool, "run", broken)
    refused(await http.post(f"/api/tables/{table_id}/hint", headers=ann.headers), 503, "hint-failed")
    assert "hint" in caplog.text
    assert await seats_hints(http, table_id) == [0, 0]


async def test_a_rated_game_with_a_hint_changes_no_rating(site: tuple[FastAPI, httpx.AsyncClient]) -> None:
    """Neither the person's rating nor the bot level's moves once a seat used a hint; a program account gets
    no hint in a rated game (it would use the server's search as its brain)."""
    app, http = site
    ann = await person(http, "ann")
    table_id = await new_table(http, ann, [{"kind": "bot", "bot": "random"}, {"kind": "me"}])
    state = await my_turn(http, table_id, ann)
    given = await http.post(f"/api/tables/{table_id}/hint", json={"unrated_ok": True}, headers=ann.headers)
    assert given.status_code == 200, given.text
    again = await http.post(f"/api/tables/{table_id}/hint", headers=ann.headers)  # already unrated: no question
    assert again.status_code == 200 and again.json()["seq"] == state["seq"], again.text
    await play_http(http, table_id, [ann], Seen(), random.Random(2))
    db = app.state.services.db
    for _ in range(3000):
        async with db.session() as session:
            due = await session.scalar(select(TableRow.rating_due).where(TableRow.id == table_id))
        if not due:
            break
        await asyncio.sleep(0.01)
    async with db.session() as session:
        changes = await session.scalar(select(func.count()).select_from(RatingChangeRow)
                                       .where(RatingChangeRow.table_id == table_id))
    assert not due and changes == 0
    over = await http.get(f"/tables/{table_id}", headers=ann.headers)
    assert "Hints were used: this rated game changed no rating." in over.text, over.text[-3000:]


async def test_a_program_gets_no_hint_in_a_rated_game(
    site: tuple[FastAPI, httpx.AsyncClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, http = site
    hints = app.state.services.hints
    ann = await person(http, "ann")
    table_id = await new_table(http, ann, [{"kind": "bot", "bot": "random"}, {"kind": "me"}])
    await my_turn(http, table_id, ann)
    live = await app.state.services.tables.read(table_id)
    seated = live.seats[1].account_id
    assert seated is not None
    with pytest.raises(Forbidden) as refusal:
        await hints.ask(Account(seated, "ann", None, program=True), table_id, unrated_ok=True)
    assert refusal.value.code == "no-hints-program" and "program" in refusal.value.message
