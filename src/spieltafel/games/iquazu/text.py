"""Terminal rendering of an Iquazú position (rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .board import COLUMN_STARTS, COLUMNS, HEIGHT_LETTERS, ROCK_COLUMNS, ROWS, bonus_field
from .components import CARD_COLOURS, FRAME_COLUMNS, PLAYER_COLOURS, ROCK_POINTS, TILE_KINDS
from .rules import EMPTY, PHASE_NAMES, WATER
from .view import bonus_field_view

if TYPE_CHECKING:
    from .state import IquazuState

SLOT_STYLE = {0: "white", 1: "bright_blue", 2: "dark_orange"}
GEM_STYLE = {"red": "bold red", "yellow": "bold yellow", "purple": "bold magenta", "green": "bold green"}


def _slot(s: IquazuState, slot: int, height: str) -> Text:
    """A slot as its height letter and colour, then · (free), ≈ (water) or ● in the gem's colour."""
    colour = s.layout.colour[slot]
    occupant = s.slots[slot]
    label = Text(f"{height}{CARD_COLOURS[colour]}", style=SLOT_STYLE[colour])
    if occupant == EMPTY:
        return label + Text("·", style="dim")
    if occupant == WATER:
        return label + Text("≈", style="bold blue")
    return label + Text("●", style=GEM_STYLE[PLAYER_COLOURS[occupant]])


def board_table(s: IquazuState) -> Table:
    """The rock face: one line per strip (row), one cell per board column; the frame highlighted."""
    table = Table(show_lines=True, pad_edge=False, padding=(0, 0), title="Iquazú — the rock face")
    table.add_column("row", justify="center")
    frame = range(s.frame, s.frame + FRAME_COLUMNS)
    for column in range(COLUMNS):
        if column in frame:
            header = Text(f"{column + 1}\n×{column - s.frame + 1}", style="bold reverse")
        else:
            header = Text(f"{column + 1}\n", style="dim" if column < s.frame else "")
        table.add_column(header, justify="center", min_width=3)
    table.add_column(Text("bonus\ntile"), justify="center", min_width=7, no_wrap=True)
    for row in range(ROWS):
        cells: list[Text | str] = [Text(str(row + 1))]
        for column in range(COLUMNS):
            cell = Text()
            for slot in range(COLUMN_STARTS[column], COLUMN_STARTS[column + 1]):
                if s.layout.row[slot] == row:
                    if cell:
                        cell.append("\n")
                    cell.append_text(_slot(s, slot, HEIGHT_LETTERS[slot - COLUMN_STARTS[column]]))
            cells.append(cell if column >= s.frame else Text(cell.plain, style="dim"))
        tile = bonus_field_view(s, bonus_field(s.frame, row)) or "—"
        cells.append(Text(tile, style="bold cyan"))
        table.add_row(*cells)
    rocks = (
        [" "]
        + ["/".join(str(v) for v in ROCK_POINTS[s.players][c]) if c < ROCK_COLUMNS else "" for c in range(COLUMNS)]
        + [""]
    )
    table.add_row(*[Text(r, style="italic") for r in rocks])
    return table


def players_table(s: IquazuState, seat: int | None) -> Table:
    table = Table(title="players")
    for name in ("seat", "colour", "score", "cards", "gems", "bonus tiles", "boxes"):
        table.add_column(name)
    for p in range(s.players):
        colour = PLAYER_COLOURS[p]
        hand = s.hands[p]
        cards = (
            " ".join(f"{CARD_COLOURS[c]}{hand[c]}" for c in range(3))
            if p == seat
            else f"{sum(hand)} card{'s' * (sum(hand) != 1)}"
        )
        tiles = ", ".join(f"{TILE_KINDS[t][0]}×{n}" for t, n in enumerate(s.tiles[p]) if n) or "-"
        boxes = " ".join(b for b, holder in (("gems", s.current), ("water", s.water_holder)) if holder == p)
        marker = "▶ " if p == s.current and s.phase != 3 else "  "
        table.add_row(
            marker + str(p),
            Text(colour, style=GEM_STYLE[colour]),
            str(s.points[p]),
            cards,
            str(s.supply[p]),
            tiles,
            boxes,
        )
    return table


def render(s: IquazuState, seat: int | None = None) -> Group:
    """Board, players and status line as ``seat`` sees them."""
    status = Text(
        f"phase: {PHASE_NAMES[s.phase]} · draw pile {len(s.pile)} · discards "
        + " ".join(f"{CARD_COLOURS[c]}{s.discards[c]}" for c in range(3))
        + f" · water drops {s.drops} · frame at column {s.frame + 1}"
    )
    return Group(board_table(s), players_table(s, seat), status)
