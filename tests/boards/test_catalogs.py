"""The ``games`` gettext domain: the template is up to date and German and Dutch translate every
message, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from spieltafel.core import all_games, kit_of

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
    with path.open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id and not m.fuzzy}


def test_the_template_lists_exactly_the_messages_of_the_code() -> None:
    assert set(catalog(LOCALES / "games.pot")) == code_messages()


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_message_is_translated(lang: str) -> None:
    translated = catalog(LOCALES / lang / "LC_MESSAGES" / "games.po")
    for message in code_messages():
        assert translated.get(message), f"{lang}: no translation of {message!r}"
        assert sorted(PLACEHOLDER.findall(message)) == sorted(PLACEHOLDER.findall(translated[message])), message
