"""What a seat may know of a Haleakala position, and determinisation for search.

Hidden: only the order of the three face-down palm decks. Their contents are public knowledge: each
deck's composition is printed in the rules' data and every card leaves a deck face up (into a bay, or
as a lava card onto the discard pile), so the view lists what remains in each deck, not its order.
Everything else lies open: bays, discs, statues, shamans, lava, the boat, the cards in front of each
player, the number of saved shells (all shells are alike and were received in the open), the
scoring board and the scores.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from spieltafel.core import JSON, Rng

from .board import BAYS, CARD_KIND, FIELDS, bay_name, field_name
from .components import KIND_CODES, LAVA_CHIPS, LAVA_DISC, PLAYER_COLOURS, SCORING_CARDS
from .rules import (
    BOX,
    NONE,
    NOT_COUNTED,
    PHASE_NAMES,
    PRIESTESS,
    SCORING_PARTS,
    SUPPLY,
    beach_sums,
    legal_actions,
    statues_on_board,
)

if TYPE_CHECKING:
    from .state import HaleakalaState


def kinds(cards: list[int]) -> list[str]:
    return [KIND_CODES[CARD_KIND[c]] for c in cards]


def deck_contents(cards: list[int]) -> dict[str, int]:
    """What remains in a deck, by kind (public: see the module docstring), in a fixed order."""
    counts = Counter(CARD_KIND[c] for c in cards)
    return {KIND_CODES[k]: counts[k] for k in sorted(counts)}


def disc_place(where: int) -> str:
    return "supply" if where == SUPPLY else "box" if where == BOX else f"b{where + 1}"


def player_view(s: HaleakalaState, seat: int) -> dict[str, JSON]:
    discs = s.discs[seat]
    return {
        "seat": seat,
        "colour": PLAYER_COLOURS[seat],
        "score": s.points[seat],
        "shaman": field_name(s.shamans[seat]),
        "discs": {str(v + 1): disc_place(discs[v]) for v in range(LAVA_DISC)},
        "lava_disc": disc_place(discs[LAVA_DISC]),
        "beach_sums": beach_sums(s, seat),
        "statues_in_supply": s.statue_supply[seat],
        "statues_on_board": statues_on_board(s, seat),
        "cards": kinds(s.collected[seat]),
        "shells": len(s.shells[seat]),
        "scoring_cards": [SCORING_CARDS[k][0] for k, owner in enumerate(s.scoring_owner) if owner == seat],
    }


def scoring_parts_view(s: HaleakalaState) -> list[JSON]:
    """Each scoring held, per seat: its points by category as the rules recorded them (categories that
    were no part of it left out), e.g. ``[[{"grass-statues": 2, ...}, {...}]]`` after scoring 1."""
    scorings: list[JSON] = []
    for first in range(0, len(s.scoring_parts), 2):
        seats: list[JSON] = []
        for parts in s.scoring_parts[first : first + 2]:
            seats.append({name: parts[k] for k, name in enumerate(SCORING_PARTS) if parts[k] != NOT_COUNTED})
        scorings.append(seats)
    return scorings


def view(s: HaleakalaState, seat: int | None) -> dict[str, JSON]:
    """The position as ``seat`` sees it (a spectator when None), JSON-ready."""
    seen: dict[str, JSON] = {
        "game": "haleakala",
        "players": 2,
        "options": dict(s.options),
        "seat": seat,
        "phase": PHASE_NAMES[s.phase],
        "to_act": list(s.seats_to_act()),
        "current": s.current,
        "round": s.round,
        "boat": s.boat + 1,
        "craters": list(s.craters),
        "lava_chips_beside_board": LAVA_CHIPS - sum(s.craters),
        "statues": {field_name(f): PLAYER_COLOURS[s.statues[f]] for f in range(FIELDS) if s.statues[f] != NONE},
        "bays": {bay_name(b): (KIND_CODES[CARD_KIND[s.bays[b]]] if s.bays[b] != NONE else None) for b in range(BAYS)},
        "decks": [deck_contents(deck) for deck in s.decks],
        "deck_sizes": [len(deck) for deck in s.decks],
        "discard": kinds(s.discard),
        "box": kinds(s.box),
        "scoring_board": [SCORING_CARDS[k][0] for k, owner in enumerate(s.scoring_owner) if owner == NONE],
        "board_priestess": s.priestess_up,
        "round_points": [list(p) for p in s.round_points],
        "scoring_parts": scoring_parts_view(s),
        "pending": {
            "cards": [[p, KIND_CODES[CARD_KIND[c]]] for p, c in s.effects],
            "scoring": s.scoring,
            "buyers": list(s.buyers),
            "landing": s.landing + 1 if s.landing != NONE else None,
            "second": s.second if s.second != NONE else None,
            "priestess_may_pass": s.may_pass if s.phase == PRIESTESS else None,
        },
        "player_info": [player_view(s, p) for p in (0, 1)],
        "winners": s.winners(),
    }
    if seat is not None:
        seen["legal_actions"] = legal_actions(s, seat)
    return seen


def resample_hidden(s: HaleakalaState, rng: Rng) -> None:
    """Deal each face-down deck anew (its contents are public, its order is not) and reseed the game's
    own generator. Each deck is sorted before the shuffle, so that the result depends only on what the
    seat sees and on ``rng``: nothing of the true deck order survives in the copy. The shuffles and
    the new generator's seed come from one draw of ``rng`` (:meth:`Rng.kiss`, as in Iquazú)."""
    kiss = rng.kiss()
    for deck in s.decks:
        deck.sort()
        kiss.permute(deck)
    s.rng = Rng(kiss.seed64())
