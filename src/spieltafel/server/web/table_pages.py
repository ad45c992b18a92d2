"""A table's page (open, running, finished) and what a reader does there: join, leave, chat, mute,
follow an invitation, ask for a rematch.

The running page hands the browser module its configuration and its words (:func:`client_texts`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.privacy import TableNumber
from spieltafel.server.services import services_of
from spieltafel.server.web import board, i18n
from spieltafel.server.web.new_table import MAX_PLAYERS
from spieltafel.server.web.security import form_of
from spieltafel.server.web.templating import (
    account_of,
    csrf_token_of,
    gettext_of,
    language_of,
    redirect,
    render,
    safe_next,
    sign_in_first,
)
from spieltafel.server.web.texts import (
    clock_text,
    error_text,
    game_title,
    leaver_text,
    option_rows,
    pace_text,
    seat_rows,
)

router = APIRouter(include_in_schema=False)


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: TableNumber) -> Response:
    gettext = gettext_of(request)
    lang = language_of(request)
    me = account_of(request)
    tables = services_of(request).tables
    try:
        table = await tables.get(table_id)
    except ServiceError as refusal:
        return render(
            request, "message.html", {"heading": gettext("Table not found"), "text": error_text(refusal, gettext)}, 404
        )
    status = str(table.get("status"))
    game_name = str(table.get("game"))
    seats = seat_rows(table, gettext, me)
    context: dict[str, Any] = {
        "table": table,
        "table_id": table_id,
        "title": game_title(game_name),
        "game": game_name,
        "seats": seats,
        "options": option_rows(game_name, table.get("options") or {}, gettext),
        "status": status,
        "my_seat": next((s["seat"] for s in seats if s["is_me"]), None),
        "free": sum(1 for s in seats if s["kind"] == "open"),
        "pace": pace_text(table.get("clock"), gettext),
        "leaver_rule": leaver_text(table.get("leaver") or {}, gettext),
        "error": request.query_params.get("error") and gettext("That did not work. Please try again."),
        **await _chat_context(request, table_id, me),
        "invite_url": await _invite_url(request, table_id, me),
        "hints_allowed": bool(table.get("hints_allowed")),
    }
    if status == "open":
        return render(request, "table_open.html", context)
    state = dict(await tables.state_for(table_id, me))
    seat = state.get("seat")
    board.present(state, game_name, seat, lang)
    legal, svg, texts, chosen = state["legal"], state["board"], state["texts"], set(state["chosen"])
    tg = i18n.gettext_for(lang)
    to_act = set(state.get("to_act") or [])
    clock_items = {c["seat"]: c for c in (state.get("clocks") or {}).get("seats", [])}
    for row in seats:
        row["to_act"] = row["seat"] in to_act and row["seat"] not in chosen
        row["chosen"] = row["seat"] in chosen
        row["colour"] = board.seat_name(game_name, row["seat"], tg)
        item = clock_items.get(row["seat"]) or {}
        row["clock"] = clock_text(item.get("remaining_ms"), gettext)
        row["clock_running"] = bool(item.get("running"))
    context.update(state=state, seat=seat, legal=legal, board_svg=svg, texts=texts, seats=seats)
    if status == "over" or state.get("result"):
        context["result"] = result_rows(state.get("result") or {}, seats, gettext)
        breakdown = board.score_breakdown(game_name, state.get("view") or {}, tg)
        for row in context["result"]:
            row["breakdown"] = breakdown[row["seat"]] if row["seat"] < len(breakdown) else []
        context["has_breakdown"] = bool(breakdown)
        return render(request, "table_over.html", context)
    config = {
        "table": table_id,
        "seat": seat,
        "lang": lang,
        "seq": state.get("seq"),
        "seats": {str(s["seat"]): s["label"] for s in seats},
        "me": getattr(me, "name", None),
        "texts": client_texts(gettext),
        "pace": (table.get("clock") or {}).get("pace"),
        "clocks": state.get("clocks"),
        "gone": [s.get("gone") for s in table.get("seats") or []],
        "hints": bool(table.get("hints_allowed")) and seat is not None,
        "gestures": [{k: g[k] for k in ("actions", "label", "notation")} for g in state.get("gestures") or []],
    }
    if me is not None and seat is not None:  # "Ask before each move" is the account's; a guest's is the browser's
        config["confirm"] = await services_of(request).accounts.confirm_moves(me)
        config["csrf"] = csrf_token_of(request)
    context["config_json"] = json.dumps(config, ensure_ascii=True).replace("<", "\\u003c")
    return render(request, "table.html", context)


async def _invite_url(request: Request, table_id: int, me: Any) -> str | None:
    code = await services_of(request).tables.invitation(table_id, me)
    return f"{str(request.base_url).rstrip('/')}/invite/{code}" if code else None


async def _chat_context(request: Request, table_id: int, me: Any) -> dict[str, Any]:
    chat = services_of(request).chat
    muted = await chat.mutes(me) if me is not None else []
    return {"chat": await chat.history(table_id, me), "muted": muted}


def result_rows(
    result: Mapping[str, Any], seats: list[dict[str, Any]], gettext: Callable[[str], str]
) -> list[dict[str, Any]]:
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    rows = []
    for row in seats:
        number = row["seat"]
        rows.append(
            {
                "seat": number,
                "label": row["label"],
                "kind": row["kind"],
                "name": row["name"],
                "colour": row.get("colour"),
                "is_me": row["is_me"],
                "score": scores[number] if number < len(scores) else None,
                "winner": number in winners,
                "hints": row.get("hints", 0),
            }
        )
    places = list(result.get("places") or [])
    out = set(result.get("out") or [])
    for row in rows:
        row["place"] = places[row["seat"]] if row["seat"] < len(places) else None
        row["out"] = row["seat"] in out
    rows.sort(key=lambda r: (r["place"] or 0, not r["winner"], -(r["score"] or 0)))
    return rows


def client_texts(gettext: Callable[[str], str]) -> dict[str, str]:
    """The words the browser module shows, in the page's language."""
    return {
        "your_turn": gettext("Your turn"),
        "your_turn_title": gettext("Your turn – Spieltafel"),
        "choose": gettext("Your turn: choose a move on the board."),
        "waiting_for": gettext("Waiting for: %(names)s"),
        "chosen_waiting": gettext("You have chosen. Waiting for: %(names)s"),
        "confirm": gettext("Confirm"),
        "cancel": gettext("Cancel"),
        "confirm_question": gettext("Send this move?"),
        "no-takeback": gettext(
            "Nothing to take back: your last move revealed something, drew chance or ended your turn."
        ),
        "not_confirmed": gettext(
            "The connection broke before your move was confirmed: look at the board once it is back."
        ),
        "chooser_title": gettext("Choose a move"),
        "sending": gettext("Sending…"),
        "connecting": gettext("Connecting…"),
        "reconnecting": gettext("Connection lost. Reconnecting…"),
        "signed-out": gettext("You were signed out (here or elsewhere, or your password changed). Reload the page."),
        "connected": gettext("Live"),
        "game_over": gettext("The game is over."),
        "stale": gettext("The game moved on before your move arrived. Here is the current position."),
        "illegal": gettext("That move is not allowed now."),
        "not-your-turn": gettext("It is not your turn."),
        "error": gettext("The move was refused."),
        "spectator": gettext("You are watching this game."),
        "no_moves_yet": gettext("No moves yet."),
        "chat_spectator": gettext("spectator"),
        "program": gettext("program"),
        "too-fast": gettext("You are writing too fast. Wait a few seconds."),
        "too-long": gettext("A message has at most 500 characters."),
        "empty": gettext("Write something first."),
        "bad-text": gettext("Plain text only, please."),
        "days_hours": gettext("%(days)d d %(hours)d h"),
        "hours_minutes": gettext("%(hours)d h %(minutes)d min"),
        "time-out": gettext("Your time ran out."),
        "left": gettext("You left this game."),
        "sound_on": gettext("Sound on"),
        "sound_off": gettext("Sound off"),
        "hint_best": gettext("Best: %(move)s — win chance %(chance)s (next: %(next)s %(next_chance)s)"),
        "hint_best_only": gettext("Best: %(move)s — win chance %(chance)s"),
        "hint_forced": gettext("Only one move is possible: %(move)s"),
        "hint_count": gettext("Hints used: %(num)d"),
        "no-hints": gettext("No hints in a rated game between people."),
        "hint-running": gettext("The hint is still being worked out."),
        "hint_failed": gettext("No hint: %(reason)s"),
        "hint:not-your-turn": gettext("Hints are for your own turn."),
        "hint:stale": gettext("The position changed meanwhile: ask again."),
        "hint:not-playing": gettext("Hints are only given while the game runs."),
        "hint:not-seated": gettext("Only the players at this table get hints."),
        "hint:no-hint": gettext("There is no hint for this position."),
        "hint:busy": gettext("The bots are busy with other hints: ask again in a few seconds."),
        "hint:rate-limited": gettext("You have asked for many hints: wait a moment."),
        "hint:hint-unavailable": gettext("This server gives no hints at the moment."),
        "hint:hint-failed": gettext("The hint could not be worked out: ask again."),
        "hint_unrates": gettext("A hint makes this game unrated. Ask anyway?"),
        "hint:no-hints-program": gettext("Program accounts get no hints in rated games."),
    }


