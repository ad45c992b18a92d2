"""Moves while post-game analyses run (issue 27): the usual move load with K analyses running in the bot
workers at the same time, K = 0, 1, 2, 4 … interleaved in one run, side by side.

    python bench/analysis_load.py --ks 0,2,0,2,0,1,0,4 --seconds 40 [--json OUT.json]

It starts ``spieltafel serve`` (SQLite in a temporary data folder, ``--bot-workers`` processes, the
interpreter and ``PYTHONPATH`` of this process: run it with the build to measure), and first makes
``--finished`` finished games of ``--analysis-game`` between random bots (the analyses' material: a game
between bots is analysed for every seat). Then, per phase (one K each), it starts the server again on the
same data (a running analysis dies with the server: no phase inherits another's) with
``SPIELTAFEL_ANALYSIS_AT_ONCE=K``, starts K analyses at once (POST /api/tables/ID/analysis; one that ends is
followed by the next, so K run all the time) and plays for ``--seconds``:

- ``--people-tables`` tables of two people (``--game``, random legal moves, each after ``--think`` seconds);
  *person move*: from sending a move until the mover receives the state that includes it;
- ``--bot-tables`` tables of one person against a ``--bot-level`` bot; *bot move*: from the state that
  acknowledges the person's move (the bot to act) until the state that includes the bot's move (the bot's job
  waits for a free worker, thinks, and its move is applied and sent).

A table whose game ends is followed by a new one. Reported per phase: the load average (``/proc/loadavg``)
at its start, moves/s, p50/p95/p99/max of both latencies, and the analyses' progress (decisions analysed in
the phase per second, from the ``done`` counts of GET /api/tables/ID/analysis, which move after each part).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import account


def serve(data: Path, port: int, workers: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``spieltafel serve`` with this interpreter (and PYTHONPATH), waiting until it answers."""
    limits = '{"moves": "10000000/minute", "tables": "1000000/minute", "accounts": "1000/minute"}'
    full = dict(os.environ, SPIELTAFEL_RATE_LIMITS=limits, SPIELTAFEL_SECRET_KEY="analysis-load", **env)
    process = subprocess.Popen(
        [sys.executable, "-m", "spieltafel.cli", "serve", "--port", str(port), "--data", str(data),
         "--bot-workers", str(workers)],
        env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return process
        if process.poll() is not None:
            raise RuntimeError(f"spieltafel serve ended with {process.returncode}")
        time.sleep(0.3)
    process.kill()
    raise RuntimeError("spieltafel serve did not answer")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


async def finished_games(
    client: httpx.AsyncClient, host: dict[str, str], game: str, players: int, count: int
) -> list[int]:
    """``count`` games between random bots, played to their end."""
    seats = [{"kind": "bot", "bot": "random"}] * players
    tables = []
    for _ in range(count):
        answer = await client.post("/api/tables", json={"game": game, "players": players, "seats": seats},
                                   headers=host)
        answer.raise_for_status()
        tables.append(answer.json()["id"])
    waiting = set(tables)
    deadline = time.monotonic() + 60 * 30
    while waiting and time.monotonic() < deadline:
        for table in list(waiting):
            if (await client.get(f"/api/tables/{table}", headers=host)).json()["status"] == "over":
                waiting.discard(table)
        await asyncio.sleep(1)
    if waiting:
        raise RuntimeError(f"{len(waiting)} bot games did not end")
    return tables


@dataclass
class Figures:
    person_ms: list[float] = field(default_factory=list)
    bot_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0


async def play_table(url: str, socket_url: str, headers: dict[str, str], figures: Figures, rng: random.Random,
                     think: float, until: float, measure: str) -> None:
    """One seat at one table, until its game ends or time is up. ``measure``: ``person`` (move → its
    acknowledgement) or ``bot`` (the acknowledgement, the bot to act → the bot's move)."""
    async with websockets.connect(socket_url, additional_headers=headers, max_size=2**22, open_timeout=60) as socket:
        sent: tuple[int, float] | None = None
        waiting: tuple[int, float] | None = None  # the bot's turn since (seq, time)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(until):
                while True:
                    message = orjson.loads(await socket.recv())
                    now = time.perf_counter()
                    if message["type"] == "error":
                        if message["code"] != "stale":
                            figures.errors.append(message["code"])
                        sent = None
                        await socket.send('{"type":"state"}')
                        continue
                    if message["type"] != "state":
                        continue
                    seq = message["seq"]
                    if waiting is not None and seq > waiting[0]:
                        figures.bot_ms.append(1000 * (now - waiting[1]))
                        waiting = None
                    if sent is not None and seq > sent[0]:
                        if measure == "person":
                            figures.person_ms.append(1000 * (now - sent[1]))
                        elif not message["legal"] and message["result"] is None:
                            waiting = (seq, now)
                        sent = None
                    if message["result"] is not None:
                        figures.games += 1
                        return
                    if message["legal"] and sent is None:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        choice = rng.choice(message["legal"])["action"]
                        sent = (seq, time.perf_counter())
                        await socket.send(orjson.dumps({"type": "move", "seq": seq, "action": choice}).decode())


async def people_table_loop(client: httpx.AsyncClient, url: str, people: list[dict[str, str]], args: argparse.Namespace,
                            figures: Figures, rng: random.Random, until: float) -> None:
    """Tables of two people one after another (a new one when a game ends) until ``until``."""
    while time.monotonic() < until - 1:
        seats = [{"kind": "me"}, {"kind": "open"}]
        answer = await client.post("/api/tables", json={"game": args.game, "players": 2, "seats": seats},
                                   headers=people[0])
        answer.raise_for_status()
        table = answer.json()["id"]
        (await client.post(f"/api/tables/{table}/join", json={"seat": 1}, headers=people[1])).raise_for_status()
        socket = url.replace("http", "ws", 1) + f"/ws/tables/{table}"
        await asyncio.gather(*(
            play_table(url, socket, who, figures, random.Random(rng.random()), args.think, until, "person")
            for who in people
        ))


async def bot_table_loop(client: httpx.AsyncClient, url: str, person: dict[str, str], args: argparse.Namespace,
                         figures: Figures, rng: random.Random, until: float) -> None:
    """Tables of a person against a bot one after another until ``until``."""
    while time.monotonic() < until - 1:
        seats = [{"kind": "me"}, {"kind": "bot", "bot": args.bot_level}]
        answer = await client.post("/api/tables", json={"game": args.game, "players": 2, "seats": seats},
                                   headers=person)
        answer.raise_for_status()
        socket = url.replace("http", "ws", 1) + f"/ws/tables/{answer.json()['id']}"
        await play_table(url, socket, person, figures, random.Random(rng.random()), args.think, until, "bot")


@dataclass
class Analyses:
    """K analyses kept running: the tables in work, the decisions seen done, the ones finished."""

    pool: list[int]
    running: dict[int, int] = field(default_factory=dict)
    done_in_window: int = 0
    finished: int = 0
    seconds_each: list[float] = field(default_factory=list)


async def start_analysis(client: httpx.AsyncClient, host: dict[str, str], state: Analyses) -> None:
    table = state.pool.pop(0)
    answer = await client.post(f"/api/tables/{table}/analysis", headers=host)
    answer.raise_for_status()
    state.running[table] = answer.json()["done"]


async def keep_analysing(client: httpx.AsyncClient, host: dict[str, str], state: Analyses, k: int,
                         window: tuple[float, float]) -> None:
    """Poll the running analyses every second; count the decisions done inside ``window``; start the next
    table's analysis when one ends."""
    while time.monotonic() < window[1]:
        await asyncio.sleep(1.0)
        inside = window[0] <= time.monotonic() <= window[1]
        for table, seen in list(state.running.items()):
            status = (await client.get(f"/api/tables/{table}/analysis", headers=host)).json()
            if inside:
                state.done_in_window += status["done"] - seen
            state.running[table] = status["done"]
            if status["status"] == "done":
                state.finished += 1
                state.seconds_each.append(status["analysis"]["seconds"])
                del state.running[table]
        while len(state.running) < k and state.pool:
            await start_analysis(client, host, state)


def summary(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)

    return {"n": len(values), "p50": round(statistics.median(values), 1), "p95": at(0.95), "p99": at(0.99),
            "max": round(ordered[-1], 1)}


async def phase(url: str, k: int, accounts: dict[str, Any], pool: list[int], args: argparse.Namespace,
                seed: int) -> dict[str, Any]:
    load_average = Path("/proc/loadavg").read_text().split()[:3]
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        # the workers are started (and have imported the games) before anything is measured: a game between
        # random bots to its end
        warm = [{"kind": "bot", "bot": "random"}] * 2
        answer = await client.post("/api/tables", json={"game": args.game, "players": 2, "seats": warm},
                                   headers=accounts["host"])
        answer.raise_for_status()
        while (await client.get(f"/api/tables/{answer.json()['id']}")).json()["status"] != "over":
            await asyncio.sleep(0.5)
        state = Analyses(pool)
        for _ in range(k):
            await start_analysis(client, accounts["host"], state)
        await asyncio.sleep(args.warm)  # the first parts are in the workers
        begin = time.monotonic()
        until = begin + args.seconds
        figures = Figures()
        rng = random.Random(seed)
        tasks = [keep_analysing(client, accounts["host"], state, k, (begin, until))]
        tasks += [people_table_loop(client, url, pair, args, figures, random.Random(rng.random()), until)
                  for pair in accounts["pairs"]]
        tasks += [bot_table_loop(client, url, person, args, figures, random.Random(rng.random()), until)
                  for person in accounts["solo"]]
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - begin
    moves = len(figures.person_ms) + len(figures.bot_ms)
    return {
        "k": k, "load_average": " ".join(load_average), "seconds": round(elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1), "games": figures.games,
        "person_move_ms": summary(figures.person_ms), "bot_move_ms": summary(figures.bot_ms),
        "analysis_decisions_per_s": round(state.done_in_window / elapsed, 2),
        "analyses_finished": state.finished, "analysis_seconds": state.seconds_each,
        "errors": len(figures.errors), "error_codes": sorted(set(figures.errors)),
    }


async def setup(url: str, args: argparse.Namespace) -> tuple[dict[str, Any], list[int]]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        host = await account(client, 0)
        pairs = [[await account(client, 2 * n + 1), await account(client, 2 * n + 2)]
                 for n in range(args.people_tables)]
        solo = [await account(client, 100 + n) for n in range(args.bot_tables)]
        pool = await finished_games(client, host, args.analysis_game, args.analysis_players, args.finished)
    return {"host": host, "pairs": pairs, "solo": solo}, pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ks", default="0,2,0,2,0,1,0,4", help="the phases' K (analyses at once), in order")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long each phase plays")
    parser.add_argument("--warm", type=float, default=3.0, help="seconds between starting the analyses and play")
    parser.add_argument("--game", default="iquazu", help="the game of the move load (2 players)")
    parser.add_argument("--people-tables", type=int, default=6, help="tables of two people at a time")
    parser.add_argument("--bot-tables", type=int, default=6, help="tables of a person against a bot at a time")
    parser.add_argument("--bot-level", default="easy")
    parser.add_argument("--think", type=float, default=0.3, help="a person's mean time before a move (s)")
    parser.add_argument("--analysis-game", default="haleakala")
    parser.add_argument("--analysis-players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=1000, help="the site's analysis budget per decision")
    parser.add_argument("--finished", type=int, default=0, help="finished games made first (default: enough)")
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=18330)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the phases' figures here too")
    args = parser.parse_args()
    ks = [int(k) for k in args.ks.split(",")]
    args.finished = args.finished or 2 * sum(ks) + 2
    data = Path(tempfile.mkdtemp(prefix="analysis-load-"))
    url = f"http://127.0.0.1:{args.port}"
    env = {"SPIELTAFEL_ANALYSIS_ITERATIONS": str(args.iterations)}
    results = []
    try:
        process = serve(data, args.port, args.bot_workers, env)
        try:
            accounts, pool = asyncio.run(setup(url, args))
        finally:
            stop(process)
        print(f"{len(pool)} finished {args.analysis_game} games to analyse", file=sys.stderr, flush=True)
        for number, k in enumerate(ks):
            process = serve(data, args.port, args.bot_workers, env | {"SPIELTAFEL_ANALYSIS_AT_ONCE": str(max(k, 1))})
            try:
                figures = asyncio.run(phase(url, k, accounts, pool, args, args.seed + number))
            finally:
                stop(process)
            results.append(figures)
            person, bot = figures["person_move_ms"], figures["bot_move_ms"]
            print(f"K={k} load {figures['load_average']}: {figures['moves_per_s']} moves/s; person move ms p50 "
                  f"{person['p50']} p99 {person['p99']} (n {person['n']}); bot move ms p50 {bot['p50']} p99 "
                  f"{bot['p99']} max {bot['max']} (n {bot['n']}); analysis {figures['analysis_decisions_per_s']} "
                  f"decisions/s; errors {figures['errors']} {figures['error_codes']}", flush=True)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "phases": results},
                                        indent=1))


if __name__ == "__main__":
    main()
