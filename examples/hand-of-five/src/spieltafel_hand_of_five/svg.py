"""Hand of Five's board as SVG, from a seat's view only: the pile, every player's points and hand size, the
deck, and the seat's own hand, each card of it a target when it may be played (``spieltafel.games.svgkit``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spieltafel.games import svgkit
from spieltafel.games.svgkit import Gettext, Legal, Svg, Targets, identity

from .words import COLOURS, action_label, seat_name

WIDTH, HEIGHT = 640.0, 330.0
CARD_W, CARD_H = 64.0, 92.0
FILLS = {"red": "#c0392b", "blue": "#2e6da4", "green": "#2f8f4e", "yellow": "#e3b21c"}


def target_of(notation: str) -> str:
    """The element of an action: the card it plays (``card-37``)."""
    return "card-" + notation.partition(" ")[2]


def event_targets(event: Mapping[str, Any]) -> list[str]:
    """What the last move touched: the pile, for a card played."""
    return ["pile"] if event.get("kind") == "play" else []


def render_board(
    view: Mapping[str, Any], seat: int | None, legal: Legal, gettext: Gettext = identity, *,
    highlight: Sequence[str] = (),
) -> str:
    """The board as ``seat`` sees it; every legal action (a card of the hand) is one target."""
    _ = gettext
    targets = Targets(legal, target_of, action_label, _, highlight)
    svg = Svg(WIDTH, HEIGHT, _("Hand of Five board"), "hand-of-five")
    svg.rect(0, 0, WIDTH, HEIGHT, fill="#eef3ee")
    draw_pile(svg, view, targets, _)
    draw_players(svg, view, _)
    if view.get("hand") is not None:
        draw_hand(svg, list(view["hand"]), targets, _)
    svgkit.spare_buttons(svg, targets, 20, HEIGHT - 40, 160)
    return svg.finish()


def draw_pile(svg: Svg, view: Mapping[str, Any], targets: Targets, _: Gettext) -> None:
    pile = list(view["pile"])
    svg.text(60, 20, _("Pile"), 14, font_weight="bold")
    svg.open(**targets.attrs("pile", _("Pile")))
    svgkit.card(svg, 28, 32, CARD_W, CARD_H, "#ffffff", str(pile[-1]) if pile else "", 26)
    svg.close()
    svg.text(60, 140, _("Deck: {count}").format(count=view["deck_count"]), 13)


def draw_players(svg: Svg, view: Mapping[str, Any], _: Gettext) -> None:
    to_act = set(view.get("to_act") or [])
    for seat, points in enumerate(view["points"]):
        y = 40 + seat * 26
        colour = COLOURS[seat]
        svgkit.player_badge(svg, 150, y, 9, FILLS[colour], str(seat + 1))
        text = _("{player}: {points} points, {cards} cards").format(
            player=seat_name(seat, _), points=points, cards=view["hand_counts"][seat])
        svg.text(166, y, text, 13, text_anchor="start", font_weight="bold" if seat in to_act else None)


def draw_hand(svg: Svg, hand: list[int], targets: Targets, _: Gettext) -> None:
    svg.text(20, 172, _("Your hand"), 14, text_anchor="start", font_weight="bold")
    for k, card in enumerate(hand):
        target = f"card-{card}"
        svg.open(**targets.attrs(target, _("Card {card}").format(card=card)))
        svgkit.card(svg, 20 + k * (CARD_W + 12), 184, CARD_W, CARD_H, "#fdf6e3", str(card), 24)
        svg.close()
