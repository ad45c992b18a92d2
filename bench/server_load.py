"""Load on a running ``spieltafel serve``: N concurrent tables, one WebSocket client per seat, each seat
plays a random legal action as soon as it may.

    python bench/server_load.py --url http://127.0.0.1:8000 --tables 100 --game iquazu --players 2 [--json]

Reports moves/s, move→update latency (from sending a move until the mover receives the state that
includes it) p50/p95/p99/max, and errors. With ``--expert-tables K`` it first opens K tables where only
``expert`` bots play, so that the latency of people's moves is measured while the bots think.
Seat ``i`` of every table is played by the same account ``i`` (accounts are made once per run); with
``--groups K``, K groups of accounts take the tables in turn (table ``n`` is played by group ``n % K``), so
that not every game ends with the same players' ratings to update.

Several processes: ``--url`` takes a comma-separated list; tables are made through the first, and the
seats' WebSockets are spread round robin over all (so most moves fan out across processes).
``--workload hidden-hand`` plays the boardgame.io anchor's workload (../shared/anchors/bgio/README.md):
3 seats, 40 moves a game, each seat plays the smallest card higher than the pile's top card, else its
smallest, as soon as it is its turn; the servers must run with the game registered
(``python bench/hidden_hand.py serve ...``). The run ends when every game is over (or ``--seconds``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

PASSWORD = "bench password 1"


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    first: float = 0.0
    last: float = 0.0


async def account(client: httpx.AsyncClient, number: int) -> dict[str, str]:
    """A new account's token header (its own client, for its session cookie: accounts are made in parallel)."""
    name = f"b{number}_{uuid.uuid4().hex[:8]}"
    async with httpx.AsyncClient(base_url=client.base_url, timeout=60) as own:
        (await own.post("/api/accounts", json={"name": name, "password": PASSWORD})).raise_for_status()
        (await own.post("/api/session", json={"name": name, "password": PASSWORD})).raise_for_status()
        answer = await own.post("/api/tokens")
        answer.raise_for_status()
        token = answer.json()["token"]
    return {"Authorization": f"Bearer {token}"}


async def open_table(client: httpx.AsyncClient, people: list[dict[str, str]], game: str) -> int:
    seats = [{"kind": "me"}] + [{"kind": "open"}] * (len(people) - 1)
    answer = await client.post(
        "/api/tables", json={"game": game, "players": len(people), "seats": seats}, headers=people[0]
    )
    answer.raise_for_status()
    table_id: int = answer.json()["id"]
    for seat, who in enumerate(people[1:], start=1):
        (await client.post(f"/api/tables/{table_id}/join", json={"seat": seat}, headers=who)).raise_for_status()
    return table_id


def hidden_hand_choice(message: dict[str, Any]) -> int:
    """The anchor's driver policy: the smallest card higher than the pile's top card, else the smallest."""
    hand: list[int] = message["view"]["hand"]
    pile: list[int] = message["view"]["pile"]
    top = pile[-1] if pile else 0
    higher = [card for card in hand if card > top]
    return hand.index(min(higher) if higher else min(hand))


@dataclass
class Start:
    """As in the anchor's driver: seats connect 64 at a time, and play starts when all have their state."""

    seats: int
    seconds: float
    connecting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(64))
    connected: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    started: float = 0.0
    stop: float = 0.0
    pids: tuple[int, ...] = ()
    cpu_at_start: dict[str, float] = field(default_factory=dict)

    def arrived(self) -> None:
        self.connected += 1
        if self.connected == self.seats:
            # The driver's own heap (3,000 sockets and their tasks) made Python's cyclic collector cost it
            # ~8 s of CPU and pauses of up to 0.3 s a run, counted in the servers' latencies: what exists
            # now is frozen and the passes are made rarer (the servers do the same: server.app.tune_collector).
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 20, 100)
            self.started = time.monotonic()
            self.stop = self.started + self.seconds
            self.go.set()
            self.cpu_at_start = cpu_probe(self.pids)
            print(f"play starts: {self.seats} seats connected", file=sys.stderr, flush=True)


