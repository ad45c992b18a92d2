"""Issue 26: a text with a count says it in the singular for one ("1 disc", not "1 discs") and in the plural
otherwise, in English, German and Dutch: the words' ``plural`` (``spieltafel.core.kit``) and every text of
the games' words and boards that shows a count, at 1 and 2."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest
from babel.support import NullTranslations

from spieltafel.core import get_game, kit_of
from spieltafel.core.kit import plural
from spieltafel.games.svgkit import identity
from spieltafel.server.web.i18n import gettext_for, translations

LANGS = ("en", "de", "nl")


# -- the words API ----------------------------------------------------------------------------------


def test_plain_gettext_gets_the_english_rule_each_form_translated_through_it() -> None:
    assert plural(identity)("{n} disc", "{n} discs", 1) == "{n} disc"
    assert plural(identity)("{n} disc", "{n} discs", 0) == "{n} discs"
    assert plural(identity)("{n} disc", "{n} discs", 2) == "{n} discs"
    marked = plural(lambda text: "⟦" + text + "⟧")
    assert marked("{n} disc", "{n} discs", 1) == "⟦{n} disc⟧" and marked("{n} disc", "{n} discs", 7) == "⟦{n} discs⟧"


def test_a_translations_gettext_brings_its_catalogs_plural_forms() -> None:
    german = translations("de")
    ngettext = plural(german.gettext)  # what the site passes (i18n.gettext_for): a bound gettext
    assert ngettext("The river flows: {discs} disc", "The river flows: {discs} discs", 1) == (
        "Der Fluss fließt: {discs} Flussplättchen"
    )
    assert plural(gettext_for("nl"))("{count} gem left", "{count} gems left", 1) == "nog {count} edelsteen"
    assert plural(gettext_for("nl"))("{count} gem left", "{count} gems left", 2) == "nog {count} edelstenen"
    assert plural(NullTranslations().gettext)("{n} disc", "{n} discs", 1) == "{n} disc"


def test_a_gettext_with_an_ngettext_of_its_own_is_asked_for_the_form() -> None:
    class Shouting:
        def __call__(self, text: str) -> str:
            return text.upper()

        def ngettext(self, singular: str, plural_text: str, n: int) -> str:
            return f"{n}:{singular if n == 1 else plural_text}!"

    assert plural(Shouting())("a", "b", 1) == "1:a!" and plural(Shouting())("a", "b", 3) == "3:b!"


# -- the games' texts at 1 and 2 --------------------------------------------------------------------


def words(game: str) -> Any:
    kit = kit_of(get_game(game))
    return kit.module(kit.words)


EVENTS: list[tuple[str, dict[str, Any], dict[str, tuple[str, str]]]] = [
    (
        "niagara",
        {"kind": "flow", "discs": 1},
        {
            "en": ("The river flows: 1 disc", "The river flows: 2 discs"),
            "de": ("Der Fluss fließt: 1 Flussplättchen", "Der Fluss fließt: 2 Flussplättchen"),
            "nl": ("De rivier stroomt: 1 rivierschijf", "De rivier stroomt: 2 rivierschijven"),
        },
    ),
    (
        "iquazu",
        {"kind": "draw", "seat": 0, "count": 1},
        {
            "en": ("Red draws 1 card", "Red draws 2 cards"),
            "de": ("Rot zieht 1 Karte", "Rot zieht 2 Karten"),
            "nl": ("Rood neemt 1 kaart af", "Rood neemt 2 kaarten af"),
        },
    ),
    (
        "iquazu",
        {"kind": "reshuffle", "cards": 1},
        {
            "en": (
                "The discards are shuffled into a new draw pile of 1 card",
                "The discards are shuffled into a new draw pile of 2 cards",
            ),
            "de": (
                "Der Ablagestapel wird zu einem neuen Nachziehstapel mit 1 Karte gemischt",
                "Der Ablagestapel wird zu einem neuen Nachziehstapel mit 2 Karten gemischt",
            ),
            "nl": (
                "De aflegstapel wordt geschud tot een nieuwe afneemstapel van 1 kaart",
                "De aflegstapel wordt geschud tot een nieuwe afneemstapel van 2 kaarten",
            ),
        },
    ),
    (
        "iquazu",
        {"kind": "refill-gems", "seat": 1, "gems": 1},
        {
            "en": (
                "Yellow takes 1 gem back from scored columns",
                "Yellow takes 2 gems back from scored columns",
            ),
            "de": (
                "Gelb nimmt 1 Edelstein aus gewerteten Spalten zurück",
                "Gelb nimmt 2 Edelsteine aus gewerteten Spalten zurück",
            ),
            "nl": (
                "Geel neemt 1 edelsteen terug uit getelde kolommen",
                "Geel neemt 2 edelstenen terug uit getelde kolommen",
            ),
        },
    ),
    (
        "iquazu",
        {"kind": "refill-water", "drops": 1},
        {
            "en": ("The water box is refilled: 1 drop", "The water box is refilled: 2 drops"),
            "de": ("Die Wasserkiste wird aufgefüllt: 1 Tropfen", "Die Wasserkiste wird aufgefüllt: 2 Tropfen"),
            "nl": ("De waterkist wordt bijgevuld: 1 druppel", "De waterkist wordt bijgevuld: 2 druppels"),
        },
    ),
    (
        "iquazu",
        {"kind": "tile-points", "seat": 0, "points": 1},
        {
            "en": ("Red scores 1 point for bonus tiles", "Red scores 2 points for bonus tiles"),
            "de": ("Rot erhält 1 Punkt für Bonusplättchen", "Rot erhält 2 Punkte für Bonusplättchen"),
            "nl": ("Rood krijgt 1 punt voor bonuskaartjes", "Rood krijgt 2 punten voor bonuskaartjes"),
        },
    ),
]


def with_count(event: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The event with its count field (the one set to 1 in ``EVENTS``, not the seat) set to ``n``."""
    return {key: n if value == 1 and key != "seat" else value for key, value in event.items()}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "event", "expected"), EVENTS, ids=[f"{g}-{e['kind']}" for g, e, _ in EVENTS])
