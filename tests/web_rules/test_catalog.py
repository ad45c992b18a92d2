"""The ``rules`` domain: the template is current and every message is translated into German and Dutch."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from . import catalog

PLACEHOLDERS = re.compile(r"%\(\w+\)s|<[^>]+>")


def _ids(found: object) -> set[str]:
    return {str(message.id) for message in found if message.id}  # type: ignore[attr-defined]


def test_pot_is_current() -> None:
    with catalog.POT.open("rb") as handle:
        pot = read_po(handle, domain=catalog.DOMAIN)
    assert _ids(pot) == _ids(catalog.extract()), "run: python -m tests.web_rules.catalog"


@pytest.mark.parametrize("lang", catalog.LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    extracted = _ids(catalog.extract())
    po = catalog.read(lang)
    missing = sorted(extracted - _ids(po))
    assert not missing, f"not in {lang}/rules.po: {missing[:5]}"
    for message in po:
        if not message.id:
            continue
        assert message.string, f"untranslated in {lang}: {message.id!r}"
        assert not message.fuzzy, f"fuzzy in {lang}: {message.id!r}"
        assert sorted(PLACEHOLDERS.findall(str(message.id))) == sorted(PLACEHOLDERS.findall(str(message.string))), (
            f"placeholders or tags differ in {lang}: {message.id!r}"
        )
    assert not [m.id for m in po if m.id and m.id not in extracted], "obsolete messages"


@pytest.mark.parametrize("lang", catalog.LANGUAGES)
def test_translations_are_not_english(lang: str) -> None:
    po = catalog.read(lang)
    same = [m.id for m in po if m.id and m.string == m.id and len(str(m.id)) > 12]
    assert not same, f"left in English in {lang}: {same[:5]}"
