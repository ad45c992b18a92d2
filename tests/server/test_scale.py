"""Several processes on one site (issue 13): two ``spieltafel serve`` processes and a ``spieltafel worker``
on one database (SQLite, or PostgreSQL in the second CI run) and Redis.

- fan-out: a WebSocket client on process A sees every move submitted through process B (delay measured);
- concurrency: 1,000 times the same seat's two conflicting moves at the same ``seq``, one through each
  process at the same moment: exactly one applied, the other refused as stale, the log holds the winners;
- a bot job delivered twice (a second taker claims it while the first still thinks) moves once;
- chat: a line said through A reaches the readers on B (players' and spectators' chats apart, mutes applied),
  and the chat's rate limit counts an account's messages through both processes together;
- a token revoked through B closes the socket that signed in with it on A (4401);
- hints and post-game analyses asked through A and B (no bot workers) are computed by the worker through
  Redis (``analysis.remote``): a hint is given and counted, a second one for the same seat through the other
  process meanwhile is refused (``hint-running``), an analysis completes with its progress; and a server
  whose site has no worker at all answers a hint with 503 ``hint-unavailable``.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import func, select

from spieltafel.server.accounts.service import AccountService
from spieltafel.server.bots.jobs import BotJob, RedisJobs
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db import Database, MoveRow
from spieltafel.server.realtime.hub import Hub
from spieltafel.server.social.chat import RATE_MESSAGES
from spieltafel.server.tables.service import TableService

from .backing import drop_site_database, reachable_redis, redis_keys, site_database
from .helpers import Person, Seen, person, play_http
from .processes import Server, Worker

pytestmark = pytest.mark.anyio
CONFLICTS = 1000
FAN_OUT_MOVES = 40
SECRET = {  # and limits far above what the proofs do: they prove the concurrency, not the rate limits
    "SPIELTAFEL_SECRET_KEY": "scale-test-secret",
    "SPIELTAFEL_RATE_LIMITS": '{"moves": "100000/minute", "tables": "10000/minute", "accounts": "1000/minute"}',
}
SEARCH = {  # small budgets for the hints and analyses the worker computes for the servers
    "SPIELTAFEL_HINT_ITERATIONS": "40", "SPIELTAFEL_HINT_SECONDS": "5", "SPIELTAFEL_ANALYSIS_ITERATIONS": "20",
}


class Site:
    """Servers A and B and a worker on one database and one Redis prefix."""

    def __init__(self, data: Path, database_url: str, redis_url: str, prefix: str) -> None:
        self.data, self.database_url, self.redis_url, self.prefix = data, database_url, redis_url, prefix
        options = {"database_url": database_url, "redis_url": redis_url, "redis_prefix": prefix}
        # A first: it migrates the fresh database (on SQLite, three processes migrating at once can collide
        # with "table accounts already exists"); then B and the worker find it migrated
        self.a = Server(data, **options, bot_workers=0, **SECRET, **SEARCH)
        self.b = Server(data, **options, bot_workers=0, wait=False, **SECRET, **SEARCH)
        self.worker = Worker(data, database_url, redis_url, prefix, wait=False, **SECRET, **SEARCH)
        for process in (self.b, self.worker):
            process.wait_until_ready()

    def stop(self) -> None:
        for process in (self.a, self.b, self.worker):
            process.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("site")
    redis_url = asyncio.run(reachable_redis())
    url = asyncio.run(site_database(tmp))
    prefix = f"sttest-site-{uuid.uuid4().hex[:10]}"  # unique: each xdist worker may run its own site
    running = Site(tmp / "data", url, redis_url, prefix)
    try:
        yield running
    finally:
        running.stop()
        asyncio.run(drop_site_database(url))


async def new_table(client: httpx.AsyncClient, host: Person, game: str, seats: list[dict[str, str]]) -> int:
    answer = await client.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats},
                               headers=host.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


async def two_people_table(
    a: httpx.AsyncClient, b: httpx.AsyncClient, game: str, people: list[Person] | None = None
) -> tuple[int, list[Person]]:
    """A table of two people (new ones unless given), made through A and joined through B."""
    alice, bob = people or [await person(a), await person(b)]
    table_id = await new_table(a, alice, game, [{"kind": "me"}, {"kind": "open"}])
    assert (await b.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
    return table_id, [alice, bob]


async def test_fan_out_from_process_b_to_a_watcher_on_process_a(site: Site) -> None:
    async with httpx.AsyncClient(base_url=site.a.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=30) as b:
        table_id, people = await two_people_table(a, b, "haleakala")
        watch_url = site.a.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        delays: list[float] = []
        async with websockets.connect(watch_url) as watcher:
            seen = json.loads(await watcher.recv())["seq"]
            rng = random.Random(3)
            for _ in range(FAN_OUT_MOVES):
                state, mover = await _acting(b, table_id, people)
                if state["result"] is not None:
                    break
                sent = time.perf_counter()
                move = {"seq": state["seq"], "action": rng.choice(state["legal"])["action"]}
                answer = await b.post(f"/api/tables/{table_id}/moves", json=move, headers=mover.headers)
                assert answer.status_code == 200, answer.text
                while seen < answer.json()["seq"]:
                    seen = json.loads(await asyncio.wait_for(watcher.recv(), 10))["seq"]
                delays.append(time.perf_counter() - sent)
    assert len(delays) >= 10
    ms = sorted(1000 * d for d in delays)
    print(f"\nfan-out B→A over Redis: {len(ms)} moves, move sent → watcher on A has it: "
          f"p50 {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")


def _chat_socket(server: Server, table_id: int, who: Person) -> Any:
    url = server.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}?chat=1"
    return websockets.connect(url, additional_headers=who.headers, open_timeout=10)


async def _first_chat(socket: Any) -> list[dict[str, Any]]:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "chat":
            messages: list[dict[str, Any]] = message["messages"]
            return messages


async def _chat_until(socket: Any, last: str) -> list[tuple[str, str]]:
    """The (channel, text) of every chat message the socket receives up to the one saying ``last``."""
    got: list[tuple[str, str]] = []
    while not got or got[-1][1] != last:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "chat":
            got += [(m["channel"], m["text"]) for m in message["messages"]]
    return got


async def test_chat_through_process_a_reaches_readers_on_process_b(site: Site) -> None:
    """A chat line said through A (WebSocket or HTTP) reaches the readers connected to B over Redis; the
    players' and the spectators' chats stay apart, and a reader's mutes still apply."""
    async with httpx.AsyncClient(base_url=site.a.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=30) as b:
        table_id, (alice, bob) = await two_people_table(a, b, "haleakala")
        carol, dave = await person(b, "c"), await person(a, "d")  # two spectators
        async with _chat_socket(site.b, table_id, bob) as bob_on_b, \
                _chat_socket(site.b, table_id, carol) as carol_on_b, \
                _chat_socket(site.a, table_id, alice) as alice_on_a:
            for socket in (bob_on_b, carol_on_b, alice_on_a):
                assert await _first_chat(socket) == []  # the history on connect: nothing said yet
            started = time.perf_counter()
            await alice_on_a.send(json.dumps({"type": "chat", "text": "hello from A"}))
            assert await _chat_until(bob_on_b, "hello from A") == [("players", "hello from A")]
            delay = time.perf_counter() - started
            assert await _chat_until(carol_on_b, "hello from A") == [("players", "hello from A")]
            said = await a.post(f"/api/tables/{table_id}/chat", json={"text": "spectators only"}, headers=dave.headers)
            assert said.status_code == 201 and said.json()["channel"] == "spectators", said.text
            assert await _chat_until(carol_on_b, "spectators only") == [("spectators", "spectators only")]
            assert (await b.put(f"/api/mutes/{alice.name}", headers=bob.headers)).status_code == 204
            await alice_on_a.send(json.dumps({"type": "chat", "text": "muted for bob"}))
            assert await _chat_until(carol_on_b, "muted for bob") == [("players", "muted for bob")]
            said = await a.post(f"/api/tables/{table_id}/chat", json={"text": "bob through A"}, headers=bob.headers)
            assert said.status_code == 201, said.text
            # bob's next chat message holds only his own line: neither the spectators' nor muted alice's
            assert await _chat_until(bob_on_b, "bob through A") == [("players", "bob through A")]
            assert await _chat_until(carol_on_b, "bob through A") == [("players", "bob through A")]
            assert await _chat_until(alice_on_a, "bob through A") == [
                ("players", "hello from A"), ("players", "muted for bob"), ("players", "bob through A")]
    print(f"\nchat A→B over Redis: said on A → reader on B has it in {1000 * delay:.1f} ms")


