"""Interactive tutorials (issue 27): ``GET /learn/{game}`` and the steps it asks for.

A game's tutorial is data of its package (``spieltafel.core.tutorial``): each step a real engine position, a
text, the move expected and the hint for a wrong one. The server keeps nothing: the page (``static/learn.js``)
asks ``GET /learn/{game}/step?n=N`` for a step and ``GET /learn/{game}/step?n=N&move=I`` to check the learner's
move (an action index); the answer is the next step or the hint, in the reader's language. The board is the
game's own board (the same presenter as the table page), drawn from the learner's seat's view.

The last step offers "Play your first game against an easy bot": ``POST /learn/{game}/play`` creates a table
for the signed-in person with easy bots in the other seats (the game's smallest player count; a casual game, so
that a first game changes no rating) and opens it;
``GET /learn/{game}/play`` asks a guest to sign in first and comes back to that button.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from spieltafel.core import Game, UnknownGameError, all_games, get_game
from spieltafel.core.events import Event
from spieltafel.core.tutorial import Tutorial, TutorialError, check, load
from spieltafel.server.accounts.auth import rate_limits
from spieltafel.server.errors import ServiceError
from spieltafel.server.numbers import BadNumber, parse_int
from spieltafel.server.services import services_of
from spieltafel.server.web import board, i18n
from spieltafel.server.web.templating import account_of, gettext_of, language_of, redirect, render, sign_in_first
from spieltafel.server.web.texts import error_text

router = APIRouter(include_in_schema=False)  # pages, not the JSON API
P = ParamSpec("P")

FIRST_GAME_BOT = "easy"
EVENTS_SHOWN = 8
"""The last events before a step shown in words (the final step follows many turns)."""


def learn_games() -> list[Game]:
    """The registered games that offer a tutorial."""
    return [game for game in all_games() if tutorial_of(game) is not None]


def tutorial_of(game: Game) -> Tutorial | None:
    try:
        return load(game)
    except (TutorialError, OSError, ValueError):  # a broken tutorial file hides the page (its test fails)
        return None


def _found(name: str) -> tuple[Game, Tutorial] | None:
    try:
        game = get_game(name)
    except UnknownGameError:
        return None
    tutorial = tutorial_of(game) if game.name == name else None
    return None if tutorial is None else (game, tutorial)


class _Answered(Exception):
    """A route's request cannot go on: ``answer`` (a page, a JSON refusal or a redirect) is what it gets."""

    def __init__(self, answer: Response) -> None:
        super().__init__(answer.status_code)
        self.answer = answer


