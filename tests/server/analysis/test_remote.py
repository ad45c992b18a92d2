"""Hints and analyses through Redis (``analysis.remote``), in one process: the test app (one bot worker, on
Redis) is the searcher, and a :class:`HintService` / :class:`AnalysisService` without a bot pool beside it
plays the server process with ``bot_workers`` 0. Needs Redis (skipped without it, failed under CI=true);
the whole path with real ``spieltafel serve`` and ``spieltafel worker`` processes is in ``test_scale``."""

from __future__ import annotations

import asyncio
import contextvars
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import select

from spieltafel.server.accounts.service import Account
from spieltafel.server.analysis import remote
from spieltafel.server.analysis.hints import HintService
from spieltafel.server.analysis.remote import HintJob, SearchQueue, Taken, now_ms
from spieltafel.server.analysis.runner import SearchRunner
from spieltafel.server.analysis.service import STALE_MS, AnalysisService
from spieltafel.server.app import create_app
from spieltafel.server.db import Database
from spieltafel.server.db.models import AnalysisRow
from spieltafel.server.errors import Unavailable
from spieltafel.server.services import Services
from spieltafel.server.settings import Settings

from ..backing import fresh_database, reachable_redis, redis_keys
from ..conftest import settings_for
from ..helpers import Person, Seen, person, play_http

pytestmark = pytest.mark.anyio


class Searching:
    """The searcher app, its HTTP client, and the Redis URL and prefix it works on."""

    def __init__(self, app: FastAPI, http: httpx.AsyncClient, url: str, prefix: str) -> None:
        self.app, self.http, self.url, self.prefix = app, http, url, prefix
        self.person: Person | None = None
        """The person of the last ``casual_turn``."""

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


