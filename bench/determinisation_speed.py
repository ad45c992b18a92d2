"""Clones and determinisations per CPU second, and a determinisation's cost in clones.

    python bench/determinisation_speed.py

On 50 positions per game (40 random actions from seeds 0–49), each rate the best of five 0.3 s
measurements of this process's CPU time. Prints which build of the engines runs (compiled or pure).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from spieltafel.build import engine_build
from spieltafel.core import Rng, State, get_game

CASES = (("iquazu", 2), ("iquazu", 4), ("haleakala", 2), ("niagara", 3))


def positions(game: str, players: int) -> list[State]:
    spec = get_game(game)
    found = []
    rng = Rng(7)
    for seed in range(50):
        state = spec.new_state(players, seed)
        for _ in range(40):
            seats = state.seats_to_act()
            if not seats:
                break
            state.step(seats[0], rng.choice(state.legal_actions(seats[0])))
        if state.seats_to_act():
            found.append(state)
    return found


def rate(states: list[State], work: Callable[[State], object]) -> float:
    best = 0.0
    for _ in range(5):
        done, start = 0, time.process_time()
        while time.process_time() - start < 0.3:
            for state in states:
                work(state)
            done += len(states)
        best = max(best, done / (time.process_time() - start))
    return best


def sampler(rng: Rng) -> Callable[[State], object]:
    """A determinisation for the seat to act, drawn with ``rng``."""
    return lambda state: state.determinise(state.seats_to_act()[0], rng)


def main() -> None:
    print(f"engines: {engine_build()}")
    print("| game | players | clones/s | determinisations/s | cost in clones |")
    print("|---|---|---|---|---|")
    for game, players in CASES:
        states = positions(game, players)
        clones = rate(states, lambda s: s.clone())
        samples = rate(states, sampler(Rng(1)))
        print(f"| {game} | {players} | {clones:,.0f} | {samples:,.0f} | {clones / samples:.1f} |", flush=True)


if __name__ == "__main__":
    main()
