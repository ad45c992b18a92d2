"""OpenSpiel's bots seated beside ours: named like every bot, honest (only the seat's view and
samples), legal, and with a clear error without OpenSpiel."""

from __future__ import annotations

import sys

import pytest

from spieltafel.arena.tournament import check_tournament, run_tournament
from spieltafel.bots import make_bot
from spieltafel.core import Rng, SpieltafelError, get_game
from spieltafel.match import choose

pytest.importorskip("pyspiel")


@pytest.mark.parametrize(
    "name",
    [
        "openspiel-ismcts:1",
        "openspiel-ismcts:1e-4s",
        "openspiel-ismcts:4",
        "openspiel-ismcts:0.02s",
        "openspiel-mcts:4",
        "openspiel-mcts:0.02s",
        "openspiel-random",
    ],
)
def test_openspiel_bots_play_legal_actions_in_every_game(name: str) -> None:
    for game in (get_game("iquazu"), get_game("haleakala")):
        bot = make_bot(name, seed=3)
        state = game.new_state(game.min_players, seed=5)
        rng = Rng(1)
        for _ in range(6):
            seat = state.seats_to_act()[0]
            action = choose(bot, state, seat)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            seat = state.seats_to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_a_seat_of_a_simultaneous_choice_may_choose_before_the_others() -> None:
    """Niagara's paddle cards: the last seat asked first; the earlier seats' secret choices are drawn
    in the bot's sample, not taken from the real state."""
    state = get_game("niagara").new_state(3, seed=2)
    assert len(state.seats_to_act()) == 3
    for name in ("openspiel-ismcts:3", "openspiel-mcts:3"):
        action = choose(make_bot(name, seed=1), state, 2)
        assert action in state.legal_actions(2)


def test_iteration_budgets_are_reproducible() -> None:
    state = get_game("iquazu").new_state(2, seed=9)
    seat = state.seats_to_act()[0]
    first = [choose(make_bot("openspiel-ismcts:8", seed=4), state, seat) for _ in range(2)]
    assert first[0] == first[1]


def test_a_tournament_seats_openspiel_bots_beside_ours() -> None:
    assert check_tournament("iquazu", 2, ["openspiel-ismcts:3", "greedy"], 2, 1, True) == [
        "openspiel-ismcts:3",
        "greedy",
    ]
    result = run_tournament("iquazu", 2, ["openspiel-random", "ismcts:5"], games=2)
    assert len(result.outcomes) == 2


@pytest.mark.parametrize(
    "name",
    [
        "openspiel-foo",
        "openspiel-ismcts:abc",
        "openspiel-ismcts:0s",
        "openspiel-random:5",
        "ismcts:-3",
        "openspiel-ismcts:5:rollouts=fast",
        "openspiel-ismcts:5:6",
        "openspiel-ismcts::rollouts=engine",
        "openspiel-random:rollouts=engine",
    ],
)
def test_bad_names_are_refused_in_one_line(name: str) -> None:
    with pytest.raises(SpieltafelError) as error:
        make_bot(name)
    assert "\n" not in str(error.value)


def test_without_openspiel_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spieltafel.openspiel.bots", None)
    with pytest.raises(SpieltafelError, match=r"pip install 'spieltafel\[openspiel\]'"):
        make_bot("openspiel-ismcts")


def test_our_ismcts_takes_a_budget() -> None:
    bot = make_bot("ismcts:0.05s")
    assert (bot.iterations, bot.seconds) == (None, 0.05)
    bot = make_bot("ismcts:40")
    assert (bot.iterations, bot.seconds) == (40, None)
    assert (bot.rollout_depth, bot.temperature) == ("game", None)  # hard's search: the defaults


def test_our_ismcts_takes_its_search_settings_for_experiments() -> None:
    bot = make_bot("ismcts:1s:depth=end:temperature=2.5")
    assert (bot.iterations, bot.seconds, bot.rollout_depth, bot.temperature) == (None, 1.0, None, 2.5)
    assert bot.name == "ismcts:1s:depth=end:temperature=2.5"
    assert make_bot("ismcts:300:depth=0").rollout_depth == 0


@pytest.mark.parametrize(
    "name",
    [
        "ismcts:1s:depth=-1",
        "ismcts:1s:depth=x",
        "ismcts:1s:temperature=0",
        "ismcts:1s:width=3",
        "ismcts:1s:depth=4:depth=5",
        "ismcts:1s:",
        "ismcts:1s:temperature=inf",
    ],
)
def test_bad_search_settings_are_refused_with_what_is_allowed(name: str) -> None:
    with pytest.raises(SpieltafelError, match=r"give depth=N .* and temperature=T"):
        make_bot(name)


