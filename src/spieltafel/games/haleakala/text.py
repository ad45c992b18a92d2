"""Terminal rendering of a Haleakala position (rich).

The island is drawn as its six segments side by side (1–6 clockwise, the ring closes from 6 back to
1), each from the sea inwards: boat, the two card bays, beach with the discs, grass, forest,
mountain, crater with its lava chips.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .board import CARD_KIND, bay, field, field_name
from .components import (
    BEACH,
    CRATER,
    FOREST,
    GRASS,
    HUTS,
    JETTY,
    KIND_CODES,
    KINDS,
    LAVA_DISC,
    MOUNTAIN,
    PLAYER_COLOURS,
    SCORING_CARDS,
    SEGMENTS,
)
from .rules import (
    CHOOSE,
    NONE,
    OVER,
    PHASE_NAMES,
    PRIESTESS,
    SCORING_BUY,
    SHAMAN,
    SHELL_BUY,
    TURN,
    beach_sums,
    statues_on_board,
)

if TYPE_CHECKING:
    from .state import HaleakalaState

STYLE = ("bold red", "bold yellow")
TERRAIN_STYLE = {GRASS: "green", FOREST: "dark_green", MOUNTAIN: "grey70", CRATER: "bold dark_orange"}
ROW_NAMES = {GRASS: "grass", FOREST: "forest", MOUNTAIN: "mount."}


SHORT = {"white-pearl": "w-pearl", "black-pearl": "b-pearl"}


def _sea(s: HaleakalaState, segment: int) -> Text:
    cell = Text("⛵ boat", style="bold cyan") if s.boat == segment else Text("~~~", style="blue")
    if segment == JETTY:
        cell.append("\njetty", style="dim")
    return cell


def _bays(s: HaleakalaState, segment: int) -> Text:
    """Bay a above bay b."""
    cell = Text()
    for k in (0, 1):
        card = s.bays[bay(segment, k)]
        name = KIND_CODES[CARD_KIND[card]] if card != NONE else "—"
        cell.append(SHORT.get(name, name) + ("\n" if k == 0 else ""), style="magenta" if card != NONE else "dim")
    return cell


def _beach(s: HaleakalaState, segment: int) -> Text:
    cell = Text("hut " if segment in HUTS else "", style="dim")
    for seat in (0, 1):
        values = [str(v + 1) for v in range(LAVA_DISC) if s.discs[seat][v] == segment]
        parts = ["+".join(values) + (f"={beach_sums(s, seat)[segment]}" if len(values) > 1 else "")] if values else []
        if s.discs[seat][LAVA_DISC] == segment:
            parts.append("lava")
        if parts:
            cell.append(f"{PLAYER_COLOURS[seat][0].upper()}:{' '.join(parts)} ", style=STYLE[seat])
    _shaman(s, field(segment, BEACH), cell)
    return cell


def _shaman(s: HaleakalaState, f: int, cell: Text) -> None:
    for seat in (0, 1):
        if s.shamans[seat] == f:
            cell.append("☻" + PLAYER_COLOURS[seat][0].upper() + " ", style=STYLE[seat])


def _land(s: HaleakalaState, segment: int, ring: int) -> Text:
    f = field(segment, ring)
    cell = Text(field_name(f) + " ", style=TERRAIN_STYLE[ring])  # the name 'move' takes, e.g. f3
    owner = s.statues[f]
    if owner != NONE:
        cell.append("▲" + PLAYER_COLOURS[owner][0].upper() + " ", style=STYLE[owner])
    _shaman(s, f, cell)
    return cell


def _crater(s: HaleakalaState, segment: int) -> Text:
    chips = s.craters[segment]
    name = field_name(field(segment, CRATER))
    return Text(f"{name} " + "●" * chips, style=TERRAIN_STYLE[CRATER]) if chips else Text(name, style="dim")


def island_table(s: HaleakalaState) -> Table:
    """The six segments as columns, from the sea (top) to the crater (bottom)."""
    table = Table(show_lines=True, padding=(0, 0), title="Haleakala — segments 1–6 clockwise, 6 joins 1")
    table.add_column("", style="italic")
    for segment in range(SEGMENTS):
        table.add_column(str(segment + 1), justify="center", min_width=9)
    rows: list[tuple[str, list[Text]]] = [
        ("sea", [_sea(s, g) for g in range(SEGMENTS)]),
        ("bays\na/b", [_bays(s, g) for g in range(SEGMENTS)]),
        ("beach", [_beach(s, g) for g in range(SEGMENTS)]),
        *((ROW_NAMES[r], [_land(s, g, r) for g in range(SEGMENTS)]) for r in (GRASS, FOREST, MOUNTAIN)),
        ("crater", [_crater(s, g) for g in range(SEGMENTS)]),
    ]
    for name, cells in rows:
        table.add_row(name, *cells)
    return table


def players_table(s: HaleakalaState) -> Table:
    table = Table(title="players")
    for name in ("seat", "score", "discs in supply", "statues", "cards", "shells", "scoring cards"):
        table.add_column(name)
    for p in (0, 1):
        supply = [str(v + 1) for v in range(LAVA_DISC) if s.discs[p][v] == -1]
        if s.discs[p][LAVA_DISC] == -1:
            supply.append("lava")
        cards = _cards(s.collected[p])
        owned = ", ".join(SCORING_CARDS[k][0] for k, o in enumerate(s.scoring_owner) if o == p) or "-"
        marker = "▶ " if p == s.actor and s.phase != OVER else "  "
        start = " (start)" if p == 0 else ""
        table.add_row(
            Text(f"{marker}{p} {PLAYER_COLOURS[p]}{start}", style=STYLE[p]), str(s.points[p]),
            " ".join(supply) or "-", f"{s.statue_supply[p]} left", cards, str(len(s.shells[p])), owned,
        )
    return table


def _cards(cards: list[int]) -> str:
    """The cards in front of a player, grouped by kind, with their fish baskets."""
    counts = Counter(KIND_CODES[CARD_KIND[c]] for c in cards)
    shown = " ".join(SHORT.get(k, k) + (f"×{n}" if n > 1 else "") for k, n in sorted(counts.items()))
    baskets = sum(KINDS[CARD_KIND[c]][2] for c in cards)
    return (shown + (f" ({baskets} basket{'s' if baskets > 1 else ''})" if baskets else "")) or "-"


def render(s: HaleakalaState, seat: int | None = None) -> Group:
    """Island, players and status line (nothing is secret except the deck order, which is not shown)."""
    board = [code for (code, _), o in zip(SCORING_CARDS, s.scoring_owner, strict=True) if o == NONE]
    if s.priestess_up:
        board.append("priestess")
    status = Text(
        f"round {s.round} · phase: {PHASE_NAMES[s.phase]} · decks 1/2/3 palms: "
        + "/".join(str(len(d)) for d in s.decks)
        + f" · scoring board: {', '.join(board) or '-'}"
        + "".join(
            f" · scoring {n}: " + ", ".join(f"{PLAYER_COLOURS[p]} {points[p]}" for p in (0, 1))
            for n, points in enumerate(s.round_points, start=1)
        )
    )
    return Group(island_table(s), players_table(s), status, Text(_to_act(s), style="bold"))


_DOING = {
    TURN: "place a disc, take one back, or move the boat",
    SHAMAN: "move the shaman up to 2 fields (or stay)",
    CHOOSE: "choose a card where the boat landed",
    PRIESTESS: "Lava Priestess: move a lava chip to a neighbouring crater, or pass",
    SHELL_BUY: "received a shell: buy from the scoring board, or pass",
    SCORING_BUY: "before the scoring: buy one card from the scoring board, or pass",
}


def _to_act(s: HaleakalaState) -> str:
    if s.phase == PRIESTESS and not s.may_pass:
        return f"to act: {PLAYER_COLOURS[s.actor]} — Lava Priestess card: move a lava chip to a neighbouring crater"
    if s.phase == OVER:
        winner = s.winners()[0]
        tie = ""
        if s.points[0] == s.points[1]:  # "Bei Gleichstand gewinnt derjenige, von dem mehr Statuen ..."
            statues = [statues_on_board(s, p) for p in (0, 1)]
            tie = " (tie: more statues on the island)" if statues[0] != statues[1] else " (tie: did not start)"
        return f"game over: {PLAYER_COLOURS[winner]} wins with {s.points[winner]} points{tie}"
    return f"to act: {PLAYER_COLOURS[s.actor]} — {_DOING[s.phase]}"
