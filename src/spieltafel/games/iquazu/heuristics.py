"""A heuristic value of an Iquazú position for one seat, in the game's own terms (for bots).

value = points already scored
      + expected rock points: the rock value of my current rank in each frame column, weighted by how
        soon the column is scored (the first column almost surely, the fifth much less)
      + expected bonus tiles: rows I lead in the frame, at a typical tile's worth
      + held tiles: points tiles at face value, usable tiles at a typical worth
      + card efficiency: cards in hand as future payments, none beyond the hand limit
      − the best rival's value of the same kind (majorities are relative)
"""

from __future__ import annotations

from spieltafel.core import State

from .board import COLUMN_STARTS, LAST_INTERIM, ROCK_COLUMNS, ROWS
from .components import FRAME_COLUMNS, HAND_LIMIT, ROCK_POINTS, TILE_KINDS
from .rules import EMPTY, OVER, bonus_winner, rock_ranking
from .state import IquazuState

COLUMN_CERTAINTY = (1.0, 0.7, 0.5, 0.35, 0.25)
"""How much a current majority in frame column k is worth: the further right, the less certain."""
TILE_WORTH = {"cards": 1.2, "any": 1.5, "double": 2.0}
ROW_LEAD_WORTH = 1.5
CARD_WORTH = 0.45
TEMPERATURE = 4.0
"""How uncertain the values are, in points: the softmax temperature of search bots' cut-off rewards."""


def seat_value(s: State, seat: int) -> float:
    """The seat's own value, not yet relative to the rivals."""
    assert isinstance(s, IquazuState)
    value = float(s.points[seat])
    if s.phase == OVER:
        return value
    for offset in range(FRAME_COLUMNS):
        column = s.frame + offset
        if column >= ROCK_COLUMNS:
            break
        ranking = rock_ranking(s, column)
        if seat in ranking:
            points = ROCK_POINTS[s.players][column]
            rank = ranking.index(seat)
            if rank < len(points):
                value += COLUMN_CERTAINTY[offset] * points[rank]
    if s.frame <= LAST_INTERIM:
        value += ROW_LEAD_WORTH * sum(1 for row in range(ROWS) if bonus_winner(s, row) == seat)
    for tile, count in enumerate(s.tiles[seat]):
        _, effect, worth = TILE_KINDS[tile]
        value += count * (worth if effect == "points" else TILE_WORTH[effect])
    value += CARD_WORTH * min(sum(s.hands[seat]), HAND_LIMIT)
    value -= 0.2 * _slots_left_in_first_column(s) * (seat == s.water_holder)
    return value


def _slots_left_in_first_column(s: IquazuState) -> int:
    column = s.frame
    return s.slots[COLUMN_STARTS[column] : COLUMN_STARTS[column + 1]].count(EMPTY)


def values(s: State) -> list[float]:
    """Every seat's value, in points (for search bots' cut-off evaluation)."""
    return [seat_value(s, p) for p in range(s.players)]


def evaluate(s: State, seat: int) -> float:
    """The seat's value minus the best rival's value (for the greedy bot)."""
    own = values(s)
    return own[seat] - max(v for p, v in enumerate(own) if p != seat)
