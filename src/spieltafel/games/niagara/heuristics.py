"""A heuristic value of a Niagara position for one seat, in banked-gem units (for bots).

value = banked gems
      + progress towards the nearest goal (five colours, four of one colour, seven in all), weighted
      + each carried gem: what banking it would add, discounted by the distance to the landing and
        by the danger of the falls (a canoe in an arm is one flow away from them)
      − a canoe below the falls (it costs a gem or a turn to get back), much more for both
      − the best rival's value of the same kind (only the first to a goal wins)
"""

from __future__ import annotations

from typing import Final

from spieltafel.core import State

from .components import CANOES, FALLEN, SHORE, WIN_EACH_COLOUR, WIN_SAME_COLOUR, WIN_TOTAL
from .rules import NO_GEM, OVER
from .state import NiagaraState

GOAL_WEIGHT: Final = 3.0
WIN_VALUE: Final = 20.0
FALLEN_COST: Final = 1.0
STRANDED_COST: Final = 3.0
"""A player with both canoes below the falls can do nothing: worth more than the gem a buy-back costs."""
DISTANCE: Final = (0.0, 0.9, 0.85, 0.8, 0.75, 0.7, 0.55, 0.45, 0.55, 0.45, 0.0)
"""How likely a gem carried on each space is to be banked (shore .. 7R, falls): further down the
river it needs more turns, and the arms are close to the falls."""
TEMPERATURE = 1.0
"""How uncertain the values are, in banked gems: the softmax temperature of search bots' cut-off rewards."""


def goal_progress(banked: list[int]) -> float:
    """How far the nearest goal is reached, 0..1."""
    colours = sum(1 for n in banked if n >= WIN_EACH_COLOUR) / len(banked)
    return max(colours, max(banked) / WIN_SAME_COLOUR, sum(banked) / WIN_TOTAL)


def seat_value(s: State, seat: int) -> float:
    """The seat's own value, not yet relative to the rivals."""
    assert isinstance(s, NiagaraState)
    banked = s.banked[seat]
    if s.phase == OVER:
        return WIN_VALUE if seat in s.won else float(sum(banked))
    progress = goal_progress(banked)
    value = sum(banked) + GOAL_WEIGHT * progress
    if s.canoes[seat * CANOES] == s.canoes[seat * CANOES + 1] == FALLEN:
        value -= STRANDED_COST
    for index in range(seat * CANOES, seat * CANOES + CANOES):
        space = s.canoes[index]
        if space == FALLEN:
            value -= FALLEN_COST
            continue
        gem = s.cargo[index]
        if gem != NO_GEM and space != SHORE:
            gained = banked[:]
            gained[gem] += 1
            value += DISTANCE[space] * (1 + GOAL_WEIGHT * (goal_progress(gained) - progress))
    return value


def values(s: State) -> list[float]:
    """Every seat's value, in banked-gem units (for search bots' cut-off evaluation)."""
    return [seat_value(s, p) for p in range(s.players)]


def evaluate(s: State, seat: int) -> float:
    """The seat's value minus the best rival's value (for the greedy bot)."""
    own = values(s)
    return own[seat] - max(v for p, v in enumerate(own) if p != seat)
