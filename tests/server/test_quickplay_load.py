"""Quick play under load (issue 28): 200 people ask at once, half through each of two ``spieltafel serve``
processes on one database (SQLite, or PostgreSQL under scripts/server_suite_postgres.py) and Redis.

Everybody is seated exactly once (but for at most one person asking for "any" count, whom the arrival
order may leave alone at the end: nobody is there to play with them), at a table of the size they asked
for (a request for "any" count at one of the game's), no table is made twice for the same people (the
database holds exactly the tables expected), and nobody is left waiting while a table could be made for
them. The time until everybody is seated is printed (docs/performance.md)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from spieltafel.server.accounts.service import Account, AccountService, hash_password
from spieltafel.server.db import AccountRow, Database, SeatRow, TableRow
from spieltafel.server.db.models import QuickPlayRow

from .backing import drop_site_database, reachable_redis, site_database
from .helpers import PASSWORD, Person
from .processes import Server

pytestmark = pytest.mark.anyio
SECRET = {
    "SPIELTAFEL_SECRET_KEY": "quickplay-load-secret",
    "SPIELTAFEL_RATE_LIMITS": '{"moves": "100000/minute", "tables": "10000/minute", "accounts": "10000/minute"}',
}
ASKS: list[tuple[int | None, str, int]] = [(2, "live", 80), (3, "live", 60), (4, "live", 40), (None, "turn", 20)]
"""(player count asked, pace, people): 40 + 20 + 10 tables of iquazu, and tables of 2 to 4 for the 20 who ask
for "any" count (the largest that the people waiting at that moment fill)."""
PEOPLE = sum(n for _, _, n in ASKS)
SEATED_WITHIN = 120.0
LONE_WAIT = 10.0
"""How long the last person asking for "any" count is watched waiting alone before the count is taken."""


class Site:
    def __init__(self, data: Path, database_url: str, redis_url: str) -> None:
        self.database_url = database_url
        prefix = f"sttest-qp-{uuid.uuid4().hex[:10]}"
        options = {"database_url": database_url, "redis_url": redis_url, "redis_prefix": prefix}
        self.a = Server(data, **options, bot_workers=0, **SECRET)  # migrates first
        self.b = Server(data, **options, bot_workers=0, **SECRET)

    def stop(self) -> None:
        for process in (self.a, self.b):
            process.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("quickplay")
    redis_url = asyncio.run(reachable_redis())
    url = asyncio.run(site_database(tmp))
    running = Site(tmp / "data", url, redis_url)
    try:
        yield running
    finally:
        running.stop()
        errors = running.a.errors() + running.b.errors()
        asyncio.run(drop_site_database(url))
        assert not errors, "".join(errors)


async def _people(url: str, count: int) -> list[Person]:
    """``count`` accounts with a token each, inserted at once (one password hash for all: argon2 200 times
    would take minutes on this machine and is not what the test is about)."""
    db = Database(url)
    await db.start()
    try:
        hashed = await hash_password(PASSWORD)
        names = [f"q{uuid.uuid4().hex[:8]}{n}" for n in range(count)]
        async with db.write() as session:
            rows = [AccountRow(name=name, name_folded=name.casefold(), password_hash=hashed) for name in names]
            session.add_all(rows)
            await session.flush()
            accounts = [Account(row.id, row.name, None) for row in rows]
        service = AccountService(db)
        return [Person(account.name, await service.create_token(account)) for account in accounts]
    finally:
        await db.close()


async def _count(url: str) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Tables, waiting requests, and (table, seat, account) of every seat in the database."""
    db = Database(url)
    await db.start()
    try:
        async with db.session() as session:
            tables = await session.scalar(select(func.count()).select_from(TableRow))
            waiting = await session.scalar(
                select(func.count()).select_from(QuickPlayRow).where(QuickPlayRow.table_id.is_(None))
            )
            seats = (await session.execute(select(SeatRow.table_id, SeatRow.seat, SeatRow.account_id))).all()
        return int(tables or 0), int(waiting or 0), [(t, s, a) for t, s, a in seats]
    finally:
        await db.close()


async def test_200_people_asking_at_once_through_two_processes_are_each_seated_once(site: Site) -> None:
    people = await _people(site.database_url, PEOPLE)
    wants: dict[str, tuple[int | None, str]] = {}
    rest = iter(people)
    for players, pace, count in ASKS:
        for _ in range(count):
            wants[next(rest).name] = (players, pace)
    limits = httpx.Limits(max_connections=PEOPLE)
    async with httpx.AsyncClient(base_url=site.a.url, timeout=60, limits=limits) as a, \
            httpx.AsyncClient(base_url=site.b.url, timeout=60, limits=limits) as b:
        clients = {p.name: (a if n % 2 else b) for n, p in enumerate(people)}

        async def ask(who: Person) -> None:
            players, pace = wants[who.name]
            body = {"game": "iquazu", "players": players, "pace": pace, "rated": True}
            answer = await clients[who.name].post("/api/quickplay", json=body, headers=who.headers)
            assert answer.status_code == 200, answer.text

        started = time.monotonic()
        await asyncio.gather(*(ask(p) for p in people))
        seated: dict[str, int] = {}
        alone_since: float | None = None
        while len(seated) < PEOPLE and time.monotonic() - started < SEATED_WITHIN:
            for who in people:
                if who.name not in seated:
                    state = (await clients[who.name].get("/api/quickplay", headers=who.headers)).json()
                    if state["state"] == "seated":
                        seated[who.name] = state["table_id"]
            if len(seated) == PEOPLE - 1 and alone_since is None:
                alone_since = time.monotonic()
            if alone_since is not None and time.monotonic() - alone_since > LONE_WAIT:
                break
        took = time.monotonic() - started
        print(f"\nquick play: {PEOPLE} people through two processes seated in {took:.2f} s")
        # Those asking for "any" count get a table as soon as two or more wait (the largest they fill), so
        # the arrival order may leave one of them alone at the end: nobody can be seated with them, and they
        # wait (for another person, or for bots when they chose them). Everybody else is seated.
        alone = [name for name in wants if name not in seated]
        assert len(alone) <= 1 and all(wants[name][0] is None for name in alone), (
            f"{len(alone)} still wait after {took:.1f} s: {[wants[name] for name in alone]}")
        tables, waiting, seats = await _count(site.database_url)
        assert waiting == len(alone)
        # every table in the database is one somebody was seated at: none made twice for the same people
        assert tables == len(set(seated.values())), "a table was made that nobody was seated at"
        assert tables >= 40 + 20 + 10 + 5
        by_account = Counter(account for _, _, account in seats)
        assert all(n == 1 for n in by_account.values()) and len(by_account) == PEOPLE - len(alone)  # each once
        sizes = Counter(table for table, _, _ in seats)
        names = {p.name: p for p in people}
        for name, table_id in seated.items():
            players, _ = wants[name]
            table = (await a.get(f"/api/tables/{table_id}")).json()
            assert name in [s["name"] for s in table["seats"]]
            assert table["players"] == sizes[table_id], table  # every seat a person's
            assert table["players"] == players if players else 2 <= table["players"] <= 4
            paces = {wants[s["name"]][1] for s in table["seats"] if s["name"] in names}
            assert len(paces) == 1
