"""Haleakala's board as SVG, drawn from a seat's view only (see ``spieltafel.games.svgkit``).

The island seen from above: six segments clockwise (1 at the top), each from the sea inwards: water
(the boat, the two card bays), beach (both players' number discs and their sums), grass, forest,
mountain (statues and shamans, each field named as in the notation, e.g. ``g3``) and crater (lava
chips). Below: whose turn, each player's score, discs in the supply, statues, cards and shells; the
scoring board with its cards for sale; the three palm decks as counts; the lava chips beside the board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spieltafel.core.kit import plural
from spieltafel.games import svgkit
from spieltafel.games.svgkit import Gettext, Legal, Svg, Targets, View, identity, polar

from .components import HUTS, JETTY, RING_LETTERS, SCORING_CARDS, SEGMENTS
from .words import action_label, card_name, field_words, item_name, ring_letter, ring_name, seat_name

# -- geometry and colours (data) -----------------------------------------------------------------
WIDTH = 760
CX, CY = 380.0, 436.0
WATER = (292.0, 372.0)
RADII = {"b": (236.0, 292.0), "g": (184.0, 236.0), "f": (132.0, 184.0), "m": (80.0, 132.0), "c": (38.0, 80.0)}
"""Inner and outer radius of each ring, by the ring's letter in field names."""
TERRAIN_FILL = {"b": "#f3e0a6", "g": "#a9d18e", "f": "#4f9a55", "m": "#b0a89e", "c": "#7b4b3a"}
PLAYER_FILL = ("#c0392b", "#f4d03f")
PANEL_Y = 838.0
MIN_FONT = 9.5
"""The smallest letters: 11 px or more where the board is drawn 880 px wide (docs/play.md)."""
DISC_RADII = (250.0, 272.0)
"""The two rows of number discs on a beach, far enough apart for a finger (docs/play.md)."""
LINE_H = 62.0
CARD_FILL = {
    "statue": "#d5dbdb",
    "priestess": "#f5b7b1",
    "shell": "#fdebd0",
    "lava": "#e74c3c",
    "white-pearl": "#fdfefe",
    "black-pearl": "#566573",
    "nautilus": "#d2b4de",
}
FISH_FILL = "#aed6f1"
CARD_SIGN = {
    "statue": "▲",
    "priestess": "♀",
    "shell": "◒",
    "fish1": "1",
    "fish2": "2",
    "fish4": "4",
    "fish5": "5",
    "white-pearl": "○",
    "black-pearl": "●",
    "nautilus": "@",
    "lava": "≋",
}
"""A sign per card kind, drawn with the kind's name so that colour is never the only cue."""
ITEM_PRICE = {code: price for code, price in SCORING_CARDS} | {"priestess": 1}


def angle(segment: int) -> float:
    """The centre angle (degrees) of a 0-based segment; segment 1 is at the top, clockwise."""
    return -90.0 + 60.0 * segment


def field_centre(segment: int, ring: str) -> tuple[float, float]:
    inner, outer = RADII[ring]
    return polar(CX, CY, (inner + outer) / 2, angle(segment))


def target_maker(view: View, seat: int | None) -> Callable[[str], str]:
    """Notation → the id of the element that stands for it (``stay`` is the shaman's own field)."""
    shaman = view["player_info"][seat]["shaman"] if seat is not None else ""

    def target_of(notation: str) -> str:
        words = notation.split()
        verb = words[0]
        if verb == "place":
            return f"beach-{words[2][1:]}"
        if verb == "take":
            return f"disc-{words[1]}"
        if verb in ("move", "stay"):
            return f"field-{words[1] if verb == 'move' else shaman}"
        if verb == "card":
            return f"bay-{words[1]}"
        if verb == "priestess":
            return f"crater-{words[1][1:]}"
        if verb == "buy":
            return f"buy-{words[1]}"
        return verb

    return target_of


