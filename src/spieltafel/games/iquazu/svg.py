"""Iquazú's board as SVG, drawn from a seat's view only (see ``spieltafel.games.svgkit``).

The rock face: 14 board columns × 5 rows (rock strips), each slot in its card colour with the colour's
letter, gems (hexagons in the player's colour with the seat number) and water drops on them; the
water frame over five columns with the price of each; the bonus tiles beside it (face up in the
frame's bonus column, backs elsewhere); the rocks' points under the columns. Below: the draw pile,
the discards, the water box, and one line per player with score, cards (your hand by colour, the
others' as a count), gems left and bonus tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spieltafel.core.kit import plural
from spieltafel.games import svgkit
from spieltafel.games.svgkit import Gettext, Legal, Svg, Targets, View, identity

from .board import COLUMNS, ROWS
from .components import FRAME_COLUMNS, ROCK_POINTS
from .words import action_label, colour_name, seat_name, tile_name

# -- geometry and colours (data) -----------------------------------------------------------------
WIDTH = 800
LEFT = 40
TOP = 86
CW = 52
"""Column width."""
RH = 66
"""Row (rock strip) height."""
ROCK_Y = TOP + ROWS * RH + 6
PANEL_Y = ROCK_Y + 58
LINE_H = 50
SLOT_R = 13
SLOT_PITCH = 32
"""Between the centres of the two slots in one cell."""

CARD_FILL = {"W": "#f4f1e8", "B": "#2f6fd0", "O": "#f08a24"}
GEM_FILL = {"red": "#c0392b", "yellow": "#f4d03f", "purple": "#8e44ad", "green": "#1e8449"}
WATER_FILL = "#5dade2"
TILE_SHORT = {
    "cards2": "+2",
    "cards3": "+3",
    "cards4": "+4",
    "any": "W/B/O",
    "double": "2×",
    "points1": "1★",
    "points2": "2★",
    "points3": "3★",
    "points4": "4★",
    "points5": "5★",
}
USABLE = ("cards2", "cards3", "cards4", "double")


def target_of(notation: str) -> str:
    """The board element that stands for an action."""
    words = notation.split()
    if words[0] == "place":
        return f"slot-{words[1]}"
    if words[0] in ("discard", "bonus"):
        return f"{'card' if words[0] == 'discard' else 'tile'}-{words[1]}"
    return words[0]


def event_targets(event: Mapping[str, Any]) -> list[str]:
    """Target ids an event touched, to highlight the last move (``highlight=``)."""
    kind = event.get("kind")
    if kind in ("place", "water"):
        return [f"slot-{event['slot']}"]
    if kind == "draw":
        return ["draw"]
    return []


def column_x(column: int) -> float:
    """Left edge of a 0-based board column."""
    return LEFT + column * CW


# -- the rock face ---------------------------------------------------------------------------------
def cells(view: View) -> dict[tuple[int, int], list[tuple[str, str, str | None]]]:
    """Slots by (0-based column, 0-based row), top to bottom: (name, colour letter, occupant)."""
    found: dict[tuple[int, int], list[tuple[str, str, str | None]]] = {}
    for name, colour, row, occupant in view["slots"]:
        column = int(name[:-1]) - 1
        found.setdefault((column, row - 1), []).append((name, colour, occupant))
    return found


def draw_slot(svg: Svg, targets: Targets, x: float, y: float, slot: tuple[str, str, str | None], _: Gettext) -> None:
    name, colour, occupant = slot
    what = _("free") if occupant is None else _("water") if occupant == "water" else _("gem")
    label = _("Slot {slot}, {colour}, {what}").format(slot=name, colour=colour_name(colour, _), what=what)
    svg.open(**targets.attrs(f"slot-{name}", label, "slot"))
    svg.title(label)
    svg.circle(x, y, SLOT_R, fill=CARD_FILL[colour], stroke="#3b2f2f", stroke_width=1.5)
    svg.text(x, y, colour, 12, fill=svgkit.ink_on(CARD_FILL[colour]), font_weight="bold")
    svg.text(x - SLOT_R - 5, y, name[-1], 9, fill="#3b2f2f")
    if occupant == "water":
        draw_drop(svg, x, y)
    elif occupant is not None:
        draw_gem(svg, x, y, occupant)
    svg.close()


def draw_gem(svg: Svg, x: float, y: float, colour: str, r: float = SLOT_R + 1) -> None:
    """A player's gem: a hexagon in the colour, with the seat number for colour-blind eyes."""
    seat = list(GEM_FILL).index(colour) if colour in GEM_FILL else 0
    fill = GEM_FILL.get(colour, "#777777")
    svg.polygon(svgkit.gem_shape(x, y, r), fill=fill, stroke="#111111", stroke_width=1.5)
    svg.text(x, y, seat + 1, r * 0.95, fill=svgkit.ink_on(fill), font_weight="bold")


