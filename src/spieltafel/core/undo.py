"""Taking back moves within a turn, decided by the engine from the events each move produced.

A seat may take back its own latest moves as long as none of them revealed anything hidden, drew
chance or passed the turn, and no other seat has acted since (:meth:`State.closes_takeback`). A log of
moves stays append-only: a takeback is an entry of its own, and :func:`effective_moves` reads the moves
that stand from such a log. Replaying the moves that stand gives exactly the position before the taken
back moves, because those moves drew no chance (the property tests check this for every game).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import SpieltafelError
from .events import Event
from .game import Action, Seat, State

UNDO = -1
"""The action a takeback entry carries in an append-only log of ``(seat, action)`` entries: the entry
takes back the latest standing move (of the same seat)."""


class TakebackError(SpieltafelError):
    """A takeback that the rules of takeback refuse (nothing of the seat's own to take back)."""


@dataclass(frozen=True, slots=True)
class Window:
    """The moves a seat may take back now: ``seat`` (None when nobody may) and how many of the latest
    standing moves, all of that seat's, are open."""

    seat: Seat | None
    count: int

    def allows(self, seat: Seat) -> int:
        """How many moves ``seat`` may take back now (0 when none)."""
        return self.count if self.seat == seat else 0


CLOSED = Window(None, 0)


def track(window: Window, state: State, seat: Seat, action: Action) -> tuple[Window, list[Event]]:
    """Apply ``action`` of ``seat`` to ``state`` (validated) and return the window after it and the
    move's events."""
    events = state.apply(seat, action)
    if state.closes_takeback(seat, events):
        return CLOSED, events
    count = window.count + 1 if window.seat == seat else 1
    return Window(seat, count), events


def takeback_window(initial: State, moves: Iterable[tuple[Seat, Action]]) -> Window:
    """The takeback window after playing ``moves`` (the standing moves, in order) on a copy of
    ``initial``."""
    state = initial.clone()
    window = CLOSED
    for seat, action in moves:
        window, _ = track(window, state, seat, action)
    return window


def effective_moves(entries: Sequence[tuple[Seat, Action]]) -> list[tuple[Seat, Action]]:
    """The moves that stand in an append-only log whose :data:`UNDO` entries each take back the latest
    standing move. An UNDO entry of another seat than the move it would take back, or with nothing to
    take back, is a corrupt log and raises TakebackError."""
    standing: list[tuple[Seat, Action]] = []
    for position, (seat, action) in enumerate(entries):
        if action != UNDO:
            standing.append((seat, action))
            continue
        if not standing or standing[-1][0] != seat:
            raise TakebackError(f"entry {position + 1}: seat {seat} takes back a move that is not its own")
        standing.pop()
    return standing


def check_takeback(window: Window, seat: Seat, count: int = 1) -> None:
    """Raise TakebackError saying why ``seat`` may not take back ``count`` moves now."""
    if count < 1:
        raise TakebackError(f"a takeback takes back at least one move, not {count}")
    allowed = window.allows(seat)
    if allowed == 0:
        raise TakebackError(
            "nothing to take back: your last move revealed something, drew chance or ended your turn, "
            "or another seat has acted since"
        )
    if count > allowed:
        raise TakebackError(f"only {allowed} of your moves can be taken back now, not {count}")


__all__ = [
    "CLOSED",
    "UNDO",
    "TakebackError",
    "Window",
    "check_takeback",
    "effective_moves",
    "takeback_window",
    "track",
]
