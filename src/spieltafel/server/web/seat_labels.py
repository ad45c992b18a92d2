"""Who sat at a seat, in words of the page's language, for the replay and history pages.

A seat is named by the game's own name for it (its colour: "Yellow") and who played it: a person's name,
a bot as "Bot (medium)" in the page's language, or a person who left and what took the seat over
("alice → Bot (medium)", "alice (out)"). The raw names are the table's record (``bot:medium``,
``alice (left, bot:medium)``, ``alice (timeout, out)``) or its live seats.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import board

Gettext = Callable[[str], str]

BOT_PREFIX = "bot:"
GONE = re.compile(r"(?P<name>.+) \((?P<gone>[\w-]+), (?P<taken>out|bot:[\w-]+)\)")


def raw_seat_name(entry: Mapping[str, Any]) -> str:
    """A live seat (``Seat.public``) as the record names it: ``bot:<level>``, a name, or who left."""
    name, bot, gone = entry.get("name"), entry.get("bot"), entry.get("gone")
    if isinstance(name, str) and name and isinstance(gone, str) and gone:
        return f"{name} ({gone}, {BOT_PREFIX + bot if isinstance(bot, str) and bot else 'out'})"
    if isinstance(name, str) and name:
        return name
    return BOT_PREFIX + bot if isinstance(bot, str) and bot else ""


def who(raw: str, gettext: Gettext) -> str:
    """Who played a seat, in words."""
    from .texts import bot_level_name

    def bot(level: str) -> str:
        return gettext("Bot (%(level)s)") % {"level": bot_level_name(level, gettext)}

    left = GONE.fullmatch(raw)
    if left is not None:
        taken = left["taken"]
        if taken.startswith(BOT_PREFIX):
            return f"{left['name']} → {bot(taken[len(BOT_PREFIX):])}"
        return f"{left['name']} ({gettext('out')})"
    if raw.startswith(BOT_PREFIX):
        return bot(raw[len(BOT_PREFIX):])
    if raw == "open":
        return gettext("open seat")
    return raw


def seat_labels(game: str, raw: Sequence[str], gettext: Gettext) -> list[str]:
    """Each seat as "<the game's name for it> – <who>" ("Yellow – Bot (medium)"), or "Seat 2 – …"."""
    labels = []
    for seat, name in enumerate(raw):
        own = board.seat_name(game, seat, gettext) or gettext("Seat %(n)s") % {"n": seat + 1}
        player = who(name, gettext) if name else ""
        labels.append(f"{own} – {player}" if player else own)
    return labels
