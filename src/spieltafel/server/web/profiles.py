"""Leaderboards and profiles as pages; the rating history plot is SVG drawn here (no JavaScript)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup, escape

from spieltafel.arena.stats import initial_rating
from spieltafel.core import get_game
from spieltafel.core.registry import all_games
from spieltafel.server.errors import ServiceError
from spieltafel.server.services import Services, services_of
from spieltafel.server.web.templating import account_of, gettext_of, redirect, render

router = APIRouter(include_in_schema=False)

PLOT_WIDTH, PLOT_HEIGHT = 480, 180
PROVISIONAL_GAMES = 5
"""A player's rating shows ("?" before) once this many of the game's games are rated: a newcomer's μ − 3σ
starts at 0 and drops below it after a first loss, which players read as a penalty, not as "not known yet"."""
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 26


def _services(request: Request) -> Services:
    return services_of(request)


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except Exception:
        return game


def rating_plot(history: Sequence[dict[str, Any]], label: str) -> Markup:
    """The rating after each game (mu, with the band mu ± 2 sigma), starting from a newcomer's rating."""
    start = initial_rating()
    points = [(start.mu, start.sigma)] + [(float(p["mu"]), float(p["sigma"])) for p in history]
    low = min(mu - 2 * sigma for mu, sigma in points)
    high = max(mu + 2 * sigma for mu, sigma in points)
    span = high - low or 1.0
    width, height = PLOT_WIDTH - LEFT - RIGHT, PLOT_HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + width * index / max(1, len(points) - 1)

    def y(value: float) -> float:
        return TOP + height * (high - value) / span

    upper = [f"{x(i):.1f},{y(mu + 2 * sigma):.1f}" for i, (mu, sigma) in enumerate(points)]
    lower = [f"{x(i):.1f},{y(mu - 2 * sigma):.1f}" for i, (mu, sigma) in reversed(list(enumerate(points)))]
    line = " ".join(f"{x(i):.1f},{y(mu):.1f}" for i, (mu, _) in enumerate(points))
    dots = "".join(
        f'<circle class="dot" cx="{x(i):.1f}" cy="{y(mu):.1f}" r="3"><title>{mu:.1f}</title></circle>'
        for i, (mu, _) in enumerate(points) if i
    )
    axis = (
        f'<line class="axis" x1="{LEFT}" y1="{TOP + height}" x2="{LEFT + width}" y2="{TOP + height}"/>'
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + height}"/>'
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end">{high:.0f}</text>'
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + height}" text-anchor="end">{low:.0f}</text>'
        f'<text class="tick" x="{LEFT + width}" y="{PLOT_HEIGHT - 6}" text-anchor="end">{len(points) - 1}</text>'
        f'<text class="tick" x="{LEFT}" y="{PLOT_HEIGHT - 6}">0</text>'
    )
    return Markup(
        f'<svg class="rating-plot" viewBox="0 0 {PLOT_WIDTH} {PLOT_HEIGHT}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg">{axis}<polygon class="band" points="{" ".join(upper + lower)}"/>'
        f'<polyline class="mu" points="{line}"/>{dots}</svg>'
    )


def _player_label(entry: dict[str, Any], gettext: Callable[[str], str]) -> str:
    from spieltafel.server.web.texts import bot_level_name

    if entry["kind"] == "bot":
        return gettext("Bot (%(level)s)") % {"level": bot_level_name(str(entry["name"]), gettext)}
    return str(entry["name"])


@router.get("/leaderboards")
async def leaderboards() -> Response:
    return redirect(f"/leaderboards/{all_games()[0].name}")


@router.get("/leaderboards/{game}", response_class=HTMLResponse)
async def leaderboard_page(request: Request, game: str) -> Response:
    gettext = gettext_of(request)
    try:
        entries = await _services(request).ratings.leaderboard(game)
    except ServiceError:
        context = {"heading": gettext("Page not found"), "text": gettext("There is no page at this address.")}
        return render(request, "message.html", context, 404)
    for entry in entries:
        entry["label"] = _player_label(entry, gettext)
    games = [{"name": g.name, "title": g.title} for g in all_games()]
    page = {"game": game, "title": _title(game), "games": games, "entries": entries,
            "provisional_games": PROVISIONAL_GAMES}
    return render(request, "leaderboard.html", page)


@router.get("/players/{name}", response_class=HTMLResponse)
async def profile_page(request: Request, name: str) -> Response:
    gettext = gettext_of(request)
    try:
        profile = await _services(request).ratings.profile(name[:100], account_of(request))
    except ServiceError:
        context = {"heading": gettext("Player not found"), "text": gettext("There is no account of that name.")}
        return render(request, "message.html", context, 404)
    for rated in profile["games"]:
        rated["title"] = _title(rated["game"])
        label = gettext("Rating history: %(game)s") % {"game": rated["title"]}
        rated["plot"] = rating_plot(rated["history"], label)
    for recent in [*profile["recent"], *profile["casual"]]:
        recent["title"] = _title(recent["game"])
    return render(request, "profile.html", {"profile": profile, "provisional_games": PROVISIONAL_GAMES})
