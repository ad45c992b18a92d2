"""The WebSocket ``/ws/tables/{id}``: state messages on connect and after every change, moves in.

Client → server: ``{"type": "move", "seq", "action"}``, ``{"type": "undo", "seq"}`` (take back the seat's latest
move, :mod:`spieltafel.server.tables.undo`), ``{"type": "state"}`` (send the state again) or
``{"type": "chat", "text"}``. Server → client: ``{"type": "state", ...}`` (the fields of GET state),
``{"type": "chat", "messages": [...]}`` (with ``?chat=1`` on the URL: what this reader may read, all of it
on connect, then each new message) and, to the sender only, ``{"type": "error", "code", "message"}``.
A refusal changes nothing and the connection stays open, except past the message limit (``ratelimit``:
100 messages in 20 s by default): then the socket is closed with 1008.

Sockets follow the account: when the session or token a socket signed in with ends (sign-out, a revoked
token, a password change; in any server process of the site, through the accounts' hub), the socket gets
an error ``signed-out`` and is closed with 4401. A message on a socket whose credential has ended is
refused the same way, also when the hub's word was lost: each socket checks its credential again before
acting when its account's sign-ins changed, and at least every ``CREDENTIAL_LEASE`` seconds."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import time
from typing import Annotated, Any, Literal, cast

import anyio
import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from spieltafel.core.gestures import MAX_STEPS, one_of
from spieltafel.server.accounts.auth import credential_of
from spieltafel.server.accounts.service import Account, Credential
from spieltafel.server.errors import NotFound, ServiceError
from spieltafel.server.privacy import CLOSE_NO_TABLE, visible_table
from spieltafel.server.ratelimit import RateLimits
from spieltafel.server.services import services_of
from spieltafel.server.settings import MAX_MESSAGE_BYTES
from spieltafel.server.tables.live import StateContext
from spieltafel.server.tasks import CLOSE_SECONDS, cancel_and_wait

router = APIRouter()
log = logging.getLogger("spieltafel.server")
CLOSE_POLICY = 1008
CLOSE_SIGNED_OUT = 4401
"""The socket's session or token has ended: the client shows "signed out" and does not reconnect."""
CREDENTIAL_LEASE = 30.0
"""Seconds a socket acts on its credential without asking the database again (unless its account's
sign-ins changed meanwhile): the bound on a sign-out whose word through the hub was lost."""
RECHECK_SECONDS = 1.0
"""The wait before a socket looks at its credential again when the database did not answer."""


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text. orjson (a state message is encoded for every seat after every
    move: the standard library's encoder was 7% of a loaded server's time, docs/performance.md); what
    orjson refuses (an integer beyond 64 bits) goes through the standard library instead."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


class MoveMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["move"]
    seq: StrictInt = Field(ge=0)
    action: StrictInt | Annotated[StrictStr, Field(max_length=200)] | None = None
    actions: Annotated[list[StrictInt | Annotated[StrictStr, Field(max_length=200)]], Field(
        min_length=1, max_length=MAX_STEPS)] | None = None
    """A gesture: several actions in a row, all or none (spieltafel.core.gestures)."""

    @model_validator(mode="after")
    def one_of(self) -> MoveMessage:
        one_of(self.action, self.actions)
        return self

    def played(self) -> int | str | list[int | str]:
        return self.actions if self.actions is not None else cast("int | str", self.action)


class UndoMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["undo"]
    seq: StrictInt = Field(ge=0)
    steps: StrictInt = Field(default=1, ge=1, le=MAX_STEPS)
    """How many of the latest moves (a gesture's steps) to take back, all or none."""


class StateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["state"]


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: StrictStr


