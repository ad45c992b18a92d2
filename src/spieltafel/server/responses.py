"""How a service's refusal is answered through the API: JSON ``{"detail": {"code", "message"}}`` with its
status code (pages get a page instead: ``web.error_pages.refusal_page``)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from spieltafel.server.errors import ServiceError
from spieltafel.server.ratelimit import RateLimited


async def service_error_json(_request: Request, error: Exception) -> JSONResponse:
    """A service refusal in the API's JSON shape (pages get a page: ``web.error_pages.refusal_page``)."""
    assert isinstance(error, ServiceError)
    headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else None
    if isinstance(error, RateLimited):
        headers = {"Retry-After": str(error.retry_after)}
    return JSONResponse({"detail": error.detail()}, status_code=error.status, headers=headers)
