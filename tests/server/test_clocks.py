"""Time limits, the sweeper and leavers, with a clock the tests move (no test sleeps for time to pass):
live clocks and per-move limits, expiry, a bot taking over, the rule "out", leaving, reconnecting, a
restart with a deadline in the past handled exactly once, and the list of games waiting for you."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord, replay
from spieltafel.server.app import create_app
from spieltafel.server.clocks import DAY_MS, places, table_result

from .backing import fresh_database
from .conftest import settings_for
from .helpers import Person, Seen, person, play_http

pytestmark = pytest.mark.anyio
START = 1_800_000_000_000


class FakeClock:
    """Epoch milliseconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
async def db_url() -> AsyncIterator[str | None]:
    """A fresh PostgreSQL database when the suite runs on one (SPIELTAFEL_TEST_DATABASE_URL), else None."""
    async with fresh_database() as url:
        yield url


@asynccontextmanager
async def server(
    folder: Path, clock: FakeClock, sweep_seconds: float = 0.0, url: str | None = None
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app on ``folder`` or ``url`` (the database survives between calls: a restart), with the test's clock."""
    settings = settings_for(folder, url)
    settings.sweep_seconds = sweep_seconds
    application = create_app(settings, now_ms=clock)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield application, http


async def new_table(http: httpx.AsyncClient, host: Person, game: str, seats: list[dict[str, str]], **extra: Any) -> int:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    answer = await http.post("/api/tables", json=body, headers=host.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


async def two_people(http: httpx.AsyncClient, game: str = "haleakala", **extra: Any) -> tuple[int, Person, Person]:
    alice, bob = await person(http, "a"), await person(http, "b")
    table_id = await new_table(http, alice, game, [{"kind": "me"}, {"kind": "open"}], **extra)
    assert (await http.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
    return table_id, alice, bob


async def state(http: httpx.AsyncClient, table_id: int, who: Person | None = None) -> dict[str, Any]:
    answer = await http.get(f"/api/tables/{table_id}/state", headers=who.headers if who else None)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


async def first_move(http: httpx.AsyncClient, table_id: int, who: Person) -> httpx.Response:
    current = await state(http, table_id, who)
    action = current["legal"][0]["action"]
    return await http.post(f"/api/tables/{table_id}/moves", json={"seq": current["seq"], "action": action},
                           headers=who.headers)


async def until(check: Any, what: str, polls: int = 3000) -> Any:
    """Wait for a bot or the server's sweeper (real work in other tasks), not for time to pass."""
    for _ in range(polls):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def test_places_rank_the_seats_that_are_out_last() -> None:
    assert places([10, 30, 20], [1], []) == [3, 1, 2]
    assert places([10, 30, 20], [1], [1]) == [2, 3, 1]          # the engine's winner is out: the best left wins
    assert places([10, 30, 30], [1, 2], [0]) == [3, 1, 1]
    assert places([5, 5], [0, 1], [0, 1]) == [1, 1]             # everybody out: all share the (last) place
    assert table_result([10, 30], [1], [1]) == {"scores": [10, 30], "winners": [0], "out": [1], "places": [1, 2]}


async def test_a_live_clock_runs_for_the_seat_to_act_and_adds_the_increment(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        table_id, alice, bob = await two_people(http, clock={"pace": "live", "minutes": 1, "increment": 5})
        table = (await http.get(f"/api/tables/{table_id}")).json()
        assert table["clock"] == {"pace": "live", "minutes": 1, "increment": 5}
        assert table["leaver"] == {"rule": "bot", "bot": "medium"}
        begun = await state(http, table_id, alice)
        assert begun["to_act"] == [0]
        assert begun["clocks"]["seats"] == [
            {"seat": 0, "remaining_ms": 60_000, "running": True},
            {"seat": 1, "remaining_ms": 60_000, "running": False},
        ]
        clock.advance(10_000)
        assert (await state(http, table_id))["clocks"]["seats"][0]["remaining_ms"] == 50_000
        assert (await first_move(http, table_id, alice)).status_code == 200
        after = await state(http, table_id, bob)
        mine = after["clocks"]["seats"][0]
        assert mine["remaining_ms"] == 55_000 and mine["running"] == (0 in after["to_act"])
        if 1 in after["to_act"]:
            clock.advance(20_000)
            theirs = (await state(http, table_id))["clocks"]["seats"][1]
            assert theirs == {"seat": 1, "remaining_ms": 40_000, "running": True}


async def test_time_runs_out_and_a_bot_of_the_chosen_level_takes_the_seat(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (app, http):
        table_id, alice, bob = await two_people(
            http, clock={"pace": "live", "minutes": 1}, leaver={"rule": "bot", "bot": "random"}
        )
        tables = app.state.services.tables
        clock.advance(59_999)
        assert await tables.sweep() == 0
        clock.advance(1)
        assert await tables.sweep() == 1
        assert await tables.sweep() == 0                         # handled once
        seat = (await http.get(f"/api/tables/{table_id}")).json()["seats"][0]
        assert seat == {"seat": 0, "kind": "bot", "name": alice.name, "bot": "random", "program": False, "gone": "time"}
        moved = await until(lambda: _seq_above(http, table_id, 0), "the bot moves for alice")
        assert moved
        seq = (await state(http, table_id))["seq"]
        url = f"/api/tables/{table_id}/moves"
        refused = await http.post(url, json={"seq": seq, "action": 0}, headers=alice.headers)
        assert refused.status_code == 403 and refused.json()["detail"]["code"] == "left"
        assert (await state(http, table_id, alice))["seat"] is None    # she watches now
        assert (await state(http, table_id, bob))["seat"] == 1


async def _seq_above(http: httpx.AsyncClient, table_id: int, seq: int) -> bool:
    return bool((await state(http, table_id))["seq"] > seq)


async def test_a_move_after_the_deadline_is_refused_even_before_the_sweep(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (app, http):
        table_id, alice, _ = await two_people(http, clock={"pace": "turn", "per_move": "12h"})
        clock.advance(12 * 3600 * 1000)
        late = await first_move(http, table_id, alice)
        assert late.status_code == 409 and late.json()["detail"]["code"] == "time-out"
        assert (await http.get(f"/api/tables/{table_id}")).json()["seats"][0]["gone"] == "time"
        assert await app.state.services.tables.sweep() == 0


async def test_turn_based_tables_give_each_move_its_limit(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        table_id, alice, bob = await two_people(http, clock={"pace": "turn", "per_move": "3d"})
        assert (await http.get(f"/api/tables/{table_id}")).json()["clock"] == {"pace": "turn", "per_move": "3d"}
        clock.advance(DAY_MS)
        seats = (await state(http, table_id))["clocks"]["seats"]
        assert seats == [{"seat": 0, "remaining_ms": 2 * DAY_MS, "running": True},
                         {"seat": 1, "remaining_ms": None, "running": False}]
        waiting = (await http.get("/api/waiting", headers=alice.headers)).json()
        assert [(t["id"], t["deadline_ms"]) for t in waiting] == [(table_id, START + 3 * DAY_MS)]
        assert (await http.get("/api/waiting", headers=bob.headers)).json() == []
        assert (await http.get("/api/waiting")).status_code == 401
        assert (await first_move(http, table_id, alice)).status_code == 200
        after = await state(http, table_id)
        for item in after["clocks"]["seats"]:
            if item["seat"] in after["to_act"]:
                assert item["remaining_ms"] == 3 * DAY_MS             # a fresh limit for the next move


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"clock": {"pace": "turn", "per_move": "2d"}}, "per_move"),
        ({"clock": {"pace": "live", "minutes": 0}}, "minutes"),
        ({"clock": {"pace": "live", "minutes": 5, "increment": 61}}, "increment"),
        ({"clock": {"pace": "blitz"}}, "pace"),
        ({"leaver": {"rule": "bot", "bot": "godlike"}}, "expert"),
        ({"leaver": {"rule": "vanish"}}, "rule"),
    ],
)
async def test_bad_time_limits_and_leaver_rules_are_refused(
    client: httpx.AsyncClient, extra: dict[str, Any], words: str
) -> None:
    alice = await person(client)
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], **extra}
    answer = await client.post("/api/tables", json=body, headers=alice.headers)
    assert answer.status_code == 422 and words in answer.json()["detail"]["message"], answer.text
    assert (await client.get("/api/tables")).json() == []


async def test_a_player_who_leaves_under_the_rule_out_is_ranked_last_and_cannot_come_back(
    tmp_path: Path, db_url: str | None
) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        table_id, alice, bob = await two_people(http, leaver={"rule": "out"})
        assert (await http.post(f"/api/tables/{table_id}/leave", headers=alice.headers)).status_code == 204
        again = await http.post(f"/api/tables/{table_id}/leave", headers=alice.headers)
        assert again.status_code == 409
        back = await http.post(f"/api/tables/{table_id}/join", headers=alice.headers)
        assert back.status_code == 409
        seat = (await http.get(f"/api/tables/{table_id}")).json()["seats"][0]
        assert seat["gone"] == "left" and seat["kind"] == "bot" and seat["name"] == alice.name
        final = await play_http(http, table_id, [bob], Seen(), random.Random(3), pause=lambda: asyncio.sleep(0.01))
        assert final["result"]["out"] == [0] and final["result"]["places"] == [2, 1]
        assert final["result"]["winners"] == [1]
        record = GameRecord.model_validate((await http.get(f"/api/tables/{table_id}/record")).json())
        assert record.seats == [f"{alice.name} (left, out)", bob.name]
        replay(record)                                           # the record's result is the engine's


async def test_a_leaver_under_the_rule_bot_is_marked_in_the_record(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        table_id, alice, bob = await two_people(http, leaver={"rule": "bot", "bot": "greedy"})
        assert (await http.post(f"/api/tables/{table_id}/leave", headers=bob.headers)).status_code == 204
        final = await play_http(http, table_id, [alice], Seen(), random.Random(4), pause=lambda: asyncio.sleep(0.01))
        assert final["result"]["out"] == []
        record = GameRecord.model_validate((await http.get(f"/api/tables/{table_id}/record")).json())
        assert record.seats == [alice.name, f"{bob.name} (left, bot:greedy)"]


def test_a_lost_connection_may_come_back(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(create_app(settings_for(tmp_path), now_ms=clock)) as http:
        people = []
        for prefix in ("a", "b"):
            name = f"{prefix}{random.randrange(10**9)}"
            http.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
            http.post("/api/session", json={"name": name, "password": "correct horse battery"})
            people.append({"Authorization": f"Bearer {http.post('/api/tokens').json()['token']}"})
            http.cookies.clear()
        body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}],
                "clock": {"pace": "live", "minutes": 5}}
        table_id = http.post("/api/tables", json=body, headers=people[0]).json()["id"]
        http.post(f"/api/tables/{table_id}/join", headers=people[1])
        with http.websocket_connect(f"/ws/tables/{table_id}", headers=people[0]) as socket:
            assert socket.receive_json()["seat"] == 0
        clock.advance(60_000)                                     # away for a minute: the clock ran on
        with http.websocket_connect(f"/ws/tables/{table_id}", headers=people[0]) as socket:
            again = socket.receive_json()
            assert again["seat"] == 0 and again["legal"]
            assert again["clocks"]["seats"][0]["remaining_ms"] == 240_000
            socket.send_json({"type": "move", "seq": again["seq"], "action": again["legal"][0]["action"]})
            assert socket.receive_json()["seq"] == 1
        assert http.get(f"/api/tables/{table_id}").json()["seats"][0]["gone"] is None


