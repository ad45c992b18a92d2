"""Time limits, the sweeper and leavers, with a clock the tests move (no test sleeps for time to pass):
live clocks and per-move limits, expiry, a bot taking over, the rule "out", leaving, reconnecting, a
restart with a deadline in the past handled exactly once, and the list of games waiting for you."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltafel.server.tables.clocks import DAY_MS, places, table_result

from ..clocked import START, FakeClock, first_move, server, state, two_people
from ..helpers import person

pytestmark = pytest.mark.anyio


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


