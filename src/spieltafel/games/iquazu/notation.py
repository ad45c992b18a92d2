"""Iquazú actions: the fixed action space and the stable notation.

Action indices: ``slot * PATTERN_COUNT + pattern`` places a gem on ``slot`` paying ``pattern``;
the special actions follow. Notation::

    place 7c BBW W      (placement: slot, the cards paid, optional ``any``)
    place 7c WBO any    (pay with any colours, using an any-colour bonus tile)
    draw                (take 4 cards)
    bonus cards3        (use an extra-cards tile) · bonus double (use a double-turn tile)
    end                 (end the turn: no more bonus tiles)
    discard W           (hand limit: discard one white card)
"""

from __future__ import annotations

from typing import Final

from spieltafel.core import IllegalActionError, NotationError

from .board import PATTERN_COUNT, PATTERNS, SLOTS, cards_paid, parse_slot, pattern_for, slot_name
from .components import CARD_COLOURS, TILE_KINDS

PLACE_LIMIT: Final = SLOTS * PATTERN_COUNT
DRAW: Final = PLACE_LIMIT
END: Final = PLACE_LIMIT + 1
DISCARD: Final = PLACE_LIMIT + 2
"""DISCARD + colour: discard one card of that colour."""
BONUS: Final = PLACE_LIMIT + 5
"""BONUS + tile kind (cards2, cards3, cards4, any, double): use that bonus tile."""
TILE_CODES: Final = tuple(code for code, _, _ in TILE_KINDS)
USABLE_TILES: Final = ("cards2", "cards3", "cards4", "double")
"""Tiles used on their own; the any-colour tile is used as part of a placement."""
ACTION_SPACE: Final = BONUS + len(TILE_CODES)

EXPECTED: Final = (
    "'draw', 'place <slot> <cards> [any]' (e.g. 'place 7c BBW'), 'bonus cards2|cards3|cards4|double', "
    "'end' or 'discard W|B|O'"
)


def cards_text(cards: tuple[int, int, int], first: int) -> str:
    """Cards as letters, colour ``first`` first, then the others in W, B, O order."""
    order = [first] + [c for c in range(3) if c != first]
    return "".join(CARD_COLOURS[c] * cards[c] for c in order)


def action_text(action: int, slot_colours: tuple[int, ...]) -> str:
    """The notation of ``action`` on a board whose slot colours are ``slot_colours``."""
    if not 0 <= action < ACTION_SPACE:
        raise ValueError(f"{action} is outside Iquazú's action space (0..{ACTION_SPACE - 1})")
    if action < PLACE_LIMIT:
        slot, pattern = divmod(action, PATTERN_COUNT)
        colour = slot_colours[slot]
        any_colour = PATTERNS[pattern][0]
        cards = cards_text(cards_paid(pattern, colour), 0 if any_colour else colour)
        return f"place {slot_name(slot)} {cards}" + (" any" if any_colour else "")
    if action == DRAW:
        return "draw"
    if action == END:
        return "end"
    if DISCARD <= action < BONUS:
        return f"discard {CARD_COLOURS[action - DISCARD]}"
    if BONUS <= action < ACTION_SPACE:
        return f"bonus {TILE_CODES[action - BONUS]}"
    raise ValueError(f"{action} is outside Iquazú's action space (0..{ACTION_SPACE - 1})")


def parse_action(text: str, slot_colours: tuple[int, ...]) -> int:
    """Read a notation (case-insensitive, spaces free); raises NotationError or IllegalActionError."""
    words = text.lower().split()
    if words == ["draw"]:
        return DRAW
    if words == ["end"]:
        return END
    if len(words) == 2 and words[0] == "discard" and words[1].upper() in CARD_COLOURS:
        return DISCARD + CARD_COLOURS.index(words[1].upper())
    if len(words) == 2 and words[0] == "bonus" and words[1] in USABLE_TILES:
        return BONUS + TILE_CODES.index(words[1])
    if words and words[0] == "place" and len(words) in (3, 4):
        return _parse_place(text, words, slot_colours)
    raise NotationError(text, EXPECTED)


def _parse_place(text: str, words: list[str], slot_colours: tuple[int, ...]) -> int:
    slot = parse_slot(words[1])
    if slot is None:
        raise NotationError(text, "a slot such as '7c' (board column 1–14, height a = top)")
    letters = words[2].upper()
    if not letters or any(ch not in CARD_COLOURS for ch in letters):
        raise NotationError(text, "the cards paid as letters W, B, O (e.g. 'BBW')")
    if len(words) == 4 and words[3] != "any":
        raise NotationError(text, "'any' after the cards, or nothing")
    any_colour = len(words) == 4
    cards = (letters.count("W"), letters.count("B"), letters.count("O"))
    pattern = pattern_for(any_colour, slot_colours[slot], cards)
    if pattern is None:
        colour = CARD_COLOURS[slot_colours[slot]]
        odd = not any_colour and any(cards[c] % 2 for c in range(3) if c != slot_colours[slot])
        rule = (
            f"slot {words[1]} is {colour}: pay {colour} cards, each replaceable by two identical cards"
            if odd
            else "a placement costs 1 to 5 cards (the number of the frame column)"
        )
        raise IllegalActionError(text, rule)
    return slot * PATTERN_COUNT + pattern
