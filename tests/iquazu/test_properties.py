"""Invariants of Iquazú along games whose every choice hypothesis makes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spieltafel.core import get_game
from spieltafel.games.iquazu.rules import NO_TILE, WATER
from spieltafel.games.iquazu.state import IquazuState

GAME = get_game("iquazu")


def check_conservation(state: IquazuState) -> None:
    """60 cards, 34 placeable gems per colour, 50 drops and 45 bonus tiles are always somewhere."""
    assert sum(map(sum, state.hands)) + len(state.pile) + sum(state.discards) == 60
    for seat in range(state.players):
        assert state.supply[seat] + state.slots.count(seat) == 34
    assert state.drops + state.slots.count(WATER) == 50
    on_board = sum(1 for tile in state.bonus if tile != NO_TILE)
    held = sum(map(sum, state.tiles))
    assert on_board + held + sum(state.used_tiles) + sum(state.removed_tiles) == 45
    assert all(n >= 0 for h in state.hands for n in h) and min(state.supply) >= 0


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=50, max_size=400),
)
def test_cards_gems_drops_and_tiles_are_conserved_and_scores_never_decrease(
    players: int, seed: int, choices: list[int]
) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, IquazuState)
    check_conservation(state)
    for choice in choices:
        if state.is_over:
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        before = state.scores()
        state.apply(seat, legal[choice % len(legal)])
        check_conservation(state)
        assert all(b <= a for b, a in zip(before, state.scores(), strict=True))
        assert sum(state.hands[seat]) <= 12 or state.current == seat


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_whole_random_games_finish_with_every_tile_handed_out(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, IquazuState)
    rng_choice = seed
    while not state.is_over:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        rng_choice = (rng_choice * 6364136223846793005 + 1442695040888963407) % 2**64
        state.step(seat, legal[rng_choice % len(legal)])
    check_conservation(state)
    assert all(tile == NO_TILE for tile in state.bonus)  # nine scorings hand out all 45 tiles
    assert state.frame == 8
