"""Time limits of a table, as pure functions of epoch milliseconds.

A table is untimed, ``live`` (a clock per person: ``budget_ms`` for the game plus ``increment_ms`` for
every move, running while the seat is to act) or ``turn`` (``budget_ms`` for every move). A seat's
clock is ``(clock_ms, since_ms, deadline_ms)``: time left when its turn started (live), the start of
its current turn and the moment its time runs out; ``since_ms``/``deadline_ms`` are null while the seat
is not to act. Bots and seats whose person is gone have no clock.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
PER_MOVE_LIMITS: dict[str, int] = {"12h": 12 * HOUR_MS, "1d": DAY_MS, "3d": 3 * DAY_MS, "7d": 7 * DAY_MS}
"""The per-move limits of turn-based tables, by name."""
PACES = ("live", "turn")
LEAVER_RULES = ("bot", "out")
OUT_PLAYER = "random"
"""Plays the remaining turns of a seat that is out (the engine has no resignation); its result is last."""


@dataclass(frozen=True, slots=True)
class Timing:
    """A table's time limit: ``pace`` None (none), ``live`` or ``turn``."""

    pace: str | None = None
    budget_ms: int = 0
    increment_ms: int = 0

    @classmethod
    def of(cls, pace: str | None, budget_ms: int | None, increment_ms: int | None) -> Timing:
        return cls(pace, budget_ms or 0, increment_ms or 0) if pace in PACES else cls()

    def public(self) -> dict[str, Any] | None:
        """``{"pace": "live", "minutes", "increment"}`` or ``{"pace": "turn", "per_move"}`` or None."""
        if self.pace == "live":
            return {"pace": "live", "minutes": self.budget_ms // 60_000, "increment": self.increment_ms // 1000}
        if self.pace == "turn":
            name = next((n for n, ms in PER_MOVE_LIMITS.items() if ms == self.budget_ms), None)
            return {"pace": "turn", "per_move": name}
        return None

    def first_clock(self) -> int | None:
        """A person's clock at the start of the game (live tables only)."""
        return self.budget_ms if self.pace == "live" else None


@dataclass(frozen=True, slots=True)
class Limits:
    """What a table is created with: its time limit and its leaver rule ("bot" with a level, or "out")."""

    timing: Timing
    leaver: str = "bot"
    leaver_bot: str | None = None


@dataclass(frozen=True, slots=True)
class SeatClock:
    clock_ms: int | None = None
    since_ms: int | None = None
    deadline_ms: int | None = None


def retime(
    timing: Timing, clocks: Sequence[SeatClock], timed: Collection[int], mover: int | None,
    to_act: Collection[int], now: int,
) -> dict[int, SeatClock]:
    """The clocks that change when ``mover`` (None: nobody, e.g. at the start) has moved and ``to_act``
    are the seats to act now. Only ``timed`` seats (people still playing) have clocks."""
    if timing.pace is None:
        return {}
    changed: dict[int, SeatClock] = {}
    for seat in timed:
        old = clocks[seat]
        clock, since, deadline = old.clock_ms, old.since_ms, old.deadline_ms
        if seat == mover and since is not None:
            if timing.pace == "live":
                clock = max(0, (clock or 0) - (now - since)) + timing.increment_ms
            since = deadline = None
        if seat in to_act and since is None:
            since = now
            deadline = now + ((clock or 0) if timing.pace == "live" else timing.budget_ms)
        elif seat not in to_act:
            since = deadline = None
        new = SeatClock(clock, since, deadline)
        if new != old:
            changed[seat] = new
    return changed


def remaining(timing: Timing, clock: SeatClock, now: int) -> int | None:
    """Milliseconds left for the seat now (live: its whole clock; turn: its current move), or None."""
    if timing.pace == "live":
        if clock.deadline_ms is not None:
            return max(0, clock.deadline_ms - now)
        return clock.clock_ms
    if timing.pace == "turn" and clock.deadline_ms is not None:
        return max(0, clock.deadline_ms - now)
    return None


def places(scores: Sequence[int], winners: Collection[int], out: Collection[int]) -> list[int]:
    """Each seat's place (1 = best, ties share): the engine's ranking among the seats still in (its
    winners first, then by score), every seat that is out after them, sharing the last place."""
    inside = [seat for seat in range(len(scores)) if seat not in out]
    top = [seat for seat in inside if seat in winners]
    if not top and inside:
        best = max(scores[seat] for seat in inside)
        top = [seat for seat in inside if scores[seat] == best]
    result = [len(inside) + 1] * len(scores)
    for seat in inside:
        if seat in top:
            result[seat] = 1
        else:
            better = sum(1 for other in inside if other not in top and scores[other] > scores[seat])
            result[seat] = len(top) + better + 1
    return result


def table_result(scores: Sequence[int], winners: Collection[int], out: Collection[int]) -> Mapping[str, Any]:
    """The table's result: the engine's scores, the winners among the seats still in, who is out, places."""
    ranked = places(scores, winners, out)
    return {
        "scores": list(scores),
        "winners": [seat for seat, place in enumerate(ranked) if place == 1 and seat not in out],
        "out": sorted(out),
        "places": ranked,
    }
