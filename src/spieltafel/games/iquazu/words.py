"""Iquazú's actions and events in words, for people (translated through ``gettext``).

``action_label`` reads a notation (``place 7c BBW``, ``draw``, ``bonus cards3`` ...) and
``event_text`` an event view (``{"kind": "place", ...}``); both return one short sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spieltafel.core.kit import plural
from spieltafel.games.svgkit import Gettext, identity, player_name

from .components import PLAYER_COLOURS, TILE_KINDS


def colour_name(letter: str, gettext: Gettext) -> str:
    """A card or slot colour by its letter: W white, B blue, O orange."""
    names = {"W": gettext("white"), "B": gettext("blue"), "O": gettext("orange")}
    return names.get(letter.upper(), letter)


def cards_words(letters: str, gettext: Gettext) -> str:
    """Cards as colour names, e.g. ``BBW`` → "blue, blue, white"."""
    return ", ".join(colour_name(letter, gettext) for letter in letters) or gettext("no cards")


def paid_words(paid: str | Mapping[str, int], gettext: Gettext) -> str:
    """Cards as letters (``"BBW"``, as events give them) or counts (``{"W": 1, "B": 2}``) in words."""
    if isinstance(paid, str):
        return cards_words(paid, gettext)
    return cards_words("".join(letter * int(count) for letter, count in paid.items()), gettext)


def tile_name(code: str, gettext: Gettext) -> str:
    """A bonus tile's effect in words."""
    names = {
        "cards2": gettext("draw 2 cards"),
        "cards3": gettext("draw 3 cards"),
        "cards4": gettext("draw 4 cards"),
        "any": gettext("pay with any colours"),
        "double": gettext("one more action"),
        "points1": gettext("1 point"),
        "points2": gettext("2 points"),
        "points3": gettext("3 points"),
        "points4": gettext("4 points"),
        "points5": gettext("5 points"),
        "light": gettext("face-down light tile"),
        "dark": gettext("face-down dark tile"),
    }
    return names.get(code, code)


def seat_name(seat: object, gettext: Gettext) -> str:
    """A seat by its gem colour ("Red" ...)."""
    if isinstance(seat, int) and 0 <= seat < len(PLAYER_COLOURS):
        return player_name(PLAYER_COLOURS[seat], gettext)
    return gettext("nobody")


def action_label(notation: str, gettext: Gettext = identity) -> str:
    """The action ``notation`` in words, e.g. "Place on slot 7c, paying blue, blue, white"."""
    words = notation.split()
    verb = words[0] if words else ""
    if verb == "place" and len(words) >= 3:
        text = gettext("Place on slot {slot}, paying {cards}")
        if len(words) == 4:
            text = gettext("Place on slot {slot} with the any-colour tile, paying {cards}")
        return text.format(slot=words[1], cards=cards_words(words[2], gettext))
    if verb == "bonus" and len(words) == 2:
        return gettext("Use the bonus tile: {effect}").format(effect=tile_name(words[1], gettext))
    if verb == "discard" and len(words) == 2:
        return gettext("Discard a {colour} card").format(colour=colour_name(words[1], gettext))
    fixed = {"draw": gettext("Draw 4 cards"), "end": gettext("End the turn")}
    return fixed.get(notation.strip(), notation)


def _count_cards(count: int, gettext: Gettext) -> str:
    ngettext = plural(gettext)
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def _draw(e: Mapping[str, Any], _: Gettext) -> str:
    text = _("{player} draws {cards}").format(player=seat_name(e.get("seat"), _), cards=_count_cards(e["count"], _))
    if isinstance(e.get("cards"), str | Mapping):
        text += " (" + paid_words(e["cards"], _) + ")"
    return text


def _place(e: Mapping[str, Any], _: Gettext) -> str:
    return _("{player} places a gem on slot {slot}, paying {cards}").format(
        player=seat_name(e["seat"], _), slot=e["slot"], cards=paid_words(e["paid"], _)
    )


def _rock(e: Mapping[str, Any], _: Gettext) -> str:
    awards = ", ".join(
        _("{player} {points}").format(player=seat_name(seat, _), points=points) for seat, points in e["awards"]
    )
    return _("Rock of column {column} scores: {awards}").format(column=e["column"], awards=awards or _("nobody"))


def _bonus_tile(e: Mapping[str, Any], _: Gettext) -> str:
    if e.get("seat") is None:
        return _("Bonus tile of row {row} ({tile}) leaves the game: no gem in the row").format(
            row=e["row"], tile=tile_name(e["tile"], _)
        )
    return _("{player} wins the bonus tile of row {row}: {tile}").format(
        player=seat_name(e["seat"], _), row=e["row"], tile=tile_name(e["tile"], _)
    )


def _game_over(e: Mapping[str, Any], _: Gettext) -> str:
    winners = ", ".join(seat_name(w, _) for w in e.get("winners", []))
    scores = ", ".join(f"{seat_name(p, _)} {points}" for p, points in enumerate(e.get("scores", [])))
    return _("Game over. Winner: {winners} ({scores})").format(winners=winners, scores=scores)


