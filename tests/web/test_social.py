"""The browser suite, social side (issue 14): table chat live between a player and a spectator, markup shown
as text; a profile page with its rating plot and a recent game's replay; the rematch button."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from .harness import Server, create_table, new_person, sign_up, wait_live
from .test_browser import _api, _play_through_api, _token

MARKUP = '<b>bold</b><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def test_chat_is_live_and_markup_stays_text(server: Server, browser: Any) -> None:
    cleo = new_person(browser)
    dirk = new_person(browser)
    sign_up(cleo, server.url, "cleo")
    sign_up(dirk, server.url, "dirk")
    table = create_table(cleo, server.url, "haleakala", 2, ["me", "bot:random"])
    wait_live(cleo)
    dirk.goto(f"{server.url}/tables/{table}")  # watching
    wait_live(dirk)
    cleo.fill("#chat-text", MARKUP)
    cleo.click("#chat-form button[type=submit]")
    line = "#chat-list li.channel-players .chat-text"
    dirk.wait_for_selector(line)
    assert dirk.locator(line).inner_text() == MARKUP
    assert cleo.locator(line).inner_text() == MARKUP
    for page in (cleo, dirk):
        assert page.locator("#chat-list b, #chat-list script, #chat-list img").count() == 0
        assert page.evaluate("() => window.pwned") is None
    dirk.fill("#chat-text", "only the spectators read this")
    dirk.click("#chat-form button[type=submit]")
    dirk.wait_for_selector("#chat-list li.channel-spectators")
    cleo.reload()
    wait_live(cleo)
    assert cleo.locator("#chat-list li.channel-spectators").count() == 0
    assert cleo.locator(line).inner_text() == MARKUP  # kept with the table
    assert not cleo.csp_errors and not dirk.csp_errors, cleo.csp_errors + dirk.csp_errors
    cleo.context.close()
    dirk.context.close()


def test_profile_page_shows_the_rating_plot_and_links_the_replay(server: Server, browser: Any) -> None:
    erik = new_person(browser)
    sign_up(erik, server.url, "erik", "correct-horse-7")
    token = _token(server, "erik", "correct-horse-7")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    table = _api(server, "POST", "/api/tables", {"game": "iquazu", "players": 2, "seats": seats}, token)["id"]
    _play_through_api(server, table, token, random.Random(5), lambda state: False)
    deadline = time.monotonic() + 30  # a game the bot ends is rated a moment after it is over
    while _api(server, "GET", "/api/players/erik")["games_played"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    erik.goto(f"{server.url}/players/erik")
    assert erik.locator("svg.rating-plot circle.dot").count() == 1
    assert erik.locator("svg.rating-plot").is_visible()
    # mu from a newcomer's rating to the one after the game (a drawn game leaves mu as it was: a horizontal
    # line, whose bounding box has no height, so Playwright never calls it visible)
    assert len((erik.locator("svg.rating-plot polyline.mu").get_attribute("points") or "").split()) == 2
    erik.click(f"a[href='/tables/{table}/replay']")
    erik.wait_for_url(f"{server.url}/tables/{table}/replay")
    erik.goto(f"{server.url}/leaderboards/iquazu")
    assert erik.locator("table.rating-table a[href='/players/erik']").count() == 1
    assert not erik.csp_errors, erik.csp_errors
    erik.context.close()


def test_rematch_button_and_the_other_player_sees_it(server: Server, browser: Any) -> None:
    fay, gus = new_person(browser), new_person(browser)
    sign_up(fay, server.url, "fay", "correct-horse-7")
    sign_up(gus, server.url, "gus", "correct-horse-7")
    tokens = [_token(server, name, "correct-horse-7") for name in ("fay", "gus")]
    seats = [{"kind": "me"}, {"kind": "open"}]
    table = _api(server, "POST", "/api/tables", {"game": "iquazu", "players": 2, "seats": seats}, tokens[0])["id"]
    _api(server, "POST", f"/api/tables/{table}/join", {}, tokens[1])
    rng = random.Random(9)
    while not _api(server, "GET", f"/api/tables/{table}/state")["result"]:
        for token in tokens:
            _play_through_api(server, table, token, rng, lambda state: state["seat"] not in state["to_act"])
    for page in (fay, gus):
        page.goto(f"{server.url}/tables/{table}")
    fay.click("#rematch")
    fay.wait_for_url(re.compile(r".*/tables/\d+$"))
    rematch = int(fay.url.rsplit("/", 1)[1])
    assert rematch != table
    gus.wait_for_selector(f"#rematch-link[href='/tables/{rematch}']", timeout=20_000)  # without reloading by hand
    assert not fay.csp_errors and not gus.csp_errors, fay.csp_errors + gus.csp_errors
    fay.context.close()
    gus.context.close()
