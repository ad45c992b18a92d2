"""Building Iquazú positions for rule scenarios."""

from __future__ import annotations

from spieltafel.core import get_game
from spieltafel.games.iquazu.board import COLUMN_STARTS, layout, parse_slot
from spieltafel.games.iquazu.rules import EMPTY, TILE_INDEX, WATER
from spieltafel.games.iquazu.state import IquazuState

RED, YELLOW, PURPLE, GREEN = 0, 1, 2, 3


def new(players: int = 4, seed: int = 0, **options: str) -> IquazuState:
    """A new game with the rock strips in their printed order (1 to 5 from the top) and every bonus
    field holding a 1-point tile, so that scenarios do not depend on the shuffle."""
    state = get_game("iquazu").new_state(players, seed, options)
    assert isinstance(state, IquazuState)
    state.layout = layout(tuple(range(5)))
    state.bonus = [TILE_INDEX["points1"]] * len(state.bonus)
    return state


def slot(name: str) -> int:
    found = parse_slot(name)
    assert found is not None, name
    return found


def put(state: IquazuState, **gems: int | str) -> None:
    """put(state, **{"6a": YELLOW, "6c": "water"}): gems and drops placed by hand (supply adjusted)."""
    for name, who in gems.items():
        s = slot(name)
        if who == "water":
            state.slots[s] = WATER
            state.drops -= 1
        else:
            assert isinstance(who, int)
            state.slots[s] = who
            state.supply[who] -= 1


def hand(state: IquazuState, seat: int, cards: str) -> None:
    """Set a hand, e.g. hand(state, 0, "WWB"); the cards come from / go back to the draw pile."""
    for colour in range(3):
        state.pile.extend([colour] * state.hands[seat][colour])
    state.hands[seat] = [cards.count("W"), cards.count("B"), cards.count("O")]
    for colour in range(3):
        for _ in range(state.hands[seat][colour]):
            state.pile.remove(colour)


def give_tile(state: IquazuState, seat: int, code: str, count: int = 1) -> None:
    state.tiles[seat][TILE_INDEX[code]] += count


def column_free(state: IquazuState, column: int) -> list[int]:
    """Free slots of 1-based board column ``column``, top to bottom."""
    return [s for s in range(COLUMN_STARTS[column - 1], COLUMN_STARTS[column]) if state.slots[s] == EMPTY]


def texts(state: IquazuState, seat: int) -> list[str]:
    return [state.action_text(seat, a) for a in state.legal_actions(seat)]