def draw_drop(svg: Svg, x: float, y: float) -> None:
    """A water drop: a tear shape with wavy lines."""
    d = f"M {x} {y - 14} c 4 8 12 14 11 19 a 11 11 0 0 1 -22 0 c -1 -5 7 -11 11 -19 Z"
    svg.path(d, fill=WATER_FILL, stroke="#1b4f72", stroke_width=1.5)
    svg.text(x, y + 3, "≈", 12, fill="#1b4f72", font_weight="bold")


def draw_tile(svg: Svg, x: float, y: float, code: str, _: Gettext, size: float = 20) -> None:
    """A bonus tile: face up with its short sign, or its light or dark back."""
    svg.title(tile_name(code, _))
    if code in ("light", "dark"):
        svg.rect(x, y, size, size, rx=3.0, fill=f"url(#{code}-back)", stroke="#333333", stroke_width=1.0)
        return
    svg.rect(x, y, size, size, rx=3.0, fill="#f7dc6f", stroke="#7d6608", stroke_width=1.5)
    short = TILE_SHORT.get(code, code)
    svg.text(
        x + size / 2, y + size / 2, short, size * (0.3 if len(short) > 3 else 0.5), fill="#111111", font_weight="bold"
    )


def draw_frame(svg: Svg, frame: int, _: Gettext) -> None:
    """The water frame over its five columns, the price above each, the bonus column beside it."""
    first = frame - 1
    bonus = first + FRAME_COLUMNS
    if bonus < COLUMNS:
        svg.rect(column_x(bonus), TOP - 4, CW, ROWS * RH + 8, fill="#fcf3cf", stroke="#b7950b", stroke_width=2.0)
        svg.text(column_x(bonus) + CW / 2, TOP - 44, _("bonus"), 11, fill="#7d6608", font_weight="bold")
    svg.rect(
        column_x(first) - 3,
        TOP - 32,
        FRAME_COLUMNS * CW + 6,
        ROWS * RH + 36,
        rx=8.0,
        fill="none",
        stroke="#1f5f99",
        stroke_width=5.0,
        class_="frame",
    )
    ngettext = plural(_)
    for k in range(FRAME_COLUMNS):
        # the price as a number and a card: "2 Karten" did not fit a column's width in German and Dutch
        price = ngettext("{count} card", "{count} cards", k + 1).format(count=k + 1)
        x = column_x(first + k) + CW / 2
        svg.open(class_="price")
        svg.title(price)
        svg.text(x - 6, TOP - 44, k + 1, 12, fill="#1f5f99", font_weight="bold")
        svg.rect(x + 1, TOP - 52, 10, 14, rx=2.0, fill="#6c5b9b", stroke="#1f5f99", stroke_width=1.0)
        svg.close()


