"""Typed refusals of the services; the JSON API turns them into status codes with
``{"detail": {"code", "message"}}``, the WebSocket into ``{"type": "error", "code", "message"}``."""

from __future__ import annotations

from typing import ClassVar


class ServiceError(Exception):
    """A refusal caused by the caller: ``code`` is short and stable, ``message`` says what was wrong."""

    status: ClassVar[int] = 400

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def detail(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Unauthenticated(ServiceError):
    """Not signed in, or wrong credentials (401)."""

    status = 401


class Forbidden(ServiceError):
    """Signed in but not allowed: not your seat, not your turn (403)."""

    status = 403


class NotFound(ServiceError):
    """No such table (404)."""

    status = 404


def no_table(number: int) -> NotFound:
    """The one refusal for a table one may not see, whatever the reason (it does not exist, it was
    removed, it is private and not the caller's): nothing in it tells these apart."""
    return NotFound("no-table", f"there is no table {number}")


class Conflict(ServiceError):
    """The request clashes with the current state: name taken, table full, game not over (409)."""

    status = 409


class StaleSeq(Conflict):
    """The ``seq`` the client saw is not the table's current ``seq`` (409, code ``stale``)."""

    def __init__(self, seen: int, current: int) -> None:
        super().__init__("stale", f"stale seq {seen}: the table is at seq {current}; fetch the state and retry")
        self.current = current


class Invalid(ServiceError):
    """Well-formed but unacceptable input: a bad game, option, seat list or an illegal action (422)."""

    status = 422


class TooLarge(ServiceError):
    """A body or message over the size limit (413)."""

    status = 413


class TooMany(ServiceError):
    """Too many requests in a short time: a rate limit (429)."""

    status = 429


class Unavailable(ServiceError):
    """The site cannot do it now (busy, or no worker for it here): try again later."""

    status = 503


HTTP_CODES = {400: "malformed-body", 404: "not-found", 405: "method-not-allowed", 413: "too-large"}


def http_error_detail(status: int, detail: object) -> dict[str, str]:
    """Starlette's own refusals (a body that cannot be parsed, an unknown path or method) in the API's shape."""
    return {"code": HTTP_CODES.get(status, f"http-{status}"), "message": str(detail)}
