"""The Iquazú full-state document: its shape (pydantic) and the game's invariants, checked in one
place for every loader (``IquazuState.from_json``, so the CLI, the server and the tests)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field

from spieltafel.core import JSON, Game, StateFormatError
from spieltafel.core.document import StateDocument, check_header, require, validate

from .board import BONUS_FIELDS, COLUMN_STARTS, LAST_INTERIM, ROCK_COLUMNS, ROWS, SLOTS, bonus_field_is_dark
from .components import (
    CARDS_PER_COLOUR,
    DARK_TILES,
    FRAME_COLUMNS,
    GEMS_PER_COLOUR,
    HAND_LIMIT,
    LIGHT_TILES,
    ROCK_POINTS,
    TILE_KINDS,
    WATER_DROPS,
)
from .rules import ACTION, DISCARD_PHASE, END_OF_TURN, NO_TILE, OVER, WATER

GAME = "iquazu"
FORMAT = 2
"""The state document's format: 2 since the score's parts (``rock_points``, ``tile_points``) are recorded."""
CARDS = 3 * CARDS_PER_COLOUR
TILES = sum(LIGHT_TILES.values()) + sum(DARK_TILES.values())
DOUBLE_TILES = LIGHT_TILES["double"] + DARK_TILES["double"]

Count = Annotated[int, Field(ge=0, le=CARDS)]
Colour = Annotated[int, Field(ge=0, le=2)]
Seat = Annotated[int, Field(ge=0, le=3)]
Colours = Annotated[list[Count], Field(min_length=3, max_length=3)]
TileCount = Annotated[int, Field(ge=0, le=TILES)]
TileCounts = Annotated[list[TileCount], Field(min_length=len(TILE_KINDS), max_length=len(TILE_KINDS))]
Tile = Annotated[int, Field(ge=NO_TILE, lt=len(TILE_KINDS))]
PerSeat = Field(min_length=2, max_length=4)
Points = Annotated[int, Field(ge=0, le=10_000)]
RockPoints = Annotated[list[Points], Field(min_length=ROCK_COLUMNS, max_length=ROCK_COLUMNS)]


class IquazuDocument(StateDocument):
    format: Literal[2]  # type: ignore[assignment]  # narrower than the shared header's format 1
    """Shape, types and ranges of every field ``IquazuState.to_json`` writes."""

    strip_order: Annotated[list[Annotated[int, Field(ge=0, lt=ROWS)]], Field(min_length=ROWS, max_length=ROWS)]
    slots: Annotated[list[Annotated[int, Field(ge=WATER, le=3)]], Field(min_length=SLOTS, max_length=SLOTS)]
    frame: Annotated[int, Field(ge=0, le=LAST_INTERIM)]
    bonus: Annotated[list[Tile], Field(min_length=BONUS_FIELDS, max_length=BONUS_FIELDS)]
    hands: Annotated[list[Colours], PerSeat]
    pile: Annotated[list[Colour], Field(max_length=CARDS)]
    discards: Colours
    supply: Annotated[list[Annotated[int, Field(ge=0, le=GEMS_PER_COLOUR - 1)]], PerSeat]
    drops: Annotated[int, Field(ge=0, le=WATER_DROPS)]
    points: Annotated[list[Points], PerSeat]
    rock_points: Annotated[list[RockPoints], PerSeat]
    tile_points: Annotated[list[Points], PerSeat]
    tiles: Annotated[list[TileCounts], PerSeat]
    used_tiles: TileCounts
    removed_tiles: TileCounts
    current: Seat
    water_holder: Seat
    phase: Annotated[int, Field(ge=ACTION, le=OVER)]
    actions_left: Annotated[int, Field(ge=0, le=1 + DOUBLE_TILES)]
    scored_this_turn: bool


def check_document(game: Game, data: Mapping[str, JSON]) -> IquazuDocument:
    """``data`` as a checked document, or StateFormatError naming the first thing that is wrong."""
    check_format(data)
    document = validate(IquazuDocument, data, GAME)
    check_header(game, document)
    for check in (_seats, _board, _cards, _gems_and_water, _bonus_tiles, _turn, _score_parts):
        check(document)
    return document


def check_format(data: Mapping[str, JSON]) -> None:
    """Format 1 documents were written before the score's parts were recorded: they cannot be loaded
    (the parts are not derivable from the final position, since an empty supply takes gems back from
    scored columns); the game's record still replays."""
    if isinstance(data, Mapping) and type(data.get("format")) is int and data.get("format") == 1:
        raise StateFormatError(FORMAT_1_REFUSED)


FORMAT_1_REFUSED = (
    f"this {GAME} state document (format 1) was written before the score's parts were recorded: "
    f"replay the game's actions to get a format {FORMAT} document"
)


def _seats(d: IquazuDocument) -> None:
    n = d.players
    for name in ("hands", "supply", "points", "rock_points", "tile_points", "tiles"):
        require(len(getattr(d, name)) == n, GAME, f"{name} has {len(getattr(d, name))} entries for {n} players")
    require(d.current < n and d.water_holder < n, GAME, f"current and water_holder must be seats 0 to {n - 1}")
    order = d.strip_order
    require(sorted(order) == list(range(ROWS)), GAME, f"strip_order {order} is not an order of the {ROWS} strips")


