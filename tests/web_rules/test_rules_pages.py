"""The rules pages: every game in English, German and Dutch, with board pictures and every option."""

from __future__ import annotations

import re
from html import unescape

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


OPTION_WORDS = {
    "en": ("Dropping water", "on the holder's own turn", "Second canoe", "is only launched", "Variant"),
    "de": ("Wasser tropfen lassen", "im eigenen Zug des Besitzers", "Zweites Kanu", "wird nur eingesetzt", "Variante"),
    "nl": ("Water laten druppelen", "in de eigen beurt van de houder", "Tweede kano", "gaat alleen te water",
           "Variant"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_option_names_and_values_are_words_of_the_pages_language(client: TestClient, lang: str) -> None:
    """Issue 26: the rules pages named the options and their values only by their ids ("water",
    "holder-turn", "second-canoe", "launch-only") in every language; the id stays beside the words, marked
    as code not to translate."""
    html = "".join(page(client, f"/rules/{name}", lang).text for name in ("iquazu", "niagara", "haleakala"))
    for words in OPTION_WORDS[lang]:
        assert words in unescape(html), (lang, words)
    for option in (option for name in GAMES for option in get_game(name).options):
        assert f'<code class="option-id" translate="no">{option.name}</code>' in html
        for choice in option.choices:
            label = option.label_of(choice)
            assert choice.isdigit() or label != choice, (option.name, choice)


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
    client.cookies.set("spieltafel_lang", "nl")
    try:
        response = client.get("/rules/iquazu", headers={"Accept-Language": "en"})
    finally:
        client.cookies.delete("spieltafel_lang")
    assert '<html lang="nl">' in response.text


@pytest.mark.parametrize("name", GAMES)
def test_decisions_page_renders_the_rules_document(client: TestClient, name: str) -> None:
    response = page(client, f"/rules/{name}/decisions", "en")
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


DECISIONS_HEADINGS = {
    "de": "<h2>Entscheidungen zu unklaren oder offenen Punkten</h2>",
    "nl": "<h2>Beslissingen over onduidelijke of ontbrekende punten</h2>",
}


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_niagaras_decisions_are_in_the_sessions_language(client: TestClient, lang: str) -> None:
    """Issue 26: /rules/niagara/decisions was English on German and Dutch pages. The game package holds a
    German and a Dutch version beside decisions.md; the page takes the session's language, with the same
    numbered decisions and the source's passages quoted unchanged, and says "English only" only when it
    falls back to English (still the case for Iquazú and Haleakala)."""
    from spieltafel.core import kit_of

    folder = kit_of(get_game("niagara")).folder()
    english = (folder / "decisions.md").read_text(encoding="utf-8")
    translated = (folder / f"decisions.{lang}.md").read_text(encoding="utf-8")
    numbers = re.compile(r"^(\d+a?)\. \*\*", re.M)
    assert numbers.findall(translated) == numbers.findall(english)
    for quote in ("Paddelpunkte müssen immer komplett benutzt", "mit einberechnen", "Tie break: The value"):
        assert quote in translated
    html = page(client, "/rules/niagara/decisions", lang).text
    assert DECISIONS_HEADINGS[lang] in html and f'<div class="markdown" lang="{lang}">' in html
    assert "Decisions on unclear or silent points" not in html and 'class="hint"' not in html
    fallback = page(client, "/rules/iquazu/decisions", lang).text
    assert '<div class="markdown" lang="en">' in fallback and 'class="hint"' in fallback
