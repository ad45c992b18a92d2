"""The moderators' page ``/moderation`` (issue 30): the reports with what to do about each (hide the chat line,
mute the account for a time, ban it), and for admins the audit log. Moderators and admins only; the actions
are ``server.social.moderation``'s, with every refusal shown on a page in the reader's language."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import services_of
from spieltafel.server.social.moderation import ModerationService
from spieltafel.server.web.security import form_of
from spieltafel.server.web.templating import account_of, gettext_of, number_refused, redirect, render, sign_in_first
from spieltafel.server.web.texts import error_text

router = APIRouter(include_in_schema=False)
MUTE_CHOICES = (10, 60, 24 * 60, 7 * 24 * 60)
"""The mute lengths offered, in minutes."""


def _service(request: Request) -> ModerationService:
    return services_of(request).moderation


async def _moderator(request: Request) -> tuple[Any, str] | Response:
    """The signed-in moderator or admin and their role, or the page that refuses everyone else."""
    me = account_of(request)
    if me is None:
        return sign_in_first("/moderation")
    role = await _service(request).role_of(me.id)
    if role not in ("moderator", "admin"):
        gettext = gettext_of(request)
        context = {"heading": gettext("Moderation"), "text": gettext("Only moderators and admins may see this page.")}
        return render(request, "message.html", context, 403)
    return me, role


def _mute_choices(gettext: Any) -> list[tuple[int, str]]:
    names = [gettext("10 minutes"), gettext("1 hour"), gettext("1 day"), gettext("1 week")]
    return list(zip(MUTE_CHOICES, names, strict=True))


@router.get("/moderation", response_class=HTMLResponse)
async def moderation_page(request: Request) -> Response:
    who = await _moderator(request)
    if isinstance(who, Response):
        return who
    _, role = who
    service = _service(request)
    context = {
        "reports": await service.reports(),
        "audit": await service.audit() if role == "admin" else None,
        "mute_choices": _mute_choices(gettext_of(request)),
        "done": request.query_params.get("done") == "1",
    }
    return render(request, "moderation.html", context)


async def _act(request: Request, action: str, target: str) -> Response:
    who = await _moderator(request)
    if isinstance(who, Response):
        return who
    me, _ = who
    form = form_of(request)
    gettext = gettext_of(request)
    service = _service(request)
    try:
        if action == "hide":
            await service.hide(me, parse_int(target, "chat", 1, 2**62))
        elif action == "mute":
            await service.mute(me, target, parse_int(form.get("minutes", ""), "minutes", 0, 365 * 24 * 60))
        else:
            await service.ban(me, target, form.get("reason", ""))
    except BadNumber as error:
        context = {"heading": gettext("Not done"), "text": number_refused(error, gettext), "back": "/moderation"}
        return render(request, "message.html", context, 422)
    except ServiceError as refusal:
        context = {"heading": gettext("Not done"), "text": _refused(refusal, gettext), "back": "/moderation"}
        return render(request, "message.html", context, refusal.status)
    return redirect("/moderation?done=1")


@router.post("/moderation/chat/{chat_id}/hide")
async def hide(request: Request, chat_id: str) -> Response:
    return await _act(request, "hide", chat_id)


@router.post("/moderation/accounts/{name}/mute")
async def mute(request: Request, name: str) -> Response:
    return await _act(request, "mute", name[:100])


@router.post("/moderation/accounts/{name}/ban")
async def ban(request: Request, name: str) -> Response:
    return await _act(request, "ban", name[:100])


def _refused(error: ServiceError, gettext: Any) -> str:
    """A moderation refusal in the reader's language (the API keeps its English ``message``)."""
    known = {
        "bad-reason": gettext("Say why, in 1 to 500 characters."),
        "bad-report": gettext("You cannot report yourself."),
        "no-chat": gettext("There is no such chat message here."),
        "no-account": gettext("There is no such player."),
        "banned": gettext("This account is banned already."),
    }
    return known.get(error.code) or error_text(error, gettext)


async def _file_report(
    request: Request, back: str, name: str, chat_id: str | None, table_id: int | None = None
) -> Response:
    """File the signed-in player's report of ``name`` (or of its chat line) with the form's reason; the answer
    is a page in the reader's language that leads ``back``."""
    me = account_of(request)
    if me is None:
        return sign_in_first(back)
    gettext = gettext_of(request)
    reason = form_of(request).get("reason", "")
    try:
        line = None if chat_id is None else parse_int(chat_id, "chat message", 1, 2**62)
        await _service(request).report(me, name[:100], line, reason, table_id)
    except BadNumber as error:
        context = {"heading": gettext("Not sent"), "text": number_refused(error, gettext), "back": back}
        return render(request, "message.html", context, 422)
    except ServiceError as refusal:
        context = {"heading": gettext("Not sent"), "text": _refused(refusal, gettext), "back": back}
        return render(request, "message.html", context, refusal.status)
    context = {"heading": gettext("Report sent"), "text": gettext("Thank you: the moderators will read your report."),
               "back": back}
    return render(request, "message.html", context)


@router.post("/tables/{table_id}/chat/{chat_id}/report")
async def report_line(request: Request, table_id: TableNumber, chat_id: str) -> Response:
    """A player's report of a chat line at a table they may see (the table gate has checked that), with a
    reason; the line must be at this table and written by the named player."""
    name = form_of(request).get("name", "")
    return await _file_report(request, f"/tables/{table_id}", name, chat_id, table_id)


@router.post("/players/{name}/report")
async def report_player(request: Request, name: str) -> Response:
    """A player's report of another player (from the profile page), with a reason."""
    return await _file_report(request, f"/players/{quote(name[:100], safe='')}", name, None)