async def seat_client(url: str, headers: dict[str, str], start: Start, totals: Totals, rng: random.Random,
                      workload: str = "random") -> None:
    """One seat: play a legal action whenever the state allows, until the game ends or time is up."""
    try:
        await _play_seat(url, headers, start, totals, rng, workload)
    except (OSError, websockets.ConnectionClosed, TimeoutError) as error:
        totals.errors.append(f"connection: {type(error).__name__}")
        if not start.go.is_set():
            start.arrived()


async def _play_seat(url: str, headers: dict[str, str], start: Start, totals: Totals, rng: random.Random,
                     workload: str) -> None:
    async with start.connecting:
        socket = await websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=60)
        first: str | bytes = await asyncio.wait_for(socket.recv(), 60)
    start.arrived()
    await start.go.wait()
    async with socket:
        try:  # one deadline for the whole game (a wait_for per message made a task and a timer per message)
            async with asyncio.timeout_at(start.stop):
                await _play_messages(socket, first, totals, rng, workload)
        except TimeoutError:
            return


async def _play_messages(socket: Any, first: str | bytes, totals: Totals, rng: random.Random, workload: str) -> None:
    sent: tuple[int, float] | None = None
    raw: str | bytes | None = first
    while True:
        if raw is None:
            raw = await socket.recv()
        message: dict[str, Any] = orjson.loads(raw)
        raw = None
        if message["type"] == "error":
            if message["code"] == "stale":
                totals.stale += 1
            else:
                totals.errors.append(message["code"])
            sent = None
            await socket.send('{"type":"state"}')
            continue
        if sent is not None and message["seq"] > sent[0]:
            totals.latencies.append(time.perf_counter() - sent[1])
            totals.moves += 1
            totals.last = time.monotonic()
            sent = None
        if message["result"] is not None:
            totals.finished += 1
            return
        if message["legal"] and sent is None:
            if workload == "hidden-hand":
                choice = hidden_hand_choice(message)
            else:
                choice = rng.choice(message["legal"])["action"]
            sent = (message["seq"], time.perf_counter())
            totals.first = totals.first or time.monotonic()
            await socket.send(orjson.dumps({"type": "move", "seq": message["seq"], "action": choice}).decode())


async def expert_tables(client: httpx.AsyncClient, host: dict[str, str], game: str, players: int, count: int) -> None:
    seats = [{"kind": "bot", "bot": "expert"}] * players
    for _ in range(count):
        body = {"game": game, "players": players, "seats": seats}
        (await client.post("/api/tables", json=body, headers=host)).raise_for_status()


def cpu_probe(pids: tuple[int, ...]) -> dict[str, float]:
    """CPU seconds so far: of ``pids`` (the servers and workers, utime+stime from /proc), of this driver,
    and of the whole machine (busy ticks of /proc/stat), as the anchor's driver measures them."""
    tick = os.sysconf("SC_CLK_TCK")
    probe = {"wall": time.monotonic(), "driver": time.process_time(), "servers": 0.0, "machine": float("nan")}
    for pid in pids:
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
            probe["servers"] += (int(fields[11]) + int(fields[12])) / tick
    with contextlib.suppress(OSError), open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in stat.readline().split()[1:8])
        probe["machine"] = (user + nice + system + irq + softirq) / tick
    return probe


