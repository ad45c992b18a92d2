"""The pages for an address that does not exist and for a service refusal raised before a page's own code
ran; the API keeps its JSON shape for both."""

from __future__ import annotations

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from spieltafel.server.errors import ServiceError, http_error_detail
from spieltafel.server.responses import service_error_json
from spieltafel.server.web.security import is_page
from spieltafel.server.web.templating import gettext_of, render
from spieltafel.server.web.texts import error_text


async def not_found_page(request: Request, error: Exception) -> Response:
    """A page that does not exist, in the reader's language; the API answers in its JSON error shape."""
    assert isinstance(error, StarletteHTTPException)
    if not is_page(request.url.path):
        detail = http_error_detail(error.status_code, error.detail)
        return JSONResponse({"detail": detail}, status_code=error.status_code, headers=error.headers)
    if error.status_code != 404:
        return await http_exception_handler(request, error)
    gettext = gettext_of(request)
    context = {"heading": gettext("Page not found"), "text": gettext("There is no page at this address.")}
    return render(request, "message.html", context, 404)


async def refusal_page(request: Request, error: Exception) -> Response:
    """A service refusal raised before a page's own code ran (a table id the caller may not see): a page
    in the reader's language; the API keeps its JSON shape."""
    assert isinstance(error, ServiceError)
    if not is_page(request.url.path):
        return await service_error_json(request, error)
    gettext = gettext_of(request)
    text = error_text(error, gettext)
    heading = gettext("Table not found") if error.code == "no-table" else text
    return render(request, "message.html", {"heading": heading, "text": text}, error.status)
