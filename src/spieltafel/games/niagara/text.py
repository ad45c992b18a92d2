"""Terminal rendering of a Niagara position (rich): river, fork and arms, caves, canoes, weather, cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .components import (
    CANOE_NAMES,
    CANOES,
    CARD_NAMES,
    CAVE_AT,
    FALLEN,
    GEM_COLOURS,
    LEFT_ARM,
    PLAYER_COLOURS,
    RIGHT_ARM,
    SHORE,
    SPACE_NAMES,
    WEATHER_MAX,
    WEATHER_MIN,
)
from .rules import NO_GEM, PHASE_NAMES
from .view import cards, unplayed

if TYPE_CHECKING:
    from .state import NiagaraState

CANOE_STYLE = ("bold red", "bold yellow", "bold green", "bold blue", "bold white")
GEM_STYLE = ("magenta", "bright_white", "yellow", "blue", "bright_red")
GEM_LETTER = ("A", "D", "Y", "S", "R")
"""One letter per gem colour: Amethyst, Diamond, amber (Yellow), Sapphire, Ruby."""


def _canoe(s: NiagaraState, index: int) -> Text:
    seat, canoe = divmod(index, CANOES)
    label = Text(f"{seat}{CANOE_NAMES[canoe]}", style=CANOE_STYLE[seat])
    colour = s.cargo[index]
    if colour != NO_GEM:
        label.append(f"[{GEM_LETTER[colour]}]", style=GEM_STYLE[colour])
    return label


def _canoes_at(s: NiagaraState, space: int) -> Text:
    return Text(" ").join(_canoe(s, i) for i, where in enumerate(s.canoes) if where == space)


def _cave(s: NiagaraState, space: int) -> Text:
    cave = CAVE_AT[space]
    if cave < 0:
        return Text("")
    if space in RIGHT_ARM:
        return Text(f"{GEM_COLOURS[cave]} cave (the same as at {SPACE_NAMES[space - 2]})", style="dim")
    text = Text(f"{GEM_COLOURS[cave]} cave: ", style="dim")
    for colour, count in enumerate(s.caves[cave]):
        if count:
            text.append(f"{GEM_LETTER[colour]}×{count} ", style=GEM_STYLE[colour])
    return text


def river_table(s: NiagaraState) -> Table:
    """From the landing down to the falls; after space 5 the river forks into two arms."""
    table = Table(title="Niagara — the river (landing at the top, falls at the bottom)", show_lines=False)
    for name in ("space", "disc", "canoes", "cave"):
        table.add_column(name)
    table.add_row(Text("shore", style="bold"), "", _canoes_at(s, SHORE), Text("the rope: landing", style="dim"))
    for space in range(1, 6):
        table.add_row(SPACE_NAMES[space], str(s.river[space - 1]), _canoes_at(s, space), _cave(s, space))
    arrow = "◀ next disc" if s.next_arm == 0 else ""
    table.add_row(Text("fork", style="italic"), "", Text(f"left arm {arrow}"), "")
    for space in LEFT_ARM:
        table.add_row(SPACE_NAMES[space], str(s.river[space - 1]), _canoes_at(s, space), _cave(s, space))
    arrow = "◀ next disc" if s.next_arm == 1 else ""
    table.add_row(Text("fork", style="italic"), "", Text(f"right arm {arrow}"), "")
    for space in RIGHT_ARM:
        table.add_row(SPACE_NAMES[space], str(s.river[space - 1]), _canoes_at(s, space), _cave(s, space))
    table.add_row(Text("falls", style="bold red"), "", _canoes_at(s, FALLEN), Text("bought back on the owner's turn"))
    return table


def weather_line(s: NiagaraState) -> Text:
    text = Text("weather: ")
    for value in range(WEATHER_MIN, WEATHER_MAX + 1):
        cell = f"[{value:+d}☁]" if value == s.weather else f" {value:+d} "
        text.append(cell, style="bold cyan" if value == s.weather else "dim")
    text.append(f"   discs aside: {' '.join(str(d) for d in s.aside)}")
    return text


def _card_cell(s: NiagaraState, p: int, seat: int | None) -> str:
    card = s.choice[p]
    if card < 0:
        return "choosing…"
    if s.revealed[p] or p == seat:
        return CARD_NAMES[card] + ("" if s.revealed[p] else " (face down)")
    return "■ chosen"


def players_table(s: NiagaraState, seat: int | None) -> Table:
    table = Table(title="players")
    for name in ("seat", "colour", "card", "played", "still to play", "banked", "canoes"):
        table.add_column(name)
    for p in range(s.players):
        banked = Text()
        for colour, count in enumerate(s.banked[p]):
            if count:
                banked.append(f"{GEM_LETTER[colour]}×{count} ", style=GEM_STYLE[colour])
        banked.append(f"= {sum(s.banked[p])}")
        canoes = Text(" ").join(
            Text(f"{CANOE_NAMES[c]}:{SPACE_NAMES[s.canoes[p * CANOES + c]]}") for c in range(CANOES)
        )
        marker = ("⛑ " if p == s.ring else "  ") + ("▶" if p == s.current and s.phase not in (0, 5) else " ")
        own = cards(s.hands[p]) if p == seat else cards(unplayed(s, p))
        table.add_row(
            f"{marker}{p}", Text(PLAYER_COLOURS[p], style=CANOE_STYLE[p]), _card_cell(s, p, seat),
            " ".join(CARD_NAMES[c] for c in s.played[p]), " ".join(own), banked, canoes,
        )
    return table


def render(s: NiagaraState, seat: int | None = None) -> Group:
    """River, weather, players and status line as ``seat`` sees them."""
    status = f"round {s.round} · phase: {PHASE_NAMES[s.phase]} · life ring: seat {s.ring}"
    if s.active >= 0:
        status += f" · canoe {s.current}{CANOE_NAMES[s.active]} moving, {s.points} point(s) left"
    if s.winners():
        status += f" · winners: {', '.join(str(w) for w in s.winners())}"
    return Group(river_table(s), weather_line(s), players_table(s, seat), Text(status))
