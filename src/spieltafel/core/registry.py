"""The registry of games: every game package registers its :class:`Game` here on import.

The built-in games are the packages of ``spieltafel.games``. A game outside the project registers through
the ``spieltafel.games`` entry point of its distribution (docs/games.md): the entry point names the module
that registers the game on import (or a :class:`Game` or its class, registered here). A game whose entry
point fails to load is left out with a warning; it never stops the others.
"""

from __future__ import annotations

import importlib
import logging
from importlib.metadata import EntryPoint, entry_points

from .errors import UnknownGameError
from .game import Game

log = logging.getLogger(__name__)

_GAMES: dict[str, Game] = {}
_BUILTIN_PACKAGE = "spieltafel.games"
ENTRY_POINT_GROUP = "spieltafel.games"
_loaded = False


def register(game: Game) -> Game:
    """Register ``game`` under its name (a game registers itself in its package ``__init__``)."""
    _GAMES[game.name] = game
    return game


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    importlib.import_module(_BUILTIN_PACKAGE)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _load_entry_point(point)


def _load_entry_point(point: EntryPoint) -> None:
    try:
        loaded = point.load()
    except Exception as error:  # a broken plug-in must not take the built-in games down with it
        log.warning("the game of entry point %r (%s) could not be loaded: %s", point.name, point.value, error)
        return
    if isinstance(loaded, type) and issubclass(loaded, Game):
        loaded = loaded()
    if isinstance(loaded, Game) and loaded.name not in _GAMES:
        register(loaded)


def get_game(name: str) -> Game:
    """The registered game called ``name`` (case-insensitive); UnknownGameError otherwise."""
    _load_builtin()
    game = _GAMES.get(name.lower())
    if game is None:
        raise UnknownGameError(name, sorted(_GAMES))
    return game


def all_games() -> list[Game]:
    """Every registered game, by name."""
    _load_builtin()
    return [_GAMES[name] for name in sorted(_GAMES)]
