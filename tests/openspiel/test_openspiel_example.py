"""examples/openspiel_train.py stays runnable: a second of training and one game against each bot."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

EXAMPLE = "examples/openspiel_train.py"


def test_the_training_example_trains_and_evaluates(script: Callable[[str], ModuleType]) -> None:
    example = script(EXAMPLE)
    game = example.spieltafel.openspiel.load("iquazu", 2)
    env = example.environment(game, seed=0)
    size = env.observation_spec()["info_state"][0]
    learner = example.LinearPolicyGradient(0, size, game.num_distinct_actions(), 0.5, seed=0)
    assert example.train(env, learner, seconds=0.5) >= 1
    for opponent in ("random", "greedy"):
        wins, games = example.evaluate(game, learner, opponent, games=1, seed=1)
        assert games == 1 and 0.0 <= wins <= 1.0