def event_targets(event: Mapping[str, Any]) -> list[str]:
    """Target ids an event touched, to highlight the last move (``highlight=``)."""
    kind = event.get("kind")
    if kind in ("statue", "statue-lost", "statue-destroyed"):
        return [f"field-{event['field']}"]
    if kind == "boat":
        return ["boat"]
    if kind == "card":
        return [f"bay-{event['bay']}"]
    if kind == "action":
        words = str(event["notation"]).split()
        if words[0] in ("place", "take"):
            return [f"beach-{words[2][1:]}"]
        if words[0] == "move":
            return [f"field-{words[1]}"]
    if kind == "lava-shift":
        return [f"crater-{event['to']}"]
    return []


# -- the island ------------------------------------------------------------------------------------
def draw_sea(svg: Svg, _: Gettext) -> None:
    svg.circle(CX, CY, WATER[1], fill="#7fb3d5", stroke="#1f618d", stroke_width=2.0)
    for segment in range(SEGMENTS):
        a = angle(segment) - 30
        x1, y1 = polar(CX, CY, WATER[0], a)
        x2, y2 = polar(CX, CY, WATER[1], a)
        svg.line(x1, y1, x2, y2, stroke="#1f618d", stroke_width=1.0, stroke_dasharray="4 4")
        x, y = polar(CX, CY, WATER[1] - 15, angle(segment))
        svg.text(x, y, segment + 1, 18, fill="#0b2e4a", font_weight="bold")
    svg.text(
        14,
        24,
        _("Haleakala — the island (segments 1–6 clockwise)"),
        16,
        text_anchor="start",
        fill="#1b2631",
        font_weight="bold",
    )


def draw_field(svg: Svg, view: View, targets: Targets, segment: int, ring: str, _: Gettext) -> None:
    name = f"{ring}{segment + 1}"
    inner, outer = RADII[ring]
    target = f"crater-{segment + 1}" if ring == "c" else f"field-{name}"
    label = field_words(name, _)
    svg.open(**targets.attrs(target, label, "field"))
    svg.title(label)
    svg.path(
        svgkit.sector_path(CX, CY, inner, outer, angle(segment) - 30, angle(segment) + 30),
        fill=TERRAIN_FILL[ring],
        stroke="#3e2723",
        stroke_width=1.5,
    )
    if ring != "b":
        x, y = polar(CX, CY, inner + 9, angle(segment))
        short = f"{ring_letter(ring, _)}{segment + 1}"
        svg.text(x, y, short, 10, fill="#ffffff" if ring in "fc" else "#1b2631")
    svg.close()


def draw_pieces(svg: Svg, view: View, segment: int) -> None:
    """Statues (triangles) and shamans (pawns) on the land fields of a segment."""
    for ring in "gfm":
        name = f"{ring}{segment + 1}"
        x, y = field_centre(segment, ring)
        owner = view["statues"].get(name)
        if owner is not None:
            seat = ("red", "yellow").index(owner)
            svg.polygon(
                [(x - 13, y + 8), (x + 13, y + 8), (x, y - 15)],
                fill=PLAYER_FILL[seat],
                stroke="#111111",
                stroke_width=1.5,
            )
            svg.text(x, y + 1, seat + 1, 11, fill=svgkit.ink_on(PLAYER_FILL[seat]), font_weight="bold")
        for info in view["player_info"]:
            if info["shaman"] == name:
                dx = 15 if owner is not None else 0
                draw_shaman(svg, x + dx + (info["seat"] * 6 - 3) * (owner is None), y, info["seat"])


def draw_shaman(svg: Svg, x: float, y: float, seat: int) -> None:
    fill = PLAYER_FILL[seat]
    svg.circle(x, y - 11, 6, fill=fill, stroke="#111111", stroke_width=1.5)
    svg.path(
        f"M {x - 9} {y + 12} L {x - 5} {y - 4} L {x + 5} {y - 4} L {x + 9} {y + 12} Z",
        fill=fill,
        stroke="#111111",
        stroke_width=1.5,
    )
    svg.text(x, y + 5, seat + 1, 10, fill=svgkit.ink_on(fill), font_weight="bold")