async def finished_game(searching: Searching, seed: int) -> tuple[int, Person]:
    """A finished Iquazú game of alice against a random bot: its table id, and alice."""
    http = searching.http
    alice = await person(http, "alice")
    body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table_id: int = (await http.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
    await play_http(http, table_id, [alice], Seen(), random.Random(seed))
    return table_id, alice


async def casual_turn(searching: Searching) -> tuple[int, Account, dict[str, Any]]:
    """A casual table of ann against a random bot, at ann's turn: its id, ann's account and her state."""
    http = searching.http
    ann = searching.person = await person(http, "ann")
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
    table_id, _alice = await finished_game(searching, 5)
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


async def test_an_analysis_with_no_searcher_there_is_refused_and_leaves_no_row(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process without bot workers on a prefix no searcher serves: the analysis is refused at once (503
    ``analysis-unavailable``, through the API and on the page, in the reader's language) and no row is
    written (the page would show it "running 0 of N" until it went stale); with a searcher announced it is
    queued as before; a stale row left when the searchers have gone is removed, so that the page says why."""
    http = searching.http
    table_id, alice = await finished_game(searching, 5)
    services = searching.services
    words = {"en": "no process that computes analyses is running", "de": "Es läuft kein Prozess, der Analysen",
             "nl": "er draait geen proces dat analyses berekent"}

    async def row() -> AnalysisRow | None:
        async with services.db.session() as session:
            query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
            found: AnalysisRow | None = (await session.execute(query)).scalar_one_or_none()
            return found

    async def refused_on_the_page() -> None:
        for lang, text in words.items():
            page = await http.get(f"/tables/{table_id}/analysis", headers={"Accept-Language": lang})
            assert page.status_code == 503 and text in page.text, (lang, page.status_code)
            assert 'http-equiv="refresh"' not in page.text

    async with redis_keys(searching.url) as prefix:  # no searcher on this prefix
        queue = searching.queue(prefix)
        clock = [services.tables.now_ms()]
        web = AnalysisService(services.db, services.tables, None, 20, lambda: clock[0], remote=queue)
        stream = queue.streams[SearchQueue.ANALYSES]
        try:
            with pytest.raises(Unavailable) as refusal:
                await web.start(table_id)
            assert refusal.value.code == "analysis-unavailable" and refusal.value.status == 503
            assert "no process that computes analyses is running now" in refusal.value.message
            assert await row() is None and await queue.redis.xlen(stream) == 0
            assert (await web.read(table_id)).status == "none"
            monkeypatch.setattr(services, "analyses", web)  # the app's routes as in a process without workers
            answer = await http.post(f"/api/tables/{table_id}/analysis", headers=alice.headers)
            assert answer.status_code == 503 and answer.json()["detail"]["code"] == "analysis-unavailable"
            await refused_on_the_page()
            assert await row() is None and await queue.redis.xlen(stream) == 0
            await queue.announce(1)  # a searcher is there: queued as before
            answer = await http.post(f"/api/tables/{table_id}/analysis", headers=alice.headers)
            assert answer.status_code == 200, answer.text
            assert answer.json()["status"] == "running" and answer.json()["total"] > 0
            assert await row() is not None and await queue.redis.xlen(stream) == 1
            await queue.withdraw(1)  # it went away without computing it: the row goes stale
            clock[0] += STALE_MS + 1
            assert (await web.read(table_id)).status == "none" and await row() is None
            await refused_on_the_page()
            assert await queue.redis.xlen(stream) == 1  # nothing queued again
        finally:
            await queue.close()


# -- faults of the remote path (one process, real Redis, each test its own prefix) -------------------------
def own_runner(searching: Searching, queue: SearchQueue, hint_slots: int = 1) -> SearchRunner:
    """A searcher of its own on ``queue``'s prefix (the app's searcher works on another one)."""
    services = searching.services
    bots = services.site.bots
    assert bots is not None
    analyses = AnalysisService(services.db, services.tables, bots, 20, services.tables.now_ms)
    return SearchRunner(queue, services.tables, bots, analyses, hint_slots)


async def stop_runner(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_an_answer_after_the_sockets_timeout_is_received() -> None:
    """redis-py gives every command a 5 s socket timeout: one ``BLPOP`` for the whole wait would end in
    ``redis.TimeoutError`` after 5 s; the asker waits in shorter steps until its deadline."""
    url = await reachable_redis()
    async with redis_keys(url) as prefix:
        asker, searcher = SearchQueue(url, prefix, "web", 15.0), SearchQueue(url, prefix, "worker", 15.0)
        try:
            job = HintJob(asker.new_request(), 1, 1, 0, None, 1.0, now_ms() + 20_000)

            async def late_answer() -> None:
                await asyncio.sleep(6.0)
                await searcher.reply(job.request, {"error": "stale", "message": "late"})

            answering = asyncio.create_task(late_answer())
            started = asyncio.get_running_loop().time()
            reply = await asyncio.wait_for(asker.ask_hint(job), 15.0)
            await answering
            assert reply == {"error": "stale", "message": "late"}
            assert asyncio.get_running_loop().time() - started >= 5.9
        finally:
            await asker.close()
            await searcher.close()


async def test_a_searcher_stopped_mid_analysis_leaves_its_job_to_the_next_taker(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stops while its searcher computes an analysis: the job is neither acknowledged nor
    deleted (its row would stay "running k of N" for ever), its slot goes back, and the next taker gets it."""
    monkeypatch.setattr(remote, "ANALYSIS_CLAIM_SECONDS", 0.2)
    async with redis_keys(searching.url) as prefix:
        queue, web, following = (searching.queue(prefix, "mine"), searching.queue(prefix, "web"),
                                 searching.queue(prefix, "next"))
        runner = own_runner(searching, queue)
        entered = asyncio.Event()

        async def stuck(table_id: int, receipt: str) -> None:
            entered.set()
            await asyncio.Event().wait()

        monkeypatch.setattr(runner, "analyse", stuck)
        try:
            await web.queue_analysis(4242)
            task = asyncio.create_task(runner.run())
            await asyncio.wait_for(entered.wait(), 10.0)
            await stop_runner(task)  # the process stops
            stream = web.streams[SearchQueue.ANALYSES]
            assert await web.redis.xlen(stream) == 1
            assert (await web.redis.xpending(stream, SearchQueue.ANALYSES))["pending"] == 1
            assert not runner.analyses.slots.locked() and not runner.working
            taken = await asyncio.wait_for(following.take(SearchQueue.ANALYSES), 10.0)
            assert taken.fields == {b"table": b"4242"}
        finally:
            for each in (queue, web, following):
                await each.close()


async def test_a_stale_running_analysis_is_queued_again_when_read(searching: Searching) -> None:
    """A row "running" whose progress stood still for ``STALE_MS`` and whose job is gone is queued again by
    the next read (the analysis page starts one only when the status is "none")."""
    table_id, _alice = await finished_game(searching, 5)
    services = searching.services
    async with redis_keys(searching.url) as prefix:  # a searcher announced that takes nothing: the job stays
        queue = searching.queue(prefix)
        clock = [services.tables.now_ms()]
        web = AnalysisService(services.db, services.tables, None, 20, lambda: clock[0], remote=queue)
        stream = queue.streams[SearchQueue.ANALYSES]
        try:
            await queue.announce(1)
            assert (await web.start(table_id)).status == "running"
            assert await queue.redis.xlen(stream) == 1
            await queue.redis.delete(stream)  # the job is lost (its taker died after a failed queueing, ...)
            assert (await web.read(table_id)).status == "running"
            assert await queue.redis.xlen(stream) == 0  # not stale yet: nothing queued
            clock[0] += STALE_MS + 1
            status = await web.read(table_id)
            assert status.status == "running" and status.done == 0 and status.total > 0
            assert await queue.redis.xlen(stream) == 1
            assert (await web.read(table_id)).status == "running"
            assert await queue.redis.xlen(stream) == 1  # fresh again: queued once
        finally:
            await queue.close()


class ReadTogether:
    """A database whose writers wait, after their first statement, until the other writer has made its own (at
    most 2 s: on SQLite, where this process's writers take turns, the first goes on alone)."""

    def __init__(self, db: Database, together: asyncio.Barrier) -> None:
        self.db, self.together = db, together

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Any]:
        async with self.db.write() as session:
            real, together, first = session.execute, self.together, [True]

            async def execute(*args: Any, **kwargs: Any) -> Any:
                answer = await real(*args, **kwargs)
                if first:
                    first.clear()
                    with suppress(TimeoutError, asyncio.BrokenBarrierError):
                        await asyncio.wait_for(together.wait(), 2.0)
                return answer

            session.execute = execute  # type: ignore[method-assign]
            yield session


async def test_a_stale_analysis_started_again_by_two_processes_at_once_is_queued_once(searching: Searching) -> None:
    """Two server processes find the same analysis stale at the same moment: only the one whose update still
    finds the stale row queues it again (on PostgreSQL both read the row before either writes: forced here)."""
    table_id, _alice = await finished_game(searching, 6)
    services = searching.services
    async with redis_keys(searching.url) as prefix:
        queue = searching.queue(prefix)
        clock = [services.tables.now_ms()]
        one = AnalysisService(services.db, services.tables, None, 20, lambda: clock[0], remote=queue)
        other = AnalysisService(services.db, services.tables, None, 20, lambda: clock[0], remote=queue)
        stream = queue.streams[SearchQueue.ANALYSES]
        try:
            await queue.announce(1)
            assert (await one.start(table_id)).status == "running"
            await queue.redis.delete(stream)  # its job is lost
            clock[0] += STALE_MS + 1
            together = asyncio.Barrier(2)
            one.db = ReadTogether(services.db, together)  # type: ignore[assignment]
            other.db = ReadTogether(services.db, together)  # type: ignore[assignment]
            answers = await asyncio.gather(one.start(table_id), other.start(table_id))
            assert [a.status for a in answers] == ["running", "running"]
            assert await queue.redis.xlen(stream) == 1
        finally:
            await queue.close()


async def test_local_and_remote_hints_share_the_processs_slots(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app has bot workers and Redis: its searcher's remote hints and its own askers' hints take the
    same ``hint_slots`` (1 here), so a local hint while a remote one computes is ``busy``."""
    table_id, _, state = await casual_turn(searching)
    services = searching.services
    searcher, free = services.site.searcher, services.site.hint_free
    assert searcher is not None and free is not None and searcher.hint_free is free
    release = asyncio.Event()

    async def slow(job: HintJob) -> dict[str, Any]:
        await release.wait()
        return {"error": "stale", "message": "moved on"}

    monkeypatch.setattr(searcher, "hint", slow)
    queue = searching.queue()
    try:
        job = HintJob(queue.new_request(), table_id, state["seq"], 0, 40, 5.0, now_ms() + 20_000)
        asking = asyncio.create_task(queue.ask_hint(job))
        for _ in range(500):
            if free.locked():
                break
            await asyncio.sleep(0.01)
        assert free.locked()
        ann = searching.person
        assert ann is not None
        answer = await searching.http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]},
                                           headers=ann.headers)
        assert answer.status_code == 503 and answer.json()["detail"]["code"] == "busy"
        release.set()
        assert (await asyncio.wait_for(asking, 10.0)) == {"error": "stale", "message": "moved on"}
        for _ in range(500):
            if not free.locked():
                break
            await asyncio.sleep(0.01)
        answer = await searching.http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]},
                                           headers=ann.headers)
        assert answer.status_code == 200, answer.text
    finally:
        await queue.close()


async def test_a_local_hint_takes_the_seats_place_on_the_site(searching: Searching) -> None:
    """One hint per seat on the whole site: a hint for the seat in flight through another process (its place
    in Redis) makes this process's own hint ``hint-running``; its own hint holds the place while it runs."""
    table_id, _, state = await casual_turn(searching)
    queue = searching.queue(consumer="web-2")
    ann = searching.person
    assert ann is not None
    try:
        assert await queue.reserve(table_id, 0, 5, "a" * 32, now_ms() + 10_000) == 1  # another process's hint
        answer = await searching.http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]},
                                           headers=ann.headers)
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "hint-running"
        await queue.release(table_id, 0, "a" * 32)
        answer = await searching.http.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]},
                                           headers=ann.headers)
        assert answer.status_code == 200, answer.text
        seat_key = f"{searching.prefix}:hint-seat:{table_id}:0"
        for _ in range(500):
            if not await queue.redis.exists(seat_key):
                break
            await asyncio.sleep(0.01)
        assert not await queue.redis.exists(seat_key)  # given back when the hint ended
        assert await queue.reserve(table_id, 0, 5, "b" * 32, now_ms() + 10_000) == 1
        await queue.release(table_id, 0, "b" * 32)
    finally:
        await queue.close()