async def test_the_chat_limit_counts_an_account_through_every_process(site: Site) -> None:
    """At most RATE_MESSAGES chat messages in 10 s per account for the whole site (counted in
    Redis): said alternately through A and B, the next one is refused through either."""
    async with httpx.AsyncClient(base_url=site.a.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=30) as b:
        table_id, (alice, _bob) = await two_people_table(a, b, "haleakala")
        url = f"/api/tables/{table_id}/chat"
        for n in range(RATE_MESSAGES):  # quickly: well inside the window
            said = await (a, b)[n % 2].post(url, json={"text": f"line {n}"}, headers=alice.headers)
            assert said.status_code == 201, said.text
        for client in (a, b):
            refused = await client.post(url, json={"text": "one more"}, headers=alice.headers)
            assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too-fast", refused.text
        kept = (await b.get(url, headers=alice.headers)).json()
        assert [m["text"] for m in kept] == [f"line {n}" for n in range(RATE_MESSAGES)]


async def test_revoking_a_token_through_b_closes_its_socket_on_a(site: Site) -> None:
    """Sockets follow the account through every process (issue 23): the word that a token ended goes over
    Redis, and the socket on A that signed in with it gets ``signed-out`` and the close code 4401."""
    async with httpx.AsyncClient(base_url=site.a.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=30) as b:
        table_id, (alice, bob) = await two_people_table(a, b, "iquazu")
        token_id = (await b.get("/api/tokens", headers=alice.headers)).json()[-1]["id"]
        url = site.a.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        async with websockets.connect(url, additional_headers=alice.headers, open_timeout=10) as on_a, \
                websockets.connect(url, additional_headers=bob.headers, open_timeout=10) as bobs:
            assert json.loads(await asyncio.wait_for(on_a.recv(), 10))["seat"] == 0
            assert json.loads(await asyncio.wait_for(bobs.recv(), 10))["seat"] == 1
            assert (await b.delete(f"/api/tokens/{token_id}", headers=alice.headers)).status_code == 204
            error = json.loads(await asyncio.wait_for(on_a.recv(), 10))
            assert error["type"] == "error" and error["code"] == "signed-out", error
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(on_a.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            await bobs.send(json.dumps({"type": "state"}))  # another account's socket stays open
            assert json.loads(await asyncio.wait_for(bobs.recv(), 10))["type"] == "state"


async def _acting(client: httpx.AsyncClient, table_id: int, people: list[Person]) -> tuple[dict[str, Any], Person]:
    """The state of the person to act (or the last state seen when the game is over)."""
    state: dict[str, Any] = {}
    for who in people:
        state = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
        if state["legal"] or state["result"] is not None:
            return state, who
    raise AssertionError(f"nobody may act at table {table_id}: {state}")


async def test_conflicting_moves_through_two_processes_apply_once(site: Site) -> None:
    applied: dict[int, list[tuple[int, int]]] = {}
    refusals = 0
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=site.a.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=30) as b:
        table_id, people = await two_people_table(a, b, "iquazu")
        applied[table_id] = []
        for _ in range(CONFLICTS):
            state, mover = await _acting(a if rng.random() < 0.5 else b, table_id, people)
            if state["result"] is not None:
                table_id, people = await two_people_table(a, b, "iquazu", people)
                applied[table_id] = []
                state, mover = await _acting(a, table_id, people)
            first, second = _two_choices(state["legal"], rng)
            answers = await asyncio.gather(*(
                client.post(f"/api/tables/{table_id}/moves", json={"seq": state["seq"], "action": action},
                            headers=mover.headers)
                for client, action in ((a, first), (b, second))
            ))
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [200, 409], [answer.text for answer in answers]
            refused = next(answer for answer in answers if answer.status_code == 409)
            assert refused.json()["detail"]["code"] == "stale", refused.text
            refusals += 1
            winner = first if answers[0].status_code == 200 else second
            applied[table_id].append((state["seq"], winner))
    assert refusals == CONFLICTS
    await _check_log(site.database_url, applied)
    print(f"\n{CONFLICTS} conflicting pairs over {len(applied)} tables: one applied and one stale each time")


