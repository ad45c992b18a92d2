"""``spieltafel connect``: a Spieltafel bot, or a Python callable, plays one seat of a table on a server.

It uses nothing but the public API and WebSocket of docs/protocol.md, with the account's personal token:
it takes a seat (``POST /api/tables/{id}/join``) unless the account sits there already, then plays every
state that offers it legal actions until the game is over. A player gets what a bot gets in the engine,
an :class:`~spieltafel.bots.Observation` of its seat: the legal actions, the view, and samples of the
seat's information set (one determinisation from ``GET /api/tables/{id}/sample`` per decision, when the
player asks for one, redrawn locally with ``determinise``: it depends only on the seat's view).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer

from spieltafel.bots import Observation, make_bot
from spieltafel.console import user_errors
from spieltafel.core import Game, Rng, SpieltafelError, State, get_game
from spieltafel.core.undo import UNDO

Player = Callable[[Observation], "int | Sequence[int]"]
"""A program: an action index, or a list of indices played in a row, all or none (a gesture, docs/protocol.md)."""
"""Anything that takes an observation and returns one of ``observation.legal`` (or, when
``observation.undo`` is above 0, :data:`~spieltafel.core.undo.UNDO` to take back its latest move)."""

MAX_REFUSALS = 5
RECONNECTS = 5


class ConnectError(SpieltafelError):
    """The server refused something or could not be reached; the message says what."""


def load_player(spec: str) -> Player:
    """``module:function`` or ``path/to/file.py:function``: the callable that chooses the moves."""
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise ConnectError(f"--player takes MODULE:FUNCTION or FILE.py:FUNCTION, not {spec!r}")
    if where.endswith(".py"):
        path = Path(where)
        loader = importlib.util.spec_from_file_location(path.stem, path)
        if not path.is_file() or loader is None or loader.loader is None:
            raise ConnectError(f"no Python file {where!r}")
        module = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise ConnectError(f"cannot import {where!r}: {error}") from error
    player = getattr(module, name, None)
    if not callable(player):
        raise ConnectError(f"{where!r} has no callable {name!r}")
    chosen: Player = player
    return chosen


class Server:
    """The HTTP side of one server, as one account (Bearer token)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            answer = self.http.request(method, path, json=body)
        except httpx.HTTPError as error:
            raise ConnectError(f"cannot reach {self.url}: {error}") from error
        if answer.status_code >= 400:
            try:
                detail = answer.json()["detail"]
                reason = f"{detail['code']}: {detail['message']}"
            except (ValueError, KeyError, TypeError):
                reason = answer.text[:200]
            raise ConnectError(f"{method} {path} refused ({answer.status_code} {reason})")
        return answer.json() if answer.content else None

    def socket_url(self, table_id: int) -> str:
        return "ws" + self.url.removeprefix("http") + f"/ws/tables/{table_id}"


def take_seat(server: Server, table_id: int, seat: int | None) -> tuple[int, str, str]:
    """(seat, account name, game) at the table: the account's seat, or one it joins now."""
    name = server.call("GET", "/api/session")["name"]
    table = server.call("GET", f"/api/tables/{table_id}")
    mine = [s["seat"] for s in table["seats"] if s["name"] == name]
    if mine:
        return mine[0], name, table["game"]
    if table["status"] != "open":
        raise ConnectError(f"{name} does not sit at table {table_id}, and it has started ({table['status']})")
    joined = server.call("POST", f"/api/tables/{table_id}/join", {"seat": seat} if seat is not None else None)
    return int(joined["seat"]), name, table["game"]


def observe(server: Server, table_id: int, game: Game, message: dict[str, Any]) -> Observation:
    """The observation of a state message: legal actions, view, and samples drawn on demand."""
    seat = int(message["seat"])
    drawn: list[State] = []

    def sample(rng: Rng) -> State:
        if not drawn:
            document = server.call("GET", f"/api/tables/{table_id}/sample")["state"]
            drawn.append(game.state_from_json(document))
        return drawn[0].determinise(seat, rng)

    legal = [int(item["action"]) for item in message["legal"]]
    return Observation(seat, legal, lambda: message["view"], sample, int(message.get("undo", 0)))


