"""The pages: sign up, sign in, sign out, language, lobby, new table, table (running, open, finished).

Each page calls the services on ``app.state.services`` (accounts, tables) and renders a template in
the request's language. Service refusals become readable, translated messages. Forms are read with
:func:`spieltafel.server.web.security.form_of` (the middleware has already checked their CSRF token).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from spieltafel.core import get_game
from spieltafel.core.registry import all_games
from spieltafel.server.accounts.auth import (
    address_of,
    clear_session_cookie,
    cookie_secure,
    rate_limits,
    sign_in_checked,
    start_session,
)
from spieltafel.server.accounts.service import DELETED_NAME
from spieltafel.server.errors import ServiceError, http_error_detail
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.privacy import TableNumber
from spieltafel.server.ratelimit import RateLimited
from spieltafel.server.responses import service_error_json
from spieltafel.server.services import Services, services_of
from spieltafel.server.tables.live import OFFERED_BOTS as BOT_LEVELS
from spieltafel.server.web import board, i18n
from spieltafel.server.web.security import SESSION_COOKIE, form_of, is_page
from spieltafel.server.web.templating import account_of, csrf_token_of, gettext_of, language_of, number_refused, render

router = APIRouter(include_in_schema=False)

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 8
MAX_PLAYERS = 99
"""The largest player count (and seat number + 1) a form may name; each game's own range is checked after."""
MAX_CLOCK_NUMBER = 9999
"""The largest minutes or increment a new-table form may name (the table service checks the real limits)."""
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def _services(request: Request) -> Services:
    return services_of(request)


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def safe_next(value: str | None, default: str = "/") -> str:
    """A local path to go back to (never another site)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value or "\n" in value:
        return default
    return value


def error_text(error: Exception, gettext: Callable[[str], str]) -> str:
    """A service refusal in the reader's language."""
    if isinstance(error, BadNumber):
        return number_refused(error, gettext)
    code = str(getattr(error, "code", "") or "")
    known = {
        "stale": gettext("The game moved on before your move arrived. Here is the current position."),
        "illegal": gettext("That move is not allowed now."),
        "not-your-turn": gettext("It is not your turn."),
        "not-seated": gettext("You do not have a seat at this table."),
        "unauthenticated": gettext("Please sign in first."),
        "forbidden": gettext("You may not do that."),
        "not-found": gettext("There is no such table."),
        "no-table": gettext("There is no such table."),
        "taken": gettext("That name is taken. Please choose another."),
        "name-taken": gettext("That name is taken. Please choose another."),
        "seat-taken": gettext("That seat is taken."),
        "full": gettext("This table has no free seat."),
        "started": gettext("This game has already started."),
        "over": gettext("This game is over."),
        "credentials": gettext("Wrong name or password."),
        "rate-limited": gettext("Too many tries in a short time. Please wait a while and try again."),
        "analysis-unavailable": gettext(
            "No analysis can be worked out now: no process that computes analyses is running. Please try "
            "again later."
        ),
    }
    if code in known:
        return known[code]
    name = type(error).__name__
    by_class = {
        "Unauthenticated": gettext("Please sign in first."),
        "Forbidden": gettext("You may not do that."),
        "NotFound": gettext("There is no such table."),
        "StaleSeq": known["stale"],
        "Conflict": gettext("That is not possible at this table now."),
        "Invalid": gettext("Some of what you entered is not valid."),
    }
    return by_class.get(name, gettext("Something went wrong. Please try again."))


def _service_error() -> type[Exception]:
    return ServiceError


def _game_title(name: str) -> str:
    try:
        return get_game(name).title
    except Exception:
        return name


# -- seats and tables as the templates want them -------------------------------------------------------


