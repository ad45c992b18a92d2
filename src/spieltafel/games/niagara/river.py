"""The river's mechanics: one canoe's move as a small automaton, and the river's flow.

A canoe's move is a sequence of steps and at most one gem action worth the card's full value
("Paddelpunkte müssen immer komplett benutzt werden, ausser man überquert das Seil"), with at least
one step ("Steht ein Kanu auf dem Fluss, muss es auch bewegt werden"). Its progress is a
:data:`Leg` tuple; :func:`choices` lists the step kinds that can still end in a complete move,
so a seat is never offered a step that would leave points it cannot use.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .components import CAVE_AT, DOWNSTREAM, FALLEN, FORK, LOAD_COST, SHORE, UPSTREAM
from .notation import DOWN, LEFT, LOAD, RIGHT, UNLOAD, UP

Leg = tuple[int, int, int, int, bool, tuple[int, ...], bool, bool, bool, bool]
"""(space, points left, heading, stage, loaded, cave levels, launch only, gems anywhere, gem handled,
gem-only move allowed).

Cave levels are ``min(gems in the cave, 2)``: all a move needs to know is whether a cave holds a
gem, and after one load whether it still does. ``gem handled``: the canoe has taken or set down
its one gem of this move."""

NO_HEADING: Final = 0
UPSTREAM_HEADING: Final = 1
DOWNSTREAM_HEADING: Final = 2
HEADING_NAMES: Final = ("none", "upstream", "downstream")

START: Final = 0
"""Stage: no step taken yet; gems may be loaded or unloaded before the canoe sets off."""
MOVING: Final = 1
"""Stage: the canoe has taken a step; it may go on in its direction or act on gems at its end."""
ENDING: Final = 2
"""Stage: the canoe acted on a gem after moving; the move ends with gem actions only."""
STAGE_NAMES: Final = ("start", "moving", "ending")


def _downstream_kind(space: int, target: int) -> int:
    if space != FORK:
        return DOWN
    return LEFT if target == DOWNSTREAM[FORK][0] else RIGHT


Step = tuple[int, Leg, bool]
"""(step kind, the leg after it, whether that completes the move)."""


@cache
def transitions(leg: Leg) -> tuple[Step, ...]:
    """Every step kind open to a canoe now, the leg after it and whether the move is then complete.

    Rules: one step per point, one direction per move; landing over the rope ends the move and may
    waste points; no canoe paddles over the falls; loading or unloading costs 2 points and, unless
    gems may be handled anywhere (option), only before the first step or after the last; a canoe
    takes or sets down one gem at most in a move, and a move has at least one step (gem actions
    alone do not move a canoe).
    """
    space, points, heading, stage, loaded, levels, launch_only, anywhere, handled, gem_only = leg
    if points <= 0:
        return ()
    found: list[Step] = []
    flags = (launch_only, anywhere, handled, gem_only)
    if stage != ENDING:
        if heading != DOWNSTREAM_HEADING and space != SHORE:
            target = UPSTREAM[space]
            after: Leg = (target, points - 1, UPSTREAM_HEADING, MOVING, loaded, levels, *flags)
            found.append((UP, after, target == SHORE or points == 1))
        if heading != UPSTREAM_HEADING:
            for target in DOWNSTREAM[space]:
                after = (target, points - 1, DOWNSTREAM_HEADING, MOVING, loaded, levels, *flags)
                done = (space == SHORE and launch_only) or points == 1
                found.append((_downstream_kind(space, target), after, done))
    found.extend(_gem_transitions(leg))
    return tuple(found)


def _gem_transitions(leg: Leg) -> tuple[Step, ...]:
    """The one gem action of a move: unload the gem carried, or load one from the cave beside the
    canoe, for 2 points. It completes the move only after a step ("muss es auch bewegt werden")."""
    space, points, heading, stage, loaded, levels, launch_only, anywhere, handled, gem_only = leg
    cave = CAVE_AT[space]
    if cave < 0 or points < LOAD_COST or handled:
        return ()
    next_stage = stage if anywhere or stage == START else ENDING
    # a gem action alone completes a move only with the option gem-only-move=allowed (decision 9a)
    done = points == LOAD_COST and (stage != START or gem_only)
    if loaded:
        raised = _level(levels, cave, min(levels[cave] + 1, 2))
        after = (space, points - LOAD_COST, heading, next_stage, False, raised, launch_only, anywhere, True, gem_only)
        return ((UNLOAD, after, done),)
    if levels[cave]:
        lowered = _level(levels, cave, levels[cave] - 1)
        after = (space, points - LOAD_COST, heading, next_stage, True, lowered, launch_only, anywhere, True, gem_only)
        return ((LOAD, after, done),)
    return ()


def _level(levels: tuple[int, ...], cave: int, value: int) -> tuple[int, ...]:
    return (*levels[:cave], value, *levels[cave + 1 :])


@cache
def completable(leg: Leg) -> bool:
    """True when the canoe can still use its points exactly (or land)."""
    return any(done or completable(after) for _, after, done in transitions(leg))


@cache
def choices(leg: Leg) -> tuple[int, ...]:
    """The step kinds of :func:`transitions` after which the move can still be completed."""
    return tuple(kind for kind, after, done in transitions(leg) if done or completable(after))


Partner = tuple[int, int, bool]
"""The player's other canoe that must still move: (space, points, loaded)."""


def _partner_completable(final: Leg, partner: Partner) -> bool:
    """Option ``direction=per-turn``: after a complete move ending as ``final`` (its heading, the caves
    as it left them), the partner canoe can complete a move in the same direction."""
    space, points, loaded = partner
    return completable((space, points, final[2], START, loaded, final[5], False, final[7], False, final[9]))


@cache
def completable_then(leg: Leg, partner: Partner) -> bool:
    """True when ``leg`` can be completed so that the partner canoe can complete its move afterwards."""
    return any(
        _partner_completable(after, partner) if done else completable_then(after, partner)
        for _, after, done in transitions(leg)
    )


@cache
def joint_choices(leg: Leg, partner: Partner) -> tuple[int, ...]:
    """The step kinds after which this canoe's move and then its partner's can both be completed."""
    return tuple(
        kind
        for kind, after, done in transitions(leg)
        if (_partner_completable(after, partner) if done else completable_then(after, partner))
    )


def push_disc(river: list[int], aside: list[int], arm: tuple[int, int]) -> None:
    """"Vom Seil aus ... einschieben": a disc from beside the board enters at the rope, every disc
    before the fork moves one space on, the disc at space 5 enters ``arm`` and the arm's last disc
    goes over the falls and is laid aside. ``river[i]`` is the disc on space ``i + 1``."""
    first, last = arm
    aside.append(river[last - 1])
    river[last - 1] = river[first - 1]
    river[first - 1] = river[FORK - 1]
    river[1:FORK] = river[0 : FORK - 1]
    river[0] = aside.pop(0)


def carried(space: int, arm: tuple[int, int]) -> int:
    """Where a canoe on ``space`` is after one disc was pushed into ``arm`` (FALLEN past the last)."""
    if SHORE < space < FORK:
        return space + 1
    if space == FORK:
        return arm[0]
    if space == arm[0]:
        return arm[1]
    if space == arm[1]:
        return FALLEN
    return space
