"""Iquazú component data: rock strips, score board, bonus tiles, cards, counts.

Pure data. The rulebook does not print the slot colours, the rock points per player count, the
bonus-tile mix or the board length; the values here are PROVISIONAL choices made to fit every
count the rulebook and the component facts give. ``docs/rules/iquazu.md`` lists each choice and
its reasoning. A corrected table is a change to this file only.
"""

from __future__ import annotations

from typing import Final

CARD_COLOURS: Final = ("W", "B", "O")
"""Card and slot colours: white (wit), blue (blauw), orange (oranje)."""
CARD_COLOUR_NAMES: Final = ("white", "blue", "orange")
CARDS_PER_COLOUR: Final = 20
"""60 cards in three colours; the split is not published, 20 each is assumed (provisional)."""

PLAYER_COLOURS: Final = ("red", "yellow", "purple", "green")
"""Gem colour of seat 0, 1, 2, 3 (the corners of the board decide it)."""
GEMS_PER_COLOUR: Final = 35
"""35 gems per colour; one of them is the player's score marker, so 34 can be placed."""
WATER_DROPS: Final = 50

START_CARDS: Final = (4, 5, 6, 7)
"""Cards dealt clockwise from the start player: 4, 5, 6, 7 (2 players 4/5, 3 players 4/5/6)."""
HAND_LIMIT: Final = 12
DRAW_CARDS: Final = 4
SCORE_TRACK: Final = 80
"""The score track has 80 fields; scores beyond it keep counting (FAQ)."""

FRAME_COLUMNS: Final = 5
"""The water frame shows five placement columns; column k of the frame costs k cards."""

ROCK_STRIPS: Final = (
    "OW B  B  BO W  OW B  W  OO W  BO W  O  BW",
    "O  WB O  W  BW B  OB O  B  BO W  OO O  B",
    "BW O  OB B  O  WO W  BB W  W  OB O  BB O",
    "B  OB W  WW O  O  WW O  OW O  B  BB W  OB",
    "W  W  WO O  BB B  O  WB B  BW W  W  WW W",
)
"""The five rock strips (provisional), one string per strip, one token per board column (14).

A token lists the strip's slots in that column from top to bottom by colour, so ``BO`` is a blue
slot above an orange one: a strip (a bonus row) can hold two slots of one column at different
heights, as the rulebook's scoring example (fifth row) requires. Every column has 7 slots.
The strips are laid in random order at set-up.
"""

ROCK_POINTS: Final = {
    2: ((3,), (4,), (5,), (6,), (7,), (8,), (9,), (10,), (11,), (12,), (13,)),
    3: ((3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (9, 4), (10, 5), (11, 5), (12, 6), (13, 6)),
    4: (
        (3, 2, 1),
        (4, 2, 1),
        (5, 3, 1),
        (6, 3, 2),
        (7, 4, 2),
        (8, 5, 2),
        (9, 5, 3),
        (10, 6, 3),
        (11, 7, 4),
        (12, 7, 4),
        (13, 8, 5),
    ),
}
"""Points on the rocks of the score board for each player count (provisional), one tuple per
board column 1..11: most gems, second most, third most. With n players there are n-1 values, so at
least one player always scores nothing. The rulebook's example (4 players) shows 8/5/2 (column 6
here); later columns are worth more."""

BONUS_COLUMNS_START: Final = 5
"""Bonus tiles lie on board columns 6–14 (0-based 5–13), one per row: the frame's bonus column is
the one right of its five placement columns."""
DARK_BONUS_COLUMNS: Final = (12, 13)
"""0-based board columns whose bonus fields are dark (columns 13 and 14)."""

# Bonus tile kinds: (code, effect, value). Effects: "cards" draw value cards; "any" pay any colour
# for one placement; "double" one more action; "points" value points at the end of the game.
TILE_KINDS: Final[tuple[tuple[str, str, int], ...]] = (
    ("cards2", "cards", 2),
    ("cards3", "cards", 3),
    ("cards4", "cards", 4),
    ("any", "any", 0),
    ("double", "double", 0),
    ("points1", "points", 1),
    ("points2", "points", 2),
    ("points3", "points", 3),
    ("points4", "points", 4),
    ("points5", "points", 5),
)

LIGHT_TILES: Final = {"cards2": 5, "cards3": 5, "cards4": 3, "any": 7, "double": 7, "points1": 4, "points2": 4}
"""The 35 light-backed tiles (provisional mix)."""
DARK_TILES: Final = {"cards4": 2, "any": 1, "double": 2, "points3": 2, "points4": 2, "points5": 1}
"""The 10 dark-backed tiles (provisional mix): fewer, stronger tiles for the late scorings."""
