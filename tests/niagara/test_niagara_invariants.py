"""Niagara's state invariants (issue 8): an inconsistent document is refused, naming what is wrong;
every position reached in play passes."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from niagara_helpers import GAME, do, new, play_cards

from spieltafel.bots import make_bot
from spieltafel.build import engine_build
from spieltafel.core import Rng, StateFormatError
from spieltafel.games.niagara import NiagaraState
from spieltafel.games.niagara.components import FALLEN, SHORE
from spieltafel.games.niagara.invariants import check_invariants
from spieltafel.games.niagara.rules import BUYBACK, MOVE, SECRET, THEFT, WEATHER
from spieltafel.match import play_game

Mutation = Callable[[NiagaraState], None]
COMPILED = engine_build() != "pure Python"
"""Whether this is the mypyc build (setup.py), whose states hold only values of their declared types."""


def choosing() -> NiagaraState:
    """Round 1, seat 1 has chosen its 4 face down, seats 0 and 2 are still choosing."""
    s = new(3)
    s.apply(1, "play 4")
    return s


def moving() -> NiagaraState:
    """Seat 0 is paddling: its canoe a, launched with a 3, has 2 points left."""
    s = new(3)
    play_cards(s, "3", "5", "6")
    do(s, "a down")
    assert s.phase == MOVE and s.active == 0 and s.points == 2
    return s


def over() -> NiagaraState:
    s = new(3)
    s.caves[4][4] -= 4
    s.banked[0][4] = 3
    s.canoes[0] = 1
    s.cargo[0] = 4
    play_cards(s, "1", "1", "1")
    do(s, "a up")
    assert s.winners() == [0]
    return s


def _set(**values: object) -> Mutation:
    def mutate(s: NiagaraState) -> None:
        for name, value in values.items():
            setattr(s, name, value)

    return mutate


def _card_back_in_hand(s: NiagaraState) -> None:
    s.hands[1] |= 1 << s.choice[1]


def _gem_too_many(s: NiagaraState) -> None:
    s.caves[0][0] += 1


def _gems_below_zero(s: NiagaraState) -> None:
    s.caves[0][0] -= 8
    s.caves[1][0] += 8


def _disc_twice(s: NiagaraState) -> None:
    s.river[0] = s.river[1]


def _canoe_off_the_board(s: NiagaraState) -> None:
    s.canoes[0] = 11


def _gem_on_the_beach(s: NiagaraState) -> None:
    s.caves[2][2] -= 1
    s.cargo[3] = 2


def _card_played_twice(s: NiagaraState) -> None:
    s.played[0].append(s.played[0][0])


def _card_lost(s: NiagaraState) -> None:
    s.hands[2] &= ~1


def _turn_skipped(s: NiagaraState) -> None:
    s.current = 2


def _goal_met_game_goes_on(s: NiagaraState) -> None:
    s.caves[4][4] -= 4
    s.banked[2][4] = 4


def _theft_without_victim(s: NiagaraState) -> None:
    s.phase, s.points = THEFT, 0


MUTATIONS: list[tuple[str, Callable[[], NiagaraState], Mutation, str]] = [
    ("chosen card in the hand", choosing, _card_back_in_hand, "chosen card 4 is still in the hand"),
    ("won 99", over, _set(won=[99]), r"winners \[99\]"),
    ("winners while playing", moving, _set(won=[1]), "winners named while the game goes on"),
    ("next arm 5", choosing, _set(next_arm=5), "next_arm is 5"),
    ("points 5000", moving, _set(points=5000), "points is 5000"),
    ("points beyond the card", moving, _set(points=4), "4 points left of a 3"),
    ("active 2**70", moving, _set(active=2**70), "active is"),
    ("seat 2**70 on turn", moving, _set(current=2**70), "current is"),
    ("a gem too many", choosing, _gem_too_many, "8 amethyst gems in play"),
    ("gems below zero", choosing, _gems_below_zero, "negative number of gems"),
    ("a disc twice", choosing, _disc_twice, "river discs"),
    ("canoe off the board", choosing, _canoe_off_the_board, r"canoes\[0\] is 11"),
    ("gem on the beach", moving, _gem_on_the_beach, "carries a gem on the beach"),
    ("a card played twice", moving, _card_played_twice, "paddle cards"),
    ("a card lost", choosing, _card_lost, "seven paddle cards"),
    ("a turn skipped", moving, _turn_skipped, "out of turn order"),
    ("secret phase with all chosen", moving, _set(phase=SECRET), "nobody has revealed"),
    ("weather without the cloud", moving, _set(phase=WEATHER), "weather phase without the cloud"),
    ("buy-back with nothing below the falls", moving, _set(phase=BUYBACK), "buy-back without"),
    ("theft without a victim", moving, _theft_without_victim, "theft by a canoe"),
    ("gem flag with no canoe moving", choosing, _set(handled=1), "handled gem recorded"),
    ("round beyond the limit", choosing, _set(round=201), "round is 201"),
    ("last round marked", choosing, _set(ending=1), "last round is marked"),
    ("goal met, game goes on", moving, _goal_met_game_goes_on, "met a goal but the game goes on"),
    ("weather as a bool", choosing, _set(weather=True), "weather must be an integer"),
    ("round as a float", choosing, _set(round=2.0), "round must be an integer"),
    ("points as a string", moving, _set(points="2"), "points must be an integer"),
    ("a cave count as a string", choosing, lambda s: s.caves[0].__setitem__(0, "7"), "must be a list of integers"),
]


@pytest.mark.parametrize(("base", "mutate", "message"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_each_inconsistency_is_refused_and_named(
    base: Callable[[], NiagaraState], mutate: Mutation, message: str
) -> None:
    state = base()
    check_invariants(state)
    data = json.loads(json.dumps(state.to_json()))
    document = SimpleNamespace(**data)
    mutate(document)  # type: ignore[arg-type]
    with pytest.raises(StateFormatError):  # the same change made to the document
        GAME.state_from_json(vars(document))
    broken = state.clone()
    try:
        mutate(broken)
    except TypeError:  # the compiled build's state refuses a value of the wrong type itself
        return
    if COMPILED and json.dumps(broken.to_json()) != json.dumps(vars(document)):
        return  # the compiled build's state took the value as its declared type (True as 1): nothing wrong is held
    with pytest.raises(StateFormatError, match=message):
        check_invariants(broken)
    with pytest.raises(StateFormatError):  # the loader refuses it too (the first law it finds may differ)
        GAME.state_from_json(json.loads(json.dumps(broken.to_json())))


def test_points_5000_no_longer_reaches_the_move_search() -> None:
    """Issue 8: ``points: 5000`` was accepted and ``state actions`` died of a RecursionError."""
    document = moving().to_json()
    document["points"] = 5000
    with pytest.raises(StateFormatError):
        GAME.state_from_json(document)


def _check_along(state: NiagaraState, choose: Callable[[NiagaraState, int], int], round_trips: int = 25) -> None:
    step = 0
    while state.seats_to_act():
        for seat in state.seats_to_act():
            state.apply(seat, choose(state, seat))
            check_invariants(state)
            step += 1
            if step % round_trips == 0:
                GAME.state_from_json(json.loads(json.dumps(state.to_json())))


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"second-canoe": "launch-only", "ending": "finish-round"}, {"loading": "anywhere", "direction": "per-turn"}],
    ids=["default", "launch-only-finish-round", "anywhere-per-turn"],
)
def test_every_position_of_random_games_passes(players: int, options: dict[str, str]) -> None:
    state = GAME.new_state(players, players, {**options, "round-limit": "100"})
    assert isinstance(state, NiagaraState)
    rng = Rng(players + 11)
    _check_along(state, lambda s, seat: rng.choice(s.legal_actions(seat)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_position_of_greedy_games_passes(players: int) -> None:
    bots = [make_bot("greedy", 40 + seat) for seat in range(players)]
    final, record = play_game(GAME, players, 9, bots, {"ending": "finish-round"})
    state = GAME.new_state(players, 9, {"ending": "finish-round"})
    assert isinstance(state, NiagaraState)
    for recorded in record.actions:
        state.apply(recorded.seat, recorded.action)
        check_invariants(state)
        assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()
    assert final.is_over and state.to_json() == final.to_json()


def test_a_canoe_below_the_falls_and_one_bought_back_pass() -> None:
    s = new(3)
    s.round = 2
    s.canoes[0] = s.canoes[1] = FALLEN
    s.caves[0][0] -= 2
    s.banked[0][0] = 2
    play_cards(s, "2", "1", "1")
    check_invariants(s)
    do(s, "buy amethyst")
    check_invariants(s)
    assert s.canoes[:2] == [SHORE, FALLEN]
    GAME.state_from_json(s.to_json())
