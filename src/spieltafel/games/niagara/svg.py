"""Niagara's board as SVG, drawn from a seat's view only (see ``spieltafel.games.svgkit``).

The river from the shore and the rope (top) down over spaces 1–5 with their discs, the fork, the left
and right arms (6L 7L, 6R 7R) and the falls (bottom); the caves beside spaces 3–5 and, between the
arms, the sapphire and ruby caves that both arms reach; canoes in the owner's colour with the seat
number and canoe letter, carrying their gem (colour, shape and letter). On the right: the weather
track with the cloud, the discs beside the river, and per player the paddle cards not yet played
(yours face up, the others' face down, a raised card once they have chosen), the banked gems and the
life ring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spieltafel.core.kit import plural
from spieltafel.games import svgkit
from spieltafel.games.svgkit import Gettext, Legal, Svg, Targets, View, identity

from .components import GEM_COLOURS, WEATHER_MAX, WEATHER_MIN
from .words import action_label, gem_name, gesture_label, seat_name

# -- geometry and colours (data) -----------------------------------------------------------------
WIDTH = 830
RIVER_X, RIVER_W = 20.0, 330.0
SPACE_H = 64.0
SHORE_Y = 56.0
SPACE_Y = {str(n): SHORE_Y + 60 + (n - 1) * SPACE_H for n in range(1, 6)}
ARM_Y = SHORE_Y + 60 + 5 * SPACE_H + 34
SPACE_Y |= {"6L": ARM_Y, "7L": ARM_Y + SPACE_H, "6R": ARM_Y, "7R": ARM_Y + SPACE_H}
FALLS_Y = ARM_Y + 2 * SPACE_H + 8
ARM_X = {"L": (RIVER_X, 180.0), "R": (RIVER_X + 330.0, 180.0)}
"""Left edge and width of each arm; the shared caves lie between them."""
CAVE_BOX = {"amethyst": "3", "diamond": "4", "amber": "5", "sapphire": "6", "ruby": "7"}
PANEL_X = 540.0
PLAYER_H = 112.0
PADDLE_PITCH = 34.0
"""Between paddle cards in a row: 44 px or more on a touch screen (docs/play.md)."""

CANOE_FILL = {"red": "#c0392b", "yellow": "#f4d03f", "green": "#1e8449", "blue": "#2f6fd0", "white": "#fdfefe"}
GEM_FILL = {"amethyst": "#9b59b6", "diamond": "#e8f6f8", "amber": "#f39c12", "sapphire": "#1f5f99", "ruby": "#e6194b"}
GEM_LETTER = {"amethyst": "A", "diamond": "D", "amber": "Y", "sapphire": "S", "ruby": "R"}
GEM_SIDES = {"amethyst": 6, "diamond": 4, "amber": 8, "sapphire": 5, "ruby": 3}
"""Each gem colour has its own shape (polygon sides) and letter, so colour is never the only cue."""
WATER_FILL = "#85c1e9"

Mark = tuple[str, str, list[tuple[int, str]]]
"""A destination on the river: canoe letter, space name, the gestures there as (index, label)."""


def gem_points(colour: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    sides = GEM_SIDES[colour]
    return [svgkit.polar(x, y, r, -90 + 360 * k / sides) for k in range(sides)]


def canoe_id(seat: int, letter: str) -> str:
    return f"canoe-{seat}{letter}"


def target_maker(view: View, seat: int | None) -> Callable[[str], str]:
    """Notation → the id of the element that stands for it."""
    fallen = ""
    if seat is not None:
        fallen = next((c["canoe"] for c in view["player_info"][seat]["canoes"] if c["space"] == "falls"), "")

    def target_of(notation: str) -> str:
        words = notation.split()
        verb = words[0]
        if verb == "play":
            return f"card-{words[1]}"
        if verb in ("a", "b"):
            return canoe_id(seat or 0, verb)
        if verb == "steal":
            return f"canoe-{words[1]}"
        if verb == "buy":
            return canoe_id(seat or 0, fallen)
        if verb == "cloud":
            return f"cloud-{words[1]}"
        return verb

    return target_of


def event_targets(event: Mapping[str, Any]) -> list[str]:
    """Target ids an event touched, to highlight the last move (``highlight=``)."""
    kind = event.get("kind")
    if kind in ("paddle", "load", "unload", "steal", "rescue", "falls"):
        return [canoe_id(int(event["seat"]), str(event["canoe"]))]
    if kind == "weather":
        return ["weather"]
    return []


# -- the river -------------------------------------------------------------------------------------
def canoes_on(view: View) -> dict[str, list[tuple[int, str, str | None]]]:
    """Canoes by space name: (seat, canoe letter, gem carried)."""
    found: dict[str, list[tuple[int, str, str | None]]] = {}
    for info in view["player_info"]:
        for canoe in info["canoes"]:
            found.setdefault(canoe["space"], []).append((info["seat"], canoe["canoe"], canoe["gem"]))
    return found


def draw_canoe(
    svg: Svg, view: View, targets: Targets, x: float, y: float, canoe: tuple[int, str, str | None], _: Gettext
) -> None:
    seat, letter, gem = canoe
    info = view["player_info"][seat]
    fill = CANOE_FILL[info["colour"]]
    name = _("{player}'s canoe {canoe}").format(player=seat_name(seat, _), canoe=letter)
    if gem:
        name += ", " + gem_name(gem, _)
    svg.open(**targets.attrs(canoe_id(seat, letter), name, "canoe"))
    svg.title(name)
    svg.path(
        f"M {x - 28} {y} Q {x} {y - 17} {x + 28} {y} Q {x} {y + 17} {x - 28} {y} Z",
        fill=fill,
        stroke="#111111",
        stroke_width=1.5,
    )
    svg.text(x - 8 if gem else x, y, f"{seat + 1}{letter}", 12, fill=svgkit.ink_on(fill), font_weight="bold")
    if gem:
        draw_gem(svg, x + 14, y, gem, 8, _)
    svg.close()


def draw_gem(svg: Svg, x: float, y: float, colour: str, r: float, _: Gettext = identity) -> None:
    fill = GEM_FILL[colour]
    svg.polygon(gem_points(colour, x, y, r), fill=fill, stroke="#111111", stroke_width=1.0)
    ink = "#ffffff" if colour in ("amethyst", "sapphire") else "#111111"
    letter = gem_letter(colour, _)
    svg.text(x, y + (r * 0.15 if GEM_SIDES[colour] == 3 else 0), letter, r * 1.05, fill=ink, font_weight="bold")


def gem_letter(colour: str, gettext: Gettext) -> str:
    """A gem's letter in the page's language (German and Dutch amber is B, not the English Y of yellow)."""
    # Translators: one letter each for amethyst, diamond, amber, sapphire and ruby, in this order, all different
    letters = gettext("A D Y S R").split()
    if len(letters) != len(GEM_LETTER) or len(set(letters)) != len(letters):
        return GEM_LETTER[colour]
    return dict(zip(GEM_LETTER, letters, strict=True))[colour]


def draw_canoes(
    svg: Svg,
    view: View,
    targets: Targets,
    canoes: Sequence[tuple[int, str, str | None]],
    x: float,
    y: float,
    per_row: int,
    _: Gettext,
    marks: Sequence[Mark] = (),
) -> None:
    for k, canoe in enumerate(canoes):
        row, col = divmod(k, per_row)
        draw_canoe(svg, view, targets, x + 30 + 60 * col, y + 16 + 30 * row, canoe, _)
    for k, mark in enumerate(marks, len(canoes)):
        row, col = divmod(k, per_row)
        draw_destination(svg, view, x + 30 + 60 * col, y + 16 + 30 * row, mark, _)


def draw_destination(svg: Svg, view: View, x: float, y: float, mark: Mark, _: Gettext) -> None:
    """A canoe's destination (gestures.py): a dashed ghost canoe with its letter; one click paddles it here
    (the steps behind it, loads and unloads on the way included; alternatives open the chooser)."""
    letter, space, gestures = mark
    seat = view.get("seat")
    fill = CANOE_FILL[view["player_info"][seat]["colour"]] if isinstance(seat, int) else "#ffffff"
    name = gesture_label(f"{letter} to {space}", _)
    attrs: dict[str, object] = {
        "class_": "target destination", "tabindex": "0", "role": "button",
        "data_gestures": " ".join(str(index) for index, _label in gestures),
        "data_target": f"dest-{letter}-{space}",
    }
    if len(gestures) == 1:
        attrs["aria_label"] = gestures[0][1]
    else:
        attrs["aria_label"] = svgkit.choices_label(name, len(gestures), _)
    svg.open(**attrs)
    svg.title(str(attrs["aria_label"]))
    svg.path(
        f"M {x - 24} {y} Q {x} {y - 14} {x + 24} {y} Q {x} {y + 14} {x - 24} {y} Z",
        fill="#ffffff", fill_opacity=0.75, stroke=fill if fill != "#fdfefe" else "#111111", stroke_width=2.5,
        stroke_dasharray="5 3",
    )
    svg.text(x, y, "→" + letter, 12, fill="#111111", font_weight="bold")
    svg.close()


def draw_space(
    svg: Svg, view: View, targets: Targets, space: Mapping[str, Any], canoes: list[Any], _: Gettext,
    marks: Sequence[Mark] = (),
) -> None:
    name = space["space"]
    y = SPACE_Y[name]
    x, w = (RIVER_X, RIVER_W) if name[-1].isdigit() else ARM_X[name[-1]]
    svg.rect(x, y, w, SPACE_H, fill=WATER_FILL, stroke="#1f618d", stroke_width=1.0)
    svg.circle(x + 22, y + SPACE_H / 2, 17, fill="#d6eaf8", stroke="#1b4f72", stroke_width=1.5)
    # the space's number large (the log says "paddles to space 3"), the river disc's own number small
    svg.text(x + 22, y + SPACE_H / 2, name, 15, fill="#1b4f72", font_weight="bold")
    disc = _("disc {disc}").format(disc=space["disc"])
    svg.text(x + w - 5, y + SPACE_H - 6, disc, 9, text_anchor="end", fill="#1b4f72", font_style="italic")
    draw_canoes(svg, view, targets, canoes, x + 38, y + 1, 4 if w > 200 else 2, _, marks)


def draw_cave(svg: Svg, view: View, colour: str, _: Gettext) -> None:
    """A cave with the gems in it (any colour may lie in any cave once unloaded)."""
    space = CAVE_BOX[colour]
    if space in "345":
        x, y, w, h = RIVER_X + RIVER_W + 8, SPACE_Y[space] + 4, 150.0, SPACE_H - 8
    else:
        x, y, w, h = ARM_X["L"][0] + ARM_X["L"][1] + 6, SPACE_Y[space + "L"] + 4, 138.0, SPACE_H - 8
    label = _("{gem} cave").format(gem=gem_name(colour, _))
    svg.open(class_="cave")
    svg.title(label)
    svg.rect(x, y, w, h, rx=10.0, fill="#6e5a4b", stroke="#3e2723", stroke_width=1.5)
    svg.text(x + 8, y + 11, label, 10, text_anchor="start", fill="#ffffff")
    k = 0
    for gem, count in view["caves"][colour].items():
        if count:
            draw_gem(svg, x + 16 + 34 * k, y + 34, gem, 9, _)
            svg.text(x + 28 + 34 * k, y + 36, count, 11, text_anchor="start", fill="#ffffff", font_weight="bold")
            k += 1
    svg.close()


def draw_shore(
    svg: Svg, view: View, targets: Targets, canoes: list[Any], _: Gettext, marks: Sequence[Mark] = ()
) -> None:
    svg.rect(RIVER_X, SHORE_Y, RIVER_W, 56, fill="#e8d8a8", stroke="#8d6e63", stroke_width=1.5)
    svg.text(
        RIVER_X + RIVER_W + 8, SHORE_Y + 22, _("shore"), 12, text_anchor="start", fill="#5d4037", font_weight="bold"
    )
    draw_canoes(svg, view, targets, canoes, RIVER_X + 8, SHORE_Y, 5, _, marks)
    svg.line(
        RIVER_X,
        SHORE_Y + 56,
        RIVER_X + RIVER_W,
        SHORE_Y + 56,
        stroke="#6d4c41",
        stroke_width=4.0,
        stroke_dasharray="10 4",
    )
    svg.text(RIVER_X + RIVER_W + 8, SHORE_Y + 56, _("the rope"), 11, text_anchor="start", fill="#5d4037")


def draw_fork(svg: Svg, view: View, _: Gettext) -> None:
    y = ARM_Y - 34
    svg.rect(RIVER_X, y, ARM_X["R"][0] + ARM_X["R"][1] - RIVER_X, 34, fill="#aed6f1")
    svg.text(ARM_X["L"][0] + ARM_X["L"][1] + 75, y + 17, _("fork"), 12, fill="#1b4f72", font_style="italic")
    arm = "L" if view["next_arm"] == "left" else "R"
    x = ARM_X[arm][0] + ARM_X[arm][1] / 2
    svg.polygon([(x - 10, y + 8), (x + 10, y + 8), (x, y + 28)], fill="#1b4f72")
    if arm == "L":
        svg.text(x + 16, y + 17, _("next disc"), 11, text_anchor="start", fill="#1b4f72")
    else:  # left of the arrow: to its right the label ran into the players' panel
        svg.text(x - 16, y + 17, _("next disc"), 11, text_anchor="end", fill="#1b4f72")


def draw_falls(
    svg: Svg, view: View, targets: Targets, canoes: list[Any], _: Gettext, marks: Sequence[Mark] = ()
) -> None:
    y = FALLS_Y
    width = ARM_X["R"][0] + ARM_X["R"][1] - RIVER_X
    svg.rect(RIVER_X, y, width, 70, fill="url(#falls)", stroke="#1b4f72", stroke_width=1.5)
    svg.text(RIVER_X + 8, y + 12, _("below the falls"), 12, text_anchor="start", fill="#0b2e4a", font_weight="bold")
    draw_canoes(svg, view, targets, canoes, RIVER_X + 10, y + 18, 8, _, marks)
    aside = " ".join(str(d) for d in view["aside"])
    svg.text(
        RIVER_X + width,
        y + 84,
        _("discs beside the river: {discs}").format(discs=aside),
        11,
        text_anchor="end",
        fill="#333333",
    )


def destinations(gestures: Sequence[tuple[int, str, str]]) -> dict[str, list[Mark]]:
    """The gestures' targets (``dest-<canoe>-<space>``) by space: (canoe letter, space, [(index, label)])."""
    found: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for index, target, label in gestures:
        parts = target.split("-")
        if len(parts) != 3 or parts[0] != "dest":
            continue
        found.setdefault(parts[2], {}).setdefault(parts[1], []).append((index, label))
    return {space: [(letter, space, items) for letter, items in sorted(by.items())] for space, by in found.items()}


