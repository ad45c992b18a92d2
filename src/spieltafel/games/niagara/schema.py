"""The Niagara full-state document: its shape, types, ranges and options (pydantic), checked for
every loader (``NiagaraState.from_json``, so the CLI, the server and the tests) before the game's
laws (:mod:`.invariants`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Annotated

from pydantic import Field

from spieltafel.core import JSON, Game
from spieltafel.core.document import StateDocument, check_header, split_unmodelled, validate

from .components import (
    ALL_CARDS,
    CANOES,
    CARD_NAMES,
    CAVE_START,
    COLOURS,
    DISCS_ASIDE,
    FALLEN,
    RIVER_DISCS,
    SHORE,
    SPACES,
    WEATHER_MAX,
    WEATHER_MIN,
)
from .rules import NO_GEM, OVER, SECRET

GAME = "niagara"
MAX_SEATS = 5
MAX_POINTS = 6
"""Paddle points of a move: at most the highest paddle card."""
MAX_ROUND = 1000

Bit = Annotated[int, Field(ge=0, le=1)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Card = Annotated[int, Field(ge=0, lt=len(CARD_NAMES))]
Gems = Annotated[list[Annotated[int, Field(ge=0, le=CAVE_START)]], Field(min_length=COLOURS, max_length=COLOURS)]
PerSeat = Field(min_length=3, max_length=MAX_SEATS)
PerCanoe = Field(min_length=3 * CANOES, max_length=MAX_SEATS * CANOES)
Disc = Annotated[int, Field(ge=0, lt=RIVER_DISCS)]
Small = Annotated[int, Field(ge=0, le=2)]


class NiagaraDocument(StateDocument):
    """Shape, types and ranges of every field ``NiagaraState.to_json`` writes."""

    round: Annotated[int, Field(ge=1, le=MAX_ROUND)]
    ring: Seat
    current: Seat
    phase: Annotated[int, Field(ge=SECRET, le=OVER)]
    hands: Annotated[list[Annotated[int, Field(ge=0, le=ALL_CARDS)]], PerSeat]
    choice: Annotated[list[Annotated[int, Field(ge=-1, lt=len(CARD_NAMES))]], PerSeat]
    revealed: Annotated[list[Bit], PerSeat]
    played: Annotated[list[Annotated[list[Card], Field(max_length=len(CARD_NAMES))]], PerSeat]
    canoes: Annotated[list[Annotated[int, Field(ge=SHORE, le=FALLEN)]], PerCanoe]
    cargo: Annotated[list[Annotated[int, Field(ge=NO_GEM, lt=COLOURS)]], PerCanoe]
    banked: Annotated[list[Gems], PerSeat]
    caves: Annotated[list[Gems], Field(min_length=COLOURS, max_length=COLOURS)]
    river: Annotated[list[Disc], Field(min_length=SPACES, max_length=SPACES)]
    aside: Annotated[list[Disc], Field(min_length=DISCS_ASIDE, max_length=DISCS_ASIDE)]
    weather: Annotated[int, Field(ge=WEATHER_MIN, le=WEATHER_MAX)]
    next_arm: Bit
    must: Annotated[int, Field(ge=0, lt=1 << CANOES)]
    moved: Annotated[int, Field(ge=0, lt=1 << CANOES)]
    launched: Bit
    rescue_declined: Bit
    active: Annotated[int, Field(ge=-1, lt=CANOES)]
    points: Annotated[int, Field(ge=0, le=MAX_POINTS)]
    heading: Small
    stage: Small
    handled: Bit = 0
    """The moving canoe has taken or set down its gem of the move (absent from documents of before the rule)."""
    turn_heading: Small
    ending: Bit
    won: Annotated[list[Seat], Field(max_length=MAX_SEATS)]


def check_document(game: Game, data: Mapping[str, JSON], state_fields: Collection[str]) -> NiagaraDocument:
    """``data`` as a document of the right shape, types, ranges and options, or StateFormatError naming
    the first thing that is wrong. ``state_fields`` are the fields the state class saves (a new one
    passes if small and plain). The laws of the game (gems, discs, paddle cards, turn order, the move
    under way) are checked on the loaded state by :func:`.invariants.check_invariants`."""
    document = validate(NiagaraDocument, split_unmodelled(data, NiagaraDocument, state_fields, GAME), GAME)
    check_header(game, document)
    return document