def cpu_between(start: dict[str, float], end: dict[str, float]) -> dict[str, float]:
    """% of one core (100 = one core; the machine has ``os.cpu_count()`` of them) over the play phase;
    "other" is the rest of the machine (other tenants, and PostgreSQL and Redis)."""
    wall = max(end["wall"] - start["wall"], 1e-6)
    servers, driver = end["servers"] - start["servers"], end["driver"] - start["driver"]
    other = end["machine"] - start["machine"] - servers - driver
    return {"servers_cpu_pct": round(100 * servers / wall, 1), "driver_cpu_pct": round(100 * driver / wall, 1),
            "other_cpu_pct": round(100 * max(0.0, other) / wall, 1), "servers_cpu_s": round(servers, 2)}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=50)
    urls = args.url.split(",")
    async with httpx.AsyncClient(base_url=urls[0], timeout=60, limits=limits) as client:
        made = asyncio.Semaphore(8)

        async def member(number: int) -> dict[str, str]:
            async with made:
                return await account(client, number)

        numbers = [seat for _ in range(args.groups) for seat in range(args.players)]
        made_accounts = await asyncio.gather(*(member(number) for number in numbers))
        groups = [made_accounts[start:start + args.players] for start in range(0, len(numbers), args.players)]
        people = groups[0]
        if args.expert_tables:
            await expert_tables(client, people[0], args.game, args.players, args.expert_tables)
        semaphore = asyncio.Semaphore(20)

        async def limited(players: list[dict[str, str]]) -> int:
            async with semaphore:
                return await open_table(client, players, args.game)

        tables = await asyncio.gather(*(limited(groups[number % args.groups]) for number in range(args.tables)))
    totals = Totals()
    ws_bases = [url.replace("http", "ws", 1) for url in urls]
    rng = random.Random(args.seed)
    pids = tuple(int(pid) for pid in args.pids.split(",") if pid)
    start = Start(len(tables) * len(people), args.seconds, pids=pids)
    await asyncio.gather(*(
        seat_client(f"{ws_bases[(number + seat) % len(urls)]}/ws/tables/{table_id}", who, start, totals,
                    random.Random(rng.random()), args.workload)
        for number, table_id in enumerate(tables) for seat, who in enumerate(groups[number % args.groups])
    ))
    cpu = cpu_between(start.cpu_at_start, cpu_probe(pids)) if start.cpu_at_start else {}
    if cpu and totals.moves:
        cpu["servers_cpu_ms_per_move"] = round(1000 * cpu["servers_cpu_s"] / totals.moves, 2)
    elapsed = max((totals.last or time.monotonic()) - (totals.first or start.started), 1e-6)  # first move → last ack
    ms = [1000 * value for value in totals.latencies]
    return {
        "url": args.url, "game": args.game, "players": args.players, "tables": args.tables,
        "expert_tables": args.expert_tables, "seconds": round(elapsed, 1), "moves": totals.moves,
        "moves_per_s": round(totals.moves / elapsed, 1), "games_finished": totals.finished,
        "latency_ms": {
            "p50": round(statistics.median(ms), 1) if ms else None, "p95": round(percentile(ms, 0.95), 1),
            "p99": round(percentile(ms, 0.99), 1), "max": round(max(ms), 1) if ms else None,
        },
        "stale_refusals": totals.stale, "errors": len(totals.errors), "error_codes": sorted(set(totals.errors)),
        "play_cpu": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--game", default="iquazu")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the seats play")
    parser.add_argument("--expert-tables", type=int, default=0, help="bot-only tables of 'expert' bots first")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--groups", type=int, default=1, help="groups of accounts taking the tables in turn "
                        "(default 1: the same players at every table)")
    parser.add_argument("--workload", choices=("random", "hidden-hand"), default="random",
                        help="hidden-hand: the boardgame.io anchor's game and driver policy (sets --game, --players)")
    parser.add_argument("--pids", default="", help="comma-separated pids of the servers (and workers): their CPU "
                        "over the play phase is reported, with the driver's and the rest of the machine's")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.workload == "hidden-hand":
        args.game, args.players = "hidden-hand", 3
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    latency = figures["latency_ms"]
    print(
        f"{figures['tables']} tables of {figures['game']} ({figures['players']} players), "
        f"{figures['expert_tables']} expert-bot tables, {figures['seconds']} s: {figures['moves']} moves, "
        f"{figures['moves_per_s']} moves/s, {figures['games_finished']} seat-ends of games; move→update ms "
        f"p50 {latency['p50']} p95 {latency['p95']} p99 {latency['p99']} max {latency['max']}; "
        f"stale {figures['stale_refusals']}, errors {figures['errors']} {figures['error_codes']}"
        + (f"; play CPU % of a core {figures['play_cpu']}" if figures["play_cpu"] else "")
    )


if __name__ == "__main__":
    main()
