"""The no-leak audit (issue 12): whole games through a real ``spieltafel serve``, every seat and two
spectators (one signed in, one anonymous) on the WebSocket, and everything else a running game shows
recorded too: the state over HTTP for every seat and spectator, the table, the lobby listing, the chat,
the table page, the history page, the record and replay requests (refused until the end) and the
refusals of wrong moves (over the socket and over HTTP). Then each is checked against the engine:

- every state payload (socket or HTTP) must be exactly the engine's ``view(seat)``, legal actions and
  events for its seat at its ``seq`` (so nothing more: no other hand, face-down tile, deck order, hidden
  Niagara choice, seed or full state);
- the board of every table page must be exactly the board drawn from the engine's view of that seat;
- every other answer must contain none of the secrets of its reader: the table's seed, the random
  generator's state at any point of the game, and the JSON of any part of the full state that does not
  appear in the reader's view.

Moves are random legal ones, sent by the seats themselves; the seats pause while the observer looks, so
every observation belongs to a running game at a known ``seq``. ``python bench/no_leak.py`` runs the
audit at scale (300 games); the test runs a few games of every title and player count.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from spieltafel.core import GameRecord, State

from .helpers import PASSWORD, Seen, check_views, replay_states
from .processes import Server

BENCH_PLAN = "iquazu:2=80,iquazu:3=80,iquazu:4=80,haleakala:2=51,niagara:3=3,niagara:4=3,niagara:5=3"
"""300 games of every title and player count. Random players take 1,500 to 4,000 moves for a game of Niagara
(they rarely reach a goal: the round limit ends it) against about 100 for Iquazú, so Niagara has fewer games."""
GENEROUS = json.dumps({name: "1000000/minute" for name in (
    "sign_in_name", "sign_in_address", "accounts", "tables", "moves", "ws_messages")})
LOOK_EVERY = {"iquazu": 30, "haleakala": 100, "niagara": 500}
"""The observer looks at everything every this many moves (and at the start): three to five times a game."""
OPTIONS = {"niagara": {"round-limit": "100"}}
"""Random players rarely reach Niagara's goals: its safety round limit ends their games (at 100 rounds)."""
MIN_SECRET = 16


@dataclass
class Observed:
    """What one game showed while it ran: state payloads, table pages and every other answer."""

    states: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    pages: list[tuple[int | None, str]] = field(default_factory=list)
    texts: list[tuple[int | None, int, str, str]] = field(default_factory=list)
    """(reader's seat, the game's seq when it was shown, what, the answer's text)"""
    socket_messages: int = 0


@dataclass
class Tally:
    games: int = 0
    socket_messages: int = 0
    states_checked: int = 0
    pages_checked: int = 0
    texts_checked: int = 0
    leaks: list[str] = field(default_factory=list)
    by_config: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.socket_messages += other.socket_messages
        self.states_checked += other.states_checked
        self.pages_checked += other.pages_checked
        self.texts_checked += other.texts_checked
        self.leaks += other.leaks
        for config, count in other.by_config.items():
            self.by_config[config] = self.by_config.get(config, 0) + count


@dataclass
class People:
    seats: list[dict[str, str]]
    watcher: dict[str, str]


async def make_people(http: httpx.AsyncClient, count: int) -> People:
    tokens = []
    for _ in range(count + 1):
        name = f"lk{uuid.uuid4().hex[:10]}"
        (await http.post("/api/accounts", json={"name": name, "password": PASSWORD})).raise_for_status()
        (await http.post("/api/session", json={"name": name, "password": PASSWORD})).raise_for_status()
        tokens.append({"Authorization": f"Bearer {(await http.post('/api/tokens')).json()['token']}"})
        http.cookies.clear()
    return People(tokens[:count], tokens[count])


