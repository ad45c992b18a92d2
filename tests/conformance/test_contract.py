"""The engine contract, checked over every registered game and every player count.

Each test plays random games (seeded) and checks one promise of the contract at every step.
A game joins this suite by registering itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from spieltafel.core import (
    Game,
    GameRecord,
    NotYourTurnError,
    Recorder,
    Rng,
    SpieltafelError,
    State,
    all_games,
    replay,
)

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]
SEEDS = (1, 2)


def positions(game: Game, players: int, seed: int) -> Iterator[tuple[State, int, int]]:
    """Every decision of a random game: (state before, acting seat, chosen action)."""
    state = game.new_state(players, seed)
    rng = Rng(seed + 1000)
    while not state.is_over:
        seat = state.seats_to_act()[rng.below(len(state.seats_to_act()))]
        action = rng.choice(state.legal_actions(seat))
        yield state, seat, action
        state.apply(seat, action)


def sampled(game: Game, players: int, seed: int) -> Iterator[tuple[int, State]]:
    """The positions of a random game to check in depth: every one of the first 300, then every
    fifth (Niagara's random games run to the round limit: thousands of decisions)."""
    for number, (state, _, _) in enumerate(positions(game, players, seed)):
        if number < 300 or number % 5 == 0:
            yield number, state


def dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_random_games_end_with_scores_and_winners(game: Game, players: int) -> None:
    for seed in range(5):
        final = game.new_state(players, seed)
        rng = Rng(seed + 1000)
        for _ in range(100_000):
            if final.is_over:
                break
            seat = final.seats_to_act()[rng.below(len(final.seats_to_act()))]
            final.apply(seat, rng.choice(final.legal_actions(seat)))
        assert final.seats_to_act() == (), "the game did not end within 100,000 actions"
        assert len(final.scores()) == players
        winners = final.winners()
        assert winners and set(winners) <= set(range(players))
        assert all(final.legal_actions(s) == [] for s in range(players))


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_same_seed_same_game_other_seed_other_game(game: Game, players: int) -> None:
    assert dump(game.new_state(players, 7)) == dump(game.new_state(players, 7))
    assert dump(game.new_state(players, 7)) != dump(game.new_state(players, 8))


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_json_round_trip_at_every_step(game: Game, players: int) -> None:
    for state, seat, action in positions(game, players, SEEDS[0]):
        document = json.loads(json.dumps(state.to_json()))
        rebuilt = game.state_from_json(document)
        assert dump(rebuilt) == dump(state)
        assert rebuilt.legal_actions(seat) == state.legal_actions(seat)
        rebuilt.apply(seat, action)
        twin = state.clone()
        twin.apply(seat, action)
        assert dump(rebuilt) == dump(twin)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_clones_are_independent(game: Game, players: int) -> None:
    rng = Rng(5)
    for number, state in sampled(game, players, SEEDS[0]):
        if number % 25:
            continue
        before = dump(state)
        twin = state.clone()
        while not twin.is_over:
            seat = twin.seats_to_act()[0]
            twin.step(seat, rng.choice(twin.legal_actions(seat)))
        assert dump(state) == before


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_views_do_not_change_with_hidden_information(game: Game, players: int) -> None:
    """Determinising for seat i changes only what i cannot see: i's view stays the same, and so
    does the spectator's. Over a game, the determinisations must actually change something."""
    changed = False
    for seed in SEEDS:
        for number, state in sampled(game, players, seed):
            for seat in range(players):
                det = state.determinise(seat, Rng(number * 10 + seat))
                assert det.view(seat) == state.view(seat)
                assert det.view(None) == state.view(None)
                assert det.legal_actions(seat) == state.legal_actions(seat)
                changed = changed or dump(det) != dump(state)
    assert changed, "determinise never resampled anything"


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_determinise_depends_only_on_the_seats_view(game: Game, players: int) -> None:
    """Two states seat i cannot tell apart give the same determinisation for the same rng: search
    bots that simulate on determinisations are then honest by construction."""
    for number, state in sampled(game, players, SEEDS[0]):
        for seat in range(players):
            other = state.determinise(seat, Rng(number + 100))
            assert dump(state.determinise(seat, Rng(number))) == dump(other.determinise(seat, Rng(number)))


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_views_hold_no_secrets(game: Game, players: int) -> None:
    for _, state in sampled(game, players, SEEDS[0]):
        for seat in [None, *range(players)]:
            view = state.view(seat)
            text = json.dumps(view)  # JSON-ready
            assert '"seed"' not in text and '"rng"' not in text


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_events_tell_no_more_than_views(game: Game, players: int) -> None:
    """Two positions seat i cannot tell apart, the same action applied: if i's views afterwards
    are the same, i's views of the events must be the same too (an event leaking another seat's
    secret would differ). The same holds for spectators."""
    compared = 0
    for number, (state, seat, action) in enumerate(positions(game, players, SEEDS[1])):
        for observer in range(players):
            det = state.determinise(observer, Rng(number * 10 + observer))
            if action not in det.legal_actions(seat):
                continue
            real, twin = state.clone(), det
            real_events, twin_events = real.apply(seat, action), twin.apply(seat, action)
            for who in (observer, None):
                if real.view(who) == twin.view(who):
                    compared += 1
                    assert [e.view(who) for e in real_events] == [e.view(who) for e in twin_events]
            json.dumps([e.view(observer) for e in real_events])
    assert compared > 0


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_notation_round_trips(game: Game, players: int) -> None:
    for state, _, _ in positions(game, players, SEEDS[0]):
        for seat in state.seats_to_act():
            for action in state.legal_actions(seat):
                text = state.action_text(seat, action)
                assert state.parse_action(seat, text) == action, text
                assert 0 <= action < game.action_space_size(players)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_every_legal_action_applies(game: Game, players: int) -> None:
    for state, _, _ in positions(game, players, SEEDS[0]):
        for seat in state.seats_to_act():
            for action in state.legal_actions(seat):
                twin = state.clone()
                events = twin.apply(seat, action)
                assert isinstance(events, list)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_refused_actions_change_nothing(game: Game, players: int) -> None:
    rng = Rng(9)
    size = game.action_space_size(players)
    for state, _, _ in positions(game, players, SEEDS[0]):
        before = dump(state)
        acting = state.seats_to_act()
        for seat in acting:
            legal = set(state.legal_actions(seat))
            for action in (rng.below(size) for _ in range(5)):
                if action not in legal:
                    with pytest.raises(SpieltafelError) as refused:
                        state.apply(seat, action)
                    assert str(refused.value)
            for text in ("", "xyzzy", "place", "42 42 42", "\u00e9\u00e9"):
                with pytest.raises(SpieltafelError):
                    state.apply(seat, text)
        idle = [s for s in range(players) if s not in acting]
        if idle:
            with pytest.raises(NotYourTurnError):
                state.apply(idle[0], 0)
        assert dump(state) == before


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_records_replay_exactly(game: Game, players: int) -> None:
    state = game.new_state(players, 11)
    recorder = Recorder(state, ["random"] * players)
    rng = Rng(3)
    while not state.is_over:
        seat = state.seats_to_act()[rng.below(len(state.seats_to_act()))]
        action = rng.choice(state.legal_actions(seat))
        recorder.add(state, seat, action)
        state.apply(seat, action)
    record = recorder.finish(state)
    reloaded = GameRecord.model_validate_json(record.model_dump_json())
    assert dump(replay(reloaded)) == dump(state)
