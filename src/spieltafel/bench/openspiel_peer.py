"""Peer benchmark: random playouts of OpenSpiel's C++ backgammon, driven from Python.

``pyspiel`` (PyPI package ``open-spiel``) is an optional dependency, so it is
imported lazily inside the functions below.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable


def openspiel_available() -> bool:
    """Return True if ``pyspiel`` (the optional ``open-spiel`` package) imports."""
    try:
        importlib.import_module("pyspiel")
    except ImportError:
        return False
    return True


def run_backgammon_playouts(
    seconds: float, seed: int = 0, clock: Callable[[], float] = time.process_time
) -> dict[str, float]:
    """Random playouts of OpenSpiel's C++ backgammon driven from Python via pyspiel.

    At every player decision a uniformly random legal action is applied; at chance
    nodes (dice rolls) an outcome is sampled by its probability.  Both use one
    ``random.Random(seed)``.  Whole games are run until ``seconds`` have elapsed
    (the last game is always finished, so the elapsed time may slightly exceed it).

    ``actions`` counts every ``apply_action`` call: player moves *and* chance
    outcomes (dice rolls), including the opening roll.

    Returns ``{"games", "actions", "seconds", "games_per_second",
    "actions_per_second"}``, where ``seconds`` is the measured time on ``clock`` (this process's CPU
    time by default, as for Spieltafel's own playouts).
    """
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    games = 0
    actions = 0
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, weights=probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
        elapsed = clock() - start
    return {
        "games": games,
        "actions": actions,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
        "actions_per_second": actions / elapsed if elapsed > 0 else 0.0,
    }
