"""The registry of games: every game package registers its :class:`Game` here on import."""

from __future__ import annotations

import importlib

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, Game] = {}
_BUILTIN_PACKAGE = "spieltafel.games"


def register(game: Game) -> Game:
    """Register ``game`` under its name (a game registers itself in its package ``__init__``)."""
    _GAMES[game.name] = game
    return game


def _load_builtin() -> None:
    importlib.import_module(_BUILTIN_PACKAGE)


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
