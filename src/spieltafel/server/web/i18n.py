"""Languages of the pages: English (the source language), German and Dutch.

Every gettext domain present under ``locales/`` (``web``, ``games``, ``rules``) is compiled from its
``.po`` file when first needed (no committed ``.mo`` files) and merged into one catalog per language.
Fuzzy and empty entries are left out, so they show in English (and the catalog test fails on them).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from spieltafel.core import all_games, kit_of

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES: tuple[str, ...] = ("en", "de", "nl")
DEFAULT_LANGUAGE = "en"
SOURCE_LANGUAGE = "en"
DOMAINS: tuple[str, ...] = ("web", "games", "rules")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands"}
"""Each language in its own words (never translated: a reader looks for their own language's name)."""
LANGUAGE_COOKIE = "spieltafel_lang"

_lock = threading.Lock()


def domains_present(lang: str) -> list[str]:
    """The domains that have a ``.po`` file for ``lang``, the known ones first."""
    folder = LOCALES_DIR / lang / "LC_MESSAGES"
    found = sorted(p.stem for p in folder.glob("*.po")) if folder.is_dir() else []
    return [d for d in DOMAINS if d in found] + [d for d in found if d not in DOMAINS]


def _compile(po_path: Path, lang: str, domain: str) -> Translations:
    with po_path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=domain)


def catalogs(lang: str) -> list[tuple[Path, str]]:
    """(``.po`` file, domain) of every catalog for ``lang``: the site's, then each registered game's own
    (a game that brings its words' translations along declares ``locales`` in its kit)."""
    found = [(LOCALES_DIR / lang / "LC_MESSAGES" / f"{domain}.po", domain) for domain in domains_present(lang)]
    for game in all_games():
        folder = kit_of(game).locales_folder()
        if folder is not None:
            found += sorted((path, path.stem) for path in (folder / lang / "LC_MESSAGES").glob("*.po"))
    return found


@cache
def _translations(lang: str) -> NullTranslations:
    if lang == SOURCE_LANGUAGE or lang not in LANGUAGES:
        return NullTranslations()
    merged: Translations | None = None
    for path, domain in catalogs(lang):
        compiled = _compile(path, lang, domain)
        if merged is None:
            merged = compiled
        else:
            merged.merge(compiled)
    return merged if merged is not None else NullTranslations()


def translations(lang: str) -> NullTranslations:
    """The merged translations of every domain for ``lang`` (English: the messages unchanged)."""
    with _lock:
        return _translations(normalise(lang) or DEFAULT_LANGUAGE)


def gettext_for(lang: str) -> Callable[[str], str]:
    """``gettext`` in ``lang``: a message of any domain, translated (unknown messages unchanged)."""
    return translations(lang).gettext


def reload() -> None:
    """Forget the compiled catalogs (tests that edit a ``.po`` file)."""
    with _lock:
        _translations.cache_clear()


def load_all() -> None:
    """Compile every catalog now (at start-up), so that a broken ``.po`` file fails early."""
    for lang in LANGUAGES:
        translations(lang)


def normalise(value: str | None) -> str | None:
    """``"de-AT"`` → ``"de"``; None for a language we do not offer."""
    if not value:
        return None
    primary = value.strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def negotiate(accept_language: str | None) -> str | None:
    """The best offered language for an ``Accept-Language`` header, or None."""
    if not accept_language:
        return None
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")[:32]):
        pieces = part.strip().split(";")
        lang = normalise(pieces[0])
        if lang is None:
            continue
        quality = 1.0
        for parameter in pieces[1:]:
            key, _, value = parameter.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            choices.append((-quality, position, lang))
    return min(choices)[2] if choices else None