def test_the_hints_search_fits_in_the_job_timeout() -> None:
    with pytest.raises(ValidationError, match="bot_job_timeout") as refusal:
        Settings(redis_url="redis://127.0.0.1:6379/0", hint_seconds=10, bot_job_timeout=15)
    assert "hint_seconds" in str(refusal.value)
    assert Settings(redis_url="redis://127.0.0.1:6379/0", hint_seconds=5, bot_job_timeout=15).hint_seconds == 5
    assert Settings(hint_seconds=30).bot_job_timeout == 15  # without Redis no job is taken again


async def test_a_hint_job_in_flight_is_renewed_not_taken_again(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint job pending longer than ``bot_job_timeout`` is taken again by another searcher; one that its
    searcher still works on is renewed meanwhile, so it is computed once."""
    async with redis_keys(searching.url) as prefix:
        mine = SearchQueue(searching.url, prefix, "mine", 0.6)
        other = SearchQueue(searching.url, prefix, "other", 0.6)
        web = searching.queue(prefix, "web")
        runner = own_runner(searching, mine)
        calls: list[HintJob] = []

        async def slow(job: HintJob) -> dict[str, Any]:
            calls.append(job)
            await asyncio.sleep(2.5)
            return {"error": "stale", "message": "moved on"}

        monkeypatch.setattr(runner, "hint", slow)
        task = asyncio.create_task(runner.run())
        try:
            job = HintJob(web.new_request(), 1, 1, 0, None, 1.0, now_ms() + 20_000)
            asking = asyncio.create_task(web.ask_hint(job))
            for _ in range(500):  # the runner takes it (a new job goes to whoever looks first)
                if calls:
                    break
                await asyncio.sleep(0.01)
            assert calls
            while not asking.done():
                assert await other.poll(SearchQueue.HINTS) is None
            assert asking.result() == {"error": "stale", "message": "moved on"}
            assert len(calls) == 1
        finally:
            await stop_runner(task)
            for each in (mine, other, web):
                await each.close()


async def test_a_renewal_does_not_take_back_a_job_another_searcher_holds(searching: Searching) -> None:
    async with redis_keys(searching.url) as prefix:
        mine, other = searching.queue(prefix, "mine"), searching.queue(prefix, "other")
        try:
            await mine.queue_analysis(7)
            taken = await mine.take(SearchQueue.ANALYSES)
            assert await mine.renew(SearchQueue.ANALYSES, taken.receipt)
            stream = mine.streams[SearchQueue.ANALYSES]
            await other.redis.xclaim(stream, SearchQueue.ANALYSES, "other", 0, [taken.receipt])  # it took it
            assert not await mine.renew(SearchQueue.ANALYSES, taken.receipt)
            held = await mine.redis.xpending_range(stream, SearchQueue.ANALYSES, taken.receipt, taken.receipt, 1)
            assert [entry["consumer"] for entry in held] == [b"other"]
            assert await other.renew(SearchQueue.ANALYSES, taken.receipt)
        finally:
            await mine.close()
            await other.close()


async def test_a_searcher_that_lost_its_analysis_stops_and_leaves_it(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renewal after a part finds the job held by another searcher: the computation stops there and the
    job is not acknowledged (that would take it from its new holder)."""
    async with redis_keys(searching.url) as prefix:
        mine, other = searching.queue(prefix, "mine"), searching.queue(prefix, "other")
        runner = own_runner(searching, mine)
        parts: list[int] = []

        async def compute_now(table_id: int, record: Any, chosen: Any, numbers: Any, iterations: int,
                              after_part: Any) -> None:
            for part in range(3):
                parts.append(part)
                await after_part()

        async def record(table_id: int) -> Any:
            return None

        monkeypatch.setattr(runner.analyses, "compute_now", compute_now)
        monkeypatch.setattr(runner.tables, "record", record)
        monkeypatch.setattr("spieltafel.server.analysis.runner.plan", lambda *args: ([], [1]))
        try:
            http = searching.http
            alice = await person(http, "alice")
            body = {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
            table_id = (await http.post("/api/tables", json=body, headers=alice.headers)).json()["id"]
            async with searching.services.db.write() as session:
                session.add(AnalysisRow(table_id=table_id, iterations=20, done=0, total=8, result=None, updated_ms=0))
            await mine.queue_analysis(table_id)
            taken = await mine.take(SearchQueue.ANALYSES)
            stream = mine.streams[SearchQueue.ANALYSES]
            await other.redis.xclaim(stream, SearchQueue.ANALYSES, "other", 0, [taken.receipt])
            await runner._analysis(taken)
            assert parts == [0]  # stopped after the first part's renewal
            held = await mine.redis.xpending_range(stream, SearchQueue.ANALYSES, "-", "+", 10)
            assert [entry["consumer"] for entry in held] == [b"other"] and await mine.redis.xlen(stream) == 1
        finally:
            await mine.close()
            await other.close()


async def test_malformed_redis_data_gives_no_error_500(searching: Searching, monkeypatch: pytest.MonkeyPatch) -> None:
    """A searcher's member whose slots are not a number is ignored; an answer that is JSON but not an object
    is ``hint-failed``."""
    table_id, ann, state = await casual_turn(searching)
    async with redis_keys(searching.url) as prefix:
        queue = searching.queue(prefix)
        try:
            await queue.redis.zadd(queue.searchers_key, {"²:odd": now_ms() + 60_000, "x:bad": now_ms() + 60_000,
                                                         "99:much": now_ms() + 60_000, "2:good": now_ms() + 60_000})
            assert await queue.capacity() == 2
            monkeypatch.setattr(queue, "new_request", lambda: "f" * 32)
            await queue.redis.lpush(f"{prefix}:hint-reply:{'f' * 32}", "[1, 2]")
            with pytest.raises(Unavailable) as refusal:
                await searching.hints(queue).ask(ann, table_id, state["seq"])
            assert refusal.value.code == "hint-failed" and refusal.value.status == 503
        finally:
            await queue.close()


async def test_the_searchers_loops_outlive_an_unexpected_error(
    searching: Searching, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error that is not Redis's in a look does not end the searcher: it is logged and the loop goes on."""
    async with redis_keys(searching.url) as prefix:
        mine, web = searching.queue(prefix, "mine"), searching.queue(prefix, "web")
        runner = own_runner(searching, mine)
        looks, poll = [0], mine.poll

        async def failing_once(kind: str) -> Taken | None:
            looks[0] += 1
            if looks[0] == 1:
                raise RuntimeError("an unexpected reply")
            return await poll(kind)

        async def answer(job: HintJob) -> dict[str, Any]:
            return {"error": "stale", "message": "moved on"}

        monkeypatch.setattr(mine, "poll", failing_once)
        monkeypatch.setattr(runner, "hint", answer)
        task = asyncio.create_task(runner.run())
        try:
            job = HintJob(web.new_request(), 1, 1, 0, None, 1.0, now_ms() + 20_000)
            assert await asyncio.wait_for(web.ask_hint(job), 25.0) == {"error": "stale", "message": "moved on"}
            assert not task.done()
        finally:
            await stop_runner(task)
            await mine.close()
            await web.close()


async def test_a_job_cancelled_before_its_first_step_gives_its_slot_back(searching: Searching) -> None:
    queue = searching.queue()
    runner = own_runner(searching, queue)
    slots = asyncio.Semaphore(1)
    await slots.acquire()

    async def never() -> None:
        raise AssertionError("not run")

    try:
        runner._spawn(never(), "1-0", slots)
        (task,) = runner._tasks
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.sleep(0)
        assert not slots.locked() and not runner.working and not runner._tasks
    finally:
        await queue.close()


# -- clocks: every time compared across processes is Redis's ------------------------------------------------
_SKEW: contextvars.ContextVar[float] = contextvars.ContextVar("skew", default=0.0)
"""Seconds that ``time.time()`` is off in the tasks run with :func:`skewed` (0 elsewhere: the app's searcher)."""


def skew_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + _SKEW.get())


def skewed(seconds: float) -> contextvars.Context:
    """A context whose tasks (and the tasks they start) read a clock ``seconds`` off: another host's."""
    context = contextvars.copy_context()
    context.run(_SKEW.set, seconds)
    return context


@pytest.mark.parametrize("skew", [30.0, -30.0])
async def test_a_hint_is_answered_whatever_the_askers_clock(
    searching: Searching, monkeypatch: pytest.MonkeyPatch, skew: float
) -> None:
    """The asker's host clock is 30 s ahead (the searchers' claims would look lapsed: ``hint-unavailable``) or
    behind (its deadline would look past to the searcher, which drops the job: ``hint-failed``): the hint
    is answered all the same, the deadline and the claims being on Redis's clock."""
    table_id, ann, state = await casual_turn(searching)
    skew_clocks(monkeypatch)
    queue = searching.queue()
    try:
        asking = asyncio.create_task(searching.hints(queue).ask(ann, table_id, state["seq"]), context=skewed(skew))
        answer = await asyncio.wait_for(asking, 30.0)
    finally:
        await queue.close()
    assert answer["table_id"] == table_id and answer["seat"] == 0 and answer["hints"] == 1


@pytest.mark.parametrize("skew", [30.0, -30.0])
async def test_a_searcher_with_a_skewed_clock_drops_an_expired_job_and_answers_a_live_one(
    searching: Searching, monkeypatch: pytest.MonkeyPatch, skew: float
) -> None:
    """A searcher whose host clock is 30 s behind would still search a job whose deadline has passed; one 30 s
    ahead would drop a job with 20 s to go. On Redis's clock: the expired job is dropped (acknowledged, not
    searched, not answered) and the live one answered."""
    skew_clocks(monkeypatch)
    async with redis_keys(searching.url) as prefix:
        mine, web = searching.queue(prefix, "mine"), searching.queue(prefix, "web")
        runner = own_runner(searching, mine)
        searched: list[str] = []

        async def answer(job: HintJob) -> dict[str, Any]:
            searched.append(job.request)
            return {"error": "stale", "message": "moved on"}

        monkeypatch.setattr(runner, "hint", answer)
        task = asyncio.create_task(runner.run(), context=skewed(skew))
        try:
            seconds, micros = await web.redis.time()  # Redis's clock, as the asker's deadline is reckoned
            now = seconds * 1000 + micros // 1000
            stream = web.streams[SearchQueue.HINTS]
            expired = HintJob(web.new_request(), 1, 1, 0, None, 1.0, now - 1000)
            await web.redis.xadd(stream, expired.fields())  # type: ignore[arg-type]
            for _ in range(1000):
                if not await web.redis.xlen(stream):
                    break
                await asyncio.sleep(0.01)
            assert await web.redis.xlen(stream) == 0 and searched == []
            assert not await web.redis.exists(f"{prefix}:hint-reply:{expired.request}")
            live = HintJob(web.new_request(), 1, 1, 0, None, 1.0, now + 20_000)
            reply = await asyncio.wait_for(web.ask_hint(live), 25.0)
            assert reply == {"error": "stale", "message": "moved on"} and searched == [live.request]
        finally:
            await stop_runner(task)
            await mine.close()
            await web.close()
