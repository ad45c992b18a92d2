"""Taking back moves within a turn (spieltafel.core.undo): the engine decides from each move's events.

Rule scenarios per game, then a hypothesis property over every game: a move that can be taken back
drew no chance and revealed nothing, all the open moves are the same seat's, and replaying the
moves that stand gives exactly the position before the taken-back moves (then replaying those gives
the position after them again).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltafel.core import Game, State, get_game
from spieltafel.core.undo import (
    CLOSED,
    UNDO,
    TakebackError,
    Window,
    check_takeback,
    effective_moves,
    takeback_window,
    track,
)

GAMES = {"iquazu": (2, 3, 4), "haleakala": (2,), "niagara": (3, 4, 5)}


def play(game: str, players: int, seed: int, moves: list[str]) -> tuple[State, list[tuple[int, int]], Window]:
    """Play notations (each by the first seat to act) and return the state, the moves and the window."""
    state = get_game(game).new_state(players, seed)
    played: list[tuple[int, int]] = []
    window = CLOSED
    for text in moves:
        seat = state.seats_to_act()[0]
        action = state.read_action(seat, text)
        window, _ = track(window, state, seat, action)
        played.append((seat, action))
    return state, played, window


def replayed(game: str, players: int, seed: int, moves: list[tuple[int, int]]) -> dict[str, Any]:
    state = get_game(game).new_state(players, seed)
    for seat, action in moves:
        state.apply(seat, action)
    return state.to_json()


# -- Niagara: canoe steps and launches within a turn are open; the reveal and the flow close ------------
def test_niagara_canoe_steps_of_one_turn_can_be_taken_back_one_by_one() -> None:
    choices = ["play 6", "play 6", "play 6"]  # the last choice reveals seat 0's card: closed
    _, moves, window = play("niagara", 3, 1, choices)
    assert window == CLOSED
    _, moves, window = play("niagara", 3, 1, [*choices, "a down", "a down"])
    assert window == Window(0, 2)
    assert window.allows(0) == 2 and window.allows(1) == 0
    # taking back both steps gives the position right after the reveal, exactly
    assert replayed("niagara", 3, 1, moves[:-2]) == play("niagara", 3, 1, choices)[0].to_json()
    _, moves, window = play("niagara", 3, 1, [*choices, *["a down"] * 4])
    assert window == Window(0, 4)
    assert replayed("niagara", 3, 1, effective_moves([*moves, *[(0, UNDO)] * 4])) == (
        play("niagara", 3, 1, choices)[0].to_json()
    )
    # the load uses the card's last points: the turn ends and the next card is revealed, all closed
    _, _, window = play("niagara", 3, 1, [*choices, *["a down"] * 4, "a load diamond"])
    assert window == CLOSED


def test_niagara_secret_choice_and_the_end_of_a_turn_close_the_window() -> None:
    _, _, window = play("niagara", 3, 1, ["play 6"])
    assert window == CLOSED  # a secret choice (private event) and other seats still to choose
    state, _, window = play("niagara", 3, 1, ["play 1", "play 1", "play 1", "a down"])
    assert window == CLOSED  # the one step ended the turn and revealed the next seat's card
    assert state.seats_to_act() == (1,)
    with pytest.raises(TakebackError, match="nothing to take back"):
        check_takeback(window, 0)


# -- Haleakala: the disc before the shaman's step is open; the step ends the turn ----------------------
def test_haleakala_disc_before_the_shaman_step_can_be_taken_back_not_after_it() -> None:
    _, moves, window = play("haleakala", 2, 1, ["place 5 b6"])
    assert window == Window(0, 1)
    assert replayed("haleakala", 2, 1, moves[:-1]) == get_game("haleakala").new_state(2, 1).to_json()
    _, _, window = play("haleakala", 2, 1, ["place 5 b6", "move g3"])
    assert window == CLOSED  # the turn passed to seat 1
    _, _, window = play("haleakala", 2, 1, ["place 5 b6", "move g3", "place 5 b5"])
    assert window == Window(1, 1)  # seat 1's own move; seat 0's are closed for good
    with pytest.raises(TakebackError):
        check_takeback(window, 0)


# -- Iquazú: a draw is secret and closes; a placement followed by a bonus tile choice is open ------------
def test_iquazu_a_draw_closes_and_an_ended_turn_closes() -> None:
    _, _, window = play("iquazu", 2, 1, ["draw"])
    assert window == CLOSED  # cards from the face-down pile, and the turn passed
    _, _, window = play("iquazu", 2, 1, ["place 1a WW"])
    assert window == CLOSED  # the only action of the turn ended it


def find_open_iquazu_move() -> tuple[int, list[tuple[int, int]], int]:
    """A seeded Iquazú game in which a seat's move leaves the turn open (it holds bonus tiles)."""
    game = get_game("iquazu")
    for seed in range(200):
        state = game.new_state(2, seed)
        moves: list[tuple[int, int]] = []
        window = CLOSED
        for step in range(60):
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[(seed * 7 + step * 13) % len(legal)]
            window, events = track(window, state, seat, action)
            moves.append((seat, action))
            if window.count and any(e.kind == "place" for e in events):
                return seed, moves, seat
            if state.is_over:
                break
    raise AssertionError("no open Iquazú placement found")


