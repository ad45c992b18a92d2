"""The Niagara full-state document: its shape (pydantic) and the game's invariants, checked in one
place for every loader (``NiagaraState.from_json``, so the CLI, the server and the tests)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Annotated

from pydantic import Field

from spieltafel.core import JSON, Game
from spieltafel.core.document import StateDocument, check_header, require, split_unmodelled, validate

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
    """``data`` as a checked document, or StateFormatError naming the first thing that is wrong.
    ``state_fields`` are the fields the state class saves (a new one passes if small and plain)."""
    document = validate(NiagaraDocument, split_unmodelled(data, NiagaraDocument, state_fields, GAME), GAME)
    check_header(game, document)
    for check in (_seats, _river, _gems, _cards, _phase):
        check(document)
    return document


def _seats(d: NiagaraDocument) -> None:
    n = d.players
    for name in ("hands", "choice", "revealed", "played", "banked"):
        require(len(getattr(d, name)) == n, GAME, f"{name} has {len(getattr(d, name))} entries for {n} players")
    for name in ("canoes", "cargo"):
        require(len(getattr(d, name)) == n * CANOES, GAME, f"{name} needs {CANOES} entries per player")
    require(d.ring < n and d.current < n, GAME, f"ring and current must be seats 0 to {n - 1}")
    require(all(w < n for w in d.won) and len(set(d.won)) == len(d.won), GAME, "won lists seats of the game, once each")
    limit = int(d.options.get("round-limit", MAX_ROUND))
    require(d.round <= limit, GAME, f"round {d.round} lies beyond the round limit {limit}")


def _river(d: NiagaraDocument) -> None:
    require(
        sorted(d.river + d.aside) == list(range(RIVER_DISCS)),
        GAME,
        f"the {RIVER_DISCS} river discs must each lie once: {SPACES} on the river, {DISCS_ASIDE} aside",
    )
    for index, gem in enumerate(d.cargo):
        afloat = SHORE < d.canoes[index] < FALLEN
        require(gem == NO_GEM or afloat, GAME, f"canoe {index} carries a gem but is not on the river")


def _gems(d: NiagaraDocument) -> None:
    in_play = [sum(cave[c] for cave in d.caves) + sum(b[c] for b in d.banked) for c in range(COLOURS)]
    for gem in d.cargo:
        if gem != NO_GEM:
            in_play[gem] += 1
    require(in_play == [CAVE_START] * COLOURS, GAME, f"gems in play per colour are {in_play}, not {CAVE_START} each")


def _cards(d: NiagaraDocument) -> None:
    """Every seat's seven paddle cards: in the hand, revealed since the hand was refilled, or face down."""
    for seat in range(d.players):
        played, card = d.played[seat], d.choice[seat]
        require(len(set(played)) == len(played), GAME, f"seat {seat} played a card twice")
        face_down = [card] if card >= 0 and not d.revealed[seat] else []
        seven = list(range(len(CARD_NAMES)))
        owned = sorted([c for c in seven if d.hands[seat] >> c & 1] + played + face_down)
        where = "in the hand, played or face down"
        require(owned == seven, GAME, f"seat {seat}'s paddle cards {where} are not its seven, once each")
        require(not d.revealed[seat] or card in played, GAME, f"seat {seat}'s revealed card is not a played one")


def _phase(d: NiagaraDocument) -> None:
    if d.phase == SECRET:
        require(not any(d.revealed), GAME, "no card is revealed while the paddle cards are chosen")
        require(min(d.choice) < 0, GAME, "every seat has chosen, yet the choice is not over")
    elif d.phase != OVER:
        require(min(d.choice) >= 0, GAME, "the turns start only when every seat has chosen a card")
        require(d.revealed[d.current] == 1, GAME, "the seat on turn has not revealed its card")
    require(bool(d.won) == (d.phase == OVER), GAME, "winners are listed exactly when the game is over")
