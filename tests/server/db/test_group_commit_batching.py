"""The group commit's batching, on a stand-in database (no PostgreSQL): which moves go into which statement."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

from spieltafel.server.db.group_commit import GroupCommit, PlainMove

pytestmark = pytest.mark.anyio


class HeldDatabase:
    """Answers every statement with "appended" for each of its moves, once ``release`` is set."""

    def __init__(self) -> None:
        self.statements: list[list[int]] = []
        self.release = asyncio.Event()

    async def fetch_alone(self, sql: str, *columns: Any) -> list[tuple[int, bool]]:
        tables = list(columns[0])
        self.statements.append(tables)
        await self.release.wait()
        return [(table, True) for table in tables]


def move(table: int) -> PlainMove:
    return PlainMove(table, 0, 0, 0, "play 0")


async def test_moves_that_arrive_during_a_commit_make_the_next_statement() -> None:
    db = HeldDatabase()
    group = GroupCommit(db, lambda: datetime.now(UTC))  # type: ignore[arg-type]
    first = asyncio.create_task(group.append(move(1)))
    await asyncio.sleep(0.01)  # the first statement is on its way (held)
    later = [asyncio.create_task(group.append(move(table))) for table in (2, 3, 4)]
    await asyncio.sleep(0.01)
    db.release.set()
    assert await asyncio.gather(first, *later) == ["appended"] * 4
    assert db.statements == [[1], [2, 3, 4]]


async def test_a_move_whose_mover_went_away_before_it_was_sent_is_never_sent() -> None:
    db = HeldDatabase()
    group = GroupCommit(db, lambda: datetime.now(UTC))  # type: ignore[arg-type]
    first = asyncio.create_task(group.append(move(1)))
    await asyncio.sleep(0.01)
    gone = asyncio.create_task(group.append(move(2)))
    await asyncio.sleep(0.01)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    again = asyncio.create_task(group.append(move(2)))  # the table's next move is taken, not refused
    await asyncio.sleep(0.01)
    db.release.set()
    assert await asyncio.gather(first, again) == ["appended", "appended"]
    assert db.statements == [[1], [2]]