def _reshuffle(e: Mapping[str, Any], _: Gettext) -> str:
    ngettext, count = plural(_), e["cards"]
    return ngettext(
        "The discards are shuffled into a new draw pile of {count} card",
        "The discards are shuffled into a new draw pile of {count} cards",
        count,
    ).format(count=count)


def _refill_gems(e: Mapping[str, Any], _: Gettext) -> str:
    ngettext, count = plural(_), e["gems"]
    return ngettext(
        "{player} takes {count} gem back from scored columns",
        "{player} takes {count} gems back from scored columns",
        count,
    ).format(player=seat_name(e["seat"], _), count=count)


def _refill_water(e: Mapping[str, Any], _: Gettext) -> str:
    ngettext, count = plural(_), e["drops"]
    return ngettext(
        "The water box is refilled: {count} drop", "The water box is refilled: {count} drops", count
    ).format(count=count)


def _tile_points(e: Mapping[str, Any], _: Gettext) -> str:
    ngettext, points = plural(_), e["points"]
    return ngettext(
        "{player} scores {points} point for bonus tiles", "{player} scores {points} points for bonus tiles", points
    ).format(player=seat_name(e["seat"], _), points=points)


_EVENTS: dict[str, Callable[[Mapping[str, Any], Gettext], str]] = {
    "draw": _draw,
    "place": _place,
    "rock": _rock,
    "bonus-tile": _bonus_tile,
    "game-over": _game_over,
    "reshuffle": _reshuffle,
    "refill-gems": _refill_gems,
    "bonus": lambda e, _: _("{player} uses a bonus tile: {tile}").format(
        player=seat_name(e["seat"], _), tile=tile_name(e["tile"], _)
    ),
    "discard": lambda e, _: _("{player} discards a {colour} card").format(
        player=seat_name(e["seat"], _), colour=colour_name(e["card"], _)
    ),
    "turn": lambda e, _: _("{player}'s turn").format(player=seat_name(e["seat"], _)),
    "water": lambda e, _: _("A water drop falls on slot {slot}").format(slot=e["slot"]),
    "refill-water": _refill_water,
    "shift": lambda e, _: _("The water frame moves on to column {column}; new bonus tiles: {tiles}").format(
        column=e["frame"], tiles=", ".join(tile_name(t, _) for t in e.get("revealed", []))
    ),
    "water-box": lambda e, _: _("{player} takes the water box").format(player=seat_name(e["seat"], _)),
    "tile-points": _tile_points,
}


def event_text(event: Mapping[str, Any], gettext: Gettext = identity) -> str:
    """An event view in words, e.g. "Red places a gem on slot 7c, paying blue, blue"."""
    describe = _EVENTS.get(str(event.get("kind")))
    if describe is None:
        return gettext("Something happened: {kind}").format(kind=event.get("kind"))
    return describe(event, gettext)


def score_breakdown(view: Mapping[str, Any], gettext: Gettext = identity) -> list[list[str]]:
    """Each seat's final score as "Einde van het spel" adds it up, read from the parts the rules recorded
    when they awarded them (the view's ``rock_points`` and ``tile_points``, nothing recomputed here): the
    rocks' points ("Punten van de rots", won by majority at each column's scoring, the last two rocks
    included), then rock by rock (board column, rocks that gave the seat nothing left out), the points
    printed on the bonus tiles kept ("bonuskaartjes" with points), the bonus tiles left unused, the total.

    A rock's points are those won when its column was scored: gems that an empty supply later takes back
    from scored columns (FAQ) do not change them (docs/rules/iquazu.md). Empty unless the game reached its
    end (the tiles' points count only then)."""
    _ = gettext
    if view.get("phase") != "over":
        return []
    values = {code: value for code, effect, value in TILE_KINDS if effect == "points"}
    rows: list[list[str]] = []
    for info in view.get("player_info", []):
        tiles: Mapping[str, int] = info.get("tiles") or {}
        rocks = [int(points) for points in info["rock_points"]]
        lines = [_("rocks: {points}").format(points=sum(rocks))]
        lines += [
            _("– column {column}: {points}").format(column=column, points=points)
            for column, points in enumerate(rocks, start=1)
            if points
        ]
        kept = sorted(((values[code], n) for code, n in tiles.items() if code in values and n), reverse=True)
        tile_points = int(info["tile_points"])
        if kept:
            listed = " + ".join(_("{count} × {points}").format(count=n, points=value) for value, n in kept)
            lines.append(_("points tiles: {tiles} = {points}").format(tiles=listed, points=tile_points))
        else:
            lines.append(_("points tiles: none"))
        unused = [
            _("{count} × {tile}").format(count=n, tile=tile_name(code, _))
            for code, n in tiles.items()
            if code not in values and n
        ]
        if unused:
            lines.append(_("bonus tiles not used: {tiles}").format(tiles=", ".join(unused)))
        lines.append(_("total: {points}").format(points=int(info.get("score", 0))))
        rows.append(lines)
    return rows
