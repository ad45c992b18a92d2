"""Helpers for the Niagara tests: set up positions by hand and play cards."""

from __future__ import annotations

import json

from spieltafel.core import Rng, get_game
from spieltafel.games.niagara import NiagaraState
from spieltafel.games.niagara.components import GEM_COLOURS, GEMS_PER_COLOUR, RIVER_DISCS, SPARE_PER_COLOUR

GAME = get_game("niagara")


def new(players: int = 3, **options: str) -> NiagaraState:
    state = GAME.new_state(players, 7, options)
    assert isinstance(state, NiagaraState)
    return state


def play_cards(state: NiagaraState, *cards: str) -> None:
    """Every seat commits the card given for it (seat order), through the validated path."""
    for seat, card in enumerate(cards):
        state.apply(seat, f"play {card}")


def do(state: NiagaraState, *texts: str) -> list[str]:
    """Apply notations for the seat on turn; return the kinds of the events caused."""
    kinds: list[str] = []
    for text in texts:
        (seat,) = state.seats_to_act()
        kinds.extend(event.kind for event in state.apply(seat, text))
    return kinds


def legal(state: NiagaraState, seat: int | None = None) -> list[str]:
    if seat is None:
        (seat,) = state.seats_to_act()
    return [state.action_text(seat, a) for a in state.legal_actions(seat)]


def colour(name: str) -> int:
    return GEM_COLOURS.index(name)


def gem_total(state: NiagaraState) -> list[int]:
    """Gems of each colour in caves, canoes, banks and the box's spares: 8 each, 40 in all."""
    totals = [SPARE_PER_COLOUR] * len(GEM_COLOURS)
    for cave in state.caves:
        for c, n in enumerate(cave):
            totals[c] += n
    for gem in state.cargo:
        if gem >= 0:
            totals[gem] += 1
    for banked in state.banked:
        for c, n in enumerate(banked):
            totals[c] += n
    return totals


def check_invariants(state: NiagaraState) -> None:
    assert gem_total(state) == [GEMS_PER_COLOUR] * len(GEM_COLOURS)
    assert sorted(state.river + state.aside) == list(range(RIVER_DISCS))
    assert len(state.river) == 9 and len(state.aside) == 3
    assert all(n >= 0 for cave in state.caves for n in cave)


def round_trip(state: NiagaraState) -> NiagaraState:
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert isinstance(copy, NiagaraState)
    return copy


def random_game(players: int, seed: int, limit: int = 100_000, **options: str) -> NiagaraState:
    state = GAME.new_state(players, seed, options)
    assert isinstance(state, NiagaraState)
    rng = Rng(seed)
    for _ in range(limit):
        seats = state.seats_to_act()
        if not seats:
            break
        for seat in seats:
            state.step(seat, rng.choice(state.legal_actions(seat)))
    return state
