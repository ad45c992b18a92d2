"""Clicks and keystrokes per own turn at the table page, before and after issue 25, per game and player count.

    python bench/clicks.py [--games 40]

A person plays seat 0 against random bots (the other seats), as the issue measured it: on each decision
the person clicks a random target of the board the server draws for that seat (``svg.py``: a target stands
for one legal action, ``data-action``, or several, ``data-actions``), then a random entry of the chooser
where one opens; an action with no target on the board is taken from the move list (open it, click). The
page's rules:

- before: every move is the target then Confirm (a chooser entry is sent at once): 2 clicks, the move list 3;
- after: a target that stands for one action plays on click (1), several open the chooser (2), the move list
  2; a forced move (the only legal action, no takeback open) plays itself (0).

Gestures (after): where the board offers a target that stands for several actions in a row (Niagara's canoe
destinations, ``games/niagara/gestures.py``, ``data-gestures``), the person clicks a random one of those (the
chooser where it has alternatives) and its steps are played in a row.

Keystrokes (after): the focus stays on the board at the last target used; the arrows walk the targets in
document order (wrapping), Enter plays, and in the chooser Tab walks the entries. The issue measured the page
before it by hand (1,330 keystrokes for 54 moves of a keyboard-only Iquazú game, about 24.6 a move: the focus
fell to ``<body>`` after every move).

A turn is the person's decisions between two decisions of other seats (for Niagara, "per round": its secret
paddle card and its canoe moves). Prints median and p90 per game and player count.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
from dataclasses import dataclass, field
from typing import Any

from spieltafel.core import State, get_game, kit_of
from spieltafel.core.undo import CLOSED, track

CASES = (("iquazu", 2), ("iquazu", 3), ("iquazu", 4), ("haleakala", 2), ("niagara", 3), ("niagara", 4), ("niagara", 5))
TARGET = re.compile(r'data-action="(\d+)"|data-actions="([\d ]+)"|data-gestures="([\d ]+)"')


@dataclass
class Tally:
    before: list[int] = field(default_factory=list)
    after: list[int] = field(default_factory=list)
    keys: list[int] = field(default_factory=list)
    moves: int = 0


def targets(state: State, seat: int) -> list[tuple[bool, list[tuple[int, ...]]]]:
    """The board's targets for ``seat`` in document order, each as (a gesture target?, the choices it stands
    for: one action each, or a gesture's steps)."""
    legal = [(a, state.action_text(seat, a)) for a in state.legal_actions(seat)]
    kit = kit_of(state.game)
    module = kit.gestures_module()
    gestures = module.gestures(state, seat) if module is not None else []
    board: Any = kit.board_module()
    if gestures:
        marks = [(k, g.target, g.notation) for k, g in enumerate(gestures)]
        svg = board.render_board(state.view(seat), seat, legal, lambda text: text, gestures=marks)
    else:
        svg = board.render_board(state.view(seat), seat, legal, lambda text: text)
    found: list[tuple[bool, list[tuple[int, ...]]]] = []
    for single, several, gesture in TARGET.findall(svg):
        if gesture:
            found.append((True, [gestures[int(k)].actions for k in gesture.split()]))
        else:
            found.append((False, [(int(single),)] if single else [(int(a),) for a in several.split()]))
    return found


def decide(
    state: State, seat: int, rng: random.Random, focus: int, takeback_open: bool
) -> tuple[tuple[int, ...], int, int, int, int]:
    """One decision: (the actions played, clicks before, clicks after, keystrokes after, the focus after).
    Before, every step was a decision of its own: the clicks before of a gesture are counted step by step
    by the caller (2 a step)."""
    legal = state.legal_actions(seat)
    board = targets(state, seat)
    if not board:
        action = rng.choice(legal)
        forced = len(legal) == 1 and not takeback_open
        return (action,), 3, 0 if forced else 2, 0 if forced else 2 + legal.index(action), focus
    gestures = [k for k, (gesture, _) in enumerate(board) if gesture]
    index = rng.choice(gestures) if gestures else rng.randrange(len(board))
    stands_for = board[index][1]
    action = rng.choice(stands_for)
    distance = abs(index - min(focus, len(board) - 1))
    arrows = min(distance, len(board) - distance)
    if len(legal) == 1 and not takeback_open and len(action) == 1:
        return action, 2, 0, 0, index
    if len(stands_for) == 1:
        return action, 2, 1, arrows + 1, index
    return action, 2, 2, arrows + 1 + stands_for.index(action) + 1, index


def play(game: str, players: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    state = get_game(game).new_state(players, seed)
    window = CLOSED
    counts = [0, 0, 0]  # clicks before, clicks after, keystrokes after, in the current turn (or round)
    in_turn = False
    focus = 0

    def close() -> None:
        nonlocal in_turn
        if in_turn:
            tally.before.append(counts[0])
            tally.after.append(counts[1])
            tally.keys.append(counts[2])
        counts[:] = [0, 0, 0]
        in_turn = False

    while not state.is_over:
        acting = state.seats_to_act()
        if 0 in acting:
            actions, b, a, k, focus = decide(state, 0, rng, focus, window.allows(0) > 0)
            counts[0], counts[1], counts[2] = counts[0] + b * len(actions), counts[1] + a, counts[2] + k
            in_turn = True
            tally.moves += 1
            events = []
            for action in actions:
                window, step_events = track(window, state, 0, action)
                events.extend(step_events)
        else:
            if game != "niagara":
                close()
            seat = acting[0]
            window, events = track(window, state, seat, rng.choice(state.legal_actions(seat)))
        if game == "niagara" and any(e.kind == "ring" for e in events):  # a round ends: Niagara counts per round
            close()
    close()


def p90(values: list[int]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else float(values[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game and player count")
    games = parser.parse_args().games
    print(
        f"{'game':10} {'players':>7} {'turns':>6} | {'clicks before':>21} | {'clicks after':>21} | "
        f"{'keys after':>14} | {'keys/move':>9}"
    )
    print(
        f"{'':10} {'':>7} {'':>6} | {'median':>6} {'p90':>6} {'mean':>7} | {'median':>6} {'p90':>6} {'mean':>7} | "
        f"{'median':>6} {'p90':>7} | {'mean':>9}"
    )
    for game, players in CASES:
        tally = Tally()
        for seed in range(games):
            play(game, players, seed, tally)
        print(
            f"{game:10} {players:>7} {len(tally.after):>6} | {statistics.median(tally.before):>6.1f} "
            f"{p90(tally.before):>6.1f} {statistics.mean(tally.before):>7.2f} | {statistics.median(tally.after):>6.1f} "
            f"{p90(tally.after):>6.1f} {statistics.mean(tally.after):>7.2f} | "
            f"{statistics.median(tally.keys):>6.1f} {p90(tally.keys):>7.1f} | {sum(tally.keys) / tally.moves:>9.2f}"
        )


if __name__ == "__main__":
    main()
