"""What a new table asks for, checked: the game, its player count and options, the seats, the clock and
the leaver rule. Each refusal names what was wrong and what is allowed (``Invalid``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spieltafel.core import Game, SpieltafelError, get_game
from spieltafel.server.accounts.service import Account
from spieltafel.server.db import SeatRow
from spieltafel.server.errors import Invalid
from spieltafel.server.tables import clocks
from spieltafel.server.tables.clocks import Timing
from spieltafel.server.tables.live import BOT_LEVELS, DEFAULT_LEAVER_BOT, SEAT_KINDS

MAX_MINUTES = 180
MAX_INCREMENT = 60


def game_named(name: object) -> Game:
    try:
        return get_game(str(name))
    except SpieltafelError as error:
        raise Invalid("bad-game", str(error)) from error


def check_players(game: Game, players: int) -> None:
    try:
        game.check_players(players)
    except SpieltafelError as error:
        raise Invalid("bad-players", str(error)) from error


def resolved_options(game: Game, options: Mapping[str, Any]) -> dict[str, str]:
    bad = [key for key, value in options.items() if not isinstance(value, str)]
    if bad:
        raise Invalid("bad-option", f"option values are strings; {bad[0]!r} is not")
    try:
        return game.resolve_options({str(k): str(v) for k, v in options.items()})
    except SpieltafelError as error:
        raise Invalid("bad-option", str(error)) from error


def seat_rows(seats: Sequence[Mapping[str, Any]], players: int, account: Account) -> list[SeatRow]:
    """Seat rows in the order given (seats are not shuffled: seat 0 starts)."""
    if len(seats) != players:
        raise Invalid("bad-seats", f"give one seat per player: {players} seats, not {len(seats)}")
    rows = []
    for number, spec in enumerate(seats):
        kind = spec.get("kind")
        if kind not in SEAT_KINDS:
            raise Invalid("bad-seats", f"seat {number}: kind {kind!r} is not one of {', '.join(SEAT_KINDS)}")
        bot = spec.get("bot")
        if kind == "bot" and bot not in BOT_LEVELS:
            raise Invalid("bad-seats", f"seat {number}: bot {bot!r} is not one of {', '.join(BOT_LEVELS)}")
        if kind != "bot" and bot is not None:
            raise Invalid("bad-seats", f"seat {number}: only a seat of kind 'bot' names a bot")
        rows.append(SeatRow(seat=number, account_id=account.id if kind == "me" else None,
                            bot=bot if kind == "bot" else None))
    if sum(spec.get("kind") == "me" for spec in seats) > 1:
        raise Invalid("bad-seats", "at most one seat can be 'me': an account plays one seat of a table")
    return rows


def timing_of(clock: Mapping[str, Any] | None) -> Timing:
    """The time limit: none, ``{"pace": "live", "minutes", "increment"}`` or ``{"pace": "turn", "per_move"}``."""
    if not clock:
        return Timing()
    pace = clock.get("pace")
    if pace == "live":
        minutes, increment = clock.get("minutes"), clock.get("increment", 0)
        if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
            raise Invalid("bad-clock", f"a live clock has 1 to {MAX_MINUTES} minutes per game, not {minutes!r}")
        if not isinstance(increment, int) or not 0 <= increment <= MAX_INCREMENT:
            raise Invalid("bad-clock", f"a live clock adds 0 to {MAX_INCREMENT} seconds per move, not {increment!r}")
        return Timing("live", minutes * 60_000, increment * 1000)
    if pace == "turn":
        per_move = clock.get("per_move")
        if per_move not in clocks.PER_MOVE_LIMITS:
            choices = ", ".join(clocks.PER_MOVE_LIMITS)
            raise Invalid("bad-clock", f"a turn-based table has a per-move limit of {choices}, not {per_move!r}")
        return Timing("turn", clocks.PER_MOVE_LIMITS[str(per_move)])
    raise Invalid("bad-clock", f"a clock's pace is live or turn, not {pace!r}")


def leaver_of(leaver: Mapping[str, Any] | None) -> tuple[str, str | None]:
    """The leaver rule: ``{"rule": "bot", "bot": level}`` (default: medium) or ``{"rule": "out"}``."""
    rule = (leaver or {}).get("rule", "bot")
    if rule == "out":
        return "out", None
    if rule != "bot":
        raise Invalid("bad-leaver", f"the leaver rule is bot or out, not {rule!r}")
    bot = (leaver or {}).get("bot", DEFAULT_LEAVER_BOT)
    if bot not in BOT_LEVELS:
        raise Invalid("bad-leaver", f"the bot that takes a leaver's seat is one of {', '.join(BOT_LEVELS)}")
    return "bot", str(bot)
