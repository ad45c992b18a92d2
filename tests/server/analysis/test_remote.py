"""Hints and analyses through Redis (``analysis.remote``), in one process: the test app (one bot worker, on
Redis) is the searcher, and a :class:`HintService` / :class:`AnalysisService` without a bot pool beside it
plays the server process with ``bot_workers`` 0. Needs Redis (skipped without it, failed under CI=true);
the whole path with real ``spieltafel serve`` and ``spieltafel worker`` processes is in ``test_scale``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis import remote
from spieltafel.server.analysis.hints import HintService
from spieltafel.server.analysis.remote import HintJob, SearchQueue, now_ms
from spieltafel.server.analysis.service import AnalysisService
from spieltafel.server.app import create_app
from spieltafel.server.errors import Unavailable
from spieltafel.server.services import Services

from ..backing import fresh_database, reachable_redis, redis_keys
from ..conftest import settings_for
from ..helpers import Seen, person, play_http

pytestmark = pytest.mark.anyio


class Searching:
    """The searcher app, its HTTP client, and the Redis URL and prefix it works on."""

    def __init__(self, app: FastAPI, http: httpx.AsyncClient, url: str, prefix: str) -> None:
        self.app, self.http, self.url, self.prefix = app, http, url, prefix

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services

    def queue(self, prefix: str | None = None, consumer: str = "web") -> SearchQueue:
        return SearchQueue(self.url, prefix or self.prefix, consumer, 15.0)

    def hints(self, queue: SearchQueue, site_slots: int | None = None) -> HintService:
        """A hint service as in a server process without bot workers."""
        return HintService(self.services.db, self.services.tables, None, 5.0, 40, remote=queue, site_slots=site_slots)


@pytest.fixture
async def searching(tmp_path: Path) -> AsyncIterator[Searching]:
    url = await reachable_redis()
    async with fresh_database() as database, redis_keys(url) as prefix:
        settings = settings_for(tmp_path, database, prefix).model_copy(update={
            "redis_url": url, "hint_iterations": 40, "hint_seconds": 5.0, "analysis_iterations": 20,
            "rate_limits": {"moves": "100000/minute", "accounts": "1000/minute"}})
        application = create_app(settings)
        async with application.router.lifespan_context(application):
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                found = Searching(application, http, url, prefix)
                for _ in range(500):  # the app's searcher announces itself at its start
                    probe = found.queue()
                    ready = await probe.capacity()
                    await probe.close()
                    if ready:
                        break
                    await asyncio.sleep(0.01)
                yield found


async def casual_turn(searching: Searching) -> tuple[int, Account, dict[str, Any]]:
    """A casual table of ann against a random bot, at ann's turn: its id, ann's account and her state."""
    http = searching.http
    ann = await person(http, "ann")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
            "rated": False}
    created = await http.post("/api/tables", json=body, headers=ann.headers)
    assert created.status_code == 201, created.text
    table_id: int = created.json()["id"]
    for _ in range(2000):
        state: dict[str, Any] = (await http.get(f"/api/tables/{table_id}/state", headers=ann.headers)).json()
        if state["legal"]:
            seated = (await searching.services.tables.read(table_id)).seats[0].account_id
            assert seated is not None
            return table_id, Account(seated, ann.name, None), state
        await asyncio.sleep(0.01)
    raise AssertionError("never ann's turn")


async def test_a_hint_from_the_searcher_is_given_and_counted(searching: Searching) -> None:
    table_id, ann, state = await casual_turn(searching)
    queue = searching.queue()
    try:
        answer = await searching.hints(queue).ask(ann, table_id, state["seq"])
    finally:
        await queue.close()
    assert answer["table_id"] == table_id and answer["seat"] == 0 and answer["hints"] == 1
    assert {m["action"] for m in answer["moves"]} <= {entry["action"] for entry in state["legal"]}
    seats = (await searching.http.get(f"/api/tables/{table_id}")).json()["seats"]
    assert [seat["hints"] for seat in seats] == [1, 0]


async def test_no_searcher_on_the_prefix_means_hint_unavailable(searching: Searching) -> None:
    table_id, ann, state = await casual_turn(searching)
    async with redis_keys(searching.url) as elsewhere:
        queue = searching.queue(elsewhere)
        try:
            with pytest.raises(Unavailable) as refusal:
                await searching.hints(queue).ask(ann, table_id, state["seq"])
        finally:
            await queue.close()
    assert refusal.value.code == "hint-unavailable" and refusal.value.status == 503


async def test_the_searcher_answers_stale_for_a_position_that_moved_on(searching: Searching) -> None:
    """The job names a ``seq`` the table has left: the searcher reads the table itself and does not search."""
    table_id, _, state = await casual_turn(searching)
    queue = searching.queue()
    try:
        job = HintJob(queue.new_request(), table_id, state["seq"] - 1, 0, 40, 5.0, now_ms() + 20_000)
        reply = await queue.ask_hint(job)
        assert reply is not None and reply["error"] == "stale"
        other_seat = HintJob(queue.new_request(), table_id, state["seq"], 1, 40, 5.0, now_ms() + 20_000)
        reply = await queue.ask_hint(other_seat)  # not that seat's decision: nothing searched for it
        assert reply is not None and reply["error"] == "stale"
    finally:
        await queue.close()


async def test_one_hint_per_seat_and_the_sites_limit_across_processes(searching: Searching) -> None:
    """The places are in Redis: a second hint for the seat is refused in any process, and the hints in
    flight on the site are capped (``busy``); a place comes back when its hint ends, or lapses."""
    first, second = searching.queue(consumer="web-1"), searching.queue(consumer="web-2")
    try:
        later = now_ms() + 10_000
        assert await first.reserve(7, 0, 1, "a" * 32, later) == 1
        assert await second.reserve(7, 0, 5, "b" * 32, later) == -1  # the same seat, another process
        assert await second.reserve(8, 1, 1, "c" * 32, later) == 0  # another seat: the site's limit of 1
        await first.release(7, 0, "a" * 32)
        assert await second.reserve(8, 1, 1, "c" * 32, later) == 1
        await second.release(8, 1, "c" * 32)
        assert await first.reserve(9, 0, 1, "d" * 32, now_ms() + 50) == 1
        await asyncio.sleep(0.2)  # its asker died: the place lapses at its deadline
        assert await second.reserve(10, 0, 1, "e" * 32, later) == 1
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("fields", [
    {"request": "x", "table": "1", "seq": "1", "seat": "0", "iterations": "", "seconds": "99", "deadline": "0"},
    {"request": "x", "table": "1", "seq": "1", "seat": "0", "iterations": "0", "seconds": "1", "deadline": "0"},
    {"request": "x y", "table": "1", "seq": "1", "seat": "0", "iterations": "", "seconds": "1", "deadline": "0"},
    {"request": "x", "table": "one", "seq": "1", "seat": "0", "iterations": "", "seconds": "1", "deadline": "0"},
    {"request": "x", "table": "1", "seq": "1", "seat": "0", "iterations": "", "seconds": "nan", "deadline": "0"},
    {"request": "x", "table": "1", "seq": "1", "seat": "0"},
])
def test_a_malformed_hint_job_is_refused(fields: dict[str, str]) -> None:
    with pytest.raises((KeyError, ValueError)):
        HintJob.parse({key.encode(): value.encode() for key, value in fields.items()})


def test_a_hint_job_reads_back_what_was_queued() -> None:
    job = HintJob("ab12", 3, 4, 1, None, 1.5, 123)
    assert HintJob.parse({k.encode(): v.encode() for k, v in job.fields().items()}) == job


async def test_an_analysis_is_queued_computed_by_the_searcher_and_taken_again_after_its_taker_died(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web side writes the row and queues the job; a taker that dies with it (never renews, never
    acknowledges) leaves it to the next searcher after ``ANALYSIS_CLAIM_SECONDS``, which computes it."""
    http = searching.http
    alice = await person(http, "alice")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table_id = (await http.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    await play_http(http, table_id, [alice], Seen(), random.Random(5))
    monkeypatch.setattr(remote, "ANALYSIS_CLAIM_SECONDS", 1.0)
    services = searching.services
    queue, dead = searching.queue(), searching.queue(consumer="dead")
    web = AnalysisService(services.db, services.tables, None, 20, services.tables.now_ms, remote=queue)
    slots = services.analyses.slots  # the app's searcher takes analyses only while it holds a slot
    await slots.acquire()
    held = True
    try:
        started = await web.start(table_id)
        assert started.status == "running" and started.done == 0 and started.total > 0
        taken = await dead.take(SearchQueue.ANALYSES)  # and its taker dies with it
        assert taken.fields == {b"table": str(table_id).encode()}
        slots.release()
        held = False
        for _ in range(3000):
            status = await web.read(table_id)
            if status.status == "done":
                break
            await asyncio.sleep(0.02)
        assert status.status == "done" and status.analysis is not None
        assert status.analysis.iterations == 20 and status.done == status.total == len(status.analysis.decisions)
        assert (await http.get(f"/api/tables/{table_id}/analysis")).json()["status"] == "done"
        again = await web.start(table_id)  # kept: nothing queued again
        assert again == status
        assert await queue.redis.xlen(queue.streams[SearchQueue.ANALYSES]) == 0
    finally:
        if held:
            slots.release()
        await queue.close()
        await dead.close()