def draw_river(
    svg: Svg, view: View, targets: Targets, _: Gettext, gestures: Sequence[tuple[int, str, str]] = ()
) -> None:
    canoes = canoes_on(view)
    marks = destinations(gestures)
    draw_shore(svg, view, targets, canoes.get("shore", []), _, marks.get("shore", []))
    for space in view["river"]:
        draw_space(svg, view, targets, space, canoes.get(space["space"], []), _, marks.get(space["space"], []))
    draw_fork(svg, view, _)
    for colour in GEM_COLOURS:
        draw_cave(svg, view, colour, _)
    draw_falls(svg, view, targets, canoes.get("falls", []), _, marks.get("falls", []))


# -- weather, cards and players ------------------------------------------------------------------------
def draw_weather(svg: Svg, view: View, targets: Targets, _: Gettext) -> None:
    x, y = PANEL_X, 40.0
    svg.text(x, y, _("weather"), 12, text_anchor="start", fill="#333333", font_weight="bold")
    svg.open(**targets.attrs("weather", _("weather"), "weather"))
    for k, value in enumerate(range(WEATHER_MIN, WEATHER_MAX + 1)):
        cx = x + 66 + 36 * k
        here = value == view["weather"]
        svg.rect(
            cx - 16,
            y + 12,
            32,
            30,
            rx=4.0,
            fill="#d6eaf8" if not here else "#5d6d7e",
            stroke="#1b4f72",
            stroke_width=1.5,
        )
        svg.text(cx, y + 27, f"{value:+d}", 13, fill="#ffffff" if here else "#1b4f72", font_weight="bold")
    svg.close()
    for word, dx in (("down", 24), ("up", 66 + 36 * (WEATHER_MAX - WEATHER_MIN) + 42)):
        target = f"cloud-{word}"
        if targets.has(target):
            svg.open(**targets.attrs(target, action_label(f"cloud {word}", _), "button"))
            svg.rect(x + dx - 20, y + 12, 40, 30, rx=6.0, fill="#2d3e50", stroke="#0f1a24", stroke_width=1.5)
            svg.text(x + dx, y + 27, "−" if word == "down" else "+", 18, fill="#ffffff", font_weight="bold")
            svg.close()


