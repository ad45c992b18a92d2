"""The Gymnasium single-agent wrapper: Gymnasium's checker, whole episodes, seeding, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from spieltafel import rl
from spieltafel.core import Game, IllegalActionError, SpieltafelError, all_games

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_check_env(game: Game, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rl.gym_env(game.name, players, seat=players - 1), skip_render_check=True)
        check_env(rl.gym_env(game.name, players, render_mode="ansi"))
    unexpected = {str(w.message) for w in caught if "not having a spec" not in str(w.message)}
    assert not unexpected


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_registered_with_gymnasium(game: Game) -> None:
    import gymnasium

    assert f"spieltafel/{game.name}-v0" in rl.register_gymnasium()
    made = gymnasium.make(f"spieltafel/{game.name}-v0", players=game.max_players, seat=1, render_mode="ansi")
    assert made.unwrapped.players == game.max_players
    check_env(made.unwrapped)
    made.close()


def play_episode(env: Any, seed: int, rng_seed: int) -> tuple[list[int], float, dict[str, Any]]:
    """Masked random play of one whole episode: the actions, the return and the last info."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    actions: list[int] = []
    total = 0.0
    for _ in range(100_000):
        assert np.array_equal(observation["action_mask"].astype(bool), env.action_masks())
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0, "the agent is only asked when it must act"
        action = int(rng.choice(legal))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        assert not truncated
        if terminated:
            return actions, total, info
    raise AssertionError("the episode did not end")


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_masked_random_episodes_finish(game: Game, players: int) -> None:
    seat = players - 1
    env = rl.gym_env(game.name, players, seat=seat)
    _, total, info = play_episode(env, seed=5, rng_seed=1)
    winners = info["winners"]
    assert winners == env.engine_state.winners() and info["scores"] == env.engine_state.scores()
    assert total == pytest.approx(1 / len(winners) if seat in winners else 0.0)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_seeded_episodes_are_reproducible(game: Game) -> None:
    players = game.max_players
    first = play_episode(rl.gym_env(game.name, players, seat=1), seed=21, rng_seed=3)
    again = play_episode(rl.gym_env(game.name, players, seat=1), seed=21, rng_seed=3)
    assert first == again
    env = rl.gym_env(game.name, players, seat=1)
    env.reset(seed=21)
    env.reset()
    follow = env.engine_state.to_json()
    env.reset(seed=21)
    env.reset()
    assert env.engine_state.to_json() == follow


def test_reset_seed_deals_the_engine_game() -> None:
    env = rl.gym_env("haleakala", 2, seat=0)
    env.reset(seed=77)
    assert env.game_seed == 77
    assert env.engine_state.to_json() == env.game.new_state(2, 77).to_json()


def test_illegal_action_loses_or_raises() -> None:
    env = rl.gym_env("iquazu", 3)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, illegal)
    with pytest.raises(SpieltafelError):
        env.step(0)
    strict = rl.gym_env("iquazu", 3, illegal_action="raise")
    strict.reset(seed=0)
    before = strict.engine_state.to_json()
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.engine_state.to_json() == before


def test_opponents_per_seat_and_errors() -> None:
    env = rl.gym_env("niagara", 4, seat=2, opponents="random,random,random")
    env.reset(seed=0)
    assert sorted(env._bots) == [0, 1, 3]
    with pytest.raises(SpieltafelError):
        rl.gym_env("niagara", 4, opponents=["random", "random"])
    with pytest.raises(SpieltafelError):
        rl.gym_env("niagara", 4, opponents="no-such-bot")
    with pytest.raises(SpieltafelError):
        rl.gym_env("iquazu", 2, seat=2)


def test_niagara_agent_never_sees_bot_choices() -> None:
    """The agent at the last seat commits after the bots. Niagara has no chance, so every seed deals
    the same river; the seed changes only the bots' generators and so their face-down cards. The
    agent's first observation must not change with them."""
    seen = []
    hidden = set()
    for seed in range(8):
        env = rl.gym_env("niagara", 3, seat=2)
        observation, _ = env.reset(seed=seed)
        state = env.engine_state
        assert state.seats_to_act() == (2,)
        hidden.add(tuple(state.to_json()["choice"][:2]))
        seen.append(observation["observation"])
    assert len(hidden) > 1, "the bots chose differently under different seeds"
    assert all(np.array_equal(seen[0], s) for s in seen)
