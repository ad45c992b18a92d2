"""Issue 23, engine refusals: an action index outside the action space (negative, huge) or of another type
is refused with the engine's IllegalActionError naming the action space and what is allowed, for every
registered game, at every decision of a random game's first moves; the state stays as it was. Before,
Iquazú's illegal-move explanation raised IndexError for ``-20000`` (a 500 on the server)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from spieltafel.core import Game, IllegalActionError, Rng, State, all_games

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]
MOVES = 40
"""Decisions checked per game: the set-up and the first moves (every kind of phase of the first rounds)."""


def out_of_space(size: int) -> list[object]:
    """Indexes outside ``0 … size - 1`` and values that are no index at all."""
    return [-1, -2, -20000, -(10**40), size, size + 1, 10**40, True, False, 1.5, None, [0], {"a": 0}]


def decisions(game: Game, players: int) -> Iterator[tuple[State, int]]:
    """(state, a seat to act) at each of the first decisions of a seeded random game."""
    state = game.new_state(players, 7)
    rng = Rng(8)
    for _ in range(MOVES):
        if state.is_over:
            return
        seat = state.seats_to_act()[0]
        yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_an_index_outside_the_action_space_is_an_illegal_action(game: Game, players: int) -> None:
    size = game.action_space_size(players)
    for state, seat in decisions(game, players):
        before = json.dumps(state.to_json(), sort_keys=True)
        for action in out_of_space(size):
            with pytest.raises(IllegalActionError) as refused:
                state.apply(seat, action)
            message = str(refused.value)
            assert f"no such action in {game.title}'s action space" in message, message
            assert f"an action index from 0 to {size - 1}; legal now: " in message, message
            assert len(message) < 1000
        assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_the_explanation_of_a_negative_or_huge_index_names_the_action_space(game: Game, players: int) -> None:
    size = game.action_space_size(players)
    for state, seat in decisions(game, players):
        for action in (-1, -7, -20000, size, size + 1000):
            explained = state.explain_illegal(seat, action)
            assert isinstance(explained, IllegalActionError)
            assert "action space" in str(explained), str(explained)
            with pytest.raises(ValueError, match="outside"):
                state.action_text(seat, action)
