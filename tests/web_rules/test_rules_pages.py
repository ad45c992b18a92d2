"""The rules pages: every game in English, German and Dutch, with board pictures and every option."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from spieltafel.core import all_games, get_game
from spieltafel.server.web.rules import pictures, rules_games

from .conftest import LANGUAGES, page

GAMES = [game.name for game in all_games()]

# A heading of the page in each language: the German and Dutch pages are really translated.
FULL_RULES = {"en": "The full rules", "de": "Die ausführlichen Regeln", "nl": "De volledige regels"}


def test_every_registered_game_has_a_rules_page() -> None:
    assert sorted(game.name for game in rules_games()) == sorted(GAMES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_index_lists_every_game(client: TestClient, lang: str) -> None:
    response = page(client, "/rules", lang)
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.text
    for name in GAMES:
        assert f'href="/rules/{name}"' in response.text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_rules_page(client: TestClient, name: str, lang: str) -> None:
    response = page(client, f"/rules/{name}", lang)
    assert response.status_code == 200
    html = response.text
    assert f'<html lang="{lang}">' in html
    assert FULL_RULES[lang] in html
    for section in ("short", "pictures", "long", "options", "decisions"):
        assert f'id="{section}"' in html
    # board pictures from svg.py, of real engine positions
    assert html.count('class="rules-picture board"') == 2
    for _kind, _players, _moves, svg in pictures(name, lang):
        assert svg in html
    # every option of the registry, every value, each explained in the page's language
    for option in get_game(name).options:
        assert f'id="option-{option.name}"' in html
        for choice in option.choices:
            assert f'data-choice="{option.name}={choice}"' in html
    assert "data-missing" not in html
    if lang != "en":
        for option in get_game(name).options:
            assert option.description not in html, "the English registry text stands in for a translation"
    assert f'href="/rules/{name}/decisions"' in html
    assert f"docs/rules/{name}.md" in html


def test_pages_differ_by_language(client: TestClient) -> None:
    texts = {lang: page(client, "/rules/niagara", lang).text for lang in LANGUAGES}
    assert "Kanu" in texts["de"] and "Paddelkarte" in texts["de"]
    assert "kano" in texts["nl"] and "peddelkaart" in texts["nl"]
    iquazu = {lang: page(client, "/rules/iquazu", lang).text for lang in ("de", "nl")}
    assert "rotsspleet" in iquazu["nl"] and "waterkist" in iquazu["nl"]
    assert "Edelstein" in iquazu["de"]
    haleakala = page(client, "/rules/haleakala", "de").text
    assert "Schamane" in haleakala and "Zahlenscheibe" in haleakala and "Fischerboot" in haleakala


def test_language_cookie_wins_over_the_browser(client: TestClient) -> None:
    response = client.get("/rules/iquazu", headers={"Accept-Language": "en"}, cookies={"spieltafel_lang": "nl"})
    assert '<html lang="nl">' in response.text


@pytest.mark.parametrize("name", GAMES)
def test_decisions_page_renders_the_rules_document(client: TestClient, name: str) -> None:
    response = page(client, f"/rules/{name}/decisions", "de")
    assert response.status_code == 200
    assert "<h2>Decisions on unclear or silent points</h2>" in response.text
    assert "<script" not in response.text.split("<main", 1)[1].split("</main>", 1)[0]


def test_unknown_game_is_404(client: TestClient) -> None:
    assert page(client, "/rules/chess").status_code == 404
    assert page(client, "/rules/chess/decisions").status_code == 404
    response = page(client, "/rules/<script>alert(1)</script>")
    assert response.status_code == 404
    assert "<script>alert" not in response.text


def test_no_inline_script_or_style(client: TestClient) -> None:
    for name in GAMES:
        html = page(client, f"/rules/{name}").text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)
        assert " style=" not in html
        assert not re.search(r"\son[a-z]+=", html)