def test_an_events_count_takes_the_right_form(
    game: str, event: dict[str, Any], expected: dict[str, tuple[str, str]], lang: str
) -> None:
    gettext = gettext_for(lang)
    one, two = expected[lang]
    assert words(game).event_text(with_count(event, 1), gettext) == one
    assert words(game).event_text(with_count(event, 2), gettext) == two


def iquazu_board(lang: str, n: int) -> str:
    """Iquazú's board for seat 0 with every count it shows set to ``n``."""
    game = get_game("iquazu")
    view = copy.deepcopy(dict(game.new_state(2, 1).view(0)))
    view["draw_pile"] = view["water_drops"] = n
    view["player_info"][0]["gems"] = view["player_info"][0]["score"] = n
    view["hand"] = {"B": n}
    return str(kit_of(game).board_module().render_board(view, 0, [], gettext_for(lang)))


IQUAZU_BOARD = {
    "en": (
        ["Draw pile: 1 card<", "water box: 1 drop<", ">1 gem left<", ">1 point<", "1 blue card<", ">1 card<"],
        ["Draw pile: 2 cards<", "water box: 2 drops<", ">2 gems left<", ">2 points<", "2 blue cards<", ">2 cards<"],
    ),
    "de": (
        ["Nachziehstapel: 1 Karte<", "Wasserkiste: 1 Tropfen<", ">noch 1 Edelstein<", ">1 Punkt<", "blau: 1 Karte<"],
        ["Nachziehstapel: 2 Karten<", "Wasserkiste: 2 Tropfen<", ">noch 2 Edelsteine<", ">2 Punkte<",
         "blau: 2 Karten<"],
    ),
    "nl": (
        ["Afneemstapel: 1 kaart<", "waterkist: 1 druppel<", ">nog 1 edelsteen<", ">1 punt<", "blauw: 1 kaart<"],
        ["Afneemstapel: 2 kaarten<", "waterkist: 2 druppels<", ">nog 2 edelstenen<", ">2 punten<", "blauw: 2 kaarten<"],
    ),
}


@pytest.mark.parametrize("lang", LANGS)
def test_iquazus_board_counts_take_the_right_form(lang: str) -> None:
    one, two = IQUAZU_BOARD[lang]
    for n, texts in ((1, one), (2, two)):
        board = iquazu_board(lang, n)
        for text in texts:
            assert text in board, (lang, n, text)
    # the water frame's prices, 1 to 5 cards, each in its own form on one board
    prices = {"en": ("<title>1 card<", "<title>2 cards<"), "de": ("<title>1 Karte<", "<title>2 Karten<"),
              "nl": ("<title>1 kaart<", "<title>2 kaarten<")}[lang]
    board = iquazu_board(lang, 3)
    assert all(price in board for price in prices), lang


@pytest.mark.parametrize("lang", LANGS)
def test_haleakalas_score_takes_the_right_form(lang: str) -> None:
    game = get_game("haleakala")
    view = copy.deepcopy(dict(game.new_state(2, 1).view(0)))
    word = {"en": ("point", "points"), "de": ("Punkt", "Punkte"), "nl": ("punt", "punten")}[lang]
    for n, form in ((1, word[0]), (2, word[1])):
        view["player_info"][0]["score"] = n
        board = str(kit_of(game).board_module().render_board(view, 0, [], gettext_for(lang)))
        assert f">{n} {form}<" in board, (lang, n)


@pytest.mark.parametrize("lang", LANGS)
def test_niagaras_points_left_take_the_right_form(lang: str) -> None:
    svg = kit_of(get_game("niagara")).module("svg")
    assert svg is not None
    expected = {
        "en": ("(1 point left)", "(2 points left)"),
        "de": ("(noch 1 Punkt)", "(noch 2 Punkte)"),
        "nl": ("(nog 1 punt)", "(nog 2 punten)"),
    }[lang]
    for n, text in ((1, expected[0]), (2, expected[1])):
        view = {"phase": "move", "to_act": [0], "turn": {"seat": 0, "points": n}}
        assert svg.status_text(view, gettext_for(lang)).endswith(" " + text), (lang, n)