def draw_crater(svg: Svg, view: View, segment: int) -> None:
    chips = view["craters"][segment]
    for k in range(chips):
        x, y = polar(CX, CY, 60, angle(segment) - 12 + 12 * (k % 3))
        svg.circle(x, y - 6 * (k // 3), 6, fill="#ff5722", stroke="#3e2723", stroke_width=1.5, class_="lava-chip")


def draw_beach(svg: Svg, view: View, targets: Targets, segment: int, _: Gettext) -> None:
    """Both players' number discs (red on the anticlockwise side, yellow clockwise) and their sums."""
    name = f"b{segment + 1}"
    sums = [info["beach_sums"][segment] for info in view["player_info"]]
    label = _("Beach {segment}: sums {red} and {yellow}").format(segment=segment + 1, red=sums[0], yellow=sums[1])
    svg.open(**targets.attrs(f"beach-{segment + 1}", label, "beach"))
    svg.title(label)
    svg.path(
        svgkit.sector_path(CX, CY, *RADII["b"], angle(segment) - 30, angle(segment) + 30),
        fill=TERRAIN_FILL["b"],
        stroke="#3e2723",
        stroke_width=1.5,
    )
    svg.close()
    mark = _("hut") if segment in HUTS else _("jetty") if segment == JETTY else ""
    if mark:
        x, y = polar(CX, CY, RADII["b"][1] - 9, angle(segment))
        svg.text(x, y, mark, 10, fill="#6e2c00", font_style="italic")
    for info in view["player_info"]:
        seat = info["seat"]
        side = -1 if seat == 0 else 1
        values = [int(v) for v, where in info["discs"].items() if where == name]
        for k, value in enumerate(values):
            x, y = polar(CX, CY, DISC_RADII[k % 2], angle(segment) + side * (6 + 7 * (k // 2)))
            disc_label = _("Disc {value}").format(value=value)
            mine = seat == view.get("seat")
            svg.open(**(targets.attrs(f"disc-{value}", disc_label, "disc") if mine else {}))
            draw_disc(svg, x, y, seat, str(value))
            svg.close()
        if info["lava_disc"] == name:
            x, y = polar(CX, CY, 250, angle(segment) + side * 25)
            draw_disc(svg, x, y, seat, "L")
        if sums[seat]:
            x, y = polar(CX, CY, 282, angle(segment) + side * 18)
            svg.text(x, y, f"Σ{sums[seat]}", 12, fill="#111111", font_weight="bold")


def draw_disc(svg: Svg, x: float, y: float, seat: int, text: str) -> None:
    fill = PLAYER_FILL[seat]
    svg.circle(x, y, 9, fill=fill, stroke="#111111", stroke_width=1.5)
    svg.text(x, y, text, 11, fill=svgkit.ink_on(fill), font_weight="bold")


def draw_bays_and_boat(svg: Svg, view: View, targets: Targets, segment: int, _: Gettext) -> None:
    for k, letter in enumerate("ab"):
        name = f"{segment + 1}{letter}"
        code = view["bays"].get(name)
        x, y = polar(CX, CY, 332, angle(segment) + (-17 if k == 0 else 17))
        label = _("Bay {bay}: {card}").format(bay=name, card=card_name(code, _) if code else _("empty"))
        svg.open(**targets.attrs(f"bay-{name}", label, "bay"))
        svg.title(label)
        if code:
            draw_card(svg, x - 27, y - 19, code, _, 54, 38)
        else:
            svg.rect(
                x - 27, y - 19, 54, 38, rx=5.0, fill="none", stroke="#1f618d", stroke_width=1.0, stroke_dasharray="3 3"
            )
        svg.close()
    if view["boat"] == segment + 1:
        x, y = polar(CX, CY, 322, angle(segment))
        svg.open(**targets.attrs("boat", _("The boat"), "boat"))
        svg.title(_("The boat"))
        svg.path(
            f"M {x - 17} {y - 2} L {x + 17} {y - 2} L {x + 11} {y + 10} L {x - 11} {y + 10} Z",
            fill="#6b4226",
            stroke="#111111",
            stroke_width=1.5,
        )
        svg.path(
            f"M {x} {y - 4} L {x} {y - 24} L {x + 13} {y - 6} Z", fill="#fdfefe", stroke="#111111", stroke_width=1.0
        )
        svg.close()


def draw_card(svg: Svg, x: float, y: float, code: str, _: Gettext, w: float = 54, h: float = 38) -> None:
    """A palm card: its sign large, its name small."""
    fill = CARD_FILL.get(code, FISH_FILL)
    svg.rect(x, y, w, h, rx=5.0, fill=fill, stroke="#222222", stroke_width=1.5)
    ink = svgkit.ink_on(fill) if fill != "#566573" else "#ffffff"
    svg.text(x + w / 2, y + h * 0.36, CARD_SIGN.get(code, "?"), h * 0.4, fill=ink, font_weight="bold")
    svg.text(x + w / 2, y + h * 0.78, short_name(code, _), MIN_FONT, fill=ink)


def short_name(code: str, _: Gettext) -> str:
    names = {
        "fish1": _("fish"),
        "fish2": _("fish"),
        "fish4": _("fish"),
        "fish5": _("fish"),
        "white-pearl": _("pearl"),
        "black-pearl": _("pearl"),
    }
    return names.get(code) or card_name(code, _)


def draw_island(svg: Svg, view: View, targets: Targets, _: Gettext) -> None:
    draw_sea(svg, _)
    for segment in range(SEGMENTS):
        for ring in "gfmc":
            draw_field(svg, view, targets, segment, ring, _)
        draw_beach(svg, view, targets, segment, _)
    svg.circle(CX, CY, RADII["c"][0], fill="#4a2c20", stroke="#3e2723", stroke_width=1.5)
    svg.text(CX, CY, "▲", 22, fill="#ff7043")
    for segment in range(SEGMENTS):
        draw_crater(svg, view, segment)
        draw_pieces(svg, view, segment)
        draw_bays_and_boat(svg, view, targets, segment, _)
    legend = " · ".join(f"{ring_letter(letter, _)} = {ring_name(letter, _)}" for letter in RING_LETTERS)
    svg.text(14, 46, legend, 11, text_anchor="start", fill="#1b2631")


# -- the players and the scoring board ------------------------------------------------------------------
def status_text(view: View, _: Gettext) -> str:
    if view["phase"] == "over":
        winners = ", ".join(seat_name(w, _) for w in view["winners"])
        return _("Game over. Winner: {winners}").format(winners=winners)
    actor = seat_name(view["to_act"][0] if view["to_act"] else view["current"], _)
    doing = {
        "turn": _("{player}: place a disc, take one back or move the boat"),
        "shaman": _("{player}: move the shaman (up to 2 fields) or stay"),
        "choose": _("{player}: choose a card where the boat landed"),
        "priestess": _("{player}: Lava Priestess, move a lava chip"),
        "shell-buy": _("{player}: buy from the scoring board or pass"),
        "scoring-buy": _("{player}: before the scoring, buy one card or pass"),
    }
    return doing.get(view["phase"], "{player}").format(player=actor)


def draw_player(svg: Svg, view: View, info: Mapping[str, Any], y: float, _: Gettext) -> None:
    seat = info["seat"]
    if view["phase"] != "over" and seat in view["to_act"]:
        svg.rect(
            8,
            y - 4,
            WIDTH - 16,
            LINE_H - 4,
            rx=8.0,
            fill="#fef9e7",
            stroke="#b7950b",
            stroke_width=2.0,
            class_="to-act",
        )
    draw_disc(svg, 28, y + 12, seat, str(seat + 1))
    name = seat_name(seat, _) + (" " + _("(you)") if seat == view.get("seat") else "")
    svg.text(44, y + 12, name, 15, text_anchor="start", fill="#111111", font_weight="bold")
    points, ngettext = info["score"], plural(_)
    svg.text(
        44,
        y + 32,
        ngettext("{points} point", "{points} points", points).format(points=points),
        13,
        text_anchor="start",
        fill="#333333",
    )
    svg.text(150, y + 6, _("discs in supply"), 10, text_anchor="start", fill="#555555")
    supply = [v for v, where in info["discs"].items() if where == "supply"]
    if info["lava_disc"] == "supply":
        supply.append("L")
    for k, value in enumerate(supply):
        draw_disc(svg, 160 + 21 * k, y + 26, seat, value)
    svg.text(298, y + 6, _("statues left"), 10, text_anchor="start", fill="#555555")
    svg.polygon(
        [(298, y + 36), (316, y + 36), (307, y + 16)], fill=PLAYER_FILL[seat], stroke="#111111", stroke_width=1.5
    )
    svg.text(320, y + 27, f"×{info['statues_in_supply']}", 13, text_anchor="start", fill="#111111")
    svg.text(374, y + 6, _("shells"), 10, text_anchor="start", fill="#555555")
    svg.text(374, y + 27, f"◒ ×{info['shells']}", 13, text_anchor="start", fill="#111111")
    draw_collected(svg, info, y, _)


def draw_collected(svg: Svg, info: Mapping[str, Any], y: float, _: Gettext) -> None:
    """The cards in front of a player (kind and count) and their scoring cards."""
    counts: dict[str, int] = {}
    for code in info["cards"]:
        counts[code] = counts.get(code, 0) + 1
    # the scoring cards in a column at the right edge (their names ran past it), the cards before them
    right = WIDTH - 12.0
    left = right
    scoring = [scoring_word(code, _) for code in info["scoring_cards"]]
    if scoring:
        lines = scoring if len(scoring) <= 3 else [" · ".join(scoring[k:k + 2]) for k in range(0, len(scoring), 2)]
        left = right - max(6.0 * len(text) for text in [_("scoring cards"), *lines])
        svg.open(class_="scoring-cards")
        svg.title(", ".join(item_name(code, _) for code in info["scoring_cards"]))
        svg.text(right, y + 6, _("scoring cards"), 10, text_anchor="end", fill="#555555")
        for line, text in enumerate(lines):
            svg.text(right, y + 20 + 12 * line, text, 10, text_anchor="end", fill="#7d6608", font_weight="bold")
        svg.close()
    svg.text(428, y + 6, _("cards"), 10, text_anchor="start", fill="#555555")
    step = min(40.0, (left - 14 - 428 - 30) / max(1, len(counts) - 1))
    x = 428.0
    for code, count in counts.items():
        svg.open(class_="held")
        svg.title(card_name(code, _))
        draw_card(svg, x, y + 12, code, _, 30, 30)
        svg.close()
        if count > 1:  # under the card: beside it, it ran into the next card's name
            svg.text(x + 15, y + 52, f"×{count}", 10, fill="#111111", font_weight="bold")
        x += step


def draw_market(svg: Svg, view: View, targets: Targets, y: float, _: Gettext) -> None:
    """The scoring board's cards for sale, the decks and the lava chips beside the board."""
    svg.text(14, y + 8, _("scoring board"), 12, text_anchor="start", fill="#333333", font_weight="bold")
    items = list(view["scoring_board"]) + (["priestess"] if view["board_priestess"] else [])
    for k, code in enumerate(items):
        x = 14 + 80 * k
        label = _("{item}, price {price} shells").format(item=item_name(code, _), price=ITEM_PRICE[code])
        svg.open(**targets.attrs(f"buy-{code}", label, "item"))
        svg.title(label)
        svg.rect(x, y + 20, 74, 44, rx=5.0, fill="#fcf3cf", stroke="#7d6608", stroke_width=1.5)
        word = scoring_word(code, _)  # German "Schmetterlinge" ran out of the card at 11 px: two lines
        size = min(11.0, 66 / (0.62 * max(1, len(word))))
        if size >= MIN_FONT:
            svg.text(x + 37, y + 34, word, size, fill="#111111", font_weight="bold")
        else:
            head, tail = split_word(word)
            svg.text(x + 37, y + 28, head + "-", MIN_FONT, fill="#111111", font_weight="bold")
            svg.text(x + 37, y + 40, tail, MIN_FONT, fill="#111111", font_weight="bold")
        svg.text(x + 37, y + 52, f"◒ ×{ITEM_PRICE[code]}", 11, fill="#111111")
        svg.close()
    x = 14 + 80 * max(len(items), 1) + 12
    svg.text(x, y + 8, _("decks (palms)"), 12, text_anchor="start", fill="#333333", font_weight="bold")
    for k, size in enumerate(view["deck_sizes"]):
        svgkit.card_back(svg, x + 42 * k, y + 20, 34, 44)
        svg.text(x + 42 * k + 17, y + 34, "♣" * (k + 1), 10, fill="#ffffff")
        svg.text(x + 42 * k + 17, y + 52, size, 13, fill="#ffffff", font_weight="bold")
    x += 134
    svg.text(x, y + 8, _("lava chips"), 12, text_anchor="start", fill="#333333", font_weight="bold")
    for k in range(view["lava_chips_beside_board"]):
        svg.circle(x + 10 + 16 * k, y + 40, 6, fill="#ff5722", stroke="#3e2723", stroke_width=1.5)
    svg.text(x, y + 72, _("round {n}").format(n=view["round"]), 12, text_anchor="start", fill="#333333")


def split_word(word: str) -> tuple[str, str]:
    """A long word in two parts, between two consonants nearest its middle ("Schmet", "terlinge")."""
    vowels = set("aeiouyäöüAEIOUYÄÖÜ")
    cuts = [k for k in range(2, len(word) - 1) if word[k - 1] not in vowels and word[k] not in vowels]
    cut = min(cuts, key=lambda k: abs(2 * k - len(word)), default=(len(word) + 1) // 2)
    return word[:cut], word[cut:]


def scoring_word(code: str, _: Gettext) -> str:
    words = {
        "butterflies": _("butterflies"),
        "majority": _("majority"),
        "segment": _("segment"),
        "forest": _("forest"),
        "mountain": _("mountain"),
        "priestess": _("Priestess"),
    }
    return words.get(code, code)


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
    targets = Targets(legal, target_maker(view, seat), action_label, _, highlight)
    market_y = PANEL_Y + 40 + 2 * LINE_H
    height = market_y + 90 + (40 if legal else 0)
    svg = Svg(WIDTH, height, _("Haleakala board"), "haleakala")
    svg.add(svgkit.DEFS)
    svg.rect(0, 0, WIDTH, height, fill="#eef6f9")
    draw_island(svg, view, targets, _)
    svg.text(14, PANEL_Y, status_text(view, _), 15, text_anchor="start", fill="#111111", font_weight="bold")
    svgkit.button(svg, targets, "pass", WIDTH - 150, PANEL_Y - 18, 130, _("Pass"))
    for k, info in enumerate(view["player_info"]):
        draw_player(svg, view, info, PANEL_Y + 30 + k * LINE_H, _)
    draw_market(svg, view, targets, market_y, _)
    svgkit.spare_buttons(svg, targets, 14, market_y + 88, 300)
    return svg.finish()