def test_iquazu_placement_with_the_turn_still_open_can_be_taken_back() -> None:
    seed, moves, seat = find_open_iquazu_move()
    window = takeback_window(get_game("iquazu").new_state(2, seed), moves)
    assert window.allows(seat) >= 1
    state = get_game("iquazu").new_state(2, seed)
    for s, a in moves[:-1]:
        state.apply(s, a)
    rng_before = state.to_json()["rng"]
    state.apply(*moves[-1])
    assert state.to_json()["rng"] == rng_before  # no chance drawn


# -- the log: takebacks are entries; the moves that stand are read from it ------------------------------
def test_effective_moves_drop_the_taken_back_moves_and_refuse_another_seats_takeback() -> None:
    log = [(0, 5), (1, 7), (1, 8), (1, UNDO), (1, 9)]
    assert effective_moves(log) == [(0, 5), (1, 7), (1, 9)]
    assert effective_moves([(0, 1), (0, 2), (0, UNDO), (0, UNDO)]) == []
    with pytest.raises(TakebackError, match="not its own"):
        effective_moves([(0, 5), (1, UNDO)])
    with pytest.raises(TakebackError):
        effective_moves([(0, UNDO)])


def test_check_takeback_names_what_is_wrong() -> None:
    with pytest.raises(TakebackError, match="only 2 of your moves"):
        check_takeback(Window(0, 2), 0, 3)
    with pytest.raises(TakebackError, match="at least one"):
        check_takeback(Window(0, 2), 0, 0)
    check_takeback(Window(0, 2), 0, 2)


def test_a_game_that_declares_nothing_allows_no_takeback() -> None:
    class Silent(Game):
        pass

    assert Silent.closing_events is None
    state = get_game("haleakala").new_state(2, 1)
    events = state.apply(0, "place 5 b6")
    assert not state.closes_takeback(0, events)
    original = type(state).game.__class__.closing_events
    try:
        type(state).game.__class__.closing_events = None
        assert state.closes_takeback(0, events)
    finally:
        type(state).game.__class__.closing_events = original


# -- the property, over every game ---------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    pick=st.integers(0, 2),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=20, max_size=160),
)
def test_takeback_never_crosses_chance_a_reveal_or_another_seat_and_replays_exactly(
    game: str, pick: int, seed: int, choices: list[int]
) -> None:
    players = GAMES[game][pick % len(GAMES[game])]
    engine = get_game(game)
    closing = engine.closing_events
    assert closing is not None
    state = engine.new_state(players, seed)
    snapshots = [state.to_json()]
    moves: list[tuple[int, int]] = []
    all_events: list[list[Any]] = []
    window = CLOSED
    checked = 0
    for choice in choices:
        if state.is_over:
            break
        acting = state.seats_to_act()
        seat = acting[choice % len(acting)]
        legal = state.legal_actions(seat)
        action = legal[choice % len(legal)]
        window, events = track(window, state, seat, action)
        moves.append((seat, action))
        all_events.append(events)
        snapshots.append(state.to_json())
        if choice % 17 == 0:  # the window walked from the start agrees with the one tracked along
            assert takeback_window(engine.new_state(players, seed), moves) == window
        if not window.count:
            continue
        k = window.count
        assert window.seat == seat and state.seats_to_act() == (seat,)
        assert all(s == seat for s, _ in moves[-k:])  # no other seat acted since
        for taken in all_events[-k:]:
            assert not any(e.private or e.kind in closing for e in taken)  # nothing revealed, no chance
        before = snapshots[-k - 1]
        assert before["rng"] == snapshots[-1]["rng"]  # no chance drawn in the open moves
        if checked < 3:  # the full replay is slow; a few per game
            checked += 1
            log = [*moves, *[(seat, UNDO)] * k]
            standing = effective_moves(log)
            assert replayed(game, players, seed, standing) == before
            assert replayed(game, players, seed, [*standing, *moves[-k:]]) == snapshots[-1]
