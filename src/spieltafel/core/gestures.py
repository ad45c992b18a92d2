"""Gestures: one board target that stands for a *sequence* of a seat's legal actions (issue 25).

A game may offer, beside its one-action targets, targets that play several of its actions in a row, e.g.
Niagara's canoe paddled to its destination space in one click (``games/niagara/gestures.py``). The game's
kit names a module (``GameKit.gestures``) with ``gestures(state, seat) -> list[Gesture]``; the search runs on
copies of the state the server holds, over the seat's own legal actions only, so a gesture can tell no
more than the seat's legal moves already do.

A gesture is played as one submission of its actions (``{"type": "move", "seq", "actions": [...]}``,
docs/protocol.md): :func:`play_steps` checks every step against the state it meets, refuses the whole list
when a step is illegal or when a step *before the last* closes the takeback window (reveals something
hidden, draws chance, passes the turn: :meth:`State.closes_takeback`), and changes nothing then. Each step
stays a move of its own in the log, with its own events and ``seq``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import SpieltafelError
from .events import Event
from .game import Action, Seat, State

MAX_STEPS = 16
"""The longest list of actions one submission may carry."""


@dataclass(frozen=True, slots=True)
class Gesture:
    """A sequence of legal actions of one seat (``actions``, action indices in order) that one board
    element stands for: ``target`` is that element's id in the game's board, ``notation`` the gesture in
    the game's own short words (its words module's optional ``gesture_label(notation, gettext)`` says it
    for people; without one the steps' labels are shown)."""

    target: str
    actions: tuple[Action, ...]
    notation: str = ""


class Gestures(Protocol):
    """A game's gestures: ``gestures(state, seat)``, every gesture open to ``seat`` now."""

    def gestures(self, state: State, seat: Seat, /) -> list[Gesture]: ...


class StepsError(SpieltafelError):
    """A list of actions refused as a whole: ``step`` is the 1-based position of the offending step."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


def one_of(action: object, actions: object) -> None:
    """A move message names ``action`` (one move) or ``actions`` (a list of steps), never both or neither:
    ValueError otherwise (the API's and the socket's validators)."""
    if (action is None) == (actions is None):
        raise ValueError('send either "action" (one move) or "actions" (a list of moves), not both')


def play_steps(state: State, seat: Seat, actions: Sequence[object]) -> list[tuple[Action, list[Event]]]:
    """Apply ``actions`` of ``seat`` one by one to ``state`` (the caller's copy) and return each step's
    index and events. Raises StepsError (``state`` is then half-changed: throw the copy away) when the list
    is empty or longer than :data:`MAX_STEPS`, when a step is not legal in the position it meets, or when a
    step before the last closes the takeback window, ends the game or hands the turn to another seat (then
    the rest of the list would be chosen without what the others may do or what was revealed)."""
    if not actions:
        raise StepsError(0, "the list of actions is empty: send at least one")
    if len(actions) > MAX_STEPS:
        raise StepsError(0, f"{len(actions)} actions in one list: at most {MAX_STEPS} are taken")
    done: list[tuple[Action, list[Event]]] = []
    for number, action in enumerate(actions, 1):
        if done and (state.is_over or state.closes_takeback(seat, done[-1][1])):
            raise StepsError(
                number,
                f"step {number} comes after a step that ended the turn, revealed something or drew chance: "
                "such a step must be the last of a list (send the rest after you have seen the new state)",
            )
        try:
            index = state.read_action(seat, action) if isinstance(action, str) else state.check_index(seat, action)
            events = state.apply(seat, index)
        except SpieltafelError as error:
            raise StepsError(number, f"step {number} of {len(actions)} is refused: {error}") from error
        done.append((index, events))
    return done