def draw_player(svg: Svg, view: View, info: Mapping[str, Any], targets: Targets, y: float, _: Gettext) -> None:
    seat = info["seat"]
    x = PANEL_X - 10
    acting = view["phase"] != "over" and seat in view["to_act"]
    svg.rect(
        x,
        y,
        WIDTH - x - 6,
        PLAYER_H - 6,
        rx=8.0,
        fill="#fef9e7" if acting else "#f4f6f7",
        stroke="#b7950b" if acting else "#aab7b8",
        stroke_width=2.0 if acting else 1.0,
        class_="to-act" if acting else None,
    )
    fill = CANOE_FILL[info["colour"]]
    svgkit.player_badge(svg, x + 20, y + 20, 12, fill, str(seat + 1))
    name = seat_name(seat, _) + (" " + _("(you)") if seat == view.get("seat") else "")
    svg.text(x + 38, y + 20, name, 14, text_anchor="start", fill="#111111", font_weight="bold")
    if seat == view["life_ring"]:
        svg.open(class_="life-ring")
        svg.title(_("life ring: starts the round"))
        svg.circle(WIDTH - 30, y + 20, 11, fill="#ffffff", stroke="#e74c3c", stroke_width=6.0, stroke_dasharray="8 4.3")
        svg.close()
    draw_paddles(svg, view, info, targets, x + 10, y + 36, _)
    draw_banked(svg, info, x + 10, y + 90, _)


