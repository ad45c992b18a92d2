"""The pages issue 26 corrected, as a person sees them at 1280 × 800 and on a phone (390 × 844): the turn clock
beside a whole name (Iquazú, German, turn-based), Niagara's river (German), the history with the seats by
colour (German), the new-table form's options in words and its times with units (English, the whole page), the
profile and the leaderboard with provisional ratings, the rules' options, Niagara's decisions (German).

Each page at both widths: in the language asked for (``html[lang]``), no raw template text, no sideways
scrolling, the header one line (at most 64 px) beside a long name, on the phone with a Menu button. With
``SPIELTAFEL_SCREENSHOTS_DIR=docs/screenshots`` it writes ``docs/screenshots/polish-*.png`` (the game-over
pages' ``polish-*-over-*`` come from test_game_over.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .harness import DESKTOP, Server, new_person, sign_up
from .test_browser import _api, _token
from .test_pages import RAW_TEMPLATE, _scanned_texts

NAME = "alice-lindqvist"
"""A long name: the turn clock stands beside it whole."""
PASSWORD = "correct-horse-7"
PHONE = {"width": 390, "height": 844}
HEADER_MAX = 64

FIT = """() => ({
  scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  header: document.querySelector('.site-header').getBoundingClientRect().height,
  menu: Boolean(document.querySelector('.site-header button[aria-expanded]')
                && document.querySelector('.site-header button[aria-expanded]').offsetParent),
})"""


def _language(page: Any, lang: str) -> None:
    """The language switch in the header, as a person uses it (at desktop width, where it shows)."""
    page.set_viewport_size(DESKTOP)
    if page.locator("html").get_attribute("lang") != lang:
        page.click(f"form.language-switch button[value={lang}]")
        page.wait_for_selector(f"html[lang={lang}]")


def _pictures(page: Any, shots: Path, name: str, lang: str, whole: bool = False, at: str | None = None) -> list[str]:
    """The page at desktop and phone width (written as ``polish-NAME-desktop/phone.png``), scrolled to ``at``
    (a selector) when given; what does not fit is returned."""
    problems = []
    texts = _scanned_texts(page.content())
    problems += [f"{name}: raw {t!r}" for t in sorted(texts) if RAW_TEMPLATE.search(t)]
    if page.locator("html").get_attribute("lang") != lang:
        problems.append(f"{name}: the page is not in {lang}")
    for kind, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        found = page.evaluate(FIT)
        if found["scrollWidth"] > found["innerWidth"]:
            problems.append(f"{name} {kind}: the page scrolls sideways, {found['scrollWidth']} > {found['innerWidth']}")
        if kind == "phone" and (found["header"] > HEADER_MAX or not found["menu"]):
            problems.append(f"{name} phone: the header is {found['header']:.0f} px tall, menu {found['menu']}")
        if kind == "desktop" and found["header"] > HEADER_MAX:  # one line beside a long name, in every language
            problems.append(f"{name} desktop: the header is {found['header']:.0f} px tall")
        if at:
            page.locator(at).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        else:
            page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"polish-{name}-{kind}.png"), full_page=whole)
    page.set_viewport_size(DESKTOP)
    return problems


def _wait_over(server: Server, token: str, table: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _api(server, "GET", f"/api/tables/{table}", None, token)["status"] != "over":
        assert time.monotonic() < deadline, f"table {table} is not over"
        time.sleep(0.2)


def _table_page(page: Any, server: Server, table: int) -> None:
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("#connection.live")
    page.wait_for_selector("#turn-banner.mine")
    page.wait_for_selector("#board [data-action], #board [data-actions], #board [data-gestures]")


def test_the_corrected_pages_fit_both_widths_in_their_language(server: Server, browser: Any, shots: Path) -> None:
    page = new_person(browser)
    sign_up(page, server.url, NAME, PASSWORD)
    token = _token(server, NAME, PASSWORD)
    # bots play a rated game of Haleakala to its end meanwhile: the leaderboard's provisional ratings
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    over = _api(server, "POST", "/api/tables", {"game": "haleakala", "players": 2, "seats": bots}, token)["id"]
    # Iquazú, turn-based, against a bot; Niagara against two
    turn_based = {"game": "iquazu", "players": 2, "clock": {"pace": "turn", "per_move": "12h"}}
    turn_based["seats"] = [{"kind": "me"}, {"kind": "bot", "bot": "medium"}]
    iquazu = _api(server, "POST", "/api/tables", turn_based, token)["id"]
    three = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * 2
    niagara = _api(server, "POST", "/api/tables", {"game": "niagara", "players": 3, "seats": three}, token)["id"]
    problems: list[str] = []

    page.goto(server.url + "/")
    _language(page, "de")
    _table_page(page, server, iquazu)
    assert page.locator(".seat-clock, [data-clock]").count(), "no turn clock on a turn-based table"
    problems += _pictures(page, shots, "iquazu-turn-clock-de", "de")
    _table_page(page, server, niagara)
    problems += _pictures(page, shots, "niagara-de", "de")
    page.goto(f"{server.url}/tables/{iquazu}/history")
    page.wait_for_selector(".board svg")
    problems += _pictures(page, shots, "history-de", "de")
    page.goto(f"{server.url}/rules/niagara/decisions")
    problems += _pictures(page, shots, "niagara-decisions-de", "de")

    _language(page, "en")
    page.goto(f"{server.url}/tables/new?game=niagara&players=3")
    page.check("input[name=pace][value=live]")
    problems += _pictures(page, shots, "new-table-en", "en", whole=True)
    page.goto(f"{server.url}/players/{NAME}")
    problems += _pictures(page, shots, "profile-en", "en")
    page.goto(f"{server.url}/rules/iquazu")
    problems += _pictures(page, shots, "rules-options-en", "en", at="#options")
    _wait_over(server, token, over, 240)
    page.goto(f"{server.url}/leaderboards/haleakala")
    listed = page.locator("table tbody tr").all_inner_texts()  # other tests' rated games may be listed too
    for bot in ("Bot (greedy)", "Bot (random)"):
        assert any(bot in row for row in listed), f"{bot} of the finished game is not listed: {listed}"
    problems += _pictures(page, shots, "leaderboard-en", "en")
    assert not page.csp_errors, page.csp_errors
    page.context.close()
    assert not problems, "\n".join(problems)
