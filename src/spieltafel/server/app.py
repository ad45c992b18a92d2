"""``create_app``: the FastAPI application with its services, routes, limits and error handling."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse

from spieltafel.server.accounts.service import AccountService
from spieltafel.server.api.analysis import router as analysis_router
from spieltafel.server.api.leaving import router as leaving_router
from spieltafel.server.api.metrics import router as metrics_router
from spieltafel.server.api.moderation import router as moderation_router
from spieltafel.server.api.quickplay import router as quickplay_router
from spieltafel.server.api.recovery import router as recovery_router
from spieltafel.server.api.routes import router as api_router
from spieltafel.server.api.social import router as social_router
from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.ops import metrics
from spieltafel.server.ops.logs import RequestLog
from spieltafel.server.realtime.sockets import router as ws_router
from spieltafel.server.responses import service_error_json
from spieltafel.server.services import open_services
from spieltafel.server.settings import MAX_MESSAGE_BYTES, MAX_PAGE_BODY_BYTES, Settings

log = logging.getLogger("spieltafel.server")
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


MAX_DECLARED_LENGTH: Final = 2**53
"""The largest Content-Length read as a number; a longer one is refused like any body over the limit."""


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuses HTTP bodies over the limit with 413 (by Content-Length or while reading).

    The API (``/api/``) takes at most ``MAX_MESSAGE_BYTES``; the pages' forms take up to
    ``MAX_PAGE_BODY_BYTES`` (a record upload is one of them, checked again by its own page).
    """

    def __init__(
        self, app: ASGIApp, limit: int = MAX_MESSAGE_BYTES, page_limit: int = MAX_PAGE_BODY_BYTES
    ) -> None:
        self.app = app
        self.api_limit = limit
        self.page_limit = page_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.api_limit if str(scope.get("path", "")).startswith("/api/") else self.page_limit
        if _declared_length(scope) > limit:
            await self._refuse(send, limit)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _TooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        body = b'{"detail":{"code":"too-large","message":"a request body has at most %d bytes"}}' % limit
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _declared_length(scope: Scope) -> int:
    """The request's Content-Length (0 when absent); one that is no number counts as too large."""
    length = dict(scope["headers"]).get(b"content-length", b"0")
    try:
        return parse_int(length.decode("latin-1"), "Content-Length", 0, MAX_DECLARED_LENGTH)
    except BadNumber:
        return MAX_DECLARED_LENGTH + 1


async def _validation_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = list(error.errors())
    if any(p.get("type") == "json_invalid" for p in problems):
        detail = {"code": "malformed-json", "message": "the body is not valid JSON"}
        return JSONResponse({"detail": detail}, status_code=400)
    parts = []
    for problem in problems[:5]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    return JSONResponse({"detail": {"code": "invalid", "message": "; ".join(parts)}}, status_code=422)


def _allow_origins(app: FastAPI, settings: Settings) -> None:
    """CORS stays closed (no ``Access-Control-Allow-*`` headers) unless ``Settings.cors_origins`` names sites;
    those may call the API with a Bearer token, never with the session cookie."""
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware, allow_origins=settings.cors_origins, allow_credentials=False,
            allow_methods=["GET", "POST", "PUT", "DELETE"], allow_headers=["Authorization", "Content-Type"],
        )


COLLECTOR_THRESHOLDS: Final = (50_000, 20, 100)
"""Allocations before a young pass, young passes before a middle one, middle ones before a full one
(Python's defaults: 700, 10, 10)."""


def tune_collector() -> None:
    """A server's heap is large and long-lived (thousands of sockets with their tasks, the cached games):
    with Python's default thresholds the cyclic garbage collector walked all of it every few seconds under
    load, 5–7 s of each server's CPU in a 1,000-table run and pauses of up to 0.5 s (docs/performance.md).
    What exists once the server has started is frozen (never walked again) and the passes are made rarer.
    Reference counting still frees all that is not in a cycle at once."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


async def warn_of_name_clashes(accounts: AccountService) -> None:
    """Log the accounts whose names differ only by case, from before names were folded (migration 0009)."""
    clashes = await accounts.name_clashes()
    if clashes:
        pairs = ", ".join(f"{older!r}/{later!r}" for older, later in clashes)
        log.warning("%d account names differ from older ones only by case (%s): each signs in by its exact "
                    "name only; new names cannot clash so (docs/security.md)", len(clashes), pairs)


def create_app(settings: Settings | None = None, now_ms: Callable[[], int] | None = None) -> FastAPI:
    """The server application; its lifespan migrates the database and starts the services.

    ``now_ms`` is the clock of every time limit (epoch milliseconds; tests pass one they control)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = app.state.services = await open_services(settings, now_ms=now_ms)
        await warn_of_name_clashes(services.accounts)
        if settings.tune_collector:
            tune_collector()
        sweeper = None
        if settings.sweep_seconds:
            sweeper = asyncio.create_task(
                services.tables.sweep_forever(settings.sweep_seconds, services.notifier.notify)
            )
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            await services.close()

    app = FastAPI(
        title="Spieltafel", version="0.1.0", lifespan=lifespan,
        description="Accounts, tables, live games and bots. See docs/protocol.md.",
        docs_url=None, redoc_url=None,  # their pages load scripts from a CDN: no third-party script on our site
    )
    app.state.state_decorators = []
    app.add_exception_handler(ServiceError, service_error_json)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.include_router(api_router)
    app.include_router(social_router)
    app.include_router(recovery_router)
    app.include_router(leaving_router)
    app.include_router(quickplay_router)
    app.include_router(analysis_router)
    app.include_router(ws_router)
    app.add_middleware(BodyLimit)
    _allow_origins(app, settings)
    from spieltafel.server import web

    web.install(app)
    app.include_router(metrics_router)
    app.include_router(moderation_router)
    app.add_middleware(metrics.RequestMetrics)
    app.add_middleware(RequestLog)  # outermost: every request's line, refusals of the inner layers included
    return app
