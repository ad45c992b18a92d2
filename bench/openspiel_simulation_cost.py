"""CPU time per simulation of OpenSpiel's ISMCTS on our games (issue 29): why it searches less per second.

One position per game (a new game from seed 3 after ``--advance`` random actions, drawn with seed 1), one
``openspiel-ismcts:N`` move timed with ``time.process_time`` after a first move of warm-up; a simulation is a
random game played to its end through the OpenSpiel interface (``RandomRolloutEvaluator``). Beside it the
same move with ``:rollouts=engine`` (the same rollouts run on the engine directly: the same draws, so the same
action, which the script checks) and how many times faster that is.

    python bench/openspiel_simulation_cost.py [--simulations 200] [--advance 6]
"""

from __future__ import annotations

import argparse
import time

from spieltafel.bots import Observation, make_bot
from spieltafel.core import Rng, get_game

CASES = (("iquazu", 2), ("iquazu", 3), ("iquazu", 4), ("haleakala", 2), ("niagara", 3), ("niagara", 4), ("niagara", 5))


def cost(game: str, players: int, simulations: int, advance: int, setting: str = "") -> tuple[float, int]:
    """CPU seconds per simulation of ``openspiel-ismcts:simulations`` (then ``setting``, e.g.
    ``:rollouts=engine``) in one position, and the action it chose."""
    spec = get_game(game)
    state = spec.new_state(players, 3, spec.resolve_options({}))
    rng = Rng(1)
    for _ in range(advance):
        seat = state.seats_to_act()[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))
    seat = state.seats_to_act()[0]
    observation = Observation(
        seat, state.legal_actions(seat), lambda: state.view(seat), lambda r: state.determinise(seat, r)
    )
    if len(observation.legal) == 1:
        raise SystemExit(f"{game} {players}p: one legal action after {advance} actions; try another --advance")
    bot = make_bot(f"openspiel-ismcts:{simulations}{setting}", 0)
    bot.choose(observation)
    start = time.process_time()
    action = bot.choose(observation)
    return (time.process_time() - start) / simulations, action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--advance", type=int, default=3)
    args = parser.parse_args()
    for game, players in CASES:
        simulations = args.simulations if game == "iquazu" else max(2, args.simulations // 20)
        seconds, action = cost(game, players, simulations, args.advance)
        engine, same = cost(game, players, simulations, args.advance, ":rollouts=engine")
        print(
            f"{game} {players}p: {simulations} simulations, {1000 * seconds:.2f} ms of CPU each; "
            f"with rollouts=engine {1000 * engine:.2f} ms ({seconds / engine:.1f}× faster), "
            f"{'the same action' if same == action else f'ANOTHER ACTION ({same}, not {action})'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
