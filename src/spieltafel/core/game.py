"""The engine contract every game implements: a :class:`Game` (the rules' description and factory)
and its :class:`State` (one position, with legal actions, apply, views, clone and determinise)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from .errors import (
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PlayerCountError,
    SpieltafelError,
    StateFormatError,
    quote,
)
from .events import JSON, Event
from .rng import Rng

Seat = int
"""A player's seat, 0-based; seat 0 is the start player, seats follow clockwise."""

Action = int
"""An action's stable index in the game's fixed action space."""

NOTATION_LIMIT = 80
"""The longest notation text :meth:`State.read_action` reads (real ones have at most 30 characters)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its name, allowed values (the first-listed default) and meaning."""

    name: str
    choices: tuple[str, ...]
    default: str
    description: str
    label: str = ""
    """The option's name in words for people (English; the site's catalogs translate it); the name when empty."""
    choice_labels: tuple[str, ...] = ()
    """Each choice in words, in the order of ``choices``; a choice without one shows as itself (numbers)."""

    def label_of(self, choice: str | None = None) -> str:
        """The option's name in words, or (with ``choice``) that choice's words; English, to translate."""
        if choice is None:
            return self.label or self.name
        index = self.choices.index(choice) if choice in self.choices else len(self.choice_labels)
        return self.choice_labels[index] if index < len(self.choice_labels) else choice

    def check(self, value: str) -> str:
        if value not in self.choices:
            raise OptionError(f"option {self.name!r} cannot be {quote(value)}; allowed: {', '.join(self.choices)}")
        return value


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled by setup.py; games (and tests) subclass it in Python
class Game(ABC):
    """A registered game: name, player range, options, action space and state factory."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    simultaneous: ClassVar[bool] = False
    """True when several seats may have to choose at the same time (secret simultaneous choices)."""
    closing_events: ClassVar[frozenset[str] | None] = None
    """The event kinds after which a seat's moves can no longer be taken back (a reveal, a draw, the
    river's flow, a scoring, the turn passing); see :meth:`State.closes_takeback`. None (the default,
    for a game that says nothing) allows no takeback at all."""

    @abstractmethod
    def action_space_size(self, players: int) -> int:
        """Size of the fixed action space: every action index is below it."""

    @abstractmethod
    def _new_state(self, players: int, seed: int, options: dict[str, str]) -> State:
        """Set up a new game; all chance comes from ``seed``."""

    @abstractmethod
    def _state_from_json(self, data: Mapping[str, JSON]) -> State:
        """Rebuild a state from :meth:`State.to_json` output (already checked to be this game's)."""

    def max_game_length(self, players: int, options: Mapping[str, str]) -> int | None:
        """An upper bound on the number of actions (of all seats together) in one game with ``players``
        seats and the resolved ``options``, or None when the game gives none (OpenSpiel's
        ``max_game_length``; see :mod:`spieltafel.openspiel`). A bound may be generous, never too small."""
        return None

    def new_state(self, players: int, seed: int = 0, options: Mapping[str, str] | None = None) -> State:
        """A new game for ``players`` seats, set up from ``seed`` with ``options`` (validated)."""
        self.check_players(players)
        return self._new_state(players, seed, self.resolve_options(options or {}))

    def state_from_json(self, data: Mapping[str, JSON]) -> State:
        """Rebuild a state from its full-state JSON, checked completely by the game's schema.

        Whatever is wrong with ``data`` raises StateFormatError with one line saying what: a
        document from a stranger never escapes as another exception.
        """
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise StateFormatError(f"not a {self.name} state document")
        try:
            return self._state_from_json(data)
        except StateFormatError:
            raise
        except SpieltafelError as error:
            raise StateFormatError(f"malformed {self.name} state: {error}") from None
        except RecursionError:
            raise StateFormatError(f"malformed {self.name} state: nested too deeply") from None
        except Exception as error:
            detail = quote(str(error)) if str(error) else ""
            raise StateFormatError(f"malformed {self.name} state: {type(error).__name__} {detail}".rstrip()) from None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(self.name, players, self.min_players, self.max_players)

    def resolve_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """Every option with its value: the given ones validated, the others at their default."""
        known = {spec.name: spec for spec in self.options}
        for key in raw:
            if key not in known:
                allowed = ", ".join(known) or "none"
                raise OptionError(f"{self.name} has no option {quote(key)}; options: {allowed}")
        return {name: spec.check(str(raw.get(name, spec.default))) for name, spec in known.items()}

    def describe(self) -> dict[str, JSON]:
        """JSON-ready description for listings."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "simultaneous": self.simultaneous,
            "options": [
                {"name": o.name, "choices": list(o.choices), "default": o.default, "description": o.description}
                for o in self.options
            ],
        }


@mypyc_attr(allow_interpreted_subclasses=True)  # a new game's state may stay pure Python
class State(ABC):
    """One position of a game.

    Clients use :meth:`seats_to_act`, :meth:`legal_actions`, :meth:`apply` (validated, returns
    events) and :meth:`view`. Search uses :meth:`step` (unchecked, no events), :meth:`clone` and
    :meth:`determinise`.
    """

    game: ClassVar[Game]
    players: int
    seed: int
    options: dict[str, str]

    # -- whose turn, what is allowed -------------------------------------------------------------
    @abstractmethod
    def seats_to_act(self) -> tuple[Seat, ...]:
        """The seats that must choose now, ascending; several for a simultaneous choice; () when over."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """The legal actions of ``seat`` now, ascending; empty when the seat is not to act."""

    @abstractmethod
    def action_text(self, seat: Seat, action: Action) -> str:
        """The stable notation of ``action`` (the inverse of :meth:`parse_action`)."""

    @abstractmethod
    def parse_action(self, seat: Seat, text: str) -> Action:
        """Read a notation; raises NotationError when it is not one. Legality is not checked."""

    def read_action(self, seat: Seat, text: str) -> Action:
        """Read a person's or a stranger's notation: at most NOTATION_LIMIT printable ASCII characters
        (every game's notation is ASCII), then the game's :meth:`parse_action`. Raises NotationError
        (or IllegalActionError from the parser); never another exception."""
        expected = f"an action's notation: at most {NOTATION_LIMIT} printable ASCII characters"
        if len(text) > NOTATION_LIMIT or not (text.isascii() and text.isprintable()):
            raise NotationError(text, expected)
        try:
            return self.parse_action(seat, text)
        except SpieltafelError:
            raise
        except (ValueError, IndexError, KeyError) as error:
            raise NotationError(text, expected) from error

    @abstractmethod
    def explain_illegal(self, seat: Seat, action: Action) -> IllegalActionError:
        """The error naming the rule that forbids ``action`` for ``seat`` now."""

    # -- change ---------------------------------------------------------------------------------
    @abstractmethod
    def _apply(self, seat: Seat, action: Action, events: list[Event] | None) -> None:
        """Carry out a legal action, appending events when ``events`` is a list."""

    def check_index(self, seat: Seat, action: object) -> Action:
        """An action index from a stranger: an ``int`` (not a ``bool``) inside the game's action space.
        Anything else raises IllegalActionError naming the action space and the seat's legal actions."""
        size = self.game.action_space_size(self.players)
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < size:
            return action
        legal = legal_texts(self, seat)
        allowed = f"an action index from 0 to {size - 1}; legal now: {', '.join(legal[:8]) or 'nothing'}"
        if len(legal) > 8:
            allowed += f" and {len(legal) - 8} more"
        raise IllegalActionError(_index_text(action), f"no such action in {self.game.title}'s action space", allowed)

    def apply(self, seat: Seat, action: object) -> list[Event]:
        """Validate and carry out an action (index or notation); return the events it caused.

        ``action`` may be anything a stranger sent: an index (checked by :meth:`check_index`) or a
        notation. A malformed or illegal action raises a specific error and leaves the state untouched.
        """
        acting = self.seats_to_act()
        if seat not in acting:
            raise NotYourTurnError(seat, acting)
        index = self.read_action(seat, action) if isinstance(action, str) else self.check_index(seat, action)
        if index not in self.legal_actions(seat):
            raise self.explain_illegal(seat, index)
        events: list[Event] = []
        self._apply(seat, index, events)
        return events

    def closes_takeback(self, seat: Seat, events: Sequence[Event]) -> bool:
        """Whether the action of ``seat`` that just produced ``events`` (``self`` is the state after it)
        closes the seat's takeback window, so that neither it nor the seat's earlier moves can be taken
        back: something hidden was revealed to someone (an event with a private part), chance was drawn
        or the turn passed (an event kind the game lists in :attr:`Game.closing_events`), or another
        seat must (also) act now. :func:`spieltafel.core.undo.takeback_window` walks a game's moves with it."""
        closing = self.game.closing_events
        if closing is None or self.seats_to_act() != (seat,):
            return True
        return any(event.private or event.kind in closing for event in events)

    def step(self, seat: Seat, action: Action) -> None:
        """Carry out a legal action without checking it and without events (for search)."""
        self._apply(seat, action, None)

    # -- information ----------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat | None = None) -> dict[str, JSON]:
        """What ``seat`` (a spectator when None) may know, JSON-ready; no secrets of others."""

    @abstractmethod
    def render(self, seat: Seat | None = None) -> Any:
        """A rich renderable of the position as ``seat`` sees it."""

    # -- search ---------------------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def determinise(self, seat: Seat, rng: Rng) -> Self:
        """A full state consistent with ``seat``'s view: what ``seat`` cannot see is resampled."""

    # -- outcome --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.seats_to_act()

    @abstractmethod
    def scores(self) -> list[int]:
        """Current points per seat (final once the game is over)."""

    @abstractmethod
    def winners(self) -> list[Seat]:
        """The winning seats once the game is over (ties share the win), else []."""

    # -- serialisation --------------------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The full state (secrets included), JSON-ready; ``game.state_from_json`` round-trips it."""


def _index_text(action: object) -> str:
    """A refused action index as an error message shows it (a huge number or another type shortened)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return f"{type(action).__name__} {quote(repr(action), 40)}"
    return str(action) if abs(action) < 10**30 else "a huge number"


def legal_texts(state: State, seat: Seat) -> list[str]:
    """The notation of every legal action of ``seat``."""
    return [state.action_text(seat, a) for a in state.legal_actions(seat)]


def check_seat(state: State, seat: int | None) -> None:
    """Raise a clear error for a seat number outside the game."""
    if seat is not None and not 0 <= seat < state.players:
        raise SpieltafelError(f"there is no seat {seat}: seats are 0 to {state.players - 1}")
