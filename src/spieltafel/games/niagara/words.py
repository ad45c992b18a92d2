"""Niagara's actions and events in words, for people (translated through ``gettext``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spieltafel.core.kit import plural
from spieltafel.games.svgkit import Gettext, identity, player_name

from .components import PLAYER_COLOURS


def seat_name(seat: object, gettext: Gettext) -> str:
    if isinstance(seat, int) and 0 <= seat < len(PLAYER_COLOURS):
        return player_name(PLAYER_COLOURS[seat], gettext)
    return gettext("nobody")


def gem_name(colour: str, gettext: Gettext) -> str:
    names = {
        "amethyst": gettext("amethyst"),
        "diamond": gettext("diamond"),
        "amber": gettext("amber"),
        "sapphire": gettext("sapphire"),
        "ruby": gettext("ruby"),
    }
    return names.get(colour, colour)


def a_gem(colour: str, gettext: Gettext) -> str:
    """A gem with its indefinite article ("an amethyst", "a ruby"; German in the accusative)."""
    names = {
        "amethyst": gettext("an amethyst"),
        "diamond": gettext("a diamond"),
        "amber": gettext("an amber"),
        "sapphire": gettext("a sapphire"),
        "ruby": gettext("a ruby"),
    }
    return names.get(colour, colour)


def card_words(card: str, gettext: Gettext) -> str:
    """A paddle card: its value, or the cloud."""
    return gettext("the cloud") if card == "cloud" else card


def space_words(space: str, gettext: Gettext) -> str:
    """A river space ("3", "6L", "shore", "falls") in words."""
    names = {"shore": gettext("the shore"), "falls": gettext("below the falls")}
    if space in names:
        return names[space]
    if space.endswith("L"):
        return gettext("space {n} of the left arm").format(n=space[:-1])
    if space.endswith("R"):
        return gettext("space {n} of the right arm").format(n=space[:-1])
    return gettext("space {n}").format(n=space)


def gesture_label(notation: str, gettext: Gettext = identity) -> str:
    """A canoe's move in one gesture (gestures.py), e.g. "a to 4; load diamond at 3" in words: "Canoe a to
    space 4 (load a diamond at space 3)"."""
    _ = gettext
    head, *gems = notation.split("; ")
    canoe, _to, space = head.split(" ")
    if space == "shore":
        text = _("Canoe {canoe} back to the shore").format(canoe=canoe)
    else:
        text = _("Canoe {canoe} to {space}").format(canoe=canoe, space=space_words(space, _))
    done = []
    for gem in gems:
        words = gem.split(" ")
        where = space_words(words[-1], _)
        if words[0] == "load":
            done.append(_("load {a_gem} at {space}").format(a_gem=a_gem(words[1], _), space=where))
        else:
            done.append(_("unload the gem at {space}").format(space=where))
    return f"{text} ({', '.join(done)})" if done else text


def _step(canoe: str, words: list[str], _: Gettext) -> str:
    steps = {
        "up": _("Canoe {canoe}: one step upstream"),
        "down": _("Canoe {canoe}: one step downstream"),
        "down left": _("Canoe {canoe}: one step downstream into the left arm"),
        "down right": _("Canoe {canoe}: one step downstream into the right arm"),
        "unload": _("Canoe {canoe}: unload the gem into the cave"),
    }
    key = " ".join(words)
    if words[:1] == ["load"] and len(words) == 2:
        return _("Canoe {canoe}: load {a_gem} from the cave").format(canoe=canoe, a_gem=a_gem(words[1], _))
    return steps.get(key, key).format(canoe=canoe)


def action_label(notation: str, gettext: Gettext = identity) -> str:
    """The action ``notation`` in words, e.g. "Play paddle card 4"."""
    _ = gettext
    words = notation.split()
    verb = words[0] if words else ""
    if verb == "play" and len(words) == 2:
        if words[1] == "cloud":
            return _("Play the cloud card")
        return _("Play paddle card {card}").format(card=words[1])
    if verb == "buy" and len(words) == 2:
        return _("Buy the canoe back with {a_gem}").format(a_gem=a_gem(words[1], _))
    if verb in ("a", "b") and len(words) >= 2:
        return _step(verb, words[1:], _)
    if verb == "steal" and len(words) == 2:
        victim = words[1]
        return _("Steal the gem from {player}'s canoe {canoe}").format(
            player=seat_name(int(victim[:-1]), _) if victim[:-1].isdigit() else victim, canoe=victim[-1:]
        )
    fixed = {
        "cloud up": _("Move the cloud up: the river flows faster"),
        "cloud down": _("Move the cloud down: the river flows slower"),
        "leave": _("Leave the canoe below the falls"),
        "pass": _("Do not steal"),
        "done": _("End the turn"),
    }
    return fixed.get(" ".join(words), notation)


def _choose(e: Mapping[str, Any], _: Gettext) -> str:
    text = _("{player} has chosen a paddle card").format(player=seat_name(e["seat"], _))
    if e.get("card") is not None:
        text += " (" + card_words(str(e["card"]), _) + ")"
    return text


def _rescue(e: Mapping[str, Any], _: Gettext) -> str:
    player = seat_name(e["seat"], _)
    if e.get("paid") is None:
        return _("{player} gets canoe {canoe} back to the shore for free").format(player=player, canoe=e["canoe"])
    return _("{player} buys canoe {canoe} back with {a_gem}").format(
        player=player, canoe=e["canoe"], a_gem=a_gem(e["paid"], _)
    )


