"""Security headers, the page context (account, language) and CSRF protection, as one ASGI middleware.

Every HTTP response gets a strict Content-Security-Policy (no inline scripts, handlers or styles;
``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff`` and a Referrer-Policy.

For page requests (everything but ``/api/``, ``/ws/``, ``/static/`` and ``/healthz``) the middleware
resolves the signed-in account and the language once and puts them on ``request.state``
(``web_account``, ``web_lang``, ``web_csrf``). Every POST to a page must carry the CSRF token (form field
``csrf_token`` or header ``X-CSRF-Token``): a signed double-submit token, the HMAC of a random cookie
(``spieltafel_csrf``, httpOnly, SameSite=Strict) and the session cookie under the server's secret key.
A cross-origin ``Origin`` header is refused too. The body of a page POST is read here once (at most
``MAX_FORM_BYTES``) and parsed: pages read it with :func:`form_of` and :func:`files_of` (urlencoded and
multipart forms alike), so no form library is needed.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from spieltafel.server.accounts.auth import cookie_secure
from spieltafel.server.web import i18n

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSRF_COOKIE = "spieltafel_csrf"
SESSION_COOKIE = "spieltafel_session"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
MAX_FORM_BYTES = 2 * 1024 * 1024

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
NOT_PAGES = ("/api/", "/ws/", "/static/")
NOT_PAGE_PATHS = frozenset({"/healthz", "/openapi.json"})


def is_page(path: str) -> bool:
    return not path.startswith(NOT_PAGES) and path not in NOT_PAGE_PATHS


def form_of(request: Request) -> dict[str, str]:
    """The text fields of this page POST (the last value of a repeated name wins)."""
    form = getattr(request.state, "web_form", None)
    return dict(form) if isinstance(form, dict) else {}


def form_lists_of(request: Request) -> dict[str, list[str]]:
    """Every value of every text field of this page POST."""
    lists = getattr(request.state, "web_form_lists", None)
    return dict(lists) if isinstance(lists, dict) else {}


def files_of(request: Request) -> dict[str, tuple[str, bytes]]:
    """The uploaded files of this multipart page POST: field name → (file name, content)."""
    files = getattr(request.state, "web_files", None)
    return dict(files) if isinstance(files, dict) else {}


def csrf_token_for(secret: str, csrf_cookie: str, session: str | None) -> str:
    message = f"{csrf_cookie}|{session or ''}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def _parse_form(content_type: str, body: bytes) -> tuple[dict[str, list[str]], dict[str, tuple[str, bytes]]]:
    fields: dict[str, list[str]] = {}
    files: dict[str, tuple[str, bytes]] = {}
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        for key, value in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
            fields.setdefault(key, []).append(value)
    elif kind == "multipart/form-data":
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        if message.is_multipart():
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if not isinstance(name, str):
                    continue
                payload = part.get_payload(decode=True)
                data = payload if isinstance(payload, bytes) else b""
                filename = part.get_filename()
                if filename is not None:
                    files[name] = (filename, data)
                else:
                    fields.setdefault(name, []).append(data.decode("utf-8", "replace"))
    return fields, files


class PageMiddleware:
    """Security headers on every response; account, language and CSRF for the pages."""

    def __init__(self, app: ASGIApp, fastapi_app: Any = None) -> None:
        self.app = app
        self.fastapi_app = fastapi_app
        self._fallback_secret = secrets.token_hex(32)

    def _secret(self) -> str:
        services = getattr(getattr(self.fastapi_app, "state", None), "services", None)
        settings = getattr(services, "settings", None)
        key: Any = getattr(settings, "secret_key", None)
        if key is not None and hasattr(key, "get_secret_value"):
            key = key.get_secret_value()
        return key if isinstance(key, str) and key else self._fallback_secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        set_cookies: list[bytes] = []
        if is_page(path):
            outcome = await self._prepare_page(scope, receive, set_cookies)
            if isinstance(outcome, tuple):
                status, text = outcome
                await self._refuse(scope, send, status, text, set_cookies)
                return
            receive = outcome
        csp = CONTENT_SECURITY_POLICY.encode()
        page = is_page(path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-security-policy"]
                headers.append((b"content-security-policy", csp))
                present = {k.lower() for k, _ in headers}
                headers.extend((k, v) for k, v in SECURITY_HEADERS if k not in present)
                if page:
                    if b"cache-control" not in present:
                        headers.append((b"cache-control", b"no-store"))
                    headers.append((b"vary", b"Accept-Language, Cookie"))
                headers.extend((b"set-cookie", c) for c in set_cookies)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _prepare_page(
        self, scope: Scope, receive: Receive, set_cookies: list[bytes]
    ) -> Receive | tuple[int, str]:
        state = scope.setdefault("state", {})
        request = Request(scope)
        account = await self._account(request)
        state["web_account"] = account
        if account is not None and scope.get("method") == "GET":
            state["web_your_turn"] = await self._waiting(account)
        lang = (
            i18n.normalise(getattr(account, "language", None))
            or i18n.normalise(request.cookies.get(i18n.LANGUAGE_COOKIE))
            or i18n.negotiate(request.headers.get("accept-language"))
            or i18n.DEFAULT_LANGUAGE
        )
        state["web_lang"] = lang
        csrf_cookie = request.cookies.get(CSRF_COOKIE) or ""
        if len(csrf_cookie) < 20:
            csrf_cookie = secrets.token_urlsafe(32)
            secure = "; Secure" if cookie_secure(request) else ""
            set_cookies.append(f"{CSRF_COOKIE}={csrf_cookie}; Path=/; HttpOnly; SameSite=Strict{secure}".encode())
            state["web_csrf_new"] = True
        session = request.cookies.get(SESSION_COOKIE)
        expected = csrf_token_for(self._secret(), csrf_cookie, session)
        state["web_csrf"] = expected
        if scope.get("method", "GET") not in ("POST", "PUT", "PATCH", "DELETE"):
            return receive
        gettext = i18n.gettext_for(lang)
        origin = request.headers.get("origin")
        if origin and origin != "null":
            own = f"{scope.get('scheme', 'http')}://{request.headers.get('host', '')}"
            if origin.rstrip("/") != own:
                return 403, gettext("This form was sent from another site and was refused.")
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return 400, gettext("The form did not arrive completely.")
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > MAX_FORM_BYTES:
                return 413, gettext("The form is too large.")
        fields, files = _parse_form(request.headers.get("content-type", ""), body)
        state["web_form_lists"] = fields
        state["web_form"] = {key: values[-1] for key, values in fields.items()}
        state["web_files"] = files
        sent = request.headers.get(CSRF_HEADER) or state["web_form"].get(CSRF_FIELD, "")
        if state.get("web_csrf_new") or not hmac.compare_digest(sent.encode(), expected.encode()):
            return 403, gettext("This form has expired. Go back, reload the page and send it again.")
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    async def _account(self, request: Request) -> Any:
        try:
            from spieltafel.server.accounts.auth import optional_account
        except ImportError:
            return None
        try:
            result: Any = optional_account(request)
            if inspect.isawaitable(result):
                result = await result
        except Exception:
            return None
        return result

    async def _waiting(self, account: Any) -> int:
        """How many running games wait for ``account`` (the count in the page header)."""
        services = getattr(getattr(self.fastapi_app, "state", None), "services", None)
        if services is None:
            return 0
        try:
            return len(await services.tables.waiting(account))
        except Exception:
            return 0

    async def _refuse(self, scope: Scope, send: Send, status: int, text: str, set_cookies: list[bytes]) -> None:
        lang = scope.get("state", {}).get("web_lang", i18n.DEFAULT_LANGUAGE)
        body = refusal_page(lang, i18n.gettext_for(lang)("Not sent"), text)
        headers = [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            *response_security_headers(),
            (b"cache-control", b"no-store"),
            *((b"set-cookie", c) for c in set_cookies),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def response_security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every answer carries: the Content-Security-Policy and :data:`SECURITY_HEADERS`."""
    return [(b"content-security-policy", CONTENT_SECURITY_POLICY.encode()), *SECURITY_HEADERS]


