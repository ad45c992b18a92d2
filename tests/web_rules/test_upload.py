"""Uploading a record file: a valid one replays; garbage, foreign JSON, tampered or oversized files get
a clear 4xx page, never a 500."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import GameRecord, Recorder, Rng, get_game
from spieltafel.server.web.replay import MAX_RECORD_BYTES, RecordRefused, check_record

from .conftest import csrf_token, page


def _record(game: str = "iquazu", players: int = 2, seed: int = 9) -> GameRecord:
    state = get_game(game).new_state(players, seed)
    recorder = Recorder(state, ["random"] * players)
    rng = Rng(seed)
    while not state.is_over:
        seat = state.seats_to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        recorder.add(state, seat, action)
        state.apply(seat, action)
    return recorder.finish(state)


def _upload(client: TestClient, content: bytes, name: str = "game.json", lang: str = "en", token: bool = True):  # type: ignore[no-untyped-def]
    form = page(client, "/replay/upload", lang)
    assert form.status_code == 200
    data = {"csrf_token": csrf_token(form.text)} if token else {}
    return client.post(
        "/replay/upload",
        data=data,
        files={"record": (name, content, "application/json")},
        headers={"Accept-Language": lang},
        follow_redirects=False,
    )


def test_valid_record_replays(client: TestClient) -> None:
    record = _record()
    response = _upload(client, record.model_dump_json().encode())
    assert response.status_code == 303, response.text[-400:]
    location = response.headers["location"]
    assert re.fullmatch(r"/replay/uploaded/[0-9a-f]{32}", location)
    shown = page(client, location + "?step=5&as=1")
    assert shown.status_code == 200
    assert 'data-step="5"' in shown.text and "<svg" in shown.text
    last = page(client, f"{location}?step={len(record.actions)}&as=all").text
    assert 'class="replay-result"' in last
    download = page(client, location + "/record.json")
    assert GameRecord.model_validate_json(download.text) == record
    # the same file again: the same address
    assert _upload(client, record.model_dump_json(indent=2).encode()).headers["location"] == location


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00garbage", "not-json"),
        (b"{not json", "not-json"),
        (b"[1, 2, 3]", "not-record"),
        (b'{"game": "iquazu"}', "not-record"),
        (b"[" * 5000 + b"]" * 5000, "not-json"),
    ],
)
def test_garbage_is_refused_clearly(client: TestClient, content: bytes, reason: str) -> None:
    response = _upload(client, content)
    assert response.status_code == 422
    assert f'data-error="{reason}"' in response.text


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_refusal_in_the_page_language(client: TestClient, lang: str) -> None:
    response = _upload(client, b"{not json", lang=lang)
    assert response.status_code == 422
    assert f'<html lang="{lang}">' in response.text
    assert "it is not JSON text" not in response.text


def test_tampered_records_are_refused(client: TestClient) -> None:
    record = _record()
    data = json.loads(record.model_dump_json())
    changed_result = json.loads(json.dumps(data))
    changed_result["result"]["scores"][0] += 5
    changed_action = json.loads(json.dumps(data))
    changed_action["actions"][3]["action"] = "place 1a OOOOO"
    swapped_seat = json.loads(json.dumps(data))
    swapped_seat["actions"][0]["seat"] = 1
    other_seed = json.loads(json.dumps(data))
    other_seed["seed"] = data["seed"] + 1
    unknown_game = json.loads(json.dumps(data))
    unknown_game["game"] = "chess"
    bad_option = json.loads(json.dumps(data))
    bad_option["options"] = {"water": "sometimes"}
    no_seed = json.loads(json.dumps(data))
    no_seed["seed"] = None
    for tampered, reason in [
        (changed_result, "mismatch"),
        (changed_action, "mismatch"),
        (swapped_seat, "mismatch"),
        (other_seed, "mismatch"),
        (unknown_game, "mismatch"),
        (bad_option, "mismatch"),
        (no_seed, "no-seed"),
    ]:
        response = _upload(client, json.dumps(tampered).encode())
        assert response.status_code == 422, tampered
        assert f'data-error="{reason}"' in response.text
        assert "technical-detail" in response.text or reason == "no-seed"


def test_oversized_file_is_refused(client: TestClient) -> None:
    response = _upload(client, b" " * (MAX_RECORD_BYTES + 10))
    assert response.status_code == 413
    with pytest.raises(RecordRefused) as refused:
        check_record(b" " * (MAX_RECORD_BYTES + 1))
    assert refused.value.reason == "too-large"


def test_no_file_no_token_and_unknown_upload(client: TestClient) -> None:
    form = page(client, "/replay/upload")
    empty = client.post("/replay/upload", data={"csrf_token": csrf_token(form.text)}, follow_redirects=False)
    assert empty.status_code == 400 and 'data-error="no-file"' in empty.text
    assert _upload(client, _record().model_dump_json().encode(), token=False).status_code == 403
    assert page(client, "/replay/uploaded/" + "0" * 32).status_code == 404
    assert page(client, "/replay/uploaded/../../etc").status_code == 404
    assert page(client, "/replay/uploaded/" + "0" * 32 + "/record.json").status_code == 404


def test_long_records_of_every_game_are_accepted_by_the_check() -> None:
    for game, players in (("haleakala", 2), ("niagara", 3)):
        record = _record(game, players, seed=4)
        assert check_record(record.model_dump_json().encode()) == record


def test_records_longer_than_16_kib_upload(client: TestClient) -> None:
    body = _record("haleakala", 2, seed=4).model_dump_json().encode()
    assert len(body) > 16 * 1024
    assert _upload(client, body).status_code == 303