def draw_paddles(
    svg: Svg, view: View, info: Mapping[str, Any], targets: Targets, x: float, y: float, _: Gettext
) -> None:
    """Yours face up (the targets of choosing), the others' face down; the chosen card raised."""
    mine = info["seat"] == view.get("seat") and "hand" in view
    hand = list(view["hand"]) if mine else []
    hidden_choice = info["committed"] and info["card"] is None
    backs = len(info["unplayed"]) - (1 if hidden_choice and not mine else 0)
    k = 0
    for card in hand:
        svg.open(**targets.attrs(f"card-{card}", action_label(f"play {card}", _), "paddle"))
        draw_paddle(svg, x + PADDLE_PITCH * k, y, card)
        svg.close()
        k += 1
    for _back in range(0 if mine else backs):
        svgkit.card_back(svg, x + PADDLE_PITCH * k, y, 24, 34)
        k += 1
    cx = x + PADDLE_PITCH * k + 14
    if info["card"] is not None:
        draw_paddle(svg, cx, y - 6, info["card"])
        note(svg, y, _("played"))
    elif mine and view.get("choice") is not None:
        draw_paddle(svg, cx, y - 6, view["choice"])
        note(svg, y, _("chosen"), "#1e8449")
    elif hidden_choice:
        svgkit.card_back(svg, cx, y - 6, 24, 34)
        note(svg, y, _("has chosen"), "#1e8449")
    elif view["phase"] == "secret":
        note(svg, y, _("choosing…"), "#7f8c8d")


