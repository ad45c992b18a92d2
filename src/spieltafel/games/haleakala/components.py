"""Haleakala component data: island layout, card kinds, palm decks, scoring board, counts.

Pure data. The rules give the counts (15/12/15 palm cards, 8 lava cards, 5 scoring cards, 8 statues
and discs 1–5 per player, 4 lava chips) and the appendix lists the card faces, but not how often each
face occurs in which deck, which cards carry butterflies beyond the appendix, how the segments are
numbered, where the huts and the jetty lie, or which fields neighbour which. The values here are
PROVISIONAL choices consistent with every count in the sources; ``docs/rules/haleakala.md`` gives the
reasoning. A corrected table is a change to this file only.
"""

from __future__ import annotations

from typing import Final

PLAYER_COLOURS: Final = ("red", "yellow")
"""Colour of seat 0 (the start player) and seat 1."""

SEGMENTS: Final = 6
"""The island's six segments, numbered 1–6 clockwise (0-based 0–5 in code), the boat moves clockwise."""
RINGS: Final = ("beach", "grass", "forest", "mountain", "crater")
"""Land fields of a segment from the sea inwards; the ring index is the height (beach 0 … crater 4)."""
RING_LETTERS: Final = "bgfmc"
BEACH: Final = 0
GRASS: Final = 1
FOREST: Final = 2
MOUNTAIN: Final = 3
CRATER: Final = 4

JETTY: Final = 0
"""Segment of the beach with the jetty, where the boat starts (provisional: segment 1)."""
NEIGHBOURHOOD: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""Which fields touch (provisional; the board picture is not in the source), as (segments clockwise,
rings inwards) offsets: the same ring in both neighbouring segments, and the next field inwards and
outwards in the same segment. No diagonals: the segments are slices of a round island, so fields of
different rings in neighbouring segments meet only at a corner."""
HUTS: Final = (1, 4)
"""Segments of the two hut beaches, opposite each other; seat 0's shaman starts on the first
(provisional: segments 2 and 5, so the boat starts one field before the start player's hut)."""

DISC_VALUES: Final = (1, 2, 3, 4, 5)
"""The five number discs of each player; the tactical variant adds one lava disc (value 0)."""
LAVA_DISC: Final = 5
"""Index of the lava disc among a player's discs (after the five number discs)."""
STATUES: Final = 8
"""Statues per player."""
LAVA_CHIPS: Final = 4

STATUE_POINTS: Final = {GRASS: 1, FOREST: 2, MOUNTAIN: 3}
FISH_MAJORITY_POINTS: Final = 3
WHITE_PEARL_POINTS: Final = 1
BLACK_PEARL_POINTS: Final = 2
BOTH_PEARLS_POINTS: Final = 4
NAUTILUS_POINTS: Final = 3

# -- palm cards ---------------------------------------------------------------------------------
# Card kinds: (code, butterflies, fish baskets). The kind is the card's face: two cards of one kind
# are "zwei genau gleiche Karten".
KINDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("statue", 0, 0),
    ("priestess", 0, 0),
    ("shell", 0, 0),
    ("fish1", 1, 1),
    ("fish2", 1, 2),
    ("fish4", 1, 4),
    ("fish5", 1, 5),
    ("white-pearl", 1, 0),
    ("black-pearl", 0, 0),
    ("nautilus", 1, 0),
    ("lava", 0, 0),
)
"""Butterflies as the appendix prints them: every fish-basket card, the white pearl and the nautilus
carry one; the black pearl, statue, priestess, shell and lava cards none (provisional)."""
KIND_CODES: Final = tuple(code for code, _, _ in KINDS)
STATUE_CARD: Final = 0
PRIESTESS_CARD: Final = 1
SHELL_CARD: Final = 2
WHITE_PEARL: Final = 7
BLACK_PEARL: Final = 8
NAUTILUS: Final = 9
LAVA_CARD: Final = 10

DECKS: Final[tuple[dict[str, int], ...]] = (
    {"statue": 5, "shell": 3, "fish1": 3, "fish2": 2, "priestess": 1, "white-pearl": 1},
    {"lava": 3, "statue": 4, "shell": 2, "fish2": 1, "fish4": 1, "black-pearl": 1},
    {"lava": 5, "statue": 4, "shell": 2, "fish1": 1, "fish5": 1, "nautilus": 1, "priestess": 1},
)
"""Composition of the one-, two- and three-palm decks (15, 12, 15 cards; provisional).

No lava card in the one-palm deck (set-up lays 12 of them face up without any lava rule); the
nautilus in the three-palm deck (it "taucht erst nach der 1. Wertung auf"); both pearls in the
first round (they score at scoring 1 already)."""
BAYS_PER_SEGMENT: Final = 2
BAY_LETTERS: Final = "ab"

# -- scoring board ------------------------------------------------------------------------------
SCORING_CARDS: Final[tuple[tuple[str, int], ...]] = (
    ("butterflies", 1),
    ("majority", 1),
    ("segment", 1),
    ("forest", 2),
    ("mountain", 2),
)
"""The five scoring cards (code, price in shells), as the appendix prints them."""
BOARD_PRIESTESS_PRICE: Final = 1
BUTTERFLY_POINTS: Final = 1
MAJORITY_POINTS: Final = 2
SEGMENT_POINTS: Final = 4
FOREST_BONUS: Final = 2
MOUNTAIN_BONUS: Final = 3
