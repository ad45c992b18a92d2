"""Haleakala's actions and events in words, for people (translated through ``gettext``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spieltafel.games.svgkit import Gettext, identity, player_name

from .components import FOREST, GRASS, MOUNTAIN, PLAYER_COLOURS, STATUE_POINTS

_STATUE_POINTS = {
    "grass-statues": STATUE_POINTS[GRASS],
    "forest-statues": STATUE_POINTS[FOREST],
    "mountain-statues": STATUE_POINTS[MOUNTAIN],
}
"""Each statue's points by ring: a ring's part is its statue count times these."""


def seat_name(seat: object, gettext: Gettext) -> str:
    if isinstance(seat, int) and 0 <= seat < len(PLAYER_COLOURS):
        return player_name(PLAYER_COLOURS[seat], gettext)
    return gettext("nobody")


def ring_name(letter: str, gettext: Gettext) -> str:
    names = {
        "b": gettext("beach"),
        "g": gettext("grass"),
        "f": gettext("forest"),
        "m": gettext("mountain"),
        "c": gettext("crater"),
    }
    return names.get(letter, letter)


def ring_letter(letter: str, gettext: Gettext) -> str:
    """A ring's short name on the board, in the page's language (German "w" for Wald, not the English "f")."""
    # Translators: the short names of beach, grass, forest, mountain and crater on the board, in this order,
    # separated by spaces, all different (one or two letters each)
    short = gettext("b g f m c").split()
    if len(short) != 5 or len(set(short)) != 5:
        short = ["b", "g", "f", "m", "c"]
    return dict(zip("bgfmc", short, strict=True)).get(letter, letter)


def field_words(name: str, gettext: Gettext) -> str:
    """A field by name (``g3``) in words: "grass of segment 3"."""
    return gettext("{ring} of segment {segment}").format(ring=ring_name(name[:1], gettext), segment=name[1:])


def card_name(code: str, gettext: Gettext) -> str:
    """A palm card's kind in words."""
    names = {
        "statue": gettext("statue"),
        "priestess": gettext("Lava Priestess"),
        "shell": gettext("shell"),
        "fish1": gettext("1 fish basket"),
        "fish2": gettext("2 fish baskets"),
        "fish4": gettext("4 fish baskets"),
        "fish5": gettext("5 fish baskets"),
        "white-pearl": gettext("white pearl"),
        "black-pearl": gettext("black pearl"),
        "nautilus": gettext("nautilus"),
        "lava": gettext("lava"),
    }
    return names.get(code, code)


def item_name(code: str, gettext: Gettext) -> str:
    """A scoring card (or the board's Lava Priestess) in words."""
    names = {
        "butterflies": gettext("scoring card “butterflies”"),
        "majority": gettext("scoring card “majority”"),
        "segment": gettext("scoring card “segment”"),
        "forest": gettext("scoring card “forest”"),
        "mountain": gettext("scoring card “mountain”"),
        "priestess": gettext("the Lava Priestess of the scoring board"),
    }
    return names.get(code, code)


def action_label(notation: str, gettext: Gettext = identity) -> str:
    """The action ``notation`` in words, e.g. "Place disc 3 on beach 2"."""
    _ = gettext
    words = notation.split()
    verb = words[0] if words else ""
    if verb == "place" and len(words) >= 3:
        text = _("Place disc {value} on beach {segment}")
        if len(words) == 4:
            text = _("Place disc {value} with the lava disc on beach {segment}")
        return text.format(value=words[1], segment=words[2][1:])
    if verb == "take" and len(words) == 3:
        return _("Take disc {value} back from beach {segment}").format(value=words[1], segment=words[2][1:])
    if verb == "move" and len(words) == 2:
        return _("Move the shaman to {field}").format(field=field_words(words[1], _))
    if verb == "card" and len(words) >= 2:
        if len(words) == 3:
            return _("Take the {card} card from bay {bay}").format(card=card_name(words[2], _), bay=words[1])
        return _("Take the card from bay {bay}").format(bay=words[1])
    if verb == "priestess" and len(words) == 3:
        return _("Move a lava chip from crater {source} to crater {target}").format(
            source=words[1][1:], target=words[2][1:]
        )
    if verb == "buy" and len(words) == 2:
        return _("Buy {item}").format(item=item_name(words[1], _))
    fixed = {"boat": _("Move the boat one field"), "stay": _("Leave the shaman where it is"), "pass": _("Pass")}
    return fixed.get(notation.strip(), notation)


def _scoring(e: Mapping[str, Any], _: Gettext) -> str:
    points = ", ".join(f"{seat_name(p, _)} +{n}" for p, n in enumerate(e["points"]))
    total = ", ".join(f"{seat_name(p, _)} {n}" for p, n in enumerate(e["total"]))
    return _("Scoring {number}: {points} (now {total})").format(number=e["number"], points=points, total=total)


