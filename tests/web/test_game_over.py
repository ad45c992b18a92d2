"""Issue 26, game over: each player's score broken down in the game's own terms on the real page, in English,
German and Dutch, fitting a phone's width (Iquazú: the rocks column by column, the points tiles; Haleakala: both
scorings by category; Niagara: the gems banked, which are the Points, their value, the goal); the screenshots go
to docs/screenshots as polish-*-over-*."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from .harness import PHONE, Server, new_person, shoot, sign_up
from .test_browser import _api, _play_through_api, _token

GAMES = {  # game: (players, language of the screenshots)
    "iquazu": (2, "nl"),
    "haleakala": (2, "de"),
    "niagara": (3, "nl"),
}
HEADER = {"en": "In detail", "de": "Im Einzelnen", "nl": "Uitsplitsing"}
TOTAL = {"en": "total: ", "de": "Gesamt: ", "nl": "totaal: "}
ROCKS = {"en": "rocks: ", "de": "Felsen: ", "nl": "rotsen: "}
ROCK_OF_COLUMN = {"en": "– column ", "de": "– Spalte ", "nl": "– kolom "}
SCORING = {"en": "scoring {n}: ", "de": "Wertung {n}: ", "nl": "telling {n}: "}
CATEGORIES = {  # Haleakala's category names begin so, in each language
    "en": ("statues on ", "more fish baskets", "pearls", "nautilus", "shells", "scoring card “"),
    "de": ("Statuen auf ", "mehr Fischkörbe", "Perlen", "Nautilus", "Muscheln", "Wertungskarte „"),
    "nl": ("standbeelden op ", "meer vismanden", "parels", "nautilus", "schelpen", "puntenkaart ‘"),
}
WINNER = {"en": "winner", "de": "Sieger", "nl": "winnaar"}
GEMS = {"en": "gems banked: ", "de": "gesicherte Edelsteine: ", "nl": "geborgen edelstenen: "}
GEM_VALUE = {"en": "gem value: ", "de": "Edelsteinwert: ", "nl": "edelsteenwaarde: "}


def _last_number(line: str) -> int:
    return int(re.findall(r"\d+", line)[-1])


def check_lines(game: str, lang: str, lines: list[str], points: int) -> int:
    """The breakdown of one seat in ``lang`` adds up to ``points`` (the row's Points) part by part; returns
    how many part lines it has (rocks by column, scoring categories)."""
    if game == "niagara":  # the score is the number of banked gems, the first line
        assert lines[0] == f"{GEMS[lang]}{points}", (lang, lines)
        assert any(line.startswith(GEM_VALUE[lang]) for line in lines), (lang, lines)
        return 0
    assert lines[-1] == f"{TOTAL[lang]}{points}", (lang, lines)
    if game == "iquazu":
        rocks = [line for line in lines if line.startswith(ROCKS[lang])]
        columns = [_last_number(line) for line in lines if line.startswith(ROCK_OF_COLUMN[lang])]
        assert len(rocks) == 1 and _last_number(rocks[0]) == sum(columns), (lang, lines)
        return len(columns)
    starts = [lines.index(next(x for x in lines if x.startswith(SCORING[lang].format(n=n)))) for n in (1, 2)]
    parts = 0
    for start, end in zip(starts, [starts[1], len(lines) - 1], strict=True):
        categories = lines[start + 1 : end]
        assert all(line.startswith("– ") for line in categories), (lang, lines)
        assert _last_number(lines[start]) == sum(_last_number(line) for line in categories), (lang, lines)
        parts += len(categories)
    assert _last_number(lines[starts[0]]) + _last_number(lines[starts[1]]) == points
    return parts


def _finished_table(server: Server, token: str, game: str, players: int, seed: int) -> tuple[int, dict[str, Any]]:
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = {"game": game, "players": players, "options": {}, "seats": seats}
    table = _api(server, "POST", "/api/tables", body, token)["id"]
    state = _play_through_api(server, table, token, random.Random(seed), lambda s: False)
    assert state["result"], state
    return int(table), state


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_over_page_breaks_the_score_down(server: Server, browser: Any, shots: Path, game: str) -> None:
    players, shot_lang = GAMES[game]
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
            rows = page.locator(".result-table tbody tr:not(.breakdown-row)")
            assert rows.count() == players
            parts = 0
            for seat in range(players):
                lines = rows.nth(seat).locator(".breakdown-line").all_inner_texts()
                points = int(rows.nth(seat).locator("td").nth(1).inner_text())
                assert points in scores
                parts += check_lines(game, lang, lines, points)
            if game == "haleakala":  # every category named in the page's language
                categories = [x[2:] for x in page.locator(".breakdown-line").all_inner_texts() if x.startswith("– ")]
                assert all(x.startswith(CATEGORIES[lang]) for x in categories), (lang, categories)
            if game != "niagara":
                assert parts, (lang, "no rock by column, no scoring category")
            page.set_viewport_size({"width": 390, "height": 800})
            page.wait_for_timeout(150)
            overflow = page.evaluate(
                "() => [document.documentElement.scrollWidth, "
                "document.querySelector('.result-table').getBoundingClientRect().right]"
            )
            assert overflow[0] <= 390 and overflow[1] <= 390, (lang, overflow)
            inline = page.locator(".result-table tbody tr.breakdown-row").nth(0).locator(".breakdown-inline-line")
            assert inline.first.is_visible() and not rows.nth(0).locator("td.breakdown").is_visible()  # phone: below
            width = page.evaluate("() => document.querySelector('.breakdown-row td').getBoundingClientRect().width")
            assert width >= 300, (lang, width)  # the row's full width, not a narrow column's
            assert inline.all_inner_texts() == rows.nth(0).locator(".breakdown-line").all_text_contents()
            # phone: the user name on one line (not broken letter by letter in a narrow column); "winner" under it
            own = page.locator(f".result-table th[scope='row'] a[href='/players/{name}']")
            assert own.evaluate("a => a.getClientRects().length") == 1, (lang, own.inner_text())
            assert not page.locator(".result-table thead th.result-col").is_visible()
            winners = page.locator(".result-table th[scope='row'] .result-inline:visible").all_inner_texts()
            assert winners and all(x == f"★ {WINNER[lang]}" for x in winners), (lang, winners)
            page.set_viewport_size({"width": 1280, "height": 800})
            if lang == shot_lang:
                shoot(page, shots, f"polish-{game}-over-{lang}")
                assert PHONE["width"] <= 390
        finally:
            page.context.close()
