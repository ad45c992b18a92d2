"""``/learn/GAME`` without a browser: the page in three languages, the step exchange (right move, wrong move's
hint, a step of several moves), hostile requests refused in the reader's language, nothing stored, and the
first game against easy bots."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import get_game
from spieltafel.core.tutorial import load

from .conftest import LANGUAGES, csrf_token, page, sign_up

GAMES = ("iquazu", "haleakala", "niagara")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_page_shows_the_first_step_on_the_real_board(client: TestClient, game: str, lang: str) -> None:
    response = page(client, f"/learn/{game}", lang)
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.text
    assert 'id="board"' in response.text and "<svg" in response.text and re.search(r'data-actions?="', response.text)
    first = client.get(f"/learn/{game}/step?n=0", headers={"Accept-Language": lang}).json()
    assert first["text"] and first["asks"] and first["highlight"]
    assert first["text"] in response.text.replace("&#39;", "'").replace("&quot;", '"')


def test_right_and_wrong_moves(client: TestClient) -> None:
    first = client.get("/learn/iquazu/step?n=0").json()
    right = first["highlight"][0]
    wrong = next(item["action"] for item in first["legal"] if item["action"] != right)
    answer = client.get(f"/learn/iquazu/step?n=0&move={wrong}", headers={"Accept-Language": "de"}).json()
    assert answer["right"] is False and answer["legal"] is True
    assert "Felsspalte 1b" in answer["hint"]  # the step's hint, in German
    answer = client.get(f"/learn/iquazu/step?n=0&move={right}").json()
    assert answer["right"] is True and answer["next"]["step"] == 1
    assert answer["next"]["texts"], "what happened since the learner's move"


def test_a_step_of_several_moves(client: TestClient) -> None:
    lesson = load(get_game("niagara"))
    assert lesson is not None
    number = next(step.number for step in lesson.steps if len(step.expect) > 1)
    shown = client.get(f"/learn/niagara/step?n={number}").json()
    for made in range(len(lesson.steps[number].expect)):
        assert shown["step"] == number and shown["made"] == made
        answer = client.get(f"/learn/niagara/step?n={number}&made={made}&move={shown['highlight'][0]}").json()
        assert answer["right"] is True
        shown = answer["next"]
    assert shown["step"] == number + 1 and shown["made"] == 0


@pytest.mark.parametrize(
    "query",
    ["n=-1", "n=999", "n=x", "n=", "", "n=0&move=-3", "n=0&move=99999999999", "n=0&move=draw", "n=0&move=1.5",
     "n=0&made=5&move=1", "n=0&move=next"],
)
def test_hostile_requests_are_refused_clearly(client: TestClient, query: str) -> None:
    response = client.get(f"/learn/iquazu/step?{query}", headers={"Accept-Language": "nl"})
    assert response.status_code == 422, (query, response.text)
    text = response.json()["error"]
    assert text and "Traceback" not in text
    assert "stap" in text or "zet" in text or "move" in text or "made" in text


def test_unknown_games_and_steps(client: TestClient) -> None:
    assert page(client, "/learn/chess").status_code == 404
    assert client.get("/learn/chess/step?n=0").status_code == 404
    assert "Diese Einführung hat die Schritte 1 bis" in page(client, "/learn/iquazu?step=0", "de").text
    last_step = len(load(get_game("iquazu")).steps) - 1  # type: ignore[union-attr]
    refused = client.get(f"/learn/iquazu/step?n={last_step + 1}", headers={"Accept-Language": "en"}).json()["error"]
    assert refused == f"“n” is the number of a step of this tutorial, counted from 0: 0 to {last_step}."
    last = len(load(get_game("iquazu")).steps)  # type: ignore[union-attr]
    assert client.get(f"/learn/iquazu/step?n={last - 1}&move=next").json() == {"right": True, "done": True}


def test_the_first_game_against_easy_bots(client: TestClient) -> None:
    assert page(client, "/learn/haleakala/play").headers["location"] == "/signin?next=/learn/haleakala/play"
    player = sign_up(client, "firstgame")
    shown = page(client, "/learn/haleakala/play", token=player.token)
    assert shown.status_code == 200
    made = client.post(
        "/learn/haleakala/play", data={"csrf_token": csrf_token(shown.text)}, headers=player.headers,
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    table_id = int(made.headers["location"].rsplit("/", 1)[1])
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["game"] == "haleakala" and table["players"] == 2 and table["status"] == "playing"
    assert table["seats"][1]["bot"] == "easy"
    assert table["rated"] is False  # a first game changes no rating (and hints are allowed in it)