def note(svg: Svg, y: float, text: str, fill: str = "#333333") -> None:
    """A word about the player's card, on the name line (``y`` is the card row's), left of the life ring."""
    svg.text(WIDTH - 50, y - 16, text, 11, text_anchor="end", fill=fill, font_weight="bold", class_="note")


def draw_paddle(svg: Svg, x: float, y: float, card: str) -> None:
    """A paddle card: its value, or a cloud sign."""
    svgkit.card(svg, x, y, 24, 34, "#fdfefe", "☁" if card == "cloud" else card, 14)


def draw_banked(svg: Svg, info: Mapping[str, Any], x: float, y: float, _: Gettext) -> None:
    svg.text(x, y, _("banked: {count}").format(count=info["gems"]), 11, text_anchor="start", fill="#333333")
    k = 0
    for gem, count in info["banked"].items():
        if count:
            svg.open(class_="banked")
            svg.title(f"{gem_name(gem, _)} ×{count}")
            draw_gem(svg, x + 84 + 32 * k, y, gem, 8, _)
            svg.text(x + 94 + 32 * k, y + 1, f"×{count}", 10, text_anchor="start", fill="#111111")
            svg.close()
            k += 1


def status_text(view: View, _: Gettext) -> str:
    if view["phase"] == "over":
        winners = ", ".join(seat_name(w, _) for w in view["winners"])
        return _("Game over. Winner: {winners}").format(winners=winners)
    if view["phase"] == "secret":
        return _("Round {round}: everybody chooses a paddle card").format(round=view["round"])
    turn = view.get("turn") or {}
    player = seat_name(view["to_act"][0] if view["to_act"] else turn.get("seat"), _)
    doing = {
        "buy-back": _("{player}: buy a canoe back from below the falls?"),
        "weather": _("{player}: move the cloud"),
        "move": _("{player}: move the canoes"),
        "theft": _("{player}: steal a gem?"),
    }
    text = doing.get(view["phase"], "{player}").format(player=player)
    if turn.get("points") is not None:
        ngettext, points = plural(_), turn["points"]
        text += " " + ngettext("({points} point left)", "({points} points left)", points).format(points=points)
    return text


