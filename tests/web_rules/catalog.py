"""The ``rules`` gettext domain: what is extracted from the rules and replay templates (and modules).

``python -m tests.web_rules.catalog`` rewrites ``locales/rules.pot`` and merges it into
``locales/{de,nl}/LC_MESSAGES/rules.po`` (new messages arrive untranslated: the catalog test then fails
until they are translated).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from spieltafel.core import all_games, kit_of

WEB = Path(__file__).resolve().parents[2] / "src" / "spieltafel" / "server" / "web"
LOCALES = WEB / "locales"
POT = LOCALES / "rules.pot"
LANGUAGES = ("de", "nl")
DOMAIN = "rules"

_METHODS = [
    ("templates/rules/**.html", "jinja2"),  # the layout of every rules page; each game's own text: site_games()
    ("templates/replay/**.html", "jinja2"),
    ("rules.py", "python"),
    ("replay.py", "python"),
]
_OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}


_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


def site_games() -> list[tuple[Path, str]]:
    """(package folder, rules template) of every registered game whose words the site's catalogs carry
    (a game with catalogs of its own, ``GameKit.locales``, is left to them)."""
    found = []
    for game in all_games():
        kit = kit_of(game)
        if kit.locales is None and kit.rules is not None:
            found.append((kit.folder(), kit.rules.template))
    return found


def extract() -> Catalog:
    """Every message of the rules and replay pages (and of the games' rules pages and blurbs), with where
    it is used."""
    catalog = Catalog(domain=DOMAIN, project="Spieltafel", msgid_bugs_address="", copyright_holder="Spieltafel")
    places = [(WEB, _METHODS, _OPTIONS)] + [
        (folder, [(template, "jinja2"), ("__init__.py", "python")],
         {template: {"extensions": "jinja2.ext.i18n", "trimmed": "true"}})
        for folder, template in site_games()
    ]
    for root, methods, options in places:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(root), methods, options_map=options, keywords=_KEYWORDS, comment_tags=("Translators:",),
        ):
            catalog.add(message, None, [(f"{root.name}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def main() -> None:
    template = extract()
    with POT.open("wb") as handle:
        write_po(handle, template, width=120, omit_header=False, sort_output=False)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Spieltafel")
            catalog.update(template, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=120, ignore_obsolete=True)


if __name__ == "__main__":
    main()