def refusal_page(lang: str, heading: str, text: str) -> bytes:
    """A small page of its own (no template, nothing that could fail again) saying what went wrong."""
    from html import escape

    back = escape(i18n.gettext_for(lang)("Back to the lobby"))
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8"><title>Spieltafel</title>'
        '<link rel="stylesheet" href="/static/site.css"></head><body><main class="refusal">'
        f'<h1>{escape(heading)}</h1><p>{escape(text)}</p><p><a href="/">{back}</a></p></main></body></html>'
    ).encode()


async def server_error(request: Request, error: Exception) -> Response:
    """An unexpected failure (the last resort of Starlette's ``ServerErrorMiddleware``, outside every other
    middleware): a clean 500 with the security headers, a page in the reader's language or the API's JSON
    error; the traceback goes to the server's log only (Starlette raises the error again after this answer)."""
    headers = {k.decode(): v.decode() for k, v in response_security_headers()}
    headers["cache-control"] = "no-store"
    if not is_page(request.url.path):
        detail = {"code": "server-error", "message": "the server failed to answer this request; please try again"}
        return JSONResponse({"detail": detail}, status_code=500, headers=headers)
    lang = request.scope.get("state", {}).get("web_lang") or i18n.negotiate(request.headers.get("accept-language"))
    lang = i18n.normalise(lang) or i18n.DEFAULT_LANGUAGE
    gettext = i18n.gettext_for(lang)
    body = refusal_page(
        lang, gettext("Server error"), gettext("The server could not answer this request. Please try again later.")
    )
    return HTMLResponse(body, status_code=500, headers={**headers, "content-language": lang})
