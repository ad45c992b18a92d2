"""The RL observation of a seat's view: its hand and the pile's top card (one-hot over the 60 cards), every
seat's points (relative to the viewer) and how far the game is."""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON
from spieltafel.rl.features import Features, Vector, relative, viewer_of

from .state import HIGHEST


def observation_size(players: int) -> int:
    return HIGHEST + HIGHEST + 4 + 1


def encode(view: Mapping[str, JSON], players: int) -> Vector:
    features = Features(observation_size(players))
    hand = set(view["hand"] or [])
    features.flags(card in hand for card in range(1, HIGHEST + 1))
    pile = view["pile"]
    features.one_hot(pile[-1] - 1 if pile else None, HIGHEST)
    viewer = viewer_of(view)
    points = view["points"]
    by_place = [0] * 4
    for seat, value in enumerate(points):
        place = relative(seat, viewer, players)
        if place is not None:
            by_place[place] = value
    features.scalars(by_place, float(HIGHEST))
    features.scalar(view["played"], float(HIGHEST))
    return features.finish()
