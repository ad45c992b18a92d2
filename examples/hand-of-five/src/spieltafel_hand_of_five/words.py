"""Hand of Five in words: actions and events, every word through ``gettext`` (catalogs in ``locales/``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spieltafel.games.svgkit import Gettext, identity, player_name

COLOURS = ("red", "blue", "green", "yellow")


def seat_name(seat: object, gettext: Gettext = identity) -> str:
    """A seat by its colour ("Red")."""
    return player_name(COLOURS[int(str(seat))], gettext) if str(seat).isdigit() and int(str(seat)) < 4 else str(seat)


def action_label(notation: str, gettext: Gettext = identity) -> str:
    """``play 37`` → "Play the 37"."""
    return gettext("Play the {card}").format(card=notation.partition(" ")[2])


def event_text(event: Mapping[str, Any], gettext: Gettext = identity) -> str:
    """One line per event, as the seat saw it (a drawn card only for its drawer)."""
    kind = event.get("kind")
    who = seat_name(event.get("seat"), gettext)
    if kind == "play":
        return gettext("{player} plays the {card}").format(player=who, card=event["card"])
    if kind == "score":
        return gettext("{player} scores and has {points} points").format(player=who, points=event["points"])
    if kind == "draw":
        if "card" in event:
            return gettext("{player} draws the {card}").format(player=who, card=event["card"])
        return gettext("{player} draws a card").format(player=who)
    if kind == "deck-empty":
        return gettext("The deck is empty")
    if kind == "game-over":
        names = ", ".join(seat_name(s, gettext) for s in event.get("winners", []))
        return gettext("The game is over: {winners} won").format(winners=names)
    return gettext("Something happened that cannot be shown in words.")
