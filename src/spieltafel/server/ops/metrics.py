"""Metrics in the Prometheus text format at ``GET /metrics`` (prometheus-client), off unless
``SPIELTAFEL_METRICS=true``, and then answered only to the addresses in ``SPIELTAFEL_METRICS_ALLOW_IPS``
(``127.0.0.1,::1`` by default; everyone else gets the same 404 as when it is off).

Several processes: prometheus-client's multiprocess mode. Every process that has
``PROMETHEUS_MULTIPROC_DIR`` in its environment (set before it starts) writes its values into files there, and
``/metrics`` of any of them adds up all the files: the server processes and the ``spieltafel worker``s of one
machine share the folder (empty it before the site starts). ``spieltafel serve --workers N`` makes a fresh
folder for its processes when none is given. The metrics (docs/deploy.md explains each):

- ``spieltafel_moves_total{game,mover}`` and ``spieltafel_move_seconds{game}``: moves committed by this site
  and how long each took from its check to its commit and publication (a histogram);
- ``spieltafel_bot_think_seconds{game}`` (histogram) and ``spieltafel_bot_queue_depth`` (jobs waiting);
- ``spieltafel_open_sockets`` (WebSockets open now), ``spieltafel_tables{status}`` (tables by status);
- ``spieltafel_emails_total{outcome}`` (``sent`` or ``failed``);
- ``spieltafel_db_pool_connections{state}`` (``in_use`` and ``size`` of the connection pools);
- ``spieltafel_rate_limited_total{limit}`` (requests refused by a rate limit);
- ``spieltafel_http_requests_total{route,status}`` and ``spieltafel_http_errors_total{route}`` (status 500 or
  more, by route template).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from redis.exceptions import RedisError
from sqlalchemy import event, func, select

from spieltafel.server.db import Database, TableRow
from spieltafel.server.ops.logs import route_of

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("spieltafel.server")
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINKING = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

MOVES = Counter("spieltafel_moves", "Moves committed", ["game", "mover"])
MOVE_SECONDS = Histogram("spieltafel_move_seconds", "A move's check, commit and publication", ["game"],
                         buckets=SECONDS)
BOT_THINK = Histogram("spieltafel_bot_think_seconds", "A bot's thinking for one move", ["game"], buckets=THINKING)
BOT_QUEUE = Gauge("spieltafel_bot_queue_depth", "Bot jobs waiting to be taken", multiprocess_mode="mostrecent")
SOCKETS = Gauge("spieltafel_open_sockets", "WebSockets open now", multiprocess_mode="livesum")
TABLES = Gauge("spieltafel_tables", "Tables by status", ["status"], multiprocess_mode="mostrecent")
EMAILS = Counter("spieltafel_emails", "'Your turn' e-mails", ["outcome"])
POOL = Gauge("spieltafel_db_pool_connections", "Database connections of the pools", ["state"],
             multiprocess_mode="livesum")
RATE_LIMITED = Counter("spieltafel_rate_limited", "Requests refused by a rate limit", ["limit"])
REQUESTS = Counter("spieltafel_http_requests", "HTTP requests by route template and status", ["route", "status"])
ERRORS = Counter("spieltafel_http_errors", "HTTP requests that failed with a status of 500 or more", ["route"])
TABLE_STATUSES = ("waiting", "playing", "over")


def moved(game: str, bot: bool, seconds: float) -> None:
    """A move was committed (by a person's or program's seat, or a bot's)."""
    MOVES.labels(game, "bot" if bot else "person").inc()
    MOVE_SECONDS.labels(game).observe(seconds)


@contextmanager
def bot_thinking(game: str) -> Iterator[None]:
    """Time a bot's thinking."""
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_THINK.labels(game).observe(time.perf_counter() - started)


def email(sent: bool) -> None:
    EMAILS.labels("sent" if sent else "failed").inc()


def rate_limited(limit: str) -> None:
    RATE_LIMITED.labels(limit).inc()


def watch_pool(engine: Any) -> None:
    """Count the connections a SQLAlchemy engine's pool hands out (``in_use``) and keeps (``size``)."""
    pool = engine.sync_engine.pool
    size = getattr(pool, "size", None)
    if callable(size):
        POOL.labels("size").inc(size())
    event.listen(pool, "checkout", lambda *_: POOL.labels("in_use").inc())
    event.listen(pool, "checkin", lambda *_: POOL.labels("in_use").dec())


class RequestMetrics:
    """ASGI middleware: requests by route and status, errors by route, open sockets."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            route = route_of(scope)
            REQUESTS.labels(route, str(status)).inc()
            if status >= 500:
                ERRORS.labels(route).inc()

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        opened = False

        async def watched(message: Message) -> None:
            nonlocal opened
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                SOCKETS.inc()
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if opened:
                SOCKETS.dec()


async def sample(db: Database, jobs: Any) -> None:
    """The values read at a scrape: tables by status and the bot queue's depth (``jobs.depth()``)."""
    async with db.session() as session:
        rows = (await session.execute(select(TableRow.status, func.count()).group_by(TableRow.status))).all()
    counts = {str(status): int(count) for status, count in rows}
    for status in sorted(set(TABLE_STATUSES) | set(counts)):
        TABLES.labels(status).set(counts.get(status, 0))
    try:
        BOT_QUEUE.set(await jobs.depth())
    except RedisError:  # the queue's own health shows in /healthz; the other metrics are still worth reading
        log.warning("the bot queue's depth could not be read for /metrics")


def exposition() -> bytes:
    """All metrics in the text format: this process's, or with multiprocess mode every process's."""
    if os.environ.get(MULTIPROCESS_DIR):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest()