def _answering(route: Callable[P, Awaitable[Response]]) -> Callable[P, Awaitable[Response]]:
    """The route, answering :class:`_Answered`'s answer where its helpers raise one."""

    @functools.wraps(route)
    async def answering(*args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return await route(*args, **kwargs)
        except _Answered as answered:
            return answered.answer

    return answering


def _lookup(request: Request, name: str, page: bool = True) -> tuple[Game, Tutorial]:
    """The game ``name`` and its tutorial; else the answer that there is none (a page, or for the page's script
    a JSON refusal)."""
    found = _found(name)
    if found is not None:
        return found
    if page:
        raise _Answered(_missing(request, name))
    raise _Answered(_refusal(gettext_of(request)("There is no tutorial for “%(name)s”.") % {"name": name[:40]}, 404))


def _player(request: Request, name: str) -> tuple[Game, Any]:
    """The game of ``/learn/{name}/play`` and the signed-in account; else the page that there is no tutorial,
    or the way to sign in first (which comes back to the tutorial's end)."""
    game, _ = _lookup(request, name)
    me = account_of(request)
    if me is None:
        raise _Answered(sign_in_first(f"/learn/{game.name}/play"))
    return game, me


def _count(text: str, name: str, high: int, refusal: str) -> int:
    """``text`` as a whole number from 0 to ``high``; else the refusal (``refusal`` names ``%(high)d``)."""
    try:
        return parse_int(text, name, 0, high)
    except BadNumber:
        raise _Answered(_refusal(refusal % {"high": high})) from None


def step_payload(game: Game, tutorial: Tutorial, number: int, lang: str, made: int = 0) -> dict[str, Any]:
    """Step ``number`` after ``made`` of its moves, as the page shows it: its text, the board from the learner's
    seat (every legal move a target, the expected one highlighted), the moves in words and what happened since
    the learner's previous move."""
    gettext = i18n.gettext_for(lang)
    step = tutorial.step(number)
    events: list[Event] = []
    state = tutorial.position(number, made, events)
    seat = tutorial.seat
    acting = bool(step.expect) and seat in state.seats_to_act()
    legal = [(a, state.action_text(seat, a)) for a in state.legal_actions(seat)] if acting else []
    highlight = [state.read_action(seat, notation) for notation in step.targets(made)] if acting else []
    svg = board.render_board(game.name, state.view(seat), seat, legal, gettext)
    texts = [board.event_text(game.name, event.view(seat), gettext) for event in events[-EVENTS_SHOWN:]]
    return {
        "game": game.name,
        "step": number,
        "made": made,
        "moves": len(step.expect),
        "steps": len(tutorial.steps),
        "text": gettext(step.text),
        "asks": bool(step.expect),
        "board": svg,
        "legal": [{"action": a, "label": board.action_label(game.name, n, gettext)} for a, n in legal],
        "highlight": highlight,
        "texts": texts,
        "last": number == len(tutorial.steps) - 1,
    }


def _refusal(text: str, status: int = 422) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


@router.get("/learn", response_class=HTMLResponse)
async def learn_index(request: Request) -> Response:
    return redirect("/rules")


@router.get("/learn/{name}", response_class=HTMLResponse)
@_answering
async def learn_page(request: Request, name: str) -> Response:
    gettext = gettext_of(request)
    game, tutorial = _lookup(request, name)
    number = 0
    error = None
    text = request.query_params.get("step")
    if text is not None:
        try:
            number = parse_int(text, "step", 1, len(tutorial.steps)) - 1
        except BadNumber:
            error = _bad_step(tutorial, gettext)
    payload = step_payload(game, tutorial, number, language_of(request))
    shown = {k: v for k, v in payload.items() if k not in ("board", "texts", "text")}
    config = {"game": game.name, "payload": shown, "texts": _client_texts(gettext)}
    context = {"game": game, "tutorial": tutorial, "step": payload, "error": error, "config": config,
               "players": game.min_players}
    return render(request, "learn.html", context)


def _missing(request: Request, name: str) -> Response:
    gettext = gettext_of(request)
    games = ", ".join(game.name for game in learn_games())
    text = gettext("There is no tutorial for “%(name)s”. Tutorials: %(games)s.") % {"name": name[:40], "games": games}
    return render(request, "message.html", {"heading": gettext("Tutorial not found"), "text": text}, 404)


def _bad_step(tutorial: Tutorial, gettext: Callable[[str], str]) -> str:
    return gettext("This tutorial has steps 1 to %(steps)d.") % {"steps": len(tutorial.steps)}


def _client_texts(gettext: Callable[[str], str]) -> dict[str, str]:
    return {
        "step": gettext("Step %(step)d of %(steps)d"),
        "right": gettext("Well done."),
        "failed": gettext("That did not work. Please try again."),
    }


@router.get("/learn/{name}/step")
@_answering
async def learn_step(request: Request, name: str) -> Response:
    """Step ``n`` (from 0), or the verdict on the learner's ``move`` (an action index) in step ``n``."""
    gettext = gettext_of(request)
    game, tutorial = _lookup(request, name, page=False)
    params: Mapping[str, str] = request.query_params
    number = _count(params.get("n", ""), "n", len(tutorial.steps) - 1,
                    gettext("“n” is the number of a step of this tutorial, counted from 0: 0 to %(high)d."))
    step = tutorial.step(number)
    made = _count(params.get("made", "0"), "made", max(0, len(step.expect) - 1),
                  gettext("“made” counts the moves of this step already made: 0 to %(high)d."))
    lang = language_of(request)
    move_text = params.get("move")
    if move_text is None:
        return JSONResponse(step_payload(game, tutorial, number, lang, made))
    try:
        move: int | None = None if move_text == "next" else parse_int(move_text, "move", 0, 10**6)
        answer = check(tutorial, number, move, made)
    except (BadNumber, TutorialError):
        text = gettext("“move” is the number of one of the board's moves (or “next” on a step without a move).")
        return _refusal(text)
    if not answer.right:
        return JSONResponse({"right": False, "legal": answer.legal, "hint": gettext(answer.hint)})
    if made + 1 < len(step.expect):
        following = step_payload(game, tutorial, number, lang, made + 1)
        return JSONResponse({"right": True, "done": False, "next": following})
    if number + 1 >= len(tutorial.steps):
        return JSONResponse({"right": True, "done": True})
    return JSONResponse({"right": True, "done": False, "next": step_payload(game, tutorial, number + 1, lang)})


@router.get("/learn/{name}/play", response_class=HTMLResponse)
@_answering
async def learn_play_page(request: Request, name: str) -> Response:
    """The one button of the tutorial's end, for whoever comes back from signing in."""
    game, _ = _player(request, name)
    return render(request, "learn_play.html", {"game": game, "players": game.min_players})


@router.post("/learn/{name}/play", response_class=HTMLResponse)
@_answering
async def learn_play(request: Request, name: str) -> Response:
    """A table for the signed-in person against easy bots (the game's smallest player count), opened."""
    game, me = _player(request, name)
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": FIRST_GAME_BOT}] * (game.min_players - 1)
    try:
        await rate_limits(request).hit("tables", str(me.id), "new tables")
        table_id = await services_of(request).tables.create(me, game.name, game.min_players, {}, seats, rated=False)
    except ServiceError as refusal:
        gettext = gettext_of(request)
        heading = gettext("The table could not be created")
        return render(request, "message.html", {"heading": heading, "text": error_text(refusal, gettext)},
                      refusal.status)
    return redirect(f"/tables/{table_id}")
