"""The Haleakala full-state document: its shape, types, ranges and options (pydantic), checked for
every loader (``HaleakalaState.from_json``, so the CLI, the server and the tests) before the game's
laws (:mod:`.invariants`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Annotated, Literal

from pydantic import Field

from spieltafel.core import JSON, Game, StateFormatError
from spieltafel.core.document import StateDocument, check_header, split_unmodelled, validate

from .board import BAYS, CARDS, FIELDS
from .components import LAVA_CHIPS, LAVA_DISC, SCORING_CARDS, SEGMENTS, STATUES
from .rules import BOX, NONE, NOT_COUNTED, OVER, SCORING_PARTS

GAME = "haleakala"
FORMAT = 2
"""The state document's format: 2 since each scoring's parts (``scoring_parts``) are recorded."""
FORMAT_1_REFUSED = (
    f"this {GAME} state document (format 1) was written before the score's parts were recorded: "
    f"replay the game's actions to get a format {FORMAT} document"
)
DECKS = 3
SCORINGS = 2

Card = Annotated[int, Field(ge=0, lt=CARDS)]
Cards = Annotated[list[Card], Field(max_length=CARDS)]
Seat = Annotated[int, Field(ge=0, le=1)]
SeatOrNone = Annotated[int, Field(ge=NONE, le=1)]
Segment = Annotated[int, Field(ge=0, lt=SEGMENTS)]
Points = Annotated[int, Field(ge=0, le=10_000)]
Pair = Field(min_length=2, max_length=2)
Part = Annotated[int, Field(ge=NOT_COUNTED, le=10_000)]
Parts = Field(min_length=len(SCORING_PARTS), max_length=len(SCORING_PARTS))
DiscPlace = Annotated[int, Field(ge=BOX, lt=SEGMENTS)]
Discs = Annotated[list[DiscPlace], Field(min_length=LAVA_DISC + 1, max_length=LAVA_DISC + 1)]
Chips = Annotated[int, Field(ge=0, le=LAVA_CHIPS)]


class HaleakalaDocument(StateDocument):
    """Shape, types and ranges of every field ``HaleakalaState.to_json`` writes."""
    format: Literal[2]  # type: ignore[assignment]  # narrower than the shared header's format 1

    decks: Annotated[list[Cards], Field(min_length=DECKS, max_length=DECKS)]
    box: Cards
    bays: Annotated[list[Annotated[int, Field(ge=NONE, lt=CARDS)]], Field(min_length=BAYS, max_length=BAYS)]
    discard: Cards
    collected: Annotated[list[Cards], Pair]
    shells: Annotated[list[Cards], Pair]
    discs: Annotated[list[Discs], Pair]
    shamans: Annotated[list[Annotated[int, Field(ge=0, lt=FIELDS)]], Pair]
    statues: Annotated[list[SeatOrNone], Field(min_length=FIELDS, max_length=FIELDS)]
    statue_supply: Annotated[list[Annotated[int, Field(ge=0, le=STATUES)]], Pair]
    craters: Annotated[list[Chips], Field(min_length=SEGMENTS, max_length=SEGMENTS)]
    scoring_owner: Annotated[list[SeatOrNone], Field(min_length=len(SCORING_CARDS), max_length=len(SCORING_CARDS))]
    points: Annotated[list[Points], Pair]
    round_points: Annotated[list[Annotated[list[Points], Pair]], Field(max_length=SCORINGS)]
    scoring_parts: Annotated[list[Annotated[list[Part], Parts]], Field(max_length=2 * SCORINGS)]
    effects: Annotated[list[Annotated[list[Annotated[int, Field(ge=0, lt=CARDS)]], Pair]], Field(max_length=CARDS)]
    buyers: Annotated[list[Seat], Field(max_length=2)]
    boat: Segment
    priestess_up: bool
    round: Annotated[int, Field(ge=1, le=SCORINGS)]
    current: Seat
    actor: Seat
    phase: Annotated[int, Field(ge=0, le=OVER)]
    scoring: Annotated[int, Field(ge=0, le=SCORINGS)]
    landing: Annotated[int, Field(ge=NONE, lt=SEGMENTS)]
    second: SeatOrNone
    may_pass: bool


def check_document(game: Game, data: Mapping[str, JSON], state_fields: Collection[str]) -> HaleakalaDocument:
    """``data`` as a document of the right shape, types, ranges and options, or StateFormatError naming
    the first thing that is wrong. ``state_fields`` are the fields the state class saves (a new one
    passes if small and plain). The laws of the game (every component exactly once, the flow fitting
    the phase) are checked on the loaded state by :func:`.invariants.check_invariants`."""
    if isinstance(data, Mapping) and type(data.get("format")) is int and data.get("format") == 1:
        raise StateFormatError(FORMAT_1_REFUSED)  # no parts to load, and not derivable from the position
    document = validate(HaleakalaDocument, split_unmodelled(data, HaleakalaDocument, state_fields, GAME), GAME)
    check_header(game, document)
    return document
