"""Boards that fit (issue 25, docs/play.md): every board on a phone, portrait and landscape, and on desktop.

One server and one set of tables for the module: per game and player count a running table at the player's
turn (a few moves in) and a finished game of bots, in English, German and Dutch, at 390 × 844 and 844 × 390
(a touch screen) and at 1280 × 800. On every table page, finished game, replay and history:

- the page never scrolls sideways (``scrollWidth <= innerWidth``) and the board's frame lies inside the
  viewport's width (a board wider than its frame scrolls inside it);
- on a touch screen every target is 44 × 44 CSS px or more, and a tap on the middle of a target's drawing
  reaches that target (no neighbour's hit area lies over it);
- on a phone (upright or on its side) the header is at most 64 px tall, its menu a real button;
- Haleakala at 1280 wide draws its island 880 px or more with every word 11 px or larger; Iquazú and Niagara
  at 1920 wide use the room (1000 px or more).

With ``SPIELTAFEL_SCREENSHOTS_DIR=docs/screenshots`` it writes the boards' pictures (desktop and phone) and
the phone's header (``lobby-phone.png``, ``lobby-menu-phone.png``).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from .harness import Server, new_person, sign_up
from .test_browser import _api, _play_through_api, _token

PASSWORD = "correct-horse-7"
NAME = "fiona"
GAMES = (("iquazu", 2), ("iquazu", 3), ("iquazu", 4), ("haleakala", 2), ("niagara", 3), ("niagara", 4), ("niagara", 5))
FINISHED = (("iquazu", 2), ("haleakala", 2), ("niagara", 3))
"""Games of bots played to the end (the smallest player count of each: a whole game takes the suite's one bot
worker long; the finished board is drawn by the same code as the running one at every player count)."""
PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}
VIEWPORTS = {"portrait": (PORTRAIT, True), "landscape": (LANDSCAPE, True), "desktop": (DESKTOP, False)}
HEADER_MAX = 64
TARGET_MIN = 44
LABEL_MIN = 11

MEASURE = """() => {
  const frame = document.querySelector('.board');
  const svg = frame && frame.querySelector('svg');
  const box = frame ? frame.getBoundingClientRect() : null;
  const small = [], covered = [];
  const targets = svg ? [...svg.querySelectorAll('[data-action], [data-actions], [data-gestures]')] : [];
  for (const target of targets) {
    const name = target.getAttribute('aria-label');
    const r = target.getBoundingClientRect();
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) small.push(`${name}: ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
    // the middle of the target's own drawing (without its hit area) must reach the target itself
    const hit = target.querySelector(':scope > .hit');
    if (hit) hit.setAttribute('display', 'none');
    const drawn = target.getBBox();
    if (hit) hit.removeAttribute('display');
    const m = svg.getScreenCTM();
    const x = drawn.x + drawn.width / 2, y = drawn.y + drawn.height / 2;
    target.scrollIntoView({block: 'center', inline: 'center'});
    const m2 = svg.getScreenCTM();
    const sx = m2.a * x + m2.c * y + m2.e, sy = m2.b * x + m2.d * y + m2.f;
    const found = document.elementFromPoint(sx, sy);
    const owner = found && found.closest('[data-action], [data-actions], [data-gestures]');
    const other = owner ? owner.getAttribute('aria-label') : (found ? found.tagName : 'nothing');
    if (owner !== target) covered.push(`${name} → ${other}`);
  }
  window.scrollTo(0, 0);
  if (frame) frame.scrollLeft = 0;
  const header = document.querySelector('.site-header').getBoundingClientRect();
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    frame: box ? [box.left, box.right] : null, svgWidth: svg ? svg.getBoundingClientRect().width : 0,
    targets: targets.length, small, covered, header: header.height,
  };
}"""

LABELS = """() => {
  const svg = document.querySelector('.board svg');
  const scale = svg.getScreenCTM().a;
  const small = [...svg.querySelectorAll('text')]
    .map((t) => [t.textContent, parseFloat(t.getAttribute('font-size')) * scale])
    .filter(([, size]) => size < 11).map(([text, size]) => `${text}: ${size.toFixed(1)}px`);
  const island = Math.max(...[...svg.querySelectorAll('circle')].map((c) => c.getBoundingClientRect().width));
  return {small, island, scale};
}"""


class Site:
    def __init__(self, server: Server, state: Any) -> None:
        self.server = server
        self.state = state
        self.running: dict[tuple[str, int], int] = {}
        self.over: dict[tuple[str, int], int] = {}

    def pages(self) -> list[tuple[str, str, bool]]:
        """(name, path, whether it has the player's targets) of every page that draws a board."""
        found = []
        for (game, players), table in self.running.items():
            found.append((f"{game}-{players}p", f"/tables/{table}", True))
            found.append((f"{game}-{players}p-history", f"/tables/{table}/history", False))
        for (game, players), table in self.over.items():
            found.append((f"{game}-{players}p-over", f"/tables/{table}", False))
            found.append((f"{game}-{players}p-replay", f"/tables/{table}/replay?step=1000000", False))
        return found


def _wait(server: Server, token: str, table: int, status: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _api(server, "GET", f"/api/tables/{table}", None, token)["status"] != status:
        assert time.monotonic() < deadline, f"table {table} is not {status}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def site(server: Server, browser: Any) -> Site:
    owner = new_person(browser)
    sign_up(owner, server.url, NAME, PASSWORD)
    built = Site(server, owner.context.storage_state())
    owner.context.close()
    token = _token(server, NAME, PASSWORD)
    bot = {"kind": "bot", "bot": "random"}
    for game, players in GAMES:
        body = {"game": game, "players": players, "seats": [{"kind": "me"}] + [bot] * (players - 1)}
        built.running[(game, players)] = _api(server, "POST", "/api/tables", body, token)["id"]
    for game, players in FINISHED:
        body = {"game": game, "players": players, "seats": [bot] * players}
        built.over[(game, players)] = _api(server, "POST", "/api/tables", body, token)["id"]
    rng = random.Random(25)
    for table in built.running.values():
        _wait(server, token, table, "playing", 30)
        # a few moves in, and the player's turn again with a choice: targets on the board (a single legal action
        # would play itself when a page opens, docs/play.md, and take the targets away under the measurement)
        _play_through_api(server, table, token, rng,
                          lambda s: s["seq"] >= 12 and s["seat"] in s["to_act"] and len(s["legal"]) > 1)
    for table in built.over.values():
        _wait(server, token, table, "over", 240)
    return built


def _open(browser: Any, site: Site, lang: str, viewport: dict[str, int], touch: bool) -> Any:
    context = browser.new_context(
        viewport=viewport,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        has_touch=touch,
        is_mobile=touch,
        storage_state=site.state,
    )
    context.set_default_timeout(20_000)
    return context.new_page()


def _show(page: Any, server: Server, path: str, targets: bool) -> None:
    page.goto(server.url + path)
    page.wait_for_selector(".board svg")
    if targets:
        page.wait_for_selector("#connection.live")
        page.wait_for_selector("#turn-banner.mine")
        page.wait_for_selector("#board [data-action], #board [data-actions]")
    page.wait_for_timeout(50)  # boardfit.js sizes the hit areas once the board is drawn


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
@pytest.mark.parametrize("where", list(VIEWPORTS))
def test_every_board_fits_without_sideways_scrolling(
    site: Site, browser: Any, shots: Path, lang: str, where: str
) -> None:
    viewport, touch = VIEWPORTS[where]
    page = _open(browser, site, lang, viewport, touch)
    problems = []
    try:
        for name, path, targets in site.pages():
            _show(page, site.server, path, targets)
            if lang == "en" and where in ("portrait", "desktop") and name in SHOTS:
                kind = "phone" if where == "portrait" else "desktop"
                page.screenshot(path=str(shots / f"{SHOTS[name]}-{kind}.png"), full_page=kind == "phone")
                # a full-page picture resizes the viewport for a moment: boardfit.js sizes the hit areas anew
                page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
                if targets:  # the picture's resize may have the page draw its board anew: measure the drawn one
                    page.wait_for_selector("#board [data-action], #board [data-actions], #board [data-gestures]")
            found = page.evaluate(MEASURE)
            label = f"{lang} {where} {name} ({path})"
            if found["scrollWidth"] > found["innerWidth"]:
                problems.append(f"{label}: the page scrolls sideways, {found['scrollWidth']} > {found['innerWidth']}")
            left, right = found["frame"]
            if left < 0 or right > found["innerWidth"]:
                problems.append(f"{label}: the board's frame {left:.0f}..{right:.0f} leaves the viewport")
            if targets and not found["targets"]:
                problems.append(f"{label}: no targets on the player's turn")
            if touch and found["small"]:
                problems.append(f"{label}: targets under 44 × 44 px: {found['small'][:5]}")
            if touch and found["covered"]:
                problems.append(f"{label}: a tap on the target reaches another: {found['covered'][:5]}")
            if touch and found["header"] > HEADER_MAX:
                problems.append(f"{label}: the header is {found['header']:.0f} px tall")
    finally:
        page.context.close()
    assert not problems, "\n".join(problems)


SHOTS = {
    "iquazu-3p": "iquazu",
    "haleakala-2p": "haleakala",
    "niagara-4p": "niagara",
    "haleakala-2p-over": "finished",
    "niagara-5p": "niagara-5p",
    "iquazu-2p-over": "finished-iquazu",
    "niagara-3p-replay": "replay-niagara",
}
"""Which pages' pictures go to the screenshots folder, under which name."""


def test_haleakala_uses_the_room_on_desktop_and_the_others_at_1920(site: Site, browser: Any) -> None:
    page = _open(browser, site, "de", DESKTOP, False)
    try:
        _show(page, site.server, f"/tables/{site.running[('haleakala', 2)]}", True)
        found = page.evaluate(LABELS)
        assert found["island"] >= 880, found
        assert not found["small"], f"words under {LABEL_MIN} px at 1280 wide: {found['small']}"
        page.set_viewport_size(WIDE)
        for game, players in (("iquazu", 4), ("niagara", 5), ("haleakala", 2)):
            _show(page, site.server, f"/tables/{site.running[(game, players)]}", True)
            width = page.evaluate("() => document.querySelector('.board svg').getBoundingClientRect().width")
            assert width >= 1000, (game, width)
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        page.context.close()


def test_the_phone_header_is_one_line_with_a_menu(site: Site, browser: Any, shots: Path) -> None:
    page = _open(browser, site, "en", PORTRAIT, True)
    try:
        page.goto(site.server.url + "/")
        header = page.locator(".site-header")
        assert header.bounding_box()["height"] <= HEADER_MAX
        button = page.locator("#menu-button")
        assert button.get_attribute("aria-expanded") == "false"
        assert not page.locator(".site-nav a[href='/rules']").is_visible()
        assert page.locator(".your-turn-count").get_attribute("aria-label") == f"{len(GAMES)} games wait for you"
        page.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
        button.click()
        assert button.get_attribute("aria-expanded") == "true"
        assert page.locator(".site-nav a[href='/rules']").is_visible()
        assert page.locator(".language-switch button[value='de']").is_visible()
        page.screenshot(path=str(shots / "lobby-menu-phone.png"))
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
        assert page.evaluate("() => document.activeElement.id") == "menu-button"
        page.keyboard.press("Enter")  # a real button: the keyboard opens it too
        assert button.get_attribute("aria-expanded") == "true"
        page.set_viewport_size(DESKTOP)  # a wide screen shows everything without the button
        assert not page.locator("#menu-button").is_visible()
        assert page.locator(".site-nav a[href='/rules']").is_visible()
        page.screenshot(path=str(shots / "lobby-desktop.png"))
    finally:
        page.context.close()


SVG_WIDTH = "() => document.querySelector('.board svg').getBoundingClientRect().width"
FRAME_WIDTH = "() => document.querySelector('.board').clientWidth"


def test_a_phone_shows_the_whole_board_and_a_tap_zooms_into_it(site: Site, browser: Any, shots: Path) -> None:
    """The board scales to the phone's width when the player asks for the whole board (remembered); a tap on the
    whole board zooms into the place tapped and plays nothing; a finished game opens whole."""
    server = site.server
    token = _token(server, NAME, PASSWORD)
    table = site.running[("iquazu", 2)]
    page = _open(browser, site, "de", PORTRAIT, True)
    try:
        _show(page, server, f"/tables/{table}", True)
        button = page.locator(".board-view")
        assert button.is_visible() and button.inner_text() == "Ganzer Spielplan"
        assert page.evaluate(SVG_WIDTH) > page.evaluate(FRAME_WIDTH) + 1  # the playable size, scrolling in its frame
        seq = _api(server, "GET", f"/api/tables/{table}", None, token)["seq"]
        button.click()
        assert page.evaluate(SVG_WIDTH) <= page.evaluate(FRAME_WIDTH) + 1
        assert button.inner_text() == "Vergrößern" and button.get_attribute("aria-pressed") == "false"
        page.screenshot(path=str(shots / "iquazu-whole-phone.png"))
        target = page.locator("#board [data-action], #board [data-actions]").last
        box = target.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(200)
        assert page.evaluate(SVG_WIDTH) > page.evaluate(FRAME_WIDTH) + 1  # zoomed in
        frame = page.locator("#board").bounding_box()
        zoomed = target.bounding_box()
        middle = zoomed["x"] + zoomed["width"] / 2
        assert frame["x"] <= middle <= frame["x"] + frame["width"], "the tapped place is in view"
        assert _api(server, "GET", f"/api/tables/{table}", None, token)["seq"] == seq, "the tap played nothing"
        assert page.locator("#chooser").is_hidden() and page.locator("#confirm-bar").is_hidden()
        button.click()  # the whole board again, remembered
        page.reload()
        _show(page, server, f"/tables/{table}", True)
        assert page.evaluate(SVG_WIDTH) <= page.evaluate(FRAME_WIDTH) + 1
        over = site.over[("haleakala", 2)]
        _show(page, server, f"/tables/{over}", False)
        assert page.evaluate(SVG_WIDTH) <= page.evaluate(FRAME_WIDTH) + 1  # a finished game opens whole
        page.screenshot(path=str(shots / "finished-haleakala-whole-phone.png"), full_page=True)
    finally:
        page.context.close()


def _my_discs_on_beach_5(server: Server, token: str, table: int) -> dict[str, Any]:
    """The player's moves through the API: a disc on beach 5 whenever one may go there, else a random move,
    until two of the player's discs lie there (two "take … b5" moves) at the player's turn."""
    rng = random.Random(5)
    for _ in range(400):
        state: dict[str, Any] = _api(server, "GET", f"/api/tables/{table}/state", token=token)
        assert not state["result"], "the game ended before two discs lay on beach 5"
        if state["seat"] not in state["to_act"] or not state["legal"]:
            time.sleep(0.02)
            continue
        legal = state["legal"]
        if sum(1 for item in legal if item["notation"].startswith("take ") and item["notation"].endswith(" b5")) >= 2:
            return state
        places = [item for item in legal if item["notation"].startswith("place ") and item["notation"].endswith(" b5")]
        choice = places[0] if places else rng.choice(legal)
        _api(server, "POST", f"/api/tables/{table}/moves", {"seq": state["seq"], "action": choice["action"]}, token)
    raise AssertionError("two discs never lay on beach 5")


def test_a_tap_on_either_of_two_discs_on_a_slanted_beach_takes_that_disc(site: Site, browser: Any) -> None:
    """Haleakala's beach 5 lies at 150°: the player's two rows of discs there sit 22 units apart along a slant.
    On a phone each disc's hit area (44 × 44 px) must leave the other's middle alone: a square's corner once did
    (a tap on disc 3 took disc 5 back, in a run where the bots happened to leave two discs there)."""
    server = site.server
    token = _token(server, NAME, PASSWORD)
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    table = _api(server, "POST", "/api/tables", body, token)["id"]
    _wait(server, token, table, "playing", 30)
    _my_discs_on_beach_5(server, token, table)
    page = _open(browser, site, "en", PORTRAIT, True)
    try:
        _show(page, server, f"/tables/{table}", True)
        found = page.evaluate(MEASURE)
        discs = page.locator("#board [aria-label*='back from beach 5']")
        assert discs.count() >= 2, "the two discs on beach 5 are not targets"
        assert not found["small"], found["small"]
        assert not found["covered"], f"a tap on a target's middle reaches another: {found['covered']}"
    finally:
        page.context.close()
