"""Every registered game as an OpenSpiel game: OpenSpiel's own checks (``random_sim_test`` with
serialisation, for every game, player count and option set; the checks OpenSpiel's Python games
run in their tests) and ours (information states never depend on hidden information)."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltafel.core import Game, IllegalActionError, Rng, all_games

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("spieltafel.openspiel")

from spieltafel.openspiel.games import DEALS, parameter_name, returns_for  # noqa: E402

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]


def option_sets(game: Game) -> Iterator[dict[str, str]]:
    """Every combination of the game's option values."""
    names = [option.name for option in game.options]
    for values in itertools.product(*(option.choices for option in game.options)):
        yield dict(zip(names, values, strict=True))


OPTION_CASES = [(game, players, options) for game, players in CASES for options in option_sets(game)]
OPTION_IDS = [f"{g.name}-{p}p-" + "-".join(o.values()) for g, p, o in OPTION_CASES]
TAIL = 60
"""Decisions before a random game's end where the per-option-set simulation starts."""


def load(game: Game, players: int, options: dict[str, str] | None = None, **extra: object) -> object:
    names = {option.name: parameter_name(option) for option in game.options}
    params = {names[name]: value for name, value in (options or {}).items()}
    return openspiel.load(game, players, **params, **extra)


def late_state(game: Game, players: int, options: dict[str, str], seed: int) -> object:
    """An engine state ``TAIL`` decisions before the end of a random game, as an OpenSpiel state."""
    actions: list[tuple[int, int]] = []
    state = game.new_state(players, seed, options)
    rng = Rng(seed)
    while not state.is_over:
        seat = state.seats_to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        actions.append((seat, action))
        state.step(seat, action)
    replayed = game.new_state(players, seed, options)
    for seat, action in actions[: max(0, len(actions) - TAIL)]:
        replayed.step(seat, action)
    return openspiel.wrap(load(game, players, options), replayed)


def play_randomly(state: object, steps: int, rng: np.random.RandomState) -> object:
    """Up to ``steps`` random decisions (joint ones at simultaneous nodes) from ``state``."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.randint(DEALS)))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p) or [0])) for p in range(state.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# -- OpenSpiel's own checks -------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_random_simulation_from_the_deal(game: Game, players: int) -> None:
    """OpenSpiel's ``random_sim_test`` with serialisation: a whole game from the root chance node."""
    pyspiel.random_sim_test(load(game, players), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "players", "options"), OPTION_CASES, ids=OPTION_IDS)
def test_random_simulation_every_option_set(game: Game, players: int, options: dict[str, str]) -> None:
    """``random_sim_test`` with serialisation for every option set: the last decisions of a random
    game (whole games of every set would take minutes: Niagara's random games run to the round
    limit), and a loaded game's first decisions."""
    loaded = load(game, players, options)
    assert loaded.get_parameters()["players"] == players
    state = play_randomly(loaded.new_initial_state(), 20, np.random.RandomState(1))
    assert state.engine.options == game.resolve_options(options)
    text = pyspiel.serialize_game_and_state(loaded, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    start = late_state(game, players, options, seed=3)
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False, specific_initial_state=start)


SIMULTANEOUS = [(game, game.min_players) for game in all_games() if game.simultaneous]


@pytest.mark.parametrize(("game", "players"), SIMULTANEOUS, ids=[g.name for g, _ in SIMULTANEOUS])
def test_simultaneous_game_as_turn_based(game: Game, players: int) -> None:
    """As OpenSpiel's simultaneous Python games test: ``convert_to_turn_based`` and the game string
    ``turn_based_simultaneous_game(game=...)``; and our own ``turn_based=true`` form."""
    loaded = load(game, players)
    assert loaded.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(loaded), num_sims=1, serialize=False, verbose=False)
    by_string = pyspiel.load_game(f"turn_based_simultaneous_game(game={openspiel.game_string(game, players)})")
    assert by_string.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    sequential = load(game, players, turn_based=True)
    assert sequential.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(sequential, num_sims=1, serialize=True, verbose=False)


def test_simultaneous_node_takes_one_action_per_player() -> None:
    for game in all_games():
        if not game.simultaneous:
            continue
        state = play_randomly(load(game, game.max_players).new_initial_state(), 1, np.random.RandomState(0))
        while not state.is_simultaneous_node():
            play_randomly(state, 1, np.random.RandomState(2))
        seats = state.engine.seats_to_act()
        assert len(seats) > 1
        for player in range(state.num_players()):
            assert state.legal_actions(player) == state.engine.legal_actions(player)
        joint = [state.legal_actions(p)[0] if p in seats else 0 for p in range(state.num_players())]
        before = state.engine.clone()
        state.apply_actions(joint)
        for seat in seats:
            before.step(seat, joint[seat])
        assert str(state) == openspiel.games.canonical(before.to_json())


# -- the checks of OpenSpiel's Python games' tests ---------------------------------------------------


