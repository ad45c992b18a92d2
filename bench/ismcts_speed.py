"""ISMCTS iterations per second, per game and player count, on positions from random games.

    python bench/ismcts_speed.py [GAME ...] [--players N ...] [--seconds-per-move S] [--cpu-iterations K]

Each measured move runs the `ismcts` bot with a time budget only; iterations/s = iterations done /
time spent (wall clock), over every tenth position of three random games. With ``--cpu-iterations K``
every measured move runs exactly K iterations and the rate is per second of this process's CPU time:
steadier on a shared machine, where wall-clock rates follow the other jobs' load.

The search plays 8 random actions before the heuristic judges (``PLAYOUT_DEPTH``) in every game and player
count, as in the figures of docs/performance.md, also where the bots play to the end (four-player Iquazú,
``heuristics.PLAYOUT_DEPTHS``): this measures the engine and the search, not a game's playout setting.
"""

from __future__ import annotations

import argparse
import time

from spieltafel.bots import Observation
from spieltafel.bots.ismcts import PLAYOUT_DEPTH, IsmctsBot
from spieltafel.build import engine_build
from spieltafel.core import Rng, State, all_games, get_game


def observe(state: State, seat: int) -> Observation:
    return Observation(seat, state.legal_actions(seat), lambda: state.view(seat), lambda r: state.determinise(seat, r))


def rate(game: str, players: int, seconds: float, cpu_iterations: int | None = None) -> float:
    spec = get_game(game)
    rng = Rng(3)
    iterations, spent = 0, 0.0
    for seed in range(3):
        state = spec.new_state(players, seed)
        for step in range(100_000):
            seats = state.seats_to_act()
            if not seats:
                break
            seat = seats[0]
            legal = state.legal_actions(seat)
            if step % 10 == 0 and len(legal) > 1:
                clock = time.process_time if cpu_iterations else time.perf_counter
                bot = IsmctsBot(
                    seed, iterations=cpu_iterations, seconds=None if cpu_iterations else seconds,
                    rollout_depth=PLAYOUT_DEPTH,
                )
                start = clock()
                bot.choose(observe(state, seat))
                spent += clock() - start
                iterations += bot.last_iterations
            state.step(seat, rng.choice(legal))
    return iterations / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: all the game allows)")
    parser.add_argument("--seconds-per-move", type=float, default=0.2)
    parser.add_argument("--cpu-iterations", type=int, help="fixed iterations per move, rate per CPU second")
    args = parser.parse_args()
    print(f"engines: {engine_build()}", flush=True)
    for spec in [get_game(g) for g in args.games] if args.games else all_games():
        for players in range(spec.min_players, spec.max_players + 1):
            if not args.players or players in args.players:
                per_second = rate(spec.name, players, args.seconds_per_move, args.cpu_iterations)
                print(f"| {spec.name} | {players} | {per_second:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
