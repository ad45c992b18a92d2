"""Who is asking: the ``spieltafel_session`` cookie or ``Authorization: Bearer <token>``.

A session cookie counts only for requests from the server's own pages: a request or WebSocket
handshake whose ``Origin`` is another site's or opaque (``null``: cross-site WebSocket hijacking,
forged API calls, from a page or a sandboxed frame) is treated as signed out, whatever cookie the
browser attached."""

from __future__ import annotations

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from spieltafel.server.accounts.service import Account, Credential
from spieltafel.server.errors import Unauthenticated
from spieltafel.server.ops.logs import note_account
from spieltafel.server.ratelimit import RateLimits
from spieltafel.server.services import Services, services_of

SESSION_COOKIE = "spieltafel_session"
SESSION_MAX_AGE = 30 * 24 * 3600


def _services(connection: HTTPConnection) -> Services:
    return services_of(connection)


def credential_of(connection: HTTPConnection) -> Credential | None:
    """What a request or WebSocket signs in with: a Bearer token first, else the session cookie (only from
    our own pages, :func:`same_origin`); None without either."""
    header = connection.headers.get("authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() == "bearer" and secret.strip():
        return Credential("token", secret.strip())
    session_id = connection.cookies.get(SESSION_COOKIE)
    if session_id and same_origin(connection):
        return Credential("session", session_id)
    return None


async def account_for(connection: HTTPConnection) -> Account | None:
    """The account behind a request or WebSocket (:func:`credential_of`).

    A malformed or unknown credential counts as none (the caller then refuses with 401)."""
    credential = credential_of(connection)
    if credential is None:
        return None
    account: Account | None = await _services(connection).accounts.by_credential(credential)
    note_account(account.id if account else None)
    return account


async def optional_account(request: Request) -> Account | None:
    """FastAPI dependency: the signed-in account, or None."""
    return await account_for(request)


async def require_account(request: Request) -> Account:
    """FastAPI dependency: the signed-in account; 401 otherwise."""
    account = await account_for(request)
    if account is None:
        raise Unauthenticated("signed-out", "sign in first: a session cookie or 'Authorization: Bearer <token>'")
    return account


def rate_limits(connection: HTTPConnection) -> RateLimits:
    limits: RateLimits = _services(connection).rate
    return limits


def address_of(connection: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy: as its ``X-Forwarded-For`` says, by uvicorn)."""
    return connection.client.host if connection.client else "unknown"


async def sign_in_checked(connection: HTTPConnection, name: str, password: str) -> Account:
    """The account for these credentials, within the failed sign-in limits per name and per address."""
    limits, address = rate_limits(connection), address_of(connection)
    async with limits.sign_in_turn(name, address):  # attempts at once would all pass the check otherwise
        await limits.check_sign_in(name, address)
        try:
            account: Account = await _services(connection).accounts.authenticate(name, password)
        except Unauthenticated:
            await limits.failed_sign_in(name, address)
            raise
    return account


def own_origin(connection: HTTPConnection) -> str:
    """``scheme://host`` of this server as the client reached it (``ws``/``wss`` count as ``http``/``https``)."""
    scheme = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
    return f"{scheme}://{connection.headers.get('host', '')}"


def same_origin(connection: HTTPConnection) -> bool:
    """True unless the request names another site in its ``Origin`` header, or an opaque one: ``null``
    (a sandboxed frame, a ``file://`` page, a data: URL, a cross-site redirect) is nobody's own page.
    A browser names our origin on its own pages' POSTs and sockets, and sends no ``Origin`` at all on a
    same-origin GET or a top-level navigation."""
    origin = connection.headers.get("origin")
    return origin is None or origin.rstrip("/") == own_origin(connection)


def cookie_secure(connection: HTTPConnection) -> bool:
    """Mark cookies ``Secure`` when the client came over HTTPS (directly or, as a trusted proxy says, by
    ``X-Forwarded-Proto``) or when ``Settings.secure_cookies`` says so."""
    settings = getattr(getattr(connection.app.state, "services", None), "settings", None)
    return connection.url.scheme in ("https", "wss") or bool(getattr(settings, "secure_cookies", False))


def session_cookie(response: Response, session_id: str, secure: bool = False) -> None:
    response.set_cookie(
        SESSION_COOKIE, session_id, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax", path="/", secure=secure
    )


async def start_session(connection: HTTPConnection, response: Response, account: Account) -> None:
    """Sign ``account`` in with a fresh session id; the session the browser had before ends on the server."""
    accounts = _services(connection).accounts
    old = connection.cookies.get(SESSION_COOKIE)
    if old:
        await accounts.close_session(old)
    session_cookie(response, await accounts.open_session(account), secure=cookie_secure(connection))


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
