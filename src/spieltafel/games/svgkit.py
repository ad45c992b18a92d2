"""Shared helpers for the games' SVG boards (``games/<game>/svg.py``).

A board is drawn from a seat's view only. Every legal action gets a clickable target: an element
with ``data-action="<index>"`` when it stands for one action, or ``data-target="<id>"`` plus
``data-actions="<i> <j> ..."`` when it stands for several (the page then offers a chooser). Targets
carry ``tabindex="0"``, ``role="button"`` and an ``aria-label``. No scripts, no ``on*`` and no
``style`` attributes: presentation attributes and the classes styled by
``server/web/static/boards.css``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Gettext = Callable[[str], str]
Legal = Sequence[tuple[int, str]]
View = Mapping[str, Any]
Label = Callable[[str, Gettext], str]
"""A game's ``words.action_label``."""

SVG_NS = "http://www.w3.org/2000/svg"


def identity(text: str) -> str:
    """The default ``gettext``: English, the source language."""
    return text


def esc(value: object) -> str:
    """``value`` as XML text or attribute content."""
    text = str(value)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def num(value: float) -> str:
    """A coordinate, short: integers without a decimal point, others to one decimal."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def attributes(attrs: Mapping[str, object]) -> str:
    """`` name="value"`` pairs; ``class_`` becomes ``class``, ``_`` becomes ``-``; None is left out."""
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        key = "class" if name == "class_" else name.replace("_", "-")
        shown = num(value) if isinstance(value, float) else esc(value)
        parts.append(f' {key}="{shown}"')
    return "".join(parts)


@dataclass
class Svg:
    """An SVG document being written, element by element."""

    width: float
    height: float
    label: str
    game: str
    parts: list[str] = field(default_factory=list)
    inside: list[str | None] = field(default_factory=list)
    """For each open group: the accessible name of a target (a button), or None."""
    glyphs: list[str] = field(default_factory=list)
    """The texts drawn inside the open target, written just after it closes (see :meth:`text`)."""

    def add(self, text: str) -> None:
        self.parts.append(text)

    def element(self, tag: str, content: str | None = None, /, **attrs: object) -> None:
        if content is None:
            self.add(f"<{tag}{attributes(attrs)}/>")
        else:
            self.add(f"<{tag}{attributes(attrs)}>{content}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.element("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def circle(self, x: float, y: float, r: float, **attrs: object) -> None:
        self.element("circle", cx=float(x), cy=float(y), r=float(r), **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.element("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)

    def path(self, d: str, **attrs: object) -> None:
        self.element("path", d=d, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], **attrs: object) -> None:
        self.element("polygon", points=" ".join(f"{num(x)},{num(y)}" for x, y in points), **attrs)

    def text(self, x: float, y: float, content: object, size: float = 14, **attrs: object) -> None:
        """Text centred on (x, y) unless ``text_anchor`` says otherwise."""
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("dominant_baseline", "central")
        if any(name is not None for name in self.inside):
            # A target's glyphs ("b", "W", "51") are not part of its accessible name ("Draw 4 cards"): inside
            # the button they contradict it (axe's label-content-name-mismatch). They are drawn on top of the
            # target just after it, hidden from screen readers, and let clicks through to it.
            attrs.setdefault("aria_hidden", "true")
            attrs.setdefault("pointer_events", "none")
            placed = attributes({"x": float(x), "y": float(y), "font_size": float(size), **attrs})
            self.glyphs.append(f"<text{placed}>{esc(content)}</text>")
            return
        self.element("text", esc(content), x=float(x), y=float(y), font_size=float(size), **attrs)

    def title(self, content: str) -> None:
        """The tooltip; inside a target it starts with the target's name (the action), which it must match."""
        name = next((name for name in reversed(self.inside) if name is not None), None)
        if name is not None and content != name:
            content = f"{name} ({content})"
        self.element("title", esc(content))

    def open(self, **attrs: object) -> None:
        label = attrs.get("aria_label")
        self.inside.append(str(label) if attrs.get("role") == "button" and label is not None else None)
        self.add(f"<g{attributes(attrs)}>")

    def close(self) -> None:
        if self.inside:
            self.inside.pop()
        self.add("</g>")
        if self.glyphs and not any(name is not None for name in self.inside):
            self.parts.extend(self.glyphs)
            self.glyphs.clear()

    def finish(self) -> str:
        head = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {num(self.width)} {num(self.height)}" '
            f'class="board board-{esc(self.game)}" role="group" aria-label="{esc(self.label)}" '
            'font-family="DejaVu Sans, Verdana, sans-serif" preserveAspectRatio="xMidYMin meet">'
        )
        return head + f"<title>{esc(self.label)}</title>" + "".join(self.parts) + "</svg>"


class Targets:
    """The seat's legal actions grouped by the board element (target id) that stands for them."""

    def __init__(
        self,
        legal: Legal,
        target_of: Callable[[str], str],
        label: Label,
        gettext: Gettext,
        highlight: Sequence[str] = (),
    ) -> None:
        self.groups: dict[str, list[tuple[int, str]]] = {}
        for index, notation in legal:
            self.groups.setdefault(target_of(notation), []).append((index, notation))
        self.label = label
        self.gettext = gettext
        self.highlight = set(highlight)
        self.drawn: set[str] = set()

    def has(self, target: str) -> bool:
        return target in self.groups

    def attrs(self, target: str, name: str, classes: str = "") -> dict[str, object]:
        """The attributes of the element ``target`` (named ``name`` for screen readers): clickable
        when it carries legal actions, highlighted when it took part in the last move."""
        extra = [classes] if classes else []
        if target in self.highlight:
            extra.append("last")
        actions = self.groups.get(target)
        if not actions:
            return {"class_": " ".join(extra) or None}
        self.drawn.add(target)
        found: dict[str, object] = {"class_": " ".join(["target", *extra]), "tabindex": "0", "role": "button"}
        if len(actions) == 1:
            found["data_action"] = str(actions[0][0])
            found["aria_label"] = self.label(actions[0][1], self.gettext)
        else:
            found["data_target"] = target
            found["data_actions"] = " ".join(str(index) for index, _ in actions)
            found["aria_label"] = choices_label(name, len(actions), self.gettext)
        return found

    def undrawn(self) -> list[str]:
        """Targets with legal actions that no board element carries yet, in action order."""
        return [t for t in self.groups if t not in self.drawn]