async def test_a_restart_handles_a_deadline_missed_while_down_exactly_once(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        table_id, _, _ = await two_people(
            http, clock={"pace": "turn", "per_move": "1d"}, leaver={"rule": "bot", "bot": "random"}
        )
    clock.advance(DAY_MS + 1)                                     # the server is down when the day ends
    async with server(tmp_path, clock, sweep_seconds=0.05, url=db_url) as (app, http):   # it sweeps on its own
        async def replaced() -> bool:
            return (await http.get(f"/api/tables/{table_id}")).json()["seats"][0]["gone"] == "time"

        await until(replaced, "the restarted server handles the missed deadline")
        await until(lambda: _seq_above(http, table_id, 0), "the bot plays alice's seat")
        assert await app.state.services.tables.sweep() == 0
    async with server(tmp_path, clock, url=db_url) as (app, http), server(tmp_path, clock, url=db_url) as (other, _):
        sweeps = await asyncio.gather(app.state.services.tables.sweep(), other.state.services.tables.sweep())
        assert sweeps == [0, 0]
        seats = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
        assert [s["gone"] for s in seats] == ["time", None] and seats[0]["bot"] == "random"


async def test_two_processes_sweeping_at_once_handle_a_deadline_once(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (app, http), server(tmp_path, clock, url=db_url) as (other, _):
        table_id, _, _ = await two_people(http, clock={"pace": "turn", "per_move": "12h"})
        clock.advance(13 * 3600 * 1000)
        sweeps = await asyncio.gather(app.state.services.tables.sweep(), other.state.services.tables.sweep())
        assert sorted(sweeps) == [0, 1]
        assert (await http.get(f"/api/tables/{table_id}")).json()["seats"][0]["gone"] == "time"


async def test_a_move_through_one_process_after_leaving_through_another_is_refused(
    tmp_path: Path, db_url: str | None
) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http), server(tmp_path, clock, url=db_url) as (_, elsewhere):
        table_id, alice, _ = await two_people(http, clock={"pace": "live", "minutes": 5})
        current = await state(http, table_id, alice)                 # this process has the table cached
        assert (await elsewhere.post(f"/api/tables/{table_id}/leave", headers=alice.headers)).status_code == 204
        move = {"seq": current["seq"], "action": current["legal"][0]["action"]}
        late = await http.post(f"/api/tables/{table_id}/moves", json=move, headers=alice.headers)
        assert late.status_code == 403 and late.json()["detail"]["code"] == "left", late.text
        assert (await state(http, table_id))["seq"] == current["seq"]
