"""A new table: the form (game, player count, options, seats, time limit, leaver rule, private, casual)
and its creation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.core import get_game
from spieltafel.core.registry import all_games
from spieltafel.server.accounts.auth import rate_limits
from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.services import services_of
from spieltafel.server.tables.live import OFFERED_BOTS as BOT_LEVELS
from spieltafel.server.web.security import form_of
from spieltafel.server.web.templating import account_of, gettext_of, number_refused, redirect, render, sign_in_first
from spieltafel.server.web.texts import bot_level_name, error_text, per_move_names

router = APIRouter(include_in_schema=False)

MAX_PLAYERS = 99
"""The largest player count (and seat number + 1) a form may name; each game's own range is checked after."""
MAX_CLOCK_NUMBER = 9999
"""The largest minutes or increment a new-table form may name (the table service checks the real limits)."""
LIVE_MINUTES = (3, 5, 10, 15, 30, 60)
LIVE_INCREMENTS = (0, 2, 5, 10, 30)


def _seat_choices(gettext: Callable[[str], str]) -> list[tuple[str, str]]:
    choices = [("me", gettext("me")), ("open", gettext("open for a person"))]
    choices += [
        (f"bot:{level}", gettext("bot: %(level)s") % {"level": bot_level_name(level, gettext)}) for level in BOT_LEVELS
    ]
    return choices


@router.get("/tables/new", response_class=HTMLResponse)
async def new_table_page(request: Request) -> Response:
    if account_of(request) is None:
        return sign_in_first("/tables/new")
    return _new_table(request, request.query_params.get("game"), request.query_params.get("players"), {}, None)


def _new_table(
    request: Request,
    game_name: str | None,
    players_text: str | None,
    chosen: Mapping[str, str],
    error: str | None,
    status: int = 200,
) -> Response:
    gettext = gettext_of(request)
    games = [{"name": g.name, "title": g.title, "min": g.min_players, "max": g.max_players} for g in all_games()]
    context: dict[str, Any] = {"games": games, "game": None, "error": error, "private": chosen.get("private") == "1",
                               "casual": chosen.get("casual") == "1"}
    try:
        game = get_game(game_name) if game_name else None
    except Exception:
        game = None
    if game is not None:
        try:
            players = parse_int(players_text, "players", 1, MAX_PLAYERS) if players_text else game.min_players
        except BadNumber as refusal:
            players, context["error"], status = game.min_players, number_refused(refusal, gettext), refusal.status
        players = max(game.min_players, min(game.max_players, players))
        options = [
            {
                "name": spec.name,
                "label": gettext(spec.label_of()),
                "description": gettext(spec.description),
                "choices": [
                    {
                        "value": c,
                        "label": gettext(spec.label_of(c)),
                        "checked": chosen.get(f"option:{spec.name}", spec.default) == c,
                    }
                    for c in spec.choices
                ],
            }
            for spec in game.options
        ]
        seats = []
        for seat in range(players):
            default = "me" if seat == 0 else "bot:medium"
            seats.append({"seat": seat, "value": chosen.get(f"seat:{seat}", default)})
        context.update(
            game={"name": game.name, "title": game.title, "min": game.min_players, "max": game.max_players},
            players=players,
            player_counts=list(range(game.min_players, game.max_players + 1)),
            options=options,
            seats=seats,
            seat_choices=_seat_choices(gettext),
            time=_time_choices(chosen, gettext),
        )
    return render(request, "new_table.html", context, status=status)


def _time_choices(chosen: Mapping[str, str], gettext: Callable[[str], str]) -> dict[str, Any]:
    """The choices of the time limit and the leaver rule, with what was chosen (or the defaults)."""
    return {
        "pace": chosen.get("pace", "none"),
        "minutes": [
            (m, gettext("%(num)d min") % {"num": m}, str(m) == chosen.get("minutes", "10")) for m in LIVE_MINUTES
        ],
        "increments": [
            (i, gettext("%(num)d s") % {"num": i}, str(i) == chosen.get("increment", "5")) for i in LIVE_INCREMENTS
        ],
        "per_move": [(k, label, k == chosen.get("per_move", "1d")) for k, label in per_move_names(gettext).items()],
        "leaver": chosen.get("leaver", "bot"),
        "leaver_bots": [
            (level, bot_level_name(level, gettext), level == chosen.get("leaver_bot", "medium")) for level in BOT_LEVELS
        ],
    }


def _clock_of(form: Mapping[str, str]) -> dict[str, Any] | None:
    """The time limit the form asks for (the service checks the values)."""
    pace = form.get("pace", "none")
    if pace == "live":
        minutes = parse_int(form.get("minutes", ""), "minutes", 0, MAX_CLOCK_NUMBER)
        increment = parse_int(form.get("increment", "0"), "increment", 0, MAX_CLOCK_NUMBER)
        return {"pace": "live", "minutes": minutes, "increment": increment}
    if pace == "turn":
        return {"pace": "turn", "per_move": form.get("per_move", "")}
    return None


def _leaver_of(form: Mapping[str, str]) -> dict[str, Any]:
    if form.get("leaver") == "out":
        return {"rule": "out"}
    return {"rule": "bot", "bot": form.get("leaver_bot", "medium")}


@router.post("/tables/new", response_class=HTMLResponse)
async def create_table(request: Request) -> Response:
    gettext = gettext_of(request)
    me = account_of(request)
    if me is None:
        return sign_in_first("/tables/new")
    form = form_of(request)
    game_name = form.get("game", "")
    try:
        game = get_game(game_name)
        players = parse_int(form.get("players", ""), "players", game.min_players, game.max_players)
    except Exception:
        return _new_table(
            request, game_name, form.get("players"), form, gettext("Please choose a game and a player count."), 422
        )
    options = {spec.name: form.get(f"option:{spec.name}", spec.default) for spec in game.options}
    seats: list[dict[str, str]] = []
    for seat in range(players):
        value = form.get(f"seat:{seat}", "open")
        if value.startswith("bot:") and value[4:] in BOT_LEVELS:
            seats.append({"kind": "bot", "bot": value[4:]})
        elif value == "me":
            seats.append({"kind": "me"})
        else:
            seats.append({"kind": "open"})
    if sum(1 for s in seats if s["kind"] == "me") != 1:
        return _new_table(request, game.name, str(players), form, gettext("Choose exactly one seat for yourself."), 422)
    try:
        await rate_limits(request).hit("tables", str(me.id), "new tables")
        table_id = await services_of(request).tables.create(
            me, game.name, players, options, seats, private=form.get("private") == "1",
            clock=_clock_of(form), leaver=_leaver_of(form), rated=form.get("casual") != "1",
        )
    except ServiceError as refusal:
        status = getattr(refusal, "status", 422)
        return _new_table(request, game.name, str(players), form, error_text(refusal, gettext), status)
    return redirect(f"/tables/{table_id}")
