"""Backups (issue 30): ``spieltafel backup`` of a site while people and bots play on it, ``spieltafel restore``
into a new data folder (and, on PostgreSQL, a new database), a server started on the restored site, and
every move acknowledged before the backup began is there, with the same action, each table's log a
consistent prefix of the original one that replays in the engine. Runs on the run's database: SQLite
(the embedded site, backed up through SQLite's online backup API), or PostgreSQL in the second CI run
(pg_dump and pg_restore). Then the refusals: each with a clear message, changing nothing."""

from __future__ import annotations

import asyncio
import io
import json
import random
import sqlite3
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from spieltafel.cli import app as cli
from spieltafel.core import get_game
from spieltafel.server.db import Database, MoveRow, TableRow

from ..backing import create_database, drop_database
from ..helpers import Person, person
from ..processes import Server

pytestmark = pytest.mark.anyio
LIMITS = {"SPIELTAFEL_RATE_LIMITS": '{"moves": "100000/minute"}'}
TABLES = (("iquazu", 2), ("haleakala", 2), ("iquazu", 2), ("haleakala", 2))


@dataclass
class Played:
    acknowledged: list[tuple[int, int, int]] = field(default_factory=list)  # (table, seq, action)


async def _play(client: httpx.AsyncClient, played: Played, table_id: int, who: Person, stop: asyncio.Event) -> None:
    rng = random.Random(table_id)
    while not stop.is_set():
        state = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
        if state["result"] is not None:
            return
        if not state["legal"]:
            await asyncio.sleep(0.01)
            continue
        action = rng.choice(state["legal"])["action"]
        answer = await client.post(f"/api/tables/{table_id}/moves", headers=who.headers,
                                   json={"seq": state["seq"], "action": action})
        if answer.status_code == 200:
            played.acknowledged.append((table_id, state["seq"], action))
        else:
            assert answer.status_code == 409, answer.text


async def _spieltafel(*arguments: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "spieltafel.cli", *arguments,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


async def _logs(database_url: str) -> dict[int, list[tuple[int, int]]]:
    """Each table's log as (seat, action) in ``seq`` order, checked to have no gaps and to replay."""
    db = Database(database_url)
    logs: dict[int, list[tuple[int, int]]] = {}
    try:
        async with db.session() as session:
            for table in (await session.execute(select(TableRow))).scalars():
                moves = (await session.execute(select(MoveRow.seq, MoveRow.seat, MoveRow.action)
                                               .where(MoveRow.table_id == table.id).order_by(MoveRow.seq))).all()
                assert [seq for seq, _, _ in moves] == list(range(len(moves))), f"table {table.id}: gaps"
                state = get_game(table.game).new_state(table.players, table.seed, table.options)
                for _, seat, action in moves:
                    state.apply(seat, action)  # raises if the log does not replay
                logs[table.id] = [(seat, action) for _, seat, action in moves]
    finally:
        await db.close()
    return logs


def _sqlite_url(data: Path) -> str:
    return f"sqlite+aiosqlite:///{data / 'spieltafel.db'}"


async def test_a_backup_taken_while_games_are_played_restores_every_acknowledged_move(tmp_path: Path) -> None:
    source_url = await create_database()  # PostgreSQL in the second CI run, else None: SQLite in the data folder
    target_url = await create_database() if source_url else None
    data, restored = tmp_path / "data", tmp_path / "restored"
    site = ["--database-url", source_url] if source_url else []
    server = await asyncio.to_thread(Server, data, source_url, None, bot_workers=1, **LIMITS)
    try:
        played, stop = Played(), asyncio.Event()
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            tables: list[tuple[int, Person]] = []
            for game, players in TABLES:
                who = await person(client)
                seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
                answer = await client.post("/api/tables", json={"game": game, "players": players, "seats": seats},
                                           headers=who.headers)
                assert answer.status_code == 201, answer.text
                tables.append((answer.json()["id"], who))
            players_ = [asyncio.create_task(_play(client, played, table_id, who, stop)) for table_id, who in tables]
            while len(played.acknowledged) < 10:
                await asyncio.sleep(0.01)
            before = len(played.acknowledged)
            code, out = await _spieltafel("backup", "--data", str(data), *site, str(tmp_path / "site.backup"))
            during = len(played.acknowledged) - before
            await asyncio.sleep(0.3)
            stop.set()
            await asyncio.gather(*players_)
        assert code == 0, out
        assert "Backed up the" in out and f"{len(TABLES)} tables" in out, out
        assert during > 0, "no move was acknowledged while the backup ran: it did not run while games were played"
        original = await _logs(source_url or _sqlite_url(data))
    finally:
        server.stop()
        await drop_database(source_url)

    try:
        code, out = await _spieltafel("restore", str(tmp_path / "site.backup"), "--data", str(restored),
                                      *(["--database-url", target_url] if target_url else []))
        assert code == 0, out
        assert (restored / "secret.key").read_text() == (data / "secret.key").read_text()
        again = await asyncio.to_thread(Server, restored, target_url, None, bot_workers=1, **LIMITS)
        try:
            async with httpx.AsyncClient(base_url=again.url, timeout=30) as client:
                for table_id, who in tables:  # the restored server knows the people's tokens and the tables
                    state = await client.get(f"/api/tables/{table_id}/state", headers=who.headers)
                    assert state.status_code == 200, state.text
                    acknowledged = [seq for t, seq, _ in played.acknowledged[:before] if t == table_id]
                    assert state.json()["seq"] >= max(acknowledged, default=-1) + 1, table_id
            logs = await _logs(target_url or _sqlite_url(restored))
        finally:
            again.stop()
    finally:
        await drop_database(target_url)
    for table_id, seq, action in played.acknowledged[:before]:
        assert logs[table_id][seq][1] == action, f"acknowledged move {seq} of table {table_id} lost"
    for table_id, log in logs.items():  # one consistent moment: each restored log is a prefix of the original
        assert log == original[table_id][:len(log)], table_id
    print(f"\nbackup while {during} moves were acknowledged; {before} acknowledged before it all restored "
          f"({sum(map(len, logs.values()))} moves in {len(logs)} tables)")


runner = CliRunner()


def _sqlite_site(data: Path) -> None:
    data.mkdir()
    with sqlite3.connect(data / "spieltafel.db") as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        connection.execute("INSERT INTO alembic_version VALUES ('0010')")
        connection.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY)")
        connection.execute("INSERT INTO moves DEFAULT VALUES")
    (data / "secret.key").write_text("the key\n")


