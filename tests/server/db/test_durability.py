"""Durability (issue 13): people and bots play while ``kill -9`` hits server A, server B or the worker at
random moments, 20 times (each killed process is started again at once). Afterwards every move any
client saw acknowledged is in the log, every table's log replays in the engine, the WebSocket watchers
(reconnecting whenever their server died) reach the final state, and the games go on, bots included.
Runs on the run's database: SQLite, or PostgreSQL in the second CI run."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select

from spieltafel.core import get_game
from spieltafel.server.db import Database, MoveRow, TableRow

from ..backing import drop_site_database, reachable_redis, redis_keys, site_database
from ..helpers import Person, person
from ..processes import Process, Server, Worker

pytestmark = pytest.mark.anyio
KILLS = 20
GAMES = (("iquazu", 3), ("haleakala", 3))
MOVES_AFTER = 6
SECRET = {"SPIELTAFEL_SECRET_KEY": "durability-test-secret", "SPIELTAFEL_RATE_LIMITS": '{"moves": "100000/minute"}'}


@dataclass
class Cluster:
    """Servers ``a`` and ``b`` and a ``worker``; a killed one is started again at once."""

    data: Path
    database_url: str
    redis_url: str
    prefix: str
    processes: dict[str, Process] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    kills: list[str] = field(default_factory=list)
    _starting: set[asyncio.Task[None]] = field(default_factory=set)
    _killed: set[Process] = field(default_factory=set)
    """Processes killed on purpose: one killed while it was still starting is not a failed start."""

    def _spawn(self, name: str) -> Process:
        if name == "worker":
            return Worker(self.data, self.database_url, self.redis_url, self.prefix, wait=False, **SECRET)
        return Server(self.data, self.database_url, self.redis_url, self.prefix, bot_workers=0, wait=False, **SECRET)

    async def start(self, name: str) -> None:
        process = self.processes[name] = self._spawn(name)
        await self._ready(name, process)

    async def _ready(self, name: str, process: Process) -> None:
        try:
            await asyncio.to_thread(process.wait_until_ready)
        except AssertionError:
            if process not in self._killed:
                raise
            return  # killed while starting (and started again): its start failing is what was asked for
        if isinstance(process, Server) and self.processes.get(name) is process:
            self.urls[name] = process.url

    async def kill_and_restart(self, name: str) -> None:
        self.urls.pop(name, None)
        self._killed.add(self.processes[name])  # before the kill: its start may be seen failing at once
        await asyncio.to_thread(self.processes[name].kill)
        self.kills.append(name)
        process = self.processes[name] = self._spawn(name)
        task = asyncio.create_task(self._ready(name, process))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def all_up(self) -> None:
        while self._starting:
            await asyncio.gather(*self._starting)

    async def any_url(self) -> str:
        while not self.urls:
            await asyncio.sleep(0.05)
        return random.choice(list(self.urls.values()))

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()


@dataclass
class Log:
    acknowledged: list[tuple[int, int, int]] = field(default_factory=list)  # (table, seq, action)
    refused: int = 0
    transport_errors: int = 0
    reconnects: int = 0
    last_seen: dict[int, int] = field(default_factory=dict)


async def _request(cluster: Cluster, log: Log, method: str, path: str, who: Person, **kwargs: Any) -> httpx.Response:
    """One request to any live server, again on another when the server dies under it."""
    while True:
        try:
            async with httpx.AsyncClient(base_url=await cluster.any_url(), timeout=20) as client:
                return await client.request(method, path, headers=who.headers, **kwargs)
        except httpx.TransportError:
            log.transport_errors += 1
            await asyncio.sleep(0.05)


async def play(cluster: Cluster, log: Log, table_id: int, who: Person, stop: asyncio.Event, rng: random.Random) -> int:
    """Random legal moves until the game ends or ``stop`` is set and ``MOVES_AFTER`` more were acknowledged."""
    after = 0
    while after < MOVES_AFTER or not stop.is_set():
        state = (await _request(cluster, log, "GET", f"/api/tables/{table_id}/state", who)).json()
        if state["result"] is not None:
            return after
        if not state["legal"]:
            await asyncio.sleep(0.02)
            continue
        action = rng.choice(state["legal"])["action"]
        answer = await _request(cluster, log, "POST", f"/api/tables/{table_id}/moves", who,
                                json={"seq": state["seq"], "action": action})
        if answer.status_code == 200:
            log.acknowledged.append((table_id, state["seq"], action))
            after += stop.is_set()
        else:
            assert answer.status_code == 409, answer.text
            log.refused += 1
    return after


async def watch(cluster: Cluster, log: Log, table_id: int, done: asyncio.Event) -> None:
    """A WebSocket watcher of the table that reconnects to a live server whenever its server dies."""
    while not done.is_set():
        url = (await cluster.any_url()).replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        try:
            async with websockets.connect(url, open_timeout=10) as socket:
                while True:
                    message = json.loads(await socket.recv())
                    if message["type"] == "state":
                        log.last_seen[table_id] = message["seq"]
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, TimeoutError):
            log.reconnects += 1
            await asyncio.sleep(0.05)


async def test_kill_9_servers_and_worker_at_random_moments(tmp_path: Path) -> None:
    redis_url = await reachable_redis()
    url = await site_database(tmp_path)
    async with redis_keys(redis_url) as prefix:
        cluster = Cluster(tmp_path / "data", url, redis_url, prefix)
        try:
            await asyncio.gather(*(cluster.start(name) for name in ("a", "b", "worker")))
            await _durability(cluster, random.Random(13))
        finally:
            cluster.stop()
            await drop_site_database(url)


async def _durability(cluster: Cluster, rng: random.Random) -> None:
    log, stop, done = Log(), asyncio.Event(), asyncio.Event()
    tables: list[tuple[int, Person]] = []
    async with httpx.AsyncClient(base_url=cluster.urls["a"], timeout=30) as client:
        for game, count in GAMES:
            for _ in range(count):
                who = await person(client)
                seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
                answer = await client.post("/api/tables", json={"game": game, "players": 2, "seats": seats},
                                           headers=who.headers)
                tables.append((answer.json()["id"], who))
    watchers = [asyncio.create_task(watch(cluster, log, table_id, done)) for table_id, _ in tables]
    players = [asyncio.create_task(play(cluster, log, table_id, who, stop, random.Random(table_id)))
               for table_id, who in tables]
    for _ in range(KILLS):
        await asyncio.sleep(rng.uniform(0.2, 1.0))
        await cluster.kill_and_restart(rng.choice(["a", "b", "worker"]))
    await cluster.all_up()
    logged_at_last_kill = await _log_lengths(cluster.database_url)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*players), 180)
    await _quiet(cluster.database_url)
    final = await _check_logs(cluster.database_url, log)
    await _watchers_reach(log, final)
    done.set()
    for task in watchers:
        task.cancel()
    for table_id, _ in tables:  # the games went on after the kills (or ended), bots included
        assert final[table_id][0] > logged_at_last_kill.get(table_id, 0) or final[table_id][1] == "over", table_id
    assert len(cluster.kills) == KILLS and {"a", "b", "worker"} <= set(cluster.kills)
    print(f"\n{KILLS} kills ({', '.join(cluster.kills)}): {len(log.acknowledged)} acknowledged moves all in the "
          f"log, {log.refused} refused as stale, {log.transport_errors} requests retried on another server, "
          f"{log.reconnects} WebSocket reconnects; every log replays")


async def _quiet(database_url: str) -> None:
    """Wait until the bots have answered the people's last moves (the log stops growing)."""
    before = await _log_lengths(database_url)
    for _ in range(60):
        await asyncio.sleep(1.0)
        now = await _log_lengths(database_url)
        if now == before:
            return
        before = now
    raise AssertionError("the log kept growing after the people stopped")


