"""Issue 13: the group commit of plain moves on PostgreSQL (``server/db/group_commit.py``). Many tables'
moves go in one statement, and each still gets its own outcome: appended, stale (another move at that
``seq`` was committed first) or gone (the seat's person no longer plays it)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from spieltafel.server.db import MoveRow, SeatRow, TableRow
from spieltafel.server.db.group_commit import GroupCommit, PlainMove
from spieltafel.server.db.models import utcnow

from ..backing import needs_postgres
from ..helpers import person

pytestmark = [pytest.mark.anyio, needs_postgres]


async def started_tables(client: httpx.AsyncClient, count: int) -> list[tuple[int, dict[str, Any]]]:
    """``count`` Iquazú tables of two people, each with the state of the seat to act first."""
    alice, bob = await person(client), await person(client)
    tables = []
    for _ in range(count):
        made = await client.post(
            "/api/tables", json={"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]},
            headers=alice.headers,
        )
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        assert (await client.post(f"/api/tables/{table_id}/join", headers=bob.headers)).status_code == 200
        for who in (alice, bob):
            state = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
            if state["legal"]:
                tables.append((table_id, state))
                break
    assert len(tables) == count
    return tables


def first_move(table_id: int, state: dict[str, Any], seq: int | None = None) -> PlainMove:
    legal = state["legal"][0]
    return PlainMove(table_id, state["seq"] if seq is None else seq, state["seat"], legal["action"], legal["notation"])


async def logged(app: FastAPI, table_id: int) -> int:
    async with app.state.services.db.session() as session:
        count: int = await session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id))
    return count


async def test_one_statement_commits_many_tables_and_answers_each_move(app: FastAPI, client: httpx.AsyncClient) -> None:
    db = app.state.services.db
    tables = await started_tables(client, 12)
    group = GroupCommit(db, utcnow)
    taken_id, taken_state = tables[10]
    assert await group.append(first_move(taken_id, taken_state)) == "appended"  # seq 0 of this table is taken
    gone_id, gone_state = tables[11]
    async with db.write() as session:  # the leaver rule gave that seat to a bot
        await session.execute(
            update(SeatRow).where(SeatRow.table_id == gone_id, SeatRow.seat == gone_state["seat"])
            .values(gone="left", bot="easy")
        )
    before = group.batches

    outcomes = await asyncio.gather(*(group.append(first_move(t, s)) for t, s in tables))

    assert group.batches - before == 1  # the twelve moves arrived together: one statement
    assert outcomes == ["appended"] * 10 + ["stale", "gone"]
    assert [await logged(app, t) for t, _ in tables] == [1] * 11 + [0]


async def test_the_same_seq_from_two_processes_goes_in_once_per_table(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Two group commits (as in two server processes), each with a move at the same ``seq`` of the same 20
    tables, sent at the same moment in opposite orders: per table exactly one is appended and the other is
    stale, and neither batch deadlocks (both lock seats, then insert moves, in one order)."""
    db = app.state.services.db
    tables = await started_tables(client, 20)
    one, two = GroupCommit(db, utcnow), GroupCommit(db, utcnow)
    for _ in range(5):
        seqs = {t: await logged(app, t) for t, _ in tables}
        both = await asyncio.gather(
            asyncio.gather(*(one.append(first_move(t, s, seqs[t])) for t, s in tables)),
            asyncio.gather(*(two.append(first_move(t, s, seqs[t])) for t, s in reversed(tables))),
        )
        firsts, seconds = both[0], list(reversed(both[1]))
        for first, second in zip(firsts, seconds, strict=True):
            assert sorted([first, second]) == ["appended", "stale"]
        assert [await logged(app, t) for t, _ in tables] == [seqs[t] + 1 for t, _ in tables]


async def test_a_last_move_in_the_batch_ends_its_table_and_leaves_its_ratings_due(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A move that ends its game goes in with the batch and the table is over in the same statement (its
    ratings due); a stale last move ends nothing, and the batch's other tables play on."""
    db = app.state.services.db
    tables = await started_tables(client, 4)
    group = GroupCommit(db, utcnow)
    (ending, ending_state), (stale, stale_state), (plain, plain_state), (last, _) = tables
    assert await group.append(first_move(stale, stale_state)) == "appended"
    moves = [
        PlainMove(**{**_fields(first_move(ending, ending_state)), "ends": True}),
        PlainMove(**{**_fields(first_move(stale, stale_state)), "ends": True}),
        first_move(plain, plain_state),
    ]
    assert await asyncio.gather(*(group.append(move) for move in moves)) == ["appended", "stale", "appended"]
    async with db.session() as session:
        found = await session.execute(
            select(TableRow.id, TableRow.status, TableRow.rating_due)
            .where(TableRow.id.in_([ending, stale, plain, last]))
        )
        rows = {table_id: (status, due) for table_id, status, due in found.all()}
    assert rows == {ending: ("over", True), stale: ("playing", False), plain: ("playing", False),
                    last: ("playing", False)}


def _fields(move: PlainMove) -> dict[str, Any]:
    return {name: getattr(move, name) for name in PlainMove.__slots__}
