"""The laws every Niagara position obeys, checked on every state document that is loaded.

A document that breaks one is refused with a :class:`StateFormatError` naming the first thing that
is wrong. The laws follow from the rules (``docs/rules/niagara.md``): 40 gems (35 in play, a spare
of each colour in the box), 12 river discs, seven paddle cards per player split between the hand,
the cards played since the last refill and the one face down on the table, turns in clockwise order
from the life ring, and the bookkeeping of the move under way within what a card allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from spieltafel.core.errors import StateFormatError

from .components import (
    CANOES,
    CARD_NAMES,
    CAVE_START,
    CLOUD,
    COLOURS,
    DISCS_ASIDE,
    FALLEN,
    GEM_COLOURS,
    RIVER_DISCS,
    SHORE,
    SPACES,
    WEATHER_MAX,
    WEATHER_MIN,
)
from .river import HEADING_NAMES, STAGE_NAMES, UPSTREAM_HEADING
from .rules import BUYBACK, MOVE, NO_GEM, OVER, PHASE_NAMES, SECRET, THEFT, WEATHER, has_won, theft_victims

if TYPE_CHECKING:
    from .state import NiagaraState

CARDS = len(CARD_NAMES)
MAX_VALUE = CLOUD
"""The highest paddle value (card ``6``): no move has more points."""


def check_invariants(state: NiagaraState) -> None:
    """Refuse a position no game of Niagara can reach; the message names the first broken law."""
    _check_types(state)
    _check_counters(state)
    _check_paddle_cards(state)
    _check_turn_order(state)
    _check_gems(state)
    _check_discs(state)
    _check_canoes(state)
    _check_move(state)
    _check_end(state)


def _refuse(message: str) -> NoReturn:
    raise StateFormatError(f"inconsistent niagara state: {message}")


def _is_int(value: object) -> bool:
    return type(value) is int


# -- shape ------------------------------------------------------------------------------------------
SCALARS = (
    "round", "ring", "current", "phase", "weather", "next_arm", "must", "moved", "launched",
    "rescue_declined", "active", "points", "heading", "stage", "handled", "turn_heading", "ending",
)
FLAT_LISTS = ("hands", "choice", "revealed", "canoes", "cargo", "river", "aside", "won")
NESTED_LISTS = ("played", "banked", "caves")


def _check_types(s: NiagaraState) -> None:
    """Every counter is an integer (not a bool, a float or a string) and every list holds integers."""
    fields = {name: getattr(s, name, None) for name in (*SCALARS, *FLAT_LISTS, *NESTED_LISTS)}
    for name in SCALARS:
        if not _is_int(fields.get(name)):
            _refuse(f"{name} must be an integer, not {fields.get(name)!r}")
    for name in FLAT_LISTS:
        _check_int_list(name, fields.get(name))
    for name in NESTED_LISTS:
        rows = fields.get(name)
        if not isinstance(rows, list):
            _refuse(f"{name} must be a list of lists")
        for i, row in enumerate(rows):
            _check_int_list(f"{name}[{i}]", row)
    if len(s.caves) != COLOURS or any(len(cave) != COLOURS for cave in s.caves):
        _refuse("there are five caves, each counting five colours")
    n = s.players
    if any(len(part) != n for part in (s.hands, s.choice, s.revealed, s.played, s.banked)):
        _refuse("per-player lists do not match the player count")
    if len(s.canoes) != n * CANOES or len(s.cargo) != n * CANOES or any(len(b) != COLOURS for b in s.banked):
        _refuse("two canoes per player, each with one cargo entry, and five banked colours per player")


def _check_int_list(name: str, values: object) -> None:
    if not isinstance(values, list) or not all(_is_int(v) for v in values):
        _refuse(f"{name} must be a list of integers")


def _within(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        _refuse(f"{name} is {value}, outside {low}..{high}")


def _check_counters(s: NiagaraState) -> None:
    """Ranges of the single numbers: seats, phase, weather track, the fork's next arm, the move's flags."""
    n = s.players
    limit = int(s.options.get("round-limit", "200"))
    _within("round", s.round, 1, limit)
    _within("ring", s.ring, 0, n - 1)
    _within("current", s.current, 0, n - 1)
    _within("phase", s.phase, 0, len(PHASE_NAMES) - 1)
    _within("weather", s.weather, WEATHER_MIN, WEATHER_MAX)
    _within("next_arm", s.next_arm, 0, 1)
    for name in ("must", "moved"):
        _within(name, getattr(s, name), 0, (1 << CANOES) - 1)
    for name in ("launched", "rescue_declined", "handled", "ending"):
        _within(name, getattr(s, name), 0, 1)
    _within("active", s.active, -1, CANOES - 1)
    _within("points", s.points, 0, MAX_VALUE)
    _within("heading", s.heading, 0, len(HEADING_NAMES) - 1)
    _within("turn_heading", s.turn_heading, 0, len(HEADING_NAMES) - 1)
    _within("stage", s.stage, 0, len(STAGE_NAMES) - 1)


# -- paddle cards and turns -------------------------------------------------------------------------
def _check_paddle_cards(s: NiagaraState) -> None:
    """Seven paddle cards per player: each is in the hand, among the cards played since the last
    refill, or face down on the table this round — exactly one of the three."""
    for seat in range(s.players):
        hand, card, played = s.hands[seat], s.choice[seat], s.played[seat]
        _within(f"hands[{seat}]", hand, 0, (1 << CARDS) - 1)
        _within(f"choice[{seat}]", card, -1, CARDS - 1)
        _within(f"revealed[{seat}]", s.revealed[seat], 0, 1)
        if any(not 0 <= c < CARDS for c in played) or len(set(played)) != len(played):
            _refuse(f"played[{seat}] must list distinct paddle cards")
        if card >= 0 and hand >> card & 1:
            _refuse(f"seat {seat}'s chosen card {CARD_NAMES[card]} is still in the hand")
        if s.revealed[seat] and (card < 0 or not played or played[-1] != card):
            _refuse(f"seat {seat}'s revealed card must be its chosen card, the last one played")
        table = 1 << card if card >= 0 and not s.revealed[seat] else 0
        held = [hand >> c & 1 for c in range(CARDS)]
        counts = [held[c] + played.count(c) + (table >> c & 1) for c in range(CARDS)]
        if counts != [1] * CARDS:
            _refuse(f"seat {seat}'s seven paddle cards are not each in exactly one place (hand, played, table)")


def _clockwise(s: NiagaraState, seat: int) -> int:
    """How many seats after the life ring's holder ``seat`` acts this round."""
    return (seat - s.ring) % s.players


