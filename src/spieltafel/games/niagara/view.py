"""What a seat may know of a Niagara position, and determinisation for search.

Hidden: a paddle card chosen face down and not yet revealed (others learn only that the seat has
chosen). Everything else is open: the river, the caves, the canoes and their gems, the weather,
the banked gems, the revealed cards (so the cards still in each hand are public too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spieltafel.core import JSON, Rng

from .components import (
    CANOE_NAMES,
    CANOES,
    CARD_NAMES,
    CAVE_AT,
    FALLEN,
    GEM_COLOURS,
    PLAYER_COLOURS,
    SHORE,
    SPACE_NAMES,
    SPACES,
)
from .river import HEADING_NAMES, STAGE_NAMES
from .rules import NO_GEM, PHASE_NAMES, SECRET, gem_value, goals_met, legal_actions

if TYPE_CHECKING:
    from .state import NiagaraState


def cards(bits: int) -> list[str]:
    """Card names of a bit set, in card order."""
    return [name for card, name in enumerate(CARD_NAMES) if bits >> card & 1]


def unplayed(s: NiagaraState, seat: int) -> int:
    """The cards of ``seat`` not yet revealed: its hand plus a face-down choice (public knowledge)."""
    card = s.choice[seat]
    return s.hands[seat] | (1 << card if card >= 0 and not s.revealed[seat] else 0)


def canoe_label(index: int) -> str:
    """A canoe as '<seat><letter>', e.g. '2b'."""
    return f"{index // CANOES}{CANOE_NAMES[index % CANOES]}"


def gem_name(colour: int) -> str | None:
    return GEM_COLOURS[colour] if colour != NO_GEM else None


def player_view(s: NiagaraState, p: int) -> dict[str, JSON]:
    card = s.choice[p]
    return {
        "seat": p,
        "colour": PLAYER_COLOURS[p],
        "committed": card >= 0,
        "card": CARD_NAMES[card] if card >= 0 and s.revealed[p] else None,
        "played": [CARD_NAMES[c] for c in s.played[p]],
        "unplayed": cards(unplayed(s, p)),
        "banked": dict(zip(GEM_COLOURS, s.banked[p], strict=True)),
        "gems": sum(s.banked[p]),
        "gem_value": gem_value(s.banked[p]),
        "goals": goals_met(s.banked[p]),
        "canoes": [
            {"canoe": CANOE_NAMES[c], "space": SPACE_NAMES[s.canoes[p * CANOES + c]],
             "gem": gem_name(s.cargo[p * CANOES + c])}
            for c in range(CANOES)
        ],
    }


def river_view(s: NiagaraState) -> list[JSON]:
    """Spaces 1–5, 6L, 7L, 6R, 7R with their disc, cave and canoes."""
    return [
        {
            "space": SPACE_NAMES[space],
            "disc": s.river[space - 1],
            "cave": GEM_COLOURS[CAVE_AT[space]] if CAVE_AT[space] >= 0 else None,
            "canoes": [canoe_label(i) for i, where in enumerate(s.canoes) if where == space],
        }
        for space in range(1, SPACES + 1)
    ]


def turn_view(s: NiagaraState) -> dict[str, JSON] | None:
    if s.phase == SECRET or not s.revealed[s.current]:
        return None
    return {
        "seat": s.current,
        "moving": CANOE_NAMES[s.active] if s.active >= 0 else None,
        "points": s.points if s.active >= 0 else None,
        "heading": HEADING_NAMES[s.heading] if s.active >= 0 else None,
        "stage": STAGE_NAMES[s.stage] if s.active >= 0 else None,
        "gem_handled": bool(s.handled) if s.active >= 0 else None,
        "moved": [CANOE_NAMES[c] for c in range(CANOES) if s.moved >> c & 1],
        "launched": bool(s.launched),
        "direction": HEADING_NAMES[s.turn_heading],
    }


def view(s: NiagaraState, seat: int | None) -> dict[str, JSON]:
    """The position as ``seat`` sees it (a spectator when None), JSON-ready."""
    seen: dict[str, JSON] = {
        "game": "niagara",
        "players": s.players,
        "options": dict(s.options),
        "seat": seat,
        "round": s.round,
        "phase": PHASE_NAMES[s.phase],
        "to_act": list(s.seats_to_act()),
        "life_ring": s.ring,
        "weather": s.weather,
        "next_arm": "left" if s.next_arm == 0 else "right",
        "river": river_view(s),
        "aside": list(s.aside),
        "caves": {GEM_COLOURS[i]: dict(zip(GEM_COLOURS, cave, strict=True)) for i, cave in enumerate(s.caves)},
        "ashore": [canoe_label(i) for i, where in enumerate(s.canoes) if where == SHORE],
        "below_falls": [canoe_label(i) for i, where in enumerate(s.canoes) if where == FALLEN],
        "turn": turn_view(s),
        "player_info": [player_view(s, p) for p in range(s.players)],
        "winners": s.winners(),
    }
    if seat is not None:
        card = s.choice[seat]
        seen["hand"] = cards(s.hands[seat])
        seen["choice"] = CARD_NAMES[card] if card >= 0 else None
        seen["legal_actions"] = legal_actions(s, seat)
    return seen


def resample_hidden(s: NiagaraState, seat: int, rng: Rng) -> None:
    """Each other seat's face-down, unrevealed card is drawn again from the cards it could have
    chosen (its hand plus that card); the game's own generator is reseeded."""
    for other in range(s.players):
        card = s.choice[other]
        if other == seat or card < 0 or s.revealed[other]:
            continue
        pool = s.hands[other] | 1 << card
        pick = rng.choice([c for c in range(len(CARD_NAMES)) if pool >> c & 1])
        s.choice[other] = pick
        s.hands[other] = pool & ~(1 << pick)
    s.rng = rng.fork()
