"""Finding a game's observation encoder: the module ``spieltafel.games.<game>.encoding``.

Each such module defines ``observation_size(players) -> int`` and ``encode(view, players)``, a
float32 vector of that size with entries in [0, 1], computed from the seat's view dict alone.
Needs numpy only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from spieltafel.core import JSON, SpieltafelError, get_game

from .features import Vector


@dataclass(frozen=True, slots=True)
class Encoder:
    """A game's ``encoding`` module: ``observation_size(players)`` and ``encode(view, players)``."""

    observation_size: Callable[[int], int]
    encode: Callable[[Mapping[str, JSON], int], Vector]


def load_encoder(game: str) -> Encoder:
    """The encoder of ``game``, found as ``spieltafel.games.<game>.encoding``."""
    name = get_game(game).name
    try:
        module = importlib.import_module(f"spieltafel.games.{name}.encoding")
    except ModuleNotFoundError as error:
        raise SpieltafelError(f"{name} has no observation encoding (spieltafel.games.{name}.encoding)") from error
    return Encoder(
        cast(Callable[[int], int], module.observation_size),
        cast(Callable[[Mapping[str, JSON], int], Vector], module.encode),
    )
