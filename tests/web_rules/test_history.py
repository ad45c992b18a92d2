"""Looking back during a running game: each seat sees its own views only, spectators the public one."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord, RecordedAction
from spieltafel.server.web.i18n import gettext_for
from spieltafel.server.web.replay import board_module, words_module

from .conftest import Player, engine_at, page, play, sign_up, start_table, table_log


@pytest.fixture(scope="module")
def running(client: TestClient) -> tuple[int, list[Player], GameRecord]:
    """Niagara for 3, stopped while a secret paddle card is chosen by some seats but not all."""
    players = [sign_up(client, name) for name in ("eva", "finn", "gus")]
    table_id = start_table(client, "niagara", players)
    play(client, table_id, players, moves=20, seed=8)
    for _ in range(200):
        state = client.get(f"/api/tables/{table_id}/state").json()
        if state["view"]["phase"] == "secret" and 0 < len(state["to_act"]) < 3:
            break
        play(client, table_id, players, moves=1, seed=len(state["to_act"]) + state["seq"])
    else:
        pytest.fail("no pending secret choice reached")
    seed, moves = table_log(client, table_id)
    record = GameRecord(
        game="niagara",
        players=3,
        options=client.get(f"/api/tables/{table_id}").json()["options"],
        seed=seed,
        actions=[RecordedAction(seat=seat, action=notation) for seat, notation in moves],
    )
    return table_id, players, record


def _board(html: str) -> str:
    found = re.search(r'<figure class="replay-board board"[^>]*>\s*(<svg.*?</svg>)', html, re.S)
    assert found, "no board on the page"
    return found.group(1)


def test_each_seat_sees_its_own_view_at_every_step(
    client: TestClient, running: tuple[int, list[Player], GameRecord]
) -> None:
    table_id, players, record = running
    board = board_module("niagara")
    for step in range(len(record.actions) + 1):
        state, _ = engine_at(record, step)
        for seat, player in enumerate(players):
            html = page(client, f"/tables/{table_id}/history?step={step}", token=player.token).text
            assert _board(html) == board.render_board(state.view(seat), seat, [], gettext_for("en")), (step, seat)
        spectator = page(client, f"/tables/{table_id}/history?step={step}").text
        assert _board(spectator) == board.render_board(state.view(None), None, [], gettext_for("en"))


def test_no_secret_of_another_seat_and_no_seed(
    client: TestClient, running: tuple[int, list[Player], GameRecord]
) -> None:
    table_id, players, record = running
    assert record.seed is not None
    state, _ = engine_at(record, len(record.actions))
    waiting = state.seats_to_act()
    chosen = [seat for seat in range(3) if seat not in waiting]
    assert chosen and waiting
    words = words_module("niagara")
    secret_labels = {
        words.action_label(a.action, lambda s: s) for a in record.actions if a.action.startswith("play ")
    }
    for viewer in [*waiting, None]:
        token = players[viewer].token if viewer is not None else None
        for step in (len(record.actions), len(record.actions) - 1, 1):
            html = page(client, f"/tables/{table_id}/history?step={step}", token=token).text
            text = html_lib.unescape(html)
            # the move list covers the game so far: the viewer's own moves are named, nobody else's
            own = {words.action_label(a.action, lambda s: s) for a in record.actions if a.seat == viewer}
            for label in secret_labels - own:
                assert label not in text, (viewer, step, label)
            assert str(record.seed) not in html
            assert "seed" not in text.lower()
            assert "replay-full-state" not in html and "record.json" not in html
            assert 'data-view="all"' not in html
    # the engine agrees: the hidden choices are not in these views
    for viewer in waiting:
        for seat in chosen:
            assert state.view(viewer) != state.view(seat)


def test_events_are_the_seats_own(client: TestClient, running: tuple[int, list[Player], GameRecord]) -> None:
    table_id, players, record = running
    words = words_module("niagara")
    step = len(record.actions)
    _, events = engine_at(record, step)
    for seat, player in enumerate(players):
        text = html_lib.unescape(page(client, f"/tables/{table_id}/history?step={step}", token=player.token).text)
        for event in events:
            assert words.event_text(event.view(seat), lambda s: s) in text


def test_navigation(client: TestClient, running: tuple[int, list[Player], GameRecord]) -> None:
    table_id, players, record = running
    base = f"/tables/{table_id}/history"
    html = page(client, base, token=players[0].token).text
    assert f'data-step="{len(record.actions)}"' in html  # the present by default
    links = dict(re.findall(r'href="([^"]+)" data-replay="(\w+)"', html))
    assert links == {f"{base}?step=0": "first", f"{base}?step={len(record.actions) - 1}": "back"}
    assert 'data-step="3"' in page(client, f"{base}?step=3", token=players[0].token).text
    assert f'data-step="{len(record.actions)}"' in page(client, f"{base}?step=100000", token=players[0].token).text


def test_history_of_unknown_open_and_finished_tables(client: TestClient) -> None:
    assert page(client, "/tables/424242/history").status_code == 404
    host = sign_up(client, "hank")
    body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_id = client.post("/api/tables", json=body, headers=host.headers).json()["id"]
    response = page(client, f"/tables/{table_id}/history", token=host.token)
    assert response.status_code == 409 and "<svg" not in response.text
    guest = sign_up(client, "ivy")
    client.post(f"/api/tables/{table_id}/join", json={}, headers=guest.headers)
    play(client, table_id, [host, guest])
    done = page(client, f"/tables/{table_id}/history?step=4", token=guest.token)
    assert done.status_code == 303
    assert done.headers["location"] == f"/tables/{table_id}/replay?step=4&as=1"


def test_the_table_page_links_to_the_history(
    client: TestClient, running: tuple[int, list[Player], GameRecord]
) -> None:
    table_id, players, _record = running
    table_page = page(client, f"/tables/{table_id}", token=players[1].token)
    assert table_page.status_code == 200
    assert f'href="/tables/{table_id}/history"' in table_page.text
