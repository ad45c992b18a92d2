"""A position's value for the bots: points ahead of the best other player, and a little for high cards kept."""

from __future__ import annotations

from spieltafel.core import State

from .state import HIGHEST, HandOfFiveState


def evaluate(state: State, seat: int) -> float:
    assert isinstance(state, HandOfFiveState)
    others = max(p for other, p in enumerate(state.points) if other != seat)
    kept = max(state.hands[seat], default=0) / HIGHEST
    return state.points[seat] - others + 0.3 * kept
