"""The account page's "Your data" box: download my data, delete my account (``server.leaving``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from spieltafel.server.auth import clear_session_cookie
from spieltafel.server.errors import Forbidden
from spieltafel.server.leaving_api import account_data_of, export_response

from .account import _page
from .security import form_of
from .templating import account_of, gettext_of, render

router = APIRouter(include_in_schema=False)


@router.get("/account/export")
async def export_page(request: Request) -> Response:
    me = account_of(request)
    if me is None:
        return RedirectResponse("/signin?next=/account", status_code=303)
    return export_response(me.name, await account_data_of(request).export(me))


@router.post("/account/delete", response_class=HTMLResponse)
async def delete_page(request: Request) -> Response:
    me = account_of(request)
    if me is None:
        return await _page(request)
    gettext = gettext_of(request)
    form = form_of(request)
    if form.get("confirm") != "1":
        return await _page(request, 422, delete_error=gettext("Tick the box to confirm that the account should go."))
    try:
        await account_data_of(request).delete(me, form.get("password", ""))
    except Forbidden:
        return await _page(request, 403, delete_error=gettext("The password is wrong; nothing was deleted."))
    request.state.web_account = None
    values = {"heading": gettext("Your account was deleted"), "back": "/",
              "text": gettext("Your account, its sessions, tokens, e-mail address and chat lines are gone. "
                              "Finished games show “deleted player” in your place.")}
    response = render(request, "message.html", values)
    clear_session_cookie(response)
    return response
