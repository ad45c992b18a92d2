"""Rendering the pages: one Jinja2 environment per language with the i18n extension.

``render(request, template, context, status=200)`` is the one way a page is drawn. It adds the current
account, the language, the CSRF token and what the chrome of ``base.html`` needs (templates extend
``base.html`` and fill the blocks ``title`` and ``content``). The security middleware of
:mod:`spieltafel.server.web.security` has already resolved the account, the language and the CSRF token
for page requests; outside it (a bare test app) they fall back to visitor, browser language, no token.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, FunctionLoader, select_autoescape

from spieltafel.core import UnknownGameError, all_games, get_game, kit_of
from spieltafel.server.numbers import BadNumber
from spieltafel.server.web import i18n

TEMPLATES_DIR = Path(__file__).with_name("templates")
_environments: dict[str, Environment] = {}
_lock = threading.Lock()


GAME_TEMPLATES = "games/"
"""Templates named ``games/<game>/<file>`` are files of that game's package (its rules page)."""


def game_template(name: str) -> str | None:
    """The text of ``games/<game>/<file>`` from the game's package (through its kit), or None."""
    if not name.startswith(GAME_TEMPLATES):
        return None
    game_name, _, file = name[len(GAME_TEMPLATES):].partition("/")
    try:
        folder = kit_of(get_game(game_name)).folder()
    except (UnknownGameError, ImportError):
        return None
    path = folder / file
    return path.read_text(encoding="utf-8") if file and "/" not in file and path.is_file() else None


def _loader() -> BaseLoader:
    return ChoiceLoader([FileSystemLoader(str(TEMPLATES_DIR)), FunctionLoader(game_template)])


def environment(lang: str) -> Environment:
    """The Jinja2 environment whose ``_``/``gettext``/``ngettext`` translate into ``lang``."""
    lang = i18n.normalise(lang) or i18n.DEFAULT_LANGUAGE
    with _lock:
        env = _environments.get(lang)
        if env is None:
            env = Environment(
                loader=_loader(),
                autoescape=select_autoescape(["html", "svg", "xml"], default_for_string=True),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
            )
            env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
            env.globals["lang"] = lang
            env.globals["kit_of"] = kit_of
            env.globals["learn_url"] = learn_url
            env.globals["game_titles"] = and_list([game.title for game in all_games()], i18n.gettext_for(lang))
            _environments[lang] = env
        return env


def learn_url(name: str) -> str | None:
    """The address of the game's interactive tutorial (``/learn/GAME``), or None when it offers none."""
    try:
        game = get_game(name)
    except UnknownGameError:
        return None
    return f"/learn/{game.name}" if kit_of(game).tutorial is not None else None


def and_list(items: list[str], gettext: Callable[[str], str]) -> str:
    """``a, b and c`` in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {gettext('and')} {items[-1]}"


def reset() -> None:
    """Forget the environments (after the catalogs were reloaded)."""
    with _lock:
        _environments.clear()


def language_of(request: Request) -> str:
    """The language of this request: resolved by the middleware, else cookie, then the browser's."""
    lang = getattr(request.state, "web_lang", None)
    if isinstance(lang, str):
        return lang
    return (
        i18n.normalise(request.cookies.get(i18n.LANGUAGE_COOKIE))
        or i18n.negotiate(request.headers.get("accept-language"))
        or i18n.DEFAULT_LANGUAGE
    )


def account_of(request: Request) -> Any:
    """The signed-in account of this page request (resolved by the middleware), or None."""
    return getattr(request.state, "web_account", None)


def csrf_token_of(request: Request) -> str:
    """The token every state-changing form of this page carries (field ``csrf_token``)."""
    token = getattr(request.state, "web_csrf", None)
    return token if isinstance(token, str) else ""


def gettext_of(request: Request) -> Callable[[str], str]:
    """``gettext`` in the request's language (for messages composed in Python)."""
    return i18n.gettext_for(language_of(request))


def number_refused(error: BadNumber, gettext: Callable[[str], str]) -> str:
    """A refused number from the address or a form, in the reader's language: which one, what it may be."""
    values = {"name": error.name, "low": error.low, "high": error.high, "word": error.word, "text": error.text[:20]}
    if error.word:
        return gettext("“%(name)s” must be a whole number from %(low)d to %(high)d or “%(word)s”, not “%(text)s”.") % (
            values
        )
    return gettext("“%(name)s” must be a whole number from %(low)d to %(high)d, not “%(text)s”.") % values


def render(
    request: Request, template: str, context: Mapping[str, Any] | None = None, status: int = 200
) -> HTMLResponse:
    """Render ``template`` (which extends ``base.html``) in the request's language."""
    lang = language_of(request)
    values: dict[str, Any] = {
        "request": request,
        "account": account_of(request),
        "lang": lang,
        "languages": i18n.LANGUAGES,
        "language_names": i18n.LANGUAGE_NAMES,
        "csrf_token": csrf_token_of(request),
        "current_path": _current_path(request),
        "flash": None,
        "your_turn_count": getattr(request.state, "web_your_turn", None),
    }
    values.update(context or {})
    html = environment(lang).get_template(template).render(values)
    return HTMLResponse(html, status_code=status, headers={"Content-Language": lang})


def _current_path(request: Request) -> str:
    path = request.url.path
    if request.url.query:
        path += "?" + request.url.query
    return path


def redirect(url: str) -> RedirectResponse:
    """A "see other" answer to a form: the browser asks for ``url`` with GET."""
    return RedirectResponse(url, status_code=303)


def sign_in_first(path: str) -> RedirectResponse:
    """Send a reader who is not signed in to the sign-in page, which leads back to ``path`` afterwards.

    ``path`` is a local path and may hold its own query (``/tables/3?tab=chat&x=1``) or escapes
    (``/players/a%3Fb``): it is quoted whole, so the sign-in page's ``next`` gets it back unchanged, not cut
    at its first ``&`` or decoded once too often."""
    return redirect("/signin?next=" + quote(path, safe="/"))


def safe_next(value: str | None, default: str = "/") -> str:
    """A local path to go back to (never another site)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value or "\n" in value:
        return default
    return value
