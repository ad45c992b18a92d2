"""A heuristic value of a Haleakala position for one seat, in the game's own terms (for bots).

value = points already scored
      + per scoring still to come: statues by terrain (a statue the lava on its crater would hit
        counts only for the scorings after the next eruption), fish-basket majority, pearls
      + nautilus, kept shells (a purchase or a point at the end), the scoring cards held
      + a little for a shaman high up the mountain (where statues are worth more)
The greedy bot uses the difference to the other seat (majorities are relative).
"""

from __future__ import annotations

from typing import Final

from spieltafel.core import State

from .board import CARD_KIND, FIELDS, LAVA_FLOW, ring_of, segment_of
from .components import NAUTILUS, NAUTILUS_POINTS, STATUE_POINTS
from .rules import OVER, TERRAINS, fish_points, pearl_points, scoring_card_points, statues_on
from .state import HaleakalaState

SHELL_WORTH: Final = 1.2
SHAMAN_HEIGHT_WORTH: Final = 0.3
TEMPERATURE = 3.0
"""How uncertain the values are, in points: the softmax temperature of search bots' cut-off rewards."""


def threatened(s: HaleakalaState, f: int) -> bool:
    """Whether the chips now on the crater above ``f`` would reach it in an eruption."""
    segment = segment_of(f)
    return f in LAVA_FLOW[segment][: s.craters[segment]]


def _flow_depth(f: int) -> int:
    """How many chips a crater needs before its lava reaches ``f`` (more than ever lie there if never)."""
    flow = LAVA_FLOW[segment_of(f)]
    return flow.index(f) + 1 if f in flow else FIELDS


FLOW_DEPTH: Final = tuple(_flow_depth(f) for f in range(FIELDS))
"""Per field: ``threatened`` is true exactly when the crater of its segment holds this many chips or more."""
FIELD_STATUE_POINTS: Final = tuple(STATUE_POINTS.get(ring_of(f), 0) for f in range(FIELDS))


def statue_value(s: HaleakalaState, seat: int, scorings_left: int) -> float:
    value = 0.0
    craters = s.craters
    for f, owner in enumerate(s.statues):
        if owner == seat:
            lasts = scorings_left - 1 if craters[segment_of(f)] >= FLOW_DEPTH[f] else scorings_left
            value += FIELD_STATUE_POINTS[f] * lasts
    return value


def seat_value(s: State, seat: int) -> float:
    """The seat's own value, not yet relative to the other seat."""
    assert isinstance(s, HaleakalaState)
    value = float(s.points[seat])
    if s.phase == OVER:
        return value
    scorings_left = 2 if s.round == 1 else 1
    value += statue_value(s, seat, scorings_left)
    value += (fish_points(s, seat) + pearl_points(s, seat)) * scorings_left
    kinds = [CARD_KIND[c] for c in s.collected[seat]]
    value += NAUTILUS_POINTS * kinds.count(NAUTILUS) + SHELL_WORTH * len(s.shells[seat])
    counts = {ring: statues_on(s, seat, ring) for ring in TERRAINS}
    for card, owner in enumerate(s.scoring_owner):
        if owner == seat:
            value += scoring_card_points(s, seat, card, counts, kinds)
    value += SHAMAN_HEIGHT_WORTH * ring_of(s.shamans[seat])
    return value


def values(s: State) -> list[float]:
    """Both seats' values, in points (for search bots' cut-off evaluation)."""
    return [seat_value(s, p) for p in range(2)]


def evaluate(s: State, seat: int) -> float:
    """The seat's value minus the other seat's value (for the greedy bot)."""
    own = values(s)
    return own[seat] - own[1 - seat]