def _board(d: IquazuDocument) -> None:
    require(all(v < d.players for v in d.slots), GAME, f"slots hold a gem of a seat beyond {d.players - 1}")
    beyond = COLUMN_STARTS[min(d.frame + FRAME_COLUMNS, len(COLUMN_STARTS) - 1)]
    require(all(v == -1 for v in d.slots[beyond:]), GAME, "a slot right of the water frame is covered")


def _cards(d: IquazuDocument) -> None:
    per_colour = [sum(h[c] for h in d.hands) + d.pile.count(c) + d.discards[c] for c in range(3)]
    require(
        per_colour == [CARDS_PER_COLOUR] * 3,
        GAME,
        f"cards per colour (hands, pile, discards) are {per_colour}, not {CARDS_PER_COLOUR} each",
    )


def _gems_and_water(d: IquazuDocument) -> None:
    for seat in range(d.players):
        placed = d.slots.count(seat)
        require(
            d.supply[seat] + placed == GEMS_PER_COLOUR - 1,
            GAME,
            f"seat {seat} has {d.supply[seat]} gems in supply and {placed} on the board, not {GEMS_PER_COLOUR - 1}",
        )
    water = d.slots.count(WATER)
    message = f"{d.drops} drops in the box and {water} on the board, not {WATER_DROPS}"
    require(d.drops + water == WATER_DROPS, GAME, message)


def _bonus_tiles(d: IquazuDocument) -> None:
    over = d.phase == OVER
    on_board: dict[bool, Counter[int]] = {False: Counter(), True: Counter()}
    for f, tile in enumerate(d.bonus):
        position = f // ROWS
        handed_out = position < d.frame or (position == d.frame and over)
        require((tile == NO_TILE) == handed_out, GAME, f"bonus field {f}: a tile lies there iff not yet handed out")
        if tile != NO_TILE:
            on_board[bonus_field_is_dark(f)][tile] += 1
    for dark, mix in ((False, LIGHT_TILES), (True, DARK_TILES)):
        for tile, count in on_board[dark].items():
            code = TILE_KINDS[tile][0]
            back = "dark" if dark else "light"
            most = mix.get(code, 0)
            require(count <= most, GAME, f"{count} {code} tiles on {back} fields; the {back} mix has {most}")
    for tile, (code, _, _) in enumerate(TILE_KINDS):
        total = on_board[False][tile] + on_board[True][tile] + d.used_tiles[tile] + d.removed_tiles[tile]
        total += sum(t[tile] for t in d.tiles)
        made = LIGHT_TILES.get(code, 0) + DARK_TILES.get(code, 0)
        require(total == made, GAME, f"{total} {code} tiles in the game, not {made}")


def _turn(d: IquazuDocument) -> None:
    if d.phase == ACTION:
        require(d.actions_left >= 1, GAME, "the action phase needs an action left")
    elif d.phase in (END_OF_TURN, DISCARD_PHASE):
        require(d.actions_left == 0, GAME, "actions_left must be 0 after the turn's actions")
    if d.phase == DISCARD_PHASE:
        held = sum(d.hands[d.current])
        require(held > HAND_LIMIT, GAME, f"the discard phase needs more than {HAND_LIMIT} cards in hand, not {held}")
    if d.phase == OVER:
        require(d.frame == LAST_INTERIM, GAME, "the game ends only with the frame at its last interim scoring")


def _score_parts(d: IquazuDocument) -> None:
    """The score is the sum of its recorded parts, each one the rules can give: a scored rock's points go
    to its column's first, second, ... player by majority (ties broken by the lower gem, never shared), so
    the column's non-zero points are the first values of that rock, each given once; a rock not yet scored
    has given nothing; the points tiles count the points on the tiles held, and only at the end."""
    over = d.phase == OVER
    scored = ROCK_COLUMNS if over else d.frame  # the frame's first column is scored as it shifts on
    for column in range(scored):
        given = sorted((rocks[column] for rocks in d.rock_points if rocks[column]), reverse=True)
        values = ROCK_POINTS[d.players][column]
        message = f"column {column + 1}'s rock gave {given}; its points {list(values)} go one each, best first"
        require(given == list(values[: len(given)]), GAME, message)
    for seat in range(d.players):
        rocks, tiles = d.rock_points[seat], d.tile_points[seat]
        require(not any(rocks[scored:]), GAME, f"seat {seat} has points from a rock not yet scored")
        require(over or not tiles, GAME, f"seat {seat} has points tiles counted before the end of the game")
        held = sum(n * TILE_KINDS[t][2] for t, n in enumerate(d.tiles[seat]) if TILE_KINDS[t][1] == "points")
        if over:
            message = f"seat {seat} has tile_points {tiles}, but the points tiles it holds give {held}"
            require(tiles == held, GAME, message)
        total = sum(rocks) + tiles
        message = f"seat {seat} has {d.points[seat]} points, but its rocks and points tiles give {total}"
        require(total == d.points[seat], GAME, message)
