"""Greedy: one-ply lookahead on the game's own heuristic (its kit's ``heuristics``).

The bot draws one state from its information set, tries every legal action on a copy of it and
keeps the action whose result the game's ``evaluate(state, seat)`` likes best (ties: a seeded
random choice among the best).
"""

from __future__ import annotations

from collections.abc import Callable

from spieltafel.core import Rng, SpieltafelError, State, get_game, kit_of

from . import Observation

Evaluate = Callable[[State, int], float]


def heuristic(game: str) -> Evaluate:
    """The game's heuristic ``evaluate(state, seat)`` (its kit's ``heuristics``); SpieltafelError if it has none."""
    module = kit_of(get_game(game)).heuristics_module()
    if module is None:
        raise SpieltafelError(f"the greedy bot has no heuristic for {game!r}: its kit declares none")
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
