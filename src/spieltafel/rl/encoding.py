"""Finding a game's observation encoder: its kit's ``encoding`` module.

Each such module defines ``observation_size(players) -> int`` and ``encode(view, players)``, a
float32 vector of that size with entries in [0, 1], computed from the seat's view dict alone.
Needs numpy only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from spieltafel.core import JSON, SpieltafelError, get_game, kit_of

from .features import Vector


@dataclass(frozen=True, slots=True)
class Encoder:
    """A game's ``encoding`` module: ``observation_size(players)`` and ``encode(view, players)``."""

    observation_size: Callable[[int], int]
    encode: Callable[[Mapping[str, JSON], int], Vector]


def load_encoder(game: str) -> Encoder:
    """The encoder of ``game``: its kit's ``encoding``."""
    found = get_game(game)
    module = kit_of(found).encoding_module()
    if module is None:
        raise SpieltafelError(f"{found.name} has no observation encoding: its kit declares none (docs/games.md)")
    return Encoder(
        module.observation_size,
        cast(Callable[[Mapping[str, JSON], int], Vector], module.encode),
    )
