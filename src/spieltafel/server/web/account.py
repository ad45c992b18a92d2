"""The account page: change the password (every session ends), make, list and revoke personal tokens, and
"Ask before each move" at the table (docs/play.md).

A new token is shown once, on the page that made it; the list shows only numbers and dates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from spieltafel.server.accounts.auth import start_session
from spieltafel.server.errors import Forbidden, ServiceError
from spieltafel.server.services import services_of
from spieltafel.server.web.security import form_of
from spieltafel.server.web.templating import account_of, gettext_of, redirect, render, sign_in_first

router = APIRouter(include_in_schema=False)


def _accounts(request: Request) -> Any:
    return services_of(request).accounts


async def page(request: Request, status: int = 200, **context: Any) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first("/account")
    tokens = await _accounts(request).tokens(me)
    notifier = services_of(request).notifier
    values = {
        "tokens": tokens, "error": None, "done": None, "new_token": None, "delete_error": None,
        "email": await notifier.email_of(me), "mail_enabled": notifier.enabled,
        "verified": await notifier.verified(me), "confirm_moves": await _accounts(request).confirm_moves(me),
        **context,
    }
    return render(request, "account.html", values, status=status)


@dataclass(frozen=True, slots=True)
class Posted:
    """A form posted from the account page: who sent it, its fields, and ``gettext`` in the reader's language."""

    me: Any
    form: dict[str, str]
    gettext: Callable[[str], str]

    async def refused(self, request: Request, status: int, message: str, box: str = "error") -> Response:
        """The account page again with ``message`` (already in the reader's words) in ``box`` (``error``: the
        password and token box, ``delete_error``: the "Your data" box); nothing was changed."""
        return await page(request, status, **{box: message})


def posted(request: Request) -> Posted | None:
    """The account page's form POST, or None when nobody is signed in (answer with :func:`page`: the sign-in)."""
    me = account_of(request)
    return None if me is None else Posted(me, form_of(request), gettext_of(request))


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> Response:
    return await page(request)


@router.post("/account/password", response_class=HTMLResponse)
async def change_password(request: Request) -> Response:
    sent = posted(request)
    if sent is None:
        return await page(request)
    new = sent.form.get("new", "")
    if new != sent.form.get("new2", ""):
        return await sent.refused(request, 422, sent.gettext("The two passwords differ."))
    try:
        await _accounts(request).change_password(sent.me, sent.form.get("current", ""), new)
    except Forbidden:
        return await sent.refused(request, 403, sent.gettext("The current password is wrong."))
    except ServiceError:
        weak = sent.gettext("That password is too common or too weak. Please choose another.")
        return await sent.refused(request, 422, weak)
    response = redirect("/account?changed=1")
    await start_session(request, response, sent.me)
    return response


@router.post("/account/email", response_class=HTMLResponse)
async def set_email(request: Request) -> Response:
    """The address for 'your turn' e-mails of turn-based games (empty: none)."""
    sent = posted(request)
    if sent is None:
        return await page(request)
    try:
        await services_of(request).recovery.set_email(sent.me, sent.form.get("email", ""))
    except ServiceError:
        return await sent.refused(request, 422, sent.gettext("That does not look like an e-mail address."))
    return redirect("/account?email=1")


@router.post("/account/confirm-moves", response_class=HTMLResponse)
async def set_confirm_moves(request: Request) -> Response:
    """"Ask before each move" (field ``confirm_moves``: ``on`` or ``off``), from the account page's form or
    the table page's toggle (which asks for JSON); anything else is refused and changes nothing."""
    me = account_of(request)
    wants_json = "application/json" in request.headers.get("accept", "")
    choice = form_of(request).get("confirm_moves", "")
    if me is None:
        if wants_json:
            return JSONResponse({"error": "signed-out"}, status_code=401)
        return await page(request)
    if choice not in ("on", "off"):
        if wants_json:
            return JSONResponse({"error": "invalid", "allowed": ["on", "off"]}, status_code=422)
        return await page(request, 422, error=gettext_of(request)("Choose on or off."))
    await _accounts(request).set_confirm_moves(me, choice == "on")
    if wants_json:
        return JSONResponse({"confirm_moves": choice == "on"})
    return redirect("/account?confirm=1")


@router.post("/account/tokens", response_class=HTMLResponse)
async def create_token(request: Request) -> Response:
    me = account_of(request)
    if me is None:
        return await page(request)
    token = await _accounts(request).create_token(me)
    return await page(request, 201, new_token=token)


@router.post("/account/tokens/{token_id}/revoke", response_class=HTMLResponse)
async def revoke_token(request: Request, token_id: int) -> Response:
    sent = posted(request)
    if sent is None:
        return await page(request)
    try:
        await _accounts(request).revoke_token(sent.me, token_id)
    except ServiceError:
        return await sent.refused(request, 404, sent.gettext("There is no such token."))
    return redirect("/account")
