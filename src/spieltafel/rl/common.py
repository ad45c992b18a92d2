"""What the PettingZoo environment and the Gymnasium wrapper share: the spaces, observations
built from one seat's view, final rewards, option names and text rendering."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from rich.console import Console

from spieltafel.core import Game, SpieltafelError, State, get_game

from .encoding import Encoder

Reward = Literal["win", "score"]
"""How the final result becomes a reward, given once, on the action that ends the game:

- ``"win"``: 1 to the winner; ``k`` tied winners get ``1/k`` each; every other seat 0.
- ``"score"``: the seat's final score minus the mean final score of the other seats (zero-sum).

Every earlier step gives 0.
"""
REWARDS: tuple[Reward, ...] = ("win", "score")

Observation = dict[str, NDArray[Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector of the action space's size}``."""


def resolve_game(game: str | Game, players: int) -> Game:
    found = get_game(game) if isinstance(game, str) else game
    found.check_players(players)
    return found


def game_options(game: Game, raw: Mapping[str, object]) -> dict[str, str]:
    """Game options from keyword arguments: ``round_limit="none"`` stands for ``round-limit``."""
    known = {spec.name for spec in game.options}
    named = {key if key in known else key.replace("_", "-"): str(value) for key, value in raw.items()}
    return game.resolve_options(named)


def check_reward(reward: str) -> Reward:
    if reward not in REWARDS:
        raise SpieltafelError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def observation_space(size: int, actions: int) -> spaces.Dict:
    """``Dict(observation=Box[0, 1] float32, action_mask=Box{0, 1} int8)``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


def action_mask(state: State, seat: int, actions: int) -> NDArray[np.int8]:
    mask = np.zeros(actions, dtype=np.int8)
    mask[state.legal_actions(seat)] = 1
    return mask


def observe(encoder: Encoder, state: State, seat: int, actions: int) -> Observation:
    """``seat``'s observation, built from ``state.view(seat)`` and its legal actions only."""
    return {
        "observation": encoder.encode(state.view(seat), state.players),
        "action_mask": action_mask(state, seat, actions),
    }


def final_rewards(state: State, reward: Reward) -> list[float]:
    """Each seat's reward for the finished game (see :data:`Reward`)."""
    if reward == "score":
        scores = state.scores()
        total = sum(scores)
        others = state.players - 1
        return [float(score - (total - score) / others) for score in scores]
    winners = state.winners()
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.players)]


def render_text(state: State, seat: int | None) -> str:
    """The position as ``seat`` (a spectator when None) sees it, drawn as plain text."""
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None, force_terminal=False).print(state.render(seat))
    return buffer.getvalue()
