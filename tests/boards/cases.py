"""Random positions of every game and player count, shared by the board tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spieltafel.core import Rng, all_games, get_game
from spieltafel.core.game import State

COUNTS = {game.name: tuple(range(game.min_players, game.max_players + 1)) for game in all_games()}
VARIANTS: dict[str, dict[str, str]] = {
    game.name: {o.name: next(c for c in o.choices if c != o.default) for o in game.options if len(o.choices) > 1}
    for game in all_games()
}
"""Every option at a value other than its default, so that the actions only they allow (e.g. Haleakala's lava
disc) meet the boards too."""
CASES = [(game, players, "") for game, counts in COUNTS.items() for players in counts] + [
    (game, (counts[0] + counts[-1]) // 2, "variant") for game, counts in COUNTS.items() if VARIANTS[game]
]


def positions(
    game: str, players: int, variant: str = "", games: int = 4, every: int = 7, seed: int = 0
) -> Iterator[tuple[State, list[dict[str, Any]]]]:
    """Positions along random games (every ``every``-th), each with the events of the move before it."""
    options = VARIANTS[game] if variant else {}
    for g in range(games):
        state = get_game(game).new_state(players=players, seed=seed + g, options=options)
        rng = Rng(1000 + seed + g)
        step = 0
        events: list[dict[str, Any]] = []
        while not state.is_over and step < 400:
            if step % every == 0:
                yield state, events
            seat = rng.choice(list(state.seats_to_act()))
            events = [e.view(seat) for e in state.apply(seat, rng.choice(state.legal_actions(seat)))]
            step += 1
        yield state, events


def legal_of(state: State, seat: int) -> list[tuple[int, str]]:
    return [(a, state.action_text(seat, a)) for a in state.legal_actions(seat)]
