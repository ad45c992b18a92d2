"""Casual games and hints in the browser (issues 27 and 28): a casual game against a bot made on the
new-table page, the key H asks for a hint, the move is marked on the board with its line of words and the
seat's count goes up; the game-over page shows the count. In a rated game between people there is no
Hint button and the API refuses."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from .harness import Server, create_table, new_person, shoot, sign_up, wait_for, wait_live
from .test_browser import _api, _play_through_api

PASSWORD = "correct-horse-7"


def _token(page: Any) -> str:
    """A personal API token of the page's signed-in account (the browser's own session asks for it)."""
    made = page.evaluate(
        "async () => (await fetch('/api/tokens', {method: 'POST', credentials: 'same-origin'})).json()"
    )
    token: str = made["token"]
    return token


def test_a_hint_in_a_casual_game_against_a_bot(server: Server, browser: Any, shots: Path) -> None:
    eve = new_person(browser)
    sign_up(eve, server.url, "eve_hints", PASSWORD)
    eve.goto(f"{server.url}/tables/new?game=iquazu&players=2")
    eve.check("#casual")
    table = create_table_checked(eve, server.url)
    wait_live(eve)
    assert eve.locator("#table-rated .badge.casual").count() == 1
    assert "H asks the bots for a hint" in eve.locator("#shortcuts").inner_text()
    eve.wait_for_selector("#turn-banner.mine")
    assert eve.locator("#hint-line").is_hidden()
    assert eve.locator("[data-hints='0']").inner_text() == "Hints used: 0"
    eve.locator("#board").click(position={"x": 2, "y": 2})  # the focus on the page, not in a field
    eve.keyboard.press("h")
    eve.wait_for_selector("#hint-line:not([hidden])", timeout=30_000)
    line = eve.locator("#hint-line").inner_text()
    assert line.startswith("Best: ") and "win chance" in line and "%" in line, line
    assert "error" not in (eve.locator("#hint-line").get_attribute("class") or "")
    highlighted = eve.locator("#board").get_attribute("data-highlight")
    assert highlighted is not None and highlighted.isdigit()
    marked = eve.locator(f"#board .hint, #move-list .hint[data-action='{highlighted}']")
    assert marked.count() >= 1
    label = eve.evaluate("(a) => window.spieltafelTable.label(Number(a))", highlighted)
    assert line.startswith(f"Best: {label}")
    assert eve.locator("[data-hints='0']").inner_text() == "Hints used: 1"
    assert eve.locator("#hint-thinking").is_hidden() and eve.locator("#hint-button").is_enabled()
    shoot(eve, shots, "hint")
    # the same through the button, with the spinner while it thinks
    eve.click("#hint-button")
    eve.wait_for_function("() => document.querySelector('[data-hints=\"0\"]').textContent.endsWith('2')",
                          timeout=30_000)
    # the rest of the game through the API; the page turns into the game-over page with the count
    _play_through_api(server, table, _token(eve), random.Random(8), lambda state: False)
    wait_for(lambda: eve.locator("#h-result").count(), timeout=60)
    assert eve.locator(".result-table td.hints[data-hints='0']").inner_text() == "2"
    assert eve.locator("#table-rated .badge.casual").count() == 1
    record = _api(server, "GET", f"/api/tables/{table}/record")
    assert record["hints"] == [2, 0]
    shoot(eve, shots, "hint-over")
    assert not eve.csp_errors, eve.csp_errors
    eve.context.close()


def create_table_checked(page: Any, base: str) -> int:
    """Submit the new-table form as filled (me against a random bot)."""
    page.select_option("#seat-0", "me")
    page.select_option("#seat-1", "bot:random")
    page.click("form.new-table button[type=submit]")
    page.wait_for_url(f"{base}/tables/*")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def test_no_hint_in_a_rated_game_between_people(server: Server, browser: Any) -> None:
    fay, gil = new_person(browser), new_person(browser)
    sign_up(fay, server.url, "fay_hints", PASSWORD)
    sign_up(gil, server.url, "gil_hints", PASSWORD)
    table = create_table(fay, server.url, "iquazu", 2, ["me", "open"])
    gil.goto(f"{server.url}/tables/{table}")
    gil.click("form[action$='/join'] button[type=submit]")
    for page in (fay, gil):
        page.goto(f"{server.url}/tables/{table}")
        wait_live(page)
        assert page.locator("#hint-button").count() == 0
        assert page.locator("[data-hints]").count() == 0
        assert "hint" not in page.locator("#shortcuts").inner_text().lower()
        assert "badge casual" not in page.content()
        answer = page.evaluate(
            "async (id) => { const r = await fetch(`/api/tables/${id}/hint`, {method: 'POST', credentials: "
            "'same-origin', headers: {'Content-Type': 'application/json'}, body: '{}'}); "
            "return [r.status, await r.json()]; }",
            table,
        )
        assert answer[0] == 403 and answer[1]["detail"]["code"] == "no-hints", answer
    fay.context.close()
    gil.context.close()