def seat_rows(table: Mapping[str, Any], gettext: Callable[[str], str], me: Any = None) -> list[dict[str, Any]]:
    """One row per seat: number, who sits there (a name, a bot level or open), and whether it is me."""
    rows: list[dict[str, Any]] = []
    to_act = set(table.get("to_act") or [])
    me_name = getattr(me, "name", None)
    out_rule = (table.get("leaver") or {}).get("rule") == "out"
    for index, seat in enumerate(table.get("seats") or []):
        seat = seat if isinstance(seat, Mapping) else {"name": seat}
        number = int(seat.get("seat", index))
        kind = str(seat.get("kind") or "")
        name = seat.get("name") or seat.get("account")
        bot = seat.get("bot")
        gone = seat.get("gone")
        if bot and (not name or gone):
            kind = "bot"
        elif name:
            kind = "program" if seat.get("program") or kind == "program" else "person"
        elif kind != "bot":
            kind = "open"
        shown = gettext("deleted player") if name == DELETED_NAME else name  # an account deleted since
        if kind == "person" and name == DELETED_NAME:
            kind = "deleted"  # no link to a profile
        if gone and name:
            label = gone_label(str(shown), str(bot or ""), out_rule, gettext)
        elif kind == "bot":
            label = gettext("Bot (%(level)s)") % {"level": bot_level_name(str(bot or ""), gettext)}
        elif kind == "open":
            label = gettext("open seat")
        elif kind == "program":
            label = gettext("%(name)s (program)") % {"name": name}
        else:
            label = str(shown)
        rows.append(
            {
                "seat": number,
                "kind": kind,
                "label": label,
                "name": name,
                "is_me": bool(me_name and name == me_name and not gone),
                "to_act": number in to_act,
                "gone": gone_reason(str(gone), gettext) if gone else None,
                "out": bool(gone and out_rule),
                "hints": int(seat.get("hints") or 0),
            }
        )
    return rows


def gone_label(name: str, bot: str, out_rule: bool, gettext: Callable[[str], str]) -> str:
    """A seat whose person left or ran out of time: who took it over, or that the person is out."""
    if out_rule:
        return gettext("%(name)s (out)") % {"name": name}
    return gettext("Bot (%(level)s) for %(name)s") % {"level": bot_level_name(bot, gettext), "name": name}


def gone_reason(gone: str, gettext: Callable[[str], str]) -> str:
    return gettext("ran out of time") if gone == "time" else gettext("left the game")