def draw_rock_face(svg: Svg, view: View, targets: Targets, _: Gettext) -> None:
    svg.rect(LEFT, TOP, COLUMNS * CW, ROWS * RH, fill="#a1887f", stroke="#4e342e", stroke_width=2.0)
    for row in range(ROWS):
        y = TOP + row * RH
        svg.rect(
            LEFT, y, COLUMNS * CW, RH, fill="#bcaaa4" if row % 2 else "#a1887f", stroke="#6d4c41", stroke_width=1.0
        )
        svg.text(LEFT - 20, y + RH / 2, row + 1, 14, fill="#333333", font_weight="bold")
    draw_frame(svg, int(view["frame"]), _)
    for column in range(COLUMNS):
        svg.text(column_x(column) + CW / 2, TOP - 16, column + 1, 14, fill="#222222", font_weight="bold")
    for (column, row), slots in cells(view).items():
        x = column_x(column) + 22
        top = TOP + row * RH
        # two slots of a cell SLOT_PITCH apart: on a touch screen each gets a 44 px hit area (docs/play.md)
        middle = top + RH / 2
        ys: list[float] = [middle] if len(slots) == 1 else [middle - SLOT_PITCH / 2, middle + SLOT_PITCH / 2]
        for slot_y, slot in zip(ys, slots, strict=False):
            draw_slot(svg, targets, x, slot_y, slot, _)
    for field, code in enumerate(view["bonus_fields"]):
        if code is not None:
            draw_tile(svg, column_x(field // ROWS + FRAME_COLUMNS) + 31, TOP + (field % ROWS) * RH + 4, code, _)
    scored = int(view["frame"]) - 1
    if scored:
        svg.rect(LEFT, TOP, scored * CW, ROWS * RH, fill="#ffffff", fill_opacity=0.45, class_="scored")


def draw_rocks(svg: Svg, players: int, _: Gettext) -> None:
    """The rocks of the score board: points for most, second and third most gems per column."""
    svg.open(class_="rocks")
    svg.title(_("Rock points: most, second most, third most gems in the column"))
    svg.text(LEFT - 20, ROCK_Y + 20, "★", 16, fill="#555555")
    for column, points in enumerate(ROCK_POINTS[players]):
        x = column_x(column)
        svg.polygon(
            [(x + 4, ROCK_Y + 34), (x + 10, ROCK_Y + 6), (x + 26, ROCK_Y), (x + 44, ROCK_Y + 8), (x + 48, ROCK_Y + 34)],
            fill="#7f8c8d",
            stroke="#34495e",
            stroke_width=1.5,
        )
        svg.text(
            x + CW / 2,
            ROCK_Y + 20,
            "/".join(str(p) for p in points),
            11 if players == 4 else 13,
            fill="#ffffff",
            font_weight="bold",
        )
    svg.close()
    svg.text(
        column_x(len(ROCK_POINTS[players])) + 4, ROCK_Y + 20, _("rock points"), 12, text_anchor="start", fill="#333333"
    )


# -- piles, players and buttons ----------------------------------------------------------------------
def draw_piles(svg: Svg, view: View, targets: Targets, _: Gettext) -> None:
    y = PANEL_Y
    ngettext = plural(_)
    label = ngettext("Draw pile: {count} card", "Draw pile: {count} cards", view["draw_pile"]).format(
        count=view["draw_pile"]
    )
    svg.open(**targets.attrs("draw", label, "pile"))
    svg.title(label)
    for k in range(3):
        svgkit.card_back(svg, 20 + 3 * k, y + 3 * (2 - k), 40, 56)
    svg.text(43, y + 34, view["draw_pile"], 16, fill="#ffffff", font_weight="bold")
    svg.close()
    svg.text(43, y + 72, _("draw"), 12, fill="#333333")
    svg.text(90, y + 10, _("discards"), 12, text_anchor="start", fill="#333333")
    for k, (letter, count) in enumerate(view["discards"].items()):
        svgkit.card(svg, 90 + 34 * k, y + 22, 28, 38, CARD_FILL[letter], letter, 12)
        svg.text(104 + 34 * k, y + 72, count, 12, fill="#333333")
    draw_drop(svg, 215, y + 34)
    svg.text(
        235,
        y + 26,
        ngettext("water box: {count} drop", "water box: {count} drops", view["water_drops"]).format(
            count=view["water_drops"]
        ),
        12,
        text_anchor="start",
        fill="#333333",
    )
    holder = seat_name(view["water_box"], _)
    svg.text(235, y + 44, _("held by {player}").format(player=holder), 12, text_anchor="start", fill="#333333")
    status = status_text(view, _)  # German and Dutch ran past the edge at 14 px
    size = 14 if len(status) <= 40 else 12
    svg.text(420, y + 26, status, size, text_anchor="start", fill="#111111", font_weight="bold")
    svgkit.button(svg, targets, "end", 420, y + 40, 170, _("End the turn"))


def status_text(view: View, _: Gettext) -> str:
    if view["phase"] == "over":
        winners = ", ".join(seat_name(w, _) for w in view["winners"])
        return _("Game over. Winner: {winners}").format(winners=winners)
    player = seat_name(view["gem_box"], _)
    doing = {
        "action": _("{player}: place a gem or draw cards"),
        "end-of-turn": _("{player}: use a bonus tile or end the turn"),
        "discard": _("{player}: discard down to 12 cards"),
    }
    return doing.get(view["phase"], "{player}").format(player=player)


def draw_player(svg: Svg, view: View, info: Mapping[str, Any], targets: Targets, y: float, _: Gettext) -> None:
    seat = info["seat"]
    you = seat == view.get("seat")
    acting = view["phase"] != "over" and seat == view["gem_box"]
    if acting:
        svg.rect(
            8,
            y - 2,
            WIDTH - 16,
            LINE_H - 4,
            rx=8.0,
            fill="#fef9e7",
            stroke="#b7950b",
            stroke_width=2.0,
            class_="to-act",
        )
    draw_gem(svg, 30, y + 22, info["colour"], 15)
    name = seat_name(seat, _) + (" " + _("(you)") if you else "")
    svg.text(54, y + 14, name, 15, text_anchor="start", fill="#111111", font_weight="bold")
    svg.text(54, y + 33, points_text(info["score"], _), 13, text_anchor="start", fill="#333333")
    if you and "hand" in view:
        draw_hand(svg, view["hand"], targets, y, _)
    else:
        svgkit.card_back(svg, 170, y + 4, 28, 38)
        svg.text(184, y + 23, info["cards"], 14, fill="#ffffff", font_weight="bold")
        svg.text(206, y + 23, _("cards"), 12, text_anchor="start", fill="#333333")
    draw_gem(svg, 364, y + 22, info["colour"], 10)
    ngettext = plural(_)
    gems_left = ngettext("{count} gem left", "{count} gems left", info["gems"]).format(count=info["gems"])
    svg.text(379, y + 23, gems_left, 12, text_anchor="start", fill="#333333")
    draw_held_tiles(svg, info["tiles"], targets if you else None, y, _)
    marks = []
    if acting:
        marks.append(_("to act"))
    if seat == view["water_box"]:
        marks.append(_("water box"))
    for line, mark in enumerate(marks):  # one a line: beside the bonus tiles, never over them
        svg.text(WIDTH - 16, y + 14 + 17 * line, mark, 12, text_anchor="end", fill="#1f5f99", font_weight="bold")


def points_text(points: int, _: Gettext) -> str:
    ngettext = plural(_)
    return ngettext("{points} point", "{points} points", points).format(points=points)


def draw_hand(svg: Svg, hand: Mapping[str, int], targets: Targets, y: float, _: Gettext) -> None:
    """Your cards by colour; a card is the target of discarding one of its colour."""
    ngettext = plural(_)
    for k, (letter, count) in enumerate(hand.items()):
        x = 160 + 62 * k
        label = ngettext("{count} {colour} card", "{count} {colour} cards", count).format(
            count=count, colour=colour_name(letter, _)
        )
        svg.open(**targets.attrs(f"card-{letter}", label, "card"))
        svg.title(label)
        svgkit.card(svg, x, y + 4, 28, 38, CARD_FILL[letter], letter, 13)
        svg.close()
        svg.text(x + 33, y + 23, f"×{count}", 13, text_anchor="start", fill="#111111", font_weight="bold")


def draw_held_tiles(svg: Svg, tiles: Mapping[str, int], targets: Targets | None, y: float, _: Gettext) -> None:
    """The bonus tiles a player won, one per kind with its count; yours are targets when usable."""
    for k, (code, count) in enumerate(tiles.items()):
        x = 500 + 40 * k
        svg.open(**(targets.attrs(f"tile-{code}", tile_name(code, _), "tile") if targets else {}))
        draw_tile(svg, x, y + 8, code, _, 28)
        svg.close()
        if count > 1:
            svg.text(x + 30, y + 36, f"×{count}", 11, text_anchor="start", fill="#111111", font_weight="bold")


def render_board(
    view: Mapping[str, Any],
    seat: int | None,
    legal: Legal,
    gettext: Gettext = identity,
    *,
    highlight: Sequence[str] = (),
) -> str:
    """The board as ``seat`` sees it (``view`` is that seat's view); every legal action has a target."""
    _ = gettext
    targets = Targets(legal, target_of, action_label, _, highlight)
    players: list[Mapping[str, Any]] = list(view["player_info"])
    height = PANEL_Y + 96 + LINE_H * len(players) + 40 * len(legal and ["spare"])
    svg = Svg(WIDTH, height, _("Iquazú board"), "iquazu")
    svg.add(svgkit.DEFS)
    svg.rect(0, 0, WIDTH, height, fill="#f5efe6")
    svg.text(LEFT, 18, _("Iquazú — the rock face"), 16, text_anchor="start", fill="#4e342e", font_weight="bold")
    draw_rock_face(svg, view, targets, _)
    draw_rocks(svg, int(view["players"]), _)
    draw_piles(svg, view, targets, _)
    for k, info in enumerate(players):
        draw_player(svg, view, info, targets, PANEL_Y + 92 + k * LINE_H, _)
    svgkit.spare_buttons(svg, targets, 20, PANEL_Y + 92 + LINE_H * len(players), 300)
    return svg.finish()