def render_board(
    view: Mapping[str, Any],
    seat: int | None,
    legal: Legal,
    gettext: Gettext = identity,
    *,
    highlight: Sequence[str] = (),
    gestures: Sequence[tuple[int, str, str]] = (),
) -> str:
    """The board as ``seat`` sees it (``view`` is that seat's view); every legal action has a target, and
    every gesture ``(index, target, label)`` (the state message's ``gestures``) a destination on the river."""
    _ = gettext
    targets = Targets(legal, target_maker(view, seat), action_label, _, highlight)
    players = list(view["player_info"])
    height = max(FALLS_Y + 130, 110 + PLAYER_H * len(players) + 40)
    svg = Svg(WIDTH, height, _("Niagara board"), "niagara")
    svg.add(
        svgkit.DEFS.replace(
            "</defs>",
            '<pattern id="falls" width="12" height="12" patternUnits="userSpaceOnUse">'
            '<rect width="12" height="12" fill="#aed6f1"/><path d="M0 0 L0 12 M6 0 L6 12" stroke="#ffffff" '
            'stroke-width="3"/></pattern></defs>',
        )
    )
    svg.rect(0, 0, WIDTH, height, fill="#f2f7f2")
    svg.text(RIVER_X, 20, _("Niagara — the river"), 16, text_anchor="start", fill="#0b2e4a", font_weight="bold")
    svg.text(RIVER_X, 40, status_text(view, _), 13, text_anchor="start", fill="#111111", font_weight="bold")
    draw_river(svg, view, targets, _, gestures)
    draw_weather(svg, view, targets, _)
    for k, info in enumerate(players):
        draw_player(svg, view, info, targets, 100 + k * PLAYER_H, _)
    y = FALLS_Y + 92
    for target, text in (("done", _("End the turn")), ("pass", _("Do not steal")), ("leave", _("Leave it"))):
        if targets.has(target):
            svgkit.button(svg, targets, target, RIVER_X, y, 200, text)
            y += 40
    svgkit.spare_buttons(svg, targets, RIVER_X + 220, FALLS_Y + 92, 200)
    return svg.finish()
