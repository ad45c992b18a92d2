"""A fixed-size numeric encoding of a Niagara view, for learning agents (``spieltafel.rl``).

:func:`encode` reads only the view dict a seat receives (``state.view(seat)``), never the state, so
it cannot reveal anything the seat may not know: of another seat's face-down card it sees only that
the seat has committed. Seats are counted from the viewer (the viewer is relative seat 0, the next
seat clockwise 1, ...). Every entry lies in [0, 1]. Blocks, in order:

- the game's options (one-hot over each option's choices), round (/200),
  phase (one-hot 6), seats to act (a bit per relative seat), life ring holder (relative, one-hot),
  weather (one-hot -1..2), next arm to receive a disc (bit);
- gems in each cave per colour (5 x 5, /8);
- the turn under way: present, seat (relative), moving canoe (one-hot 2), points left (/8),
  heading (one-hot 3), stage (one-hot 3), its gem of the move handled (bit), canoes moved (2 bits),
  launched;
- per relative seat: committed, revealed card (one-hot 7), cards played since the last refill (7 bits),
  cards not yet revealed (7 bits), banked gems per colour (/8) and in all (/10), and per canoe its
  place (one-hot over shore, 1-5, 6L, 7L, 6R, 7R, falls) and its gem (one-hot 5);
- the viewer's own hand (7 bits) and own face-down choice (one-hot 7).

The river discs are not encoded: they are interchangeable, and the canoes' places say where they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from spieltafel.core import JSON
from spieltafel.rl.features import Features, Vector, options_size, relative, viewer_of

from . import GAME
from .components import (
    CANOE_NAMES,
    CANOES,
    CARD_NAMES,
    COLOURS,
    GEM_COLOURS,
    GEMS_PER_COLOUR,
    SPACE_NAMES,
    WEATHER_MAX,
    WEATHER_MIN,
)
from .river import HEADING_NAMES, STAGE_NAMES
from .rules import PHASE_NAMES

CARDS = len(CARD_NAMES)
WEATHERS = WEATHER_MAX - WEATHER_MIN + 1
ROUND_SCALE = 200
"""The highest round limit (option ``round-limit``), so the round never saturates the entry."""
POINTS_SCALE = 8
GEMS_SCALE = 10


def observation_size(players: int) -> int:
    """Length of :func:`encode`'s vector for ``players`` seats."""
    head = options_size(GAME.options) + 1 + len(PHASE_NAMES) + 2 * players + WEATHERS + 1
    caves = COLOURS * COLOURS
    turn = 1 + players + CANOES + 1 + len(HEADING_NAMES) + len(STAGE_NAMES) + 1 + CANOES + 1
    seat = 1 + 3 * CARDS + COLOURS + 1 + CANOES * (len(SPACE_NAMES) + COLOURS)
    return head + caves + turn + players * seat + 2 * CARDS


def encode(view: Mapping[str, JSON], players: int) -> Vector:
    """The view as a float32 vector of :func:`observation_size` entries (see the module docstring)."""
    me = viewer_of(view)
    out = Features(observation_size(players))
    out.options(view["options"], GAME.options)
    out.scalar(view["round"], ROUND_SCALE)
    out.choice(view["phase"], PHASE_NAMES)
    out.members((relative(p, me, players) for p in view["to_act"]), range(players))
    out.one_hot(relative(view["life_ring"], me, players), players)
    out.one_hot(view["weather"] - WEATHER_MIN, WEATHERS)
    out.flag(view["next_arm"] == "right")

    caves = view["caves"]
    for cave in GEM_COLOURS:
        out.scalars((caves[cave][gem] for gem in GEM_COLOURS), GEMS_PER_COLOUR)

    turn = view["turn"]
    out.flag(turn is not None)
    turn = turn or {}
    out.one_hot(relative(turn.get("seat"), me, players), players)
    out.choice(turn.get("moving"), CANOE_NAMES)
    out.scalar(turn.get("points") or 0, POINTS_SCALE)
    out.choice(turn.get("heading"), HEADING_NAMES)
    out.choice(turn.get("stage"), STAGE_NAMES)
    out.flag(bool(turn.get("gem_handled")))
    out.members(turn.get("moved", ()), CANOE_NAMES)
    out.flag(bool(turn.get("launched")))

    info = view["player_info"]
    for k in range(players):
        player = info[(me + k) % players]
        out.flag(bool(player["committed"]))
        out.choice(player["card"], CARD_NAMES)
        out.members(player["played"], CARD_NAMES)
        out.members(player["unplayed"], CARD_NAMES)
        out.scalars((player["banked"][gem] for gem in GEM_COLOURS), GEMS_PER_COLOUR)
        out.scalar(player["gems"], GEMS_SCALE)
        for canoe in player["canoes"]:
            out.choice(canoe["space"], SPACE_NAMES)
            out.choice(canoe["gem"], GEM_COLOURS)
    out.members(view.get("hand") or (), CARD_NAMES)
    out.choice(view.get("choice"), CARD_NAMES)
    return out.finish()
