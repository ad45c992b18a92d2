"""The browser suite, "your turn" (issue 14): the tab title and the header count the games waiting for you;
in a live game a tone sounds when it becomes your turn, and not once the sound is muted (remembered).

The tone is observed where it is made: an init script wraps the page's Web Audio ``createOscillator`` and
counts the oscillators started (``window.__tones``), and a MutationObserver counts the moments the turn
banner becomes yours (``window.__turns``), so the test compares real tones with real turns."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from .harness import DESKTOP, PHONE, Server, new_person, play_one, shoot, sign_up, wait_live
from .test_browser import _api, _token

PASSWORD = "correct-horse-7"
HOOKS = """
window.__tones = 0;
window.__turns = 0;
const audio = (window.BaseAudioContext || window.AudioContext).prototype;
const createOscillator = audio.createOscillator;
audio.createOscillator = function () {
  const node = createOscillator.call(this);
  const start = node.start;
  node.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
  return node;
};
document.addEventListener("DOMContentLoaded", () => {
  const banner = document.getElementById("turn-banner");
  if (!banner) return;
  let mine = banner.classList.contains("mine");
  new MutationObserver(() => {
    const now = banner.classList.contains("mine");
    if (now && !mine) window.__turns += 1;
    mine = now;
  }).observe(banner, { attributes: true, attributeFilter: ["class"] });
});
"""


def _waiting_table(server: Server, token: str, seats: list[dict[str, str]], **extra: Any) -> int:
    """A table of the token's person and a random bot, once it waits for the person's move."""
    body = {"game": "haleakala", "players": len(seats), "seats": seats, **extra}
    table: int = _api(server, "POST", "/api/tables", body, token)["id"]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = _api(server, "GET", f"/api/tables/{table}/state", None, token)
        if state["seat"] in state["to_act"]:
            return table
        time.sleep(0.05)
    raise AssertionError(f"table {table} does not wait for its person")


def _waiting_ids(server: Server, token: str, exclude: int) -> list[int]:
    return [t["id"] for t in _api(server, "GET", "/api/waiting", None, token) if t["id"] != exclude]


def test_the_title_and_the_header_count_the_games_waiting_for_you(
    server: Server, browser: Any, shots: Path
) -> None:
    vera = new_person(browser)
    sign_up(vera, server.url, "vera", PASSWORD)
    token = _token(server, "vera", PASSWORD)
    assert not vera.title().startswith("("), vera.title()  # nothing waits yet
    assert vera.locator(".your-turn-count").count() == 0
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    tables = [_waiting_table(server, token, seats) for _ in range(2)]
    vera.goto(f"{server.url}/")
    assert vera.title().startswith("(2) "), vera.title()
    assert vera.locator(".your-turn-count").inner_text() == "2 games wait for you"
    shoot(vera, shots, "your-turn-count")
    vera.goto(f"{server.url}/tables/{tables[0]}")
    wait_live(vera)
    vera.wait_for_function("() => document.title.startsWith('▶ ')")
    assert "(2) " in vera.title(), vera.title()  # the count stays in the table's title
    _api(server, "POST", f"/api/tables/{tables[1]}/leave", {"confirm": True}, token)
    vera.goto(f"{server.url}/")
    assert vera.title().startswith("(1) "), vera.title()
    assert vera.locator(".your-turn-count").inner_text() == "1 game waits for you"
    # the page stays open: a new game waiting shows when the page asks again (every 30 s, and at once when
    # the tab becomes visible again, which the test makes happen)
    _waiting_table(server, token, seats)
    vera.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    vera.wait_for_function("() => document.title.startsWith('(2) ')")
    assert vera.locator(".your-turn-count").inner_text() == "2 games wait for you"
    for table in (tables[0], *_waiting_ids(server, token, exclude=tables[0])):
        _api(server, "POST", f"/api/tables/{table}/leave", {"confirm": True}, token)
    vera.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    vera.wait_for_function("() => !document.title.startsWith('(')")
    assert vera.locator(".your-turn-count").count() == 0
    assert not vera.csp_errors, vera.csp_errors
    vera.context.close()


def _tones(page: Any) -> tuple[int, int]:
    tones, turns = page.evaluate("() => [window.__tones, window.__turns]")
    return int(tones), int(turns)


def _until_my_turn_again(page: Any, rng: random.Random) -> None:
    """Move until the turn has gone to the bot and come back to this person."""
    before = _tones(page)[1]
    for _ in range(40):
        page.wait_for_function(
            "(n) => window.__turns > n || document.querySelector('#turn-banner.mine')", arg=before
        )
        if _tones(page)[1] > before:
            return
        play_one(page, rng)
    raise AssertionError("the turn did not come back")


def test_a_live_game_sounds_your_turn_unless_muted(server: Server, browser: Any, shots: Path) -> None:
    walt = new_person(browser)
    walt.context.add_init_script(HOOKS)
    sign_up(walt, server.url, "walt", PASSWORD)
    token = _token(server, "walt", PASSWORD)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    live = _waiting_table(server, token, seats, clock={"pace": "live", "minutes": 30})
    walt.goto(f"{server.url}/tables/{live}")
    wait_live(walt)
    walt.wait_for_selector("#turn-banner.mine")
    assert walt.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert _tones(walt) == (0, 0)  # no tone for the turn the page opened with
    rng = random.Random(11)
    for expected in (1, 2):
        _until_my_turn_again(walt, rng)
        walt.wait_for_function("(n) => window.__tones >= n", arg=expected)
        assert _tones(walt) == (expected, expected)  # one tone each time the turn comes back
        assert walt.evaluate("() => document.body.dataset.turnSounds") == str(expected)
    walt.click("#sound-toggle")  # mute
    assert walt.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    _until_my_turn_again(walt, rng)
    walt.wait_for_timeout(300)
    assert _tones(walt) == (2, 3)  # the turn came back, silently
    shoot(walt, shots, "your-turn-muted")
    walt.reload()  # the choice is remembered in this browser
    wait_live(walt)
    assert walt.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    walt.evaluate("() => { window.__turns = 0; }")
    _until_my_turn_again(walt, rng)
    walt.wait_for_timeout(300)
    assert _tones(walt) == (0, 1)
    walt.click("#sound-toggle")  # sound on again
    _until_my_turn_again(walt, rng)
    walt.wait_for_function("() => window.__tones >= 1")
    assert _tones(walt) == (1, 2)
    # an untimed game makes no sound at all
    quiet = _waiting_table(server, token, seats)
    walt.goto(f"{server.url}/tables/{quiet}")
    wait_live(walt)
    _until_my_turn_again(walt, rng)
    walt.wait_for_timeout(300)
    assert _tones(walt) == (0, 1)
    assert not walt.csp_errors, walt.csp_errors
    walt.context.close()


def test_a_turn_based_clock_shows_hours_and_minutes_in_every_language(server: Server, browser: Any) -> None:
    """Issue 26: the clock of a turn-based game showed its raw template (``%(hours)d h %(minutes)d min``),
    the catalogs' ``%d`` placeholders unknown to the page's formatter."""
    sign_up(new_person(browser), server.url, "tara-lindqvist", PASSWORD)
    token = _token(server, "tara-lindqvist", PASSWORD)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    table = _waiting_table(server, token, seats, clock={"pace": "turn", "per_move": "12h"})
    for lang, hours in (("en", " h "), ("de", " Std. "), ("nl", " u ")):
        page = new_person(browser, lang)
        page.goto(f"{server.url}/signin")
        page.fill("#name", "tara-lindqvist")
        page.fill("#password", PASSWORD)
        page.click("form[action='/signin'] button[type=submit]")
        page.goto(f"{server.url}/tables/{table}")
        wait_live(page)
        clock = page.locator("#seat-list [data-clock='0']")
        page.wait_for_function("() => /\\d/.test(document.querySelector(\"#seat-list [data-clock='0']\").textContent)")
        text = clock.inner_text()
        assert "%(" not in text and hours in f" {text} " and text[0].isdigit(), (lang, text)
        # the clock beside the name did squeeze it to "t…": the whole name shows, at desktop and phone width
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            label = page.locator("#seat-list [data-seat='0'] .seat-label")
            assert label.evaluate("e => e.scrollWidth <= e.clientWidth"), (lang, viewport, label.inner_text())
        page.context.close()
