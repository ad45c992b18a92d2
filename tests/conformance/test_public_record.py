"""The record of an unfinished game that may leave the engine (issue 9): no seed, no face-down choice
of another seat; checked for every game, every player count, every seat and the spectator, at every
point of the first 90 decisions of a random game, every 45th point up to 360 (Niagara's random games
run to thousands of decisions), and at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spieltafel.core import Event, Game, GameRecord, Recorder, Rng, all_games, get_game, public_record

CASES = [(game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)]
IDS = [f"{game.name}-{players}p" for game, players in CASES]
SEED = 7_340_021
"""Distinctive, so that finding its digits in a public record means the seed, not a card or a count."""


def played(game: Game, players: int) -> tuple[GameRecord, list[list[Event]]]:
    """A whole random game's record (seats chosen at random among those to act) and each action's events."""
    state = game.new_state(players, SEED)
    recorder = Recorder(state, ["random"] * players)
    rng = Rng(SEED)
    events: list[list[Event]] = []
    while not state.is_over:
        acting = state.seats_to_act()
        seat = acting[rng.below(len(acting))]
        action = rng.choice(state.legal_actions(seat))
        recorder.add(state, seat, action)
        events.append(state.apply(seat, action))
    return recorder.finish(state), events


def points(length: int) -> Iterator[int]:
    yield from range(min(length, 90))
    yield from range(90, min(length, 360), 45)
    yield length


def prefix(record: GameRecord, k: int) -> GameRecord:
    return record.model_copy(update={"actions": record.actions[:k], "result": None}, deep=True)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_unfinished_records_hold_no_seed_and_no_face_down_choice(game: Game, players: int) -> None:
    record, _ = played(game, players)
    for k in points(len(record.actions)):
        over = k == len(record.actions)
        for seat in (None, *range(players)):
            public = public_record(prefix(record, k), seat)
            kept = len(public.actions)
            assert public.actions == record.actions[:kept] and kept <= k
            if over:
                assert public.seed == SEED and public.result == record.result and kept == k
                continue
            assert public.seed is None and public.result is None
            assert str(SEED) not in public.model_dump_json()
            if not game.simultaneous:
                assert kept == k  # every action of a game without secret choices is public
                continue
            assert any_point_quiet(public, seat, players), (k, seat)


def any_point_quiet(public: GameRecord, seat: int | None, players: int) -> bool:
    """The public actions end at a point where every seat was still to choose, followed only by
    ``seat``'s own actions."""
    state = GameRecord(**{**public.model_dump(), "seed": SEED}).new_state()
    quiet = [len(state.seats_to_act()) == players]
    for recorded in public.actions:
        state.apply(recorded.seat, recorded.action)
        quiet.append(len(state.seats_to_act()) == players)
    own_tail = len(public.actions)
    while own_tail > 0 and public.actions[own_tail - 1].seat == seat:
        own_tail -= 1
    return any(quiet[own_tail:])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_kept_paddle_card_of_another_seat_was_revealed(players: int) -> None:
    """Niagara: „Alle Spieler wählen verdeckt eine Paddelkarte": a kept `play` of another seat has
    been turned face up (a public 'reveal' event of that seat) before the record was cut."""
    record, events = played(get_game("niagara"), players)
    reveals = {
        (e.public["seat"], e.public["card"], i) for i, caused in enumerate(events) for e in caused if e.kind == "reveal"
    }
    for k in points(len(record.actions) - 1):
        for seat in (None, *range(players)):
            public = public_record(prefix(record, k), seat)
            for i, recorded in enumerate(public.actions):
                if recorded.seat == seat or not recorded.action.startswith("play "):
                    continue
                card = recorded.action.removeprefix("play ")
                shown = any((recorded.seat, card, j) in reveals for j in range(i, k))
                assert shown, (k, seat, i)  # turned face up before the cut


def test_the_issue_9_game_keeps_no_bot_card() -> None:
    """`echo q | spieltafel play niagara --players 3 --seat 0 --bots random --seed 5`: the bots chose
    face down before the person; their `play` actions must not be in the saved record."""
    game = get_game("niagara")
    state = game.new_state(3, 5)
    recorder = Recorder(state, ["human", "random", "random"])
    for seat in (1, 2):
        action = state.legal_actions(seat)[0]
        recorder.add(state, seat, action)
        state.apply(seat, action)
    assert public_record(recorder.record, 0).actions == []
    mine = state.legal_actions(0)[0]
    recorder.add(state, 0, mine)
    state.apply(0, mine)
    assert public_record(recorder.record, 0).actions == []  # the bots' cards are still face down