class Connection:
    """One client watching one table."""

    def __init__(self, socket: WebSocket, table_id: int, account: Account | None, game: str,
                 credential: Credential | None = None) -> None:
        self.socket = socket
        self.table_id = table_id
        self.account = account
        self.credential = credential if account is not None else None
        self.checked_at = time.monotonic()
        self.sign_ins: asyncio.Queue[int] | None = None
        """Word that the account's sessions or tokens changed (``AccountService.sign_ins_changed``)."""
        self.signed_out = False
        self.heard, self.checked = 1, 0
        """Words heard through ``sign_ins`` (the first: the subscription itself, which comes after the
        handshake's look, so a sign-in that ended between the two is seen: one look more per socket), and
        how many of them the last look at the credential covers."""
        self.game = game
        self.services = services_of(socket)
        self.sending = asyncio.Lock()
        self.chat_seen = 0
        self.rate: RateLimits = self.services.rate
        self.window = self.rate.local_window("ws_messages")

    async def send_state(self, known_seq: int | None = None) -> None:
        state = await self.services.tables.state_for(self.table_id, self.account, known_seq=known_seq)
        payload: dict[str, Any] = {"type": "state", **state}
        context = StateContext(self.game, state["seat"], self.account, dict(self.socket.query_params))
        for decorate in getattr(self.socket.app.state, "state_decorators", []):
            try:
                outcome = decorate(payload, context)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:  # a decoration is extra: the state goes out without it
                log.exception("state decorator %r failed", decorate)
        async with self.sending:
            await self.socket.send_text(encode(payload))

    async def send_chat(self, first: bool = False) -> None:
        """The chat messages this reader may read and has not had yet (on connect: all, even none)."""
        messages = await self.services.chat.history(self.table_id, self.account, after=self.chat_seen)
        if not messages and not first:
            return
        if messages:
            self.chat_seen = messages[-1]["id"]
        async with self.sending:
            await self.socket.send_text(encode({"type": "chat", "messages": messages}))

    async def watch_chat(self, queue: asyncio.Queue[int]) -> None:
        while True:
            await queue.get()
            while not queue.empty():
                queue.get_nowait()
            await self.send_chat()

    async def send_error(self, code: str, message: str) -> None:
        async with self.sending:
            await self.socket.send_text(encode({"type": "error", "code": code, "message": message}))

    async def watch(self, queue: asyncio.Queue[int]) -> None:
        """Send the state whenever the table changes (several changes at once: one message)."""
        while True:
            seq = await queue.get()
            while not queue.empty():
                seq = max(seq, queue.get_nowait())
            await self.send_state(known_seq=seq)

    async def follow_sign_in(self, queue: asyncio.Queue[int]) -> None:
        """End the socket once its credential has ended (the account's sign-ins changed: maybe not this one);
        a first look at once, for what ended between the handshake and the subscription."""
        while True:
            if self.heard == self.checked:
                await queue.get()
                self.heard += 1
            while not queue.empty():
                queue.get_nowait()
            try:
                valid = await self.credential_valid()
            except SQLAlchemyError as error:  # unchecked: a message meanwhile checks for itself
                log.warning("the sign-in of a socket at table %s was not checked: %s", self.table_id, error)
                await asyncio.sleep(RECHECK_SECONDS)
                continue
            if not valid:
                await self.sign_out()
                return

    async def still_signed_in(self) -> bool:
        """Whether the socket may act as its account: cheap (no database) unless the account's sign-ins
        changed since the last look or the look is older than ``CREDENTIAL_LEASE``."""
        if self.credential is None or self.signed_out:
            return not self.signed_out
        changed = self.heard != self.checked or (self.sign_ins is not None and not self.sign_ins.empty())
        if changed or time.monotonic() - self.checked_at > CREDENTIAL_LEASE:
            return await self.credential_valid()
        return True

    async def credential_valid(self) -> bool:
        """Ask the database whether the socket's session or token still signs in its account."""
        if self.credential is None or self.account is None:
            return True
        heard, started = self.heard, time.monotonic()
        behind = await self.services.accounts.by_credential(self.credential)
        self.checked, self.checked_at = heard, started
        self.signed_out = self.signed_out or behind is None or behind.id != self.account.id
        return not self.signed_out

    async def sign_out(self) -> None:
        """Tell the client its sign-in has ended and close the socket with ``CLOSE_SIGNED_OUT``."""
        self.signed_out = True
        await self.send_error("signed-out", "your sign-in ended (signed out, password changed or token revoked)")
        await self.socket.close(code=CLOSE_SIGNED_OUT, reason="signed out")

    async def listen(self) -> None:
        while True:
            message = await self.socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not self.window.allowed():
                await self.send_error("rate-limited", "too many messages: this connection is closed; reconnect later")
                await self.socket.close(code=CLOSE_POLICY)
                return
            try:
                signed_in = await self.still_signed_in()
            except SQLAlchemyError as error:
                log.warning("the sign-in of a socket at table %s was not checked: %s", self.table_id, error)
                await self.send_error("busy", "the server could not check your sign-in now; retry")
                continue
            if not signed_in:
                await self.sign_out()
                return
            await self.handle(message.get("text"), message.get("bytes"))

    async def handle(self, text: str | None, data: bytes | None) -> None:
        if text is None:
            await self.send_error("not-text", "send JSON text messages, not binary ones")
            return
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            await self.send_error("too-large", f"a message has at most {MAX_MESSAGE_BYTES} bytes")
            return
        try:
            decoded = json.loads(text)
        except ValueError as error:
            await self.send_error("malformed-json", f"not JSON: {error}")
            return
        except RecursionError:  # nested deeper than the parser goes: a subclass of RuntimeError, which
            await self.send_error("too-deep", "the message is nested too deeply")  # ends the socket below
            return
        try:
            if isinstance(decoded, dict) and decoded.get("type") == "state":
                StateRequest.model_validate(decoded)
                await self.send_state()
                return
            if isinstance(decoded, dict) and decoded.get("type") == "chat":
                await self.say(ChatMessage.model_validate(decoded).text)
                return
            if isinstance(decoded, dict) and decoded.get("type") == "undo":  # a takeback (tables.undo)
                asked = UndoMessage.model_validate(decoded)
                steps: dict[str, Any] = {"action": "undo"} if asked.steps == 1 else {"actions": ["undo"] * asked.steps}
                decoded = {"type": "move", "seq": asked.seq, **steps}
            move = MoveMessage.model_validate(decoded)
        except ValidationError as error:
            await self.send_error("invalid", _describe(error))
            return
        try:
            if self.account is not None:
                await self.rate.hit("moves", str(self.account.id), "moves")
            await self.services.tables.move(self.account, self.table_id, move.seq, move.played())
        except ServiceError as error:
            await self.send_error(error.code, error.message)
        except (SQLAlchemyError, RedisError) as error:  # e.g. no database connection free in time: the move
            log.warning("move at table %s not taken: %s", self.table_id, error)  # is not acknowledged, the
            await self.send_error("busy", "the server could not take this move now; fetch the state and retry")


    async def say(self, text: str) -> None:
        try:
            await self.services.chat.say(self.account, self.table_id, text)
        except ServiceError as error:
            await self.send_error(error.code, error.message)


