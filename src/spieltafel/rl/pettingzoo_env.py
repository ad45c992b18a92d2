"""The PettingZoo AEC environment of a Spieltafel game (see :func:`spieltafel.rl.env`)."""

from __future__ import annotations

import secrets
from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # pettingzoo ships no type information

from spieltafel.core import Game, Rng, SpieltafelError, State

from .common import (
    Observation,
    check_reward,
    final_rewards,
    game_options,
    observation_space,
    observe,
    render_text,
    resolve_game,
)
from .encoding import load_encoder


class SpieltafelAECEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped (Any)
    """One game as a PettingZoo AEC environment: agents ``player_0 … player_{n-1}`` are the seats.

    ``agent_selection`` is always the first seat in ``seats_to_act()``. In a simultaneous choice
    (Niagara's secret paddle cards) the seats that must commit are therefore selected one after
    another in seat order; each observation is built from that seat's own view only, which shows of
    an earlier seat's face-down choice no more than that it was made. Observations are
    ``{"observation": float32 [0, 1] vector of the game's encoding, "action_mask": int8}``; the mask
    is all zeros for a seat that is not to act. Actions are indices of the game's fixed action space;
    an illegal action raises the engine's ``IllegalActionError`` and changes nothing (wrap the
    environment in ``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` to punish it instead).
    Rewards come once, at the end (see :data:`spieltafel.rl.common.Reward`); the final ``infos``
    hold ``scores`` and ``winners``.

    ``reset(seed=s)`` deals the game the engine deals for seed ``s`` (as ``spieltafel simulate
    --seed s`` does); ``reset()`` without a seed draws the next game seed from the generator the last
    seed started (from fresh entropy when there was none). ``reset``'s ``options`` are ignored: game
    options are given when the environment is made.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's convention: a class attribute
        "name": "spieltafel_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game,
        players: int,
        *,
        reward: str = "win",
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        self.game = resolve_game(game, players)
        self.players = players
        self.game_options = game_options(self.game, options)
        self.reward = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SpieltafelError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"spieltafel_{self.game.name}_v0"}
        self.encoder = load_encoder(self.game.name)
        self.actions = self.game.action_space_size(players)
        size = self.encoder.observation_size(players)
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            agent: observation_space(size, self.actions) for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(self.actions) for agent in self.possible_agents
        }
        self._seeds: Rng | None = None
        self._state: State | None = None
        self.game_seed: int | None = None
        """The engine seed of the game under way (for records and replay)."""

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @staticmethod
    def seat_of(agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    @property
    def engine_state(self) -> State:
        """The full engine state, secrets included: for records and debugging, never for agents."""
        if self._state is None:
            raise SpieltafelError("call reset() first")
        return self._state

    # -- the AEC API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = Rng(seed)
            self.game_seed = seed
            for offset, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + offset)
        else:
            if self._seeds is None:
                self._seeds = Rng(secrets.randbits(64))
            self.game_seed = self._seeds.next64() >> 1
        self._state = self.game.new_state(self.players, self.game_seed, self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._select()

    def observe(self, agent: str) -> Observation:
        return observe(self.encoder, self.engine_state, self.seat_of(agent), self.actions)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise SpieltafelError(f"{agent} is to act: None is only the action of a finished agent")
        state = self.engine_state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply(self.seat_of(agent), int(action))
        if state.is_over:
            scores, winners = state.scores(), state.winners()
            for seat, value in enumerate(final_rewards(state, self.reward)):
                name = self.possible_agents[seat]
                self.rewards[name] = value
                self.terminations[name] = True
                self.infos[name] = {"scores": list(scores), "winners": list(winners)}
        self.agent_selection = self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> str:
        acting = self.engine_state.seats_to_act()
        return self.possible_agents[acting[0]] if acting else self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.engine_state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._state = None
