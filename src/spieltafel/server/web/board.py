"""The state decorator: the board as SVG and the moves and events in words, in the client's language.

Registered in ``app.state.state_decorators`` by :func:`spieltafel.server.web.install`. The server calls it
before it sends a state message on a WebSocket opened as ``/ws/tables/{id}?board=svg&lang=de``; it adds
``"board"`` (the game's board drawn from the seat's view only),
``"label"`` on every legal action and ``"texts"`` (one line of words per event) from the game's
words (both from its kit, ``spieltafel.core.kit``). Everything it adds is derived from what the payload
already holds for that seat, so it can
add no secret.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from functools import cache
from typing import Any

from spieltafel.core import GameKit, UnknownGameError, get_game, kit_of
from spieltafel.core.kit import PlainWords, Words
from spieltafel.server.web import i18n

log = logging.getLogger(__name__)


@cache
def _kit(game: str) -> GameKit | None:
    try:
        return kit_of(get_game(game))
    except UnknownGameError:
        return None


@cache
def _words(game: str) -> Words:
    kit = _kit(game)
    return PlainWords() if kit is None else kit.words_module()


def legal_pairs(legal: Sequence[Any]) -> list[tuple[int, str]]:
    """``[(action index, notation)]`` of the payload's legal actions."""
    pairs: list[tuple[int, str]] = []
    for item in legal:
        if isinstance(item, Mapping):
            pairs.append((int(item["action"]), str(item.get("notation", ""))))
    return pairs


def render_board(
    game: str,
    view: Mapping[str, Any],
    seat: int | None,
    legal: Sequence[tuple[int, str]],
    gettext: Callable[[str], str],
    gestures: Sequence[tuple[int, str, str]] = (),
) -> str | None:
    """The SVG board of ``game`` (its kit's ``board``), or None when the game has none. ``gestures``
    (index, target, label) go to a board whose game offers gestures (``render_board(..., gestures=)``)."""
    kit = _kit(game)
    if kit is None or kit.board is None:
        return None
    board: Any = kit.board_module()
    if gestures and kit.gestures is not None:
        return str(board.render_board(view, seat, list(legal), gettext, gestures=list(gestures)))
    return str(board.render_board(view, seat, list(legal), gettext))


def gesture_marks(
    game: str, gestures: Sequence[Any], gettext: Callable[[str], str]
) -> list[tuple[int, str, str]]:
    """Put a ``label`` on each of a state message's gestures; the board's marks ``(index, target, label)``."""
    marks: list[tuple[int, str, str]] = []
    for index, gesture in enumerate(gestures):
        if isinstance(gesture, MutableMapping):
            gesture["label"] = gesture_label(game, gesture, gettext)
            marks.append((index, str(gesture.get("target", "")), gesture["label"]))
    return marks


def gesture_label(game: str, gesture: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """A gesture in words: the game's words module's ``gesture_label(notation, gettext)``, else (or when it
    fails) its steps' labels in order."""
    kit = _kit(game)
    module = kit.module(kit.words) if kit is not None and kit.words is not None else None
    say = getattr(module, "gesture_label", None)
    if say is not None and gesture.get("notation"):
        try:
            return str(say(str(gesture["notation"]), gettext))
        except Exception:  # words are a courtesy: never let them fail a state message
            log.exception("gesture_label failed for %s", game)
    return " → ".join(action_label(game, str(n), gettext) for n in gesture.get("notations") or [])


def action_label(game: str, notation: str, gettext: Callable[[str], str]) -> str:
    """An action in words (the notation itself when the game has no words)."""
    return _words(game).action_label(notation, gettext)


def seat_name(game: str, seat: int, gettext: Callable[[str], str]) -> str | None:
    """The game's name for a seat in words (its colour, e.g. "Red"), or None."""
    kit = _kit(game)
    return None if kit is None or kit.words is None else _words(game).seat_name(seat, gettext)


def event_text(game: str, event: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """An event in words."""
    kit = _kit(game)
    if kit is None or kit.words is None:
        return gettext("Something happened that cannot be shown in words.")
    if event.get("kind") == "undo":  # a takeback (server/tables/undo.py), the same words for every game
        who = _words(game).seat_name(event.get("seat"), gettext)
        move = _words(game).action_label(str(event.get("notation", "")), gettext)
        return gettext("{player} takes back: {move}").format(player=who, move=move)
    return _words(game).event_text(event, gettext)


def decorate(payload: MutableMapping[str, Any], context: Any) -> None:
    """Add the board, action labels and event texts when the client asked for ``board=svg``."""
    params: Mapping[str, str] = getattr(context, "params", {}) or {}
    if params.get("board") != "svg":
        return
    lang = i18n.normalise(params.get("lang")) or i18n.DEFAULT_LANGUAGE
    present(payload, str(getattr(context, "game", "")), getattr(context, "seat", None), lang)


def present(payload: MutableMapping[str, Any], game: str, seat: int | None, lang: str) -> None:
    """The one presenter of a seat's state message, for the socket and the table page alike: a ``label``
    on every legal action and gesture, the ``board`` (SVG, None when the game has none or it failed), the events in
    words (``texts``), the seats that have chosen in secret (``chosen``), all in ``lang``."""
    gettext = i18n.gettext_for(lang)
    legal = payload.get("legal") or []
    for item in legal:
        if isinstance(item, MutableMapping):
            item["label"] = action_label(game, str(item.get("notation", "")), gettext)
    marks = gesture_marks(game, payload.get("gestures") or [], gettext)
    view = payload.get("view") or {}
    try:
        payload["board"] = render_board(game, view, seat, legal_pairs(legal), gettext, marks)
    except Exception:
        log.exception("render_board failed for %s", game)
        payload["board"] = None
    events = payload.get("events") or []
    payload["texts"] = [event_text(game, e, gettext) if isinstance(e, Mapping) else str(e) for e in events]
    payload["chosen"] = chosen_seats(view)
    payload["lang"] = lang


def score_breakdown(game: str, view: Mapping[str, Any], gettext: Callable[[str], str]) -> list[list[str]]:
    """Each seat's final score in the game's own terms (lines of words), from the game's words module's
    optional ``score_breakdown(view, gettext)``; empty when the game has none or it fails."""
    kit = _kit(game)
    module = kit.module(kit.words) if kit is not None and kit.words is not None else None
    describe = getattr(module, "score_breakdown", None)
    if describe is None:
        return []
    try:
        rows = describe(view, gettext)
        return [[str(line) for line in lines] for lines in rows]
    except Exception:  # words are a courtesy: never let them fail the page
        log.exception("score_breakdown failed for %s", game)
        return []


def chosen_seats(view: Any) -> list[int]:
    """Seats that have made a secret choice not yet revealed (Niagara's "has chosen" markers)."""
    info = view.get("player_info") if isinstance(view, Mapping) else None
    if not isinstance(info, list) or view.get("phase") != "secret":
        return []
    return [int(p["seat"]) for p in info if isinstance(p, Mapping) and p.get("committed") and "seat" in p]
