"""Random-playout throughput of a game: a uniformly random legal action at every decision."""

from __future__ import annotations

import time
from collections.abc import Callable

from spieltafel.core import Game, Rng, State


def _playout(state: State, rng: Rng) -> int:
    """Play ``state`` to the end with uniformly random legal actions; return the number of actions."""
    actions = 0
    while True:
        seats = state.seats_to_act()
        if not seats:
            return actions
        for seat in seats:
            state.step(seat, rng.choice(state.legal_actions(seat)))
            actions += 1


Clock = Callable[[], float]


def measure(
    game: Game, players: int, seconds: float, seed: int = 0, clock: Clock = time.process_time
) -> dict[str, float]:
    """Games/s and actions/s of random playouts over ``seconds``, then clones/s and
    determinisations/s on positions sampled from those games (a third of the time each).

    Seconds are this process's CPU time by default (``clock``): on a machine shared with other jobs
    the wall clock also counts the time the process waited for a core."""
    rng = Rng(seed)
    samples: list[State] = []
    games = actions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_state(players, seed + games)
        if games < 50:
            samples.append(_midgame(game, players, seed + games, rng))
        actions += _playout(state, rng)
        games += 1
    elapsed = clock() - start
    return {
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_second": games / elapsed,
        "actions_per_second": actions / elapsed,
        "clones_per_second": _rate(lambda s: s.clone(), samples, seconds / 3, clock),
        "determinisations_per_second": _rate(
            lambda s: s.determinise(s.seats_to_act()[0] if s.seats_to_act() else 0, rng), samples, seconds / 3, clock
        ),
    }


def _midgame(game: Game, players: int, seed: int, rng: Rng) -> State:
    """A position some random way into a game (for clone and determinise timings)."""
    state = game.new_state(players, seed)
    for _ in range(rng.below(60) + 10):
        seats = state.seats_to_act()
        if not seats:
            break
        state.step(seats[0], rng.choice(state.legal_actions(seats[0])))
    return state


def _rate(operation: Callable[[State], object], samples: list[State], seconds: float, clock: Clock) -> float:
    """Calls of ``operation`` per second over the sample positions."""
    count = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for state in samples:
            operation(state)
        count += len(samples)
    return count / (clock() - start)
