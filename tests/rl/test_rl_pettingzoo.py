"""The PettingZoo AEC environments: the official API test, seeding, whole games, hidden choices."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from spieltafel import rl
from spieltafel.core import Game, IllegalActionError, all_games

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]

EXPECTED_WARNINGS = (
    # api_test knows Dict observations only for its own classic games; ours are the same shape.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_api(game: Game, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(game.name, players), num_cycles=10)
    unexpected = {str(w.message) for w in caught} - set(EXPECTED_WARNINGS)
    assert not unexpected


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_seeded_environments_run_alike(game: Game) -> None:
    seed_test(lambda: rl.env(game.name, game.max_players), num_cycles=20)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_masked_random_play_finishes_games(game: Game, players: int) -> None:
    env = rl.env(game.name, players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    finished: list[str] = []
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        assert not truncated
        if terminated:
            finished.append(agent)
            assert info["winners"] == env.engine_state.winners()
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        assert env.engine_state.seats_to_act()[0] == env.seat_of(agent)
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal.tolist()) == env.engine_state.legal_actions(env.seat_of(agent))
        env.step(int(rng.choice(legal)))
    assert sorted(finished) == sorted(env.possible_agents) and env.agents == []
    winners = env.engine_state.winners()
    assert sum(returns.values()) == pytest.approx(1.0)
    assert {a for a, r in returns.items() if r > 0} == {env.possible_agents[s] for s in winners}


def test_score_reward_is_zero_sum() -> None:
    env = rl.env("iquazu", 3, reward="score")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        total += reward
        env.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert total == pytest.approx(0.0)


def test_reset_seed_deals_the_engine_game() -> None:
    env = rl.env("iquazu", 2)
    env.reset(seed=42)
    assert env.game_seed == 42
    assert env.engine_state.to_json() == env.game.new_state(2, 42).to_json()
    env.reset()
    follow = env.engine_state.to_json()
    env.reset(seed=42)
    env.reset()
    assert env.engine_state.to_json() == follow


def test_options_reach_the_game() -> None:
    env = rl.env("niagara", 3, round_limit="200", ending="finish-round")
    env.reset(seed=0)
    assert env.engine_state.options["round-limit"] == "200"
    assert env.engine_state.options["ending"] == "finish-round"


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = rl.env("iquazu", 2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.engine_state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.engine_state.to_json() == before


@pytest.mark.parametrize("players", [3, 4, 5])
def test_niagara_secret_choices_stay_secret(players: int) -> None:
    """In the secret phase the seats commit one after another; what a later seat observes does not
    depend on which card an earlier seat chose, only on the fact that it chose."""
    first = rl.env("niagara", players)
    assert first.game.simultaneous
    first.reset(seed=9)
    acting = first.engine_state.seats_to_act()
    assert len(acting) == players, "the round opens with every seat choosing at once"
    cards = np.flatnonzero(first.observe("player_0")["action_mask"])
    assert len(cards) > 1
    observed: list[list[np.ndarray]] = []
    for card in cards:
        env = rl.env("niagara", players)
        env.reset(seed=9)
        assert env.agent_selection == "player_0"
        env.step(int(card))
        assert env.agent_selection == "player_1", "the next seat that must commit is selected"
        seen = [env.observe(agent)["observation"] for agent in env.possible_agents[1:]]
        observed.append(seen)
        env.step(int(np.flatnonzero(env.observe("player_1")["action_mask"])[0]))
        assert env.agent_selection == "player_2"
        observed[-1].append(env.observe("player_2")["observation"])
    for other in observed[1:]:
        for a, b in zip(observed[0], other, strict=True):
            assert np.array_equal(a, b)


def test_niagara_round_cycles_through_committing_seats() -> None:
    env = rl.env("niagara", 4)
    env.reset(seed=2)
    order = []
    for _ in range(4):
        order.append(env.agent_selection)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2", "player_3"]


def test_render_ansi() -> None:
    env = rl.env("haleakala", 2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    env.close()


def test_pettingzoo_wrappers_apply() -> None:
    """The usual PettingZoo wrappers work on the environment: an illegal action can end the game
    with a penalty instead of raising."""
    from pettingzoo.utils import wrappers

    env = wrappers.OrderEnforcingWrapper(wrappers.TerminateIllegalWrapper(rl.env("iquazu", 3), illegal_reward=-1))
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
