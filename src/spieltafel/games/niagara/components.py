"""Niagara component data and the river's geometry: pure data.

Spaces are the fixed places on the board; the river discs slide over them. A canoe's place is
stored as a space number (``SHORE``, 1–5 before the fork, ``6L 7L`` in the left arm, ``6R 7R`` in
the right arm) or ``FALLEN`` (below the falls, waiting to be bought back). Each cave is the home of
one gem colour; cave ``i`` starts with 7 gems of colour ``i`` (``docs/rules/niagara.md``).
"""

from __future__ import annotations

from typing import Final

CARD_NAMES: Final = ("1", "2", "3", "4", "5", "6", "cloud")
"""Every player's seven paddle cards; card ``k`` < 6 has paddle value ``k + 1``."""
CLOUD: Final = 6
ALL_CARDS: Final = (1 << len(CARD_NAMES)) - 1
"""A full hand as a bit set: bit ``k`` set when card ``k`` is in the hand."""

GEM_COLOURS: Final = ("amethyst", "diamond", "amber", "sapphire", "ruby")
"""The five gem colours, in the order of their caves from the landing towards the falls."""
GEM_VALUES: Final = (1, 2, 3, 4, 5)
"""Printed value of each colour (the nearer the falls the dearer): the tie-break of ``ending=finish-round``."""
GEMS_PER_COLOUR: Final = 8
CAVE_START: Final = 7
"""Gems laid in each cave at set-up; the eighth gem of each colour is a spare and stays in the box."""
SPARE_PER_COLOUR: Final = GEMS_PER_COLOUR - CAVE_START
COLOURS: Final = len(GEM_COLOURS)

PLAYER_COLOURS: Final = ("red", "yellow", "green", "blue", "white")
"""Canoe colour of seat 0..4."""
CANOE_NAMES: Final = ("a", "b")
CANOES: Final = 2

# -- the river ------------------------------------------------------------------------------------
SHORE: Final = 0
FORK: Final = 5
"""The last space before the fork."""
LEFT_ARM: Final = (6, 7)
RIGHT_ARM: Final = (8, 9)
ARMS: Final = (LEFT_ARM, RIGHT_ARM)
FALLEN: Final = 10
SPACES: Final = 9
"""River spaces with a disc: 5 before the fork and 2 in each arm."""
SPACE_NAMES: Final = ("shore", "1", "2", "3", "4", "5", "6L", "7L", "6R", "7R", "falls")
RIVER_DISCS: Final = 12
DISCS_ASIDE: Final = RIVER_DISCS - SPACES

UPSTREAM: Final = (-1, 0, 1, 2, 3, 4, 5, 6, 5, 8, -1)
"""The space one step upstream of each space (from space 1 the step lands on the shore)."""
DOWNSTREAM: Final[tuple[tuple[int, ...], ...]] = ((1,), (2,), (3,), (4,), (5,), (6, 8), (7,), (), (9,), (), ())
"""The spaces one step downstream; from space 5 the canoe chooses an arm; from a 7 there is only the falls,
and no canoe paddles over it."""
CAVE_AT: Final = (-1, -1, -1, 0, 1, 2, 3, 4, 3, 4, -1)
"""The cave beside each space: amethyst at 3, diamond at 4, amber at 5, sapphire at 6 and ruby at 7 of
either arm (one cave each, reachable from both arms)."""

WEATHER_MIN: Final = -1
WEATHER_MAX: Final = 2
WEATHER_START: Final = 0

LOAD_COST: Final = 2
"""Loading or unloading a gem costs two paddle points."""
WIN_EACH_COLOUR: Final = 1
WIN_SAME_COLOUR: Final = 4
WIN_TOTAL: Final = 7
