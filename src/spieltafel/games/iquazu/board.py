"""Board geometry derived from the component data: slots, columns, rows, costs, payment patterns."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Final

from .components import (
    BONUS_COLUMNS_START,
    CARD_COLOURS,
    DARK_BONUS_COLUMNS,
    FRAME_COLUMNS,
    ROCK_POINTS,
    ROCK_STRIPS,
)

STRIP_CELLS: Final[tuple[tuple[str, ...], ...]] = tuple(tuple(strip.split()) for strip in ROCK_STRIPS)
"""Per strip, per board column, the slot colours of that cell from top to bottom."""
ROWS: Final = len(STRIP_CELLS)
COLUMNS: Final = len(STRIP_CELLS[0])
COLUMN_SIZES: Final = tuple(sum(len(strip[c]) for strip in STRIP_CELLS) for c in range(COLUMNS))
"""Slots per board column: independent of the order in which the strips are laid."""
COLUMN_STARTS: Final = tuple(sum(COLUMN_SIZES[:c]) for c in range(COLUMNS + 1))
SLOTS: Final = COLUMN_STARTS[-1]
COLUMN_SLOTS: Final = tuple(tuple(range(COLUMN_STARTS[c], COLUMN_STARTS[c + 1])) for c in range(COLUMNS))
SLOT_ACTIONS: Final[list[dict[int, tuple[int, ...]]]] = [{} for _ in range(SLOTS)]
"""Per slot: pattern set id → the placement actions on that slot (filled by :func:`slot_actions`)."""
HEIGHT_LETTERS: Final = "abcdefghij"

ROCK_COLUMNS: Final = len(ROCK_POINTS[2])
"""Board columns with a rock (points) on the score board: 1..11."""
LAST_INTERIM: Final = ROCK_COLUMNS - 3
"""0-based column of the third-to-last rock: its scoring ends the game."""
FRAME_POSITIONS: Final = LAST_INTERIM + 1
"""The frame's first column runs over board columns 1..9 (8 water strips = 8 shifts)."""
BONUS_FIELDS: Final = FRAME_POSITIONS * ROWS
"""One bonus field per row on each of the board columns 6..14 (45 tiles)."""


def bonus_field(frame: int, row: int) -> int:
    """Index of the bonus field in ``row`` beside the frame whose first column is ``frame``."""
    return frame * ROWS + row


def bonus_field_is_dark(field: int) -> bool:
    return field // ROWS + BONUS_COLUMNS_START in DARK_BONUS_COLUMNS


def slot_name(slot: int) -> str:
    """Stable slot name: board column (1-based) and height letter from the top, e.g. ``7c``."""
    column = column_of(slot)
    return f"{column + 1}{HEIGHT_LETTERS[slot - COLUMN_STARTS[column]]}"


def column_of(slot: int) -> int:
    for column in range(COLUMNS):
        if slot < COLUMN_STARTS[column + 1]:
            return column
    raise ValueError(f"no slot {slot}")


def parse_slot(name: str) -> int | None:
    """The slot called ``name`` (e.g. ``7c``) or None when there is none."""
    digits, letter = name[:-1], name[-1:]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 2 or letter not in HEIGHT_LETTERS or not letter:
        return None
    column, height = int(digits) - 1, HEIGHT_LETTERS.index(letter)
    if not 0 <= column < COLUMNS or height >= COLUMN_SIZES[column]:
        return None
    return COLUMN_STARTS[column] + height


@dataclass(frozen=True, slots=True)
class Layout:
    """The board once the strips are laid in ``strip_order`` (strip index per row, top to bottom).

    Slot ids run column by column, top to bottom, so a larger id is further right or, in the same
    column, lower down: the order of every tie-break in the rules.
    """

    strip_order: tuple[int, ...]
    colour: tuple[int, ...]
    row: tuple[int, ...]
    frame_rows: tuple[tuple[tuple[int, ...], ...], ...]
    """frame_rows[frame][row]: the slots of ``row`` in the frame's five columns, ascending."""
    column_cells: tuple[tuple[tuple[int, int, dict[int, tuple[int, ...]]], ...], ...] = field(
        repr=False, compare=False
    )
    """column_cells[column]: per slot of the column, top to bottom: the slot, its colour, and its
    placement actions by pattern set (the shared cache of :func:`slot_actions`)."""


@cache
def layout(strip_order: tuple[int, ...]) -> Layout:
    """The board for one order of the rock strips (cached: there are only 120 orders)."""
    colour: list[int] = []
    row: list[int] = []
    for column in range(COLUMNS):
        for r, strip in enumerate(strip_order):
            for letter in STRIP_CELLS[strip][column]:
                colour.append(CARD_COLOURS.index(letter))
                row.append(r)
    frame_rows = tuple(
        tuple(
            tuple(s for s in range(COLUMN_STARTS[f], COLUMN_STARTS[f + FRAME_COLUMNS]) if row[s] == r)
            for r in range(ROWS)
        )
        for f in range(FRAME_POSITIONS)
    )
    column_cells = tuple(tuple((s, colour[s], SLOT_ACTIONS[s]) for s in COLUMN_SLOTS[c]) for c in range(COLUMNS))
    return Layout(strip_order, tuple(colour), tuple(row), frame_rows, column_cells)


# -- payment patterns ---------------------------------------------------------------------------
# A placement in frame column N pays N cards of the slot's colour; each may be replaced by two
# identical cards of another colour. With the any-colour bonus tile, any N cards pay.
# A pattern is (any, cost, a, b, c):
#   normal: a cards of the slot colour, b pairs of the next colour, c pairs of the one after (W→B→O→W)
#   any:    a white, b blue, c orange cards.

