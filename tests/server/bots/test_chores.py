"""The periodic chores of ``spieltafel worker`` (docs/deploy.md): with every server process down, workers
alone handle a deadline that passed meanwhile (the leaver rule, then the bot that took the seat moves) and
send the 'your turn' e-mail of a waiting turn-based game, exactly once although two workers run them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from mail_sink import Sink
from sqlalchemy import func, select, update

from spieltafel.server.db import AccountRow, Database, MoveRow, SeatRow

from ..backing import drop_site_database, reachable_redis, redis_keys, site_database
from ..helpers import Person, person
from ..processes import Server, Worker

pytestmark = pytest.mark.anyio
SECRET = {"SPIELTAFEL_SECRET_KEY": "chores-test-secret"}
TURN_BASED = {"clock": {"pace": "turn", "per_move": "12h"}, "leaver": {"rule": "bot", "bot": "random"}}


async def turn_based_table(http: httpx.AsyncClient, host: Person, guest: Person) -> tuple[int, Person]:
    """A turn-based haleakala table of two people; returns it and the person it waits for."""
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}], **TURN_BASED}
    answer = await http.post("/api/tables", json=body, headers=host.headers)
    assert answer.status_code == 201, answer.text
    table_id: int = answer.json()["id"]
    assert (await http.post(f"/api/tables/{table_id}/join", headers=guest.headers)).status_code == 200
    to_act = (await http.get(f"/api/tables/{table_id}/state")).json()["to_act"]
    assert len(to_act) == 1
    return table_id, (host, guest)[to_act[0]]


async def test_workers_alone_handle_missed_deadlines_and_mail_once(
    tmp_path: Path, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    redis_url = await reachable_redis()
    url = await site_database(tmp_path)
    try:
        async with redis_keys(redis_url) as prefix:
            options = {"database_url": url, "redis_url": redis_url, "redis_prefix": prefix}
            server = Server(tmp_path / "data", **options, bot_workers=0, **SECRET)  # no SMTP: it sends nothing
            try:
                async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                    people = [await person(http, letter) for letter in "abcd"]
                    late, late_person = await turn_based_table(http, people[0], people[1])
                    waiting, waiting_person = await turn_based_table(http, people[2], people[3])
                    address = f"{waiting_person.name}@example.org"
                    answer = await http.put("/api/account/email", json={"email": address},
                                            headers=waiting_person.headers)
                    assert answer.status_code == 200 and answer.json()["enabled"] is False, answer.text
            finally:
                server.stop()  # every server process is down from here on
            database = Database(url)
            await database.start()
            try:
                async with database.write() as session:  # 12 hours pass while no server runs
                    await session.execute(  # the address was verified (issue 28: only such get mail)
                        update(AccountRow).where(AccountRow.email == address).values(email_verified=True)
                    )
                    await session.execute(
                        update(SeatRow).where(SeatRow.table_id == late, SeatRow.deadline_ms.is_not(None))
                        .values(deadline_ms=int(time.time() * 1000) - 1000)
                    )
                smtp = {"SPIELTAFEL_SMTP_HOST": "127.0.0.1", "SPIELTAFEL_SMTP_PORT": str(port),
                        "SPIELTAFEL_SMTP_SECURITY": "none", "SPIELTAFEL_MAIL_AFTER_SECONDS": "0"}
                workers = [Worker(tmp_path / "data", url, redis_url, prefix, wait=False, **SECRET, **smtp)
                           for _ in range(2)]
                try:
                    for worker in workers:
                        worker.wait_until_ready()
                    deadline = time.monotonic() + 60
                    while time.monotonic() < deadline:
                        async with database.session() as session:
                            gone = (await session.execute(
                                select(SeatRow.seat, SeatRow.gone, SeatRow.bot).where(SeatRow.table_id == late)
                                .where(SeatRow.gone.is_not(None))
                            )).all()
                            moves = await session.scalar(select(func.count()).where(MoveRow.table_id == late))
                        if gone and moves and handler.messages:
                            break
                        await asyncio.sleep(0.25)
                    await asyncio.sleep(12)  # two more rounds of both workers' chores: still one mail
                    errors = [line for worker in workers for line in worker.errors()]
                finally:
                    for worker in workers:
                        worker.stop()
            finally:
                await database.close()
    finally:
        await drop_site_database(url)
    assert errors == []
    seat = people.index(late_person) % 2
    assert [(s, g, b) for s, g, b in gone] == [(seat, "time", "random")]  # the rule applied once, by a worker
    assert moves and moves >= 1  # the bot that took the seat moved (a worker thought for it)
    assert [m["To"] for m in handler.messages] == [address]  # one e-mail, though two workers ran the chores
    assert f"table {waiting} waits for your move" in handler.messages[0].get_payload()