def test_the_refusals_are_clear_and_change_nothing(tmp_path: Path) -> None:
    _sqlite_site(tmp_path / "site")
    out = tmp_path / "b.backup"
    done = runner.invoke(cli, ["backup", "--data", str(tmp_path / "site"), str(out)])
    assert done.exit_code == 0, done.output
    assert "sqlite site at schema 0010 (1 moves)" in done.output
    assert out.stat().st_mode & 0o077 == 0  # it holds the secret key and the password hashes

    def refused(arguments: list[str], message: str) -> None:
        done = runner.invoke(cli, arguments)
        assert done.exit_code == 1 and message in done.output, done.output

    refused(["backup", "--data", str(tmp_path / "site"), str(out)], "exists already: give a new file name")
    refused(["backup", "--data", str(tmp_path / "none"), str(tmp_path / "c.backup")], "no SQLite database at")
    assert not (tmp_path / "c.backup").exists() and not (tmp_path / "none").exists()
    refused(["restore", str(out), "--data", str(tmp_path / "site")], "exists already: restore into a new data folder")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "secret.key").write_text("another key\n")
    refused(["restore", str(out), "--data", str(tmp_path / "other")], "exists with another key")
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == ["secret.key"]
    refused(["restore", str(tmp_path / "site" / "secret.key"), "--data", str(tmp_path / "x")],
            "is not a Spieltafel backup (not a gzipped tar file)")
    refused(["restore", str(out), "--data", str(tmp_path / "x"),
             "--database-url", "postgresql+asyncpg://nobody@127.0.0.1:1/none"],
            "is a backup of a sqlite site and restores only into one (--data DIR)")
    newer = tmp_path / "newer.backup"
    with tarfile.open(out, "r:gz") as old, tarfile.open(newer, "w:gz") as new:
        for member in old.getmembers():
            data = old.extractfile(member).read()  # type: ignore[union-attr]
            if member.name == "manifest.json":
                data = json.dumps({**json.loads(data), "revision": "9999"}).encode()
                member.size = len(data)
            new.addfile(member, io.BytesIO(data))
    refused(["restore", str(newer), "--data", str(tmp_path / "x")], "holds schema 9999, which this Spieltafel does not")
    assert not (tmp_path / "x").exists()

    done = runner.invoke(cli, ["restore", str(out), "--data", str(tmp_path / "x")])
    assert done.exit_code == 0, done.output
    with sqlite3.connect(tmp_path / "x" / "spieltafel.db") as connection:
        assert connection.execute("SELECT count(*) FROM moves").fetchone()[0] == 1
    assert (tmp_path / "x" / "secret.key").read_text() == "the key\n"