def _falls(e: Mapping[str, Any], _: Gettext) -> str:
    text = _("{player}'s canoe {canoe} goes over the falls!").format(player=seat_name(e["seat"], _), canoe=e["canoe"])
    if e.get("gem"):
        text += " " + _("The {gem} returns to its cave.").format(gem=gem_name(e["gem"], _))
    return text


def _paddle(e: Mapping[str, Any], _: Gettext) -> str:
    player, canoe = seat_name(e["seat"], _), e["canoe"]
    if e["to"] == "shore":
        return _("{player}'s canoe {canoe} paddles back to the shore").format(player=player, canoe=canoe)
    if e["to"] == "falls":
        return _("{player}'s canoe {canoe} paddles below the falls").format(player=player, canoe=canoe)
    space = space_words(e["to"], _)
    return _("{player}'s canoe {canoe} paddles to {space}").format(player=player, canoe=canoe, space=space)


def _flow(e: Mapping[str, Any], _: Gettext) -> str:
    ngettext, discs = plural(_), e["discs"]
    return ngettext("The river flows: {discs} disc", "The river flows: {discs} discs", discs).format(discs=discs)


def _game_over(e: Mapping[str, Any], _: Gettext) -> str:
    winners = ", ".join(seat_name(w, _) for w in e.get("winners", []))
    gems = ", ".join(f"{seat_name(p, _)} {n}" for p, n in enumerate(e.get("banked", [])))
    return _("Game over. Winner: {winners} (gems: {gems})").format(winners=winners, gems=gems)


_EVENTS: dict[str, Callable[[Mapping[str, Any], Gettext], str]] = {
    "choose": _choose,
    "rescue": _rescue,
    "falls": _falls,
    "game-over": _game_over,
    "reveal": lambda e, _: _("{player} reveals {card}").format(
        player=seat_name(e["seat"], _),
        card=_("the cloud card") if e["card"] == "cloud" else _("paddle card {card}").format(card=e["card"]),
    ),
    "leave": lambda e, _: _("{player} leaves the canoe below the falls").format(player=seat_name(e["seat"], _)),
    "weather": lambda e, _: _("{player} moves the cloud: the weather is now {weather}").format(
        player=seat_name(e["seat"], _), weather=f"{e['weather']:+d}"
    ),
    "paddle": _paddle,
    "load": lambda e, _: _("{player}'s canoe {canoe} loads {a_gem}").format(
        player=seat_name(e["seat"], _), canoe=e["canoe"], a_gem=a_gem(e["gem"], _)
    ),
    "unload": lambda e, _: _("{player}'s canoe {canoe} unloads {a_gem}").format(
        player=seat_name(e["seat"], _), canoe=e["canoe"], a_gem=a_gem(e["gem"], _)
    ),
    "bank": lambda e, _: _("{player} banks {a_gem}").format(player=seat_name(e["seat"], _), a_gem=a_gem(e["gem"], _)),
    "steal": lambda e, _: _("{player}'s canoe {canoe} steals {a_gem} from {victim}'s canoe {victim_canoe}").format(
        player=seat_name(e["seat"], _),
        canoe=e["canoe"],
        a_gem=a_gem(e["gem"], _),
        victim=seat_name(e["victim"], _),
        victim_canoe=e["victim_canoe"],
    ),
    "ring": lambda e, _: _("Round {round}: {player} has the life ring and starts").format(
        player=seat_name(e["seat"], _), round=e["round"]
    ),
    "cards-back": lambda e, _: _("{player} takes all seven paddle cards back").format(player=seat_name(e["seat"], _)),
    "flow": _flow,
    "push": lambda e, _: _("Disc {disc} enters at the rope; the {arm} arm moves on").format(
        disc=e["disc"], arm=_("left") if e["arm"] == "left" else _("right")
    ),
}


def event_text(event: Mapping[str, Any], gettext: Gettext = identity) -> str:
    """An event view in words, e.g. "Red's canoe a paddles to space 3"."""
    describe = _EVENTS.get(str(event.get("kind")))
    if describe is None:
        return gettext("Something happened: {kind}").format(kind=event.get("kind"))
    return describe(event, gettext)


def score_breakdown(view: Mapping[str, Any], gettext: Gettext = identity) -> list[list[str]]:
    """Each seat's final score in the game's own terms: the gems it banked, which are its points (the
    result's "Points" column), by colour; their value (amethyst 1 … ruby 5: it decides among those who met
    a goal when the round is finished, and between the leaders at the round limit); the goals of
    "Spielende" it met (one gem of each colour, four of one colour, seven in all). Value and goals are the
    rules' own (the view's ``gem_value`` and ``goals``), not recomputed here."""
    _ = gettext
    goal_words = {
        "each-colour": _("goal: one gem of each colour"),
        "same-colour": _("goal: four gems of one colour"),
        "seven": _("goal: seven gems"),
    }
    rows: list[list[str]] = []
    for info in view.get("player_info", []):
        banked: Mapping[str, int] = info.get("banked", {})
        gems = [_("{count} × {gem}").format(count=n, gem=gem_name(colour, _)) for colour, n in banked.items() if n]
        lines = [_("gems banked: {count}").format(count=int(info["gems"]))]
        if gems:
            lines.append(", ".join(gems))
        lines.append(_("gem value: {value}").format(value=int(info["gem_value"])))
        goals = [goal_words[goal] for goal in info["goals"] if goal in goal_words]
        lines += goals or [_("no goal reached")]
        rows.append(lines)
    return rows