def _two_choices(legal: list[dict[str, Any]], rng: random.Random) -> tuple[int, int]:
    """Two different legal actions when there are two (else the same one twice)."""
    actions = [item["action"] for item in legal]
    if len(actions) == 1:
        return actions[0], actions[0]
    first, second = rng.sample(actions, 2)
    return first, second


async def _check_log(database_url: str, applied: dict[int, list[tuple[int, int]]]) -> None:
    """The move log holds exactly the applied moves: one per seq, the winner's action."""
    db = Database(database_url)
    try:
        async with db.session() as session:
            for table_id, moves in applied.items():
                rows = (await session.execute(
                    select(MoveRow.seq, MoveRow.action).where(MoveRow.table_id == table_id).order_by(MoveRow.seq)
                )).all()
                assert [(seq, action) for seq, action in rows] == moves, f"table {table_id}"
    finally:
        await db.close()


@pytest.fixture
async def two_takers(tmp_path: Path) -> AsyncIterator[tuple[TableService, TableService, RedisJobs, RedisJobs]]:
    """Two table services on one database (as in two worker processes), each with its own job taker."""
    redis_url = await reachable_redis()
    url = await site_database(tmp_path)
    db = Database(url)
    await db.start()
    pool = BotPool(1)
    async with redis_keys(redis_url) as prefix:
        first = RedisJobs(redis_url, prefix, "first", timeout=0.2)
        second = RedisJobs(redis_url, prefix, "second", timeout=0.2)
        try:
            yield TableService(db, Hub(), pool), TableService(db, Hub(), pool), first, second
        finally:
            await first.close()
            await second.close()
            pool.close()
            await db.close()
            await drop_site_database(url)


