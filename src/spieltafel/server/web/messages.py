"""The ``web`` gettext domain: extract its messages and update the German and Dutch catalogs.

``python -m spieltafel.server.web.messages`` extracts every message of the pages (the Python modules
and templates of this package, not the rules and replay pages, which are the ``rules`` domain) plus the
words the pages take from the game registry (option names, values and explanations), writes
``locales/web.pot`` and merges it into ``locales/{de,nl}/LC_MESSAGES/web.po`` (new messages empty, so
that the catalog test names them until they are translated).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from spieltafel.core import Game, kit_of
from spieltafel.core.registry import all_games
from spieltafel.server.web.i18n import LOCALES_DIR

PACKAGE_DIR = Path(__file__).parent
DOMAIN = "web"
METHOD_MAP = [
    ("rules.py", "ignore"),
    ("replay.py", "ignore"),
    ("messages.py", "ignore"),
    ("*.py", "python"),
    ("templates/rules/**.html", "ignore"),
    ("templates/replay/**.html", "ignore"),
    ("templates/*.html", "jinja2"),
]
OPTIONS_MAP = {"templates/*.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}


def option_words(game: Game) -> list[tuple[str, str]]:
    """(message, where) for a game's option names, descriptions and choices, as the pages show them."""
    found: list[tuple[str, str]] = []
    for spec in game.options:
        found.append((spec.label_of(), f"registry:{game.name}"))
        found.append((spec.description, f"registry:{game.name}:{spec.name}"))
        found.extend((spec.label_of(c), f"registry:{game.name}:{spec.name}") for c in spec.choices if not c.isdigit())
    return found


def registry_messages() -> list[tuple[str, str]]:
    """(message, where) for the words the pages show from the registry: the options of the games whose
    words the site's catalogs carry (a game with catalogs of its own, ``GameKit.locales``, has them there)."""
    return [found for game in all_games() if kit_of(game).locales is None for found in option_words(game)]


def template_catalog() -> Catalog:
    catalog = Catalog(project="Spieltafel", domain=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, _context in extract_from_dir(
        str(PACKAGE_DIR), METHOD_MAP, OPTIONS_MAP, keywords=KEYWORDS
    ):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments)
    for message, where in registry_messages():
        catalog.add(message, None, [(where, 0)])
    return catalog


def update() -> None:
    template = template_catalog()
    with (LOCALES_DIR / f"{DOMAIN}.pot").open("wb") as handle:
        write_po(handle, template, width=120, omit_header=False)
    for lang in ("de", "nl"):
        path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Spieltafel")
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=120, ignore_obsolete=True)


if __name__ == "__main__":
    update()