@router.post("/tables/{table_id}/join")
async def join_table(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first(f"/tables/{table_id}")
    seat_text = form_of(request).get("seat", "")
    try:
        seat = parse_int(seat_text, "seat", 0, MAX_PLAYERS - 1) if seat_text else None
        await services_of(request).tables.join(me, table_id, seat)
    except ServiceError as refusal:
        gettext = gettext_of(request)
        status = refusal.status if isinstance(refusal, BadNumber) else 409
        return render(
            request,
            "message.html",
            {"heading": gettext("Could not join"), "text": error_text(refusal, gettext), "back": f"/tables/{table_id}"},
            status,
        )
    return redirect(f"/tables/{table_id}")


@router.post("/tables/{table_id}/leave")
async def leave_table(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first(f"/tables/{table_id}")
    tables = services_of(request).tables
    try:
        await tables.leave(me, table_id, confirmed=form_of(request).get("confirm") == "yes")
    except ServiceError as refusal:
        gettext = gettext_of(request)
        if getattr(refusal, "code", None) == "confirm-leave":  # a running game: ask (again), change nothing
            table = await tables.get(table_id)
            context = {
                "table_id": table_id,
                "title": game_title(str(table.get("game"))),
                "leaver_rule": leaver_text(table.get("leaver") or {}, gettext),
            }
            return render(request, "table_leave.html", context)
        return render(
            request,
            "message.html",
            {
                "heading": gettext("Could not leave"),
                "text": error_text(refusal, gettext),
                "back": f"/tables/{table_id}",
            },
            409,
        )
    return redirect("/")


@router.post("/tables/{table_id}/chat")
async def say(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first(f"/tables/{table_id}")
    try:
        await services_of(request).chat.say(me, table_id, form_of(request).get("text", ""))
    except ServiceError as refusal:
        gettext = gettext_of(request)
        text = client_texts(gettext).get(str(getattr(refusal, "code", "")), error_text(refusal, gettext))
        return _refused(request, gettext("Not sent"), text, f"/tables/{table_id}", refusal)
    return redirect(f"/tables/{table_id}#chat")


def _refused(request: Request, heading: str, text: str, back: str, refusal: Exception) -> Response:
    """A page saying what was refused, with the refusal's status and a way back."""
    context = {"heading": heading, "text": text, "back": back}
    return render(request, "message.html", context, int(getattr(refusal, "status", 409)))


@router.post("/mutes")
async def mute(request: Request) -> Response:
    me = account_of(request)
    form = form_of(request)
    target = safe_next(form.get("next"))
    if me is None:
        return sign_in_first(target)
    try:
        await services_of(request).chat.mute(me, form.get("name", ""), form.get("action") != "unmute")
    except ServiceError as refusal:
        gettext = gettext_of(request)
        return _refused(request, gettext("Could not mute"), error_text(refusal, gettext), target, refusal)
    return redirect(target)


@router.get("/invite/{code}")
async def invitation(request: Request, code: str) -> Response:
    """An invitation link: the signed-in reader may now see (and join) the private table."""
    me = account_of(request)
    if me is None:
        return sign_in_first(f"/invite/{quote(code, safe='')}")
    try:
        table_id = await services_of(request).tables.admit(me, code[:100])
    except ServiceError:
        gettext = gettext_of(request)
        context = {"heading": gettext("Invitation not valid"), "text": gettext("This invitation link is not valid.")}
        return render(request, "message.html", context, 404)
    return redirect(f"/tables/{table_id}")


@router.post("/tables/{table_id}/rematch")
async def rematch(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return sign_in_first(f"/tables/{table_id}")
    try:
        new_id, _made = await services_of(request).tables.rematch(me, table_id)
    except ServiceError as refusal:
        gettext = gettext_of(request)
        return _refused(request, gettext("No rematch"), error_text(refusal, gettext), f"/tables/{table_id}", refusal)
    return redirect(f"/tables/{new_id}")
