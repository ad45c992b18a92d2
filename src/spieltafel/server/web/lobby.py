"""The lobby: open tables, the games waiting for the reader, their other games, games to watch, finished
games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from spieltafel.core.registry import all_games
from spieltafel.server.services import services_of
from spieltafel.server.web.templating import account_of, gettext_of, render
from spieltafel.server.web.texts import clock_text, game_title, table_rows

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    gettext = gettext_of(request)
    me = account_of(request)
    tables = services_of(request).tables
    open_tables = table_rows(await tables.listing("open", None), gettext, me)
    running = table_rows(await tables.listing("playing", None), gettext, me)
    mine: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    expired: list[dict[str, Any]] = []
    if me is not None:
        expired = [{**n, "title": game_title(str(n["game"]))} for n in await tables.expired_notices(me)]
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
