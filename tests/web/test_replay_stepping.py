"""Replay and history without reloading (issue 26): the step buttons, the arrow keys and the slider swap the
step in place (the page is not loaded again: a mark set in the window survives, the scroll position stays,
the address and the browser's history follow), and autoplay steps on by itself at a chosen speed until
paused. The history of a running game does the same and still shows only what the seat saw."""

from __future__ import annotations

import re
import time
from typing import Any

from .harness import Server, new_person, sign_up
from .test_browser import _api, _token

PASSWORD = "correct-horse-7"


def _step(page: Any) -> int:
    found = re.search(r"step=(\d+)", page.url)
    return int(found.group(1)) if found else 0


def test_replay_steps_without_reloading_and_plays_by_itself(server: Server, browser: Any) -> None:
    page = new_person(browser, "de")
    sign_up(page, server.url, "rhea", PASSWORD)
    token = _token(server, "rhea", PASSWORD)
    bots = [{"kind": "bot", "bot": "random"}] * 2
    over = _api(server, "POST", "/api/tables", {"game": "haleakala", "players": 2, "seats": bots}, token)["id"]
    deadline = time.monotonic() + 120
    while _api(server, "GET", f"/api/tables/{over}", None, token)["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    page.goto(f"{server.url}/tables/{over}/replay?step=3&as=all")
    page.evaluate("() => { window.__sameDocument = true; window.scrollTo(0, 200); }")
    scrolled = page.evaluate("() => window.scrollY")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r".*step=4.*"))
    page.wait_for_function("() => document.querySelector('#replay-step').value === '4'")
    assert page.evaluate("() => window.__sameDocument") is True  # no reload
    assert page.evaluate("() => window.scrollY") == scrolled  # no jump
    page.click("a[data-replay=back]")
    page.wait_for_function("() => document.querySelector('#replay-step').value === '3'")
    page.go_back()  # the browser's history follows the steps
    page.wait_for_function("() => document.querySelector('#replay-step').value === '4'")
    assert page.evaluate("() => window.__sameDocument") is True
    # autoplay, translated, at the fast speed, until paused
    toggle = page.locator("[data-autoplay-toggle]")
    assert toggle.is_visible() and toggle.inner_text() == "Abspielen"
    page.select_option("[data-autoplay-speed]", "400")
    toggle.click()
    page.wait_for_function("() => Number(document.querySelector('#replay-step').value) >= 7", timeout=10_000)
    assert page.locator("[data-autoplay-toggle]").inner_text() == "Anhalten"
    page.locator("[data-autoplay-toggle]").click()
    stopped = _step(page)
    page.wait_for_timeout(1200)
    assert _step(page) == stopped and page.evaluate("() => window.__sameDocument") is True
    assert not page.csp_errors, page.csp_errors
    # a running game's history: the same stepping, only the seat's own view
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    running = _api(server, "POST", "/api/tables", {"game": "iquazu", "players": 2, "seats": seats}, token)["id"]
    state = _api(server, "GET", f"/api/tables/{running}/state", None, token)
    deadline = time.monotonic() + 30
    while not state["legal"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        state = _api(server, "GET", f"/api/tables/{running}/state", None, token)
    move = {"seq": state["seq"], "action": state["legal"][0]["action"]}
    _api(server, "POST", f"/api/tables/{running}/moves", move, token)
    page.goto(f"{server.url}/tables/{running}/history?step=1")
    page.evaluate("() => { window.__sameDocument = true; }")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r".*/history\?step=0$"))
    assert page.evaluate("() => window.__sameDocument") is True
    assert "?as=" not in page.url  # the history never offers another seat's view
    page.context.close()
