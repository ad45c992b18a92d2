"""Shared pieces of the server tests: unique names, people with tokens, a player loop, and the check
that every state a seat received holds exactly that seat's view (compared with the engine's replay)."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from spieltafel.core import Event, GameRecord, State, get_game

PASSWORD = "correct horse battery"


RATED_WITHIN = 30.0
"""Seconds a finished game's ratings may take: they are made after the last move's commit, and a game a
bot ends is over for its readers a moment before its ratings are (``TableService.finish``)."""


def by_player(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Leaderboard entries by player: a person's or program's name, a bot as ``bot:<level>``."""
    return {("bot:" if e["kind"] == "bot" else "") + e["name"]: e for e in entries}


def rated(get: Callable[[str], Any], game: str, ready: Callable[[dict[str, dict[str, Any]]], bool]
          ) -> dict[str, dict[str, Any]]:
    """The leaderboard of ``game`` :func:`by_player` once ``ready`` holds for it."""
    deadline = time.monotonic() + RATED_WITHIN
    while True:
        board = by_player(get(f"/api/leaderboards/{game}").json())
        if ready(board) or time.monotonic() > deadline:
            return board
        time.sleep(0.02)


async def rated_async(client: httpx.AsyncClient, game: str, ready: Callable[[dict[str, dict[str, Any]]], bool]
                      ) -> dict[str, dict[str, Any]]:
    """:func:`rated` through an async client."""
    deadline = time.monotonic() + RATED_WITHIN
    while True:
        board = by_player((await client.get(f"/api/leaderboards/{game}")).json())
        if ready(board) or time.monotonic() > deadline:
            return board
        await asyncio.sleep(0.02)


def unique_name(prefix: str = "p") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


@dataclass
class Person:
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def person(client: httpx.AsyncClient, prefix: str = "p") -> Person:
    """A new account with a personal token (the client's cookies are left empty)."""
    name = unique_name(prefix)
    created = await client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert created.status_code == 201, created.text
    signed_in = await client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert signed_in.status_code == 200, signed_in.text
    token = await client.post("/api/tokens")
    assert token.status_code == 201, token.text
    client.cookies.clear()
    return Person(name, token.json()["token"])


@dataclass
class Seen:
    """Every state message a seat received: (seat, payload)."""

    states: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)

    def add(self, payload: dict[str, Any]) -> None:
        self.states.append((payload["seat"], payload))


async def play_http(
    client: httpx.AsyncClient, table_id: int, people: list[Person], seen: Seen, rng: random.Random,
    pause: Callable[[], Awaitable[None]] | None = None, max_polls: int = 200_000,
) -> dict[str, Any]:
    """Play the people's seats with random legal actions over HTTP until the game is over."""
    for _ in range(max_polls):
        moved = False
        for who in people:
            state = (await client.get(f"/api/tables/{table_id}/state", headers=who.headers)).json()
            seen.add(state)
            if state["result"] is not None:
                return state
            if state["legal"]:
                choice = rng.choice(state["legal"])
                action = choice["action"] if rng.random() < 0.5 else choice["notation"]
                answer = await client.post(
                    f"/api/tables/{table_id}/moves", json={"seq": state["seq"], "action": action}, headers=who.headers
                )
                assert answer.status_code in (200, 409), answer.text  # 409: a bot or another seat came first
                moved = True
        if not moved:
            await (pause() if pause else asyncio.sleep(0.005))
    raise AssertionError(f"table {table_id} did not finish")


def replay_states(record: GameRecord) -> tuple[list[State], list[list[Event]]]:
    """The state before every move and after the last, and the events of each move."""
    state = get_game(record.game).new_state(record.players, record.seed, record.options)
    states, events = [state.clone()], []
    for recorded in record.actions:
        events.append(state.apply(recorded.seat, recorded.action))
        states.append(state.clone())
    return states, events


def check_views(record: GameRecord, seen: Seen) -> int:
    """Each state message must hold the engine's view, legal actions and events for its seat only."""
    states, events = replay_states(record)
    flat = [(seq + 1, event) for seq, happened in enumerate(events) for event in happened]
    checked = 0
    for seat, payload in seen.states:
        seq = payload["seq"]
        truth = states[seq]
        if payload["view"] is None:
            continue
        assert payload["view"] == _json(truth.view(seat)), f"seat {seat} at seq {seq}: view differs"
        legal = truth.legal_actions(seat) if seat is not None and seat in truth.seats_to_act() else []
        assert [item["action"] for item in payload["legal"]] == legal
        upto = [(n, event) for n, event in flat if n <= seq]
        expected = [{"seq": n, **event.view(seat)} for n, event in upto[-len(payload["events"]):]]
        if payload["events"]:
            assert _json(expected) == payload["events"], f"seat {seat} at seq {seq}: events differ"
        checked += 1
    return checked


def _json(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value))