def clock_text(ms: int | None, gettext: Callable[[str], str]) -> str:
    """Time left, as a clock shows it: ``4:05`` (``1:02:03``), or days and hours when it is long."""
    if ms is None:
        return ""
    seconds = max(0, ms) // 1000
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return gettext("%(days)d d %(hours)d h") % {"days": days, "hours": hours}
    if hours >= 2:
        return gettext("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def pace_text(clock: Mapping[str, Any] | None, gettext: Callable[[str], str]) -> str:
    """The table's time limit in words."""
    if not clock:
        return gettext("no time limit")
    if clock.get("pace") == "live":
        return gettext("live: %(minutes)d min + %(increment)d s per move") % {
            "minutes": int(clock.get("minutes") or 0), "increment": int(clock.get("increment") or 0)
        }
    names = per_move_names(gettext)
    return gettext("turn-based: %(limit)s per move") % {"limit": names.get(str(clock.get("per_move")), "")}


def per_move_names(gettext: Callable[[str], str]) -> dict[str, str]:
    return {"12h": gettext("12 hours"), "1d": gettext("1 day"), "3d": gettext("3 days"), "7d": gettext("7 days")}


def bot_level_name(level: str, gettext: Callable[[str], str]) -> str:
    names = {
        "easy": gettext("easy"),
        "medium": gettext("medium"),
        "hard": gettext("hard"),
        "expert": gettext("expert"),
        "greedy": gettext("greedy"),
        "random": gettext("random"),
    }
    return names.get(level, level)


def option_rows(game_name: str, options: Mapping[str, Any], gettext: Callable[[str], str]) -> list[dict[str, str]]:
    """The table's options in words: the option's name and the chosen value."""
    rows = []
    try:
        specs = {spec.name: spec for spec in get_game(game_name).options}
    except Exception:
        specs = {}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is not None and str(value) == spec.default:
            continue
        if spec is None:
            rows.append({"name": gettext(key), "value": gettext(str(value))})
        else:
            rows.append({"name": gettext(spec.label_of()), "value": gettext(spec.label_of(str(value)))})
    return rows


def table_rows(tables: Sequence[Mapping[str, Any]], gettext: Callable[[str], str], me: Any) -> list[dict[str, Any]]:
    rows = []
    for table in tables:
        seats = seat_rows(table, gettext, me)
        to_act = [s for s in seats if s["to_act"]]
        rows.append(
            {
                "id": table.get("id"),
                "game": table.get("game"),
                "title": _game_title(str(table.get("game"))),
                "players": table.get("players"),
                "status": table.get("status"),
                "seats": seats,
                "free": sum(1 for s in seats if s["kind"] == "open"),
                "options": option_rows(str(table.get("game")), table.get("options") or {}, gettext),
                "to_act": to_act,
                "my_turn": any(s["is_me"] for s in to_act),
                "mine": any(s["is_me"] for s in seats),
                "pace": pace_text(table.get("clock"), gettext),
                "timed": bool(table.get("clock")),
                "casual": table.get("rated") is False,
            }
        )
    return rows


async def not_found_page(request: Request, error: Exception) -> Response:
    """A page that does not exist, in the reader's language; the API answers in its JSON error shape."""
    from fastapi.exception_handlers import http_exception_handler
    from starlette.exceptions import HTTPException as StarletteHTTPException


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


# -- accounts -----------------------------------------------------------------------------------------


@router.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request) -> Response:
    return render(
        request, "signup.html", {"name": "", "error": None, "next": safe_next(request.query_params.get("next"))}
    )


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
        services = _services(request)
        try:
            await rate_limits(request).hit("accounts", address_of(request), "new accounts")
            account = await services.accounts.create(name, password, form.get("program") == "1")
            chosen = i18n.normalise(request.cookies.get(i18n.LANGUAGE_COOKIE))
            if chosen:
                await services.accounts.set_language(account, chosen)
        except _service_error() as refusal:
            code = str(getattr(refusal, "code", ""))
            status = refusal.status if isinstance(refusal, RateLimited) else status
            if type(refusal).__name__ == "Conflict" or "taken" in code or "exists" in code:
                error = gettext("That name is taken. Please choose another.")
            elif type(refusal).__name__ == "Invalid":
                error = gettext("That password is too common or too weak. Please choose another.")
            else:
                error = error_text(refusal, gettext)
        else:
            response = _redirect(target)
            await start_session(request, response, account)
            return response
    return render(request, "signup.html", {"name": name, "error": error, "next": target}, status=status)


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request) -> Response:
    return render(
        request, "signin.html", {"name": "", "error": None, "next": safe_next(request.query_params.get("next"))}
    )


@router.post("/signin", response_class=HTMLResponse)
async def signin(request: Request) -> Response:
    gettext = gettext_of(request)
    form = form_of(request)
    name = form.get("name", "").strip()
    target = safe_next(form.get("next"))
    services = _services(request)
    try:
        account = await sign_in_checked(request, name, form.get("password", ""))
    except _service_error() as refusal:
        if type(refusal).__name__ in ("Unauthenticated", "Invalid", "NotFound"):
            error = gettext("Wrong name or password.")
        else:
            error = error_text(refusal, gettext)
        status = getattr(refusal, "status", 401)
        return render(request, "signin.html", {"name": name, "error": error, "next": target}, status=status)
    response = _redirect(target)
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
        try:
            await _services(request).accounts.close_session(session)
        except _service_error():
            pass
    response = _redirect("/")
    try:

        clear_session_cookie(response)
    except ImportError:  # pragma: no cover
        response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/language")
async def set_language(request: Request) -> Response:
    form = form_of(request)
    lang = i18n.normalise(form.get("lang")) or i18n.DEFAULT_LANGUAGE
    response = _redirect(safe_next(form.get("next")))
    secure = cookie_secure(request)
    response.set_cookie(
        i18n.LANGUAGE_COOKIE, lang, max_age=LANGUAGE_COOKIE_AGE, path="/", samesite="lax", secure=secure
    )
    account = account_of(request)
    if account is not None:
        await _services(request).accounts.set_language(account, lang)
    return response