def play(
    server: Server, table_id: int, player: Player, seat: int | None = None, say: Callable[[str], None] = print
) -> dict[str, Any]:
    """Play the seat to the end of the game; returns the result ``{"scores", "winners"}``."""
    import websockets
    from websockets.sync.client import connect

    number, name, game_name = take_seat(server, table_id, seat)
    game = get_game(game_name)
    say(f"{name} plays seat {number} of table {table_id} ({game.title})")
    headers = {"Authorization": f"Bearer {server.token}"}
    failures = 0
    while True:
        moves: list[int] = []
        try:
            with connect(server.socket_url(table_id), additional_headers=headers, open_timeout=30) as socket:
                return _play_socket(socket, server, table_id, game, player, say, moves)
        except (OSError, websockets.exceptions.ConnectionClosedError) as error:
            failures = 1 if moves else failures + 1  # a connection that played counts as a fresh start
            if failures > RECONNECTS:
                raise ConnectError(f"the connection to {server.url} failed: {error}") from error
            say(f"connection lost ({error}); reconnecting")
            time.sleep(min(10.0, 0.5 * 2**failures))


def _play_socket(
    socket: Any, server: Server, table_id: int, game: Game, player: Player, say: Callable[[str], None],
    moves: list[int],
) -> dict[str, Any]:
    """Play over one connection; ``moves`` collects the seqs played on it."""
    played: int | None = None
    seen: int | None = None
    refusals = 0
    for text in socket:
        message = json.loads(text)
        if message.get("type") == "error":
            refusals += 1
            say(f"refused: {message.get('code')}: {message.get('message')}")
            if message.get("code") == "no-table" or refusals > MAX_REFUSALS:
                raise ConnectError(f"giving up at table {table_id}: {message.get('message')}")
            played = None
            socket.send(json.dumps({"type": "state"}))
            continue
        if message.get("type") != "state":
            continue
        if message["seq"] != seen:  # the game moved on: earlier refusals are forgiven
            refusals, seen = 0, message["seq"]
        if message["result"] is not None:
            result: dict[str, Any] = message["result"]
            return result
        if message["legal"] and message["seq"] != played:
            action = player(observe(server, table_id, game, message))
            if action == UNDO:  # a program takes back its latest move (docs/protocol.md)
                socket.send(json.dumps({"type": "undo", "seq": message["seq"]}))
                played = message["seq"]
                say(f"seq {message['seq']}: undo")
                continue
            if isinstance(action, (list, tuple)):  # several steps in a row, all or none (a gesture)
                socket.send(json.dumps({"type": "move", "seq": message["seq"], "actions": [int(a) for a in action]}))
                played = message["seq"]
                moves.append(played)
                say(f"seq {message['seq']}: {len(action)} steps")
                continue
            notation = next((i["notation"] for i in message["legal"] if i["action"] == action), str(action))
            socket.send(json.dumps({"type": "move", "seq": message["seq"], "action": action}))
            played = message["seq"]
            moves.append(played)
            say(f"seq {message['seq']}: {notation}")
    raise ConnectError(f"the server closed the connection to table {table_id}")


def connect_command(
    url: Annotated[str, typer.Argument(help="the server, e.g. http://127.0.0.1:8000")],
    token: Annotated[str, typer.Option(envvar="SPIELTAFEL_TOKEN", help="the account's personal token (stt_...)")],
    table: Annotated[int, typer.Option(help="the table's id")],
    bot: Annotated[
        str | None, typer.Option(help="a Spieltafel bot: random, greedy, easy, medium, hard, expert")
    ] = None,
    player: Annotated[
        str | None, typer.Option(help="a Python callable instead of a bot: MODULE:FUNCTION or FILE.py:FUNCTION")
    ] = None,
    seat: Annotated[
        int | None, typer.Option(help="the seat to take at an open table [default: the first free]")
    ] = None,
    seed: Annotated[int, typer.Option(help="the bot's random seed")] = 0,
) -> None:
    """Play a seat of a table on a server with a bot or your own program, until the game is over."""
    if (bot is None) == (player is None):
        raise typer.BadParameter("give exactly one of --bot and --player")
    with user_errors():
        chooser: Player = make_bot(bot, seed).choose if bot is not None else load_player(str(player))
        result = play(Server(url, token), table, chooser, seat)
    print(f"game over: scores {result['scores']}, winners {result['winners']}")
