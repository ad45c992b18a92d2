"""The observation encoders: fixed size, values in [0, 1], and a function of the seat's view only."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from spieltafel.core import Game, Rng, all_games
from spieltafel.rl.encoding import load_encoder

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_encoding_depends_only_on_the_view(game: Game, players: int) -> None:
    """Along a random game, every seat's encoding is unchanged when everything hidden from the seat
    is redrawn (``determinise``), has the declared size, lies in [0, 1] and leaves the view intact."""
    encoder = load_encoder(game.name)
    size = encoder.observation_size(players)
    state = game.new_state(players, seed=3)
    rng = Rng(11)
    step = 0
    while True:
        if step % 5 == 0 or state.is_over:
            for seat in range(players):
                view = state.view(seat)
                before = json.dumps(view, sort_keys=True)
                encoded = encoder.encode(view, players)
                assert json.dumps(view, sort_keys=True) == before, "encode changed the view"
                assert encoded.shape == (size,) and encoded.dtype == np.float32
                assert encoded.min() >= 0.0 and encoded.max() <= 1.0
                for k in range(2):
                    sample = state.determinise(seat, Rng(1000 * step + k))
                    assert np.array_equal(encoder.encode(sample.view(seat), players), encoded), (seat, step)
            spectator = encoder.encode(state.view(None), players)
            assert spectator.shape == (size,)
        if state.is_over:
            break
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
        if step > 400:
            break


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_encoding_reads_the_view_not_the_state(game: Game) -> None:
    """The encoder takes a plain JSON document: a deep copy round-tripped through JSON encodes the same."""
    encoder = load_encoder(game.name)
    state = game.new_state(game.min_players, seed=5)
    view = state.view(state.seats_to_act()[0])
    plain = json.loads(json.dumps(view))
    assert np.array_equal(
        encoder.encode(copy.deepcopy(plain), game.min_players), encoder.encode(view, game.min_players)
    )


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_seats_see_different_encodings(game: Game) -> None:
    """Encodings are seen from the viewer's seat: two seats of one position are told apart."""
    encoder = load_encoder(game.name)
    state = game.new_state(game.min_players, seed=7)
    first, second = (encoder.encode(state.view(seat), game.min_players) for seat in (0, 1))
    assert not np.array_equal(first, second)