def test_load_by_name_with_parameters() -> None:
    game = pyspiel.load_game("spieltafel_niagara(players=4)")
    assert game.num_players() == 4
    assert game.get_type().short_name == "spieltafel_niagara"
    by_dict = pyspiel.load_game("spieltafel_niagara", {"players": 5, "round_limit": 100, "ending": "finish-round"})
    assert by_dict.num_players() == 5
    assert by_dict.spec.name == "niagara"
    assert by_dict.options["round-limit"] == "100"
    assert by_dict.options["ending"] == "finish-round"
    from_string = pyspiel.load_game("spieltafel_niagara(players=3,round_limit=100)")
    assert from_string.max_game_length() == 100 * 3 * 40


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_game_type_and_info(game: Game, players: int) -> None:
    loaded = load(game, players)
    kind = loaded.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    expected = pyspiel.GameType.Dynamics.SIMULTANEOUS if game.simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.dynamics == expected
    assert loaded.num_distinct_actions() == game.action_space_size(players)
    assert loaded.max_game_length() == game.max_game_length(players, game.resolve_options({}))
    assert loaded.max_chance_outcomes() == DEALS
    assert loaded.min_utility() == pytest.approx(-1 / (players - 1))
    assert loaded.max_utility() == 1.0
    assert loaded.utility_sum() == 0.0


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_pickle_serialise_and_clone(game: Game, players: int) -> None:
    loaded = load(game, players)
    assert str(pickle.loads(pickle.dumps(loaded))) == str(loaded)
    state = play_randomly(loaded.new_initial_state(), 30, np.random.RandomState(4))
    clone = state.clone()
    assert clone.history() == state.history()
    assert clone.move_number() == state.move_number()
    assert str(clone) == str(state)
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(loaded, state))
    assert str(new_game) == str(loaded)
    assert str(new_state) == str(state)
    assert new_state.history() == state.history()
    for seat in range(players):
        assert new_state.information_state_string(seat) == state.information_state_string(seat)
    play_randomly(clone, 10, np.random.RandomState(5))
    assert str(new_state) == str(state), "a clone shares nothing with its original"


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_actions_are_our_notation_and_illegal_ones_are_refused(game: Game, players: int) -> None:
    state = play_randomly(load(game, players).new_initial_state(), 1, np.random.RandomState(6))
    seat = state.engine.seats_to_act()[0]
    legal = state.legal_actions(seat)
    assert [state.action_to_string(seat, a) for a in legal] == [state.engine.action_text(seat, a) for a in legal]
    illegal = next(a for a in range(game.action_space_size(players)) if a not in legal)
    before = str(state)
    with pytest.raises(IllegalActionError):
        if state.is_simultaneous_node():
            state.apply_actions([illegal] * players)
        else:
            state.apply_action(illegal)
    assert str(state) == before


def test_returns_are_zero_sum_from_the_winners() -> None:
    assert returns_for([0], 2) == [1.0, -1.0]
    assert returns_for([0, 1], 2) == [0.0, 0.0]
    assert returns_for([2], 3) == pytest.approx([-0.5, -0.5, 1.0])
    assert returns_for([1, 3], 4) == pytest.approx([-1 / 3, 1 / 3, -1 / 3, 1 / 3])
    assert returns_for([], 3) == [0.0, 0.0, 0.0]


# -- information states never depend on hidden information -----------------------------------------


def views_of(state: object, seat: int) -> tuple[str, list[float], str, list[float]]:
    return (
        state.information_state_string(seat),
        list(state.information_state_tensor(seat)),
        state.observation_string(seat),
        list(state.observation_tensor(seat)),
    )


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, DEALS - 1), steps=st.integers(0, 150), sampler_seed=st.integers(0, 2**31))
def test_information_state_never_depends_on_hidden_information(
    game: Game, players: int, deal: int, steps: int, sampler_seed: int
) -> None:
    """Two states that differ only in what a seat cannot see (the second drawn from the seat's
    information set by ``resample_from_infostate``, the engine's ``determinise``) give that seat the
    same information-state string and tensor, and the same observation string and tensor."""
    state = load(game, players).new_initial_state()
    state.apply_action(deal)
    play_randomly(state, steps, np.random.RandomState(deal))
    sampler = np.random.RandomState(sampler_seed)
    for seat in range(players):
        twin = state.resample_from_infostate(seat, sampler.uniform)
        assert views_of(twin, seat) == views_of(state, seat)
        assert twin.legal_actions(seat) == state.legal_actions(seat)
        assert twin.current_player() == state.current_player()


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_resampling_changes_hidden_information(game: Game, players: int) -> None:
    """The property above is not empty: resampled states do differ from the real one."""
    state = play_randomly(load(game, players).new_initial_state(), 20, np.random.RandomState(7))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert any(str(state.resample_from_infostate(seat, sampler)) != str(state) for seat in range(players))
