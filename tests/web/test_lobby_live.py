"""The lobby (issue 26): each of my games is listed once (a game waiting for me is not repeated among my
games or the games to watch), the lobby updates without a reload when a table opens, and "Leave for good"
asks for a confirmation first."""

from __future__ import annotations

import time
from typing import Any

from .harness import Server, new_person, sign_up, wait_live
from .test_browser import _api, _token

PASSWORD = "correct-horse-7"


def test_the_lobby_lists_my_games_once_updates_live_and_leaving_asks_first(server: Server, browser: Any) -> None:
    page = new_person(browser)
    sign_up(page, server.url, "lena", PASSWORD)
    token = _token(server, "lena", PASSWORD)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    mine = _api(server, "POST", "/api/tables", {"game": "haleakala", "players": 2, "seats": seats}, token)["id"]
    deadline = time.monotonic() + 30
    while _api(server, "GET", f"/api/tables/{mine}/state", None, token)["seat"] not in (
        _api(server, "GET", f"/api/tables/{mine}/state", None, token)["to_act"]
    ):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    page.goto(f"{server.url}/")
    assert page.locator(f"#lobby a[href='/tables/{mine}']").count() == 1  # once, in "waiting for you"
    assert page.locator(f"#waiting a[href='/tables/{mine}']").count() == 1
    # another person opens a table: it shows without reloading (the check runs when the tab becomes visible)
    other = new_person(browser)
    sign_up(other, server.url, "milo", PASSWORD)
    milo = _token(server, "milo", PASSWORD)
    page.evaluate("() => { window.__sameDocument = true; }")
    seats = [{"kind": "me"}, {"kind": "open"}]
    opened = _api(server, "POST", "/api/tables", {"game": "iquazu", "players": 2, "seats": seats}, milo)["id"]
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_selector(f"#lobby a[href='/tables/{opened}']", timeout=15_000)
    assert page.evaluate("() => window.__sameDocument") is True
    # "Leave for good" needs its confirmation
    page.goto(f"{server.url}/tables/{mine}")
    wait_live(page)
    page.click(".leave-box summary")
    page.click("#leave-for-good")
    page.wait_for_timeout(500)
    assert page.url.endswith(f"/tables/{mine}")  # nothing happened: the box is not ticked
    assert _api(server, "GET", f"/api/tables/{mine}", None, token)["seats"][0]["gone"] is None
    page.check("#leave-confirm")
    page.click("#leave-for-good")
    page.wait_for_url(f"{server.url}/")
    assert _api(server, "GET", f"/api/tables/{mine}", None, token)["seats"][0]["gone"] is not None
    assert not page.csp_errors, page.csp_errors
    page.context.close()
    other.context.close()
