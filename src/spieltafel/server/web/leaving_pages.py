"""The account page's "Your data" box: download my data, delete my account (``server.leaving``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.server.accounts.auth import clear_session_cookie
from spieltafel.server.api.leaving import account_data_of, export_response
from spieltafel.server.errors import Forbidden
from spieltafel.server.web.account import page, posted
from spieltafel.server.web.templating import account_of, render, sign_in_first

router = APIRouter(include_in_schema=False)


@router.get("/account/export")
async def exportpage(request: Request) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first("/account")
    return export_response(me.name, await account_data_of(request).export(me))


@router.post("/account/delete", response_class=HTMLResponse)
async def deletepage(request: Request) -> Response:
    sent = posted(request)
    if sent is None:
        return await page(request)
    gettext = sent.gettext
    if sent.form.get("confirm") != "1":
        return await sent.refused(request, 422, gettext("Tick the box to confirm that the account should go."),
                                  "delete_error")
    try:
        await account_data_of(request).delete(sent.me, sent.form.get("password", ""))
    except Forbidden:
        return await sent.refused(request, 403, gettext("The password is wrong; nothing was deleted."), "delete_error")
    request.state.web_account = None
    values = {"heading": gettext("Your account was deleted"), "back": "/",
              "text": gettext("Your account, its sessions, tokens, e-mail address and chat lines are gone. "
                              "Finished games show “deleted player” in your place.")}
    response = render(request, "message.html", values)
    clear_session_cookie(response)
    return response
