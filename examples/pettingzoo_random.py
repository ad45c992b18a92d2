"""Play whole games of every registered game through the PettingZoo AEC API with masked random actions.

    python examples/pettingzoo_random.py [--games 1] [--seed 0]

Each agent looks only at its own observation: a fixed-size vector encoding its seat's view and the
mask of its legal actions. Rewards arrive when the game ends (1 to the winner, ties split).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spieltafel import rl
from spieltafel.core import all_games


def play(game: str, players: int, seed: int) -> tuple[dict[str, float], int, list[int]]:
    """One game: the return of each agent, the number of actions taken and the final scores."""
    env = rl.env(game, players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    actions = 0
    scores: list[int] = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            scores = info["scores"]
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        actions += 1
    env.close()
    return returns, actions, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game and player count")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    for game in all_games():
        for players in range(game.min_players, game.max_players + 1):
            for k in range(args.games):
                seed = args.seed + k
                start = time.perf_counter()
                returns, actions, scores = play(game.name, players, seed)
                seconds = time.perf_counter() - start
                shares = " ".join(f"{agent}={value:g}" for agent, value in returns.items())
                print(
                    f"{game.name:<10} {players}p seed {seed}: {actions:>5} actions in {seconds:.2f}s  "
                    f"scores {scores}  rewards {shares}"
                )


if __name__ == "__main__":
    main()
