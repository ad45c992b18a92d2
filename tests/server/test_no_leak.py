"""The no-leak audit in CI (issue 12): a game of each Iquazú and Haleakala player count and one of Niagara
for three through a real ``spieltafel serve`` with every seat and two spectators connected (see leakcheck.py;
``python bench/no_leak.py`` runs 300 games of every title and player count). The checker itself is shown
to catch planted leaks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from spieltafel.core import GameRecord, get_game

from .helpers import replay_states
from .leakcheck import GENEROUS, Observed, audit, check_game, parse_plan
from .processes import Server

CI_PLAN = "iquazu:2=1,iquazu:3=1,iquazu:4=1,haleakala:2=1,niagara:3=1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("no-leak") / "data", SPIELTAFEL_RATE_LIMITS=GENEROUS)
    yield running
    running.stop()


def test_whole_games_show_nothing_of_other_seats(server: Server) -> None:
    tally = asyncio.run(audit(server.url, parse_plan(CI_PLAN), concurrency=3))
    print(f"no-leak audit: {tally.games} games, {tally.socket_messages} socket messages, {tally.states_checked} "
          f"states, {tally.pages_checked} pages, {tally.texts_checked} other answers, {len(tally.leaks)} leaks")
    assert not tally.leaks, "\n".join(tally.leaks[:20])
    assert tally.games == 5 and tally.states_checked > 500 and tally.pages_checked > 20
    assert not server.errors(), "".join(server.errors()[:20])


def _record(players: int = 3) -> GameRecord:
    state = get_game("iquazu").new_state(players, 123456789012345)
    actions = []
    for _ in range(6):
        seat = state.seats_to_act()[0]
        action = state.legal_actions(seat)[0]
        actions.append({"seat": seat, "action": state.action_text(seat, action)})
        state.apply(seat, action)
    return GameRecord.model_validate({"game": "iquazu", "players": players, "options": {}, "seed": 123456789012345,
                                      "seats": ["a", "b", "c"], "actions": actions})


def test_the_checker_catches_planted_leaks() -> None:
    record = _record()
    states, _ = replay_states(record)
    honest = {"seq": 3, "seat": 1, "to_act": [], "view": states[3].view(1), "legal": [], "events": [],
              "result": None}
    clean = Observed(states=[(1, json.loads(json.dumps(honest)))], texts=[(None, 3, "lobby", "[]")])
    assert check_game(record, clean).leaks == []
    other_hand = json.loads(json.dumps({**honest, "view": states[3].view(0)}))
    full_state = json.dumps(states[3].to_json())
    planted = [
        Observed(states=[(1, other_hand)]),  # seat 0's view sent to seat 1
        Observed(texts=[(None, 3, "lobby", f'{{"seed": {record.seed}}}')]),  # the seed
        Observed(texts=[(2, 3, "error", full_state)]),  # the full state
        Observed(texts=[(None, 3, "page", json.dumps(states[3].to_json()["pile"]))]),  # the deck order
    ]
    for observed in planted:
        assert check_game(record, observed).leaks, observed
