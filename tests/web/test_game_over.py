"""Issue 26, game over: each player's score broken down in the game's own terms (Iquazú: rocks, points tiles;
Haleakala: the two scorings and the second one's categories; Niagara: gems, value, goal) on the real page, in
English, German and Dutch, fitting a phone's width; the screenshots go to docs/screenshots as polish-*-over-*."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .harness import PHONE, Server, new_person, shoot, sign_up
from .test_browser import _api, _play_through_api, _token

GAMES = {  # game: (players, language of the screenshots, words expected in a breakdown line, per language)
    "iquazu": (2, "nl", {"en": "rocks: ", "de": "Felsen: ", "nl": "rotsen: "}),
    "haleakala": (2, "de", {"en": "scoring 2: ", "de": "Wertung 2: ", "nl": "telling 2: "}),
    "niagara": (3, "nl", {"en": "gem value ", "de": "Edelsteinwert ", "nl": "edelsteenwaarde "}),
}
HEADER = {"en": "In detail", "de": "Im Einzelnen", "nl": "Uitsplitsing"}
TOTAL = {"en": "total: ", "de": "Gesamt: ", "nl": "totaal: "}


def _finished_table(server: Server, token: str, game: str, players: int, seed: int) -> tuple[int, dict[str, Any]]:
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = {"game": game, "players": players, "options": {}, "seats": seats}
    table = _api(server, "POST", "/api/tables", body, token)["id"]
    state = _play_through_api(server, table, token, random.Random(seed), lambda s: False)
    assert state["result"], state
    return int(table), state


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_over_page_breaks_the_score_down(server: Server, browser: Any, shots: Path, game: str) -> None:
    players, shot_lang, words = GAMES[game]
    owner = new_person(browser)
    name = f"over{game[:3]}{random.Random(game).randrange(10**6)}"
    sign_up(owner, server.url, name)
    token = _token(server, name, "correct-horse-7")
    table, state = _finished_table(server, token, game, players, seed=len(game))
    scores = state["result"]["scores"]
    owner.context.close()
    for lang in ("en", "de", "nl"):
        page = new_person(browser, lang)
        try:
            page.goto(f"{server.url}/tables/{table}")
            page.wait_for_selector("#h-result")
            headers = page.locator(".result-table thead th").all_inner_texts()
            assert HEADER[lang] in headers, headers
            rows = page.locator(".result-table tbody tr")
            assert rows.count() == players
            for seat in range(players):
                lines = rows.nth(seat).locator(".breakdown-line").all_inner_texts()
                assert any(line.startswith(words[lang]) for line in lines), (lang, lines)
                if game != "niagara":  # Niagara's score is its gem value; the others end in the total
                    points = int(rows.nth(seat).locator("td").nth(1).inner_text())
                    assert lines[-1] == f"{TOTAL[lang]}{points}", (lang, lines)
                    assert points in scores
            page.set_viewport_size({"width": 390, "height": 800})
            page.wait_for_timeout(150)
            overflow = page.evaluate(
                "() => [document.documentElement.scrollWidth, "
                "document.querySelector('.result-table').getBoundingClientRect().right]"
            )
            assert overflow[0] <= 390 and overflow[1] <= 390, (lang, overflow)
            inline = rows.nth(0).locator(".breakdown-inline-line")  # on a phone: under the player's name
            assert inline.first.is_visible() and not rows.nth(0).locator("td.breakdown").is_visible()
            assert inline.all_inner_texts() == rows.nth(0).locator(".breakdown-line").all_text_contents()
            page.set_viewport_size({"width": 1280, "height": 800})
            if lang == shot_lang:
                shoot(page, shots, f"polish-{game}-over-{lang}")
                assert PHONE["width"] <= 390
        finally:
            page.context.close()