def _positions(game_name: str, count: int, seed: int) -> list[tuple[object, int]]:
    """``count`` positions of random games of ``game_name`` (the engine state and a seat to act)."""
    game = get_game(game_name)
    rng = Rng(seed)
    positions = []
    for index in range(count):
        state = game.new_state(game.min_players if game.name != "niagara" else 3, seed=seed + index)
        for _ in range(rng.below(60)):
            if state.is_over:
                break
            seat = state.seats_to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over:
            positions.append((state, state.seats_to_act()[0]))
    return positions


@pytest.mark.parametrize("game_name", ["iquazu", "haleakala", "niagara"])
def test_engine_rollouts_draw_what_openspiels_rollouts_draw(game_name: str) -> None:
    """``rollouts=engine``: from the same position and generator, the same returns, and the generator
    left where OpenSpiel's own rollout leaves it (so the search that follows draws the same too)."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from spieltafel.openspiel.bots import EngineRolloutEvaluator
    from spieltafel.openspiel.games import load, wrap

    positions = _positions(game_name, 12, seed=40)
    assert len(positions) >= 8
    decided = 0
    for index, (state, _) in enumerate(positions):
        game = load(
            state.game, state.players, **state.options, **({"turn_based": True} if state.game.simultaneous else {})
        )
        theirs = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(index))
        ours = EngineRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(index))
        expected = theirs.evaluate(wrap(game, state.clone()))
        got = ours.evaluate(wrap(game, state.clone()))
        assert got.tolist() == expected.tolist()
        assert abs(sum(got)) < 1e-9
        decided += any(got)
        assert ours._random_state.randint(1 << 30) == theirs._random_state.randint(1 << 30)
    assert decided >= 3, "most rollouts end with a winner (Niagara's random games often tie at 0 gems)"


@pytest.mark.parametrize("rollouts, max_length", [(3, None), (2, 40), (1, 0)])
def test_engine_rollouts_average_and_stop_as_openspiels(rollouts: int, max_length: int | None) -> None:
    """Several rollouts averaged, and OpenSpiel's own length limit (checked after an action: a limit of 0
    still takes one), give what OpenSpiel's evaluator gives."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from spieltafel.openspiel.bots import EngineRolloutEvaluator
    from spieltafel.openspiel.games import load, wrap

    for index, (state, _) in enumerate(_positions("haleakala", 6, seed=90)):
        game = load(state.game, state.players)
        made = [
            kind(n_rollouts=rollouts, random_state=np.random.RandomState(index), max_length=max_length)
            for kind in (mcts.RandomRolloutEvaluator, EngineRolloutEvaluator)
        ]
        theirs, ours = (evaluator.evaluate(wrap(game, state.clone())) for evaluator in made)
        assert ours.tolist() == theirs.tolist()
        assert made[0]._random_state.randint(1 << 30) == made[1]._random_state.randint(1 << 30)


@pytest.mark.parametrize("game_name", ["iquazu", "haleakala", "niagara"])
def test_engine_rollouts_leave_openspiels_choices_unchanged(game_name: str) -> None:
    """The same bot with and without ``rollouts=engine`` chooses the same action at every position."""
    positions = _positions(game_name, 4, seed=70)
    for index, (state, seat) in enumerate(positions):
        for kind in ("openspiel-ismcts:6", "openspiel-mcts:6"):
            plain = choose(make_bot(kind, seed=index), state, seat)
            fast = choose(make_bot(f"{kind}:rollouts=engine", seed=index), state, seat)
            assert fast == plain, (kind, index)


def test_a_whole_game_replays_the_same_with_engine_rollouts() -> None:
    """Haleakala from the first move to the end: every action of ``openspiel-ismcts:5`` the same."""
    records = []
    for name in ("openspiel-ismcts:5", "openspiel-ismcts:5:rollouts=engine"):
        bots = [make_bot(name, seed=8), make_bot("greedy", seed=8)]
        state = get_game("haleakala").new_state(2, seed=12)
        actions = []
        while not state.is_over:
            seat = state.seats_to_act()[0]
            action = choose(bots[seat], state, seat)
            state.apply(seat, action)
            actions.append(action)
        records.append((actions, state.winners()))
    assert records[0] == records[1]
    assert len(records[0][0]) > 10