def choices_label(name: str, count: int, gettext: Gettext) -> str:
    """A target's name for screen readers when it opens the chooser with ``count`` entries."""
    _ = gettext
    return _("{name}: {count} choices").format(name=name, count=count)


def button(svg: Svg, targets: Targets, target: str, x: float, y: float, w: float, text: str) -> None:
    """A labelled button (pass, end, done ...) drawn only when it carries legal actions."""
    if not targets.has(target):
        return
    svg.open(**targets.attrs(target, text, "button"))
    svg.rect(x, y, w, 34, rx=8.0, fill="#2d3e50", stroke="#0f1a24", stroke_width=2.0)
    svg.text(x + w / 2, y + 17, text, 15, fill="#ffffff", font_weight="bold")
    svg.close()


def spare_buttons(svg: Svg, targets: Targets, x: float, y: float, width: float) -> float:
    """Buttons for legal actions no element carries (a safety net); returns the y below them."""
    for target in targets.undrawn():
        actions = targets.groups[target]
        text = targets.label(actions[0][1], targets.gettext) if len(actions) == 1 else target
        button(svg, targets, target, x, y, width, text)
        y += 40
    return y


def sector_path(cx: float, cy: float, r1: float, r2: float, a1: float, a2: float) -> str:
    """An annular sector between radii ``r1`` < ``r2`` and angles ``a1`` < ``a2`` (degrees,
    clockwise from the positive x axis, as SVG's y axis points down)."""
    p = [polar(cx, cy, r, a) for r, a in ((r2, a1), (r2, a2), (r1, a2), (r1, a1))]
    large = 1 if a2 - a1 > 180 else 0
    outer = f"A {num(r2)} {num(r2)} 0 {large} 1 {num(p[1][0])} {num(p[1][1])}"
    inner = f"A {num(r1)} {num(r1)} 0 {large} 0 {num(p[3][0])} {num(p[3][1])}"
    return f"M {num(p[0][0])} {num(p[0][1])} {outer} L {num(p[2][0])} {num(p[2][1])} {inner} Z"


def polar(cx: float, cy: float, r: float, angle: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return cx + r * math.cos(rad), cy + r * math.sin(rad)


def gem_shape(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """A cut gem (hexagon) centred on (x, y)."""
    return [polar(x, y, r, 30 + 60 * k) for k in range(6)]


def card(
    svg: Svg, x: float, y: float, w: float, h: float, fill: str, text: str, size: float = 14, **attrs: object
) -> None:
    """A card with rounded corners and a centred text."""
    svg.rect(x, y, w, h, rx=5.0, fill=fill, stroke="#222222", stroke_width=1.5, **attrs)
    if text:
        svg.text(x + w / 2, y + h / 2, text, size, fill=ink_on(fill), font_weight="bold")


def card_back(svg: Svg, x: float, y: float, w: float, h: float) -> None:
    """A face-down card: hatched back."""
    svg.rect(x, y, w, h, rx=5.0, fill="url(#back)", stroke="#222222", stroke_width=1.5)


DEFS = (
    "<defs>"
    '<pattern id="back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="8" height="8" fill="#5b4a8b"/><rect width="3" height="8" fill="#8a79bd"/></pattern>'
    '<pattern id="dark-back" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="6" height="6" fill="#3a3a3a"/><circle cx="3" cy="3" r="1.2" fill="#9a9a9a"/></pattern>'
    '<pattern id="light-back" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="6" height="6" fill="#d9cfa8"/><circle cx="3" cy="3" r="1.2" fill="#a89a6a"/></pattern>'
    "</defs>"
)
"""Patterns shared by the boards: card backs, light and dark tile backs."""

DARK_FILLS = {"#2f6fd0", "#8e44ad", "#1e8449", "#c0392b", "#2d3e50", "#5b4a8b", "#1f5f99", "#6b4226", "#7d3c98"}


def ink_on(fill: str) -> str:
    """Black or white text, whichever reads on ``fill``."""
    return "#ffffff" if fill in DARK_FILLS else "#111111"


def player_badge(svg: Svg, x: float, y: float, r: float, fill: str, letter: str) -> None:
    """A player's token: a circle in the player's colour with the seat's letter."""
    svg.circle(x, y, r, fill=fill, stroke="#111111", stroke_width=1.5)
    svg.text(x, y, letter, r * 1.15, fill=ink_on(fill), font_weight="bold")


def any_in(values: Iterable[str], wanted: Iterable[str]) -> bool:
    return bool(set(values) & set(wanted))


def player_name(colour: str, gettext: Gettext) -> str:
    """A player named by their colour, as the games do ("Red", "Yellow" ...)."""
    names = {
        "red": gettext("Red"),
        "yellow": gettext("Yellow"),
        "purple": gettext("Purple"),
        "green": gettext("Green"),
        "blue": gettext("Blue"),
        "white": gettext("White"),
    }
    return names.get(colour, colour)
