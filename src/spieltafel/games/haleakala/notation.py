"""Haleakala actions: the fixed action space and the stable notation.

Index ranges (``ACTION_SPACE`` = 152)::

    PLACE      + (value-1)*6 + segment   place 3 b2          a number disc on a beach
    PLACE_LAVA + (value-1)*6 + segment   place 3 b2 lava     tactical: with the lava disc, at the boat
    TAKE       + (value-1)*6 + segment   take 3 b2           a number disc back into the supply
    BOAT                                 boat                move the boat 1 field (all discs out)
    MOVE       + field                   move f3 · stay      the shaman's end field after a disc action
    CARD       + bay                     card 3a [statue]    choose a card where the boat landed
    SHIFT      + crater*2 + direction    priestess c3 c4     move a lava chip to a neighbouring crater
    BUY        + item                    buy mountain        a scoring card or the board's Priestess
    PASS                                 pass                do not buy / do not move a chip
"""

from __future__ import annotations

from typing import Final

from spieltafel.core import IllegalActionError, NotationError

from .board import CRATERS, FIELDS, bay_name, field_name, parse_bay, parse_field
from .components import BEACH, DISC_VALUES, KIND_CODES, RINGS, SCORING_CARDS, SEGMENTS

DISC_ACTIONS: Final = len(DISC_VALUES) * SEGMENTS
PLACE: Final = 0
PLACE_LAVA: Final = PLACE + DISC_ACTIONS
TAKE: Final = PLACE_LAVA + DISC_ACTIONS
BOAT: Final = TAKE + DISC_ACTIONS
MOVE: Final = BOAT + 1
CARD: Final = MOVE + FIELDS
SHIFT: Final = CARD + SEGMENTS * 2
BUY: Final = SHIFT + SEGMENTS * 2
BUY_ITEMS: Final = (*(code for code, _ in SCORING_CARDS), "priestess")
"""What can be bought: the five scoring cards, then the Lava Priestess of the scoring board."""
PASS: Final = BUY + len(BUY_ITEMS)
ACTION_SPACE: Final = PASS + 1

EXPECTED: Final = (
    "'place <value> b<segment> [lava]', 'take <value> b<segment>', 'boat', 'move <field>' or 'stay', "
    "'card <bay>', 'priestess c<from> c<to>', 'buy <item>' or 'pass'"
)


def disc_action(base: int, value: int, segment: int) -> int:
    return base + (value - 1) * SEGMENTS + segment


def split_disc_action(action: int) -> tuple[int, int, int]:
    """(base, value, segment) of a place/take action."""
    base = action - action % DISC_ACTIONS
    value, segment = divmod(action - base, SEGMENTS)
    return base, value + 1, segment


def shift_action(segment: int, clockwise: bool) -> int:
    return SHIFT + segment * 2 + (0 if clockwise else 1)


def shift_target(action: int) -> tuple[int, int]:
    """(from segment, to segment) of a Priestess move."""
    segment, direction = divmod(action - SHIFT, 2)
    return segment, (segment + (1 if direction == 0 else -1)) % SEGMENTS


def action_text(action: int, shaman: int, bays: list[int], kinds: tuple[int, ...]) -> str:
    """The notation of ``action``; ``shaman`` is the acting shaman's field (for ``stay``) and
    ``bays`` the card ids in the bays (-1 empty) with ``kinds`` the kind per card id."""
    if not 0 <= action < ACTION_SPACE:
        raise ValueError(f"{action} is outside Haleakala's action space (0..{ACTION_SPACE - 1})")
    if action < BOAT:
        base, value, segment = split_disc_action(action)
        verb = "take" if base == TAKE else "place"
        return f"{verb} {value} b{segment + 1}" + (" lava" if base == PLACE_LAVA else "")
    if action == BOAT:
        return "boat"
    if action < CARD:
        target = action - MOVE
        return "stay" if target == shaman else f"move {field_name(target)}"
    if action < SHIFT:
        card = bays[action - CARD]
        return f"card {bay_name(action - CARD)}" + (f" {KIND_CODES[kinds[card]]}" if card >= 0 else "")
    if action < BUY:
        source, target = shift_target(action)
        return f"priestess c{source + 1} c{target + 1}"
    if action < PASS:
        return f"buy {BUY_ITEMS[action - BUY]}"
    if action == PASS:
        return "pass"
    raise ValueError(f"{action} is outside Haleakala's action space (0..{ACTION_SPACE - 1})")


def parse_action(text: str, shaman: int, bays: list[int], kinds: tuple[int, ...]) -> int:
    """Read a notation (case-insensitive); raises NotationError, or IllegalActionError when a named
    card is not the one lying in the named bay."""
    words = text.lower().split()
    if words in (["boat"], ["pass"]):
        return BOAT if words[0] == "boat" else PASS
    if words == ["stay"]:
        return MOVE + shaman
    if len(words) == 2 and words[0] == "move":
        target = parse_field(words[1])
        if target is None:
            raise NotationError(text, "a field such as 'f3' (b/g/f/m/c and segment 1–6)")
        return MOVE + target
    if len(words) == 2 and words[0] == "buy" and words[1] in BUY_ITEMS:
        return BUY + BUY_ITEMS.index(words[1])
    if words and words[0] in ("place", "take"):
        return _parse_disc(text, words)
    if words and words[0] == "card" and len(words) in (2, 3):
        return _parse_card(text, words, bays, kinds)
    if len(words) == 3 and words[0] == "priestess":
        return _parse_shift(text, words)
    raise NotationError(text, EXPECTED)


def _parse_disc(text: str, words: list[str]) -> int:
    lava = len(words) == 4 and words[0] == "place" and words[3] == "lava"
    if len(words) != 3 and not lava:
        raise NotationError(text, "'place <value> b<segment> [lava]' or 'take <value> b<segment>'")
    beach = parse_field(words[2])
    if not words[1].isdigit() or int(words[1]) not in DISC_VALUES or beach is None or beach % len(RINGS) != BEACH:
        raise NotationError(text, "a disc value 1–5 and a beach b1–b6, e.g. 'place 3 b2'")
    base = TAKE if words[0] == "take" else PLACE_LAVA if lava else PLACE
    return disc_action(base, int(words[1]), beach // len(RINGS))


def _parse_card(text: str, words: list[str], bays: list[int], kinds: tuple[int, ...]) -> int:
    b = parse_bay(words[1])
    if b is None:
        raise NotationError(text, "a bay such as '3a' (segment 1–6, bay a or b)")
    if len(words) == 3:
        card = bays[b]
        if words[2] not in KIND_CODES:
            raise NotationError(text, f"a card name ({', '.join(KIND_CODES)}) after the bay, or nothing")
        if card < 0 or KIND_CODES[kinds[card]] != words[2]:
            lying = KIND_CODES[kinds[card]] if card >= 0 else "no card"
            raise IllegalActionError(text, f"bay {words[1]} holds {lying}")
    return CARD + b


def _parse_shift(text: str, words: list[str]) -> int:
    source, target = parse_field(words[1]), parse_field(words[2])
    if source not in CRATERS or target not in CRATERS or source is None or target is None:
        raise NotationError(text, "two neighbouring craters, e.g. 'priestess c3 c4'")
    a, b = source // len(RINGS), target // len(RINGS)
    if (a + 1) % SEGMENTS == b:
        return shift_action(a, True)
    if (a - 1) % SEGMENTS == b:
        return shift_action(a, False)
    raise IllegalActionError(text, "the Priestess moves a chip to a neighbouring crater, never across the volcano")

