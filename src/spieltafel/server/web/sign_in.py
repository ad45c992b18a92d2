"""Sign up, sign in, sign out and the page language.

Forms are read with :func:`spieltafel.server.web.security.form_of` (the middleware has already checked their
CSRF token); refusals become readable, translated messages."""

from __future__ import annotations

import contextlib
import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.server.accounts.auth import (
    address_of,
    clear_session_cookie,
    cookie_secure,
    rate_limits,
    sign_in_checked,
    start_session,
)
from spieltafel.server.errors import ServiceError
from spieltafel.server.ratelimit import RateLimited
from spieltafel.server.services import services_of
from spieltafel.server.web import i18n
from spieltafel.server.web.security import SESSION_COOKIE, form_of
from spieltafel.server.web.templating import account_of, gettext_of, redirect, render, safe_next
from spieltafel.server.web.texts import error_text

router = APIRouter(include_in_schema=False)

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 8
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def _empty_form(request: Request, template: str) -> Response:
    """The sign-up or sign-in form, empty, going back to the address's ``next`` (a local path) afterwards."""
    return render(request, template, {"name": "", "error": None, "next": safe_next(request.query_params.get("next"))})


@router.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request) -> Response:
    return _empty_form(request, "signup.html")


@router.post("/signup", response_class=HTMLResponse)
async def signup(request: Request) -> Response:
    gettext = gettext_of(request)
    form = form_of(request)
    name = form.get("name", "").strip()
    password = form.get("password", "")
    target = safe_next(form.get("next"))
    error = None
    status = 422
    if not NAME_PATTERN.fullmatch(name):
        error = gettext("A name has 3 to 20 letters, digits, '-' or '_'.")
    elif len(password) < MIN_PASSWORD:
        error = gettext("The password needs at least 8 characters.")
    elif password != form.get("password2", password):
        error = gettext("The two passwords differ.")
    if error is None:
        services = services_of(request)
        try:
            await rate_limits(request).hit("accounts", address_of(request), "new accounts")
            account = await services.accounts.create(name, password, form.get("program") == "1")
            chosen = i18n.normalise(request.cookies.get(i18n.LANGUAGE_COOKIE))
            if chosen:
                await services.accounts.set_language(account, chosen)
        except ServiceError as refusal:
            code = str(getattr(refusal, "code", ""))
            status = refusal.status if isinstance(refusal, RateLimited) else status
            if type(refusal).__name__ == "Conflict" or "taken" in code or "exists" in code:
                error = gettext("That name is taken. Please choose another.")
            elif type(refusal).__name__ == "Invalid":
                error = gettext("That password is too common or too weak. Please choose another.")
            else:
                error = error_text(refusal, gettext)
        else:
            response = redirect(target)
            await start_session(request, response, account)
            return response
    return render(request, "signup.html", {"name": name, "error": error, "next": target}, status=status)


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request) -> Response:
    return _empty_form(request, "signin.html")


@router.post("/signin", response_class=HTMLResponse)
async def signin(request: Request) -> Response:
    gettext = gettext_of(request)
    form = form_of(request)
    name = form.get("name", "").strip()
    target = safe_next(form.get("next"))
    services = services_of(request)
    try:
        account = await sign_in_checked(request, name, form.get("password", ""))
    except ServiceError as refusal:
        if type(refusal).__name__ in ("Unauthenticated", "Invalid", "NotFound"):
            error = gettext("Wrong name or password.")
        else:
            error = error_text(refusal, gettext)
        status = getattr(refusal, "status", 401)
        return render(request, "signin.html", {"name": name, "error": error, "next": target}, status=status)
    response = redirect(target)
    await start_session(request, response, account)
    if not i18n.normalise(getattr(account, "language", None)):
        chosen = i18n.normalise(request.cookies.get(i18n.LANGUAGE_COOKIE))
        if chosen:
            await services.accounts.set_language(account, chosen)
    return response


@router.post("/signout")
async def signout(request: Request) -> Response:
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        with contextlib.suppress(ServiceError):  # a session that has ended already: signed out all the same
            await services_of(request).accounts.close_session(session)
    response = redirect("/")
    clear_session_cookie(response)
    return response


@router.post("/language")
async def set_language(request: Request) -> Response:
    form = form_of(request)
    lang = i18n.normalise(form.get("lang")) or i18n.DEFAULT_LANGUAGE
    response = redirect(safe_next(form.get("next")))
    secure = cookie_secure(request)
    response.set_cookie(
        i18n.LANGUAGE_COOKIE, lang, max_age=LANGUAGE_COOKIE_AGE, path="/", samesite="lax", secure=secure
    )
    account = account_of(request)
    if account is not None:
        await services_of(request).accounts.set_language(account, lang)
    return response
