"""One table as a server process knows it: its seats and the replayed game at ``seq`` (no I/O here)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spieltafel.bots import BOTS
from spieltafel.core import Event, State, get_game
from spieltafel.server.accounts.service import Account
from spieltafel.server.tables.clocks import SeatClock, Timing
from spieltafel.server.tables.undo import UNDO, Takebacks

STATUSES = ("open", "playing", "over")
SEAT_KINDS = ("me", "open", "bot")
BOT_LEVELS = tuple(BOTS)
"""Every bot a seat may hold (``spieltafel.bots.BOTS``)."""
OFFERED_BOTS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "greedy", "random")
"""The bots the pages offer for a seat, weakest level first (the rest of :data:`BOT_LEVELS` through the API)."""
DEFAULT_LEAVER_BOT = "medium"


@dataclass(frozen=True, slots=True)
class StateContext:
    """What a state decorator knows about the message it decorates."""

    game: str
    seat: int | None
    account: Account | None
    params: Mapping[str, str]


@dataclass(slots=True)
class Seat:
    account_id: int | None
    name: str | None
    bot: str | None
    program: bool = False
    gone: str | None = None
    clock: SeatClock = field(default_factory=SeatClock)
    hints: int = 0
    """Hints the seat's person got (``server.analysis.hints``): public, like the seat's name."""

    @property
    def kind(self) -> str:
        return "bot" if self.bot else "player" if self.account_id is not None else "open"

    @property
    def playing(self) -> bool:
        """A person who still plays this seat (not a bot, not gone)."""
        return self.account_id is not None and self.bot is None and self.gone is None

    def public(self, number: int) -> dict[str, Any]:
        return {"seat": number, "kind": self.kind, "name": self.name, "bot": self.bot, "program": self.program,
                "gone": self.gone, "hints": self.hints}

    def recorded(self, leaver: str) -> str:
        """Who sat here, for the record: a bot level, a name, or who left and what took the seat."""
        if self.gone is not None:
            taken = "out" if leaver == "out" else f"bot:{self.bot}"
            return f"{self.name} ({self.gone}, {taken})"
        return f"bot:{self.bot}" if self.bot else self.name or "open"


@dataclass(slots=True)
class Live:
    """One table as this process knows it: its row, seats and the replayed game at ``seq``."""

    id: int
    game: str
    players: int
    options: dict[str, str]
    seed: int
    status: str
    seats: list[Seat]
    state: State
    seq: int = 0
    events: deque[tuple[int, Event]] = field(default_factory=deque)
    invite: str | None = None
    rematch: int | None = None
    timing: Timing = field(default_factory=Timing)
    leaver: str = "bot"
    leaver_bot: str | None = None
    rated: bool = True
    """A rated game changes ratings when it ends; a casual one changes none (``social.ratings``)."""
    takebacks: Takebacks = field(default_factory=Takebacks)
    """The moves that stand and how many of them their seat may take back (:mod:`.undo`)."""

    def seat_of(self, account: Account | None) -> int | None:
        """The seat ``account`` plays (None for a spectator and for a person who left or timed out)."""
        if account is None:
            return None
        return next((n for n, s in enumerate(self.seats) if s.account_id == account.id and s.gone is None), None)

    def hints_allowed(self) -> bool:
        """Whether this table's people may ask for hints (issue 27): at a casual table, or at a rated one
        "against bots": one account sits at it (no other seat ever had a person: a seat a leaver's stand-in
        plays still counts as that person's) and at least one other seat is a bot level. Never in a rated
        game between people (programs' accounts count as people here). Decided once the game has started:
        an open table (a seat may still be taken) answers False rather than flip when someone joins."""
        if self.status == "open":
            return False
        if not self.rated:
            return True
        people = sum(1 for s in self.seats if s.account_id is not None)
        return people == 1 and any(s.bot and s.account_id is None for s in self.seats)

    def gone_seat(self, account: Account) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s.account_id == account.id and s.gone), None)

    def out(self) -> list[int]:
        """Seats whose person is out (the leaver rule "out"): ranked last."""
        return [n for n, s in enumerate(self.seats) if s.gone and self.leaver == "out"]

    def timed(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if s.playing] if self.timing.pace else []

    def to_act(self) -> list[int]:
        return list(self.state.seats_to_act()) if self.status == "playing" else []

    def first_state(self) -> State:
        """The table's game as it was set up, before any move."""
        return get_game(self.game).new_state(self.players, self.seed, self.options)

    def apply_row(self, seat: int, action: int) -> list[Event]:
        """Apply one row of the log to the game: a move, or a takeback (:data:`.undo.UNDO`)."""
        if action == UNDO:
            self.state, events = self.takebacks.take_back(self.first_state(), seat)
            self.takebacks.commit()
            return events
        events = self.state.apply(seat, action)
        self.takebacks.moved(self.state, seat, action, events)
        return events

    def note_events(self, seq: int, events: list[Event], keep: int) -> None:
        """Remember the events of the move that made ``seq``, the last ``keep`` of them (for the state message)."""
        for event in events:
            self.events.append((seq, event))
        while len(self.events) > keep:
            self.events.popleft()

    def set_clocks(self, changes: Mapping[int, SeatClock]) -> None:
        for seat, clock in changes.items():
            self.seats[seat].clock = clock

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "status": self.status,
            "seats": [s.public(n) for n, s in enumerate(self.seats)],
            "seq": self.seq,
            "private": self.invite is not None,
            "rematch": self.rematch,
            "clock": self.timing.public(),
            "leaver": {"rule": self.leaver, "bot": self.leaver_bot if self.leaver == "bot" else None},
            "rated": self.rated,
            "hints_allowed": self.hints_allowed(),
        }
