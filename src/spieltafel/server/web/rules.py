"""Rules pages: ``GET /rules`` (the games) and ``GET /rules/{game}`` (short and long rules, board pictures,
every option explained), and ``GET /rules/{game}/decisions`` (our decisions on unclear points, the
project's ``docs/rules/<game>.md`` rendered, when the source tree is there).

Everything comes from the game's kit (``spieltafel.core.kit.RulesPage``): the rule texts are a template of the
game's package (Jinja2 ``{% trans %}`` blocks, English, German, Dutch), the decisions a Markdown file beside
it. The board pictures are the game's board of real engine positions seen by a spectator: the set-up and a
game in progress (random moves from a fixed seed).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from spieltafel.core import Game, Rng, RulesPage, UnknownGameError, all_games, get_game, kit_of
from spieltafel.server.web import i18n
from spieltafel.server.web.templating import GAME_TEMPLATES, language_of, render

router = APIRouter(include_in_schema=False)  # pages, not the JSON API

PICTURE_SEED = 11

REPOSITORY_DOCS = "docs/rules/{game}.md"


def rules_games() -> list[Game]:
    """The registered games that have a rules page (their kit declares one)."""
    return [game for game in all_games() if _rules_of(game) is not None]


def _rules_of(game: Game) -> RulesPage | None:
    kit = kit_of(game)
    if kit.rules is None or kit.board is None:
        return None
    return kit.rules if (kit.folder() / kit.rules.template).is_file() else None


def _game_or_none(name: str) -> Game | None:
    try:
        game = get_game(name)
    except UnknownGameError:
        return None
    return game if game.name == name and _rules_of(game) is not None else None


@lru_cache(maxsize=32)
def pictures(name: str, lang: str) -> tuple[tuple[str, int, int, str], ...]:
    """(kind, players, moves, svg) for the set-up and for a game in progress, seen by a spectator."""
    game = get_game(name)
    page = _rules_of(game)
    board = kit_of(game).board_module()
    assert page is not None
    players = page.picture_players or game.min_players
    gettext = i18n.gettext_for(lang)
    state = game.new_state(players, PICTURE_SEED)
    shown = [("start", players, 0, board.render_board(state.view(None), None, [], gettext))]
    rng = Rng(PICTURE_SEED)
    moves = 0
    while moves < page.picture_moves and not state.is_over:
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    shown.append(("playing", players, moves, board.render_board(state.view(None), None, [], gettext)))
    return tuple(shown)


def _not_found(request: Request, name: str) -> HTMLResponse:
    return render(request, "rules/missing.html", {"name": name[:40], "games": rules_games()}, status=404)


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request) -> Response:
    return render(request, "rules/index.html", {"games": rules_games()})


@router.get("/rules/{name}", response_class=HTMLResponse)
async def rules_page(request: Request, name: str) -> Response:
    game = _game_or_none(name)
    if game is None:
        return _not_found(request, name)
    lang = language_of(request)
    shown = [
        {"kind": kind, "players": players, "moves": moves, "svg": Markup(svg)}
        for kind, players, moves, svg in pictures(game.name, lang)
    ]
    context: dict[str, Any] = {
        "game": game,
        "options": game.options,
        "pictures": shown,
        "decisions_url": f"/rules/{game.name}/decisions",
        "decisions_path": REPOSITORY_DOCS.format(game=game.name),
    }
    page = _rules_of(game)
    assert page is not None
    return render(request, f"{GAME_TEMPLATES}{game.name}/{page.template}", context)


def decisions_file(name: str, lang: str) -> tuple[Any, str] | None:
    """The game's decisions in ``lang`` (``decisions.de.md`` beside ``decisions.md``) or else in English:
    (path, the language it is written in); None when the game has none."""
    game = get_game(name)
    page = _rules_of(game)
    if page is None:
        return None
    english = kit_of(game).folder() / page.decisions
    translated = english.with_name(f"{english.stem}.{lang}{english.suffix}")
    if lang != "en" and translated.is_file():
        return translated, lang
    return (english, "en") if english.is_file() else None


@lru_cache(maxsize=16)
def _decisions_html(name: str, lang: str = "en") -> tuple[str, str] | None:
    """The decisions as HTML and the language they are written in."""
    found = decisions_file(name, lang)
    if found is None:
        return None
    path, written = found
    from markdown_it import MarkdownIt

    markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    return str(markdown.render(path.read_text(encoding="utf-8"))), written


@router.get("/rules/{name}/decisions", response_class=HTMLResponse)
async def rules_decisions(request: Request, name: str) -> Response:
    game = _game_or_none(name)
    if game is None:
        return _not_found(request, name)
    found = _decisions_html(game.name, language_of(request))
    context: dict[str, Any] = {
        "game": game,
        "document": Markup(found[0]) if found is not None else None,
        "document_lang": found[1] if found is not None else "en",
        "decisions_path": REPOSITORY_DOCS.format(game=game.name),
    }
    return render(request, "rules/decisions.html", context, status=200)
