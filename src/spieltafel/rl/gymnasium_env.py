"""A Gymnasium single-agent environment: one seat of a game against bots (see :func:`spieltafel.rl.gym_env`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from spieltafel.bots import Bot, make_bot
from spieltafel.core import Game, SpieltafelError, State, all_games
from spieltafel.match import choose

from .common import (
    Observation,
    action_mask,
    check_reward,
    final_rewards,
    game_options,
    observation_space,
    observe,
    render_text,
    resolve_game,
)
from .encoding import load_encoder

ILLEGAL = ("lose", "raise")
SEED_LIMIT = 2**63


class SpieltafelGymEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays ``seat``; every other seat is a bot made with ``spieltafel.bots.make_bot``.

    Observations are ``{"observation": float32 [0, 1] vector of the game's encoding of the seat's
    view, "action_mask": int8}`` (also :meth:`action_masks`, for sb3-contrib's MaskablePPO); actions
    are indices of the game's fixed action space. After the agent's action the bots play until the
    agent must choose again or the game is over, so every observation is one where the agent is to act
    (or the final one). In a simultaneous choice (Niagara) the seats commit in seat order; the bots
    see their own views only, so nobody learns a face-down card before it is revealed.

    Reward: 0 until the game ends, then the final reward of :data:`spieltafel.rl.common.Reward`
    (``"win"``: 1, ties split, else 0; ``"score"``: final score minus the others' mean). An illegal
    action ends the episode with reward -1 and ``info["illegal_action"]`` (``illegal_action="lose"``,
    the default) or raises the engine's ``IllegalActionError`` (``"raise"``). The game never
    truncates: every game has an end (Niagara's round limit is a game option).

    Seeding: ``reset(seed=s)`` deals the engine's game for seed ``s`` and seeds the bots from
    ``self.np_random``; ``reset()`` draws the game seed from ``self.np_random`` as well, so a seeded
    reset followed by unseeded ones is reproducible. Bots are made afresh at each reset.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        players: int,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        *,
        reward: str = "win",
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        self.game = resolve_game(game, players)
        if not 0 <= seat < players:
            raise SpieltafelError(f"there is no seat {seat}: seats are 0 to {players - 1}")
        if illegal_action not in ILLEGAL:
            raise SpieltafelError(f"illegal_action must be one of {', '.join(ILLEGAL)}, not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SpieltafelError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.players = players
        self.seat = seat
        self.opponents = _opponent_names(opponents, players)
        for name in self.opponents:
            make_bot(name)  # an unknown bot name fails here, not at the first reset
        self.reward = check_reward(reward)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.game_options = game_options(self.game, options)
        self.encoder = load_encoder(self.game.name)
        self.actions = self.game.action_space_size(players)
        self.observation_space = cast(
            spaces.Space[Observation], observation_space(self.encoder.observation_size(players), self.actions)
        )
        self.action_space = spaces.Discrete(self.actions)
        self._state: State | None = None
        self._bots: dict[int, Bot] = {}
        self._done = True
        self.game_seed: int | None = None
        """The engine seed of the game under way (for records and replay)."""

    @property
    def engine_state(self) -> State:
        """The full engine state, secrets included: for records and debugging, never for the agent."""
        if self._state is None:
            raise SpieltafelError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.game_seed = seed if seed is not None else int(self.np_random.integers(SEED_LIMIT))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            other: make_bot(name, int(self.np_random.integers(SEED_LIMIT)))
            for other, name in zip(others, self.opponents, strict=True)
        }
        self._state = self.game.new_state(self.players, self.game_seed, self.game_options)
        self._play_bots()
        self._done = self._state.is_over
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise SpieltafelError("the episode is over: call reset()")
        state = self.engine_state
        index = int(action)
        if index not in state.legal_actions(self.seat):
            if self.illegal_action == "raise":
                raise state.explain_illegal(self.seat, index)
            self._done = True
            info = self._info()
            info["illegal_action"] = index
            return self._observe(), -1.0, True, False, info
        state.apply(self.seat, index)
        self._play_bots()
        self._done = state.is_over
        reward = final_rewards(state, self.reward)[self.seat] if self._done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, self._info()

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the agent's seat now, as booleans."""
        return action_mask(self.engine_state, self.seat, self.actions).astype(bool)

    def _play_bots(self) -> None:
        state = self.engine_state
        while True:
            acting = state.seats_to_act()
            if not acting or acting[0] == self.seat:
                return
            seat = acting[0]
            state.apply(seat, choose(self._bots[seat], state, seat))

    def _observe(self) -> Observation:
        return observe(self.encoder, self.engine_state, self.seat, self.actions)

    def _info(self) -> dict[str, Any]:
        state = self.engine_state
        if not state.is_over:
            return {}
        return {"scores": state.scores(), "winners": state.winners()}

    def render(self) -> str | None:
        if self.render_mode is None or self._state is None:
            return None
        text = render_text(self._state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponent_names(opponents: str | Sequence[str], players: int) -> list[str]:
    """One bot name per other seat: a single name for all, or a list (or comma-separated text)."""
    names = [name.strip() for name in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise SpieltafelError(f"{players - 1} opponents needed (one bot name per other seat), got {len(names)}")
    return names


def register_envs() -> list[str]:
    """Register ``spieltafel/<game>-v0`` with Gymnasium for every game (idempotent); return the ids.

    ``gymnasium.make("spieltafel/niagara-v0", players=4, seat=2, opponents="random")`` then makes
    the same environment as :func:`spieltafel.rl.gym_env` (the default player count is the game's
    smallest).
    """
    ids = []
    for game in all_games():
        env_id = f"spieltafel/{game.name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="spieltafel.rl.gymnasium_env:SpieltafelGymEnv",
                kwargs={"game": game.name, "players": game.min_players},
            )
        ids.append(env_id)
    return ids
