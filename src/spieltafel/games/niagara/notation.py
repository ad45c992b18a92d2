"""Niagara actions: the fixed action space and the stable notation.

The notation does not depend on the position, so every index always reads the same::

    play 4 · play cloud        (secret choice of a paddle card)
    cloud up · cloud down      (the cloud card: move the cloud on the weather track)
    buy ruby · leave           (buy back a canoe from below the falls with a banked gem, or not)
    a down · a down left       (canoe a one step downstream; at the fork name the arm: left or right)
    b up                       (canoe b one step upstream; from space 1 this lands it)
    a load amber · a unload    (load a gem of that colour from the cave, or unload the gem: 2 points)
    steal 2b · pass            (after ending upstream on another's canoe: take seat 2's canoe b's gem, or not)
    done                       (end the turn without launching the canoe still ashore)
"""

from __future__ import annotations

from typing import Final

from spieltafel.core import NotationError

from .components import CANOE_NAMES, CANOES, CARD_NAMES, COLOURS, GEM_COLOURS

PLAY: Final = 0
"""PLAY + card: commit that paddle card face down."""
CLOUD_UP: Final = PLAY + len(CARD_NAMES)
CLOUD_DOWN: Final = CLOUD_UP + 1
BUY: Final = CLOUD_DOWN + 1
"""BUY + colour: buy a canoe back from below the falls, paying a banked gem of that colour."""
LEAVE: Final = BUY + COLOURS
CANOE: Final = LEAVE + 1
"""CANOE + canoe * STEP_KINDS + kind: one step of a canoe's move."""

UP: Final = 0
DOWN: Final = 1
LEFT: Final = 2
RIGHT: Final = 3
UNLOAD: Final = 4
LOAD: Final = 5
"""LOAD + colour: load a gem of that colour."""
STEP_KINDS: Final = LOAD + COLOURS
STEAL: Final = CANOE + CANOES * STEP_KINDS
"""STEAL + seat * CANOES + canoe: take the gem of that seat's canoe."""
MAX_SEATS: Final = 5
PASS: Final = STEAL + MAX_SEATS * CANOES
DONE: Final = PASS + 1
ACTION_SPACE: Final = DONE + 1

KIND_WORDS: Final = ("up", "down", "down left", "down right", "unload")
EXPECTED: Final = (
    "'play 1'…'play 6', 'play cloud', 'cloud up|down', 'buy <colour>', 'leave', "
    "'a|b up', 'a|b down', 'a|b down left|right', 'a|b load <colour>', 'a|b unload', "
    "'steal <seat><a|b>', 'pass' or 'done'"
)


def canoe_action(canoe: int, kind: int) -> int:
    """The index of step ``kind`` (UP … LOAD + colour) of ``canoe``."""
    return CANOE + canoe * STEP_KINDS + kind


def action_text(action: int) -> str:
    """The notation of ``action``."""
    if PLAY <= action < CLOUD_UP:
        return f"play {CARD_NAMES[action - PLAY]}"
    if action in (CLOUD_UP, CLOUD_DOWN):
        return "cloud up" if action == CLOUD_UP else "cloud down"
    if BUY <= action < LEAVE:
        return f"buy {GEM_COLOURS[action - BUY]}"
    if action == LEAVE:
        return "leave"
    if CANOE <= action < STEAL:
        canoe, kind = divmod(action - CANOE, STEP_KINDS)
        word = KIND_WORDS[kind] if kind < LOAD else f"load {GEM_COLOURS[kind - LOAD]}"
        return f"{CANOE_NAMES[canoe]} {word}"
    if STEAL <= action < PASS:
        seat, canoe = divmod(action - STEAL, CANOES)
        return f"steal {seat}{CANOE_NAMES[canoe]}"
    if action == PASS:
        return "pass"
    if action == DONE:
        return "done"
    raise ValueError(f"{action} is outside Niagara's action space (0..{ACTION_SPACE - 1})")


_FIXED: Final = {action_text(a): a for a in range(ACTION_SPACE)}


def parse_action(text: str) -> int:
    """Read a notation (case-insensitive, spaces free); raises NotationError."""
    key = " ".join(text.lower().split())
    action = _FIXED.get(key)
    if action is None:
        raise NotationError(text, EXPECTED)
    return action
