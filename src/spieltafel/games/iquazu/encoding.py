"""A fixed-size numeric encoding of an Iquazú view, for learning agents (``spieltafel.rl``).

:func:`encode` reads only the view dict a seat receives (``state.view(seat)``), never the state, so
it cannot reveal anything the seat may not know. Seats are counted from the viewer (the viewer is
relative seat 0, the next seat clockwise 1, ...). Every entry lies in [0, 1]. Blocks, in order:

- the game's options (one-hot over each option's choices), phase (one-hot 4), seats to act (one bit per relative seat),
  gem-box and water-box holders (one-hot per relative seat each), actions left (/3),
  frame position (one-hot 9), rock strip of each row (one-hot 5 per row);
- per slot (98, in slot order): colour (one-hot 3), row (one-hot 5), water, own gem, another seat's
  gem (one bit per other relative seat);
- per bonus field (45): face-down light, face-down dark, or the face-up tile kind (one-hot 10);
- draw pile (/60), discards per colour (/20), water drops left (/50), used and removed bonus tiles
  per kind (/8);
- per relative seat: score (/100), cards in hand (/24), gems in supply (/35), bonus tiles per kind (/8);
- own hand per colour (/24).
"""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON
from spieltafel.rl.features import Features, Vector, options_size, relative, viewer_of

from . import GAME
from .board import BONUS_FIELDS, FRAME_POSITIONS, ROWS, SLOTS
from .components import CARD_COLOURS, GEMS_PER_COLOUR, PLAYER_COLOURS, TILE_KINDS, WATER_DROPS
from .rules import PHASE_NAMES

TILE_CODES = tuple(code for code, _, _ in TILE_KINDS)
TILES = len(TILE_CODES)
STRIPS = ROWS
"""There are as many rock strips as rows; ``strip_order`` lists the strip of each row."""
DECK = 60
CARD_SCALE = 24
TILE_SCALE = 8
SCORE_SCALE = 100


def observation_size(players: int) -> int:
    """Length of :func:`encode`'s vector for ``players`` seats."""
    head = options_size(GAME.options) + len(PHASE_NAMES) + 3 * players + 1 + FRAME_POSITIONS + ROWS * STRIPS
    slots = SLOTS * (len(CARD_COLOURS) + ROWS + 1 + players)
    bonus = BONUS_FIELDS * (2 + TILES)
    table = 1 + len(CARD_COLOURS) + 1 + 2 * TILES
    seats = players * (3 + TILES)
    return head + slots + bonus + table + seats + len(CARD_COLOURS)


def encode(view: Mapping[str, JSON], players: int) -> Vector:
    """The view as a float32 vector of :func:`observation_size` entries (see the module docstring)."""
    me = viewer_of(view)
    out = Features(observation_size(players))
    out.options(view["options"], GAME.options)
    out.choice(view["phase"], PHASE_NAMES)
    out.members((relative(p, me, players) for p in view["to_act"]), range(players))
    out.one_hot(relative(view["gem_box"], me, players), players)
    out.one_hot(relative(view["water_box"], me, players), players)
    out.scalar(view["actions_left"], 3)
    out.one_hot(view["frame"] - 1, FRAME_POSITIONS)
    for strip in view["strip_order"]:
        out.one_hot(strip, STRIPS)
    for _, colour, row, occupant in view["slots"]:
        out.choice(colour, CARD_COLOURS)
        out.one_hot(row - 1, ROWS)
        out.flag(occupant == "water")
        owner = PLAYER_COLOURS.index(occupant) if occupant in PLAYER_COLOURS else None
        out.one_hot(relative(owner, me, players), players)
    for face in view["bonus_fields"]:
        out.flag(face == "light")
        out.flag(face == "dark")
        out.choice(face if face in TILE_CODES else None, TILE_CODES)
    out.scalar(view["draw_pile"], DECK)
    out.scalars((view["discards"][c] for c in CARD_COLOURS), DECK // len(CARD_COLOURS))
    out.scalar(view["water_drops"], WATER_DROPS)
    out.scalars((view["used_tiles"].get(t, 0) for t in TILE_CODES), TILE_SCALE)
    out.scalars((view["removed_tiles"].get(t, 0) for t in TILE_CODES), TILE_SCALE)
    info = view["player_info"]
    for k in range(players):
        player = info[(me + k) % players]
        out.scalar(player["score"], SCORE_SCALE)
        out.scalar(player["cards"], CARD_SCALE)
        out.scalar(player["gems"], GEMS_PER_COLOUR)
        out.scalars((player["tiles"].get(t, 0) for t in TILE_CODES), TILE_SCALE)
    hand = view.get("hand") or {}
    out.scalars((hand.get(c, 0) for c in CARD_COLOURS), CARD_SCALE)
    return out.finish()
