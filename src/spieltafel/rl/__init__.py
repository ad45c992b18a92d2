"""Reinforcement-learning environments for every registered game.

- :func:`env` — a PettingZoo AEC environment (all seats are agents ``player_0 … player_{n-1}``).
- :func:`gym_env` — a Gymnasium environment: one seat against bots (after :func:`register_gymnasium`
  also ``gymnasium.make("spieltafel/iquazu-v0", players=3, seat=1)``).

Both observe ``{"observation": float32 vector in [0, 1], "action_mask": int8}``, built only from the
acting seat's view (each game's ``spieltafel.games.<game>.encoding``) and its legal actions, and act
with ``Discrete(game.action_space_size(players))``. Rewards come at the end of the game:
``reward="win"`` (default) gives 1 to the winner, splits it between tied winners, 0 to the others;
``reward="score"`` gives the final score minus the mean of the other seats' scores.

Game options are keyword arguments; an underscore stands for a hyphen::

    env("niagara", players=4, round_limit="100")
    gym_env("iquazu", players=3, seat=1, opponents="random", water="every-turn")

PettingZoo and Gymnasium are imported only when an environment is made, so the encoders
(``spieltafel.rl.features``) need numpy alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spieltafel.core import Game

if TYPE_CHECKING:
    from .gymnasium_env import SpieltafelGymEnv
    from .pettingzoo_env import SpieltafelAECEnv


def env(
    game: str | Game, players: int, *, reward: str = "win", render_mode: str | None = None, **options: object
) -> SpieltafelAECEnv:
    """The PettingZoo AEC environment of ``game`` for ``players`` seats (see :class:`SpieltafelAECEnv`)."""
    from .pettingzoo_env import SpieltafelAECEnv

    return SpieltafelAECEnv(game, players, reward=reward, render_mode=render_mode, **options)


def gym_env(
    game: str | Game,
    players: int,
    seat: int = 0,
    opponents: str | Sequence[str] = "random",
    *,
    reward: str = "win",
    illegal_action: str = "lose",
    render_mode: str | None = None,
    **options: object,
) -> SpieltafelGymEnv:
    """A Gymnasium environment: the agent plays ``seat`` of ``game``, bots named by ``opponents``
    (one name for all, or one per other seat in seat order) play the others; the bots are seeded from
    ``reset(seed=...)`` (see :class:`SpieltafelGymEnv`)."""
    from .gymnasium_env import SpieltafelGymEnv

    return SpieltafelGymEnv(
        game,
        players,
        seat,
        opponents,
        reward=reward,
        illegal_action=illegal_action,
        render_mode=render_mode,
        **options,
    )


def register_gymnasium() -> list[str]:
    """Register ``spieltafel/<game>-v0`` for ``gymnasium.make`` (every game; idempotent); return the ids."""
    from .gymnasium_env import register_envs

    return register_envs()


__all__ = ["env", "gym_env", "register_gymnasium"]