async def test_a_bot_job_delivered_twice_moves_once(
    two_takers: tuple[TableService, TableService, RedisJobs, RedisJobs],
) -> None:
    one, other, first, second = two_takers
    account = await AccountService(one.db).create("bothost", "correct horse battery")
    table_id = await one.create(account, "haleakala", 2, {}, [{"kind": "bot", "bot": "random"}, {"kind": "me"}])
    job = BotJob(table_id, 0, 0)
    assert await first.queue(job) and not await first.queue(job)  # queued once
    taken = await first.take()
    await asyncio.sleep(0.3)  # the first taker seems dead: its job is handed out again
    again = await second.take()
    assert taken.job == again.job == job and taken.receipt == again.receipt
    moved = await asyncio.gather(one.play_bot(taken.job), other.play_bot(again.job))
    late = await other.play_bot(job)
    assert sorted(moved) == [False, True] and late is False
    async with one.db.session() as session:
        count = await session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id))
    assert count == 1
    await first.done(taken)
    await second.done(again)


async def test_a_dead_takers_job_behind_many_running_ones_is_taken_again() -> None:
    """XAUTOCLAIM looks at no more than ten pending entries a call (count=1): each scan goes on where the last
    stopped, so a job whose taker died is found behind 25 that are still being worked on."""
    redis_url = await reachable_redis()
    async with redis_keys(redis_url) as prefix:
        busy = RedisJobs(redis_url, prefix, "busy", timeout=60)
        other = RedisJobs(redis_url, prefix, "other", timeout=60)
        try:
            jobs = [BotJob(table_id, 0, 0) for table_id in range(1, 27)]
            for job in jobs:
                assert await busy.queue(job)
            taken = [await busy.take() for _ in jobs]
            assert [t.job for t in taken] == jobs
            # the last job's taker died two minutes ago; the other 25 are being worked on
            await busy.redis.xclaim(busy.stream, RedisJobs.GROUP, "busy", 0, [taken[-1].receipt], idle=120_000)
            found = await asyncio.wait_for(other.take(), 20)
            assert (found.job, found.receipt) == (jobs[-1], taken[-1].receipt)
        finally:
            await busy.close()
            await other.close()


# -- hints and analyses from the worker (analysis.remote) ---------------------------------------------------
async def _my_turn(client: httpx.AsyncClient, table_id: int, who: Person) -> dict[str, Any]:
    for _ in range(3000):
        state: dict[str, Any] = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
        if state["legal"]:
            return state
        await asyncio.sleep(0.01)
    raise AssertionError("never the person's turn")


