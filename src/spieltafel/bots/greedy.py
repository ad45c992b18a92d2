"""Greedy: one-ply lookahead on the game's own heuristic (``games/<game>/heuristics.py``).

The bot draws one state from its information set, tries every legal action on a copy of it and
keeps the action whose result the game's ``evaluate(state, seat)`` likes best (ties: a seeded
random choice among the best).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from spieltafel.core import Rng, SpieltafelError, State

from . import Observation

Evaluate = Callable[[State, int], float]


def heuristic(game: str) -> Evaluate:
    """The game's heuristic ``evaluate(state, seat)``; SpieltafelError if the game has none."""
    try:
        module = importlib.import_module(f"spieltafel.games.{game}.heuristics")
    except ModuleNotFoundError as error:
        raise SpieltafelError(f"the greedy bot has no heuristic for {game!r} yet") from error
    evaluate: Evaluate = module.evaluate
    return evaluate


class GreedyBot:
    """Chooses the action with the best heuristic value one ply ahead."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, observation: Observation) -> int:
        if len(observation.legal) == 1:
            return observation.legal[0]
        sample = observation.sample(self.rng)
        evaluate = heuristic(sample.game.name)
        seat = observation.seat
        best: list[int] = []
        best_value = float("-inf")
        for action in observation.legal:
            after = sample.clone()
            after.step(seat, action)
            value = evaluate(after, seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return self.rng.choice(best)