PATTERNS: Final[tuple[tuple[bool, int, int, int, int], ...]] = tuple(
    (any_colour, cost, a, b, c)
    for any_colour in (False, True)
    for cost in range(1, FRAME_COLUMNS + 1)
    for a, b, c in product(range(cost + 1), repeat=3)
    if a + b + c == cost
)
PATTERN_COUNT: Final = len(PATTERNS)
ANY_PATTERN_START: Final = PATTERN_COUNT // 2


def cards_paid(pattern: int, slot_colour: int) -> tuple[int, int, int]:
    """Cards (white, blue, orange) a pattern pays for a slot of ``slot_colour``."""
    any_colour, _, a, b, c = PATTERNS[pattern]
    if any_colour:
        return a, b, c
    paid = [0, 0, 0]
    paid[slot_colour] = a
    paid[(slot_colour + 1) % 3] = 2 * b
    paid[(slot_colour + 2) % 3] = 2 * c
    return paid[0], paid[1], paid[2]


CARDS_PAID: Final = tuple(tuple(cards_paid(p, colour) for p in range(PATTERN_COUNT)) for colour in range(3))
"""CARDS_PAID[slot colour][pattern]: :func:`cards_paid`, looked up."""


def pattern_for(any_colour: bool, slot_colour: int, cards: tuple[int, int, int]) -> int | None:
    """The pattern that pays exactly ``cards`` (white, blue, orange), or None if none does."""
    if any_colour:
        key = (True, sum(cards), *cards)
    else:
        other1, other2 = cards[(slot_colour + 1) % 3], cards[(slot_colour + 2) % 3]
        if other1 % 2 or other2 % 2:
            return None
        a, b, c = cards[slot_colour], other1 // 2, other2 // 2
        key = (False, a + b + c, a, b, c)
    try:
        return PATTERNS.index(key)
    except ValueError:
        return None


_NEEDS: Final[dict[tuple[bool, int, int], tuple[tuple[int, int, int, int], ...]]] = {
    (any_colour, colour, cost): tuple(
        (p, *cards_paid(p, colour))
        for p in range(PATTERN_COUNT)
        if PATTERNS[p][0] == any_colour and PATTERNS[p][1] == cost
    )
    for any_colour in (False, True)
    for colour in range(3)
    for cost in range(1, FRAME_COLUMNS + 1)
}


@cache
def affordable(any_colour: bool, colour: int, cost: int, w: int, b: int, o: int) -> tuple[int, ...]:
    """The patterns of ``cost`` a hand of (w, b, o) cards can pay for a slot of ``colour``."""
    return tuple(p for p, nw, nb, no in _NEEDS[any_colour, colour, cost] if nw <= w and nb <= b and no <= o)


CARD_CAP: Final = 2 * FRAME_COLUMNS
"""No payment needs more cards of one colour: a hand with more pays for exactly the same patterns."""

PATTERN_SETS: Final[list[tuple[int, ...]]] = [()]
"""Distinct sets of affordable patterns (ascending), by id; id 0 is the empty set."""
_PATTERN_SET_IDS: Final[dict[tuple[int, ...], int]] = {(): 0}


def _pattern_set_id(patterns: tuple[int, ...]) -> int:
    found = _PATTERN_SET_IDS.get(patterns)
    if found is None:
        found = _PATTERN_SET_IDS[patterns] = len(PATTERN_SETS)
        PATTERN_SETS.append(patterns)
    return found


@cache
def payment_plan(w: int, b: int, o: int, has_any: bool) -> tuple[tuple[int, int, int], ...]:
    """For a hand of (w, b, o) cards (each at most CARD_CAP) and whether it holds an any-colour
    tile: per frame column (cost 1, 2, …, up to the first column it pays for nothing), per slot
    colour, the id of the set of patterns it can pay there (by the slot's colour, then any-colour)."""
    plan: list[tuple[int, int, int]] = []
    for cost in range(1, FRAME_COLUMNS + 1):
        any_colour = affordable(True, 0, cost, w, b, o) if has_any else ()
        ids = tuple(_pattern_set_id(affordable(False, colour, cost, w, b, o) + any_colour) for colour in range(3))
        if not any(ids):
            break
        plan.append((ids[0], ids[1], ids[2]))
    return tuple(plan)


def slot_actions(slot: int, pattern_set: int) -> tuple[int, ...]:
    """The placement actions on ``slot`` with the patterns of ``pattern_set`` (cached)."""
    actions = SLOT_ACTIONS[slot].get(pattern_set)
    if actions is None:
        base = slot * PATTERN_COUNT
        actions = SLOT_ACTIONS[slot][pattern_set] = tuple(base + p for p in PATTERN_SETS[pattern_set])
    return actions


PLANS: Final[list[tuple[tuple[int, int, int], ...] | None]] = [None] * (2 * (CARD_CAP + 1) ** 3)
"""The cache of :func:`payment_plan` as a list, by ((w · 11 + b) · 11 + o) · 2 + has_any: one list
lookup on the placement hot path."""
CAPPED: Final = tuple(min(n, CARD_CAP) for n in range(61))
"""CAPPED[n]: n cards of one colour capped at CARD_CAP (a hand holds at most the 60 cards)."""


def placement_plan(w: int, b: int, o: int, has_any: bool) -> tuple[tuple[int, int, int], ...]:
    """:func:`payment_plan`, kept in :data:`PLANS` (hands capped at CARD_CAP)."""
    plan = PLANS[((w * (CARD_CAP + 1) + b) * (CARD_CAP + 1) + o) * 2 + has_any] = payment_plan(w, b, o, has_any)
    return plan