def _game_over(e: Mapping[str, Any], _: Gettext) -> str:
    winners = ", ".join(seat_name(w, _) for w in e.get("winners", []))
    scores = ", ".join(f"{seat_name(p, _)} {points}" for p, points in enumerate(e.get("scores", [])))
    return _("Game over. Winner: {winners} ({scores})").format(winners=winners, scores=scores)


def _eruption(e: Mapping[str, Any], _: Gettext) -> str:
    craters = ", ".join(f"{name[1:]}: {count}" for name, count in e["chips"].items())
    return _("The volcano erupts! Lava chips in the craters {craters}").format(craters=craters)


_EVENTS: dict[str, Callable[[Mapping[str, Any], Gettext], str]] = {
    "scoring": _scoring,
    "game-over": _game_over,
    "eruption": _eruption,
    "action": lambda e, _: _("{player}: {action}").format(
        player=seat_name(e["seat"], _), action=action_label(e["notation"], _)
    ),
    "boat": lambda e, _: _("The boat lands at segment {segment}").format(segment=e["segment"]),
    "lava-chip": lambda e, _: _("A lava chip falls into crater {segment}").format(segment=e["crater"][1:]),
    "card": lambda e, _: _("{player} takes the {card} card from bay {bay}").format(
        player=seat_name(e["seat"], _), card=card_name(e["card"], _), bay=e["bay"]
    ),
    "statue": lambda e, _: _("{player} builds a statue on {field}").format(
        player=seat_name(e["seat"], _), field=field_words(e["field"], _)
    ),
    "statue-lost": lambda e, _: _("{player} cannot build a statue on {field}: the statue is lost").format(
        player=seat_name(e["seat"], _), field=field_words(e["field"], _)
    ),
    "lava-shift": lambda e, _: _("The Lava Priestess moves a lava chip from crater {source} to crater {target}").format(
        source=e["from"], target=e["to"]
    ),
    "buy": lambda e, _: _("{player} buys {item}").format(player=seat_name(e["seat"], _), item=item_name(e["item"], _)),
    "draw": lambda e, _: _("A {card} card is laid in bay {bay}").format(card=card_name(e["card"], _), bay=e["bay"]),
    "statue-destroyed": lambda e, _: _("Lava destroys {player}'s statue on {field}").format(
        player=seat_name(e["seat"], _), field=field_words(e["field"], _)
    ),
}


def event_text(event: Mapping[str, Any], gettext: Gettext = identity) -> str:
    """An event view in words, e.g. "Red builds a statue on forest of segment 3"."""
    describe = _EVENTS.get(str(event.get("kind")))
    if describe is None:
        return gettext("Something happened: {kind}").format(kind=event.get("kind"))
    return describe(event, gettext)


def score_breakdown(view: Mapping[str, Any], gettext: Gettext = identity) -> list[list[str]]:
    """Each seat's final score as the two scorings ("Wertung") gave it, read from the categories the rules
    recorded at each scoring (the view's ``scoring_parts``, nothing recomputed here): per scoring its
    points, then its categories ("Punktevergabe": statues by ring as count × points each, more fish
    baskets, pearls, nautilus and shells at scoring 2, the scoring cards the seat held then), and the
    total. Categories that gave nothing are left out, except a scoring card bought (its 0 is worth
    knowing). Empty unless the game reached its end."""
    _ = gettext
    rounds = view.get("round_points") or []
    scorings = view.get("scoring_parts") or []
    if view.get("phase") != "over" or len(rounds) != 2 or len(scorings) != 2:
        return []
    names = {
        "grass-statues": _("statues on grass fields"),
        "forest-statues": _("statues on forest fields"),
        "mountain-statues": _("statues on mountain fields"),
        "fish": _("more fish baskets"),
        "pearls": _("pearls"),
        "nautilus": _("nautilus"),
        "shells": _("shells"),
    }
    headings = (_("scoring 1: {points}"), _("scoring 2: {points}"))
    rows: list[list[str]] = []
    for seat, info in enumerate(view.get("player_info", [])):
        lines: list[str] = []
        for heading, points, parts in zip(headings, rounds, scorings, strict=True):
            lines.append(heading.format(points=points[seat]))
            for category, gained in parts[seat].items():
                if category in names and not gained:
                    continue
                label = names.get(category) or item_name(category, _)
                each = _STATUE_POINTS.get(category)
                if each:  # a count of statues, not their points: both shown ("2 × 2 = 4")
                    line = _("– {category}: {count} × {each} = {points}")
                    lines.append(line.format(category=label, count=gained // each, each=each, points=gained))
                else:
                    lines.append(_("– {category}: {points}").format(category=label, points=gained))
        lines.append(_("total: {points}").format(points=info.get("score", 0)))
        rows.append(lines)
    return rows