# -- lobby --------------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    gettext = gettext_of(request)
    me = account_of(request)
    tables = _services(request).tables
    open_tables = table_rows(await tables.listing("open", None), gettext, me)
    running = table_rows(await tables.listing("playing", None), gettext, me)
    mine: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    expired: list[dict[str, Any]] = []
    if me is not None:
        expired = [{**n, "title": _game_title(str(n["game"]))} for n in await tables.expired_notices(me)]
        waiting = waiting_rows(await tables.waiting(me), gettext, me, tables.now_ms())
        # each of my games once (issue 26): waiting for me, else among my games; not again among those to watch
        shown = {t["id"] for t in waiting}
        mine = [t for t in table_rows(await tables.listing(None, me), gettext, me)
                if t["status"] != "over" and t["id"] not in shown]
        running = [t for t in running if t["id"] not in shown and t["id"] not in {m["id"] for m in mine}]
        mine.sort(key=lambda t: (not t["my_turn"], t["status"] != "playing", -int(t["id"] or 0)))
        finished = [t for t in table_rows(await tables.listing("over", me), gettext, me)][:10]
    else:
        finished = [t for t in table_rows(await tables.listing("over", None), gettext, me)][:10]
    games = [{"name": g.name, "title": g.title, "min": g.min_players, "max": g.max_players} for g in all_games()]
    return render(
        request,
        "lobby.html",
        {
            "open_tables": open_tables, "running": running, "mine": mine, "finished": finished, "games": games,
            "waiting": waiting, "expired": expired,
        },
    )


def waiting_rows(
    tables: Sequence[Mapping[str, Any]], gettext: Callable[[str], str], me: Any, now_ms: int
) -> list[dict[str, Any]]:
    """The games waiting for ``me``, each with the time left for the move (empty without a limit)."""
    rows = table_rows(tables, gettext, me)
    for row, table in zip(rows, tables, strict=True):
        deadline = table.get("deadline_ms")
        row["time_left"] = clock_text(deadline - now_ms, gettext) if isinstance(deadline, int) else ""
    return rows


# -- a new table --------------------------------------------------------------------------------------


def _seat_choices(gettext: Callable[[str], str]) -> list[tuple[str, str]]:
    choices = [("me", gettext("me")), ("open", gettext("open for a person"))]
    choices += [
        (f"bot:{level}", gettext("bot: %(level)s") % {"level": bot_level_name(level, gettext)}) for level in BOT_LEVELS
    ]
    return choices


@router.get("/tables/new", response_class=HTMLResponse)
async def new_table_page(request: Request) -> Response:
    if account_of(request) is None:
        return _redirect("/signin?next=/tables/new")
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


LIVE_MINUTES = (3, 5, 10, 15, 30, 60)
LIVE_INCREMENTS = (0, 2, 5, 10, 30)


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
        return _redirect("/signin?next=/tables/new")
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
        table_id = await _services(request).tables.create(
            me, game.name, players, options, seats, private=form.get("private") == "1",
            clock=_clock_of(form), leaver=_leaver_of(form), rated=form.get("casual") != "1",
        )
    except _service_error() as refusal:
        status = getattr(refusal, "status", 422)
        return _new_table(request, game.name, str(players), form, error_text(refusal, gettext), status)
    return _redirect(f"/tables/{table_id}")


