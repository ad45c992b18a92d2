"""The ``games`` gettext domain: the template is up to date and German and Dutch translate every
message, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from spieltafel.core import all_games, get_game, kit_of
from spieltafel.core.tutorial import load as load_tutorial

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "src" / "spieltafel" / "games"
LOCALES = ROOT / "src" / "spieltafel" / "server" / "web" / "locales"
SOURCES = [GAMES / "svgkit.py"] + [
    kit.folder() / f"{part}.py"
    for kit in (kit_of(game) for game in all_games()) if kit.locales is None  # the site's catalogs carry its words
    for part in (kit.board, kit.words) if part is not None
]
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def code_messages() -> set[str]:
    """Every literal argument of gettext(...) or _(...) in the boards' code (as ``pybabel extract -k gettext -k _``)."""
    found: set[str] = set()
    for source in SOURCES:
        for _, message, _, _ in extract_from_file("python", str(source), keywords={"gettext": None, "_": None}):
            assert isinstance(message, str)
            found.add(message)
    return found


def catalog(path: Path) -> dict[str, str]:
    """Each message's translation by its (singular) id; a plural message's forms joined by a line break
    (empty when any form is), so that a placeholder missing from one form shows."""
    with path.open("rb") as handle:
        found = {}
        for m in read_po(handle):
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, tuple):
                forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
                found[m.id[0]] = "\n".join(forms) if all(forms) else ""
            else:
                found[m.id] = m.string
        return found


def plural_forms(path: Path) -> dict[str, tuple[tuple[str, str], tuple[str, ...]]]:
    """Each plural message of a catalog: (singular, plural) and its translated forms, by its singular."""
    with path.open("rb") as handle:
        return {m.id[0]: (m.id, tuple(m.string)) for m in read_po(handle) if isinstance(m.id, tuple)}


def test_the_template_lists_exactly_the_messages_of_the_code() -> None:
    assert set(catalog(LOCALES / "games.pot")) == code_messages()


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_message_is_translated(lang: str) -> None:
    translated = catalog(LOCALES / lang / "LC_MESSAGES" / "games.po")
    for message in code_messages():
        assert translated.get(message), f"{lang}: no translation of {message!r}"
        assert sorted(PLACEHOLDER.findall(message)) == sorted(PLACEHOLDER.findall(translated[message])), message


def own_messages(game: str) -> set[str]:
    """Every message of a game with catalogs of its own: its words, board, rules page and blurb (gettext,
    ``_``, ``N_``), its options' names, descriptions and choices as the pages show them, and its tutorial's texts."""
    from spieltafel.server.web.messages import option_words

    kit = kit_of(get_game(game))
    found = extract_from_dir(
        str(kit.folder()), [("rules.html", "jinja2"), ("**.py", "python")],
        options_map={"rules.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}},
        keywords={"_": None, "gettext": None, "ngettext": (1, 2), "N_": None},
    )
    messages = {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}
    lesson = load_tutorial(get_game(game))  # its tutorial's texts (tutorial.json, spieltafel.core.tutorial)
    messages |= set(lesson.messages()) if lesson is not None else set()
    return messages | {message for message, _ in option_words(get_game(game))}


OWN = sorted(  # the built-in games (by package: CI's pure-Python pass imports them from a copy of src)
    game.name for game in all_games()
    if kit_of(game).locales is not None and kit_of(game).package.startswith("spieltafel.games.")
)


def test_the_builtin_games_bring_their_own_catalogs() -> None:
    assert OWN == ["haleakala", "iquazu", "niagara"]


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("game", OWN)
def test_a_games_own_catalog_translates_each_of_its_messages(game: str, lang: str) -> None:
    folder = kit_of(get_game(game)).locales_folder()
    assert folder is not None
    translated = catalog(folder / lang / "LC_MESSAGES" / f"{game}.po")
    wanted = own_messages(game)
    assert len(wanted) > 50, "nothing extracted"
    for message in wanted:
        assert translated.get(message), f"{game} {lang}: no translation of {message!r}"
        for form in translated[message].split("\n"):
            assert sorted(set(PLACEHOLDER.findall(message))) == sorted(set(PLACEHOLDER.findall(form))), message
    assert set(translated) <= wanted, f"{game} {lang}: obsolete {sorted(set(translated) - wanted)[:3]}"
    assert set(catalog(folder / f"{game}.pot")) == wanted, f"{game}: its template is not up to date"


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("game", OWN)
def test_a_plural_message_has_each_form_of_its_language(game: str, lang: str) -> None:
    """Both forms (``nplurals=2`` in German and Dutch: one, other), each with the English text's placeholders,
    and the template carries the same plural messages (``msgid_plural``) as the code."""
    folder = kit_of(get_game(game)).locales_folder()
    assert folder is not None
    translated = plural_forms(folder / lang / "LC_MESSAGES" / f"{game}.po")
    template = plural_forms(folder / f"{game}.pot")
    assert set(translated) == set(template), f"{game} {lang}: plural messages differ"
    coded = {
        message
        for _, _, message, _, _ in extract_from_dir(str(kit_of(get_game(game)).folder()), [("**.py", "python")],
                                                    keywords={"ngettext": (1, 2)})
        if isinstance(message, tuple)
    }
    assert coded == {ids for ids, _ in template.values()}, f"{game}: the template's plural messages are not the code's"
    assert coded, f"{game}: no plural message"
    for (singular, plural), forms in translated.values():
        assert len(forms) == 2 and all(forms), (game, lang, singular)
        assert set(PLACEHOLDER.findall(singular)) == set(PLACEHOLDER.findall(plural)), singular
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(plural)), (lang, form)