class Game:
    """One table played to the end by its seats while an observer records what it shows."""

    def __init__(self, url: str, http: httpx.AsyncClient, people: People, game: str, players: int, seed: int):
        self.url, self.http, self.game, self.players = url, http, game, players
        self.seats = people.seats[:players]
        self.watcher = people.watcher
        self.rng = random.Random(seed)
        self.seen = Observed()
        self.world = asyncio.Lock()
        self.moves = 0
        self.table = 0
        self.over = asyncio.Event()
        self.seq = 0

    async def play(self) -> tuple[int, Observed]:
        seats = [{"kind": "me"}] + [{"kind": "open"}] * (self.players - 1)
        answer = await self.http.post(
            "/api/tables", headers=self.seats[0],
            json={"game": self.game, "players": self.players, "seats": seats, "options": OPTIONS.get(self.game, {})},
        )
        answer.raise_for_status()
        self.table = answer.json()["id"]
        for seat, who in enumerate(self.seats[1:], start=1):
            joined = await self.http.post(f"/api/tables/{self.table}/join", json={"seat": seat}, headers=who)
            joined.raise_for_status()
        await self.look()
        watchers = [self.watch(self.watcher), self.watch({})]
        await asyncio.gather(*(self.seat(n, who) for n, who in enumerate(self.seats)), *watchers)
        return self.table, self.seen

    def _connect(self, headers: dict[str, str]) -> Any:
        url = self.url.replace("http://", "ws://") + f"/ws/tables/{self.table}"
        return websockets.connect(url, additional_headers=headers, max_size=2**22, ping_interval=None)

    async def watch(self, headers: dict[str, str]) -> None:
        async with self._connect(headers) as socket:
            while not self.over.is_set():
                try:
                    text = await asyncio.wait_for(socket.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                self._record_socket(str(text))

    async def seat(self, number: int, headers: dict[str, str]) -> None:
        async with self._connect(headers) as socket:
            while True:
                message = self._record_socket(str(await socket.recv()))
                if message["type"] != "state":
                    continue
                if message["result"] is not None:
                    self.over.set()
                    return
                if message["legal"]:
                    await self._move(socket, message)

    async def _move(self, socket: Any, state: dict[str, Any]) -> None:
        async with self.world:
            if self.rng.random() < 0.05:  # a wrong move now and then: its refusal is recorded too
                await socket.send(json.dumps({"type": "move", "seq": state["seq"], "action": "no such move"}))
            choice = self.rng.choice(state["legal"])["action"]
            await socket.send(json.dumps({"type": "move", "seq": state["seq"], "action": choice}))
            self.moves += 1
        if self.moves % LOOK_EVERY[self.game] == 0:
            await self.look()

    def _record_socket(self, text: str) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(text)
        self.seen.socket_messages += 1
        if message["type"] == "state":
            self.seen.states.append((message["seat"], message))
            self.seq = max(self.seq, message["seq"])
        else:  # a refusal, to the seat that sent it; checked against what a spectator may not see
            self.seen.texts.append((None, self.seq, "socket " + message["type"], text))
        return message

    async def look(self) -> None:
        """Everything a running game shows, to every seat and to spectators, while no seat moves."""
        async with self.world:
            await asyncio.sleep(0.05)  # let the server finish what the last move started
            state = (await self.http.get(f"/api/tables/{self.table}/state")).json()
            if state["result"] is not None:
                return
            readers: list[tuple[int | None, dict[str, str]]] = [(None, {}), (None, self.watcher)]
            readers += list(enumerate(self.seats))
            for seat, headers in readers:
                await self._look_as(seat, headers)

    async def _look_as(self, seat: int | None, headers: dict[str, str]) -> None:
        base = f"/api/tables/{self.table}"
        payload = (await self.http.get(f"{base}/state", headers=headers)).json()
        self.seen.states.append((payload["seat"], payload))
        page = await self.http.get(f"/tables/{self.table}", headers=headers)
        self.seen.pages.append((seat, page.text))
        for path in (base, f"{base}/record", f"{base}/chat", "/api/tables?status=playing", "/",
                     f"/tables/{self.table}/history", f"/tables/{self.table}/replay",
                     f"/tables/{self.table}/record.json"):
            answer = await self.http.get(path, headers=headers)
            self.seen.texts.append((seat, payload["seq"], f"GET {path} {answer.status_code}", answer.text))
        wrong = await self.http.post(f"{base}/moves", json={"seq": payload["seq"], "action": 10**6}, headers=headers)
        self.seen.texts.append((seat, payload["seq"], f"POST {base}/moves {wrong.status_code}", wrong.text))


def _dumps(value: Any) -> set[str]:
    return {json.dumps(value), json.dumps(value, separators=(",", ":"))}


def secrets_of(full: dict[str, Any], view: dict[str, Any], seed: int) -> set[str]:
    """What the reader of ``view`` must not see: the seed, the random state, and the JSON of every part of
    the full state that is not in the view."""
    shown = json.dumps(view) + json.dumps(view, separators=(",", ":"))
    found = {str(seed)}
    if len(str(full.get("rng", ""))) >= 6:
        found.add(str(full["rng"]))
    for key, value in full.items():
        if key in ("seed", "rng"):
            continue
        found |= {text for text in _dumps(value) if len(text) >= MIN_SECRET and text not in shown}
    return found


def _page_seq(page: str) -> int | None:
    match = re.search(r'&#34;seq&#34;: (\d+)|"seq": (\d+)', page)
    return int(match.group(1) or match.group(2)) if match else None


def check_game(record: GameRecord, seen: Observed) -> Tally:
    """Check what one game showed against the engine's replay of its record."""
    from spieltafel.server.tables.payload import gestures_of
    from spieltafel.server.web import board, i18n

    tally = Tally(games=1, socket_messages=seen.socket_messages, by_config={f"{record.game}:{record.players}": 1})
    states, _ = replay_states(record)
    try:
        tally.states_checked = check_views(record, Seen(list(seen.states)))
    except AssertionError as error:
        tally.leaks.append(f"{record.game} state payload: {error}")
    secrets = Secrets(states, record.seed)
    gettext = i18n.gettext_for("en")
    for seat, page in seen.pages:
        seq = _page_seq(page)
        if seq is None:
            tally.leaks.append(f"{record.game} page for seat {seat}: no seq in the page")
            continue
        truth = states[seq]
        acting = seat is not None and seat in truth.seats_to_act()
        pairs = [(a, truth.action_text(seat, a)) for a in truth.legal_actions(seat)] if acting else []
        gestures = gestures_of(record.game, truth, seat) if acting and seat is not None else []
        marks = board.gesture_marks(record.game, gestures, gettext)  # from the seat's own legal actions
        expected = board.render_board(record.game, truth.view(seat), seat, pairs, gettext, marks)
        if expected not in page:
            tally.leaks.append(f"{record.game} page for seat {seat} at seq {seq}: the board is not the view's")
        tally.pages_checked += 1
        _check_text(tally, record.game, f"page seat {seat}", page, secrets.of(seat, seq))
    for seat, seq, what, text in seen.texts:
        _check_text(tally, record.game, what, text, secrets.of(seat, seq))
    return tally


class Secrets:
    """What each reader must not see at each ``seq`` of a game (computed when first asked)."""

    def __init__(self, states: list[State], seed: int) -> None:
        self.states, self.seed = states, seed
        self.known: dict[tuple[int | None, int], set[str]] = {}

    def of(self, reader: int | None, seq: int) -> set[str]:
        key = (reader, seq)
        if key not in self.known:
            state = self.states[seq]
            self.known[key] = secrets_of(state.to_json(), state.view(reader), self.seed)
        return self.known[key]


def _check_text(tally: Tally, game: str, what: str, text: str, secrets: Iterable[str]) -> None:
    tally.texts_checked += 1
    for secret in secrets:
        if secret in text:
            tally.leaks.append(f"{game} {what}: shows {secret[:60]!r}")
            return


def parse_plan(plan: str) -> list[tuple[str, int]]:
    """``"iquazu:2=80,niagara:3=3"`` -> 80 games of Iquazú for 2, then 3 of Niagara for 3 (interleaved)."""
    counts = []
    for part in plan.split(","):
        config, _, count = part.partition("=")
        game, _, players = config.partition(":")
        counts.append([game.strip(), int(players), int(count)])
    games: list[tuple[str, int]] = []
    while any(count for *_, count in counts):
        for entry in counts:
            if entry[2]:
                games.append((str(entry[0]), int(entry[1])))
                entry[2] -= 1
    return games


async def audit(
    url: str, plan: list[tuple[str, int]], concurrency: int, seed: int = 0, seconds: float | None = None
) -> Tally:
    """The games of ``plan``, ``concurrency`` at a time; with ``seconds``, no new game starts after that time
    and games still running a minute later are left out (only finished games are counted and checked)."""
    deadline = time.monotonic() + seconds if seconds else float("inf")
    tally = Tally()
    # uvicorn closes an idle connection after 5 s, httpx keeps one for 5 s: a request sent on a connection the
    # server is closing at that moment fails with "Server disconnected". Reuse a connection only while it is fresh.
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        pool = [await make_people(http, 5) for _ in range(concurrency)]
        queue: asyncio.Queue[tuple[int, str, int]] = asyncio.Queue()
        for number, (game, players) in enumerate(plan):
            queue.put_nowait((number, game, players))

        async def worker(people: People) -> None:
            while not queue.empty() and time.monotonic() < deadline:
                number, game, players = queue.get_nowait()
                table, seen = await Game(url, http, people, game, players, seed * 100_003 + number).play()
                record = GameRecord.model_validate((await http.get(f"/api/tables/{table}/record")).json())
                tally.add(await asyncio.get_running_loop().run_in_executor(checkers, check_game, record, seen))
                if tally.games % 10 == 0:
                    print(f"{tally.games} games, {tally.socket_messages} socket messages, "
                          f"{len(tally.leaks)} leaks", file=sys.stderr, flush=True)

        with ProcessPoolExecutor(1) as checkers:  # checks off this loop: the sockets keep answering pings
            running = asyncio.gather(*(worker(people) for people in pool))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(running, None if seconds is None else seconds + 60)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description="No-leak audit over whole games through a real server")
    parser.add_argument("--plan", default=BENCH_PLAN, help="game:players=count,... (default: 300 games)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=None, help="start no game after this; report what finished")
    arguments = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="spieltafel-leak-")) / "data"
    server = Server(data, SPIELTAFEL_RATE_LIMITS=GENEROUS)
    started = time.monotonic()
    try:
        plan = parse_plan(arguments.plan)
        tally = asyncio.run(audit(server.url, plan, arguments.concurrency, arguments.seed, arguments.seconds))
    except BaseException:
        server.stop()
        print("the audit stopped; the server's last output:", *server.output[-40:], sep="\n", file=sys.stderr)
        raise
    server.stop()
    seconds = time.monotonic() - started
    errors = server.errors()
    print(json.dumps({
        "plan": arguments.plan,
        "games": tally.games,
        "games_by_config": tally.by_config,
        "socket_messages": tally.socket_messages, "states_checked": tally.states_checked,
        "pages_checked": tally.pages_checked, "other_answers_checked": tally.texts_checked,
        "leaks": len(tally.leaks), "server_errors": len(errors), "seconds": round(seconds, 1),
    }, indent=2))
    for leak in tally.leaks[:20]:
        print("LEAK", leak)
    for line in errors[:20]:
        print("SERVER", line.rstrip())
