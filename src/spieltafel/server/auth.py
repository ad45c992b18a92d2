"""Who is asking: the ``spieltafel_session`` cookie or ``Authorization: Bearer <token>``."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from .accounts import Account
from .errors import Unauthenticated

SESSION_COOKIE = "spieltafel_session"
SESSION_MAX_AGE = 30 * 24 * 3600


def _services(connection: HTTPConnection) -> Any:
    return connection.app.state.services


async def account_for(connection: HTTPConnection) -> Account | None:
    """The account behind a request or WebSocket: a Bearer token first, else the session cookie.

    A malformed or unknown credential counts as none (the caller then refuses with 401)."""
    accounts = _services(connection).accounts
    header = connection.headers.get("authorization", "")
    scheme, _, credential = header.partition(" ")
    if scheme.lower() == "bearer" and credential.strip():
        account: Account | None = await accounts.by_token(credential.strip())
        return account
    session_id = connection.cookies.get(SESSION_COOKIE)
    if session_id:
        account = await accounts.by_session(session_id)
        return account
    return None


async def optional_account(request: Request) -> Account | None:
    """FastAPI dependency: the signed-in account, or None."""
    return await account_for(request)


async def require_account(request: Request) -> Account:
    """FastAPI dependency: the signed-in account; 401 otherwise."""
    account = await account_for(request)
    if account is None:
        raise Unauthenticated("signed-out", "sign in first: a session cookie or 'Authorization: Bearer <token>'")
    return account


def session_cookie(response: Response, session_id: str, secure: bool = False) -> None:
    response.set_cookie(
        SESSION_COOKIE, session_id, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax", path="/", secure=secure
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