def _check_turn_order(s: NiagaraState) -> None:
    """In the secret phase nobody has revealed and someone is still choosing; afterwards every card is
    on the table and exactly the seats from the life ring to the seat on turn have revealed theirs."""
    if s.phase == SECRET:
        if any(s.revealed) or s.current != s.ring:
            _refuse("while cards are chosen nobody has revealed one and the life ring's holder is next")
        if min(s.choice) >= 0:
            _refuse("every seat has chosen, so the turns should have begun")
        return
    if min(s.choice) < 0:
        _refuse(f"phase {PHASE_NAMES[s.phase]} while a seat has not chosen a card")
    for seat in range(s.players):
        if bool(s.revealed[seat]) != (_clockwise(s, seat) <= _clockwise(s, s.current)):
            _refuse(f"seat {seat}'s card is {'' if s.revealed[seat] else 'not '}revealed out of turn order")


# -- gems, discs, canoes ----------------------------------------------------------------------------
def _check_gems(s: NiagaraState) -> None:
    """40 gems, 8 of each colour: 7 in play (caves, canoes, banks) and a spare in the box; no count
    below zero."""
    for i, cave in enumerate(s.caves):
        if min(cave) < 0:
            _refuse(f"the {GEM_COLOURS[i]} cave holds a negative number of gems")
    for seat, banked in enumerate(s.banked):
        if min(banked) < 0:
            _refuse(f"seat {seat} has banked a negative number of gems")
    for index, gem in enumerate(s.cargo):
        _within(f"cargo[{index}]", gem, NO_GEM, COLOURS - 1)
    for colour, name in enumerate(GEM_COLOURS):
        in_play = sum(cave[colour] for cave in s.caves) + sum(b[colour] for b in s.banked) + s.cargo.count(colour)
        if in_play != CAVE_START:
            _refuse(f"{in_play} {name} gems in play, not {CAVE_START} (plus the spare in the box)")


