"""The gate of private tables: one check in front of every route of a table.

Every path ``/tables/{id}…``, ``/api/tables/{id}…`` and ``/ws/tables/{id}…`` (page, API and WebSocket,
today's routes and later ones) passes here. For a private table the caller must sit at it or have
opened its invitation link (:meth:`TableService.may_see`); anyone else gets exactly the answer for a
table that does not exist (404 ``no-table``; on the WebSocket the ``no-table`` error and close 4404),
so the gate does not even tell that the table is there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

from .auth import account_for

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TABLE_PATH = re.compile(r"^/(api/|ws/)?tables/(\d{1,10})(?:/|$)")
CLOSE_NO_TABLE = 4404


class PrivateTables:
    """ASGI middleware: private tables are answered as missing to those not seated and not invited."""

    def __init__(self, app: ASGIApp, fastapi_app: Any = None) -> None:
        self.app = app
        self.fastapi_app = fastapi_app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = TABLE_PATH.match(str(scope.get("path", ""))) if scope["type"] in ("http", "websocket") else None
        if match is None or await self._may_pass(scope, int(match.group(2))):
            await self.app(scope, receive, send)
            return
        table_id, kind = match.group(2), match.group(1) or "page/"
        message = f"there is no table {table_id}"
        if scope["type"] == "websocket":
            await _close_socket(receive, send, message)
        elif kind == "api/":
            await _json_404(send, message)
        else:
            await self._page_404(scope, receive, send)

    async def _may_pass(self, scope: Scope, table_id: int) -> bool:
        services = getattr(getattr(self.fastapi_app, "state", None), "services", None)
        if services is None or await services.tables.invite_of(table_id) is None:
            return True
        account = scope.get("state", {}).get("web_account") or await account_for(HTTPConnection(scope))
        allowed: bool = await services.tables.may_see(table_id, account)
        return allowed

    async def _page_404(self, scope: Scope, receive: Receive, send: Send) -> None:
        from fastapi import Request

        from .web.templating import gettext_of, render

        request = Request(scope, receive)
        gettext = gettext_of(request)
        context = {"heading": gettext("Table not found"), "text": gettext("There is no such table.")}
        await render(request, "message.html", context, 404)(scope, receive, send)


async def _json_404(send: Send, message: str) -> None:
    body = json.dumps({"detail": {"code": "no-table", "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 404, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _close_socket(receive: Receive, send: Send, message: str) -> None:
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    text = json.dumps({"type": "error", "code": "no-table", "message": message})
    await send({"type": "websocket.send", "text": text})
    await send({"type": "websocket.close", "code": CLOSE_NO_TABLE})