async def _log_lengths(database_url: str) -> dict[int, int]:
    db = Database(database_url)
    try:
        async with db.session() as session:
            rows = (await session.execute(select(MoveRow.table_id, MoveRow.seq))).all()
    finally:
        await db.close()
    lengths: dict[int, int] = {}
    for table_id, seq in rows:
        lengths[table_id] = max(lengths.get(table_id, 0), seq + 1)
    return lengths


async def _check_logs(database_url: str, log: Log) -> dict[int, tuple[int, str]]:
    """Every acknowledged move is in the log; every log replays. Returns each table's (seq, status)."""
    db = Database(database_url)
    final: dict[int, tuple[int, str]] = {}
    try:
        async with db.session() as session:
            for table in (await session.execute(select(TableRow))).scalars():
                moves = (await session.execute(
                    select(MoveRow.seq, MoveRow.seat, MoveRow.action).where(MoveRow.table_id == table.id)
                    .order_by(MoveRow.seq)
                )).all()
                assert [seq for seq, _, _ in moves] == list(range(len(moves))), f"table {table.id}: gaps"
                state = get_game(table.game).new_state(table.players, table.seed, table.options)
                for _, seat, action in moves:
                    state.apply(seat, action)  # raises if the log does not replay
                assert state.is_over == (table.status == "over"), f"table {table.id}"
                final[table.id] = (len(moves), table.status)
                logged = {seq: action for seq, _, action in moves}
                for table_id, seq, action in log.acknowledged:
                    if table_id == table.id:
                        assert logged.get(seq) == action, f"acknowledged move {seq} of table {table_id} lost"
    finally:
        await db.close()
    return final


async def _watchers_reach(log: Log, final: dict[int, tuple[int, str]]) -> None:
    for _ in range(200):
        if all(log.last_seen.get(table_id) == seq for table_id, (seq, _) in final.items()):
            return
        await asyncio.sleep(0.05)
    behind = {t: (log.last_seen.get(t), seq) for t, (seq, _) in final.items() if log.last_seen.get(t) != seq}
    raise AssertionError(f"watchers behind the log (seen, logged): {behind}")
