"""Island geometry and card identities derived from the component data.

Fields are numbered ``segment * 5 + ring`` (ring 0 beach … 4 crater). Neighbours come from
``components.NEIGHBOURHOOD`` (provisional, the board's picture is not in the source): the next field
inwards and outwards in the same segment, and the field of the same ring in the two neighbouring
segments. Shamans walk on grass, forest and mountain only; craters form a ring of their own (the
Lava Priestess moves chips along it).
"""

from __future__ import annotations

from typing import Final

from .components import (
    BAY_LETTERS,
    BAYS_PER_SEGMENT,
    BEACH,
    CRATER,
    DECKS,
    FOREST,
    GRASS,
    KIND_CODES,
    MOUNTAIN,
    NEIGHBOURHOOD,
    RING_LETTERS,
    RINGS,
    SEGMENTS,
)

FIELDS: Final = SEGMENTS * len(RINGS)
BAYS: Final = SEGMENTS * BAYS_PER_SEGMENT


def field(segment: int, ring: int) -> int:
    return segment * len(RINGS) + ring


def segment_of(f: int) -> int:
    return f // len(RINGS)


def ring_of(f: int) -> int:
    return f % len(RINGS)


def field_name(f: int) -> str:
    """Stable field name: ring letter and 1-based segment, e.g. ``g3`` (grass of segment 3)."""
    return f"{RING_LETTERS[ring_of(f)]}{segment_of(f) + 1}"


def parse_field(name: str) -> int | None:
    """The field called ``name`` (e.g. ``m2``) or None."""
    if len(name) != 2 or name[0] not in RING_LETTERS or not name[1].isdigit():
        return None
    segment = int(name[1]) - 1
    if not 0 <= segment < SEGMENTS:
        return None
    return field(segment, RING_LETTERS.index(name[0]))


def neighbours(f: int) -> tuple[int, ...]:
    """Fields next to ``f`` (``components.NEIGHBOURHOOD``): the same ring in both neighbouring
    segments, inwards and outwards."""
    segment, ring = segment_of(f), ring_of(f)
    result = [
        field((segment + dg) % SEGMENTS, ring + dr)
        for dg, dr in NEIGHBOURHOOD
        if BEACH <= ring + dr <= CRATER
    ]
    return tuple(sorted(result))


def _walkable(f: int) -> bool:
    """"Ein Schamane zieht nur auf Gras-, Wald- und Bergfelder": never beach, never crater."""
    return GRASS <= ring_of(f) <= MOUNTAIN


def _reach(start: int) -> tuple[int, ...]:
    """Fields a shaman on ``start`` can end on with up to 2 steps, at most one of them uphill
    (``start`` itself = not moving). Passing through the other shaman is allowed, so this does not
    depend on the position; ending on it is excluded by the rules."""
    targets = {start}
    for first in neighbours(start):
        if not _walkable(first):
            continue
        climbed = ring_of(first) > ring_of(start)
        targets.add(first)
        for second in neighbours(first):
            if _walkable(second) and not (climbed and ring_of(second) > ring_of(first)):
                targets.add(second)
    return tuple(sorted(targets))


REACH: Final = tuple(_reach(f) for f in range(FIELDS))
"""REACH[f]: every end field of a shaman move from ``f`` (including staying on ``f``)."""
CRATERS: Final = tuple(field(s, CRATER) for s in range(SEGMENTS))
"""Fields reached by an eruption's chips in a segment, in order: 1st chip mountain, 2nd forest, 3rd grass."""
LAVA_FLOW: Final = tuple(tuple(field(s, r) for r in (MOUNTAIN, FOREST, GRASS)) for s in range(SEGMENTS))


def bay(segment: int, k: int) -> int:
    return segment * BAYS_PER_SEGMENT + k


def bay_name(b: int) -> str:
    """Stable bay name: 1-based segment and letter, e.g. ``3a``."""
    return f"{b // BAYS_PER_SEGMENT + 1}{BAY_LETTERS[b % BAYS_PER_SEGMENT]}"


def parse_bay(name: str) -> int | None:
    if len(name) != 2 or not name[0].isdigit() or name[1] not in BAY_LETTERS:
        return None
    segment = int(name[0]) - 1
    if not 0 <= segment < SEGMENTS:
        return None
    return bay(segment, BAY_LETTERS.index(name[1]))


def _cards() -> tuple[tuple[int, ...], tuple[int, ...]]:
    kinds: list[int] = []
    decks: list[int] = []
    for palms, composition in enumerate(DECKS):
        for code, count in composition.items():
            kinds.extend([KIND_CODES.index(code)] * count)
            decks.extend([palms] * count)
    return tuple(kinds), tuple(decks)


_KINDS_AND_DECKS: Final = _cards()
CARD_KIND: Final = _KINDS_AND_DECKS[0]
"""Per card id (0–41): its kind (index into KINDS)."""
CARD_DECK: Final = _KINDS_AND_DECKS[1]
"""Per card id (0–41): its deck (0 = one palm, 1 = two, 2 = three)."""
CARDS: Final = len(CARD_KIND)
