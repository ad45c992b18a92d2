"""Hand of Five's own catalogs translate every message of its words, board, rules page and blurb into German
and Dutch, with the same placeholders (Spieltafel's catalogs carry only the site's and its own games' words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "spieltafel_hand_of_five"
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
SITE_WORDS = {"Something happened that cannot be shown in words."}
"""Said by Spieltafel itself too: its catalogs translate it."""


def messages() -> set[str]:
    found = extract_from_dir(
        str(PACKAGE), [("rules.html", "jinja2"), ("*.py", "python")],
        options_map={"rules.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}},
        keywords={"_": None, "gettext": None, "N_": None},
    )
    return {str(message) for _, _, message, _, _ in found} - SITE_WORDS


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_message_is_translated(lang: str) -> None:
    with (PACKAGE / "locales" / lang / "LC_MESSAGES" / "hand_of_five.po").open("rb") as handle:
        catalog = {m.id: m.string for m in read_po(handle) if m.id}
    assert messages(), "nothing extracted"
    for message in messages():
        assert catalog.get(message), f"{lang}: no translation of {message!r}"
        assert sorted(PLACEHOLDER.findall(message)) == sorted(PLACEHOLDER.findall(str(catalog[message]))), message
    assert set(catalog) <= messages(), f"{lang}: obsolete messages {sorted(set(catalog) - messages())[:3]}"