def _check_discs(s: NiagaraState) -> None:
    """Twelve river discs: nine on the river, three beside the board, each once."""
    if len(s.river) != SPACES or len(s.aside) != DISCS_ASIDE or sorted(s.river + s.aside) != list(range(RIVER_DISCS)):
        _refuse("the twelve river discs must lie nine on the river and three aside, each once")


def _check_canoes(s: NiagaraState) -> None:
    """Canoes stand on the beach, a river space or below the falls; only a canoe on the water carries
    a gem (landing banks it, the falls return it to its cave)."""
    for index, space in enumerate(s.canoes):
        _within(f"canoes[{index}]", space, SHORE, FALLEN)
        if s.cargo[index] != NO_GEM and space in (SHORE, FALLEN):
            _refuse(f"canoe {index // CANOES}{'ab'[index % CANOES]} carries a gem on the beach or below the falls")


# -- the turn under way -----------------------------------------------------------------------------
def _check_move(s: NiagaraState) -> None:
    """The phase fits the seat on turn's card; a moving canoe is its own, has moved, and has points
    within the card's value; the gem flag and the points exist only while a canoe moves."""
    card = s.choice[s.current]
    if s.phase == WEATHER and card != CLOUD:
        _refuse("the weather phase without the cloud card")
    if s.phase in (MOVE, THEFT) and card == CLOUD:
        _refuse("paddling with the cloud card")
    if s.phase == BUYBACK:
        base = s.current * CANOES
        if FALLEN not in s.canoes[base : base + CANOES] or not any(s.banked[s.current]) or s.rescue_declined:
            _refuse("a buy-back without a canoe below the falls, a gem to pay or a buy-back left this turn")
    moving = s.phase in (MOVE, THEFT) and s.active >= 0
    if s.phase == THEFT and not moving:
        _refuse("theft without a canoe that has just moved")
    if not moving:
        if s.points or s.handled:
            _refuse("points or a handled gem recorded while no canoe is moving")
        return
    _check_moving_canoe(s, card)


def _check_moving_canoe(s: NiagaraState, card: int) -> None:
    index = s.current * CANOES + s.active
    if not s.moved >> s.active & 1 or s.canoes[index] == FALLEN:
        _refuse("the moving canoe has not started its move or is below the falls")
    if s.points > card + 1:
        _refuse(f"{s.points} points left of a {CARD_NAMES[card]}")
    if s.phase == MOVE and s.points == 0:
        _refuse("a canoe is moving with no points left")
    if s.phase == THEFT and not _may_steal(s, index):
        _refuse("theft by a canoe that did not stop upstream, empty, beside another's loaded canoe")


def _may_steal(s: NiagaraState, index: int) -> bool:
    return (
        s.points == 0
        and s.heading == UPSTREAM_HEADING
        and s.canoes[index] != SHORE
        and s.cargo[index] == NO_GEM
        and bool(theft_victims(s))
    )


# -- the end --------------------------------------------------------------------------------------
def _check_end(s: NiagaraState) -> None:
    """Winners exactly when the game is over, distinct seats; a goal met ends the game at once
    (default) or marks the round as the last one (``ending=finish-round``)."""
    _check_winners(s.won, s.players, s.phase == OVER)
    goal_met = any(has_won(banked) for banked in s.banked)
    finish_round = s.options.get("ending") == "finish-round"
    if s.ending and not (finish_round and goal_met):
        _refuse("the last round is marked though no goal is met (or the game ends at once)")
    if s.phase != OVER and goal_met and not (finish_round and s.ending):
        _refuse("a player has met a goal but the game goes on")


def _check_winners(won: Sequence[int], players: int, over: bool) -> None:
    if not over:
        if won:
            _refuse("winners named while the game goes on")
        return
    if not won or list(won) != sorted(set(won)) or not all(0 <= seat < players for seat in won):
        _refuse(f"winners {list(won)} must be distinct seats 0..{players - 1}, in order")
