"""The bots' contract: legal actions only, honesty, reproducibility, budgets."""

from __future__ import annotations

import time

import pytest

from spieltafel.bots import Bot, Observation, bot_names, make_bot
from spieltafel.bots.ismcts import IsmctsBot
from spieltafel.core import Event, Rng, SpieltafelError, State, all_games, get_game
from spieltafel.match import play_game


def observe(state: State, seat: int) -> Observation:
    return Observation(seat, state.legal_actions(seat), lambda: state.view(seat), lambda r: state.determinise(seat, r))


def build(name: str, seed: int) -> Bot:
    if name == "ismcts":
        return IsmctsBot(seed, iterations=30)
    return make_bot(name, seed)


def positions(game: str, players: int, seed: int, every: int = 9) -> list[State]:
    spec = get_game(game)
    state = spec.new_state(players, seed)
    rng = Rng(seed)
    found = []
    count = 0
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if count % every == 0:
            found.append(state.clone())
        state.step(seat, rng.choice(state.legal_actions(seat)))
        count += 1
    return found


def with_heuristic() -> list[str]:
    names = []
    for game in all_games():
        try:
            make_bot("greedy").choose(observe(game.new_state(game.min_players), 0))
            names.append(game.name)
        except SpieltafelError:
            pass
    return names


def test_names_and_levels_are_known() -> None:
    assert {"random", "greedy", "ismcts", "easy", "medium", "hard", "expert"} <= set(bot_names())
    with pytest.raises(SpieltafelError, match="unknown bot"):
        make_bot("genius")


@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
def test_bots_play_whole_games_with_legal_actions(name: str) -> None:
    for game in all_games():
        if name == "greedy" and game.name not in with_heuristic():
            continue
        players = game.min_players
        checked: list[int] = []

        def validated(state: State, seat: int, action: int, events: list[Event], into: list[int] = checked) -> None:
            into.append(action)

        bots = [build(name, s) if s == 0 else make_bot("random", s) for s in range(players)]
        state, record = play_game(game, players, 5, bots, on_events=validated)
        assert state.is_over and len(checked) == len(record.actions)


@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
def test_choices_do_not_depend_on_hidden_information(name: str) -> None:
    """Same bot seed, two positions the seat cannot tell apart: the same choice."""
    for game in with_heuristic() if name == "greedy" else [g.name for g in all_games()]:
        spec = get_game(game)
        for state in positions(game, spec.max_players, 3, every=15):
            seat = state.seats_to_act()[0]
            twin = state.determinise(seat, Rng(99))
            assert build(name, 7).choose(observe(state, seat)) == build(name, 7).choose(observe(twin, seat))


@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
def test_choices_are_reproducible_with_a_seed(name: str) -> None:
    for game in with_heuristic() if name == "greedy" else [g.name for g in all_games()]:
        spec = get_game(game)
        for state in positions(game, spec.min_players, 4, every=20):
            seat = state.seats_to_act()[0]
            first = build(name, 11).choose(observe(state, seat))
            assert first in state.legal_actions(seat)
            assert build(name, 11).choose(observe(state, seat)) == first


def test_ismcts_respects_its_budgets() -> None:
    state = get_game("iquazu").new_state(3, 1)
    bot = IsmctsBot(0, iterations=25)
    bot.choose(observe(state, 0))
    assert bot.last_iterations == 25
    capped = IsmctsBot(0, iterations=None, seconds=0.05)
    start = time.perf_counter()
    capped.choose(observe(state, 0))
    assert capped.last_iterations >= 1
    assert time.perf_counter() - start < 1.0  # a 0.05 s budget, with a wide margin for a busy machine
    with pytest.raises(ValueError, match="budget"):
        IsmctsBot(0, iterations=None, seconds=None)


def test_bots_never_receive_the_state() -> None:
    """An Observation exposes the seat, its legal actions, its view and samples of its
    information set: nothing else."""
    public = {n for n in dir(Observation) if not n.startswith("_")}
    assert public == {"seat", "legal", "view", "sample"}
