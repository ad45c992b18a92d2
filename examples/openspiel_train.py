"""Train a small policy with OpenSpiel on one of our games, then measure it against our bots.

    pip install -e '.[openspiel]'
    python examples/openspiel_train.py [--game haleakala] [--minutes 2] [--eval-games 40] [--seed 0]

The game is ``spieltafel_<game>`` from :mod:`spieltafel.openspiel`, driven by OpenSpiel's
``rl_environment.Environment`` (it samples the deal at the root chance node and observes every seat's
information-state tensor: our RL encoding of the seat's view). The learner is an OpenSpiel
``rl_agent.AbstractAgent``: a linear softmax policy over the legal actions (numpy only: no
TensorFlow, PyTorch or JAX needed), trained with REINFORCE and a running baseline on the final
return (+1 win, -1 loss for two players) against OpenSpiel's ``RandomAgent``, switching seats every
episode. Then it plays ``--eval-games`` games (seats alternating) against our ``random`` and
``greedy`` bots (the same deals and bot seeds before and after training) and prints its win share
with a 95% Wilson interval, next to the untrained policy's (uniformly random over the legal actions).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from open_spiel.python import rl_agent, rl_environment
from open_spiel.python.algorithms import random_agent

import spieltafel.openspiel
from spieltafel.arena.stats import wilson_interval
from spieltafel.bots import Bot, make_bot
from spieltafel.match import choose


class LinearPolicyGradient(rl_agent.AbstractAgent):  # type: ignore[misc]
    """REINFORCE on a linear softmax policy: logits = W · observation + b, illegal actions masked."""

    def __init__(self, player_id: int, size: int, actions: int, learning_rate: float, seed: int) -> None:
        self.player_id = player_id
        self.rng = np.random.default_rng(seed)
        self.weights = np.zeros((actions, size))
        self.bias = np.zeros(actions)
        self.learning_rate = learning_rate
        self.baseline = 0.0
        self.trajectory: list[tuple[np.ndarray, list[int], int]] = []

    def policy(self, observation: np.ndarray, legal: list[int]) -> np.ndarray:
        logits = self.weights[legal] @ observation + self.bias[legal]
        logits -= logits.max()
        probs = np.exp(logits)
        return probs / probs.sum()

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        """OpenSpiel's agent step: an action at the agent's turns, the update at the episode's end."""
        if time_step.last():
            if not is_evaluation:
                self.learn(time_step.rewards[self.player_id])
            return None
        observation = np.asarray(time_step.observations["info_state"][self.player_id], dtype=np.float64)
        legal = time_step.observations["legal_actions"][self.player_id]
        probs = self.policy(observation, legal)
        index = int(self.rng.choice(len(legal), p=probs))
        if not is_evaluation:
            self.trajectory.append((observation, legal, index))
        full = np.zeros(len(self.bias))
        full[legal] = probs
        return rl_agent.StepOutput(action=legal[index], probs=full)

    def learn(self, final_return: float) -> None:
        advantage = final_return - self.baseline
        self.baseline += 0.05 * (final_return - self.baseline)
        scale = self.learning_rate * advantage / max(1, len(self.trajectory))
        for observation, legal, index in self.trajectory:
            grad = -self.policy(observation, legal)
            grad[index] += 1.0
            self.weights[legal] += scale * np.outer(grad, observation)
            self.bias[legal] += scale * grad
        self.trajectory = []


def train(env: Any, learner: LinearPolicyGradient, seconds: float) -> int:
    """Episodes against OpenSpiel's random agent until ``seconds`` are spent; returns their number."""
    players = env.num_players
    actions = env.action_spec()["num_actions"]
    opponents = [random_agent.RandomAgent(player_id=p, num_actions=actions) for p in range(players)]
    episodes = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        seat = episodes % players
        learner.player_id = seat
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            agent = learner if player == seat else opponents[player]
            time_step = env.step([agent.step(time_step).action])
        learner.step(time_step)
        episodes += 1
    return episodes


def environment(game: Any, seed: int) -> Any:
    """OpenSpiel's RL environment, its deals drawn from ``seed``."""
    return rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))


def evaluate(game: Any, learner: LinearPolicyGradient, opponent: str, games: int, seed: int) -> tuple[float, int]:
    """Wins (ties split) of the learner against our bot ``opponent`` in every other seat: the same
    deals and bot seeds for the same ``seed``."""
    env = environment(game, seed)
    players = env.num_players
    wins = 0.0
    for game in range(games):
        seat = game % players
        learner.player_id = seat
        bots: list[Bot] = [make_bot(opponent, seed * 1000 + game * players + p) for p in range(players)]
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            if player == seat:
                action = learner.step(time_step, is_evaluation=True).action
            else:
                action = choose(bots[player], env.get_state.engine, player)
            time_step = env.step([action])
        winners = env.get_state.engine.winners()
        wins += 1.0 / len(winners) if seat in winners else 0.0
    return wins, games


def report(label: str, wins: float, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"{label}: {100 * wins / games:.1f}% ({100 * low:.0f}%-{100 * high:.0f}%) of {games} games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="haleakala")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=2.0, help="training time")
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = spieltafel.openspiel.load(args.game, args.players)
    env = environment(game, args.seed)
    size = env.observation_spec()["info_state"][0]
    learner = LinearPolicyGradient(0, size, game.num_distinct_actions(), args.learning_rate, args.seed)
    print(f"{game}: observation {size}, actions {game.num_distinct_actions()}")

    eval_seed = args.seed + 1
    untrained = {name: evaluate(game, learner, name, args.eval_games, eval_seed) for name in ("random", "greedy")}
    start = time.perf_counter()
    episodes = train(env, learner, 60 * args.minutes)
    print(f"trained {episodes} episodes in {time.perf_counter() - start:.0f} s against OpenSpiel's random agent")
    for name in ("random", "greedy"):
        wins, games = evaluate(game, learner, name, args.eval_games, eval_seed)
        print(report(f"  vs {name:6} trained", wins, games) + "; " + report("untrained", *untrained[name]))


if __name__ == "__main__":
    main()
