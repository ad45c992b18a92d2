"""Takebacks at a table: a seat takes back its own latest moves within its turn (the engine says which,
:mod:`spieltafel.core.undo`), through the socket, the HTTP API and ``spieltafel connect``.

The log stays append-only: a takeback is a row of its own (action :data:`UNDO`, notation ``undo``) with the
next ``seq``; the game is the engine's replay of the moves that stand. Records and replays show the
moves that stand (:func:`standing_rows`); the full log (:meth:`Results.moves`) keeps what was taken back.
Bots never take back (only a person's seat may); a rated game allows it, as Board Game Arena does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from spieltafel.core import Event, State
from spieltafel.core.undo import CLOSED, UNDO, TakebackError, Window, check_takeback, effective_moves
from spieltafel.server.errors import Conflict, Forbidden

UNDO_NOTATION = "undo"
"""What a client sends as the action of a move message (or ``{"type": "undo"}``) to take back its last
move; the log's takeback rows carry it as their notation."""


def asks_undo(action: object) -> bool:
    """Whether a move's action is the takeback request ``undo`` (no game's notation is)."""
    return isinstance(action, str) and action.strip().lower() == UNDO_NOTATION


@dataclass(slots=True)
class Takebacks:
    """A table's standing moves and the takeback window after them, kept along the log's replay."""

    standing: list[tuple[int, int]] = field(default_factory=list)
    window: Window = CLOSED

    def moved(self, after: State, seat: int, action: int, events: Sequence[Event]) -> None:
        """A move of ``seat`` was applied (``after`` is the state after it)."""
        self.standing.append((seat, action))
        if after.closes_takeback(seat, events):
            self.window = CLOSED
        else:
            self.window = Window(seat, self.window.count + 1 if self.window.seat == seat else 1)

    def allowed(self, seat: int | None) -> int:
        """How many moves ``seat`` may take back now."""
        return 0 if seat is None else self.window.allows(seat)

    def take_back(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """The game with ``seat``'s latest move taken back, rebuilt on ``state`` (the table's game as it was
        set up, before any move) from the standing moves, which the engine guarantees to be exactly the
        position before that move, and the ``undo`` event; TakebackError when the window does not allow it.
        Nothing changes until :meth:`commit`."""
        check_takeback(self.window, seat)
        for mover, action in self.standing[:-1]:  # moves the log's replay applied and checked already
            state.step(mover, action)
        notation = state.action_text(seat, self.standing[-1][1])
        return state, [Event("undo", {"seat": seat, "notation": notation})]

    def commit(self) -> None:
        """The takeback of :meth:`take_back` is in the log: the move no longer stands."""
        self.standing.pop()
        count = self.window.count - 1
        self.window = Window(self.window.seat, count) if count else CLOSED


def check_person(bot: str | None) -> None:
    """Only a person's seat may take back (Forbidden ``bot-seat`` for a bot's)."""
    if bot:
        raise Forbidden("bot-seat", "a bot plays this seat: bots never take back moves")


def refused(error: TakebackError) -> Conflict:
    """The service's refusal of a takeback the engine does not allow."""
    return Conflict("no-takeback", str(error))


def standing_rows(rows: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The log's ``(seq, seat, notation)`` rows that stand: takeback rows and the moves they took back
    left out (for records and replays)."""
    standing: list[tuple[int, int, str]] = []
    for row in rows:
        if row[2] == UNDO_NOTATION:
            standing.pop()
        else:
            standing.append(row)
    return standing


__all__ = [
    "UNDO", "UNDO_NOTATION", "Takebacks", "asks_undo", "check_person", "effective_moves", "refused", "standing_rows",
]
