"""Playing whole games between bots (and people): the loop shared by the CLI, tests and tools."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from spieltafel.bots import Bot, Observation
from spieltafel.core import Event, Game, GameRecord, Recorder, State


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The outcome of one finished game, small enough to send between processes."""

    seed: int
    scores: list[int]
    winners: list[int]
    actions: int
    record: GameRecord | None


def choose(bot: Bot, state: State, seat: int) -> int:
    """Ask ``bot`` for ``seat``'s action, showing it only that seat's view."""
    return bot.choose(
        Observation(seat, state.legal_actions(seat), lambda: state.view(seat), lambda rng: state.determinise(seat, rng))
    )


def play_game(
    game: Game,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    options: Mapping[str, str] | None = None,
    seat_names: Sequence[str] | None = None,
    on_events: Callable[[State, int, int, list[Event]], None] | None = None,
) -> tuple[State, GameRecord]:
    """Play one game to the end; return the final state and its record.

    With ``on_events`` every action goes through the validated path and the callback receives
    (state, seat, action, events); without it the unchecked fast path is used.
    """
    state = game.new_state(players, seed, options)
    recorder = Recorder(state, list(seat_names or [bot.name for bot in bots]))
    while not state.is_over:
        seat = state.seats_to_act()[0]
        action = choose(bots[seat], state, seat)
        recorder.add(state, seat, action)
        if on_events is None:
            state.step(seat, action)
        else:
            on_events(state, seat, action, state.apply(seat, action))
    return state, recorder.finish(state)
