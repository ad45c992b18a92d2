"""Actions and events in words: every notation and event kind met in random games has its own words,
and every visible string of the boards goes through gettext."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from spieltafel.core import get_game, kit_of

from .cases import CASES, legal_of, positions


def pseudo(text: str) -> str:
    """A pseudo-translation that marks every message that went through gettext."""
    return "⟦" + text + "⟧"


UNMARKED_WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")


def bypasses(text: str) -> bool:
    """True when ``text`` holds a word outside the ⟦...⟧ marks (numbers, slot names like 7c, canoe
    names like 2b and signs need no translation)."""
    previous = None
    while previous != text:  # marks nest: a translated name inside a translated sentence
        previous, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    return bool(UNMARKED_WORD.search(text))


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_every_action_and_event_has_words(game: str, players: int, variant: str) -> None:
    kit = kit_of(get_game(game))
    words = kit.module(kit.words)
    assert words is not None
    kinds: set[str] = set()
    for state, events in positions(game, players, variant, games=3, every=1):
        for event in events:
            kinds.add(event["kind"])
            text = words.event_text(event, pseudo)
            assert "Something happened" not in text, event
            assert text.startswith("⟦") and not bypasses(text), text
        for seat in state.seats_to_act():
            for _, notation in legal_of(state, seat):
                label = words.action_label(notation, pseudo)
                assert label.startswith("⟦") and not bypasses(label), (notation, label)
    assert len(kinds) >= 5


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_every_visible_string_is_translatable(game: str, players: int, variant: str) -> None:
    kit = kit_of(get_game(game))
    svg = kit.module(kit.board)
    assert svg is not None
    for state, _ in positions(game, players, variant, games=1, every=9):
        for seat in (*state.seats_to_act(), None):
            board = svg.render_board(state.view(seat), seat, legal_of(state, seat) if seat is not None else [], pseudo)
            root = ET.fromstring(board)
            carried = ""  # a long word the board breaks over two lines ("butter-" / "flies") is read whole
            for element in root.iter():
                for text in (element.text or "", element.attrib.get("aria-label", "")):
                    if text.endswith("-") and not carried:
                        carried = text[:-1]
                        continue
                    if carried and text:
                        text, carried = carried + text, ""
                    assert not bypasses(text), (element.tag, text)
            assert not carried, carried


def test_one_river_disc_is_said_in_the_singular() -> None:
    """Issue 26: "The river flows: 1 discs" (and Dutch "1 rivierschijven")."""
    from spieltafel.server.web.i18n import gettext_for

    event_text = kit_of(get_game("niagara")).words_module().event_text
    assert event_text({"kind": "flow", "discs": 1}, gettext_for("en")) == "The river flows: 1 disc"
    assert event_text({"kind": "flow", "discs": 3}, gettext_for("en")) == "The river flows: 3 discs"
    assert event_text({"kind": "flow", "discs": 1}, gettext_for("nl")) == "De rivier stroomt: 1 rivierschijf"
    assert event_text({"kind": "flow", "discs": 1}, gettext_for("de")) == "Der Fluss fließt: 1 Flussplättchen"


def test_a_gem_takes_the_right_article_and_german_reads_as_a_sentence() -> None:
    """Issue 26: "load a amethyst" (English article), and German "Kanu a von Grün paddelt: den Strand",
    "… lädt einen Edelstein: Amethyst", "Gelb: Kaufen: die Lava-Priesterin" (a doubled colon)."""
    from spieltafel.server.web.i18n import gettext_for

    niagara = kit_of(get_game("niagara")).words_module()
    en, de, nl = gettext_for("en"), gettext_for("de"), gettext_for("nl")
    assert niagara.action_label("a load amethyst", en) == "Canoe a: load an amethyst from the cave"
    assert niagara.action_label("b load ruby", en) == "Canoe b: load a ruby from the cave"
    assert niagara.action_label("buy amber", en) == "Buy the canoe back with an amber"
    assert niagara.action_label("a load amethyst", de) == "Kanu a: einen Amethyst aus der Höhle laden"
    assert niagara.action_label("a load diamond", nl) == "Kano a: een diamant uit de grot inladen"
    assert niagara.event_text({"kind": "bank", "seat": 0, "gem": "amethyst"}, en).endswith("banks an amethyst")
    assert niagara.event_text({"kind": "load", "seat": 1, "canoe": "a", "gem": "diamond"}, de).endswith(
        "lädt einen Diamanten"
    )
    shore = {"kind": "paddle", "seat": 1, "canoe": "a", "to": "shore"}
    assert niagara.event_text(shore, en).endswith("canoe a paddles back to the shore")
    assert niagara.event_text(shore, de).endswith("paddelt zurück an den Strand")
    assert niagara.event_text({**shore, "to": "3"}, de).endswith("paddelt auf Feld 3")
    haleakala = kit_of(get_game("haleakala")).words_module()
    assert haleakala.action_label("buy priestess", de) == "die Lava-Priesterin der Wertungstafel kaufen"
    assert haleakala.action_label("buy forest", de) == "Wertungskarte „Wald“ kaufen"
    assert haleakala.event_text({"kind": "buy", "seat": 1, "item": "forest"}, de).count(":") == 0


def test_board_abbreviations_follow_the_pages_language() -> None:
    """Issue 26: Haleakala's fields were "f3", "m3", "c3" and Niagara's amber "Y" (English initials) on
    German and Dutch boards too; and Niagara's spaces showed the river disc's id large, the space number
    (the one the log names: "paddles to space 3") small."""
    from spieltafel.server.web.i18n import gettext_for

    haleakala = get_game("haleakala")
    board = kit_of(haleakala).board_module()
    state = haleakala.new_state(2, 1)
    english = board.render_board(state.view(0), 0, [], gettext_for("en"))
    german = board.render_board(state.view(0), 0, [], gettext_for("de"))
    dutch = board.render_board(state.view(0), 0, [], gettext_for("nl"))
    assert "f = forest" in english and ">f3<" in english
    assert "w = Wald" in german and ">w3<" in german and ">k3<" in german and ">f3<" not in german
    assert "bo = bos" in dutch and "be = berg" in dutch and ">be3<" in dutch
    niagara = get_game("niagara")
    river = kit_of(niagara).board_module()
    state = niagara.new_state(3, 1)
    assert ">Y<" in river.render_board(state.view(0), 0, [], gettext_for("en"))
    german = river.render_board(state.view(0), 0, [], gettext_for("de"))
    assert ">Y<" not in german and ">B<" in german
    space = re.search(r'font-size="(\d+)"[^>]*>1</text>', german)
    assert space is not None and int(space.group(1)) >= 14  # the space number is the large text


def test_niagaras_game_over_says_each_players_gems_value_and_goal() -> None:
    """Issue 26: the game-over page gave only points; Niagara's breakdown opens with the gems banked (the
    Points column), names them by colour, their value and the goals met as the rules give them (the view's
    ``gem_value`` and ``goals``, from ``rules.gem_value`` and ``rules.goals_met``), in the page's language."""
    from spieltafel.games.niagara.rules import gem_value, goals_met
    from spieltafel.server.web.i18n import gettext_for

    words = kit_of(get_game("niagara")).module("words")
    colours = ("amethyst", "diamond", "amber", "sapphire", "ruby")
    banked = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 4], [3, 2, 2, 0, 0], [0, 0, 0, 0, 0]]
    view = {"player_info": [
        {"banked": dict(zip(colours, b, strict=True)), "gems": sum(b), "gem_value": gem_value(b), "goals": goals_met(b)}
        for b in banked
    ]}
    rows = words.score_breakdown(view, gettext_for("en"))
    assert rows[0] == ["gems banked: 5", "1 × amethyst, 1 × diamond, 1 × amber, 1 × sapphire, 1 × ruby",
                       "gem value: 15", "goal: one gem of each colour"]
    assert rows[1][2:] == ["gem value: 20", "goal: four gems of one colour"]
    assert rows[2][3] == "goal: seven gems" and rows[3] == ["gems banked: 0", "gem value: 0", "no goal reached"]
    german = words.score_breakdown(view, gettext_for("de"))
    assert german[1] == [
        "gesicherte Edelsteine: 4", "4 × Rubin", "Edelsteinwert: 20", "Ziel: vier Edelsteine einer Farbe"
    ]
