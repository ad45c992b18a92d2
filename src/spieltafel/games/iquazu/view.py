"""What a seat may know of an Iquazú position, and determinisation for search.

Hidden: the cards in other players' hands (their number is public), the order and content of the
draw pile, and the face-down bonus tiles (their back colour is public). Everything else lies open
on the table: gems and water, scores and their parts (each rock's points, the points tiles' sum),
the discard pile (every card reaches it face up), the bonus tiles a player won (they were face up in
the frame when handed out).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from spieltafel.core import JSON, Rng

from .board import BONUS_FIELDS, ROWS, SLOTS, bonus_field_is_dark, slot_name
from .components import CARD_COLOURS, PLAYER_COLOURS, TILE_KINDS
from .rules import EMPTY, NO_TILE, PHASE_NAMES, WATER, legal_actions

if TYPE_CHECKING:
    from .state import IquazuState


def _cards(counts: list[int]) -> dict[str, int]:
    return dict(zip(CARD_COLOURS, counts, strict=True))


def _tiles(counts: list[int]) -> dict[str, int]:
    return {TILE_KINDS[t][0]: n for t, n in enumerate(counts) if n}


def bonus_field_view(s: IquazuState, field: int) -> str | None:
    """A bonus field as everybody sees it: the tile if face up, else its back colour."""
    tile = s.bonus[field]
    if tile == NO_TILE:
        return None
    if field // ROWS <= s.frame:
        return TILE_KINDS[tile][0]
    return "dark" if bonus_field_is_dark(field) else "light"


def view(s: IquazuState, seat: int | None) -> dict[str, JSON]:
    """The position as ``seat`` sees it (a spectator when None), JSON-ready."""
    occupant = {EMPTY: None, WATER: "water"}
    players = [
        {
            "seat": p,
            "colour": PLAYER_COLOURS[p],
            "score": s.points[p],
            "cards": sum(s.hands[p]),
            "gems": s.supply[p],
            "tiles": _tiles(s.tiles[p]),
            "rock_points": list(s.rock_points[p]),
            "tile_points": s.tile_points[p],
        }
        for p in range(s.players)
    ]
    seen: dict[str, JSON] = {
        "game": "iquazu",
        "players": s.players,
        "options": dict(s.options),
        "seat": seat,
        "phase": PHASE_NAMES[s.phase],
        "to_act": list(s.seats_to_act()),
        "gem_box": s.current,
        "water_box": s.water_holder,
        "actions_left": s.actions_left,
        "frame": s.frame + 1,
        "strip_order": list(s.layout.strip_order),
        "slots": [
            [
                slot_name(i),
                CARD_COLOURS[s.layout.colour[i]],
                s.layout.row[i] + 1,
                occupant.get(s.slots[i], PLAYER_COLOURS[s.slots[i]] if s.slots[i] >= 0 else None),
            ]
            for i in range(SLOTS)
        ],
        "bonus_fields": [bonus_field_view(s, f) for f in range(BONUS_FIELDS)],
        "draw_pile": len(s.pile),
        "discards": _cards(s.discards),
        "water_drops": s.drops,
        "used_tiles": _tiles(s.used_tiles),
        "removed_tiles": _tiles(s.removed_tiles),
        "player_info": players,
        "winners": s.winners(),
    }
    if seat is not None:
        seen["hand"] = _cards(s.hands[seat])
        seen["legal_actions"] = legal_actions(s, seat)
    return seen


def resample_hidden(s: IquazuState, seat: int, rng: Rng) -> None:
    """Redeal what ``seat`` cannot see, consistently with its view: the other hands and the draw
    pile are shuffled together and dealt back in their sizes; face-down tiles are shuffled among the
    fields of their back colour; the game's own generator is reseeded. What is shuffled is sorted
    first, so the result depends only on the seat's view and ``rng``, never on the hidden truth.
    The shuffles and the new generator's seed come from one draw of ``rng`` (:meth:`Rng.kiss`: a
    native-code generator when compiled; every shuffle uniform)."""
    kiss = rng.kiss()
    pile = s.pile
    white, blue = pile.count(0), pile.count(1)
    orange = len(pile) - white - blue
    hands = s.hands
    others = [other for other in range(s.players) if other != seat]
    for other in others:
        w, b, o = hands[other]
        white += w
        blue += b
        orange += o
    pool = [0] * white + [1] * blue + [2] * orange  # sorted
    kiss.permute(pool)
    end = len(pool)
    for other in others:
        hand = hands[other]
        start = end - hand[0] - hand[1] - hand[2]
        dealt = pool[start:end]
        hands[other] = [dealt.count(0), dealt.count(1), dealt.count(2)]
        end = start
    del pool[end:]
    s.pile = pool
    bonus = s.bonus
    for fields_of_a_back in FACE_DOWN_FIELDS[s.frame]:
        fields = [f for f in fields_of_a_back if bonus[f] != NO_TILE]
        tiles = [bonus[f] for f in fields]
        tiles.sort()
        kiss.permute(tiles)
        for k in range(len(fields)):  # not zip(): compiled, a loop over indices stays native code
            bonus[fields[k]] = tiles[k]
    s.rng = Rng(kiss.seed64())


def _face_down_fields(frame: int, dark: bool) -> tuple[int, ...]:
    return tuple(f for f in range(BONUS_FIELDS) if f // ROWS > frame and bonus_field_is_dark(f) == dark)


FACE_DOWN_FIELDS: Final = tuple(
    (_face_down_fields(frame, False), _face_down_fields(frame, True)) for frame in range(BONUS_FIELDS // ROWS)
)
"""Per frame position: the bonus fields still face down, light-backed then dark-backed, ascending."""