def _describe(error: ValidationError) -> str:
    parts = []
    for problem in error.errors()[:3]:
        where = ".".join(str(p) for p in problem["loc"]) or "message"
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts) + (' (expected {"type": "move", "seq": <int>, "action": <int or notation>}'
                               ' or {"type": "move", "seq": <int>, "actions": [<int or notation>, ...]}'
                               ' or {"type": "undo", "seq": <int>} or {"type": "chat", "text": <text>})')


@router.websocket("/ws/tables/{table_id}")
async def table_socket(socket: WebSocket, table_id: str) -> None:
    await socket.accept()
    services = services_of(socket)
    credential = credential_of(socket)
    account = await services.accounts.by_credential(credential) if credential is not None else None
    try:
        number = await visible_table(socket, table_id)
        table = await services.tables.get(number)
    except NotFound as refusal:
        await socket.send_text(json.dumps({"type": "error", "code": refusal.code, "message": refusal.message}))
        await socket.close(code=CLOSE_NO_TABLE)
        return
    connection = Connection(socket, number, account, table["game"], credential)
    queue = services.hub.subscribe(number)
    sign_ins = services.accounts.sign_ins
    if account is not None:
        connection.sign_ins = sign_ins.subscribe(account.id)
    chat_queue = services.chat.hub.subscribe(number) if socket.query_params.get("chat") == "1" else None
    tasks: list[asyncio.Task[None]] = []
    try:
        await connection.send_state()
        tasks = [asyncio.create_task(connection.watch(queue)), asyncio.create_task(connection.listen())]
        if connection.sign_ins is not None:
            tasks.append(asyncio.create_task(connection.follow_sign_in(connection.sign_ins)))
        if chat_queue is not None:
            await connection.send_chat(first=True)
            tasks.append(asyncio.create_task(connection.watch_chat(chat_queue)))
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
    except (WebSocketDisconnect, RuntimeError):
        pass
    except NotFound as error:  # the table was removed (everybody left before the start)
        await connection.send_error(error.code, error.message)
        await socket.close(code=CLOSE_NO_TABLE)
    finally:
        services.hub.unsubscribe(number, queue)
        if account is not None and connection.sign_ins is not None:
            sign_ins.unsubscribe(account.id, connection.sign_ins)
        if chat_queue is not None:
            services.chat.hub.unsubscribe(number, chat_queue)
        await end_tasks(tasks)


async def end_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel a socket's tasks and wait until they have ended, also when the handler itself is being
    cancelled (its client gone, the server stopping). A task cancelled in the middle of a database call
    cleans up after itself (SQLAlchemy closes the interrupted connection); left running beyond the socket,
    that cleanup could still be under way when the server shuts down, be cancelled a second time and wait
    forever for the connection's thread, which the first cancellation had already stopped (aiosqlite):
    a server or test client that never finished stopping."""
    with anyio.CancelScope(shield=True):
        await cancel_and_wait(tasks, CLOSE_SECONDS)
