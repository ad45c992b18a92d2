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

from typing import Final

from spieltafel.core import State

from .board import COLUMN_STARTS, LAST_INTERIM, ROCK_COLUMNS
from .components import FRAME_COLUMNS, HAND_LIMIT, ROCK_POINTS, TILE_KINDS
from .rules import EMPTY, OVER, rock_ranking, row_winners
from .state import IquazuState

COLUMN_CERTAINTY: Final = (1.0, 0.7, 0.5, 0.35, 0.25)
"""How much a current majority in frame column k is worth: the further right, the less certain."""
TILE_WORTH = {"cards": 1.2, "any": 1.5, "double": 2.0}
ROW_LEAD_WORTH: Final = 1.5
CARD_WORTH: Final = 0.45
TILE_VALUE: Final = tuple(worth if effect == "points" else TILE_WORTH[effect] for _, effect, worth in TILE_KINDS)
"""What one bonus tile of each kind is worth: points tiles at face value, usable tiles typically."""
TEMPERATURE = 4.0
"""How uncertain the values are, in points: the softmax temperature of search bots' cut-off rewards."""
PLAYOUT_DEPTHS: Final[dict[int, int | None]] = {2: 8, 3: None, 4: None}
"""Random actions a search bot's playout makes before these values judge the position, by player count;
None: the playout runs to the end of the game and the values are not used. At 1 s per move against
OpenSpiel's ISMCTS at every other seat (docs/bots.md, issue 29), on the same deals and seats: four-player,
playouts to the end won 53.8% of 40 games where 8-action playouts had won 29.6% (fair share 25%);
three-player, 79.2% of 24 where 8-action playouts had won 60.4% (fair share 33.3%). (With three or four
players 8 random actions are two or three per seat; why the values judge such positions worse than a random
game to the end, which costs about seven times as much with four players, was not examined.) Two-player
keeps the 8 actions it was measured with (95.2% of 21)."""


def seat_value(s: State, seat: int) -> float:
    """The seat's own value, not yet relative to the rivals."""
    assert isinstance(s, IquazuState)
    if s.phase == OVER:
        return float(s.points[seat])
    return _seat_value(s, seat, _Table(s))


class _Table:
    """What every seat's value reads from the board, computed once per position."""

    __slots__ = ("rankings", "row_winners", "slots_left")

    def __init__(self, s: IquazuState) -> None:
        self.rankings = [
            rock_ranking(s, column) for column in range(s.frame, min(s.frame + FRAME_COLUMNS, ROCK_COLUMNS))
        ]
        """The rock ranking of each frame column that has a rock, left to right."""
        self.row_winners = row_winners(s) if s.frame <= LAST_INTERIM else []
        self.slots_left = _slots_left_in_first_column(s)


def _seat_value(s: IquazuState, seat: int, table: _Table) -> float:
    value = float(s.points[seat])
    points_by_column = ROCK_POINTS[s.players]
    for offset, ranking in enumerate(table.rankings):
        if seat in ranking:
            points = points_by_column[s.frame + offset]
            rank = ranking.index(seat)
            if rank < len(points):
                value += COLUMN_CERTAINTY[offset] * points[rank]
    if s.frame <= LAST_INTERIM:
        value += ROW_LEAD_WORTH * table.row_winners.count(seat)
    for tile, count in enumerate(s.tiles[seat]):
        if count:  # adding nothing leaves a non-negative float unchanged
            value += count * TILE_VALUE[tile]
    value += CARD_WORTH * min(sum(s.hands[seat]), HAND_LIMIT)
    value -= 0.2 * table.slots_left * (seat == s.water_holder)
    return value


def _slots_left_in_first_column(s: IquazuState) -> int:
    column = s.frame
    return s.slots[COLUMN_STARTS[column] : COLUMN_STARTS[column + 1]].count(EMPTY)


def values(s: State) -> list[float]:
    """Every seat's value, in points (for search bots' cut-off evaluation)."""
    assert isinstance(s, IquazuState)
    if s.phase == OVER:
        return [float(p) for p in s.points]
    table = _Table(s)
    return [_seat_value(s, p, table) for p in range(s.players)]


def evaluate(s: State, seat: int) -> float:
    """The seat's value minus the best rival's value (for the greedy bot)."""
    own = values(s)
    return own[seat] - max(v for p, v in enumerate(own) if p != seat)
