"""The server's logs: one JSON object per line when ``SPIELTAFEL_LOG_FORMAT=json``, plain text otherwise.

Every HTTP request (and every WebSocket, when it closes) ends in one line of the ``spieltafel.requests``
logger with the request's id (the client's ``X-Request-ID`` when it is a plain token of at most 64 characters,
else a new one; sent back in the response's ``X-Request-ID``), the method, the **route** (the path's template,
``/api/tables/{table_id}/moves``: never the path itself, whose query or invitation code may be a secret), the
status, the duration in milliseconds and the signed-in account's id. Nothing else of a request is logged: no
header, cookie, query, body or answer, so no password, token, session, secret card or seed can reach a log
through it. uvicorn's own access log (which prints paths with their queries) is replaced by these lines.

``spieltafel serve`` and ``spieltafel worker`` configure the logging (:func:`log_config`); with JSON every line,
uvicorn's and ours, is an object with ``time``, ``level``, ``logger`` and ``message`` (and ``error``, a
traceback, when there is one) plus the request's fields. In JSON mode the request lines are always written
(INFO); in text mode from ``--log-level info`` on.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LogFormat = Literal["text", "json"]
REQUEST_FIELDS = ("request_id", "method", "route", "status", "duration_ms", "account")
"""The fields a request line carries, and the only ones taken from a log record's ``extra``."""
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
requests_log = logging.getLogger("spieltafel.requests")


@dataclass
class RequestInfo:
    """What is known of the request being served (``current``): filled in while it runs."""

    request_id: str
    account: int | None = None


current: ContextVar[RequestInfo | None] = ContextVar("spieltafel_request", default=None)


def note_account(account_id: int | None) -> None:
    """Remember who the current request is (called where a request's credential is resolved)."""
    info = current.get()
    if info is not None and account_id is not None:
        info.account = account_id


def route_of(scope: Scope) -> str:
    """The template of the route that served ``scope`` (``unmatched`` when none did)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


class RequestLog:
    """ASGI middleware: a request id for each HTTP request or WebSocket, and one log line when it ends (a
    socket's when it closes, with status 101 when it was accepted)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", ())).get(b"x-request-id", b"").decode("latin-1")
        info = RequestInfo(given if REQUEST_ID.match(given) else uuid.uuid4().hex)
        token = current.set(info)
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind in ("http.response.start", "websocket.http.response.start"):
                status = int(message["status"])
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", info.request_id.encode())]
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status != 101:
                status = 403  # closed before the handshake was accepted: the server refused it
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            current.reset(token)
            route = route_of(scope)
            method = scope.get("method", "WEBSOCKET")
            requests_log.info(
                "%s %s %d %.1f ms", method, route, status, seconds * 1000,
                extra={"request_id": info.request_id, "method": method, "route": route,
                       "status": status, "duration_ms": round(seconds * 1000, 2), "account": info.account},
            )


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message``, the request's fields when the
    record has them (or the id of the request being served), and ``error`` with the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in REQUEST_FIELDS:
            if name in record.__dict__:
                entry[name] = record.__dict__[name]
        info = current.get()
        if info is not None and "request_id" not in entry:
            entry["request_id"] = info.request_id
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Plain lines; a request's line ends with its id and account."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        if "request_id" in record.__dict__:
            account = record.__dict__.get("account")
            line += f" [request {record.__dict__['request_id']}" + (f", account {account}]" if account else "]")
        return line


def log_config(log_format: LogFormat, level: str = "warning") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for a server or worker process (uvicorn's ``log_config``): uvicorn's
    and Spieltafel's loggers to standard error in ``log_format``, uvicorn's access log replaced by the
    request lines of :class:`RequestLog`."""
    formatter = "json" if log_format == "json" else "text"
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": "spieltafel.server.ops.logs.JsonFormatter"},
            "text": {"()": "spieltafel.server.ops.logs.TextFormatter"},
        },
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": formatter,
                                "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "spieltafel": {"handlers": ["stderr"], "level": level, "propagate": False},
            "spieltafel.requests": {"level": "INFO" if log_format == "json" else level},
        },
    }


def configure(log_format: LogFormat, level: str = "warning") -> None:
    """Configure this process's logging as :func:`log_config` says (``spieltafel worker``)."""
    import logging.config

    logging.config.dictConfig(log_config(log_format, level))
