"""The Niagara heuristic (for bots) values the things the rules reward."""

from __future__ import annotations

from niagara_helpers import new

from spieltafel.games.niagara.components import FALLEN
from spieltafel.games.niagara.heuristics import evaluate, goal_progress, seat_value


def test_goal_progress_follows_the_three_goals() -> None:
    assert goal_progress([0, 0, 0, 0, 0]) == 0
    assert goal_progress([0, 0, 0, 0, 4]) == 1
    assert goal_progress([1, 1, 1, 1, 1]) == 1
    assert goal_progress([3, 2, 2, 0, 0]) == 1
    assert goal_progress([2, 0, 0, 0, 0]) == 0.5


def test_a_banked_gem_beats_a_carried_one_which_beats_none() -> None:
    s = new(3)
    empty = seat_value(s, 0)
    s.canoes[0], s.cargo[0] = 4, 4
    s.caves[4][4] -= 1
    carried = seat_value(s, 0)
    s.canoes[0], s.cargo[0] = 0, -1
    s.banked[0][4] = 1
    assert empty < carried < seat_value(s, 0)


def test_a_canoe_below_the_falls_costs_and_evaluation_is_relative() -> None:
    s = new(3)
    before = seat_value(s, 1)
    s.canoes[2] = FALLEN
    assert seat_value(s, 1) < before
    s.banked[0][0] = 1
    s.caves[0][0] -= 1
    assert evaluate(s, 0) > 0 > evaluate(s, 2) > evaluate(s, 1)
