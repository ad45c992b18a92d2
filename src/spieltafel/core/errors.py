"""Errors raised by the engine.

Every error a user can cause carries a message that says what was wrong and what is allowed.
A refused action never changes the state it was offered to.
"""

from __future__ import annotations

from collections.abc import Sequence

QUOTE_LIMIT = 60
"""At most this many characters of a user's text are repeated in an error message."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a Python literal for an error message, cut to ``limit`` characters (a refusal
    never echoes a megabyte back); control characters are escaped, so the message stays one line."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


class SpieltafelError(Exception):
    """Base class of every error the engine raises on purpose."""


class UnknownGameError(SpieltafelError):
    """A game name that is not registered."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(f"unknown game {quote(name)}; known games: {', '.join(known)}")


class PlayerCountError(SpieltafelError):
    """A player count outside the game's range."""

    def __init__(self, game: str, players: int, low: int, high: int) -> None:
        super().__init__(f"{game} is played by {low} to {high} players, not {players}")


class OptionError(SpieltafelError):
    """An unknown option or a value the option does not allow."""


class NotationError(SpieltafelError):
    """Text that does not parse as an action of the game."""

    def __init__(self, text: str, expected: str) -> None:
        super().__init__(f"cannot read {quote(text)} as an action: expected {expected}")


class IllegalActionError(SpieltafelError):
    """A well-formed action that the rules forbid now.

    ``rule`` names the rule that forbids it, ``allowed`` describes what the seat may do instead.
    """

    def __init__(self, action: str, rule: str, allowed: str = "") -> None:
        self.action = action
        self.rule = rule
        self.allowed = allowed
        message = f"{quote(action)} is not allowed: {rule}"
        if allowed:
            message += f"; allowed: {allowed}"
        super().__init__(message)


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not among the seats to act."""

    def __init__(self, seat: int, to_act: Sequence[int]) -> None:
        acting = ", ".join(str(s) for s in to_act) or "nobody (the game is over)"
        super().__init__(f"seat {seat}", "it is not this seat's turn", f"seats to act: {acting}")


class StateFormatError(SpieltafelError):
    """A full-state or record document that is malformed or belongs to another game."""


class RecordMismatchError(SpieltafelError):
    """A game record whose replay does not reproduce the recorded result."""
