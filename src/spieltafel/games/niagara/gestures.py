"""Niagara's canoe move in one gesture (issue 25): a canoe's destination space stands for the steps there.

"Jedes Kanu bewegt sich um die komplette Zahl": in the movement phase each canoe the seat moves uses the
card's points in steps (one space a point, loading or unloading a gem two). The board offers, per canoe,
every space its move can end on as one target (``dest-<canoe>-<space>``); the steps behind it are found by a
search over the engine's own legal actions on copies of the state, so legality stays the engine's. Several
step sequences to the same space that load or unload differently are alternatives of that target (the
chooser shows each); sequences that differ only in their route are one (the shortest is kept). A gesture's
notation reads ``a to 4; load diamond at 3; unload at 4`` (words.py says it in words).

A canoe's move ends where its points are used up or it lands; a theft that may follow ("Diebe!") is a
decision of its own after the gesture. The search sees only the seat's own legal steps: nothing of another
seat's secret paddle card is read.
"""

from __future__ import annotations

from spieltafel.core.gestures import Gesture

from .components import CANOE_NAMES, CANOES, SPACE_NAMES
from .notation import CANOE, STEAL, STEP_KINDS, UNLOAD, action_text
from .rules import MOVE
from .state import NiagaraState

MAX_PATHS = 400
"""Sequences looked at per canoe at most (the real number stays far below: a card has at most 6 points)."""


def target_id(canoe: int, space: int) -> str:
    """The board element of canoe ``canoe``'s destination ``space`` (an index of SPACE_NAMES)."""
    return f"dest-{CANOE_NAMES[canoe]}-{SPACE_NAMES[space]}"


def gestures(state: NiagaraState, seat: int) -> list[Gesture]:
    """Every canoe move open to ``seat`` now as one gesture per destination and way of handling gems, in
    canoe, then space, then length order."""
    if state.phase != MOVE or state.current != seat or seat not in state.seats_to_act():
        return []
    canoes = [state.active] if state.active >= 0 else list(range(CANOES))
    found: list[Gesture] = []
    for canoe in canoes:
        found.extend(canoe_gestures(state, seat, canoe))
    return found


def canoe_gestures(state: NiagaraState, seat: int, canoe: int) -> list[Gesture]:
    """The gestures of one canoe: its move's complete step sequences, one per destination and gem steps
    (what is loaded or unloaded, and where); the shortest sequence of each."""
    index = seat * CANOES + canoe
    best: dict[tuple[int, tuple[str, ...]], tuple[int, ...]] = {}
    stack: list[tuple[NiagaraState, tuple[int, ...], tuple[str, ...]]] = [(state, (), ())]
    looked = 0
    while stack and looked < MAX_PATHS:
        position, path, gems = stack.pop()
        for action in position.legal_actions(seat):
            if not CANOE <= action < STEAL or (action - CANOE) // STEP_KINDS != canoe:
                continue
            after = position.clone()
            after.step(seat, action)
            steps = (*path, action)
            kind = (action - CANOE) % STEP_KINDS
            handled = gems
            if kind >= UNLOAD:
                word = action_text(action).split(" ", 1)[1]
                handled = (*gems, f"{word} at {SPACE_NAMES[position.canoes[index]]}")
            if moving(after, seat, canoe):
                stack.append((after, steps, handled))
                continue
            looked += 1
            key = (after.canoes[index], handled)
            if key not in best or len(steps) < len(best[key]):
                best[key] = steps
    ordered = sorted(best.items(), key=lambda item: (item[0][0], len(item[0][1]), len(item[1]), item[0][1]))
    return [
        Gesture(target_id(canoe, space), steps, "; ".join((f"{CANOE_NAMES[canoe]} to {SPACE_NAMES[space]}", *gems)))
        for (space, gems), steps in ordered
    ]


def moving(state: NiagaraState, seat: int, canoe: int) -> bool:
    """Whether ``canoe``'s move goes on (it has points left and the turn is still ``seat``'s)."""
    return state.phase == MOVE and state.current == seat and state.active == canoe