async def _casual(client: httpx.AsyncClient, who: Person, seats: list[dict[str, str]]) -> int:
    body = {"game": "iquazu", "players": len(seats), "seats": seats, "rated": False}
    answer = await client.post("/api/tables", json=body, headers=who.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    return table_id


async def _against_bot(client: httpx.AsyncClient, who: Person) -> int:
    return await _casual(client, who, [{"kind": "me"}, {"kind": "bot", "bot": "random"}])


async def test_a_hint_through_servers_without_bot_workers_comes_from_the_worker(site: Site) -> None:
    async with httpx.AsyncClient(base_url=site.a.url, timeout=60) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=60) as b:
        ann = await person(a)
        table_id = await _against_bot(a, ann)
        state = await _my_turn(a, table_id, ann)
        legal = {entry["action"] for entry in state["legal"]}
        # the same seat through A and B at once: one search (the worker's), the other refused meanwhile
        answers = await asyncio.gather(
            a.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers),
            b.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers),
        )
        given = [answer for answer in answers if answer.status_code == 200]
        refused = [answer for answer in answers if answer.status_code != 200]
        assert len(given) == 1, [answer.text for answer in answers]
        assert [(r.status_code, r.json()["detail"]["code"]) for r in refused] == [(409, "hint-running")]
        hint = given[0].json()
        assert hint["table_id"] == table_id and hint["seat"] == 0 and hint["seq"] == state["seq"]
        assert hint["hints"] == 1 and 1 <= len(hint["moves"]) <= 3
        assert {move["action"] for move in hint["moves"]} <= legal
        assert hint["iterations"] == 40 or (len(legal) == 1 and hint["iterations"] == 0)
        sent = time.perf_counter()
        again = await b.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=ann.headers)
        took = time.perf_counter() - sent
        assert again.status_code == 200, again.text  # the seat's place was given back
        assert again.json()["moves"] == hint["moves"]  # the same position, the same seed: the same hint
        assert again.json()["hints"] == 2
        seats = (await b.get(f"/api/tables/{table_id}")).json()["seats"]
        assert [seat["hints"] for seat in seats] == [2, 0]
    print(f"\nhint through B from the worker over Redis (40 iterations): {1000 * took:.1f} ms")
    assert not site.a.errors() and not site.b.errors() and not site.worker.errors()


async def test_an_analysis_through_a_server_without_bot_workers_is_computed_by_the_worker(site: Site) -> None:
    async with httpx.AsyncClient(base_url=site.a.url, timeout=60) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=60) as b:
        ann = await person(a)
        table_id = await _against_bot(a, ann)
        await play_http(a, table_id, [ann], Seen(), random.Random(5))
        started = await a.post(f"/api/tables/{table_id}/analysis", headers=ann.headers)
        assert started.status_code == 200, started.text
        assert started.json()["status"] in ("running", "done") and started.json()["total"] > 0
        seen: list[dict[str, Any]] = []
        for _ in range(3000):  # read through the other server: the progress is in the database
            status = (await b.get(f"/api/tables/{table_id}/analysis")).json()
            seen.append(status)
            if status["status"] == "done":
                break
            await asyncio.sleep(0.05)
        done = seen[-1]
        assert done["status"] == "done", done
        analysis = done["analysis"]
        assert analysis["iterations"] == 20 and analysis["analysed_seats"] == [0]
        assert done["done"] == done["total"] == len(analysis["decisions"]) > 0
        progress = [s["done"] for s in seen if s["status"] == "running"]
        assert progress == sorted(progress)
        again = await b.post(f"/api/tables/{table_id}/analysis", headers=ann.headers)
        assert again.json() == done  # kept: nothing started again
    assert not site.a.errors() and not site.b.errors() and not site.worker.errors()


async def test_no_worker_on_the_site_means_no_hint(site: Site, tmp_path: Path) -> None:
    """A server without bot workers on a Redis prefix no worker serves: 503 ``hint-unavailable``, nothing
    counted (the tables' bots would wait too: the people play each other here)."""
    async with redis_keys(site.redis_url) as prefix:
        lonely = Server(tmp_path, site.database_url, site.redis_url, prefix, bot_workers=0, **SECRET, **SEARCH)
        try:
            async with httpx.AsyncClient(base_url=lonely.url, timeout=60) as c:
                people = [await person(c), await person(c)]
                table_id = await _casual(c, people[0], [{"kind": "me"}, {"kind": "open"}])
                joined = await c.post(f"/api/tables/{table_id}/join", headers=people[1].headers)
                assert joined.status_code == 200, joined.text
                state, mover = await _acting(c, table_id, people)
                answer = await c.post(f"/api/tables/{table_id}/hint", json={"seq": state["seq"]}, headers=mover.headers)
                assert answer.status_code == 503, answer.text
                detail = answer.json()["detail"]
                assert detail["code"] == "hint-unavailable" and "bot workers" in detail["message"]
                seats = (await c.get(f"/api/tables/{table_id}")).json()["seats"]
                assert [seat["hints"] for seat in seats] == [0, 0]
        finally:
            lonely.stop()
