"""One seat against bots through the Gymnasium wrapper, with masked random actions.

    python examples/gymnasium_random.py [--game iquazu] [--players 3] [--seat 1]
                                        [--opponents random] [--episodes 20] [--seed 0]

The agent here picks uniformly among its legal actions (``observation["action_mask"]``); a learning
agent would use ``observation["observation"]`` too. The reward is 1 for a win (ties split), else 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spieltafel import rl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="iquazu")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seat", type=int, default=0, help="the agent's seat (0 starts)")
    parser.add_argument("--opponents", default="random", help="bot name, or one per other seat: random,random")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = rl.gym_env(args.game, args.players, seat=args.seat, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    wins = 0.0
    steps = 0
    start = time.perf_counter()
    observation, info = env.reset(seed=args.seed)  # later resets continue from this seed
    for episode in range(args.episodes):
        if episode:
            observation, info = env.reset()
        terminated = truncated = False
        reward = 0.0
        while not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, info = env.step(action)
            steps += 1
        wins += float(reward)
        print(f"episode {episode:>3} (game seed {env.game_seed}): scores {info['scores']}  reward {float(reward):g}")
    seconds = time.perf_counter() - start
    print(
        f"{args.game}, {args.players} players, agent at seat {args.seat} vs {args.opponents}: "
        f"win share {wins / args.episodes:.2f} over {args.episodes} episodes, "
        f"{steps} agent steps in {seconds:.1f}s (observation size {env.observation_space['observation'].shape[0]})"
    )
    env.close()


if __name__ == "__main__":
    main()
