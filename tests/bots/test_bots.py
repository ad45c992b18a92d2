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


@pytest.mark.parametrize("iteration_seconds", [0.001, 0.03, 0.2, 0.45])
def test_the_time_cap_covers_the_last_iteration_and_the_choice(
    iteration_seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a clock where every determinisation + iteration takes ``iteration_seconds`` (a slow core),
    the search stops while its last iteration still ends inside the 1 s cap, less the time kept back
    for the choice; at least one iteration always runs."""
    clock = [100.0]
    monkeypatch.setattr("spieltafel.bots.ismcts.time.perf_counter", lambda: clock[0])
    state = get_game("iquazu").new_state(3, 1)

    def slow_sample(rng: Rng) -> State:
        clock[0] += iteration_seconds
        return state.determinise(0, rng)

    bot = IsmctsBot(0, iterations=None, seconds=1.0)
    observation = Observation(0, state.legal_actions(0), lambda: state.view(0), slow_sample)
    bot.choose(observation)
    first_sample = iteration_seconds  # choose() draws one sample before the search starts
    assert clock[0] - 100.0 <= 1.0 - IsmctsBot._reserve(1.0) or bot.last_iterations == 1
    assert bot.last_iterations >= max(1, int((1.0 - IsmctsBot._reserve(1.0) - first_sample) / iteration_seconds / 3))


def test_bots_never_receive_the_state() -> None:
    """An Observation exposes the seat, its legal actions, its view, samples of its information set and
    how many of its own latest moves it may take back (issue 25; a count the seat's own state message
    carries): nothing else."""
    public = {n for n in dir(Observation) if not n.startswith("_")}
    assert public == {"seat", "legal", "view", "sample", "undo"}


TRUE_SEED = (1 << 40) + 12_345
"""A seed no small count in a document can equal by chance."""
GAME_CASES = [(g.name, n) for g in all_games() for n in range(g.min_players, g.max_players + 1)]


def integers(value: object) -> set[int]:
    """Every whole number anywhere in a JSON-like value (bools excluded)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(integers(v) for v in value.values()), *(integers(k) for k in value))
    if isinstance(value, list | tuple):
        return set().union(*(integers(v) for v in value))
    return set()


def deal(game: str, players: int, seed: int, options: dict[str, str]) -> dict[str, object]:
    """The set-up a seed gives (every hidden card of the start), without the seed itself."""
    document = get_game(game).new_state(players, seed, options).to_json()
    return {k: v for k, v in document.items() if k not in ("seed", "rng")}


class Spy:
    """A bot that keeps what it was given."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def choose(self, observation: Observation) -> int:
        self.seen.append(observation)
        return observation.legal[0]


@pytest.mark.parametrize(("game", "players"), GAME_CASES, ids=[f"{g}-{n}p" for g, n in GAME_CASES])
def test_nothing_a_bot_receives_rebuilds_the_hidden_set_up(game: str, players: int) -> None:
    """Issue 8: determinise copied the true seed, and ``new_state(players, sample.seed, options)``
    rebuilt every hidden card. No number a bot receives (a sample, its view, its legal actions) may
    set up the true deal again, and a sample's chance generator is not the true one."""
    from spieltafel.match import choose

    spec = get_game(game)
    truth = deal(game, players, TRUE_SEED, {})
    if truth == deal(game, players, TRUE_SEED + 1, {}):
        pytest.skip(f"{game}'s set-up has no chance: the seed hides nothing")
    state = spec.new_state(players, TRUE_SEED)
    rng = Rng(5)
    for step in range(60):
        if state.is_over:
            break
        seat = state.seats_to_act()[0]
        spy = Spy()
        choose(spy, state, seat)
        observation = spy.seen[0]
        sample = observation.sample(Rng(step))
        assert sample.seed != TRUE_SEED and sample.to_json()["rng"] != state.to_json()["rng"]
        received = integers(sample.to_json()) | integers(observation.view) | set(observation.legal)
        for number in sorted(n for n in received if 0 <= n < 1 << 64):
            assert deal(game, players, number, dict(state.options)) != truth, number
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_the_playout_depth_is_the_games_own_for_the_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """``heuristics.PLAYOUT_DEPTHS`` (by player count) sets how far a playout runs before the heuristic
    judges: ``None`` plays to the end (the heuristic unused), a number stops there; an explicit
    ``rollout_depth`` overrides it."""
    from spieltafel.games.iquazu import heuristics

    judged: list[State] = []
    judge = heuristics.values
    monkeypatch.setattr(heuristics, "values", lambda s: judged.append(s) or judge(s))
    state = get_game("iquazu").new_state(3, 1)

    def judgements(depths: dict[int, int | None], **settings: int | None) -> int:
        monkeypatch.setattr(heuristics, "PLAYOUT_DEPTHS", depths, raising=False)
        judged.clear()
        IsmctsBot(0, iterations=20, **settings).choose(observe(state, 0))  # type: ignore[arg-type]
        return len(judged)

    assert judgements({3: None}) == 0
    assert judgements({2: None, 4: None}) == 20  # none for three players: the default, 8 actions
    assert judgements({3: 0}) == 20
    assert judgements({3: 0}, rollout_depth=None) == 0
