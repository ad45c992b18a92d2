"""``step`` (the search's path, written out without events) has exactly the effects of ``apply``."""

from __future__ import annotations

import pytest

from spieltafel.core import Rng, get_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_step_and_apply_reach_the_same_states(players: int) -> None:
    game = get_game("iquazu")
    for seed in range(12):
        fast, checked = game.new_state(players, seed), game.new_state(players, seed)
        rng = Rng(seed)
        while not fast.is_over:
            seat = fast.seats_to_act()[0]
            action = rng.choice(fast.legal_actions(seat))
            fast.step(seat, action)
            checked.apply(seat, action)
            assert fast.to_json() == checked.to_json()
        assert checked.is_over
