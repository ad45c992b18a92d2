"""The pages of password reset and e-mail verification (``server.recovery``): "Forgot your password?",
the page a reset link opens, and the page a verification link opens.

A mailed link opens a page with a button (a POST): opening the link alone changes nothing, so a mail
scanner that follows links neither uses up a reset link nor verifies an address."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.server.accounts.recovery import Recovery
from spieltafel.server.api.recovery import ask_for_reset
from spieltafel.server.errors import ServiceError
from spieltafel.server.ratelimit import RateLimited
from spieltafel.server.services import services_of
from spieltafel.server.web.security import form_of
from spieltafel.server.web.templating import gettext_of, redirect, render

router = APIRouter(include_in_schema=False)


def _recovery(request: Request) -> Recovery:
    recovery = services_of(request).recovery
    return recovery


def _link_of(request: Request) -> str:
    return (form_of(request).get("link") or request.query_params.get("link") or "").strip()[:200]


@router.get("/password/forgot", response_class=HTMLResponse)
async def forgot_page(request: Request) -> Response:
    return render(request, "password_forgot.html", {"error": None, "sent": False, "who": ""})


@router.post("/password/forgot", response_class=HTMLResponse)
async def forgot(request: Request) -> Response:
    gettext = gettext_of(request)
    who = form_of(request).get("who", "").strip()[:254]
    if not who:
        error = gettext("Give your name or your e-mail address.")
        return render(request, "password_forgot.html", {"error": error, "sent": False, "who": ""}, status=422)
    try:
        await ask_for_reset(request, who)
    except RateLimited:
        error = gettext("Too many tries in a short time. Please wait a while and try again.")
        return render(request, "password_forgot.html", {"error": error, "sent": False, "who": who}, status=429)
    return render(request, "password_forgot.html", {"error": None, "sent": True, "who": who}, status=202)


async def _reset_page(request: Request, link: str, status: int = 200, **context: Any) -> Response:
    gettext = gettext_of(request)
    try:
        account = await _recovery(request).check_reset(link)
    except ServiceError:
        values = {"heading": gettext("This link does not work"), "back": "/password/forgot",
                  "text": gettext("The link is unknown, was used already or has expired (a reset link is valid "
                                  "for one hour). Ask for a new one.")}
        return render(request, "message.html", values, status=410)
    return render(request, "password_reset.html", {"error": None, "link": link, "name": account.name, **context},
                  status=status)


@router.get("/password/reset", response_class=HTMLResponse)
async def reset_page(request: Request) -> Response:
    return await _reset_page(request, _link_of(request))


@router.post("/password/reset", response_class=HTMLResponse)
async def reset(request: Request) -> Response:
    gettext = gettext_of(request)
    form, link = form_of(request), _link_of(request)
    new = form.get("new", "")
    if new != form.get("new2", ""):
        return await _reset_page(request, link, 422, error=gettext("The two passwords differ."))
    try:
        await _recovery(request).check_reset(link)
    except ServiceError:
        return await _reset_page(request, link)
    try:
        await _recovery(request).reset(link, new)
    except ServiceError as refusal:
        if refusal.code == "bad-link":
            return await _reset_page(request, link)
        weak = gettext("That password is too common or too weak. Please choose another.")
        return await _reset_page(request, link, 422, error=weak)
    return redirect("/signin?reset=1")


@router.get("/account/verify", response_class=HTMLResponse)
async def verify_page(request: Request) -> Response:
    return render(request, "email_verify.html", {"link": _link_of(request), "done": None, "failed": False})


@router.post("/account/verify", response_class=HTMLResponse)
async def verify(request: Request) -> Response:
    link = _link_of(request)
    try:
        address = await _recovery(request).verify(link)
    except ServiceError:
        return render(request, "email_verify.html", {"link": link, "done": None, "failed": True}, status=410)
    return render(request, "email_verify.html", {"link": "", "done": address, "failed": False})