# -- a table ------------------------------------------------------------------------------------------


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: TableNumber) -> Response:
    gettext = gettext_of(request)
    lang = language_of(request)
    me = account_of(request)
    tables = _services(request).tables
    try:
        table = await tables.get(table_id)
    except _service_error() as refusal:
        return render(
            request, "message.html", {"heading": gettext("Table not found"), "text": error_text(refusal, gettext)}, 404
        )
    status = str(table.get("status"))
    game_name = str(table.get("game"))
    seats = seat_rows(table, gettext, me)
    context: dict[str, Any] = {
        "table": table,
        "table_id": table_id,
        "title": _game_title(game_name),
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
        config["confirm"] = await _services(request).accounts.confirm_moves(me)
        config["csrf"] = csrf_token_of(request)
    context["config_json"] = json.dumps(config, ensure_ascii=True).replace("<", "\\u003c")
    return render(request, "table.html", context)


async def _invite_url(request: Request, table_id: int, me: Any) -> str | None:
    code = await _services(request).tables.invitation(table_id, me)
    return f"{str(request.base_url).rstrip('/')}/invite/{code}" if code else None


async def _chat_context(request: Request, table_id: int, me: Any) -> dict[str, Any]:
    chat = _services(request).chat
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


def leaver_text(leaver: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """What happens to the seat of a person who leaves or runs out of time."""
    if leaver.get("rule") == "out":
        return gettext("Who leaves or runs out of time is out and ranked last.")
    level = bot_level_name(str(leaver.get("bot") or "medium"), gettext)
    return gettext("Who leaves or runs out of time is replaced by a bot (%(level)s).") % {"level": level}


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
        return _redirect(f"/signin?next=/tables/{table_id}")
    seat_text = form_of(request).get("seat", "")
    try:
        seat = parse_int(seat_text, "seat", 0, MAX_PLAYERS - 1) if seat_text else None
        await _services(request).tables.join(me, table_id, seat)
    except _service_error() as refusal:
        gettext = gettext_of(request)
        status = refusal.status if isinstance(refusal, BadNumber) else 409
        return render(
            request,
            "message.html",
            {"heading": gettext("Could not join"), "text": error_text(refusal, gettext), "back": f"/tables/{table_id}"},
            status,
        )
    return _redirect(f"/tables/{table_id}")


@router.post("/tables/{table_id}/leave")
async def leave_table(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return _redirect(f"/signin?next=/tables/{table_id}")
    tables = _services(request).tables
    try:
        await tables.leave(me, table_id, confirmed=form_of(request).get("confirm") == "yes")
    except _service_error() as refusal:
        gettext = gettext_of(request)
        if getattr(refusal, "code", None) == "confirm-leave":  # a running game: ask (again), change nothing
            table = await tables.get(table_id)
            context = {
                "table_id": table_id,
                "title": _game_title(str(table.get("game"))),
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
    return _redirect("/")


@router.post("/tables/{table_id}/chat")
async def say(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return _redirect(f"/signin?next=/tables/{table_id}")
    try:
        await _services(request).chat.say(me, table_id, form_of(request).get("text", ""))
    except _service_error() as refusal:
        gettext = gettext_of(request)
        text = client_texts(gettext).get(str(getattr(refusal, "code", "")), error_text(refusal, gettext))
        return _refused(request, gettext("Not sent"), text, f"/tables/{table_id}", refusal)
    return _redirect(f"/tables/{table_id}#chat")


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
        return _redirect(f"/signin?next={target}")
    try:
        await _services(request).chat.mute(me, form.get("name", ""), form.get("action") != "unmute")
    except _service_error() as refusal:
        gettext = gettext_of(request)
        return _refused(request, gettext("Could not mute"), error_text(refusal, gettext), target, refusal)
    return _redirect(target)


@router.get("/invite/{code}")
async def invitation(request: Request, code: str) -> Response:
    """An invitation link: the signed-in reader may now see (and join) the private table."""
    me = account_of(request)
    if me is None:
        return _redirect(f"/signin?next=/invite/{quote(code, safe='')}")
    try:
        table_id = await _services(request).tables.admit(me, code[:100])
    except _service_error():
        gettext = gettext_of(request)
        context = {"heading": gettext("Invitation not valid"), "text": gettext("This invitation link is not valid.")}
        return render(request, "message.html", context, 404)
    return _redirect(f"/tables/{table_id}")


@router.post("/tables/{table_id}/rematch")
async def rematch(request: Request, table_id: TableNumber) -> Response:
    me = account_of(request)
    if me is None:
        return _redirect(f"/signin?next=/tables/{table_id}")
    try:
        new_id, _made = await _services(request).tables.rematch(me, table_id)
    except _service_error() as refusal:
        gettext = gettext_of(request)
        return _refused(request, gettext("No rematch"), error_text(refusal, gettext), f"/tables/{table_id}", refusal)
    return _redirect(f"/tables/{new_id}")
