"""Quick play (issue 28): the matcher's plan (pure), and the queue through the API: asking, waiting,
seeing who waits, cancelling, bots after the chosen wait, a restart, and bad requests refused."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from spieltafel.server.tables.quickplay import WIDEN, WIDEN_EVERY_S, WINDOW, Request, plan

from ..clocked import FakeClock, server
from ..helpers import PASSWORD, Person, person

pytestmark = pytest.mark.anyio
NOW = 1_000_000


def ask(id: int, rating: float = 25.0, players: int | None = 2, waited_s: int = 0, pace: str = "live",
        rated: bool = True, bot: str | None = None, bot_after_s: int | None = None) -> Request:
    return Request(id, 100 + id, players, pace, rated, rating, NOW - waited_s * 1000 - id, bot, bot_after_s)


# -- the plan ------------------------------------------------------------------------------------------
def test_two_people_asking_for_the_same_are_matched() -> None:
    made = plan([ask(1), ask(2)], 2, 4, NOW)
    assert made is not None and made.players == 2 and {r.id for r in made.requests} == {1, 2} and made.bots == 0


def test_one_person_alone_waits() -> None:
    assert plan([ask(1)], 2, 4, NOW) is None


def test_different_pace_count_or_rated_are_not_matched() -> None:
    assert plan([ask(1), ask(2, pace="turn")], 2, 4, NOW) is None
    assert plan([ask(1), ask(2, rated=False)], 2, 4, NOW) is None
    assert plan([ask(1, players=2), ask(2, players=3)], 2, 4, NOW) is None


def test_any_count_joins_a_fixed_count_and_takes_the_largest_table() -> None:
    made = plan([ask(1, players=None), ask(2, players=3), ask(3, players=None)], 2, 4, NOW)
    assert made is not None and made.players == 3 and len(made.requests) == 3
    made = plan([ask(n, players=None) for n in range(1, 6)], 2, 4, NOW)
    assert made is not None and made.players == 4


def test_close_ratings_are_preferred() -> None:
    made = plan([ask(1, 25.0), ask(2, 25.0 + WINDOW * 0.9), ask(3, 25.0 + WINDOW * 0.2)], 2, 4, NOW)
    assert made is not None and {r.id for r in made.requests} == {1, 3}


def test_the_window_widens_while_people_wait() -> None:
    far = WINDOW + 2.5 * WIDEN  # within reach after three widenings
    assert plan([ask(1, 25.0), ask(2, 25.0 + far)], 2, 4, NOW) is None
    twice, thrice = WIDEN_EVERY_S * 2, WIDEN_EVERY_S * 3
    assert plan([ask(1, 25.0, waited_s=twice), ask(2, 25.0 + far, waited_s=twice)], 2, 4, NOW) is None
    assert plan([ask(1, 25.0, waited_s=thrice), ask(2, 25.0 + far, waited_s=thrice)], 2, 4, NOW) is not None
    # both must accept: a newcomer's narrow window keeps them apart
    assert plan([ask(1, 25.0, waited_s=60), ask(2, 25.0 + far)], 2, 4, NOW) is None


def test_the_longest_waiting_person_is_seated_first() -> None:
    made = plan([ask(1, waited_s=1), ask(2, waited_s=50), ask(3, waited_s=5)], 2, 4, NOW)
    assert made is not None and made.requests[0].id == 2


def test_bots_fill_the_seats_left_once_the_wait_is_over() -> None:
    alone = ask(1, players=3, bot="easy", bot_after_s=30, waited_s=10)
    assert plan([alone], 2, 4, NOW) is None
    late = ask(1, players=3, bot="easy", bot_after_s=30, waited_s=31)
    made = plan([late], 2, 4, NOW)
    assert made is not None and made.players == 3 and made.bots == 2 and made.bot == "easy"
    made = plan([late, ask(2, players=3)], 2, 4, NOW)
    assert made is not None and made.bots == 1 and len(made.requests) == 2


def test_any_count_with_bots_takes_the_smallest_table() -> None:
    made = plan([ask(1, players=None, bot="medium", bot_after_s=0)], 3, 5, NOW)
    assert made is not None and made.players == 3 and made.bots == 2


# -- through the API ---------------------------------------------------------------------------------
async def _ask(http: httpx.AsyncClient, who: Person, **body: object) -> httpx.Response:
    return await http.post("/api/quickplay", json={"game": "iquazu", "players": 2, "pace": "live", **body},
                           headers=who.headers)


async def test_two_people_are_seated_together_and_see_each_other_waiting(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        ann, ben = await person(http, "ann"), await person(http, "ben")
        first = await _ask(http, ann)
        assert first.status_code == 200, first.text
        assert first.json()["state"] == "waiting" and [w["name"] for w in first.json()["waiting"]] == [ann.name]
        clock.advance(7000)
        polled = (await http.get("/api/quickplay", headers=ann.headers)).json()
        assert polled["waited_s"] == 7 and polled["waiting"][0]["waited_s"] == 7
        second = (await _ask(http, ben)).json()
        assert second["state"] == "seated"
        mine = (await http.get("/api/quickplay", headers=ann.headers)).json()
        assert mine == {**second, "asked": mine["asked"]} and mine["table_id"] == second["table_id"]
        table = (await http.get(f"/api/tables/{second['table_id']}")).json()
        assert table["status"] == "playing" and table["players"] == 2
        assert sorted(s["name"] for s in table["seats"]) == sorted([ann.name, ben.name])


async def test_cancel_leaves_the_queue(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        ann, ben = await person(http, "ann"), await person(http, "ben")
        await _ask(http, ann)
        assert (await http.delete("/api/quickplay", headers=ann.headers)).status_code == 204
        assert (await http.get("/api/quickplay", headers=ann.headers)).json()["detail"]["code"] == "not-waiting"
        assert (await _ask(http, ben)).json()["state"] == "waiting"  # nobody to play with any more
        assert (await http.delete("/api/quickplay", headers=ann.headers)).status_code == 404


async def test_cancel_after_being_seated_is_refused(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        ann, ben = await person(http, "ann"), await person(http, "ben")
        await _ask(http, ann)
        seated = (await _ask(http, ben)).json()
        refused = await http.delete("/api/quickplay", headers=ann.headers)
        assert refused.status_code == 409 and refused.json()["detail"]["code"] == "seated"
        assert str(seated["table_id"]) in refused.json()["detail"]["message"]


async def test_bots_take_the_seats_left_after_the_chosen_wait(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        ann = await person(http, "ann")
        waiting = await _ask(http, ann, players=3, bots={"level": "random", "after": 30})
        assert waiting.json()["state"] == "waiting"
        clock.advance(29_000)
        assert (await http.get("/api/quickplay", headers=ann.headers)).json()["state"] == "waiting"
        clock.advance(1_000)
        seated = (await http.get("/api/quickplay", headers=ann.headers)).json()
        assert seated["state"] == "seated"
        table = (await http.get(f"/api/tables/{seated['table_id']}")).json()
        assert table["players"] == 3 and sorted(s.get("bot") or "" for s in table["seats"]) == ["", "random", "random"]


async def test_a_deleted_account_waits_no_more(tmp_path: Path, db_url: str | None) -> None:
    async with server(tmp_path, FakeClock(), url=db_url) as (_, http):
        ann, ben = await person(http, "ann"), await person(http, "ben")
        await _ask(http, ann)
        gone = await http.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=ann.headers)
        assert gone.status_code == 204, gone.text
        alone = (await _ask(http, ben)).json()
        assert alone["state"] == "waiting" and [w["name"] for w in alone["waiting"]] == [ben.name]


async def test_the_queue_survives_a_restart(tmp_path: Path, db_url: str | None) -> None:
    clock = FakeClock()
    async with server(tmp_path, clock, url=db_url) as (_, http):
        ann, ben = await person(http, "ann"), await person(http, "ben")
        await _ask(http, ann, pace="turn")
    async with server(tmp_path, clock, url=db_url) as (_, http):
        assert (await http.get("/api/quickplay", headers=ann.headers)).json()["state"] == "waiting"
        assert (await _ask(http, ben, pace="turn")).json()["state"] == "seated"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"game": "chess"}, 422, "bad-game"),
    ({"players": 7}, 422, "bad-players"),
    ({"bots": {"level": "genius", "after": 10}}, 422, "bad-bot"),
    ({"bots": {"level": "easy", "after": 601}}, 422, "bad-bot"),
    ({"pace": "slow"}, 422, None),
])
async def test_bad_requests_are_refused_and_change_nothing(
    tmp_path: Path, body: dict[str, object], status: int, code: str | None
) -> None:
    async with server(tmp_path, FakeClock()) as (_, http):
        ann = await person(http, "ann")
        refused = await _ask(http, ann, **body)
        assert refused.status_code == status, refused.text
        if code:
            assert refused.json()["detail"]["code"] == code
        assert (await http.get("/api/quickplay", headers=ann.headers)).status_code == 404


async def test_quick_play_needs_an_account(tmp_path: Path) -> None:
    async with server(tmp_path, FakeClock()) as (_, http):
        assert (await http.post("/api/quickplay", json={"game": "iquazu"})).status_code == 401
