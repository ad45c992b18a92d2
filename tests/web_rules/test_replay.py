"""Replays of finished games: stepping, views of every seat and of everything, record download."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord
from spieltafel.server.web.i18n import gettext_for
from spieltafel.server.web.replay import Timeline, board_module, words_module

from .conftest import Player, engine_at, page, play, sign_up, start_table


@pytest.fixture(scope="module")
def finished(client: TestClient) -> tuple[int, list[Player], GameRecord]:
    """A game of Iquazú for 2, played to the end through the API."""
    players = [sign_up(client, "ana"), sign_up(client, "ben")]
    table_id = start_table(client, "iquazu", players)
    play(client, table_id, players, seed=3)
    record = GameRecord.model_validate(client.get(f"/api/tables/{table_id}/record").json())
    assert record.result is not None and record.actions
    return table_id, players, record


def _board(html: str) -> str:
    found = re.search(r'<figure class="replay-board board"[^>]*>\s*(<svg.*?</svg>)', html, re.S)
    assert found, "no board on the page"
    return found.group(1)


def _expected_board(record: GameRecord, step: int, seat: int | None, lang: str) -> str:
    state, _ = engine_at(record, step)
    return board_module(record.game).render_board(state.view(seat), seat, [], gettext_for(lang))


def _expected_events(record: GameRecord, step: int, seat: int | None, lang: str) -> list[str]:
    _, events = engine_at(record, step)
    words = words_module(record.game)
    return [words.event_text(event.view(seat), gettext_for(lang)) for event in events]


def _nav(html: str) -> dict[str, str]:
    return {
        name: html_lib.unescape(url)
        for url, name in re.findall(r'<a class="button replay-\w+" href="([^"]+)" data-replay="(\w+)"', html)
    }


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_view_at_several_steps_is_the_engines(
    client: TestClient, finished: tuple[int, list[Player], GameRecord], lang: str
) -> None:
    table_id, _, record = finished
    total = len(record.actions)
    for step in (0, 1, 7, total // 2, total):
        for view in ("all", "0", "1"):
            seat = None if view == "all" else int(view)
            response = page(client, f"/tables/{table_id}/replay?step={step}&as={view}", lang)
            assert response.status_code == 200, response.text[-500:]
            html = response.text
            assert _board(html) == _expected_board(record, step, seat, lang)
            for text in _expected_events(record, step, seat, lang):
                assert html_lib.escape(text, quote=False) in html or text in html_lib.unescape(html)
            assert f'data-step="{step}"' in html
            assert ("replay-full-state" in html) == (view == "all")


def test_secrets_of_a_step_by_view(client: TestClient, finished: tuple[int, list[Player], GameRecord]) -> None:
    """A draw's cards: in seat 0's view only its own hand; the view of everything marks who saw what."""
    table_id, _, record = finished
    draw = next(n for n, a in enumerate(record.actions, start=1) if a.action == "draw" and a.seat == 0)
    _, events = engine_at(record, draw)
    assert any(0 in event.private for event in events)
    base = f"/tables/{table_id}/replay?step={draw}"
    own, other, everything = (page(client, f"{base}&as={view}").text for view in ("0", "1", "all"))
    assert _board(own) != _board(other)
    assert 'class="event-secret"' in everything
    assert 'class="event-secret"' not in own and 'class="event-secret"' not in other
    words = words_module(record.game)
    secret = next(event for event in events if 0 in event.private)
    assert html_lib.unescape(everything).count(words.event_text(secret.view(0), lambda s: s)) >= 1


def test_first_back_forward_last(client: TestClient, finished: tuple[int, list[Player], GameRecord]) -> None:
    table_id, _, record = finished
    total = len(record.actions)
    base = f"/tables/{table_id}/replay"
    start = page(client, f"{base}?as=1")
    assert 'data-step="0"' in start.text
    assert _nav(start.text) == {"forward": f"{base}?step=1&as=1", "last": f"{base}?step={total}&as=1"}
    middle = _nav(page(client, f"{base}?step=5&as=1").text)
    assert middle == {
        "first": f"{base}?step=0&as=1",
        "back": f"{base}?step=4&as=1",
        "forward": f"{base}?step=6&as=1",
        "last": f"{base}?step={total}&as=1",
    }
    # following the links steps through the game; the last step shows the result
    url = middle["forward"]
    response = page(client, url)
    assert 'data-step="6"' in response.text
    end = page(client, _nav(response.text)["last"]).text
    assert f'data-step="{total}"' in end
    assert set(_nav(end)) == {"first", "back"}
    assert 'class="replay-result"' in end
    back = page(client, _nav(end)["back"]).text
    assert f'data-step="{total - 1}"' in back
    # a step past the end shows the end; nonsense is refused naming the parameter (issue 23), never a 500
    assert f'data-step="{total}"' in page(client, f"{base}?step=99999&as=all").text
    for query in ("step=-4&as=all", "step=0&as=7", "step=x&as=%3Cb%3E"):
        refused = client.get(f"{base}?{query}")
        assert refused.status_code == 422 and 'data-error="bad-number"' in refused.text and "<b>" not in refused.text


def test_slider_form_works_without_javascript(
    client: TestClient, finished: tuple[int, list[Player], GameRecord]
) -> None:
    table_id, _, record = finished
    html = page(client, f"/tables/{table_id}/replay?step=3&as=0").text
    form = re.search(r'<form class="replay-slider" method="get" action="([^"]+)"', html)
    assert form and form.group(1) == f"/tables/{table_id}/replay"
    assert '<input type="hidden" name="as" value="0">' in html
    assert f'type="range" name="step" min="0" max="{len(record.actions)}" value="3"' in html
    assert '<script type="module" src="/static/replay.js"></script>' in html
    assert client.get("/static/replay.js").status_code == 200


def test_move_list_in_words(client: TestClient, finished: tuple[int, list[Player], GameRecord]) -> None:
    table_id, _, record = finished
    html = html_lib.unescape(page(client, f"/tables/{table_id}/replay?step=2&as=all").text)
    words = words_module(record.game)
    for action in record.actions[:20]:
        assert words.action_label(action.action, lambda s: s) in html
    assert html.count("<li value=") == len(record.actions) + 1


def test_record_download(client: TestClient, finished: tuple[int, list[Player], GameRecord]) -> None:
    table_id, _, record = finished
    response = page(client, f"/tables/{table_id}/record.json")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    assert GameRecord.model_validate(json.loads(response.text)) == record
    assert f'href="/tables/{table_id}/record.json"' in page(client, f"/tables/{table_id}/replay").text


def test_running_game_and_unknown_table_have_no_replay(client: TestClient) -> None:
    players = [sign_up(client, "cleo"), sign_up(client, "dora")]
    table_id = start_table(client, "iquazu", players)
    play(client, table_id, players, moves=3)
    running = page(client, f"/tables/{table_id}/replay", token=players[0].token)
    assert running.status_code == 409
    assert 'data-error="not-over"' in running.text
    assert "<svg" not in running.text
    assert page(client, f"/tables/{table_id}/record.json").status_code == 409
    assert page(client, "/tables/999999/replay").status_code == 404
    assert page(client, "/tables/999999/record.json").status_code == 404


def test_timeline_matches_a_straight_replay() -> None:
    from spieltafel.core import Recorder, Rng, get_game

    state = get_game("niagara").new_state(3, 4)
    recorder = Recorder(state, ["a", "b", "c"])
    rng = Rng(2)
    for _ in range(300):
        seat = state.seats_to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        recorder.add(state, seat, action)
        state.apply(seat, action)
    timeline = Timeline.of_record(recorder.record)
    for step in (0, 1, 63, 64, 65, 128, 200, 300):
        expected, events = engine_at(recorder.record, step)
        got = timeline.at(step)
        assert got.state.to_json() == expected.to_json()
        assert [e.view(None) for e in got.events] == [e.view(None) for e in events]
    assert timeline.at(10_000).step == 300




def test_the_replays_about_line_has_a_space_between_its_sentences(
    client: TestClient, finished: tuple[int, list[Player], GameRecord]
) -> None:
    """Issue 26: "… a finished game.2 players" ran together on the replay page."""
    table_id, _, record = finished
    text = re.sub(r"<[^>]+>", "", page(client, f"/tables/{table_id}/replay").text.split('class="replay-about"')[1])
    assert f"a finished game. {record.players} players:" in " ".join(text.split())


def test_seats_are_named_by_colour_and_bot_levels_in_the_pages_language(client: TestClient) -> None:
    """Issue 26: the history said "Seat 2 (medium): Red's turn" (an untranslated bot level, and the seat
    number beside another seat's colour); replays named bots "(easy)" in every language. A seat is its
    colour and who played it, a bot in the page's language; a person who left shows the bot that took over."""
    import time

    cara = sign_up(client, "cara")
    body = {"game": "iquazu", "players": 3, "leaver": {"rule": "bot", "bot": "random"},
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}
    running = client.post("/api/tables", json=body, headers=cara.headers).json()["id"]
    deadline = time.monotonic() + 60
    for _ in range(3):  # cara's moves, the bots' between them
        while not (state := client.get(f"/api/tables/{running}/state", headers=cara.headers).json())["legal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        move = {"seq": state["seq"], "action": state["legal"][0]["action"]}
        assert client.post(f"/api/tables/{running}/moves", json=move, headers=cara.headers).status_code == 200
    english = html_lib.unescape(page(client, f"/tables/{running}/history", "en", cara.token).text)
    german = html_lib.unescape(page(client, f"/tables/{running}/history", "de", cara.token).text)
    assert "Yellow – Bot (random)" in english and "Purple – Bot (greedy)" in english and "Red – cara" in english
    assert "Gelb – Bot (zufällig)" in german and "Rot – cara" in german
    for html in (english, german):
        assert "(random)" not in html.replace("Bot (random)", "") and "Seat 2 (" not in html
    assert client.post(f"/api/tables/{running}/leave", json={"confirm": True}, headers=cara.headers).status_code == 204
    while client.get(f"/api/tables/{running}").json()["status"] != "over" and time.monotonic() < deadline:
        time.sleep(0.05)
    dutch = html_lib.unescape(page(client, f"/tables/{running}/replay", "nl").text)
    assert "Rood – cara → Bot (willekeurig)" in dutch and "Geel – Bot (willekeurig)" in dutch


def test_the_game_over_page_breaks_niagaras_scores_down(client: TestClient) -> None:
    """Issue 26: a finished game shows each player's score in the game's own terms beside the points."""
    import time

    dora = sign_up(client, "dora-breakdown")
    bots = [{"kind": "bot", "bot": "greedy"}] * 3
    body = {"game": "niagara", "players": 3, "seats": bots}
    table_id = client.post("/api/tables", json=body, headers=dora.headers).json()["id"]
    deadline = time.monotonic() + 240
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    html = html_lib.unescape(page(client, f"/tables/{table_id}", "de").text)
    assert '<th scope="col" class="breakdown">Im Einzelnen</th>' in html
    cells = re.findall(r'<td class="breakdown">(.*?)</td>', html, re.S)  # the column (a phone shows it under the name)
    assert len(cells) == 3 and all(cell.count("Edelsteinwert: ") == 1 for cell in cells)
    assert all(cell.count("gesicherte Edelsteine: ") == 1 for cell in cells)  # the Points column's gems banked
    assert all("Ziel: " in cell or "kein Ziel erreicht" in cell for cell in cells)  # each seat's goals
